// topology.cpp: the figures a cluster sketch draws, from the resolved scenario and the catalog.
#include "llmplan/topology.hpp"

#include <algorithm>
#include <cmath>

#include "llmplan/catalog.hpp"

namespace llmplan {

ClusterSketch sketch_cluster(const Scenario& s, const Catalog& catalog) {
  ClusterSketch k;
  const Cluster& c = s.cluster;
  k.gpus = c.gpus;
  k.gpus_per_node = std::min(c.gpus, c.gpus_per_node);
  k.nodes = c.nodes();
  k.tp = s.parallel.tp;
  k.pp = s.parallel.pp;
  k.dp = std::max(1, s.dp());
  k.instance = c.instance;
  const Accelerator* a = catalog.find_accelerator(c.accelerator);
  k.accelerator = a ? a->name : c.accelerator;
  k.scale_up_gb_per_s = c.intra_node_gb_per_s;
  const Interconnect* up = a ? catalog.find_interconnect(a->intra_node_link) : nullptr;
  if (up) {
    k.scale_up_name = up->name;
    if (up->technology == "nvlink")
      // NVLink 3 and later reach every GPU of an 8-GPU board through NVSwitch; NVLink 2 (V100) is a hybrid cube mesh.
      k.scale_up = up->id == "nvlink2" ? ScaleUp::nvlink : ScaleUp::nvswitch;
    else if (up->technology == "infinity_fabric")
      k.scale_up = ScaleUp::infinity_fabric;
    else if (up->technology == "hccs")
      k.scale_up = ScaleUp::hccs;
  } else {
    k.scale_up_name = "PCIe";
  }
  const Interconnect* out = catalog.find_interconnect(s.network.inter_node_link);
  k.fabric = out ? out->id : "tcp";
  k.fabric_name = out ? out->name : "TCP (no published fabric)";
  k.rdma = s.network.rdma && out;
  k.node_gbps = s.network.node_gb_per_s * 8;
  const double line = out && out->line_rate_gbps ? *out->line_rate_gbps : k.node_gbps;
  k.nics_per_node = line > 0 ? std::max(1, static_cast<int>(std::lround(k.node_gbps / line))) : 1;
  k.nic_gbps = k.node_gbps / k.nics_per_node;
  return k;
}

RankRole rank_role(int rank, int tp, int pp, int dp) {
  tp = std::max(1, tp);
  dp = std::max(1, dp);
  RankRole r;
  r.tp = rank % tp;
  r.dp = (rank / tp) % dp;
  r.pp = std::min(std::max(1, pp) - 1, rank / (tp * dp));
  return r;
}

std::vector<int> sketch_nodes(int nodes, int max_shown) {
  std::vector<int> out;
  if (nodes <= max_shown) {
    for (int i = 0; i < nodes; ++i) out.push_back(i);
    return out;
  }
  for (int i = 0; i < max_shown - 1; ++i) out.push_back(i);
  out.push_back(nodes - 1);
  return out;
}

}  // namespace llmplan
