// model.cpp: parameter count of a dense decoder (model-reference §1). Checked in tests against
// Llama-2-7B 6.74e9, Llama-3-8B 8.03e9 and GPT-3 175B.
#include "llmplan/model.hpp"

namespace llmplan {

ParamCount count_params(const ModelArch& m) {
  const double h = m.hidden;
  const double hd = m.effective_head_dim();
  const double q_width = m.heads * hd;     // = h for standard attention
  const double kv_width = m.kv_heads * hd; // shrinks by k/a under GQA
  const double f = m.ffn;
  const double norm_params = m.norm == NormKind::layernorm ? 2.0 * h : h;

  ParamCount p;
  // Attention: Q (h x q), K and V (h x kv each), O (q x h)
  p.attention_per_layer = h * q_width + 2.0 * h * kv_width + q_width * h;
  if (m.qkv_bias || m.linear_bias) p.attention_per_layer += q_width + 2.0 * kv_width;
  if (m.linear_bias) p.attention_per_layer += h;
  // MLP: gated (gate, up, down) = 3hf; classic (up, down) = 2hf
  p.mlp_per_layer = (m.gated_mlp ? 3.0 : 2.0) * h * f;
  if (m.linear_bias) p.mlp_per_layer += (m.gated_mlp ? 2.0 : 1.0) * f + h;
  p.norms_per_layer = 2.0 * norm_params;

  p.embedding = static_cast<double>(m.vocab) * h;
  p.positions = static_cast<double>(m.learned_positions) * h;
  p.head = m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab) * h;
  p.final_norm = norm_params;
  p.total = m.layers * p.per_layer() + p.embedding + p.positions + p.head + p.final_norm;
  return p;
}

}  // namespace llmplan
