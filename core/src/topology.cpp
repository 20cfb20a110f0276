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
  k.cp = std::max(1, s.parallel.cp);
  k.ep = std::max(1, s.parallel.ep);
  k.etp = s.parallel.expert_tp();
  k.vp = std::max(1, s.parallel.vp);
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

RankRole rank_role(int rank, int tp, int cp, int pp, int dp, int ep, int etp) {
  tp = std::max(1, tp);
  cp = std::max(1, cp);
  dp = std::max(1, dp);
  RankRole r;
  r.tp = rank % tp;
  r.cp = (rank / tp) % cp;
  r.dp = (rank / (tp * cp)) % dp;
  r.pp = std::min(std::max(1, pp) - 1, rank / (tp * cp * dp));
  // MoE parallel folding: the stage's tp x cp x dp ranks in order, ETP innermost, then EP.
  r.stage_rank = rank % (tp * cp * dp);
  r.ep = (r.stage_rank / std::max(1, etp > 0 ? etp : tp)) % std::max(1, ep);
  return r;
}

GroupId group_of(const RankRole& r, const ClusterSketch& k, RankGroup group) {
  const int tp = std::max(1, k.tp), cp = std::max(1, k.cp), dp = std::max(1, k.dp), pp = std::max(1, k.pp);
  const int ep = std::max(1, k.ep);
  switch (group) {
    case RankGroup::tp: return {r.cp + cp * (r.dp + dp * r.pp), cp * dp * pp};
    case RankGroup::pp: return {r.pp, pp};
    case RankGroup::dp: return {r.tp + tp * (r.cp + cp * r.pp), tp * cp * pp};
    case RankGroup::cp: return {r.tp + tp * (r.dp + dp * r.pp), tp * dp * pp};
    case RankGroup::ep: {
      // Ranks sharing their place inside the expert's tensor-parallel group and their expert-DP index.
      const int etp = std::max(1, k.etp > 0 ? k.etp : tp);
      const int per_stage = tp * cp * dp / ep;
      return {r.stage_rank % etp + etp * (r.stage_rank / (etp * ep)) + per_stage * r.pp, per_stage * pp};
    }
  }
  return {};
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
