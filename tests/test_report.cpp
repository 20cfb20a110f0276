// The Markdown summary and the step-time / cost breakdowns front ends draw.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/report.hpp"

using namespace llmplan;

TEST_CASE("step breakdown: the parts add up to the step time") {
  const char* text = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "global_batch": 256, "tokens": 1e9,
    "cluster": {"gpus": 32}, "parallel": {"tp": 8, "pp": 2, "zero": 1}})";
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE(p.scenario);
  const EstimateResult r = estimate(*p.scenario, default_calibration());
  const StepBreakdown b = step_breakdown(r.time);
  double sum = 0;
  for (double v : b.s) sum += v;
  CHECK(sum == doctest::Approx(r.time.step_s).epsilon(1e-9));
  CHECK(b.total_s == r.time.step_s);
  CHECK(b.s[static_cast<size_t>(StepPart::bubble)] > 0);  // pp = 2
  CHECK(std::string(result_key(StepPart::exposed_comm)) == "time.exposed_comm_s");
  CHECK(usd_in(100, Currency::cny, r.cost) == doctest::Approx(100 * r.cost.usd_to_cny));
  CHECK(usd_in(100, Currency::usd, r.cost) == 100);
}

TEST_CASE("markdown summary names the model, the verdict, the cost and the warnings") {
  const char* text =
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "tokens": 1e9, "cluster": {"gpus": 1}})";
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE(p.scenario);
  const EstimateResult r = estimate(*p.scenario, default_calibration());
  REQUIRE_FALSE(r.memory.fits);
  const std::string md = markdown_summary(text, *p.scenario, r, builtin_catalog(), "https://x/#v=1");
  CHECK(md.find("Llama 3.1 8B") != std::string::npos);
  CHECK(md.find("| Fits? | **no**") != std::string::npos);
  CHECK(md.find("`memory_exceeds`") != std::string::npos);
  CHECK(md.find("[Open this estimate](https://x/#v=1)") != std::string::npos);
  CHECK(md.find(R"("preset": "llama-3.1-8b")") != std::string::npos);
  CHECK(md.find("¥") != std::string::npos);
  // Each headline figure carries its 80 % range in parentheses, as the result JSON's "ranges" say.
  const std::vector<FigureRange> ranges = figure_ranges(*p.scenario, r, builtin_residuals());
  const std::string step = "| Step time | " + format_duration(r.time.step_s) + " (" + format_duration(ranges[0].low) +
                           "\u2013" + format_duration(ranges[0].high) + ")";
  CHECK_MESSAGE(md.find(step) != std::string::npos, md);
  CHECK(md.find("80 % ranges") != std::string::npos);
}

TEST_CASE("the layout line says how many pipeline schedules a step runs, where more than one") {
  // torchtitan, PP 2 x FSDP 4, 32 sequences: 8 micro-batches a rank in 4 schedules of 2.
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4096, "micro_batch": 1, "global_batch": 32,
    "tokens": 1e9, "framework": "torchtitan", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
    "parallel": {"pp": 2, "zero": 3, "pp_flushes": 4}})";
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE(p.scenario);
  const EstimateResult r = estimate(*p.scenario, default_calibration());
  const std::string md = markdown_summary(text, *p.scenario, r, builtin_catalog(), "https://x/#v=1");
  CHECK_MESSAGE(md.find("| Layout | TP 1, PP 2 (4 pipeline flushes a step), DP 4,") != std::string::npos, md);
  const JsonResponse json = estimate_json(text, builtin_catalog(), default_calibration(), false);
  REQUIRE(json.ok);
  CHECK(nlohmann::json::parse(json.body)["layout"]["pp_flushes"] == 4);
  // One schedule says nothing more.
  Scenario one = *p.scenario;
  one.parallel.pp_flushes = 1;
  CHECK(markdown_summary(text, one, estimate(one, default_calibration()), builtin_catalog(), "")
            .find("pipeline flushes a step") == std::string::npos);
}
