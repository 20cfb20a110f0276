// The cluster sketch (topology.hpp): nodes, scale-up domain, fabric and the rank order.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "llmplan/catalog.hpp"
#include "llmplan/topology.hpp"

using namespace llmplan;

namespace {
Scenario parsed(const std::string& text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}
}  // namespace

TEST_CASE("cluster sketch: nodes, scale-up domain, fabric and Megatron rank order") {
  const Scenario s =
      parsed(R"({"model": {"preset": "llama-3.1-70b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64,
    "gpus_per_node": 8}, "parallel": {"tp": 8, "pp": 2}})");
  const ClusterSketch k = sketch_cluster(s, builtin_catalog());
  CHECK(k.nodes == 8);
  CHECK(k.gpus_per_node == 8);
  CHECK(k.dp == 4);
  CHECK(k.scale_up == ScaleUp::nvswitch);
  CHECK(k.fabric == "infiniband-ndr");
  CHECK(k.rdma);
  CHECK(k.nics_per_node == 8);  // one 400 Gb/s port per GPU
  CHECK(k.nic_gbps == doctest::Approx(400));
  // rank = tp + TP x (cp + CP x (dp + DP x pp)), here CP 1
  CHECK(rank_role(0, 8, 1, 2, 4).tp == 0);
  CHECK(rank_role(13, 8, 1, 2, 4).tp == 5);
  CHECK(rank_role(13, 8, 1, 2, 4).dp == 1);
  CHECK(rank_role(13, 8, 1, 2, 4).pp == 0);
  CHECK(rank_role(40, 8, 1, 2, 4).pp == 1);
  CHECK(rank_role(40, 8, 1, 2, 4).dp == 1);
  CHECK(sketch_nodes(3, 4) == std::vector<int>{0, 1, 2});
  CHECK(sketch_nodes(128, 4) == std::vector<int>{0, 1, 2, 127});
  const Scenario pcie =
      parsed(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "l40s", "gpus": 4}})");
  CHECK(sketch_cluster(pcie, builtin_catalog()).scale_up == ScaleUp::pcie);
  CHECK(sketch_cluster(pcie, builtin_catalog()).nodes == 1);
}

TEST_CASE("rank order with context and expert parallelism: TP, then CP, then DP (EP inside it), then PP") {
  // Llama 3 405B's long-context layout (Llama 3 paper, Table 4): TP 8, CP 16, PP 16, DP 8 on
  // 16,384 GPUs. rank = tp + 8 (cp + 16 (dp + 8 pp)): rank 8 is CP rank 1 of the first TP group,
  // rank 128 the second DP replica, rank 1024 the second pipeline stage.
  const Scenario s = parsed(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072,
    "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384}, "global_batch": 128,
    "parallel": {"tp": 8, "cp": 16, "pp": 16, "sequence_parallel": true}})");
  const ClusterSketch k = sketch_cluster(s, builtin_catalog());
  CHECK(k.cp == 16);
  CHECK(k.dp == 8);
  const RankRole r8 = rank_role(8, k.tp, k.cp, k.pp, k.dp);
  CHECK(r8.tp == 0);
  CHECK(r8.cp == 1);
  CHECK(r8.dp == 0);
  CHECK(rank_role(128, k.tp, k.cp, k.pp, k.dp).dp == 1);
  CHECK(rank_role(128, k.tp, k.cp, k.pp, k.dp).cp == 0);
  CHECK(rank_role(1024, k.tp, k.cp, k.pp, k.dp).pp == 1);
  CHECK(rank_role(16383, k.tp, k.cp, k.pp, k.dp).pp == 15);
  // Group ids: ranks 0 and 8 share a DP group? No: they differ in CP. They share a CP group.
  CHECK(group_of(rank_role(0, 8, 16, 16, 8), k, RankGroup::cp).id == group_of(r8, k, RankGroup::cp).id);
  CHECK(group_of(rank_role(0, 8, 16, 16, 8), k, RankGroup::dp).id != group_of(r8, k, RankGroup::dp).id);
  CHECK(group_of(r8, k, RankGroup::cp).count == 8 * 8 * 16);  // TP x DP x PP CP groups of 16
  CHECK(group_of(r8, k, RankGroup::dp).count == 8 * 16 * 16);
  CHECK(group_of(r8, k, RankGroup::tp).count == 16 * 8 * 16);
  // EP 4 folded into TP 8 x CP 16 x DP 8 with ETP = TP (Megatron-Core's expert rank generator
  // "tp-ep-dp-pp"): an EP group is 4 consecutive TP groups, here CP ranks 0-3 of DP replica 5.
  ClusterSketch e = k;
  e.ep = 4;
  const RankRole d5 = rank_role(5 * 128, 8, 16, 16, 8, 4);
  CHECK(d5.dp == 5);
  CHECK(d5.ep == 0);
  CHECK(rank_role(5 * 128 + 3 * 8, 8, 16, 16, 8, 4).ep == 3);
  CHECK(group_of(d5, e, RankGroup::ep).id ==
        group_of(rank_role(5 * 128 + 3 * 8, 8, 16, 16, 8, 4), e, RankGroup::ep).id);
  CHECK(group_of(d5, e, RankGroup::ep).id !=
        group_of(rank_role(5 * 128 + 4 * 8, 8, 16, 16, 8, 4), e, RankGroup::ep).id);
  CHECK(group_of(d5, e, RankGroup::ep).count == 8 * 16 * 2 * 16);
  // ETP 1 (Qwen3 235B's TP 2 x EP 32): EP runs across the TP ranks, 32 consecutive GPUs.
  ClusterSketch f = k;
  f.tp = 2;
  f.cp = 1;
  f.dp = 16;
  f.pp = 8;
  f.ep = 32;
  f.etp = 1;
  const RankRole g0 = rank_role(0, 2, 1, 8, 16, 32, 1);
  const RankRole g31 = rank_role(31, 2, 1, 8, 16, 32, 1);
  CHECK(g31.ep == 31);
  CHECK(group_of(g0, f, RankGroup::ep).id == group_of(g31, f, RankGroup::ep).id);
  CHECK(group_of(g0, f, RankGroup::ep).id != group_of(rank_role(32, 2, 1, 8, 16, 32, 1), f, RankGroup::ep).id);
  CHECK(group_of(g0, f, RankGroup::ep).count == 8);  // one per pipeline stage
}
