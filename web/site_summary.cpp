// site_summary.cpp: compiled to WebAssembly and run by Node at build time (cmake/site_tool.mjs
// static-summary), so index.html carries the app's first view as static HTML for readers without
// JavaScript or WebGL: prints {"scenario", "fragment", "result" (the JSON `llmplan estimate`
// prints for it), "model", "accelerator" (catalog names), "catalog_version"}.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/link.hpp"
#include "llmplan/scenario.hpp"

int main() {
  const llmplan::Catalog& catalog = llmplan::builtin_catalog();
  const std::string_view input = llmplan::first_view_scenario_json();
  const llmplan::ScenarioParse parse = llmplan::parse_scenario(input, catalog);
  const llmplan::LinkEncode link = llmplan::encode_link(input, catalog);
  if (!parse.scenario || !link.ok) {
    std::fprintf(stderr, "site_summary: the first view is invalid: %s: %s\n", parse.error.field.c_str(),
                 parse.error.message.c_str());
    return 1;
  }
  const llmplan::Scenario& s = *parse.scenario;
  const llmplan::ModelPreset* model = catalog.find_model(s.model_preset);
  const llmplan::Accelerator* accelerator = catalog.find_accelerator(s.cluster.accelerator);
  const nlohmann::json out = {
      {"scenario", nlohmann::json::parse(input)},
      {"fragment", link.fragment},
      {"result", nlohmann::json::parse(llmplan::estimate_json(input, catalog, llmplan::default_calibration()).body)},
      {"model", model ? model->name : s.model_preset},
      {"accelerator", accelerator ? accelerator->name : s.cluster.accelerator},
      {"catalog_version", catalog.catalog_version}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
