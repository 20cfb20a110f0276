// topology.hpp: what a sketch of a scenario's cluster shows: nodes, the GPUs of each, their
// scale-up domain (NVLink/NVSwitch, xGMI, HCCS or PCIe), the NICs and scale-out fabric between
// nodes, and which tensor/pipeline/data-parallel group each GPU belongs to.
#pragma once
#include <string>
#include <vector>

#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

enum class ScaleUp { nvswitch, nvlink, infinity_fabric, hccs, pcie };

struct ClusterSketch {
  int nodes = 1, gpus_per_node = 8, gpus = 8;
  int tp = 1, pp = 1, dp = 1;
  int cp = 1, ep = 1, vp = 1;  // context parallel, expert parallel, virtual stages per rank
  int etp = 0;                 // expert tensor parallel (0: as tp); EP x ETP fold into TP x CP x DP
  std::string accelerator;     // catalog name (the id when the catalog lacks it)
  std::string instance;        // catalog instance id, or empty
  ScaleUp scale_up = ScaleUp::pcie;
  std::string scale_up_name;     // the interconnect's catalog name, e.g. "NVLink 4 (...)"
  double scale_up_gb_per_s = 0;  // per GPU, one direction
  std::string fabric;            // scale-out interconnect id, or "tcp" when none is published
  std::string fabric_name;
  bool rdma = false;
  double node_gbps = 0;   // scale-out per node, Gb/s (all NICs)
  int nics_per_node = 0;  // ports of the fabric's line rate (at least 1 when there are nodes to link)
  double nic_gbps = 0;    // per NIC
};

ClusterSketch sketch_cluster(const Scenario& s, const Catalog& catalog);

// Megatron-LM's rank order (tp fastest, then cp, then dp, then pp):
// rank = tp + TP * (cp + CP * (dp + DP * pp)). Expert parallelism is carved out of DP: the EP group
// is ep consecutive DP replicas, so a rank's EP rank is dp mod EP (Megatron-Core's expert groups).
struct RankRole {
  int tp = 0, cp = 0, dp = 0, pp = 0, ep = 0;
  int stage_rank = 0;  // index among the tp x cp x dp ranks of its pipeline stage
};
RankRole rank_role(int rank, int tp, int cp, int pp, int dp, int ep = 1, int etp = 0);

// The groups a sketch can colour by. A group's id names it by the coordinates its ranks share
// (a TP group: its CP, DP and PP indices), from 0 to count - 1.
enum class RankGroup { tp, pp, dp, cp, ep };
struct GroupId {
  int id = 0, count = 1;
};
GroupId group_of(const RankRole& role, const ClusterSketch& k, RankGroup group);

// The node indices a sketch draws: all when there are at most `max_shown`, else the first
// max_shown - 1 and the last (the gap stands for the nodes in between).
std::vector<int> sketch_nodes(int nodes, int max_shown);

}  // namespace llmplan
