// fuzz_catalog: the catalog loader on arbitrary bytes (mutations of small valid catalogs). It
// must never crash, hang or throw: either a catalog or diagnostics, never both, never neither.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "llmplan/catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const llmplan::CatalogLoad load = llmplan::load_catalog(text);
  if (load.catalog.has_value() == !load.diagnostics.empty()) std::abort();
  if (load.diagnostics.size() > llmplan::kMaxDiagnostics + 1) std::abort();
  return 0;
}
