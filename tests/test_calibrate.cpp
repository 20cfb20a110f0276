// Calibration from a trial run (llmplan/calibrate.hpp): reproduction, scale-out, refusals, ranges.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/calibrate.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/link.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"

using namespace llmplan;
using json = nlohmann::json;

namespace {

// Llama 3.1 8B full fine-tuning with FSDP on H100s; the calibration block is added per test.
json base() {
  return json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096,
      "micro_batch": 2, "global_batch": 512, "tokens": 1e10, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64},
      "parallel": {"zero": 3, "recompute": "selective"}})");
}

ScenarioParse parse_doc(const json& doc) { return parse_scenario(doc.dump(), builtin_catalog()); }

Scenario parse_ok(const json& doc) {
  const ScenarioParse p = parse_doc(doc);
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}

EstimateResult run(const Scenario& s) { return estimate(s, default_calibration()); }

InputError refusal(json doc) {
  const ScenarioParse p = parse_doc(doc);
  CHECK_FALSE(p.scenario.has_value());
  return p.error;
}

}  // namespace

TEST_SUITE("calibration from a trial run") {
  TEST_CASE("estimated at the measured configuration, the scenario reproduces each measurement within 1 %") {
    json doc = base();
    doc["calibration"] = {{"tokens_per_s_per_gpu", 5200}, {"peak_memory_gib", 41.5}};
    const Scenario s = parse_ok(doc);
    CHECK(s.factors.throughput);
    CHECK(s.factors.memory_measured);
    CHECK(s.factors.same_layout);
    const EstimateResult r = run(s);
    CHECK(r.time.tokens_per_s / 64 == doctest::Approx(5200).epsilon(0.01));
    CHECK((r.memory.per_gpu.total() - r.memory.per_gpu.runtime) / kGiB == doctest::Approx(41.5).epsilon(0.01));
    // nvidia-smi also sees the CUDA context, workspaces and the allocator's cache: the model's runtime term.
    doc["calibration"] = {{"step_s", 9.5}, {"peak_memory_gib", 50}, {"peak_memory_from", "nvidia_smi"}};
    const EstimateResult smi = run(parse_ok(doc));
    CHECK(smi.time.step_s == doctest::Approx(9.5).epsilon(0.01));
    CHECK(smi.memory.per_gpu.total() / kGiB == doctest::Approx(50).epsilon(0.01));
    // MFU in the estimator's convention: model FLOPs / (step x GPUs x dense peak).
    doc["calibration"] = {{"mfu", 0.31}};
    CHECK(run(parse_ok(doc)).time.mfu == doctest::Approx(0.31).epsilon(0.01));
  }

  TEST_CASE("a single-GPU trial pins the compute rate: the factor is measured / modelled throughput") {
    // One GPU: no communication, no bubble, no data stall, so the step is compute only and the
    // factor is exactly the ratio of the throughputs (hand count: step = compute_s / factor).
    json doc = json::parse(R"({"model": {"preset": "qwen2.5-0.5b"}, "method": "full", "seq_len": 2048,
        "micro_batch": 4, "global_batch": 16, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}})");
    const double modelled = run(parse_ok(doc)).time.tokens_per_s;
    doc["calibration"] = {{"tokens_per_s_per_gpu", 0.6 * modelled}};
    const Scenario s = parse_ok(doc);
    CHECK(s.factors.compute == doctest::Approx(0.6).epsilon(1e-4));
    const TrialReport report = trial_report(s, builtin_catalog(), default_calibration());
    REQUIRE(report.reproduced.size() == 1);
    CHECK(report.reproduced[0].path == "calibration.tokens_per_s_per_gpu");
    CHECK(report.reproduced[0].estimated == doctest::Approx(0.6 * modelled).epsilon(1e-4));
  }

  TEST_CASE("measured on one node, carried to eight: the factor applies, the communication stays modelled") {
    json trial = base();
    trial["cluster"]["gpus"] = 8;
    trial["global_batch"] = 64;  // the same accumulation (4) at DP 8
    const EstimateResult at8 = run(parse_ok(trial));
    json doc = base();
    doc["calibration"] = {{"tokens_per_s_per_gpu", 0.8 * at8.time.tokens_per_s / 8}, {"measured_on", {{"gpus", 8}}}};
    const Scenario s = parse_ok(doc);
    CHECK_FALSE(s.factors.same_layout);
    // The trial scenario: 8 GPUs, global batch 4 x 2 x 8 = 64 (the scenario's accumulation kept).
    const Scenario t = trial_scenario(s, builtin_catalog());
    CHECK(t.cluster.gpus == 8);
    CHECK(t.effective_global_batch() == 64);
    CHECK(run(t).time.tokens_per_s / 8 == doctest::Approx(0.8 * at8.time.tokens_per_s / 8).epsilon(0.01));
    const EstimateResult plain = run(parse_ok(base()));
    const EstimateResult calibrated = run(s);
    CHECK(calibrated.time.compute_s == doctest::Approx(plain.time.compute_s / s.factors.compute));
    CHECK(calibrated.time.comm.dp_s == doctest::Approx(plain.time.comm.dp_s));
  }

  TEST_CASE("a torchtitan pipeline's flushes: the trial keeps them, takes measured_on's, or runs one schedule") {
    // Llama 3.1 8B on 8 H100s, PP 2 x FSDP 4, 8 micro-batches a rank and step in 4 schedules of 2
    // (torchtitan: 4 accumulation steps, local batch 2). Each schedule pays the bubble (1/2 of its
    // ideal time) and its own gradient reduction, so one schedule a step is faster.
    json doc = json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4096, "micro_batch": 1,
        "global_batch": 32, "tokens": 1e9, "framework": "torchtitan", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
        "parallel": {"pp": 2, "zero": 3, "pp_flushes": 4}})");
    const double four = run(parse_ok(doc)).time.tokens_per_s / 8;
    json one_doc = doc;
    one_doc["parallel"]["pp_flushes"] = 1;
    const double one = run(parse_ok(one_doc)).time.tokens_per_s / 8;
    REQUIRE(one > 1.05 * four);
    // Measured at the modelled rate of the run's own 4 schedules: the trial is the scenario, factor 1
    // (a trial of one schedule would read the same rate as 1 - four / one slower than modelled).
    doc["calibration"] = {{"tokens_per_s_per_gpu", four}};
    Scenario s = parse_ok(doc);
    CHECK(trial_scenario(s, builtin_catalog()).parallel.pp_flushes == 4);
    CHECK(s.factors.compute == doctest::Approx(1.0).epsilon(1e-3));
    CHECK(s.factors.same_layout);
    // measured_on says the trial ran one schedule at that schedule's modelled rate: factor 1 again,
    // and the scenario's 4 schedules are another layout than the trial's.
    doc["calibration"] = {{"tokens_per_s_per_gpu", one}, {"measured_on", {{"pp_flushes", 1}}}};
    s = parse_ok(doc);
    CHECK(trial_scenario(s, builtin_catalog()).parallel.pp_flushes == 1);
    CHECK(s.factors.compute == doctest::Approx(1.0).epsilon(1e-3));
    CHECK_FALSE(s.factors.same_layout);
    // A trial of global batch 12 has 3 micro-batches a rank, which 4 schedules do not divide: one.
    doc["calibration"] = {{"tokens_per_s_per_gpu", one}, {"measured_on", {{"global_batch", 12}}}};
    CHECK(trial_scenario(parse_ok(doc), builtin_catalog()).parallel.pp_flushes == 1);
    // Given, it must divide them: 3 schedules of 8 micro-batches are refused, naming the field.
    doc["calibration"] = {{"tokens_per_s_per_gpu", one}, {"measured_on", {{"pp_flushes", 3}}}};
    const InputError e = refusal(doc);
    CHECK(e.field == "calibration.measured_on");
    CHECK(e.message.find("parallel.pp_flushes") != std::string::npos);
    // A trial without pipeline stages runs one schedule: more is refused, not ignored.
    doc["calibration"] = {{"tokens_per_s_per_gpu", one}, {"measured_on", {{"pp", 1}, {"pp_flushes", 4}}}};
    const InputError flat = refusal(doc);
    CHECK(flat.field == "calibration.measured_on.pp_flushes");
    CHECK(flat.message.find("allowed 1, got 4") != std::string::npos);
  }

  TEST_CASE("measured bus bandwidths replace the catalog's") {
    json doc = base();
    doc["parallel"] = {{"tp", 8}, {"zero", 1}, {"sequence_parallel", true}};
    const json layout = doc;
    const EstimateResult plain = run(parse_ok(doc));
    doc["calibration"] = {{"busbw_gb_per_s", {{"intra", 180}, {"inter", 150}}}, {"data_read_gb_per_s", 2}};
    const Scenario s = parse_ok(doc);
    CHECK(s.cluster.intra_busbw_gb_per_s == 180);
    CHECK(s.network.busbw_fraction == doctest::Approx(150 / s.network.node_gb_per_s));
    CHECK(s.storage.data_read_mb_per_s == doctest::Approx(2000.0 * 8));  // per node x 8 nodes
    // The TP all-reduces are inside a node: they run at the measured busbw (slower than the catalog's).
    CHECK(link_bandwidth(s).intra_busbw == doctest::Approx(180e9));
    CHECK(link_bandwidth(parse_ok(layout)).intra_busbw > 180e9);
    CHECK(run(s).time.comm.tp_s > plain.time.comm.tp_s);
    const TrialReport report = trial_report(s, builtin_catalog(), default_calibration());
    REQUIRE(report.reproduced.size() == 3);
    CHECK(report.reproduced[0].estimated == doctest::Approx(180));
    CHECK(report.reproduced[1].estimated == doctest::Approx(150));
    CHECK(report.reproduced[2].estimated == doctest::Approx(2));
  }

  TEST_CASE("impossible or contradictory measurements are refused, naming the field") {
    json doc = base();
    doc["calibration"] = {{"tokens_per_s_per_gpu", 1e6}};
    InputError e = refusal(doc);
    CHECK(e.field == "calibration.tokens_per_s_per_gpu");
    CHECK(e.message.find("above the accelerator's dense bf16 peak of 989") != std::string::npos);
    doc["calibration"] = {{"peak_memory_gib", 90}};
    e = refusal(doc);
    CHECK(e.field == "calibration.peak_memory_gib");
    CHECK(e.message.find("must be at most the GPU's memory, 74.51 GiB") != std::string::npos);
    doc["calibration"] = {{"peak_memory_gib", 0.5}};
    e = refusal(doc);
    CHECK(e.field == "calibration.peak_memory_gib");
    CHECK(e.message.find("below what the trial's layout holds without activations") != std::string::npos);
    doc["calibration"] = {{"tokens_per_s_per_gpu", 3000}, {"step_s", 9}};
    CHECK(refusal(doc).message.find("give one of") != std::string::npos);
    doc["calibration"] = {{"busbw_gb_per_s", {{"intra", 2000}}}};
    e = refusal(doc);
    CHECK(e.field == "calibration.busbw_gb_per_s.intra");
    CHECK(e.message.find("at most the scale-up link's 450 GB/s") != std::string::npos);
    // Across nodes a hierarchical all-reduce runs inside each node too: it cannot beat the node.
    doc["calibration"] = {{"busbw_gb_per_s", {{"intra", 180}, {"inter", 200}}}};
    e = refusal(doc);
    CHECK(e.field == "calibration.busbw_gb_per_s.inter");
    CHECK(e.message.find("at most the measured intra-node bus bandwidth, 180 GB/s") != std::string::npos);
    doc["calibration"] = {{"tokens_per_s_per_gpu", 3000}, {"measured_on", {{"gpus", 6}, {"tp", 4}}}};
    e = refusal(doc);
    CHECK(e.field == "calibration.measured_on");
    CHECK(e.message.find("the trial's layout") != std::string::npos);
    // A trial far slower than any compute rate the model allows says so instead of fitting.
    doc["calibration"] = {{"step_s", 1e5}};
    CHECK(refusal(doc).message.find("over 20x slower than the model") != std::string::npos);
  }

  TEST_CASE("a trial faster than the layout's modelled waits allow names the largest of them") {
    // NeMo AutoModel's DeepSeek-V3 on 256 H100s (TP 1, PP 4, VP 8, EP 64 with DeepEP): published
    // 1,002 tokens/s a GPU, a step of 512 x 4,096 / (1,002 x 256) = 8.18 s, in which the model's
    // all-to-alls over the 8 nodes of each EP group leave the computation too little time.
    const json doc = json::parse(R"({"model": {"preset": "deepseek-v3"}, "method": "pretrain", "seq_len": 4096,
        "micro_batch": 1, "global_batch": 512, "dropout": false,
        "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256, "gpus_per_node": 8},
        "parallel": {"pp": 4, "vp": 8, "ep": 64, "ep_dispatcher": "deepep", "zero": 2, "recompute": "full",
                     "attention_kernel": "cudnn"}, "framework": "torchtitan",
        "network": {"inter_node_link": "infiniband-ndr"}, "techniques": {"fused_kernels": true},
        "calibration": {"tokens_per_s_per_gpu": 1002}})");
    const InputError e = refusal(doc);
    CHECK(e.field == "calibration.tokens_per_s_per_gpu");
    CHECK(e.message.find("% of their peak on the trial's layout, at most 100 %") != std::string::npos);
    CHECK(e.message.find("the largest: the exposed expert-parallel all-to-alls") != std::string::npos);
    CHECK(e.message.find("s of the measured 8.18 s step") != std::string::npos);
    CHECK(e.message.find("calibration.busbw_gb_per_s") != std::string::npos);
  }

  TEST_CASE("ranges narrow after calibration: to the measurement at the trial's layout, to scale-out elsewhere") {
    const Scenario plain = parse_ok(base());
    const auto published = figure_ranges(plain, run(plain), builtin_residuals());
    const FigureRange* p = find_range(published, "time.tokens_per_s");
    REQUIRE(p);
    CHECK(p->basis == RangeBasis::published);

    json same = base();
    same["calibration"] = {{"tokens_per_s_per_gpu", 5200}};
    const Scenario at_trial = parse_ok(same);
    const auto measured = figure_ranges(at_trial, run(at_trial), builtin_residuals());
    CHECK(find_range(measured, "time.tokens_per_s") == nullptr);  // the figure is the measurement
    CHECK(measured[1].basis == RangeBasis::measured);
    CHECK(measured[1].low == measured[1].value);
    // Memory was not measured: its range stays the published runs'.
    CHECK(find_range(measured, "memory.per_gpu_bytes.total")->basis == RangeBasis::published);

    json scaled = same;
    scaled["calibration"]["measured_on"] = {{"gpus", 8}};
    const Scenario out = parse_ok(scaled);
    const auto calibrated = figure_ranges(out, run(out), builtin_residuals());
    const FigureRange* c = find_range(calibrated, "time.tokens_per_s");
    REQUIRE(c);
    CHECK(c->basis == RangeBasis::calibrated);
    // Elsewhere the range is what calibrated estimates of published runs in the same regime
    // missed by: the 10th and 90th percentiles of the "throughput_calibrated" residuals, around the
    // calibrated estimate. It is not always narrower than the uncalibrated one: the two pools hold
    // different runs (here 22 calibrated runs against 20 runs of 4 families).
    const RatioRange pool = ratio_range(regime_of(out), "throughput_calibrated", builtin_residuals());
    REQUIRE(pool.cases >= kMinRangeCases);
    CHECK(c->cases == pool.cases);
    CHECK(c->high / c->low == doctest::Approx(pool.high / pool.low));
    CHECK(c->low < c->value);
    CHECK(c->value < c->high);
  }

  TEST_CASE("the calibration block round-trips through the writer and a link, and the result reports it") {
    json doc = base();
    doc["calibration"] = {
        {"tokens_per_s_per_gpu", 5200}, {"peak_memory_gib", 41.5}, {"measured_on", {{"gpus", 8}, {"micro_batch", 1}}}};
    const LinkEncode link = encode_link(doc.dump(), builtin_catalog());
    REQUIRE(link.ok);
    CHECK(link.fragment.find("&kt=5.2e3") != std::string::npos);
    CHECK(link.fragment.find("&km=41.5") != std::string::npos);
    CHECK(link.fragment.find("&kog=8") != std::string::npos);
    CHECK(link.fragment.find("&kom=1") != std::string::npos);
    const LinkDecode back = decode_link(link.fragment, builtin_catalog());
    REQUIRE(back.valid);
    const json input = json::parse(back.input_json);
    CHECK(input["calibration"] == doc["calibration"]);
    const Scenario s = parse_ok(doc);
    CHECK(json::parse(write_scenario_input(s, builtin_catalog()))["calibration"] == doc["calibration"]);
    const JsonResponse r = estimate_json(doc.dump(), builtin_catalog(), default_calibration(), false);
    REQUIRE(r.ok);
    const json body = json::parse(r.body);
    CHECK(body["calibration"]["factors"]["compute"].get<double>() == doctest::Approx(s.factors.compute));
    CHECK(body["calibration"]["reproduced"]["tokens_per_s_per_gpu"]["estimated"].get<double>() ==
          doctest::Approx(5200).epsilon(0.01));
    CHECK(body["calibration"]["same_layout"] == false);
    CHECK(body["ranges"]["time.tokens_per_s"]["basis"] == "calibrated runs");
  }
}

#include "llmplan/planner.hpp"

TEST_SUITE("calibration from a trial run") {
  TEST_CASE("in the planner the calibration applies to plans on the trial's accelerator, the others are marked") {
    json q = json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096,
        "global_batch": 256, "tokens": 2e9, "objective": "min_cost", "top_n": 20,
        "constraints": {"accelerators": ["h100-sxm5-80gb", "a100-sxm4-80gb"], "max_gpus": 64, "currency": "usd"}})");
    q["calibration"] = {{"tokens_per_s_per_gpu", 3000}};
    const PlanJsonResponse missing = plan_json(q.dump(), builtin_catalog(), default_calibration());
    CHECK_FALSE(missing.ok);
    CHECK(missing.error.field == "calibration.measured_on.accelerator");
    q["calibration"]["measured_on"] = {{"accelerator", "h100-sxm5-80gb"}, {"gpus", 8}};
    const PlanJsonResponse r = plan_json(q.dump(), builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(r.ok, r.error.message);
    const json body = json::parse(r.body);
    int calibrated = 0, not_calibrated = 0;
    for (const json& p : body["plans"]) {
      const bool on_trial_gpu = p["accelerator"] == "h100-sxm5-80gb";
      CHECK(p["calibrated"].get<bool>() == on_trial_gpu);
      (on_trial_gpu ? calibrated : not_calibrated) += 1;
    }
    CHECK(calibrated > 0);
    CHECK(not_calibrated > 0);
    for (const json& p : body["pareto"]) CHECK(p.contains("calibrated"));
  }

  TEST_CASE("a scenario on another accelerator than the trial is checked against it but not calibrated") {
    json doc = base();
    doc["cluster"]["accelerator"] = "a100-sxm4-80gb";
    doc["calibration"] = {{"tokens_per_s_per_gpu", 3000},
                          {"measured_on", {{"accelerator", "h100-sxm5-80gb"}, {"gpus", 8}}}};
    const Scenario s = parse_ok(doc);
    CHECK_FALSE(s.calibrated());
    CHECK(s.compute_factor() == 1.0);
    json plain = base();
    plain["cluster"] = doc["cluster"];
    CHECK(run(s).time.tokens_per_s == doctest::Approx(run(parse_ok(plain)).time.tokens_per_s));
    const TrialReport report = trial_report(s, builtin_catalog(), default_calibration());
    CHECK(report.reproduced[0].estimated == doctest::Approx(3000).epsilon(0.01));  // on the H100 trial
    CHECK(report.notes.back().text.find("not calibrated") != std::string::npos);
    CHECK(report.notes.back().code == "other_accelerator");
    CHECK(report.notes.back().args == std::vector<std::string>{"h100-sxm5-80gb", "a100-sxm4-80gb"});
    doc["calibration"]["measured_on"]["accelerator"] = "h100";
    const InputError e = refusal(doc);
    CHECK(e.field == "calibration.measured_on.accelerator");
  }
}
