// model.hpp: a decoder-only transformer's architecture ("Application" in Calculon's terms) and
// its parameter count, term by term: the first step of the estimate.
#pragma once
#include <array>
#include <cstddef>
#include <string>

#include "llmplan/explain.hpp"

namespace llmplan {

enum class NormKind { rmsnorm, layernorm };  // RMSNorm has a weight; LayerNorm a weight and a bias
enum class AttentionKind { mha, mla };       // MHA/GQA/MQA, or DeepSeek's multi-head latent attention
// Fused attention kernels, whose measured rates differ by generation and accelerator (catalog
// accelerators' attention_efficiency). auto: the accelerator's usual kernel (its attention_kernel,
// or attention_kernel_pytorch under PyTorch-native frameworks). On AMD Instinct parts flash2 is
// flash-attn's ROCm build (Composable Kernel), aotriton PyTorch's scaled_dot_product_attention on
// ROCm, aiter AITER's assembly FMHA kernels (Transformer Engine on ROCm).
enum class AttentionKernel { auto_, flash1, flash_triton, flash2, flash3, flash4, cudnn, aotriton, aiter };
inline constexpr const char* kAttentionKernelNames[] = {"auto",   "flash1", "flash_triton", "flash2", "flash3",
                                                        "flash4", "cudnn",  "aotriton",     "aiter"};
inline constexpr int kAttentionKernels = 9;
// How a kernel's rate changes with the sequence length it runs on: measured (length in tokens,
// rate / the rate its attention_efficiency figure was measured at) points, ascending by length;
// empty: one rate at every length. Fixed capacity, so that copying a scenario's cluster (the
// planner copies one per layout) allocates nothing.
struct AttentionLengthScale {
  static constexpr int kMaxPoints = 16;
  std::array<std::array<double, 2>, kMaxPoints> points{};
  int count = 0;

  bool empty() const { return count == 0; }
  size_t size() const { return static_cast<size_t>(count); }
  const std::array<double, 2>& operator[](size_t i) const { return points[i]; }
  const std::array<double, 2>& front() const { return points[0]; }
  const std::array<double, 2>& back() const { return points[static_cast<size_t>(count - 1)]; }
  void push_back(const std::array<double, 2>& p) { points[static_cast<size_t>(count++)] = p; }
};
inline constexpr const char* kNormNames[] = {"rmsnorm", "layernorm"};
inline constexpr const char* kAttentionNames[] = {"mha", "mla"};

struct ModelArch {
  int layers = 32;               // transformer blocks L
  int hidden = 4096;             // model width h
  int heads = 32;                // attention (query) heads a
  int kv_heads = 32;             // key/value heads k (GQA when k < a; MHA when k == a)
  int head_dim = 0;              // per-head width; 0 means hidden / heads
  int ffn = 11008;               // MLP inner width f
  int vocab = 32000;             // vocabulary V
  bool gated_mlp = true;         // SwiGLU-style 3 matrices (Llama); false: 2 matrices (GPT)
  bool tied_embeddings = false;  // output head shares the input embedding
  bool qkv_bias = false;         // biases on Q, K, V only (Qwen2)
  bool linear_bias = false;      // biases on every linear layer (GPT-2/3)
  NormKind norm = NormKind::rmsnorm;
  int learned_positions = 0;  // rows of a learned position embedding (GPT: context); 0 for RoPE
  // Mixture of experts (experts == 0: dense). MoE layers replace the dense MLP by `experts` routed
  // experts of width expert_ffn (top_k per token) plus always-on shared experts.
  int experts = 0;
  int top_k = 0;
  int shared_experts = 0;
  int expert_ffn = 0;
  int shared_expert_ffn = 0;  // 0 means expert_ffn
  int dense_layers = 0;       // leading layers that keep a dense MLP of width ffn (DeepSeek-V3: 3)
  // Multi-head latent attention (DeepSeek-V2/V3), used when attention == mla.
  AttentionKind attention = AttentionKind::mha;
  int q_lora_rank = 0;  // 0: queries are projected directly
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
  // Sliding-window attention (Mistral 7B v0.1, Gemma 2/3, GPT-OSS): `sliding_layers` blocks attend
  // only the last `sliding_window` keys (the query's own included); 0 layers means every block.
  int sliding_window = 0;  // 0: every block attends the whole causal context
  int sliding_layers = 0;

  int effective_head_dim() const { return head_dim > 0 ? head_dim : hidden / heads; }
  bool is_moe() const { return experts > 0; }
  int moe_layers() const { return is_moe() ? layers - dense_layers : 0; }
  int windowed_layers() const { return sliding_window <= 0 ? 0 : sliding_layers > 0 ? sliding_layers : layers; }
  int effective_shared_ffn() const { return shared_expert_ffn > 0 ? shared_expert_ffn : expert_ffn; }
  // Widths of the tensors attention keeps per token (per layer, before TP sharding). Defined here,
  // not in model.cpp: the estimator asks for them dozens of times an estimate.
  double q_width() const {
    if (attention == AttentionKind::mla) return static_cast<double>(heads) * (qk_nope_head_dim + qk_rope_head_dim);
    return static_cast<double>(heads) * effective_head_dim();
  }
  double k_width() const {
    if (attention == AttentionKind::mla) return q_width();
    return static_cast<double>(kv_heads) * effective_head_dim();
  }
  double v_width() const {
    if (attention == AttentionKind::mla) return static_cast<double>(heads) * v_head_dim;
    return k_width();
  }
  double attn_out_width() const { return attention == AttentionKind::mla ? v_width() : q_width(); }  // O's input
  // MLP width a token passes through in the largest layer (routed top_k + shared experts for MoE).
  double active_mlp_width() const {
    if (!is_moe()) return ffn;
    return static_cast<double>(top_k) * expert_ffn + static_cast<double>(shared_experts) * effective_shared_ffn();
  }
  // The same with each routed expert's rows padded to `routed_rows` x its share (token dropping
  // with padding, parallel.moe_capacity_factor); the shared experts take every token once.
  double padded_mlp_width(double routed_rows) const {
    if (!is_moe()) return ffn;
    return active_mlp_width() + (routed_rows - 1.0) * top_k * static_cast<double>(expert_ffn);
  }
};

// Parameters by where they live, so memory can split them across TP ranks and pipeline stages.
struct ParamCount {
  double attention_per_layer = 0;  // Q, K, V, O weights and biases (TP-sharded)
  double mlp_per_layer = 0;        // MLP of the largest layer: all experts, shared experts and router for MoE
  double mlp_dense = 0;            // dense MLP of width ffn
  double mlp_moe = 0;              // one MoE layer's experts, shared experts and router (0 when dense)
  double mlp_moe_active = 0;       // the part of an MoE layer one token uses (top_k + shared + router)
  double mlp_routed = 0;           // one MoE layer's routed experts (split over EP ranks); 0 when dense
  double norms_per_layer = 0;      // two norms per block (replicated across TP)
  double embedding = 0;            // V·h token embedding (vocab-parallel under TP)
  double positions = 0;            // learned position embedding (replicated)
  double head = 0;                 // untied output projection V·h (0 when tied)
  double final_norm = 0;
  double layers_total = 0;  // all blocks, dense and MoE
  double total = 0;         // with the multi-token prediction modules, when trained
  double active = 0;        // parameters one token of the model uses (= total for dense models; no MTP modules)
  // Multi-token prediction modules trained with the model (techniques.mtp_layers; 0: none): their
  // parameters, on the last pipeline stage, and the matmul weights one token passes through in them.
  int mtp_layers = 0;
  double mtp = 0;
  double mtp_matmul = 0;

  double per_layer() const { return attention_per_layer + mlp_per_layer + norms_per_layer; }  // largest block
};

// `ex` records the formula and inputs of every count when not null.
ParamCount count_params(const ModelArch& arch, Explainer* ex = nullptr);
// The same with `mtp_layers` multi-token prediction modules trained alongside.
ParamCount count_params(const ModelArch& arch, int mtp_layers, Explainer* ex = nullptr);

}  // namespace llmplan
