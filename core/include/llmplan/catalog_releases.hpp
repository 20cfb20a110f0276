// catalog_releases.hpp: earlier catalog releases (catalog/releases/VERSION.json), kept so that a
// link made with one opens with the same numbers. Linked into the CLI and the tests (library
// llmplan_catalog_releases); the web app fetches the same files from the site instead.
#pragma once
#include <string_view>
#include <vector>

namespace llmplan {

struct Catalog;

struct CatalogRelease {
  const char* version;    // catalog_version, e.g. "2026.11.0"
  std::string_view json;  // the merged catalog document of that release
};

// Every archived release, oldest first (generated from catalog/releases at build time).
const std::vector<CatalogRelease>& catalog_releases();

// The catalog of `version`: the built-in one when it is the current release, an archived one,
// or nullptr when this build has neither. Archived catalogs are loaded once and kept.
const Catalog* catalog_for_version(std::string_view version);
// Its JSON text (for diffs), empty when unknown.
std::string_view catalog_json_for_version(std::string_view version);

}  // namespace llmplan
