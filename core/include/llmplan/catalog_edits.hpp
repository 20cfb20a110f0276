// catalog_edits.hpp: the user's own edits of the built-in catalog (the app keeps them in the
// browser's localStorage): instance price overrides and custom GPUs copied from a catalog one,
//   {"prices": {"<instance id>": <on-demand price per instance-hour>},
//    "gpus": [{"base": "<accelerator id>", "id", "name", "memory_gb", "memory_bw_gb_per_s", "bf16_dense_tflops"}]}
// applied by writing a modified catalog document that load_catalog validates like any other.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "llmplan/catalog.hpp"

namespace llmplan {

struct EditedCatalog {
  CatalogLoad load;   // the edited catalog, or the loader's diagnostics
  std::string json;   // the edited catalog document (what links made with it are checked against)
  std::string error;  // why the edits were refused: a wrong shape, an unknown id, a loader diagnostic
};

// Edits come back from storage where anything may have been written: a wrong shape is refused
// with a message naming the entry, never thrown. "" when the shape is right.
std::string catalog_edits_shape_error(const nlohmann::json& edits);

// `base_json` (the built-in catalog document) with `edits` applied. A custom GPU keeps its base's
// figures except those it gives, and none of its base's measurements (GEMM and attention
// efficiency); `custom_gpu_source` is its source line (the app's language).
EditedCatalog apply_catalog_edits(const nlohmann::json& edits, std::string_view base_json,
                                  const std::string& custom_gpu_source);

}  // namespace llmplan
