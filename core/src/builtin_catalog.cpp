// builtin_catalog.cpp: the catalog compiled into this binary from catalog/ (see cmake/Embed.cmake).
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "llmplan/catalog.hpp"

extern const unsigned char llmplan_catalog_json[];
extern const unsigned long llmplan_catalog_json_size;

namespace llmplan {

const Catalog& builtin_catalog() {
  static const Catalog catalog = [] {
    const std::string_view text(reinterpret_cast<const char*>(llmplan_catalog_json), llmplan_catalog_json_size);
    CatalogLoad load = load_catalog(text);
    if (!load.catalog) {
      // The shipped catalog is validated by the test suite; reaching this is a build defect.
      std::fprintf(stderr, "llmplan: built-in catalog is invalid: %s\n", load.error.c_str());
      std::abort();
    }
    return std::move(*load.catalog);
  }();
  return catalog;
}

}  // namespace llmplan
