// fuzz_import: the config importer (import.hpp) and its YAML-subset reader on arbitrary bytes. It
// must never crash, hang or throw; what it returns is always JSON: an error naming a field, or an
// import whose partial scenario parses as import checks it (parse_imported_scenario).
// libFuzzer entry point; tests/fuzz/mutate_main.cpp drives it where libFuzzer is unavailable.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "llmplan/catalog.hpp"
#include "llmplan/import.hpp"
#include "llmplan/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const llmplan::Catalog& catalog = llmplan::builtin_catalog();
  const nlohmann::json r = nlohmann::json::parse(llmplan::import_config(text, catalog), nullptr, false);
  if (r.is_discarded() || !r.is_object()) std::abort();
  if (r.contains("error")) {
    if (!r["error"]["field"].is_string() || r["error"]["field"].get<std::string>().empty()) std::abort();
    return 0;
  }
  const nlohmann::json& s = r["scenario"];
  if (!s.is_object()) std::abort();
  if (!llmplan::parse_imported_scenario(s.dump(), catalog).scenario) std::abort();
  for (const char* list : {"mapped", "ignored", "unsupported", "unknown"})
    if (!r[list].is_array()) std::abort();
  return 0;
}
