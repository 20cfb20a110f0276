// memory.cpp: per-GPU training memory for the most loaded pipeline stage.
//
// [SECTION] Named constants
// [SECTION] Model states (ZeRO paper)
// [SECTION] Activations (Korthikanti et al. 2022)
// [SECTION] Stages, buffers and the whole GPU
#include "llmplan/memory.hpp"

#include <algorithm>

namespace llmplan {

//-----------------------------------------------------------------------------
// [SECTION] Named constants
//-----------------------------------------------------------------------------

// CUDA context plus cuBLAS/cuDNN/NCCL workspaces: 0.5-1.5 GB per GPU in practice
// (model-reference §2 "Other memory"); the middle of that range until calibration.
const double kRuntimeOverheadBytes = 1.0e9;
// PyTorch caching-allocator fragmentation on top of the dynamic tensors (activations, logits,
// buffers); model-reference §2 gives 5-15 %, we take the low end until calibration.
const double kAllocatorFragmentation = 0.05;
// PyTorch DDP gradient bucket: bucket_cap_mb defaults to 25 (MiB); two are in flight.
const double kDdpBucketBytes = 25.0 * 1024 * 1024;
// DeepSpeed ZeRO-1/2 reduce_bucket_size and allgather_bucket_size default to 5e8 elements
// (DeepSpeed configuration docs, "zero_optimization").
const double kDeepSpeedBucketElements = 5e8;

//-----------------------------------------------------------------------------
// [SECTION] Model states (ZeRO paper, Rajbhandari et al. 2020, §3 and Figure 1)
//-----------------------------------------------------------------------------

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer /*optimizer: AdamW*/) {
  if (precision == Precision::fp32) return {4, 4, 8};  // fp32 weights, grads; Adam m and v
  return {2, 2, 12};  // 16-bit weights and grads; fp32 master + m + v (K = 12)
}

ModelStateBytes model_state_bytes(double params, StateBytesPerParam b, int dp, int zero) {
  const double d = std::max(dp, 1);
  ModelStateBytes m;
  m.weights = params * b.weights / (zero >= 3 ? d : 1.0);
  m.gradients = params * b.gradients / (zero >= 2 ? d : 1.0);
  m.optimizer = params * b.optimizer / (zero >= 1 ? d : 1.0);
  return m;
}

//-----------------------------------------------------------------------------
// [SECTION] Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
// Transformer Models", §4.1, Table 2), per layer and micro-batch. The paper's GPT block stores
// 34·sbh + 5·a·s²·b bytes; we keep its tensor-by-tensor accounting so GQA (K, V shrink by k/a),
// gated MLPs (four f-wide tensors instead of two), no dropout and FlashAttention fall out of it.
//-----------------------------------------------------------------------------

namespace {

struct LayerTensors {
  double replicated = 0;  // bytes per token held whole on every TP rank unless sequence-parallel
  double sharded = 0;     // bytes per token split across TP ranks
  double scores = 0;      // bytes per (token x key position x head): the s x s attention maps
};

LayerTensors layer_tensors(const ModelArch& m, double e, bool dropout) {
  const double h = m.hidden;
  const double f = m.active_mlp_width();  // MoE: the top_k routed + shared experts a token passes
  LayerTensors t;
  t.replicated = 2 * e * h     // inputs of the two norms
               + e * h         // input of the QKV projection
               + e * h;        // input of the MLP
  if (dropout) t.replicated += 2 * h;  // 1-byte masks after attention and after the MLP
  t.sharded = e * (m.q_width() + m.k_width() + m.v_width())  // Q, K and V for the attention products
            + e * m.attn_out_width();                         // input of the output projection
  // Classic MLP keeps the GeLU input and output (2 x f); a gated MLP keeps gate, up,
  // activation output and the product fed to the down projection (4 x f).
  t.sharded += (m.gated_mlp ? 4.0 : 2.0) * e * f;
  t.scores = e + (dropout ? 1.0 + e : 0.0);  // softmax output (+ dropout mask and output)
  return t;
}

}  // namespace

double activation_bytes_per_layer(const ModelArch& m, const ActivationShape& a) {
  const LayerTensors t = layer_tensors(m, a.element_bytes, a.dropout);
  const double tokens = static_cast<double>(a.seq_len) * a.micro_batch;
  const double tp = std::max(a.tp, 1);
  const double rep_div = a.sequence_parallel ? tp : 1.0;

  if (a.recompute == Recompute::full) {
    // Only the layer input is kept; the working set of one layer is added per stage.
    return tokens * a.element_bytes * m.hidden / rep_div;
  }
  double bytes = tokens * (t.replicated / rep_div + t.sharded / tp);
  const bool keep_scores = a.recompute == Recompute::none && !a.flash_attention;
  if (keep_scores) bytes += tokens * static_cast<double>(a.seq_len) * m.heads * t.scores / tp;
  return bytes;
}

//-----------------------------------------------------------------------------
// [SECTION] Stages, buffers and the whole GPU
//-----------------------------------------------------------------------------

namespace {

struct StageLoad {
  double params = 0;     // parameters held by one GPU of this stage (TP-sharded)
  double in_flight = 1;  // micro-batches whose activations are alive at the peak
  bool has_logits = false;
};

double layer_params_per_rank(const ParamCount& p, int tp) {
  return (p.attention_per_layer + p.mlp_per_layer) / tp + p.norms_per_layer;
}

// 1F1B keeps min(p, m) micro-batches in flight on the first stage (Korthikanti §4.2.3) and one
// on the last. Tied embeddings put a copy of the embedding on the last stage when p > 1
// (Megatron-LM shares it through an all-reduce).
StageLoad first_stage(const Scenario& s, const ParamCount& p) {
  const int tp = s.parallel.tp, pp = s.parallel.pp;
  StageLoad st;
  st.params = (s.model.layers / pp) * layer_params_per_rank(p, tp) + p.embedding / tp + p.positions;
  if (pp == 1) {
    st.params += p.head / tp + p.final_norm;
    st.has_logits = true;
  }
  st.in_flight = std::min(pp, std::max(s.grad_accum(), 1));
  return st;
}

StageLoad last_stage(const Scenario& s, const ParamCount& p) {
  const int tp = s.parallel.tp, pp = s.parallel.pp;
  StageLoad st;
  const double head = s.model.tied_embeddings ? p.embedding : p.head;
  st.params = (s.model.layers / pp) * layer_params_per_rank(p, tp) + head / tp + p.final_norm;
  st.has_logits = true;
  return st;
}

double element_bytes(Precision p) { return p == Precision::fp32 ? 4.0 : 2.0; }

ActivationShape activation_shape(const Scenario& s) {
  ActivationShape a;
  a.seq_len = s.seq_len;
  a.micro_batch = s.micro_batch;
  a.tp = s.parallel.tp;
  a.sequence_parallel = s.parallel.sequence_parallel && s.parallel.tp > 1;
  a.recompute = s.parallel.recompute;
  a.flash_attention = s.parallel.flash_attention;
  a.dropout = s.dropout;
  a.element_bytes = element_bytes(s.precision);
  return a;
}

double stage_activations(const Scenario& s, const StageLoad& st) {
  const ActivationShape a = activation_shape(s);
  const double layers = s.model.layers / s.parallel.pp;
  double bytes = layers * st.in_flight * activation_bytes_per_layer(s.model, a);
  if (a.recompute == Recompute::full) {
    // During backward one layer is recomputed and holds its whole working set.
    ActivationShape working = a;
    working.recompute = Recompute::none;
    bytes += activation_bytes_per_layer(s.model, working);
  }
  return bytes;
}

// Final norm input and head input (replicated unless sequence-parallel), the logits in the
// training precision and the fp32 copy cross-entropy upcasts to (vocab-parallel under TP).
double logits_bytes(const Scenario& s) {
  const double e = element_bytes(s.precision);
  const double tokens = static_cast<double>(s.seq_len) * s.micro_batch;
  const double tp = s.parallel.tp;
  const double rep_div = (s.parallel.sequence_parallel && tp > 1) ? tp : 1.0;
  return tokens * (2 * e * s.model.hidden / rep_div + (e + 4.0) * s.model.vocab / tp);
}

double buffer_bytes(const Scenario& s, const ParamCount& p, const StateBytesPerParam& b) {
  if (s.dp() <= 1) return 0;
  if (s.parallel.zero >= 3) {
    // FSDP / ZeRO-3 gather one layer's full weights and prefetch the next.
    return 2.0 * layer_params_per_rank(p, s.parallel.tp) * b.weights;
  }
  if (s.parallel.zero >= 1) return kDeepSpeedBucketElements * b.gradients;
  return 2.0 * kDdpBucketBytes;
}

MemoryBreakdown stage_memory(const Scenario& s, const ParamCount& p, const StageLoad& st) {
  const StateBytesPerParam b = state_bytes_per_param(s.precision, s.optimizer);
  const ModelStateBytes states = model_state_bytes(st.params, b, s.dp(), s.parallel.zero);
  MemoryBreakdown m;
  m.weights = states.weights;
  m.gradients = states.gradients;
  m.optimizer = states.optimizer;
  m.activations = stage_activations(s, st);
  m.logits = st.has_logits ? logits_bytes(s) : 0.0;
  m.buffers = buffer_bytes(s, p, b);
  m.runtime = kRuntimeOverheadBytes + kAllocatorFragmentation * (m.activations + m.logits + m.buffers);
  return m;
}

struct Peak {
  MemoryBreakdown mem;
  Stage stage;
};

Peak peak_stage(const Scenario& s, const ParamCount& p) {
  const MemoryBreakdown first = stage_memory(s, p, first_stage(s, p));
  if (s.parallel.pp == 1) return {first, Stage::only};
  const MemoryBreakdown last = stage_memory(s, p, last_stage(s, p));
  return last.total() > first.total() ? Peak{last, Stage::last} : Peak{first, Stage::first};
}

// Memory grows with the micro-batch (fewer micro-batches in flight never outweigh bigger ones),
// so a bisection finds the largest one that fits while the global batch stays the same.
int largest_micro_batch(Scenario s, const ParamCount& p, double capacity) {
  const int global = s.effective_global_batch();
  auto fits = [&](int b) {
    s.micro_batch = b;
    s.global_batch = std::max(global, b * s.dp());
    return peak_stage(s, p).mem.total() <= capacity;
  };
  if (!fits(1)) return 0;
  int lo = 1, hi = 1;
  while (hi < (1 << 20) && fits(hi * 2)) hi *= 2;
  if (hi >= (1 << 20)) return hi;
  lo = hi;
  hi *= 2;  // fits(lo), !fits(hi)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

MemoryResult estimate_memory(const Scenario& s, const ParamCount& p) {
  MemoryResult r;
  const Peak peak = peak_stage(s, p);
  r.per_gpu = peak.mem;
  r.stage = peak.stage;
  r.capacity_bytes = s.cluster.gpu_memory_gb * 1e9;
  r.headroom_bytes = r.capacity_bytes - r.per_gpu.total();
  r.fits = r.headroom_bytes >= 0;
  r.max_micro_batch = largest_micro_batch(s, p, r.capacity_bytes);
  return r;
}

const char* to_string(Stage stage) {
  switch (stage) {
    case Stage::only: return "only";
    case Stage::first: return "first";
    case Stage::last: return "last";
  }
  return "only";
}

}  // namespace llmplan
