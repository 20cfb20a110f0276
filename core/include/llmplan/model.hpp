// model.hpp: a dense decoder-only transformer's architecture ("Application" in Calculon's terms)
// and its parameter count, term by term (model-reference §1).
#pragma once
#include <string>

namespace llmplan {

enum class NormKind { rmsnorm, layernorm };  // RMSNorm has a weight; LayerNorm a weight and a bias

struct ModelArch {
  int layers = 32;              // transformer blocks L
  int hidden = 4096;            // model width h
  int heads = 32;               // attention (query) heads a
  int kv_heads = 32;            // key/value heads k (GQA when k < a; MHA when k == a)
  int head_dim = 0;             // per-head width; 0 means hidden / heads
  int ffn = 11008;              // MLP inner width f
  int vocab = 32000;            // vocabulary V
  bool gated_mlp = true;        // SwiGLU-style 3 matrices (Llama); false: 2 matrices (GPT)
  bool tied_embeddings = false; // output head shares the input embedding
  bool qkv_bias = false;        // biases on Q, K, V only (Qwen2)
  bool linear_bias = false;     // biases on every linear layer (GPT-2/3)
  NormKind norm = NormKind::rmsnorm;
  int learned_positions = 0;    // rows of a learned position embedding (GPT: context); 0 for RoPE

  int effective_head_dim() const { return head_dim > 0 ? head_dim : hidden / heads; }
};

// Parameters by where they live, so memory can split them across TP ranks and pipeline stages.
struct ParamCount {
  double attention_per_layer = 0;   // Q, K, V, O weights and biases (TP-sharded)
  double mlp_per_layer = 0;         // MLP weights and biases (TP-sharded)
  double norms_per_layer = 0;       // two norms per block (replicated across TP)
  double embedding = 0;             // V·h token embedding (vocab-parallel under TP)
  double positions = 0;             // learned position embedding (replicated)
  double head = 0;                  // untied output projection V·h (0 when tied)
  double final_norm = 0;
  double total = 0;

  double per_layer() const { return attention_per_layer + mlp_per_layer + norms_per_layer; }
};

ParamCount count_params(const ModelArch& arch);

}  // namespace llmplan
