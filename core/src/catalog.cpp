// catalog.cpp: strict loader for the versioned catalog. A bad entry rejects the whole catalog
// with the path of the first problem: silently skipping one would change users' numbers.
#include "llmplan/catalog.hpp"

#include <cctype>
#include <set>

#include "json_read.hpp"

namespace llmplan {

using detail::json;
using detail::Reader;

const ModelPreset* Catalog::find_model(std::string_view id) const {
  for (const ModelPreset& m : models)
    if (m.id == id) return &m;
  return nullptr;
}

namespace {

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
          c == '.'))
      return false;
  return true;
}

bool read_model(Reader& r, const json& o, const std::string& p, ModelPreset& m) {
  if (!r.object(o, p)) return false;
  std::initializer_list<const char*> keys = {"id", "name", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn",
                                             "vocab", "gated_mlp", "tied_embeddings", "qkv_bias", "linear_bias",
                                             "norm", "learned_positions", "max_context", "published_params",
                                             "source", "as_of"};
  for (const char* required : {"id", "name", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "source", "as_of"})
    if (!o.contains(required)) return r.fail(Reader::join(p, required), "is required");
  if (!r.keys(o, p, keys) || !r.string(o, "id", p, m.id) || !r.string(o, "name", p, m.name) ||
      !r.string(o, "source", p, m.source) || !r.string(o, "as_of", p, m.as_of) ||
      !r.integer(o, "max_context", p, 0, 100000000, m.max_context) ||
      !r.number(o, "published_params", p, 0, 1e14, m.published_params))
    return false;
  if (!valid_id(m.id)) return r.fail(Reader::join(p, "id"), "must be 1-64 characters of a-z, 0-9, '-', '.'; got \"" + m.id + "\"");
  if (m.source.empty()) return r.fail(Reader::join(p, "source"), "must name where the figures come from");
  return detail::read_arch_fields(r, o, p, m.arch);
}

}  // namespace

CatalogLoad load_catalog(std::string_view text) {
  CatalogLoad out;
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    out.error = "catalog: not valid JSON";
    return out;
  }
  InputError err;
  Reader r(err);
  Catalog c;
  bool ok = r.object(doc, "catalog") && r.keys(doc, "", {"$schema", "schema_version", "catalog_version", "as_of", "models"}) &&
            r.integer(doc, "schema_version", "", 1, 1000, c.schema_version) &&
            r.string(doc, "catalog_version", "", c.catalog_version) && r.string(doc, "as_of", "", c.as_of);
  if (ok && c.schema_version != kCatalogSchemaVersion)
    ok = r.fail("schema_version", "this build reads schema " + Reader::num(kCatalogSchemaVersion) + "; got " +
                                      Reader::num(c.schema_version));
  if (ok && !(doc.contains("models") && doc["models"].is_array())) ok = r.fail("models", "must be an array");
  std::set<std::string> ids;
  for (size_t i = 0; ok && i < doc["models"].size(); ++i) {
    ModelPreset m;
    const std::string path = "models[" + std::to_string(i) + "]";
    ok = read_model(r, doc["models"][i], path, m);
    if (ok && !ids.insert(m.id).second) ok = r.fail(path + ".id", "duplicate id \"" + m.id + "\"");
    if (ok) c.models.push_back(std::move(m));
  }
  if (!ok) {
    out.error = err.message;
    return out;
  }
  out.catalog = std::move(c);
  return out;
}

}  // namespace llmplan
