// catalog.hpp: the versioned catalog (models for now; hardware and prices join it later),
// parsed strictly from JSON text the caller provides. Core does no file I/O.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmplan/model.hpp"

namespace llmplan {

struct ModelPreset {
  std::string id;              // stable, lowercase; links and scripts use it; never renamed
  std::string name;            // display name
  ModelArch arch;
  int max_context = 0;         // tokens
  double published_params = 0; // the authors' stated count (0 when not published)
  std::string source;          // where the architecture and count come from
  std::string as_of;           // date the entry was checked
};

struct Catalog {
  int schema_version = 0;
  std::string catalog_version;
  std::string as_of;
  std::vector<ModelPreset> models;

  const ModelPreset* find_model(std::string_view id) const;
};

struct CatalogLoad {
  std::optional<Catalog> catalog;
  std::string error;  // "models[3].heads: ..." when the catalog is rejected
};

inline constexpr int kCatalogSchemaVersion = 1;

CatalogLoad load_catalog(std::string_view json_text);

// The catalog compiled into this binary (catalog/models.json), loaded once.
const Catalog& builtin_catalog();

}  // namespace llmplan
