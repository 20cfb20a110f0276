// bindings.cpp: the Embind surface. window.llmplan (site/app.js) wraps these; keep them thin.
#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/planner.hpp"

extern "C" void llmplan_wake();

namespace {

// Exactly the CLI's entry point: same parser, same estimate, same JSON.
std::string estimate(const std::string& scenario_json) {
  return llmplan::estimate_json(scenario_json, llmplan::builtin_catalog()).body;
}

std::string estimate_explained(const std::string& scenario_json) {
  return llmplan::estimate_json(scenario_json, llmplan::builtin_catalog(), true).body;
}

// Exactly the CLI's `llmplan plan`.
std::string plan(const std::string& question_json) { return llmplan::plan_json(question_json, llmplan::builtin_catalog()).body; }

std::string version() { return LLMPLAN_VERSION; }
std::string catalog_version() { return llmplan::builtin_catalog().catalog_version; }
std::string catalog_json() { return std::string(llmplan::builtin_catalog_json()); }

// The app's file picker hands the chosen file here; the UI shows the outcome.
void load_catalog(const std::string& name, const std::string& text) {
  llmplan::web::app_load_catalog(llmplan::web::app_state(), name, text);
  llmplan_wake();
}

// The catalog the app uses now (built-in or picked) as {catalogVersion, asOf, source, error}.
std::string app_catalog_status() {
  const llmplan::web::AppState& app = llmplan::web::app_state();
  const llmplan::Catalog& c = llmplan::web::app_catalog(app);
  nlohmann::json j = {{"catalogVersion", c.catalog_version}, {"asOf", c.as_of},
                      {"source", app.user_catalog ? app.user_catalog_name : "built-in"}, {"error", app.catalog_error}};
  return j.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmplan) {
  emscripten::function("estimate", &estimate);
  emscripten::function("estimateExplained", &estimate_explained);
  emscripten::function("plan", &plan);
  emscripten::function("version", &version);
  emscripten::function("catalogVersion", &catalog_version);
  emscripten::function("catalogJson", &catalog_json);
  emscripten::function("loadCatalog", &load_catalog);
  emscripten::function("appCatalogStatus", &app_catalog_status);
}
