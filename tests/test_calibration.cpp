// The Calibration: every constant documented, the fitted ones naming cases that exist and are
// marked "fit" in tests/validation/cases.json, and an estimate that uses the value it is given.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"

using namespace llmplan;
using json = nlohmann::json;

namespace {

// The validation cases of this source tree (LLMPLAN_SOURCE_DIR: tests/CMakeLists.txt), whatever
// folder ctest or Node runs the tests from.
json validation_cases() {
  for (const std::string& path :
       {std::string(LLMPLAN_SOURCE_DIR) + "/tests/validation/cases.json", std::string("tests/validation/cases.json")}) {
    std::ifstream in(path);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
  }
  return json();
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
    "fitted constants name the validation cases they were fitted on, and the grid-fitted ones name all fit cases") {
  const json doc = validation_cases();
  REQUIRE(doc.contains("cases"));
  std::set<std::string> fit, all;
  for (const json& c : doc["cases"]) {
    all.insert(c["id"].get<std::string>());
    if (c.value("calibration", "holdout") == "fit") fit.insert(c["id"].get<std::string>());
  }
  const Calibration& cal = default_calibration();
  int fitted = 0;
  for (const Constant* c : cal.all()) {
    if (!c->fitted()) continue;
    ++fitted;
    for (const std::string& id : words(c->fitted_on)) {
      CAPTURE(c->name);
      CAPTURE(id);
      CHECK(all.count(id) == 1);
      CHECK(fit.count(id) == 1);
    }
  }
  CHECK(fitted == 4);
  // llmplan_validate --fit searches these three on every "fit" throughput figure.
  for (const Constant* c : {&cal.gemm_half_size, &cal.elementwise_passes, &cal.softmax_passes}) {
    CAPTURE(c->name);
    CHECK(words(c->fitted_on) == fit);
  }
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
  CHECK(default_calibration().gemm_half_size.value == 384.0);
  bool found = false;
  for (const Explanation& e : ex.items()) {
    if (e.key != "time.gemm_efficiency") continue;
    for (const auto& [name, value] : e.inputs)
      if (name == "kGemmHalfSize") found = value == 768.0;
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
