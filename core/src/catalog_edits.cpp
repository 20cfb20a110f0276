// catalog_edits.cpp: instance price overrides and custom GPUs applied to the built-in catalog
// document, then validated by load_catalog (catalog_edits.hpp).
#include "llmplan/catalog_edits.hpp"

namespace llmplan {

using nlohmann::json;

std::string catalog_edits_shape_error(const json& edits) {
  if (!edits.is_object()) return "the saved edits are not a JSON object";
  if (edits.contains("prices")) {
    if (!edits["prices"].is_object()) return "prices: not an object";
    for (const auto& [id, price] : edits["prices"].items())
      if (!price.is_number()) return "prices/" + id + ": not a number";
  }
  if (edits.contains("gpus")) {
    if (!edits["gpus"].is_array()) return "gpus: not an array";
    for (size_t i = 0; i < edits["gpus"].size(); ++i) {
      const json& g = edits["gpus"][i];
      const std::string at = "gpus/" + std::to_string(i);
      if (!g.is_object()) return at + ": not an object";
      for (const char* k : {"base", "id", "name"})
        if (g.contains(k) && !g[k].is_string()) return at + "/" + k + ": not a string";
    }
  }
  return "";
}

namespace {

// Sets each overridden instance's on-demand price; `error` names an id no instance has.
void apply_prices(const json& prices, json& doc, std::string& error) {
  for (const auto& [id, price] : prices.items()) {
    bool found = false;
    for (json& in : doc["instances"])
      if (in.value("id", "") == id) {
        in["on_demand_per_hour"] = price;
        in["source"] = "your price override (this browser); catalog: " + in.value("source", "");
        found = true;
      }
    if (!found) error = "prices/" + id + ": no such instance";
  }
}

// Appends each custom GPU, copied from its base accelerator.
void add_gpus(const json& gpus, const std::string& source, json& doc, std::string& error) {
  for (const json& g : gpus) {
    const std::string base = g.value("base", "");
    json copy;
    for (const json& a : doc["accelerators"])
      if (a.value("id", "") == base) copy = a;
    if (copy.is_null()) {
      error = "gpus/" + g.value("id", "") + ": no base accelerator \"" + base + "\"";
      continue;
    }
    for (const char* k : {"id", "name", "memory_gb", "memory_bw_gb_per_s", "bf16_dense_tflops"})
      if (g.contains(k)) copy[k] = g[k];
    copy["source"] = source;
    copy["aliases"] = json::array();
    // Measurements of the base GPU, not of this one (its SM count is a spec of the part, kept like
    // its links).
    for (const char* key : {"gemm_bf16_efficiency", "gemm_fp8_efficiency", "attention_efficiency",
                            "attention_length_scale", "attention_head_dim_scale"})
      copy[key] = nullptr;
    doc["accelerators"].push_back(copy);
  }
}

}  // namespace

EditedCatalog apply_catalog_edits(const json& edits, std::string_view base_json, const std::string& custom_gpu_source) {
  EditedCatalog out;
  out.error = catalog_edits_shape_error(edits);
  if (!out.error.empty()) return out;
  json doc = parse_json_untrusted(base_json);
  if (!doc.is_object() || !doc.contains("instances") || !doc.contains("accelerators")) {
    out.error = "the base catalog is not a catalog document";
    return out;
  }
  if (edits.contains("prices")) apply_prices(edits["prices"], doc, out.error);
  if (edits.contains("gpus")) add_gpus(edits["gpus"], custom_gpu_source, doc, out.error);
  if (!out.error.empty()) return out;
  out.json = doc.dump();
  out.load = load_catalog(out.json);
  if (!out.load.catalog) out.error = out.load.diagnostics.empty() ? "invalid" : out.load.diagnostics.front();
  return out;
}

}  // namespace llmplan
