// Ranges: 80 % intervals read off the validation residuals of comparable runs (llmplan/ranges.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"

using namespace llmplan;

namespace {

Residual row(const std::string& family, double ratio, bool multi_node = false,
             FrameworkKind fw = FrameworkKind::megatron) {
  Residual r;
  r.case_id = family + std::to_string(ratio);
  r.family = family;
  r.group = "throughput";
  r.ratio = ratio;
  r.regime.multi_node = multi_node;
  r.regime.framework = fw;
  return r;
}

// 12 runs of families a, b and c at 0.9, 0.97, 1.03 and 1.1, and runs of `family` on a slow path.
std::vector<Residual> with_slow_runs(const std::string& family, std::initializer_list<double> ratios, SlowPath path,
                                     FrameworkKind fw) {
  std::vector<Residual> rows;
  for (const char* f : {"a", "b", "c"})
    for (double ratio : {0.9, 0.97, 1.03, 1.1}) rows.push_back(row(f, ratio));
  for (double ratio : ratios) {
    Residual r = row(family, ratio, false, fw);
    r.regime.slow_path = path;
    rows.push_back(r);
  }
  return rows;
}

Scenario parse(const char* text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
  return *p.scenario;
}

}  // namespace

TEST_SUITE("ranges") {
  TEST_CASE("the conformal 10th and 90th percentiles of published / estimated, families weighing equally") {
    // Three families of 4 runs each, ratios 0.80, 0.90, 1.00, 1.10 (family a), 1.00 x 4 (b),
    // 1.20 x 4 (c): 12 runs of weight 1/4 each. For a new run, the upper level is
    // ceil((n + 1) x 0.9) / n = ceil(11.7) / 12 = 1 (split conformal, Lei et al. 2018): with 12
    // runs the interval spans the lowest and highest, 0.80 to 1.20. Every run matches a
    // single-node Megatron regime.
    std::vector<Residual> rows;
    for (double x : {0.8, 0.9, 1.0, 1.1}) rows.push_back(row("a", x));
    for (int i = 0; i < 4; ++i) rows.push_back(row("b", 1.0));
    for (int i = 0; i < 4; ++i) rows.push_back(row("c", 1.2));
    const RatioRange q = ratio_range(Regime{}, "throughput", rows);
    CHECK(q.cases == 12);
    CHECK(q.families == 3);
    CHECK(q.low == doctest::Approx(0.8));
    CHECK(q.high == doctest::Approx(1.2));
    // A family with 40 runs at 1.00 weighs what one with 4 does. n = 48: level ceil(49 x 0.9) / 48
    // = 45 / 48 = 0.9375, so 0.0625 at the bottom. Weights: a's and c's runs 1/4, b's 1/40, total
    // 3; the cumulative midpoints of 0.80 and 0.90 are 0.125 / 3 and 0.375 / 3, so the low bound is
    // 0.80 + 0.10 x (0.0625 - 0.04167) / (0.125 - 0.04167) = 0.825; the top 0.0625 (0.1875 of
    // weight) lies inside c's 1.20s.
    std::vector<Residual> many = rows;
    for (int i = 0; i < 36; ++i) many.push_back(row("b", 1.0));
    const RatioRange w = ratio_range(Regime{}, "throughput", many);
    CHECK(w.cases == 48);
    CHECK(w.low == doctest::Approx(0.825));
    CHECK(w.high == doctest::Approx(1.2));
  }

  TEST_CASE("a regime too rare to read a range from gives up its least telling features first") {
    // 12 single-node Megatron runs from 3 families; the scenario runs torchtitan across nodes. No
    // run shares the framework or the node count: both are given up, framework first.
    std::vector<Residual> rows;
    for (const char* f : {"a", "b", "c"})
      for (double x : {0.9, 1.0, 1.1, 1.2}) rows.push_back(row(f, x));
    Regime torchtitan_multi;
    torchtitan_multi.framework = FrameworkKind::torchtitan;
    torchtitan_multi.multi_node = true;
    const RatioRange q = ratio_range(torchtitan_multi, "throughput", rows);
    CHECK(q.cases == 12);
    CHECK(q.shared == "none (every run of the group)");
    // With 10 multi-node torchtitan runs of 3 families that agree closely, the range is theirs and narrow.
    for (const char* f : {"t1", "t2", "t3"})
      for (double x : {0.98, 1.0, 1.02, 1.0}) rows.push_back(row(f, x, true, FrameworkKind::torchtitan));
    const RatioRange n = ratio_range(torchtitan_multi, "throughput", rows);
    CHECK(n.cases == 12);
    CHECK(n.shared.find("framework") != std::string::npos);
    CHECK(n.high - n.low < q.high - q.low);
    // Leaving a family out (the validator's coverage check) leaves 8 torchtitan runs of 2 families,
    // too few: the range is read from the other 5 families' 20 runs.
    const RatioRange left = ratio_range(torchtitan_multi, "throughput", rows, "t1");
    CHECK(left.families == 5);
    CHECK(left.cases == 20);
    // No residuals of the group: no range.
    CHECK(ratio_range(Regime{}, "memory", rows).cases == 0);
  }

  TEST_CASE("durations divide by published / estimated, rates multiply, and every headline figure has its range") {
    const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4096, "global_batch": 64,
        "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1}})");
    const EstimateResult r = estimate(s, default_calibration());
    std::vector<Residual> rows;
    for (const char* f : {"a", "b", "c"})
      for (double x : {0.8, 0.9, 1.0, 1.1}) rows.push_back(row(f, x));
    const std::vector<Residual> throughput_rows = rows;  // the same 12 rows as memory residuals
    for (Residual m : throughput_rows) {
      m.group = "memory";
      rows.push_back(m);
    }
    const RatioRange q = ratio_range(regime_of(s), "throughput", rows);
    const std::vector<FigureRange> ranges = figure_ranges(s, r, rows);
    REQUIRE(ranges.size() == 7);
    for (const FigureRange& f : ranges) {
      CAPTURE(f.path);
      CHECK(f.low < f.value);
      CHECK(f.value < f.high);
    }
    CHECK(std::string(ranges[0].path) == "time.step_s");
    CHECK(ranges[0].low == doctest::Approx(r.time.step_s / q.high));
    CHECK(ranges[0].high == doctest::Approx(r.time.step_s / q.low));
    CHECK(std::string(ranges[1].path) == "time.tokens_per_s");
    CHECK(ranges[1].low == doctest::Approx(r.time.tokens_per_s * q.low));
    CHECK(std::string(ranges[6].path) == "memory.per_gpu_bytes.total");
  }

  TEST_CASE("the built-in residuals are the validation table's, and the result JSON carries the ranges") {
    const std::vector<Residual>& rows = builtin_residuals();
    int throughput = 0, memory = 0;
    for (const Residual& x : rows) (x.group == "throughput" ? throughput : memory) += 1;
    CHECK(throughput > 200);  // the fit and held-out throughput cases of tests/validation/cases.json
    CHECK(memory > 40);
    const JsonResponse resp = estimate_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9,
        "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})",
                                            builtin_catalog(), default_calibration(), true);
    REQUIRE(resp.ok);
    const nlohmann::json j = nlohmann::json::parse(resp.body);
    for (const char* path : {"time.step_s", "time.tokens_per_s", "time.mfu", "time.total_hours", "gpu_hours",
                             "cost.total_usd", "memory.per_gpu_bytes.total"}) {
      CAPTURE(path);
      REQUIRE(j["ranges"].contains(path));
      const auto& g = j["ranges"][path];
      CHECK(g["level"] == 0.8);
      CHECK(g["cases"].get<int>() >= kMinRangeCases);
      CHECK(g["low"].get<double>() <= g["high"].get<double>());
      // --explain names the runs a range is read from.
      const std::string formula = j["explain"][std::string("ranges.") + path + ".low"]["formula"];
      CHECK(formula.find("published runs of") != std::string::npos);
    }
  }

  TEST_CASE("a malformed residuals document is refused with what is wrong") {
    std::string error;
    CHECK(parse_residuals("[]", error).empty());
    CHECK(error.find("expected") != std::string::npos);
    error.clear();
    // Rows of the old object format, or without the column list, are refused.
    CHECK(parse_residuals(R"({"residuals": [{"family": "a", "group": "memory", "ratio": 1.1, "framework": "hf"}]})",
                          error)
              .empty());
    CHECK(error.find("columns") != std::string::npos);
    const std::string columns =
        R"("columns": ["case", "family", "group", "ratio", "multi_node", "peft", "seq_band", "accelerator_class", "framework",
                       "slow_path"])";
    error.clear();
    CHECK(parse_residuals("{" + columns + R"(, "residuals": [["c", "a", "speed", 1, 0, 0, 0, 0, "hf", ""]]})", error)
              .empty());
    CHECK(error.find("malformed") != std::string::npos);
    error.clear();
    CHECK(parse_residuals("{" + columns + R"(, "residuals": [["c", "a", "memory", 0, 0, 0, 0, 0, "hf", ""]]})", error)
              .empty());
    CHECK(error.find("malformed") != std::string::npos);  // a ratio must be > 0
    error.clear();
    // A slow path the core does not know is refused like an unknown framework.
    CHECK(parse_residuals("{" + columns + R"(, "residuals": [["c", "a", "memory", 1.1, 1, 0, 2, 1, "hf", "slowish"]]})",
                          error)
              .empty());
    CHECK(error.find("malformed") != std::string::npos);
    error.clear();
    const auto rows = parse_residuals(
        "{" + columns +
            R"(, "residuals": [["c", "a", "throughput", 0.7, 1, 0, 2, 1, "hf", "pytorch_ring_attention"]]})",
        error);
    REQUIRE(rows.size() == 1);
    CHECK(error.empty());
    CHECK(rows[0].regime.multi_node);
    CHECK_FALSE(rows[0].regime.peft);
    CHECK(rows[0].regime.seq_band == 2);
    CHECK(rows[0].regime.accelerator_class == 1);
    CHECK(rows[0].regime.slow_path == SlowPath::pytorch_ring_attention);
  }

  TEST_CASE("a slow path's evidence is the median and lowest of its published runs' throughput residuals") {
    std::vector<Residual> rows;
    for (double ratio : {0.39, 0.85, 0.43, 0.83}) {
      Residual r = row("mb", ratio);
      r.regime.slow_path = SlowPath::dropless_moe_small_batch;
      rows.push_back(r);
    }
    // Neither a calibrated residual, a memory one nor another path's counts.
    Residual calibrated = rows[0];
    calibrated.group = "throughput_calibrated";
    calibrated.ratio = 0.1;
    Residual memory = rows[0];
    memory.group = "memory";
    memory.ratio = 0.1;
    Residual other = rows[0];
    other.regime.slow_path = SlowPath::pytorch_ring_attention;
    other.ratio = 0.1;
    rows.insert(rows.end(), {calibrated, memory, other, row("plain", 0.1)});
    const SlowPathEvidence e = slow_path_evidence(SlowPath::dropless_moe_small_batch, rows);
    CHECK(e.runs == 4);
    CHECK(e.median == doctest::Approx((0.43 + 0.83) / 2));  // sorted 0.39, 0.43, 0.83, 0.85
    CHECK(e.lowest == doctest::Approx(0.39));
    CHECK(e.highest == doctest::Approx(0.85));
    CHECK(slow_path_evidence(SlowPath::pytorch_ring_attention, rows).median == doctest::Approx(0.1));
    CHECK(slow_path_evidence(SlowPath::none, rows).runs == 0);  // the untagged runs are no path
  }

  TEST_CASE("on a warned slow path the throughput range reaches down to the lowest run on the path") {
    // 12 comparable runs of 3 families at 0.9-1.1 (the range: all 12, 0.9 to 1.1), and 3 of a
    // fourth family, of another framework, on PyTorch's ring attention at 0.5, 0.6 and 0.7
    // (median 0.6 < 0.8: warned).
    std::vector<Residual> rows =
        with_slow_runs("ds", {0.5, 0.6, 0.7}, SlowPath::pytorch_ring_attention, FrameworkKind::torchtitan);
    Regime plain;
    Regime on_path;
    on_path.slow_path = SlowPath::pytorch_ring_attention;
    const RatioRange before = ratio_range(plain, "throughput", rows);
    const RatioRange after = ratio_range(on_path, "throughput", rows);
    REQUIRE(before.low == doctest::Approx(0.9));
    CHECK(after.low == doctest::Approx(0.5));
    CHECK(after.high == doctest::Approx(before.high));  // the high bound stays
    CHECK(after.shared.find("pytorch_ring_attention") != std::string::npos);
    // With the path's family left out (the validator's coverage check) nothing is left to read.
    CHECK(ratio_range(on_path, "throughput", rows, "ds").low ==
          doctest::Approx(ratio_range(plain, "throughput", rows, "ds").low));
    // Memory ranges, and a path whose runs are not slow enough to warn, keep the comparable range.
    CHECK(ratio_range(on_path, "memory", rows).cases == 0);
    for (Residual& x : rows)
      if (x.family == "ds") x.ratio += 0.25;  // 0.75, 0.85, 0.95: median 0.85
    const RatioRange mild = ratio_range(on_path, "throughput", rows);
    CHECK(mild.low == doctest::Approx(ratio_range(plain, "throughput", rows).low));
    CHECK(mild.shared.find("pytorch_ring_attention") == std::string::npos);
  }

  TEST_CASE("runs on a warned slow path are read apart: they do not widen the ranges of runs off it") {
    // 12 runs of 3 families at 0.9-1.1, and 3 of a fourth family sharing every regime feature but
    // on Megatron's dropless MoE path at 0.4, 0.5 and 0.6 (median 0.5 < 0.8: warned). Off the path
    // the range is the 12 runs' own, 0.9 to 1.1 (n 12: the conformal bounds are the extremes); in
    // one pool of 15 its low bound would be 0.4.
    std::vector<Residual> rows =
        with_slow_runs("moe", {0.4, 0.5, 0.6}, SlowPath::dropless_moe_small_batch, FrameworkKind::megatron);
    Regime plain;
    Regime on_path;
    on_path.slow_path = SlowPath::dropless_moe_small_batch;
    const RatioRange off = ratio_range(plain, "throughput", rows);
    CHECK(off.cases == 12);
    CHECK(off.low == doctest::Approx(0.9));
    CHECK(off.high == doctest::Approx(1.1));
    const RatioRange on = ratio_range(on_path, "throughput", rows);
    CHECK(on.low == doctest::Approx(0.4));
    CHECK(on.high == doctest::Approx(1.1));
    // Memory runs are not read apart: the slowness is the path's throughput.
    std::vector<Residual> memory = rows;
    for (Residual& x : memory) x.group = "memory";
    CHECK(ratio_range(plain, "memory", memory).cases == 15);
    // A path whose runs are not slow enough to warn (0.75, 0.85, 0.95: median 0.85) stays in the pool.
    for (Residual& x : rows)
      if (x.family == "moe") x.ratio += 0.35;
    CHECK(ratio_range(plain, "throughput", rows).cases == 15);
  }

  TEST_CASE("a scenario on a slow path is tagged by the fields that make the path") {
    // Qwen3-30B-A3B on Megatron with EP 8 and the all-to-all dispatcher, 1 sequence of 4,096 tokens
    // a micro-batch (Megatron-Bridge's H100 rows): 4,096 <= kSlowMoeTokens.
    const char* moe = R"({"model": {"preset": "qwen3-30b-a3b"}, "framework": "%s", "seq_len": 4096,
        "micro_batch": %d, "global_batch": 512, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
        "parallel": {"ep": %d%s}})";
    char text[512];
    auto moe_with = [&](int micro_batch, const char* extra, int ep = 8, const char* framework = "megatron") {
      std::snprintf(text, sizeof text, moe, framework, micro_batch, ep, extra);
      return parse(text);
    };
    CHECK(slow_path_of(moe_with(1, "")) == SlowPath::dropless_moe_small_batch);
    CHECK(slow_path_of(moe_with(4, "")) == SlowPath::dropless_moe_small_batch);  // 16,384 tokens, the bound
    CHECK(slow_path_of(moe_with(8, "")) == SlowPath::none);                      // 32,768 tokens a GPU
    // Tokens a GPU: 8 x 4,096 over TP 2 with sequence parallelism is 16,384; over CP 2 the same.
    CHECK(slow_path_of(moe_with(8, R"(, "tp": 2, "sequence_parallel": true)")) == SlowPath::dropless_moe_small_batch);
    CHECK(slow_path_of(moe_with(8, R"(, "cp": 2)")) == SlowPath::dropless_moe_small_batch);
    CHECK(slow_path_of(moe_with(1, R"(, "ep_dispatcher": "deepep")")) == SlowPath::none);
    CHECK(slow_path_of(moe_with(1, "", 1)) == SlowPath::none);  // no expert parallelism
    // PyTorch-native expert parallelism: torchtitan (and what builds on it) with EP >= 2, any dispatcher
    // and micro-batch; not without EP, not for a dense model.
    CHECK(slow_path_of(moe_with(1, "", 8, "torchtitan")) == SlowPath::pytorch_expert_parallel);
    CHECK(slow_path_of(moe_with(8, R"(, "ep_dispatcher": "deepep")", 8, "torchtitan")) ==
          SlowPath::pytorch_expert_parallel);
    CHECK(slow_path_of(moe_with(1, "", 1, "torchtitan")) == SlowPath::none);
    // PyTorch's ring attention: torchtitan with CP >= 2, not CP 1, not Megatron's CP.
    const char* cp = R"({"model": {"preset": "llama-3.1-8b"}, "framework": "%s", "seq_len": 131072,
        "global_batch": 8, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
        "parallel": {"zero": 3, "cp": %d, "recompute": "full"}})";
    auto cp_with = [&](const char* framework, int degree) {
      std::snprintf(text, sizeof text, cp, framework, degree);
      return parse(text);
    };
    CHECK(slow_path_of(cp_with("torchtitan", 4)) == SlowPath::pytorch_ring_attention);
    CHECK(slow_path_of(cp_with("torchtitan", 1)) == SlowPath::none);
    CHECK(slow_path_of(cp_with("megatron", 4)) == SlowPath::none);
  }

  TEST_CASE("known_slow_path warns with what the built-in published runs of the path measured") {
    // The tagged runs are the validation table's (core/data/residuals.json): Megatron-Bridge's
    // Qwen3 MoE rows and torchtitan's context-parallel rows.
    std::vector<std::string> ring, dropless, pytorch_ep;
    for (const Residual& x : builtin_residuals()) {
      if (x.group != "throughput") continue;
      if (x.regime.slow_path == SlowPath::pytorch_ring_attention) ring.push_back(x.case_id);
      if (x.regime.slow_path == SlowPath::dropless_moe_small_batch) dropless.push_back(x.case_id);
      if (x.regime.slow_path == SlowPath::pytorch_expert_parallel) pytorch_ep.push_back(x.case_id);
    }
    CHECK(ring.size() == 6);  // torchtitan Llama 3.1 8B and 405B at CP 2, 4 and 8
    // NeMo AutoModel's MoE rows (FSDP2 with DeepEP, its fake balanced gate).
    std::sort(pytorch_ep.begin(), pytorch_ep.end());
    CHECK(pytorch_ep == std::vector<std::string>{"automodel-deepseek-v3-h100-1024gpu",
                                                 "automodel-deepseek-v3-h100-256gpu",
                                                 "automodel-gpt-oss-120b-h100-64gpu", "automodel-gpt-oss-20b-h100-8gpu",
                                                 "automodel-kimi-k2-h100-256gpu", "automodel-qwen3-30b-a3b-h100-8gpu"});
    // Qwen3-30B-A3B (EP 8, 1-2 x 4,096 tokens) and Qwen3-235B-A22B (EP 32, TP 2 with sequence
    // parallelism: 2,048 tokens a GPU), each in the 25.11 and 26.02 tables, and GPT-OSS 120B on every
    // system of both (1-4 x 4,096 or 1-2 x 8,192 tokens, EP 8 or 64), and the GPT-OSS 120B model
    // verification card's tuned GB200 run (alltoall dispatch, 4 x 4,096 tokens, EP 64).
    std::sort(dropless.begin(), dropless.end());
    CHECK(dropless ==
          std::vector<std::string>{"mbridge-verify-gpt-oss-120b-gb200-64gpu", "mbridge2511-gpt-oss-120b-b200-64gpu",
                                   "mbridge2511-gpt-oss-120b-gb200-64gpu", "mbridge2511-gpt-oss-120b-gb300-64gpu",
                                   "mbridge2511-gpt-oss-120b-h100-64gpu", "mbridge2511-qwen3-235b-a22b-h100-256gpu",
                                   "mbridge2511-qwen3-30b-a3b-h100-16gpu", "mbridge2602-gpt-oss-120b-b200-64gpu",
                                   "mbridge2602-gpt-oss-120b-b300-64gpu", "mbridge2602-gpt-oss-120b-gb200-64gpu",
                                   "mbridge2602-gpt-oss-120b-gb300-64gpu", "mbridge2602-gpt-oss-120b-h100-64gpu",
                                   "mbridge2602-qwen3-235b-a22b-h100-256gpu", "mbridge2602-qwen3-30b-a3b-h100-16gpu"});
    for (SlowPath p :
         {SlowPath::dropless_moe_small_batch, SlowPath::pytorch_ring_attention, SlowPath::pytorch_expert_parallel}) {
      CAPTURE(kSlowPathNames[static_cast<int>(p)]);
      CHECK(builtin_slow_path_evidence(p).runs >= kMinSlowPathRuns);
    }
    CHECK(builtin_slow_path_evidence(SlowPath::dropless_moe_small_batch).median < kSlowPathWarnBelow);
    CHECK(builtin_slow_path_evidence(SlowPath::pytorch_ring_attention).median < kSlowPathWarnBelow);
    // Since model 42 the pipelined NeMo AutoModel rows count their schedules (parallel.pp_flushes)
    // and FSDP's exposed reduce-scatters: published / estimated 0.7050, 0.7394, 0.7971, 0.8083,
    // 0.9890 and 1.0432 (core/data/residuals.json), median (0.7971 + 0.8083) / 2 = 0.8027, at the
    // threshold, so PyTorch's expert parallelism is not warned.
    CHECK(builtin_slow_path_evidence(SlowPath::pytorch_expert_parallel).median ==
          doctest::Approx((0.7971 + 0.8083) / 2.0));
    CHECK(builtin_slow_path_evidence(SlowPath::pytorch_expert_parallel).median >= kSlowPathWarnBelow);
    const Scenario s = parse(R"({"model": {"preset": "qwen3-30b-a3b"}, "framework": "megatron", "seq_len": 4096,
        "micro_batch": 1, "global_batch": 512, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
        "parallel": {"ep": 8}})");
    const EstimateResult r = estimate(s, default_calibration());
    const Warning* w = nullptr;
    for (int i = 0; i < r.warnings.count; ++i)
      if (r.warnings.items[i].code == WarningCode::known_slow_path) w = &r.warnings.items[i];
    REQUIRE(w != nullptr);
    const SlowPathEvidence& e = builtin_slow_path_evidence(SlowPath::dropless_moe_small_batch);
    CHECK(std::string(w->rule) == "dropless_moe_small_batch");
    CHECK(w->runs == 14);
    CHECK(w->value < kSlowPathWarnBelow);
    CHECK(w->limit <= w->value);
    CHECK(w->value <= w->high);
    CHECK(w->value == e.median);
    const std::string message = warning_message(*w);
    CHECK(message.find("dropless all-to-all MoE dispatch") != std::string::npos);
    CHECK(message.find(format_number("%.1f", 1 / w->value) + "x as long") != std::string::npos);
    // It comes right after memory_exceeds, before the rest: the embed card shows the first three.
    CHECK(r.warnings.items[r.memory.fits ? 0 : 1].code == WarningCode::known_slow_path);
    // Off the path (DeepEP's dispatch), no such warning.
    Scenario deepep = s;
    deepep.parallel.ep_dispatcher = EpDispatcher::deepep;
    const EstimateResult d = estimate(deepep, default_calibration());
    for (int i = 0; i < d.warnings.count; ++i) CHECK(d.warnings.items[i].code != WarningCode::known_slow_path);
  }
}
