// The layout search space (counted by hand from the ranges of layouts.hpp) and the framework
// that runs each layout.
#include <doctest/doctest.h>

#include <set>
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
  // do not: (1,3) (1,5) (1,6) (1,7) (2,3), counted once each. No CP (4096 tokens < 16384), no EP
  // (dense). VP divides the layers per stage: PP 2 -> 16: {1, 2, 4, 8, 16}; PP 4 -> 8: {1, 2, 4, 8};
  // PP 8 -> 4: {1, 2, 4}. Triples (TP, PP, VP): TP 1: 1 + 5 + 4 + 3 = 13, TP 2: 1 + 5 + 4 = 10,
  // TP 4: 1 + 5 = 6, TP 8: 1; 30 in all.
  CHECK(e.divisibility == 5);
  // (ZeRO, offload) per triple: DP > 1 gives ZeRO-0 + ZeRO 1-3 x {none, cpu} = 7; DP 1 only ZeRO-0.
  // DP > 1: (1,1,1) (1,2,x5) (1,4,x4) (2,1,1) (2,2,x5) (4,1,1) = 17 triples x 7 = 119; DP 1:
  // (1,8,x3) (2,4,x4) (4,2,x5) (8,1,1) = 13 triples x 1: 132 combinations.
  // Megatron-LM refuses offload and ZeRO-2, and ZeRO-3 with PP: 4 each for (2,1,1) and (4,1,1),
  // 5 each for the 14 triples with PP > 1 and DP > 1 = 78 combinations, each 3 recomputes x 6
  // micro-batches.
  CHECK(e.software == 78 * 3 * 6);
  // Micro-batch x DP must divide 64, and with VP > 1 the micro-batches 64 / (mb x DP) must be a
  // multiple of PP (Megatron-LM's interleaved schedule). Per recompute: DP 8 drops mb 16 and 32
  // (7 combinations: 14); DP 4 drops mb 32 (VP 1: 5 combinations: 5), and with VP > 1 (PP 2) mb 16
  // too (8 combinations: 16); DP 2 with PP 4, VP > 1 drops mb 16 and 32 (6 combinations: 12), with
  // PP 2, VP > 1 mb 32 (8 combinations: 8); DP 1 with PP 8, VP > 1 drops mb 16 and 32 (2
  // combinations: 4), with PP 4, VP > 1 mb 32 (3 combinations: 3). 62 per recompute.
  CHECK(e.batch == 62 * 3);
  // Allowed: 132 - 78 = 54 combinations x 18 - 186 = 786 layouts.
  CHECK(e.layouts.size() == 54 * 18 - 62 * 3);
  // Fixed order: micro-batch innermost and ascending, then recompute, offload, ZeRO, EP, VP, PP, CP, TP.
  REQUIRE(e.layouts.size() >= 2);
  CHECK(e.layouts[0].micro_batch == 1);
  CHECK(e.layouts[1].micro_batch == 2);
  CHECK(same_but_micro_batch(e.layouts[0], e.layouts[1]));
  for (size_t i = 1; i < e.layouts.size(); ++i) {
    const Layout &a = e.layouts[i - 1], &b = e.layouts[i];
    if (same_but_micro_batch(a, b)) CHECK(a.micro_batch < b.micro_batch);
    CHECK(a.tp <= b.tp);
    if (a.tp == b.tp && a.pp == b.pp) CHECK(a.vp <= b.vp);
    CHECK(b.cp == 1);
    CHECK(b.ep == 1);
  }
}

TEST_CASE("with activation offload the search keeps to layouts Megatron-LM offloads: no PP, no recompute") {
  // The 8-GPU enumeration above with techniques.activation_offload. TransformerConfig refuses
  // --cpu-offloading with pipeline parallelism and with activation recompute; data-parallel layouts
  // run in FSDP or DeepSpeed and keep every recompute.
  Scenario s = parsed(k8bFull);
  s.techniques.activation_offload = true;
  const LayoutEnumeration e = enumerate_layouts(layout_space(s));
  CHECK(e.divisibility == 5);
  // Refused whole: the 26 triples with PP > 1, 14 of them with DP > 1 (7 sharding combinations
  // each) and 12 with DP 1 (1 each): 110 combinations; and, as before, 4 each of (2,1,1) and
  // (4,1,1): 118 combinations x 3 recomputes x 6 micro-batches. Of the model-parallel triples
  // with PP 1, (2,1,1) and (4,1,1) keep ZeRO 0, 1 and 3 and (8,1,1) ZeRO-0: 7 combinations whose
  // selective and full recompute are refused, 2 x 6 layouts each.
  CHECK(e.software == 118 * 3 * 6 + 7 * 2 * 6);
  // Micro-batch x DP must divide 64: (1,1,1) DP 8 drops mb 16 and 32 in 7 combinations x 3
  // recomputes (42); (2,1,1) DP 4 drops mb 32 in 3 combinations x 1 recompute (3).
  CHECK(e.batch == 42 + 3);
  // (1,1,1): 7 x 18 - 42 = 84; (2,1,1): 3 x 6 - 3 = 15; (4,1,1): 3 x 6 = 18; (8,1,1): 6.
  CHECK(e.layouts.size() == 84 + 15 + 18 + 6);
  for (const Layout& l : e.layouts) {
    CHECK(l.activation_offload);
    CHECK(l.pp == 1);
    if (l.tp > 1) CHECK(l.recompute == Recompute::none);
  }
  Layout pp2 = layout_of(s);
  pp2.pp = 2;
  CHECK(framework_for(pp2, s.model, s.method).framework == Framework::none);
  CHECK(std::string(layout_rule_id(framework_for(pp2, s.model, s.method).reason)) == "activation_offload_without_pp");
}

TEST_CASE("context parallelism is searched from 16384 tokens: powers of two whose 2 x cp divides the sequence") {
  // 8 GPUs, 32768 tokens: CP in {1, 2, 4, 8} with TP x CP <= 8 (32768 / (2 x 8) is whole).
  Scenario s = parsed(k8bFull);
  s.seq_len = 32768;
  LayoutSpace sp = layout_space(s);
  CHECK(sp.max_cp == 8);
  const LayoutEnumeration e = enumerate_layouts(sp);
  std::set<int> cps;
  for (const Layout& l : e.layouts) {
    cps.insert(l.cp);
    CHECK(l.tp * l.cp * l.pp <= 8);
    CHECK(s.seq_len % (2 * l.cp) == 0);
  }
  CHECK(cps == std::set<int>{1, 2, 4, 8});
  // Below 16384 tokens only CP 1, unless asked for (the planner does when nothing fits without).
  s.seq_len = 8192;
  sp = layout_space(s);
  CHECK(sp.max_cp == 1);
  sp.min_cp = 2;
  sp.max_cp = 8;
  for (const Layout& l : enumerate_layouts(sp).layouts) CHECK(l.cp >= 2);
}

TEST_CASE("expert parallelism is searched for MoE models: divisors of the experts that divide DP") {
  // Mixtral 8x7B (8 experts) on 16 GPUs, global batch 64: with TP 8, PP 1 (DP 2) EP in {1, 2};
  // with TP 1, PP 1 (DP 16) EP in {1, 2, 4, 8}; ZeRO-3 with EP is refused (Megatron-LM's
  // arguments.py: torch FSDP2 without expert parallelism).
  const Scenario s = parsed(R"({"model": {"preset": "mixtral-8x7b"}, "method": "full", "global_batch": 64,
    "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}})");
  REQUIRE(s.model.experts == 8);
  std::set<int> tp8, tp1;
  for (const Layout& l : enumerate_layouts(layout_space(s)).layouts) {
    if (l.tp == 8 && l.pp == 1) tp8.insert(l.ep);
    if (l.tp == 1 && l.pp == 1) tp1.insert(l.ep);
    CHECK(s.model.experts % l.ep == 0);
    CHECK((16 / (l.tp * l.cp * l.pp)) % l.ep == 0);
    if (l.ep > 1) CHECK(l.zero != 3);
  }
  CHECK(tp8 == std::set<int>{1, 2});
  CHECK(tp1 == std::set<int>{1, 2, 4, 8});
  // A dense model is never given EP.
  for (const Layout& l : enumerate_layouts(layout_space(parsed(k8bFull))).layouts) CHECK(l.ep == 1);
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
  // Context, expert and virtual pipeline parallelism run in Megatron-LM; not ZeRO-3 with EP.
  Layout cp2{1, 1, 1};
  cp2.cp = 2;
  CHECK(fw(cp2) == Framework::megatron);
  Layout ep2{1, 1, 3};
  ep2.ep = 2;
  CHECK(fw(ep2) == Framework::none);
  ep2.zero = 1;
  CHECK(fw(ep2) == Framework::megatron);
  Layout vp2{1, 2, 1};
  vp2.vp = 2;
  CHECK(fw(vp2) == Framework::megatron);
  CHECK(layout_extra_text(vp2) == ", VP 2");
  cp2.ep = 4;
  CHECK(layout_extra_text(cp2) == " x CP 2, EP 4");
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
