// The Calibration: every constant documented, the fitted ones naming fit families of
// tests/validation/cases.json (or their cases), and an estimate that uses the value it is given.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "source_files.hpp"

using namespace llmplan;
using json = nlohmann::json;

namespace {

// The validation cases of this source tree.
json validation_cases() {
  const std::string text = test::read_source_file("tests/validation/cases.json");
  return text.empty() ? json() : json::parse(text);
}

std::set<std::string> words(const char* text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

Scenario parse(const char* text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
  return *p.scenario;
}

}  // namespace

TEST_CASE("every constant has a name, a unit and a public source") {
  std::set<std::string> names;
  for (const Constant* c : default_calibration().all()) {
    CAPTURE(c->name);
    CHECK(std::string(c->name).rfind('k', 0) == 0);
    CHECK(names.insert(c->name).second);
    CHECK(std::string(c->unit).size() > 0);
    const std::string source = c->source;
    CHECK(source.size() > 20);
    // Sources are public documents a reader can look up, not notes of this project.
    CHECK(source.find("seed") == std::string::npos);
    CHECK(source.find("model-reference") == std::string::npos);
  }
  CHECK(names.size() == static_cast<size_t>(Calibration::kCount));
}

TEST_CASE(
    "fitted constants name only fit families of tests/validation/cases.json or their cases, the grid-fitted ones the "
    "same") {
  // docs/validation.md: the split between fit and held-out is made by source family, declared once
  // under "families"; a constant may be fitted on a fit family (named, or through its cases) only.
  const json doc = validation_cases();
  REQUIRE(doc.contains("cases"));
  REQUIRE(doc.contains("families"));
  std::map<std::string, std::string> set_of_family, family_of_case;
  for (const auto& [name, family] : doc["families"].items()) set_of_family[name] = family["set"].get<std::string>();
  for (const json& c : doc["cases"]) family_of_case[c["id"].get<std::string>()] = c["family"].get<std::string>();
  auto fit = [&](const std::string& id) {
    const std::string family = family_of_case.count(id) ? family_of_case[id] : id;
    return set_of_family.count(family) == 1 && set_of_family[family] == "fit";
  };
  const Calibration& cal = default_calibration();
  int fitted = 0;
  for (const Constant* c : cal.all()) {
    if (!c->fitted()) continue;
    ++fitted;
    for (const std::string& id : words(c->fitted_on)) {
      CAPTURE(c->name);
      CAPTURE(id);
      CHECK(fit(id));
    }
  }
  CHECK(fitted == 5);
  // llmplan_validate --fit-attention fits kTritonAttentionRatio alone, on the two fit families that ran
  // flash-attn's Triton kernel, which no benchmark publishes a rate of (llm-foundry's A100 and H100 rows).
  CHECK(words(cal.triton_attention_ratio.fitted_on) == std::set<std::string>{"foundry-a100", "foundry-h100"});
  // llmplan_validate --fit searches these four together on one set of figures.
  CHECK(words(cal.gemm_half_size.fitted_on) == words(cal.elementwise_passes.fitted_on));
  CHECK(words(cal.gemm_half_size.fitted_on) == words(cal.softmax_passes.fitted_on));
  CHECK(words(cal.gemm_half_size.fitted_on) == words(cal.zero3_overlap.fitted_on));
}

TEST_CASE("an estimate uses the calibration it is given, and explains with its values") {
  const Scenario s = parse(
      R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 1}})");
  const EstimateResult base = estimate(s, default_calibration());
  Calibration cal = default_calibration();
  cal.runtime_overhead_bytes.value += 1e9;
  cal.gemm_half_size.value *= 2;
  Explainer ex;
  const EstimateResult changed = estimate(s, cal, &ex);
  CHECK(changed.memory.per_gpu.runtime == doctest::Approx(base.memory.per_gpu.runtime + 1e9));
  CHECK(changed.time.gemm_efficiency < base.time.gemm_efficiency);
  CHECK(changed.time.mfu < base.time.mfu);
  // The copy changed, not the defaults.
  CHECK(default_calibration().gemm_half_size.value == 256.0);
  bool found = false;
  for (const Explanation& e : ex.items()) {
    if (e.key != "time.gemm_efficiency") continue;
    for (const auto& [name, value] : e.inputs)
      if (name == "kGemmHalfSize") found = value == 512.0;
  }
  CHECK(found);
}

TEST_CASE("docs/calibration.md is the generated table of constants (run `llmplan calibration > docs/calibration.md`)") {
  std::ifstream in(std::string(LLMPLAN_SOURCE_DIR) + "/docs/calibration.md");
  if (!in) in.open("docs/calibration.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == llmplan::calibration_markdown(llmplan::default_calibration()));
}
