// model.cpp: parameter count of a decoder: dense or MoE MLPs, MHA/GQA or DeepSeek's MLA. For GPT
// blocks it is Narayanan et al. 2021 §5.1, P = 12 l h^2 (1 + 13 / 12h + (V + s) / 12lh), plus the
// final norm.
// Checked in tests against Llama-2-7B 6.74e9, Llama-3-8B 8.03e9, GPT-3 175B and against every
// catalog preset's published count.
#include "llmplan/model.hpp"

namespace llmplan {

namespace {

// DeepSeek-V2 paper §2.1.2: queries through an optional low-rank bottleneck (with its norm),
// keys/values from a shared latent of kv_lora_rank plus a decoupled RoPE key.
double mla_attention(const ModelArch& m) {
  const double h = m.hidden;
  const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
  double q = m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank + static_cast<double>(m.q_lora_rank) * m.heads * qk
                               : h * m.heads * qk;
  const double kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank +
                    static_cast<double>(m.kv_lora_rank) * m.heads * (m.qk_nope_head_dim + m.v_head_dim);
  const double o = static_cast<double>(m.heads) * m.v_head_dim * h;
  return q + kv + o;
}

double mha_attention(const ModelArch& m) {
  const double h = m.hidden;
  const double q = m.q_width(), kv = m.k_width();
  double p = h * q + 2.0 * h * kv + q * h;  // Q, K, V, O
  if (m.qkv_bias || m.linear_bias) p += q + 2.0 * kv;
  if (m.linear_bias) p += h;
  return p;
}

// Gated (SwiGLU: gate, up, down) = 3hf; classic (up, down) = 2hf.
double mlp(const ModelArch& m, double width) {
  const double h = m.hidden;
  double p = (m.gated_mlp ? 3.0 : 2.0) * h * width;
  if (m.linear_bias) p += (m.gated_mlp ? 2.0 : 1.0) * width + h;
  return p;
}

// The counts below, in words, with the architecture they came from.
void explain_params(const ModelArch& a, const ParamCount& pc, Explainer& ex) {
  ex.add("model.params.total", pc.total, "1",
         "layers x (attention + MLP + 2 norms) + embedding + untied head + final norm (+ the multi-token "
         "prediction modules, model.params.mtp)",
         {{"layers", static_cast<double>(a.layers)},
          {"per_layer", pc.per_layer()},
          {"embedding", pc.embedding + pc.positions},
          {"head", pc.head},
          {"final_norm", pc.final_norm},
          {"mtp", pc.mtp}});
  ex.add(
      "model.params.per_layer", pc.per_layer(), "1",
      "attention h (q + k + v) + o h + MLP (3 h f gated, 2 h f GeLU; x experts for MoE, + router) + 2 norms (+ biases)",
      {{"hidden", static_cast<double>(a.hidden)},
       {"ffn", static_cast<double>(a.ffn)},
       {"heads", static_cast<double>(a.heads)},
       {"kv_heads", static_cast<double>(a.kv_heads)},
       {"experts", static_cast<double>(a.experts)}});
  ex.add("model.params.layers", pc.layers_total, "1", "sum over the layers of their parameters (dense and MoE layers)",
         {{"layers", static_cast<double>(a.layers)}, {"dense_layers", static_cast<double>(a.dense_layers)}});
  ex.add("model.params.active", pc.active, "1",
         "parameters one token passes through: MoE counts top_k routed + shared experts only (dense: = total)",
         {{"top_k", static_cast<double>(a.top_k)}, {"experts", static_cast<double>(a.experts)}});
  ex.add("model.params.embedding", pc.embedding + pc.positions, "1", "vocab x hidden (+ learned positions x hidden)",
         {{"vocab", static_cast<double>(a.vocab)},
          {"hidden", static_cast<double>(a.hidden)},
          {"learned_positions", static_cast<double>(a.learned_positions)}});
  ex.add("model.params.head", pc.head, "1", "vocab x hidden for an untied output head, 0 when tied to the embedding",
         {{"tied_embeddings", a.tied_embeddings ? 1.0 : 0.0}});
  ex.add("model.params.final_norm", pc.final_norm, "1", "hidden (RMSNorm) or 2 x hidden (LayerNorm)",
         {{"hidden", static_cast<double>(a.hidden)}});
}

}  // namespace

ParamCount count_params(const ModelArch& m, Explainer* ex) {
  const double h = m.hidden;
  const double norm_params = m.norm == NormKind::layernorm ? 2.0 * h : h;

  ParamCount p;
  p.attention_per_layer = m.attention == AttentionKind::mla ? mla_attention(m) : mha_attention(m);
  p.mlp_dense = mlp(m, m.ffn);
  if (m.is_moe()) {
    const double router = h * m.experts;
    const double shared = m.shared_experts * mlp(m, m.effective_shared_ffn());
    p.mlp_routed = m.experts * mlp(m, m.expert_ffn);
    p.mlp_moe = p.mlp_routed + shared + router;
    p.mlp_moe_active = m.top_k * mlp(m, m.expert_ffn) + shared + router;
  }
  p.mlp_per_layer = m.is_moe() ? p.mlp_moe : p.mlp_dense;
  p.norms_per_layer = 2.0 * norm_params;

  const int dense = m.is_moe() ? m.dense_layers : m.layers;
  const int moe = m.moe_layers();
  const double block = p.attention_per_layer + p.norms_per_layer;
  p.layers_total = dense * (block + p.mlp_dense) + moe * (block + p.mlp_moe);
  const double layers_active = dense * (block + p.mlp_dense) + moe * (block + p.mlp_moe_active);

  p.embedding = static_cast<double>(m.vocab) * h;
  p.positions = static_cast<double>(m.learned_positions) * h;
  p.head = m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab) * h;
  p.final_norm = norm_params;
  const double rest = p.embedding + p.positions + p.head + p.final_norm;
  p.total = p.layers_total + rest;
  p.active = layers_active + rest;
  if (ex) explain_params(m, p, *ex);
  return p;
}

// Multi-token prediction (DeepSeek-V3 technical report §2.2; Megatron-Core's
// MultiTokenPredictionLayer, --mtp-num-layers): module k predicts token i + k + 1 from module k - 1's
// hidden state and token i + k's embedding. It holds two norms of those, a projection M_k of 2h -> h,
// one transformer block of the model's last block's kind and a final norm, and shares the embedding
// and the output head with the model, so a token passes through the block, M_k and the head once more.
ParamCount count_params(const ModelArch& m, int mtp_layers, Explainer* ex) {
  ParamCount p = count_params(m, nullptr);
  const double h = m.hidden;
  const bool moe = m.moe_layers() > 0;
  const double block = p.attention_per_layer + p.norms_per_layer + (moe ? p.mlp_moe : p.mlp_dense);
  const double block_linears = p.attention_per_layer + (moe ? p.mlp_moe_active : p.mlp_dense);
  const double projection = 2.0 * h * h;
  if (mtp_layers > 0) {
    p.mtp_layers = mtp_layers;
    p.mtp = mtp_layers * (block + projection + 3.0 * p.final_norm);
    p.mtp_matmul = mtp_layers * (block_linears + projection + static_cast<double>(m.vocab) * h);
    p.total += p.mtp;
  }
  if (!ex) return p;
  explain_params(m, p, *ex);
  if (mtp_layers > 0)
    ex->add("model.params.mtp", p.mtp, "1",
            "mtp_layers x (one block of the model's last kind + a 2h x h projection + 3 norms): multi-token "
            "prediction modules (DeepSeek-V3 report §2.2), sharing the embedding and the output head; in "
            "model.params.total, not in active",
            {{"mtp_layers", static_cast<double>(mtp_layers)}, {"block", block}, {"projection", projection}});
  return p;
}

}  // namespace llmplan
