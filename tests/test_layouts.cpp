// The layout search space (counted by hand from the ranges of layouts.hpp) and the framework
// that runs each layout.
#include <doctest/doctest.h>

#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/layouts.hpp"

using namespace llmplan;

namespace {
Scenario parsed(const std::string& text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}

// Llama 3.1 8B (32 layers, 32 heads, 8 KV heads), full fine-tuning, global batch 64.
const char* k8bFull = R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "global_batch": 64,
  "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})";
}  // namespace

TEST_CASE("the enumeration of 8 GPUs, counted by hand from the ranges") {
  const LayoutEnumeration e = enumerate_layouts(layout_space(parsed(k8bFull)));
  // (TP, PP): TP in {1, 2, 4, 8} (divides 32 heads, at most 8 GPUs a node), any PP that splits 32
  // layers (unevenly too) with TP x PP <= 8: 8 + 4 + 2 + 1 pairs, of which 10 divide 8 GPUs and 5
  // do not: (1,3) (1,5) (1,6) (1,7) (2,3).
  CHECK(e.divisibility == 5);
  // (ZeRO, offload) per pair: DP > 1 gives ZeRO-0 + ZeRO 1-3 x {none, cpu} = 7; DP 1 only ZeRO-0.
  // DP > 1: (1,1) (1,2) (1,4) (2,1) (2,2) (4,1); DP 1: (1,8) (2,4) (4,2) (8,1): 6 x 7 + 4 = 46.
  // Megatron-LM refuses offload and ZeRO-2, and ZeRO-3 with PP: 4 x 2 pairs with PP 1 ((2,1),
  // (4,1)) + 5 x 3 pairs with PP > 1 = 23 combinations, each 3 recomputes x 6 micro-batches.
  CHECK(e.software == 23 * 3 * 6);
  // Micro-batch x DP must divide 64: DP 8 drops 16 and 32 (7 combinations of (1,1)); DP 4 drops
  // 32 ((1,2): 2 and (2,1): 3 combinations); times 3 recomputes.
  CHECK(e.batch == (7 * 2 + 5 * 1) * 3);
  CHECK(e.layouts.size() == 23 * 3 * 6 - 57);
  // Fixed order: micro-batch innermost and ascending, then recompute, offload, ZeRO, PP, TP.
  REQUIRE(e.layouts.size() >= 2);
  CHECK(e.layouts[0].micro_batch == 1);
  CHECK(e.layouts[1].micro_batch == 2);
  CHECK(same_but_micro_batch(e.layouts[0], e.layouts[1]));
  for (size_t i = 1; i < e.layouts.size(); ++i) {
    const Layout &a = e.layouts[i - 1], &b = e.layouts[i];
    if (same_but_micro_batch(a, b)) CHECK(a.micro_batch < b.micro_batch);
    CHECK(a.tp <= b.tp);
  }
}

TEST_CASE("(TP, PP) pairs that do not divide the GPUs are counted once each") {
  Scenario s = parsed(k8bFull);
  s.cluster.gpus = 12;
  s.cluster.gpus_per_node = 4;
  s.global_batch = 48;
  // TP in {1, 2, 4}; TP x PP <= 12 with PP splitting 32 layers (10 stages would take 4 blocks each in
  // the middle and leave nothing for the first and last): TP x PP not dividing 12 are (1,5) (1,7)
  // (1,8) (1,9) (1,11), (2,4) (2,5) and (4,2).
  CHECK(enumerate_layouts(layout_space(s)).divisibility == 8);
}

TEST_CASE("framework_for: DeepSpeed or FSDP without model parallelism, Megatron-LM with it, or none") {
  const Scenario s = parsed(k8bFull);
  const ModelArch& m = s.model;
  auto fw = [&](Layout l, Method method = Method::full) { return framework_for(l, m, method).framework; };
  CHECK(fw({1, 1, 0}) == Framework::deepspeed);
  CHECK(fw({1, 1, 3}) == Framework::fsdp);
  CHECK(fw({1, 1, 3, 1, Recompute::none, Offload::cpu}) == Framework::deepspeed);
  CHECK(fw({1, 1, 2}, Method::qlora) == Framework::deepspeed);
  CHECK(fw({8, 1, 1}) == Framework::megatron);
  CHECK(fw({2, 2, 1}) == Framework::megatron);
  CHECK(fw({2, 1, 3}) == Framework::megatron);  // torch FSDP2 inside Megatron-LM
  CHECK(fw({2, 2, 3}) == Framework::none);
  CHECK(fw({2, 1, 2}) == Framework::none);
  CHECK(fw({2, 1, 1, 1, Recompute::none, Offload::cpu}) == Framework::none);
  CHECK(fw({2, 1, 1}, Method::lora) == Framework::none);
  CHECK(fw({1, 2, 0}, Method::freeze) == Framework::none);
  // Llama 3.1 8B has 8 KV heads: TP 16 cannot split them (32 heads would allow it).
  CHECK(fw({16, 1, 0}) == Framework::none);
  CHECK(std::string(framework_for({16, 1, 0}, m, Method::full).reason).find("KV heads") != std::string::npos);
  // Megatron-LM also runs data-parallel layouts, but not offload nor PEFT.
  CHECK(megatron_runs({1, 1, 1}, m, Method::full));
  CHECK_FALSE(megatron_runs({1, 1, 1}, m, Method::lora));
  CHECK_FALSE(megatron_runs({1, 1, 3, 1, Recompute::none, Offload::cpu}, m, Method::full));
  CHECK(std::string(to_string(Framework::megatron)) == "megatron");
}

TEST_CASE("layout_fits: CPU offload also needs the host RAM, which an unknown RAM does not prove") {
  Scenario s = parsed(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "global_batch": 64,
    "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 3, "offload": "cpu"}})");
  const EstimateResult r = estimate(s, default_calibration());
  REQUIRE(r.memory.fits);
  REQUIRE(r.memory.cpu_offload_bytes_per_node > 0);
  s.cluster.node_ram_gb = 0;
  CHECK_FALSE(layout_fits(s, r));
  s.cluster.node_ram_gb = r.memory.cpu_offload_bytes_per_node / 0.8 / 1e9 * 1.01;
  CHECK(layout_fits(s, r));
  s.cluster.node_ram_gb = r.memory.cpu_offload_bytes_per_node / 0.8 / 1e9 * 0.99;
  CHECK_FALSE(layout_fits(s, r));
}

TEST_CASE("the search holds uneven pipelines: Llama 3 405B's 126 layers on 16 stages") {
  // Meta's layout (Llama 3 paper §3.3.2, Table 4): TP 8, PP 16 on 16,384 H100s; 126 blocks do not
  // divide by 16, so stages take 7 + 14 x 8 + 7 (pipeline_split).
  Scenario s = parsed(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 8192, "global_batch": 2048,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384}, "parallel": {"tp": 8, "pp": 16}})");
  bool found = false;
  for (const Layout& l : enumerate_layouts(layout_space(s)).layouts) found = found || (l.tp == 8 && l.pp == 16);
  CHECK(found);
}
