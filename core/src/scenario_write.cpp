// scenario_write.cpp: a parsed Scenario back to the input JSON that reproduces it, writing only
// what differs from the parser's defaults (so links stay short). Front ends that edit a Scenario
// directly (the app) use it to make links and to export the scenario.
#include <nlohmann/json.hpp>

#include "llmplan/catalog.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

namespace {

using json = nlohmann::ordered_json;

json model_json(const Scenario& s) {
  if (!s.model_preset.empty()) return {{"preset", s.model_preset}};
  const ModelArch& m = s.model;
  const ModelArch d;
  json o = {{"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads}, {"ffn", m.ffn}, {"vocab", m.vocab}};
  if (m.kv_heads != m.heads) o["kv_heads"] = m.kv_heads;
  if (m.head_dim) o["head_dim"] = m.head_dim;
  if (m.gated_mlp != d.gated_mlp) o["gated_mlp"] = m.gated_mlp;
  if (m.tied_embeddings) o["tied_embeddings"] = true;
  if (m.qkv_bias) o["qkv_bias"] = true;
  if (m.linear_bias) o["linear_bias"] = true;
  if (m.norm != d.norm) o["norm"] = "layernorm";
  if (m.learned_positions) o["learned_positions"] = m.learned_positions;
  if (m.is_moe()) {
    o["experts"] = m.experts;
    o["top_k"] = m.top_k;
    if (m.shared_experts) o["shared_experts"] = m.shared_experts;
    o["expert_ffn"] = m.expert_ffn;
    if (m.shared_expert_ffn) o["shared_expert_ffn"] = m.shared_expert_ffn;
    if (m.dense_layers) o["dense_layers"] = m.dense_layers;
  }
  if (m.attention == AttentionKind::mla) {
    o["attention"] = "mla";
    if (m.q_lora_rank) o["q_lora_rank"] = m.q_lora_rank;
    o["kv_lora_rank"] = m.kv_lora_rank;
    o["qk_nope_head_dim"] = m.qk_nope_head_dim;
    o["qk_rope_head_dim"] = m.qk_rope_head_dim;
    o["v_head_dim"] = m.v_head_dim;
  }
  return o;
}

json cluster_json(const Scenario& s, const Catalog& catalog) {
  const Cluster& c = s.cluster;
  if (!c.instance.empty()) return {{"instance", c.instance}, {"nodes", c.nodes()}};
  json o = {{"accelerator", c.accelerator}, {"gpus", c.gpus}, {"gpus_per_node", c.gpus_per_node}};
  const Accelerator* a = catalog.find_accelerator(c.accelerator);
  if (!a || a->memory_gb != c.gpu_memory_gb) o["gpu_memory_gb"] = c.gpu_memory_gb;
  return o;
}

json parallel_json(const Parallel& x) {
  const Parallel d;
  json o = json::object();
  if (x.tp != d.tp) o["tp"] = x.tp;
  if (x.pp != d.pp) o["pp"] = x.pp;
  if (x.zero != d.zero) o["zero"] = x.zero;
  if (x.sequence_parallel != d.sequence_parallel) o["sequence_parallel"] = x.sequence_parallel;
  if (x.recompute != d.recompute) o["recompute"] = to_string(x.recompute);
  if (x.offload != d.offload) o["offload"] = to_string(x.offload);
  if (x.flash_attention != d.flash_attention) o["flash_attention"] = x.flash_attention;
  if (x.tp_comm_overlap != d.tp_comm_overlap) o["tp_comm_overlap"] = x.tp_comm_overlap;
  return o;
}

json techniques_json(const Techniques& t) {
  const Techniques d;
  json o = json::object();
  if (t.loss_chunks != d.loss_chunks) o["loss_chunks"] = t.loss_chunks;
  if (t.activation_offload) o["activation_offload"] = true;
  if (t.optimizer_in_backward) o["optimizer_in_backward"] = true;
  if (t.fp32_norm_inputs) o["fp32_norm_inputs"] = true;
  return o;
}

json storage_json(const StorageChoice& st) {
  const StorageChoice d;
  json o = json::object();
  if (st.data_tier != kDefaultDataTier) o["data_tier"] = st.data_tier;
  if (st.checkpoint_tier != st.data_tier) o["checkpoint_tier"] = st.checkpoint_tier;
  if (st.checkpoint_interval_h > 0) o["checkpoint_interval_h"] = st.checkpoint_interval_h;
  if (st.bytes_per_token != d.bytes_per_token) o["bytes_per_token"] = st.bytes_per_token;
  if (st.dataset_tokens > 0) o["dataset_tokens"] = st.dataset_tokens;
  if (st.retention_months != d.retention_months) o["retention_months"] = st.retention_months;
  if (st.checkpoints_kept != d.checkpoints_kept) o["checkpoints_kept"] = st.checkpoints_kept;
  return o;
}

json pricing_json(const Pricing& p) {
  const Pricing d;
  json o = json::object();
  if (p.mode != d.mode) o["mode"] = to_string(p.mode);
  if (p.price_source == kPriceOverrideSource) o["usd_per_gpu_hour"] = p.usd_per_gpu_hour;
  if (p.overhead_factor != d.overhead_factor) o["overhead_factor"] = p.overhead_factor;
  if (p.currency == Currency::cny) o["currency"] = "cny";
  if (p.spot_interruptions_per_hour > 0) o["spot_interruptions_per_hour"] = p.spot_interruptions_per_hour;
  if (p.failures_per_gpu_hour != d.failures_per_gpu_hour) o["failures_per_gpu_hour"] = p.failures_per_gpu_hour;
  if (p.restart_h != d.restart_h) o["restart_h"] = p.restart_h;
  return o;
}

void put(json& doc, const char* key, json value) {
  if (!value.is_object() || !value.empty()) doc[key] = std::move(value);
}

}  // namespace

std::string write_scenario_input(const Scenario& s, const Catalog& catalog) {
  const Scenario d;
  json doc = {{"model", model_json(s)}};
  if (s.method != d.method) doc["method"] = to_string(s.method);
  if (s.is_peft()) doc["lora"] = {{"rank", s.lora.rank}, {"targets", s.lora.targets == LoraTargets::attention ? "attention" : "all_linear"}};
  if (s.method == Method::freeze && s.trainable_layers > 0) doc["trainable_layers"] = s.trainable_layers;
  if (s.precision != d.precision) doc["precision"] = to_string(s.precision);
  if (s.optimizer != d.optimizer) doc["optimizer"] = to_string(s.optimizer);
  if (s.pure_bf16) doc["pure_bf16"] = true;
  if (s.seq_len != d.seq_len) doc["seq_len"] = s.seq_len;
  if (s.micro_batch != d.micro_batch) doc["micro_batch"] = s.micro_batch;
  if (s.global_batch > 0) doc["global_batch"] = s.global_batch;
  if (s.tokens > 0) doc["tokens"] = s.tokens;
  if (s.epochs != d.epochs) doc["epochs"] = s.epochs;
  if (s.dropout) doc["dropout"] = true;
  doc["cluster"] = cluster_json(s, catalog);
  put(doc, "parallel", parallel_json(s.parallel));
  put(doc, "techniques", techniques_json(s.techniques));
  put(doc, "storage", storage_json(s.storage));
  put(doc, "pricing", pricing_json(s.pricing));
  return doc.dump();
}

}  // namespace llmplan
