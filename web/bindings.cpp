// bindings.cpp: the Embind surface. window.llmplan (site/app.js) wraps these; keep them thin.
#include <emscripten/bind.h>

#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"

namespace {

// Exactly the CLI's entry point: same parser, same estimate, same JSON.
std::string estimate(const std::string& scenario_json) {
  return llmplan::estimate_json(scenario_json, llmplan::builtin_catalog()).body;
}

std::string version() { return LLMPLAN_VERSION; }
std::string catalog_version() { return llmplan::builtin_catalog().catalog_version; }

}  // namespace

EMSCRIPTEN_BINDINGS(llmplan) {
  emscripten::function("estimate", &estimate);
  emscripten::function("version", &version);
  emscripten::function("catalogVersion", &catalog_version);
}
