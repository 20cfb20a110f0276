// The catalog loader: the shipped catalog loads, and broken catalogs are rejected with a path.
#include <doctest/doctest.h>

#include <string>

#include "llmplan/catalog.hpp"

using namespace llmplan;

TEST_CASE("the built-in catalog loads and every entry is sourced and dated") {
  const Catalog& c = builtin_catalog();
  CHECK(c.schema_version == kCatalogSchemaVersion);
  CHECK(c.catalog_version == "2026.11.0");
  CHECK(c.models.size() >= 10);
  for (const ModelPreset& m : c.models) {
    CAPTURE(m.id);
    CHECK_FALSE(m.source.empty());
    CHECK(m.as_of.size() == 10);
  }
  CHECK(c.find_model("llama-3-8b") != nullptr);
  CHECK(c.find_model("Llama-3-8B") == nullptr);  // ids are exact and lowercase
}

namespace {
std::string with_model(const std::string& fields) {
  return R"({"schema_version": 1, "catalog_version": "t", "as_of": "2026-11-29", "models": [{)" + fields + "}]}";
}
const std::string kGood = R"("id": "m", "name": "M", "layers": 2, "hidden": 64, "heads": 8, "kv_heads": 8,
  "ffn": 128, "vocab": 100, "source": "test", "as_of": "2026-11-29")";
}  // namespace

TEST_CASE("bad catalogs are rejected with the path of the problem") {
  CHECK(load_catalog(with_model(kGood)).catalog.has_value());
  CHECK(load_catalog("{").error == "catalog: not valid JSON");
  CHECK(load_catalog(with_model(kGood + R"(, "heads_typo": 1)")).error.rfind("models[0].heads_typo: unknown field", 0) == 0);
  const std::string no_source = R"("id": "m", "name": "M", "layers": 2, "hidden": 64, "heads": 8, "kv_heads": 8,
    "ffn": 128, "vocab": 100, "as_of": "2026-11-29")";
  CHECK(load_catalog(with_model(no_source)).error == "models[0].source: is required");
  std::string upper = kGood;
  upper.replace(upper.find("\"m\""), 3, "\"Big\"");
  CHECK(load_catalog(with_model(upper)).error.rfind("models[0].id: must be", 0) == 0);
  CHECK(load_catalog(R"({"schema_version": 2, "catalog_version": "t", "as_of": "x", "models": []})").error ==
        "schema_version: this build reads schema 1; got 2");
  const std::string dup = R"({"schema_version": 1, "catalog_version": "t", "as_of": "x", "models": [{)" + kGood + "},{" +
                          kGood + "}]}";
  CHECK(load_catalog(dup).error == "models[1].id: duplicate id \"m\"");
}
