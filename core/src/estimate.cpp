// estimate.cpp: runs the model on a validated scenario and serialises the result.
// Result keys are a public contract (README, "Result JSON"): add, never rename.
#include "llmplan/estimate.hpp"

#include <nlohmann/json.hpp>

#include "llmplan/catalog.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

EstimateResult estimate(const Scenario& s, int max_context) {
  EstimateResult r;
  r.params = count_params(s.model);
  r.dp = s.dp();
  r.global_batch = s.effective_global_batch();
  r.grad_accum = s.grad_accum();
  r.memory = estimate_memory(s, r.params);
  if (!r.memory.fits)
    r.warnings.add({WarningCode::memory_exceeds, r.memory.per_gpu.total(), r.memory.capacity_bytes});
  if (s.parallel.tp > s.cluster.gpus_per_node)
    r.warnings.add({WarningCode::tp_crosses_nodes, static_cast<double>(s.parallel.tp),
                    static_cast<double>(s.cluster.gpus_per_node)});
  if (max_context > 0 && s.seq_len > max_context)
    r.warnings.add({WarningCode::seq_exceeds_context, static_cast<double>(s.seq_len), static_cast<double>(max_context)});
  return r;
}

const char* warning_code(WarningCode code) {
  switch (code) {
    case WarningCode::memory_exceeds: return "memory_exceeds";
    case WarningCode::tp_crosses_nodes: return "tp_crosses_nodes";
    case WarningCode::seq_exceeds_context: return "seq_exceeds_context";
  }
  return "unknown";
}

std::string warning_message(const Warning& w) {
  switch (w.code) {
    case WarningCode::memory_exceeds:
      return "Needs " + format_bytes(w.value) + " per GPU but the GPU has " + format_bytes(w.limit) +
             ": raise the ZeRO stage, tensor/pipeline parallelism or recomputation, or lower the micro-batch.";
    case WarningCode::tp_crosses_nodes:
      return "Tensor parallelism of " + format_count(w.value) + " spans nodes of " + format_count(w.limit) +
             " GPUs: its per-layer all-reduces then cross the inter-node network (one user measured 3x slower than one node). "
             "Keep TP within a node and use pipeline/data parallelism across nodes.";
    case WarningCode::seq_exceeds_context:
      return "Sequence length " + format_count(w.value) + " exceeds the model's trained context of " +
             format_count(w.limit) + " tokens; long-context training needs position scaling (e.g. RoPE scaling).";
  }
  return "";
}

namespace {

json params_json(const ParamCount& p) {
  return {{"total", p.total},
          {"per_layer", p.per_layer()},
          {"layers", p.layers_total},
          {"active", p.active},
          {"embedding", p.embedding + p.positions},
          {"head", p.head},
          {"final_norm", p.final_norm}};
}

json memory_json(const MemoryResult& m) {
  const MemoryBreakdown& b = m.per_gpu;
  return {{"per_gpu_bytes",
           {{"weights", b.weights},
            {"gradients", b.gradients},
            {"optimizer", b.optimizer},
            {"activations", b.activations},
            {"logits", b.logits},
            {"buffers", b.buffers},
            {"runtime", b.runtime},
            {"other", b.other()},
            {"total", b.total()}}},
          {"capacity_bytes", m.capacity_bytes},
          {"headroom_bytes", m.headroom_bytes},
          {"fits", m.fits},
          {"max_micro_batch", m.max_micro_batch},
          {"stage", to_string(m.stage)}};
}

json result_json(const Scenario& s, const EstimateResult& r, const Catalog& catalog) {
  json warnings = json::array();
  for (int i = 0; i < r.warnings.count; ++i) {
    const Warning& w = r.warnings.items[static_cast<size_t>(i)];
    warnings.push_back({{"code", warning_code(w.code)}, {"message", warning_message(w)}, {"value", w.value}, {"limit", w.limit}});
  }
  json model = {{"params", params_json(r.params)}};
  if (!s.model_preset.empty()) model["preset"] = s.model_preset;
  return {{"llmplan_version", LLMPLAN_VERSION},
          {"catalog_version", catalog.catalog_version},
          {"model", model},
          {"layout",
           {{"gpus", s.cluster.gpus},
            {"tp", s.parallel.tp},
            {"pp", s.parallel.pp},
            {"dp", r.dp},
            {"zero", s.parallel.zero},
            {"micro_batch", s.micro_batch},
            {"global_batch", r.global_batch},
            {"grad_accum", r.grad_accum}}},
          {"memory", memory_json(r.memory)},
          {"warnings", warnings}};
}

}  // namespace

JsonResponse estimate_json(std::string_view scenario_json, const Catalog& catalog) {
  JsonResponse out;
  ScenarioParse parse = parse_scenario(scenario_json, catalog);
  if (!parse.scenario) {
    out.error = parse.error;
    out.body = json{{"error", {{"field", parse.error.field}, {"message", parse.error.message}}}}.dump();
    return out;
  }
  const Scenario& s = *parse.scenario;
  const ModelPreset* preset = s.model_preset.empty() ? nullptr : catalog.find_model(s.model_preset);
  const EstimateResult r = estimate(s, preset ? preset->max_context : 0);
  out.ok = true;
  out.body = result_json(s, r, catalog).dump(2);
  return out;
}

}  // namespace llmplan
