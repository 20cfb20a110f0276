// builtin_catalog.cpp: the catalog compiled into this binary: the section files of catalog/,
// embedded at build time packed (cmake/Embed.cmake, llmplan_embed_packed), unpacked once, and
// merged by the same code as `catalog check`.
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "llmplan/catalog.hpp"
#include "llmplan/embedded.hpp"

#define LLMPLAN_CATALOG_FILE(name)                     \
  extern const unsigned char llmplan_catalog_##name[]; \
  extern const unsigned long llmplan_catalog_##name##_size;
LLMPLAN_CATALOG_SECTIONS(LLMPLAN_CATALOG_FILE)
#undef LLMPLAN_CATALOG_FILE

namespace llmplan {
namespace {

#define LLMPLAN_TEXT(name) detail::unpack_embedded(llmplan_catalog_##name, llmplan_catalog_##name##_size),
#define LLMPLAN_NAME(name) "catalog/" #name ".json",

const CatalogLoad& builtin_load() {
  static const std::string texts[] = {LLMPLAN_CATALOG_SECTIONS(LLMPLAN_TEXT)};
  static const char* const names[] = {LLMPLAN_CATALOG_SECTIONS(LLMPLAN_NAME)};
  static const CatalogLoad load = [] {
    std::vector<CatalogFile> files;
    for (size_t i = 0; i < std::size(texts); ++i) files.push_back({names[i], texts[i]});
    return load_catalog_files(files);
  }();
  if (!load.catalog) {
    // The shipped catalog is validated by the test suite; reaching this is a build defect.
    std::fprintf(stderr, "llmplan: built-in catalog is invalid:\n%s\n", load.error().c_str());
    std::abort();
  }
  return load;
}
#undef LLMPLAN_TEXT
#undef LLMPLAN_NAME

}  // namespace

const Catalog& builtin_catalog() { return *builtin_load().catalog; }
std::string_view builtin_catalog_json() { return builtin_load().merged_json; }

}  // namespace llmplan
