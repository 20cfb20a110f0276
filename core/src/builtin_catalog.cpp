// builtin_catalog.cpp: the catalog compiled into this binary: the section files of catalog/,
// embedded at build time (cmake/Embed.cmake) and merged by the same code as `catalog check`.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "llmplan/catalog.hpp"

#define LLMPLAN_CATALOG_FILE(name)                     \
  extern const unsigned char llmplan_catalog_##name[]; \
  extern const unsigned long llmplan_catalog_##name##_size;
LLMPLAN_CATALOG_SECTIONS(LLMPLAN_CATALOG_FILE)
#undef LLMPLAN_CATALOG_FILE

namespace llmplan {
namespace {

#define LLMPLAN_FILE(name)              \
  CatalogFile{"catalog/" #name ".json", \
              {reinterpret_cast<const char*>(llmplan_catalog_##name), llmplan_catalog_##name##_size}},

const CatalogLoad& builtin_load() {
  static const CatalogLoad load = load_catalog_files({LLMPLAN_CATALOG_SECTIONS(LLMPLAN_FILE)});
  if (!load.catalog) {
    // The shipped catalog is validated by the test suite; reaching this is a build defect.
    std::fprintf(stderr, "llmplan: built-in catalog is invalid:\n%s\n", load.error().c_str());
    std::abort();
  }
  return load;
}
#undef LLMPLAN_FILE

}  // namespace

const Catalog& builtin_catalog() { return *builtin_load().catalog; }
std::string_view builtin_catalog_json() { return builtin_load().merged_json; }

}  // namespace llmplan
