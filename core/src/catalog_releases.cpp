// catalog_releases.cpp: looks up archived catalog releases by version, loading each once.
#include "llmplan/catalog_releases.hpp"

#include <map>
#include <memory>
#include <string>

#include "llmplan/catalog.hpp"

namespace llmplan {

std::string_view catalog_json_for_version(std::string_view version) {
  if (version == builtin_catalog().catalog_version) return builtin_catalog_json();
  for (const CatalogRelease& r : catalog_releases())
    if (version == r.version) return r.json;
  return {};
}

const Catalog* catalog_for_version(std::string_view version) {
  if (version == builtin_catalog().catalog_version) return &builtin_catalog();
  static std::map<std::string, std::unique_ptr<Catalog>, std::less<>> loaded;
  if (const auto it = loaded.find(version); it != loaded.end()) return it->second.get();
  for (const CatalogRelease& r : catalog_releases()) {
    if (version != r.version) continue;
    CatalogLoad load = load_catalog(r.json);
    if (!load.catalog) return nullptr;  // the test suite checks every archived release loads
    auto& slot = loaded[std::string(version)];
    slot = std::make_unique<Catalog>(std::move(*load.catalog));
    return slot.get();
  }
  return nullptr;
}

}  // namespace llmplan
