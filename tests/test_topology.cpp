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
  // rank = tp + TP x (dp + DP x pp)
  CHECK(rank_role(0, 8, 2, 4).tp == 0);
  CHECK(rank_role(13, 8, 2, 4).tp == 5);
  CHECK(rank_role(13, 8, 2, 4).dp == 1);
  CHECK(rank_role(13, 8, 2, 4).pp == 0);
  CHECK(rank_role(40, 8, 2, 4).pp == 1);
  CHECK(rank_role(40, 8, 2, 4).dp == 1);
  CHECK(sketch_nodes(3, 4) == std::vector<int>{0, 1, 2});
  CHECK(sketch_nodes(128, 4) == std::vector<int>{0, 1, 2, 127});
  const Scenario pcie =
      parsed(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "l40s", "gpus": 4}})");
  CHECK(sketch_cluster(pcie, builtin_catalog()).scale_up == ScaleUp::pcie);
  CHECK(sketch_cluster(pcie, builtin_catalog()).nodes == 1);
}
