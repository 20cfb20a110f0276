// bindings_api.cpp: the computing half of the Embind surface, linked into the app and into the
// small API module (embed page, documentation pages) alike: the same core calls as the CLI.
// window.llmplan (site/app.js) wraps these; keep them thin. Links (core/include/llmplan/link.hpp):
//   encodeLink(inputJson)            -> {"fragment": "v=1&c=...&m=..."} | {"error": {field, message}}
//   linkCatalogVersion(link)         -> the `c` a link names ("" when none)
//   loadCatalogRelease(catalogJson)  -> {"catalog_version"} | {"error"}: an older release the page
//                                       fetched from catalogs/VERSION.json, validated and kept
//   decodeLink(link)                 -> {"kind": "scenario"|"question", "valid", "input", "catalog_version",
//                                       "catalog_used", "notices": [{field, message}], "changes": [...],
//                                       "model_version", "model_version_current", "model_changes": [...], "ui"}
//                                       (with the link's release when loaded, else the built-in catalog)
//   modelVersion()                   -> the estimator's model version (model_version.hpp), which links record
//   estimateWith / planWith(json, catalogVersion): as estimate / plan, with a loaded release
//   linkFields()                     -> [{"code", "field", "type"}]: the URL format's field codes
//   tco(questionJson)                -> the `llmplan tco` answer (own vs rent) | {"error": {field, message}}
//   importConfig(text)               -> the `llmplan import` answer (docs/import.md) | {"error": {field, message}}
#include <emscripten/bind.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/import.hpp"
#include "llmplan/link.hpp"
#include "llmplan/measure.hpp"
#include "llmplan/model_version.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/tco.hpp"

namespace {

// Exactly the CLI's entry point: same parser, same estimate, same JSON.
std::string estimate(const std::string& scenario_json) {
  return llmplan::estimate_json(scenario_json, llmplan::builtin_catalog(), llmplan::default_calibration()).body;
}

std::string estimate_explained(const std::string& scenario_json) {
  return llmplan::estimate_json(scenario_json, llmplan::builtin_catalog(), llmplan::default_calibration(), true).body;
}

// Exactly the CLI's `llmplan plan`.
std::string plan(const std::string& question_json) {
  return llmplan::plan_json(question_json, llmplan::builtin_catalog(), llmplan::default_calibration()).body;
}

// Exactly the CLI's `llmplan tco`.
std::string tco(const std::string& question_json) {
  return llmplan::tco_json(question_json, llmplan::builtin_catalog(), llmplan::default_calibration()).body;
}

std::string version() { return LLMPLAN_VERSION; }
int model_version() { return llmplan::kModelVersion; }
std::string catalog_version() { return llmplan::builtin_catalog().catalog_version; }
std::string catalog_json() { return std::string(llmplan::builtin_catalog_json()); }

// Older catalog releases the page fetched (site/catalogs/VERSION.json), validated and kept, so
// links made with them open with their numbers.
struct Release {
  llmplan::Catalog catalog;
  std::string json;
};
std::map<std::string, std::unique_ptr<Release>>& releases() {
  static std::map<std::string, std::unique_ptr<Release>> loaded;
  return loaded;
}

// {"catalog_version"} when valid, else {"error": {"field", "message"}}.
std::string load_catalog_release(const std::string& text) {
  llmplan::CatalogLoad load = llmplan::load_catalog(text);
  if (!load.catalog) return nlohmann::json{{"error", {{"field", "(catalog)"}, {"message", load.error()}}}}.dump();
  const std::string version = load.catalog->catalog_version;
  releases()[version] = std::make_unique<Release>(Release{std::move(*load.catalog), text});
  return nlohmann::json{{"catalog_version", version}}.dump();
}

const llmplan::Catalog& catalog_of(const std::string& version) {
  const auto it = releases().find(version);
  return it != releases().end() ? it->second->catalog : llmplan::builtin_catalog();
}

std::string estimate_with(const std::string& scenario_json, const std::string& catalog_version) {
  return llmplan::estimate_json(scenario_json, catalog_of(catalog_version), llmplan::default_calibration()).body;
}

std::string plan_with(const std::string& question_json, const std::string& catalog_version) {
  return llmplan::plan_json(question_json, catalog_of(catalog_version), llmplan::default_calibration()).body;
}

// {"fragment"} or {"error": {"field", "message"}}.
std::string encode_link(const std::string& input_json) {
  const llmplan::LinkEncode e = llmplan::encode_link(input_json, llmplan::builtin_catalog());
  if (!e.ok) return nlohmann::json{{"error", {{"field", e.error.field}, {"message", e.error.message}}}}.dump();
  return nlohmann::json{{"fragment", e.fragment}}.dump();
}

// As `llmplan link decode`: with the link's own catalog release when the page loaded it.
std::string decode_link(const std::string& link) {
  const auto it = releases().find(llmplan::link_catalog_version(link));
  const Release* r = it != releases().end() ? it->second.get() : nullptr;
  return llmplan::opened_link_json(llmplan::open_link(link, llmplan::builtin_catalog(), llmplan::builtin_catalog_json(),
                                                      r ? &r->catalog : nullptr, r ? std::string_view(r->json) : ""));
}

std::string link_catalog_version(const std::string& link) { return llmplan::link_catalog_version(link); }

// {"calibration", "found"} or {"error"}; with a scenario JSON ("" for none), samples/s becomes
// tokens/s per GPU with its sequence length and GPUs.
std::string parse_log(const std::string& text, const std::string& scenario_json) {
  if (scenario_json.empty()) return llmplan::parse_log_json(text);
  const llmplan::ScenarioParse p = llmplan::parse_scenario(scenario_json, llmplan::builtin_catalog());
  if (!p.scenario) return nlohmann::json{{"error", {{"field", p.error.field}, {"message", p.error.message}}}}.dump();
  return llmplan::parse_log_json(text, &*p.scenario);
}

// As `llmplan import`: a training config -> {"format", "scenario", "mapped", ...} or {"error"} (docs/import.md).
std::string import_config(const std::string& text) { return llmplan::import_config(text, llmplan::builtin_catalog()); }

std::string link_fields() {
  static const char* types[] = {"id", "choice", "integer", "number", "boolean", "list", "number_or_auto"};
  nlohmann::json out = nlohmann::json::array();
  for (const llmplan::LinkField& f : llmplan::kLinkFields)
    out.push_back({{"code", f.code}, {"field", f.field}, {"type", types[static_cast<int>(f.type)]}});
  return out.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmplan_api) {
  emscripten::function("loadCatalogRelease", &load_catalog_release);
  emscripten::function("estimateWith", &estimate_with);
  emscripten::function("planWith", &plan_with);
  emscripten::function("encodeLink", &encode_link);
  emscripten::function("decodeLink", &decode_link);
  emscripten::function("linkCatalogVersion", &link_catalog_version);
  emscripten::function("linkFields", &link_fields);
  emscripten::function("parseLog", &parse_log);
  emscripten::function("importConfig", &import_config);
  emscripten::function("estimate", &estimate);
  emscripten::function("estimateExplained", &estimate_explained);
  emscripten::function("plan", &plan);
  emscripten::function("tco", &tco);
  emscripten::function("version", &version);
  emscripten::function("modelVersion", &model_version);
  emscripten::function("catalogVersion", &catalog_version);
  emscripten::function("catalogJson", &catalog_json);
}
