// catalog_diff.hpp: what changed between two catalogs, entry by entry and field by field
// (`llmplan catalog diff OLD NEW`, used to write catalog/CHANGELOG.md).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

// Both arguments are merged catalog documents that load_catalog() accepted. Lines look like
//   "accelerators: + b300-sxm-288gb"                         (added)
//   "instances: - lambda-1x-a10"                             (removed)
//   "accelerators: ~ h100-sxm5-80gb memory_bw_gb_per_s: 3350 -> 3352"   (one line per field)
// in section order, then the order of the new catalog (removed entries in the old order).
std::vector<std::string> diff_catalogs(std::string_view old_json, std::string_view new_json);

}  // namespace llmplan
