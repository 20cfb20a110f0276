// scenario_write.cpp: a parsed Scenario back to the input JSON that reproduces it, writing only
// what differs from the parser's defaults (so links stay short). Front ends that edit a Scenario
// directly use it to make links and to export the scenario.
//
// The field table drives it: input and override fields are written when the parser, given the
// document without them, would produce a different value; only the fields that pick catalog
// entries (model preset, cluster, storage tiers) are written by code here.
#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

namespace {

using ojson = nlohmann::ordered_json;

// The field's member in `s` as a JSON value (exact: no formatting round trip).
ojson member_json(const FieldSpec& f, const Scenario& s) {
  const FieldRef ref = f.ref(const_cast<Scenario&>(s));  // read only
  if (const auto* i = std::get_if<int*>(&ref)) return **i;
  if (const auto* d = std::get_if<double*>(&ref)) return **d * f.scale;
  if (const auto* b = std::get_if<bool*>(&ref)) return **b;
  if (const auto* str = std::get_if<std::string*>(&ref)) return **str;
  if (const auto* e = std::get_if<EnumRef>(&ref)) return f.choices[e->get(e->p)];
  return nullptr;
}

// Whether the writer writes a resolved field of `s`: the catalog entries and counts the scenario
// uses (an instance and its nodes, or an accelerator and its GPUs), tiers other than the defaults.
bool resolved_written(std::string_view path, const Scenario& s) {
  const bool instance = !s.cluster.instance.empty();
  if (path == "model.preset") return !s.model_preset.empty();
  if (path == "cluster.instance" || path == "cluster.nodes") return instance;
  if (path == "cluster.cards") return instance && s.cluster.cards > 0;
  if (path == "cluster.accelerator" || path == "cluster.gpus" || path == "cluster.gpus_per_node") return !instance;
  if (path == "storage.data_tier") return s.storage.data_tier != kDefaultDataTier;
  if (path == "storage.checkpoint_tier") return s.storage.checkpoint_tier != s.storage.data_tier;
  return false;
}

bool writable(const FieldSpec& f, const Scenario& s) {
  return f.scope == FieldScope::scenario && f.ref && f.stage != FieldStage::resolved && field_applies(f, s);
}

// Every field in table order, from `s` where `wanted` says so (so keys keep the table's order).
ojson build(const Scenario& s, const std::vector<bool>& wanted) {
  ojson doc = ojson::object();
  const auto fields = all_fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldSpec& f = fields[i];
    if (f.scope != FieldScope::scenario) continue;
    if (f.stage == FieldStage::resolved) {
      // cluster.nodes is the one resolved field without a member: it is derived from the GPUs.
      if (resolved_written(f.path, s)) json_set(doc, f.path, f.ref ? member_json(f, s) : ojson(s.cluster.nodes()));
    } else if (wanted[i]) {
      json_set(doc, f.path, member_json(f, s));
    }
  }
  return doc;
}

}  // namespace

std::string write_scenario_input(const Scenario& s, const Catalog& catalog) {
  const auto fields = all_fields();
  const Scenario defaults;
  // The framework's default follows the method, and those of fused_kernels, kbit_fp32_cast and
  // (for QLoRA) recompute follow the framework; whether the input named them matters (the planner estimates a layout in
  // the framework that launches it, with its defaults, where the input named none): each is written
  // when named or when it differs from its derived default.
  Scenario derived = s;
  derived.fused_kernels_given = derived.kbit_fp32_cast_given = derived.recompute_given = false;
  derived.parallel.recompute = defaults.parallel.recompute;  // the framework may set it (QLoRA with PEFT)
  apply_framework_defaults(derived);
  const auto named_or_not_derived = [&](std::string_view path) {
    if (path == "framework") return s.framework_given || s.framework != default_framework(s.method);
    if (path == "techniques.fused_kernels")
      return s.fused_kernels_given || s.techniques.fused_kernels != derived.techniques.fused_kernels;
    if (path == "parallel.recompute") return s.recompute_given || s.parallel.recompute != derived.parallel.recompute;
    return s.kbit_fp32_cast_given || s.techniques.kbit_fp32_cast != derived.techniques.kbit_fp32_cast;
  };
  std::vector<bool> wanted(fields.size(), false);
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldSpec& f = fields[i];
    const std::string_view path = f.path;
    if (path == "framework" || path == "techniques.fused_kernels" || path == "techniques.kbit_fp32_cast" ||
        path == "parallel.recompute")
      wanted[i] = writable(f, s) && named_or_not_derived(path);
    else
      wanted[i] = writable(f, s) && f.stage == FieldStage::input &&
                  (f.required || member_json(f, s) != member_json(f, defaults));
  }
  // Add what the parser would otherwise resolve differently (a default that depends on another
  // field, a figure the user put in place of the catalog's), until the document reproduces `s`.
  ojson doc = build(s, wanted);
  for (size_t round = 0; round < fields.size(); ++round) {
    const ScenarioParse back = parse_scenario(doc.dump(), catalog);
    if (!back.scenario) break;
    bool added = false;
    for (size_t i = 0; i < fields.size() && !added; ++i) {
      const FieldSpec& f = fields[i];
      if (wanted[i] || !writable(f, s) || member_json(f, *back.scenario) == member_json(f, s)) continue;
      wanted[i] = added = true;  // one at a time: an added link changes the figures after it
    }
    if (!added) break;
    doc = build(s, wanted);
  }
  return doc.dump();
}

std::string_view first_view_scenario_json() {
  return R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096, "micro_batch": 1, "tokens": 1e9,)"
         R"( "cluster": {"gpus": 8, "gpus_per_node": 8}, "parallel": {"zero": 3}})";
}

}  // namespace llmplan
