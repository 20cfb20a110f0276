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
  std::string accelerator;  // catalog name (the id when the catalog lacks it)
  std::string instance;     // catalog instance id, or empty
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

// Megatron-LM's rank order (tp fastest, then dp, then pp): rank = tp + TP * (dp + DP * pp).
struct RankRole {
  int tp = 0, dp = 0, pp = 0;
};
RankRole rank_role(int rank, int tp, int pp, int dp);

// The node indices a sketch draws: all when there are at most `max_shown`, else the first
// max_shown - 1 and the last (the gap stands for the nodes in between).
std::vector<int> sketch_nodes(int nodes, int max_shown);

}  // namespace llmplan
