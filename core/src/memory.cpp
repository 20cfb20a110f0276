// memory.cpp: per-GPU training memory for the most loaded pipeline stage. The runtime overhead and
// bucket sizes are constants of the Calibration (calibration.cpp gives their sources).
//
// [SECTION] Model states (ZeRO paper)
// [SECTION] Activations (Korthikanti et al. 2022)
// [SECTION] Context, expert and virtual pipeline parallelism
// [SECTION] Stages, buffers and the whole GPU
// [SECTION] Memory step
#include "llmplan/memory.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace llmplan {

//-----------------------------------------------------------------------------
// [SECTION] Model states (ZeRO paper, Rajbhandari et al. 2020, §3 and Figure 1)
//-----------------------------------------------------------------------------

// Optimizer state per parameter besides the master copy: AdamW keeps fp32 m and v (8 B);
// 8-bit Adam (Dettmers et al. 2022) 1 B each; SGD with momentum 4 B; Adafactor factors the
// second moment into row and column vectors (negligible per parameter) and keeps no momentum.
double optimizer_state_bytes(Optimizer o) {
  switch (o) {
    case Optimizer::adamw8bit: return 2;
    case Optimizer::sgd: return 4;
    case Optimizer::adafactor: return 0;
    case Optimizer::adamw: break;
  }
  return 8;
}

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer, bool pure_bf16) {
  // Pure bf16 (torchtune's default, LLaMA-Factory's pure_bf16): no fp32 master, optimizer states
  // in bf16 too (AdamW m and v at 2 B each).
  if (pure_bf16 && precision == Precision::bf16) {
    // fp32 moments become bf16; 8-bit Adam's moments are 8-bit either way.
    const double states = optimizer == Optimizer::adamw8bit ? 2.0 : optimizer_state_bytes(optimizer) / 2;
    return {2, 2, states};
  }
  // fp32 training has no master copy; mixed precision (bf16/fp16, and fp8 whose Transformer
  // Engine recipe keeps bf16 weights) keeps 16-bit weights and grads plus an fp32 master.
  if (precision == Precision::fp32) return {4, 4, optimizer_state_bytes(optimizer)};
  return {2, 2, 4 + optimizer_state_bytes(optimizer)};
}

// LoRA (Hu et al. 2021): r x (d_in + d_out) per adapted matrix; "attention" adapts Q, K, V, O,
// "all_linear" adds every MLP matrix: the dense MLP in dense blocks, every routed and shared expert's
// in MoE blocks (MLA's projections are counted as multi-head attention of its widths).
double lora_params_total(const ModelArch& m, const Lora& lora) {
  const double r = lora.rank, h = m.hidden;
  const double attention = r * ((h + m.q_width()) + (h + m.k_width()) + (h + m.v_width()) + (m.attn_out_width() + h));
  double p = attention * m.layers;
  if (lora.targets == LoraTargets::all_linear) {
    const double mats = m.gated_mlp ? 3.0 : 2.0;
    const double dense = mats * r * (h + m.ffn);
    if (!m.is_moe()) return p + dense * m.layers;
    const double moe =
        mats * r *
        (m.experts * (h + m.expert_ffn) + m.shared_experts * (h + static_cast<double>(m.effective_shared_ffn())));
    p += dense * (m.layers - m.moe_layers()) + moe * m.moe_layers();
  }
  return p;
}

double lora_params_per_layer(const ModelArch& m, const Lora& lora) { return lora_params_total(m, lora) / m.layers; }

AdapterWidths lora_adapter_widths(const ModelArch& m, LoraTargets targets, const AdapterLayout& l) {
  const double h = m.hidden, tp = l.tp;
  AdapterWidths w{3.0 * h + m.attn_out_width() / tp, (m.q_width() + m.k_width() + m.v_width()) / tp + l.row_out};
  if (targets != LoraTargets::all_linear) return w;
  const double up = m.gated_mlp ? 2.0 : 1.0;
  auto mlp = [&](double paths, double f, double split, double row_out, double tokens) {
    return AdapterWidths{tokens * (up * paths * h + f / split), tokens * (up * f / split + paths * row_out)};
  };
  const AdapterWidths dense = mlp(1.0, m.ffn, tp, l.row_out, 1.0);
  const double moe_share = m.is_moe() ? static_cast<double>(m.moe_layers()) / m.layers : 0.0;
  const AdapterWidths moe =
      m.is_moe() ? mlp(m.top_k + m.shared_experts, m.active_mlp_width(), l.etp, l.expert_row_out, l.expert_tokens)
                 : dense;
  w.in += (1 - moe_share) * dense.in + moe_share * moe.in;
  w.out += (1 - moe_share) * dense.out + moe_share * moe.out;
  return w;
}

double lora_active_params_per_layer(const ModelArch& m, const Lora& lora) {
  const double h = m.hidden;
  const AdapterWidths w = lora_adapter_widths(m, lora.targets, {.row_out = h, .expert_row_out = h});
  return lora.rank * (w.in + w.out);
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
// gated MLPs (four f-wide tensors instead of two, three with a fused activation), no dropout and
// FlashAttention fall out of it.
//-----------------------------------------------------------------------------

namespace {

struct LayerTensors {
  double replicated = 0;   // bytes per token held whole on every TP rank unless sequence-parallel
  double gemm_inputs = 0;  // the part of `replicated` that is the QKV projection's and the MLP's input
  double sharded = 0;      // bytes per token split across TP ranks
  double scores = 0;       // bytes per (token x key position x head): the s x s attention maps
};

LayerTensors layer_tensors(const ModelArch& m, const ActivationShape& a, double norm_in) {
  const double h = m.hidden, e = a.element_bytes, g = a.gemm_input_bytes;
  // MoE: the top_k routed (padded to capacity with token dropping) + shared experts a token passes.
  const double f = m.padded_mlp_width(a.routed_rows);
  // A GEMM input is kept for the weight's gradient only: autograd saves mm's first operand only
  // when the second requires grad (PyTorch tools/autograd/gen_variable_type.py, guard_for;
  // bitsandbytes' MatMul4Bit keeps no input either), so frozen, unadapted MLP weights keep none.
  const double mlp_g = a.frozen_mlp ? 0.0 : g;
  LayerTensors t;
  t.replicated = 2 * norm_in * h  // inputs of the two norms
                 + g * h          // input of the QKV projection
                 + mlp_g * h;     // input of the MLP
  t.gemm_inputs = g * h + mlp_g * h;
  if (a.dropout) t.replicated += 2 * h;                      // 1-byte masks after attention and after the MLP
  t.sharded = e * (m.q_width() + m.k_width() + m.v_width())  // Q, K and V for the attention products
              + g * m.attn_out_width();                      // input of the output projection
  // Classic MLP keeps the GeLU input and output (2 x f); a gated MLP keeps gate, up,
  // activation output and the product fed to the down projection (4 x f). The last one of
  // each is a GEMM input. A fused gated activation saves only its input, gate and up, and
  // recomputes the activation in backward (Megatron-Core fusions/fused_bias_swiglu.py and Liger's
  // ops/swiglu.py: save_for_backward of the kernel's input): 3 x f with the product.
  const double gated = a.fused_gated_activation ? 2.0 : 3.0;
  t.sharded += ((m.gated_mlp ? gated : 1.0) * e + mlp_g) * f;
  t.scores = e + (a.dropout ? 1.0 + e : 0.0);  // softmax output (+ dropout mask and output)
  return t;
}

// Per-operator checkpointing (torchtitan, selective_ac_option "op") keeps the block's input (the
// checkpoint's argument) and the outputs of the ops on its save list: matmuls but every second
// one (q, v and w1 are kept; k, o and w3 or w2 recomputed), the fused attention kernel's output
// and its fp32 log-sum-exp, and the reduce-scatters of tensor parallelism. A gated MLP's w2 is
// the seventh matmul, so it is kept: under TP the partial sums before the reduce-scatter, whole.
double op_checkpoint_bytes(const ModelArch& m, const ActivationShape& a, double tp, double rep_div) {
  const double e = a.element_bytes, h = m.hidden;
  const double residual = a.residual_bytes > 0 ? a.residual_bytes : e;
  const double replicated = residual * h + (tp > 1 ? 2.0 * e * h : 0.0);
  const double whole = m.gated_mlp ? e * h : 0.0;
  const double attention = a.flash_attention ? e * m.attn_out_width() + 4.0 * m.heads : 0.0;
  const double sharded = e * (m.q_width() + m.v_width() + m.padded_mlp_width(a.routed_rows)) + attention;
  return replicated / rep_div + whole + sharded / tp;
}

}  // namespace

double activation_bytes_per_layer(const ModelArch& m, const ActivationShape& a) {
  const double tokens = static_cast<double>(a.seq_len) * a.micro_batch / std::max(a.cp, 1);  // this GPU's tokens
  const double tp = std::max(a.tp, 1);
  const double rep_div = a.sequence_parallel ? tp : 1.0;

  if (a.recompute == Recompute::full) {
    // Only the layer input is kept; the working set of one layer is added per stage.
    return tokens * (a.residual_bytes > 0 ? a.residual_bytes : a.element_bytes) * m.hidden / rep_div;
  }
  if (a.recompute == Recompute::selective_op) return tokens * op_checkpoint_bytes(m, a, tp, rep_div);
  const double norm_in = a.norm_input_bytes > 0 ? a.norm_input_bytes : a.element_bytes;
  const LayerTensors t = layer_tensors(m, a, norm_in);
  // Megatron's column-parallel layers keep their sequence-parallel input shard and all-gather it
  // again in backward (Korthikanti et al. 2022 §4.2.2; megatron/core/tensor_parallel/layers.py,
  // LinearWithGradAccumulationAndAsyncCommunication); torchtitan's and torchtune's DTensor plans
  // all-gather the input before the layers (PrepareModuleInput to Replicate() ahead of the QKV
  // projections and of w1/w3), and autograd keeps that whole tensor for the weight gradients.
  const double gemm_div = a.gathered_gemm_inputs ? 1.0 : rep_div;
  double bytes = tokens * ((t.replicated - t.gemm_inputs) / rep_div + t.gemm_inputs / gemm_div + t.sharded / tp);
  const bool keep_scores = a.recompute == Recompute::none && !a.flash_attention;
  // With context parallelism a GPU's queries (tokens) still score against every key (seq_len).
  if (keep_scores) bytes += tokens * static_cast<double>(a.seq_len) * m.heads * t.scores / tp;
  return bytes;
}

//-----------------------------------------------------------------------------
// [SECTION] Context, expert and virtual pipeline parallelism. CP divides the tokens a GPU keeps
// (above, and the logits); EP divides the routed experts' weights and shards their states over
// the expert-data-parallel group; VP changes the micro-batches in flight (in_flight_micro_batches).
//-----------------------------------------------------------------------------

int interleaved_warmup_chunks(const Parallel& x, int rank) {
  const int pp = std::max(1, x.pp), vp = std::max(1, x.vp);
  return (pp - rank - 1) * 2 + (vp - 1) * pp;
}

namespace {
// ... of a schedule of m micro-batches (a pipeline flush empties the pipeline).
double in_flight_of_schedule(const Parallel& x, int rank, int m) {
  const int pp = std::max(1, x.pp), vp = std::max(1, x.vp);
  if (vp == 1 || pp == 1) return std::min(pp - rank, m);
  // The warm-up chunks and the one in the first 1F1B step; never more than the schedule's m vp chunks.
  return std::min(interleaved_warmup_chunks(x, rank) + 1, m * vp) / static_cast<double>(vp);
}
}  // namespace

double in_flight_micro_batches(const Scenario& s, int rank) {
  return in_flight_of_schedule(s.parallel, rank, s.schedule_micro_batches());
}

double element_bytes(Precision p) { return p == Precision::fp32 ? 4.0 : 2.0; }

// torchtitan's attention expands the key/value heads to every query head before SDPA
// (torchtitan/models/llama/model.py: keys = repeat_kv(xk, self.n_rep)), so PyTorch's ring moves
// that width; Transformer Engine's ring moves the key/value heads themselves.
bool cp_runs_pytorch_ring(const Scenario& s) { return s.framework == FrameworkKind::torchtitan; }

bool tp_keeps_gathered_inputs(const Scenario& s) {
  return s.framework == FrameworkKind::torchtitan || s.framework == FrameworkKind::torchtune;
}

double cp_kv_width(const Scenario& s) {
  const ModelArch& m = s.model;
  const double kv = m.k_width() + m.v_width();
  const bool grouped = m.attention != AttentionKind::mla && m.kv_heads > 0 && m.kv_heads < m.heads;
  return cp_runs_pytorch_ring(s) && grouped ? kv * m.heads / m.kv_heads : kv;
}

namespace {
// The tokens of one CP rank's chunk of a micro-batch of b sequences, b (s / cp).
double cp_chunk_tokens(const Scenario& s, int micro_batch) {
  return static_cast<double>(micro_batch) * s.seq_len / std::max(1, s.parallel.cp);
}

double cp_chunk_kv_elements_at(const Scenario& s, int micro_batch) {
  return cp_chunk_tokens(s, micro_batch) * cp_kv_width(s) / s.parallel.tp;
}
}  // namespace

double cp_chunk_kv_elements(const Scenario& s) { return cp_chunk_kv_elements_at(s, s.micro_batch); }

// PyTorch's ring (torchtitan's context parallelism; torch/distributed/tensor/experimental/
// _attention.py, _templated_ring_attention_backward) holds more during one layer's attention
// backward than the fused kernel's own gradients. At its end, where it holds the most: the keys and
// values of every CP rank, all-gathered (cp chunks, 16-bit), and the chunk it concatenated to send
// (one); the key/value gradients it passes around the ring in fp32 (convert_to_f32), three fp32
// chunks (the buffer it received, the one it sent, the one arriving) and the 16-bit copy it returns
// of the last; an fp32 query gradient and its 16-bit copy. The last ring step's kernel gradients are
// still referenced then, so the returned copies come on top of them. Its forward holds less (the
// gathered chunks, the one sent, fp32 outputs). Chunk: cp_chunk_kv_elements, the expanded heads
// torchtitan passes to SDPA.
namespace {
double pytorch_ring_bytes_at(const Scenario& s, int micro_batch) {
  const Parallel& x = s.parallel;
  if (x.cp <= 1 || !cp_runs_pytorch_ring(s)) return 0;
  constexpr double fp32 = 4.0;  // convert_to_f32: the gradients accumulate and travel in fp32
  const double e = element_bytes(s.precision);
  const double query = cp_chunk_tokens(s, micro_batch) * s.model.q_width() / x.tp;
  return cp_chunk_kv_elements_at(s, micro_batch) * ((x.cp + 2.0) * e + 3.0 * fp32) + query * (fp32 + e);
}
}  // namespace

double pytorch_ring_bytes(const Scenario& s) { return pytorch_ring_bytes_at(s, s.micro_batch); }

namespace {

// Ranks ZeRO shards the non-expert states over: the data-parallel group, which with context
// parallelism is DP x CP (Megatron-LM's distributed optimizer and gradient reduction span both).
int dense_shard_ranks(const Scenario& s) { return std::max(1, s.dp() * s.parallel.cp); }

}  // namespace

bool deepspeed_bf16_optimizer(const Scenario& s) {
  const Parallel& x = s.parallel;
  return s.framework == FrameworkKind::deepspeed && s.precision == Precision::bf16 && x.offload == Offload::none &&
         x.zero == 1 && s.techniques.fp32_grad_reduce;
}

// Composer's and FSDP's mixed precision DEFAULT reduce in fp32 (reduce_dtype,
// techniques.fp32_grad_reduce), and torchtitan always does:
// its JobConfig types mixed_precision_reduce as Literal["float32"] (FSDP2), and its DDP reduces
// the fp32 gradients of fp32 parameters under autocast. DeepSpeed's BF16_Optimizer reduces its fp32
// gradients (get_grads_for_reduction).
double grad_reduce_bytes(const Scenario& s) {
  const bool fp32 = s.precision == Precision::fp32 || s.techniques.fp32_grad_reduce ||
                    s.framework == FrameworkKind::torchtitan || deepspeed_bf16_optimizer(s);
  return fp32 ? 4.0 : 2.0;
}

// A scenario's bytes per parameter: Megatron-Core keeps its gradient buffer (main_grad) in the
// reduce dtype (distributed/distributed_data_parallel.py: grad_dtype = torch.float if
// grad_reduce_in_fp32 else param.dtype), fp32 with techniques.fp32_grad_reduce, which is
// Megatron-LM's bf16 default (arguments.py: accumulate_allreduce_grads_in_fp32 unless
// --grad-reduce-in-bf16; its distributed optimizer's "6 + 12/d" bytes a parameter).
namespace {
StateBytesPerParam scenario_state_bytes(const Scenario& s) {
  StateBytesPerParam b = state_bytes_per_param(s.precision, s.optimizer, s.pure_bf16);
  if (s.framework == FrameworkKind::megatron) b.gradients = std::max(b.gradients, grad_reduce_bytes(s));
  return b;
}
}  // namespace

bool keeps_gathered_weights(const Scenario& s) {
  const Parallel& x = s.parallel;
  return x.zero >= 3 && x.pp > 1 && x.offload == Offload::none && dense_shard_ranks(s) > 1;
}

namespace {
// ... and the routed experts' states: the expert-data-parallel group, TP x CP x DP / (EP x ETP)
// (Megatron-Core's MoE parallel folding; DP x CP / EP when etp = tp).
int expert_shard_ranks(const Scenario& s) { return s.expert_dp(); }

// Routed-expert parameters of blocks [first, first + count) on one rank: EP splits the experts
// and expert tensor parallelism (parallel.etp, Megatron-Core's default TP) splits each expert.
double routed_params_per_rank(const ParamCount& p, const ModelArch& m, int first, double count, const Parallel& x) {
  if (!m.is_moe()) return 0;
  const double dense = std::clamp(static_cast<double>(m.dense_layers - first), 0.0, count);
  return (count - dense) * p.mlp_routed / (static_cast<double>(x.expert_tp()) * x.ep);
}

// Model states of a rank's trained parameters, `expert` of them routed experts: ZeRO stage z
// shards the others over DP x CP and the experts over DP x CP / EP. Without EP both groups are the
// same and one call keeps the figures of layouts without it exactly.
ModelStateBytes trained_state_bytes(const Scenario& s, double trained, double expert, StateBytesPerParam b) {
  if (s.parallel.ep <= 1 || expert <= 0) return model_state_bytes(trained, b, dense_shard_ranks(s), s.parallel.zero);
  const ModelStateBytes dense = model_state_bytes(trained - expert, b, dense_shard_ranks(s), s.parallel.zero);
  const ModelStateBytes experts = model_state_bytes(expert, b, expert_shard_ranks(s), s.parallel.zero);
  return {dense.weights + experts.weights, dense.gradients + experts.gradients, dense.optimizer + experts.optimizer};
}

// Share of a micro-batch's tokens one GPU holds: 1 / cp.
double cp_token_share(const Scenario& s) { return 1.0 / std::max(1, s.parallel.cp); }

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Stages, buffers and the whole GPU
//-----------------------------------------------------------------------------

namespace {

struct StageLoad {
  double params = 0;    // parameters held by one GPU of this stage (TP-sharded)
  double layers = 0;    // transformer blocks of this stage
  int first_layer = 0;  // index of the stage's first block
  int rank = 0;         // its pipeline rank, which sets the micro-batches in flight at its peak
  bool has_logits = false;
  bool first = true;
};

// The micro-batch a peak is computed for: the scenario's own, or a size the micro-batch search
// tries at the same global batch (largest_micro_batch). Nothing else a peak depends on changes
// with it, so the search needs no copy of the scenario.
struct Batch {
  int micro_batch = 1;
  int grad_accum = 1;              // micro-batches per data-parallel rank and step
  int schedule_micro_batches = 1;  // of them, per pipeline schedule
};

Batch batch_of(const Scenario& s) { return {s.micro_batch, s.grad_accum(), s.schedule_micro_batches()}; }

// b sequences a micro-batch at the scenario's global batch (raised to b x dp where it is smaller).
// Without one (global_batch 0: micro_batch x dp, nothing accumulates) the global batch follows b: a
// smaller micro-batch does not start accumulating, which would hold gradients a single process
// without accumulation frees, and call a scenario that fits unable to fit a smaller micro-batch.
Batch batch_at(const Scenario& s, int b) {
  const int per_step = b * s.dp();
  const int accum = s.global_batch > 0 ? std::max(s.global_batch, per_step) / per_step : 1;
  return {b, accum, s.schedule_micro_batches(accum)};
}

// Linear (TP-sharded) parameters of blocks [first, first + count) on one rank. An MoE model's
// first dense_layers blocks keep a dense MLP of width ffn (DeepSeek-V3: 3 of 61, technical report
// §4.2), so a stage holds dense and MoE blocks by where it sits; EP ranks hold 1 / ep of the routed
// experts.
// Block linears on one rank: TP splits attention, dense MLPs and the shared experts; the routed
// experts split over ep x etp ranks (MoE parallel folding).
double linear_params_per_rank(const ParamCount& p, const ModelArch& m, int first, double count, const Parallel& x) {
  const double dense = m.is_moe() ? std::clamp(static_cast<double>(m.dense_layers - first), 0.0, count) : count;
  const double moe_other = p.mlp_moe - p.mlp_routed;
  return (count * p.attention_per_layer + dense * p.mlp_dense + (count - dense) * moe_other) / x.tp +
         routed_params_per_rank(p, m, first, count, x);
}

double layers_params_per_rank(const ParamCount& p, const ModelArch& m, int first, double count, const Parallel& x) {
  return linear_params_per_rank(p, m, first, count, x) + count * p.norms_per_layer;
}

// The largest block (an MoE block when the model has one) and its parameters on one rank.
int largest_layer(const ModelArch& m) { return m.moe_layers() > 0 ? m.dense_layers : 0; }

double largest_layer_params_per_rank(const ParamCount& p, const ModelArch& m, const Parallel& x) {
  return layers_params_per_rank(p, m, largest_layer(m), 1, x);
}

// The multi-token prediction modules run on the stage with the loss (Megatron-Core builds them in
// post_process): their blocks, of the model's last kind, count as that stage's blocks after the
// model's last (their activations and, for MoE, their routed experts with them), and each adds its
// 2h x h projection and three norms. With pipeline stages the last one also holds an embedding of
// its own for them (Megatron-Core gpt_model.py builds it where mtp_process is set; its gradients
// are all-reduced with the first stage's, as for tied embeddings). The projection's input, 2h a
// token (under a tenth of a block's activations), is not counted.
void add_mtp_modules(const Scenario& s, const ParamCount& p, StageLoad& st) {
  const int d = p.mtp_layers;
  if (d <= 0) return;
  const double h = s.model.hidden;
  st.params += layers_params_per_rank(p, s.model, s.model.layers, d, s.parallel) +
               d * (2.0 * h * h / s.parallel.tp + 3.0 * p.final_norm);
  if (s.parallel.pp > 1 && !s.model.tied_embeddings) st.params += p.embedding / s.parallel.tp;
  st.layers += d;
}

// 1F1B keeps min(p, m) micro-batches in flight on the first stage (Korthikanti §4.2.3) and one
// on the last. Tied embeddings put a copy of the embedding on the last stage when p > 1
// (Megatron-LM shares it through an all-reduce).
StageLoad first_stage(const Scenario& s, const ParamCount& p) {
  const int tp = s.parallel.tp, pp = s.parallel.pp;
  StageLoad st;
  st.layers = pipeline_split(s.model.layers, pp).first;
  st.params = layers_params_per_rank(p, s.model, 0, st.layers, s.parallel) + p.embedding / tp + p.positions;
  if (pp == 1) {
    st.params += p.head / tp + p.final_norm;
    st.has_logits = true;
    add_mtp_modules(s, p, st);
  }
  return st;
}

// The second stage, when an uneven split gives the middle stages more blocks than the first: it
// keeps one micro-batch fewer in flight, but of more blocks.
StageLoad middle_stage(const Scenario& s, const ParamCount& p) {
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  StageLoad st;
  st.layers = split.middle;
  st.first_layer = split.first;
  st.first = false;
  st.params = layers_params_per_rank(p, s.model, st.first_layer, st.layers, s.parallel);
  st.rank = 1;
  return st;
}

StageLoad last_stage(const Scenario& s, const ParamCount& p) {
  const int tp = s.parallel.tp, pp = s.parallel.pp;
  StageLoad st;
  st.layers = pipeline_split(s.model.layers, pp).last;
  st.first_layer = s.model.layers - static_cast<int>(st.layers);
  st.first = false;
  const double head = s.model.tied_embeddings ? p.embedding : p.head;
  st.params = layers_params_per_rank(p, s.model, st.first_layer, st.layers, s.parallel) + head / tp + p.final_norm;
  st.has_logits = true;
  add_mtp_modules(s, p, st);
  st.rank = pp - 1;
  return st;
}

// Hugging Face QLoRA runs prepare_model_for_kbit_training (PEFT, peft/utils/other.py: "cast all
// non INT8 parameters to fp32"; techniques.kbit_fp32_cast, on by default with framework hf; Unsloth's
// own version only freezes): the embedding, norms and output head become fp32, so the residual
// stream (the embedding's output, added to by every block) and the norms' inputs are fp32, and so
// are the logits the fp32 head returns.
bool kbit_fp32(const Scenario& s) { return s.method == Method::qlora && s.techniques.kbit_fp32_cast; }

// Bytes of one element of the residual stream and of the logits as the framework keeps them.
double residual_bytes(const Scenario& s) { return kbit_fp32(s) ? 4.0 : element_bytes(s.precision); }

// How a stage's parameters split into frozen (weights only) and trained (weights, grads, states).
struct StageParams {
  double frozen = 0;  // at 16-bit (or NF4 for QLoRA's block linears, FP8 with fp8_params)
  double frozen_bytes = 0;
  double trained = 0;
  double trained_expert = 0;    // of `trained`, routed-expert parameters (sharded over DP x CP / EP)
  double trained_linear = 0;    // of `trained`, block linears' weights (FP8 with fp8_params)
  double block_linear = 0;      // every block linear's weight of the stage on this rank, frozen or trained
  double untouched_linear = 0;  // of `block_linear`, a freeze-tune's frozen bottom blocks', run without autograd
};

// Transformer Engine keeps an FP8 transpose beside each FP8 weight it holds whole where cuBLASLt
// runs FP8 GEMMs only in the TN layout: transformer_engine/pytorch/utils.py,
// is_non_tn_fp8_gemm_supported (compute capability 10.x-11.x and 13+ take the other layouts);
// tensor/utils.py post_all_gather_processing builds the transpose after each gather, and without
// it the next forward does. torchao's float8 weights transpose on the fly, per GEMM.
bool fp8_gemm_tn_only(const Scenario& s) {
  const double cc = s.cluster.compute_capability;
  const bool any_layout = (cc >= 10.0 && cc < 12.0) || cc >= 13.0;
  return cc > 0 && !any_layout;
}

bool keeps_fp8_transpose(const Scenario& s) {
  return s.fp8_params && s.framework == FrameworkKind::megatron && fp8_gemm_tn_only(s);
}

// Bytes of a block linear's weight held whole (replicated, or gathered) with FP8 weights
// (fp8_params): 1 and Transformer Engine's transpose where it keeps one; else the 16-bit copy's.
double whole_linear_bytes(const Scenario& s, double sixteen_bit) {
  if (!s.fp8_params) return sixteen_bit;
  return keeps_fp8_transpose(s) ? 2.0 : 1.0;
}

// ... and as a rank keeps it: a ZeRO-3 shard is FP8 in Megatron-LM (its FSDP shards the FP8
// weight), 16-bit under torchao, which casts each shard at the gather (fsdp_pre_all_gather); below
// ZeRO-3 torchtitan's FSDP2 keeps each gathered weight from forward to backward, in FP8.
double held_linear_bytes(const Scenario& s, double sixteen_bit) {
  if (s.parallel.zero < 3) return whole_linear_bytes(s, sixteen_bit);
  return s.fp8_params && s.framework == FrameworkKind::megatron ? 1.0 : sixteen_bit;
}

// The block linears FP8 weights cover (fp8_covers_routed_experts).
double fp8_linear_params_per_rank(const Scenario& s, const ParamCount& p, int first, double count) {
  const double linear = linear_params_per_rank(p, s.model, first, count, s.parallel);
  if (fp8_covers_routed_experts(s)) return linear;
  return linear - routed_params_per_rank(p, s.model, first, count, s.parallel);
}

StageParams stage_params(const Scenario& s, const ParamCount& p, const StageLoad& st) {
  StageParams out;
  const int tp = s.parallel.tp, ep = s.parallel.ep;
  if (s.is_peft()) {
    const double block_linear = linear_params_per_rank(p, s.model, st.first_layer, st.layers, s.parallel);
    const double other = st.params - block_linear;
    const double linear_bytes = s.method == Method::qlora ? kNf4BytesPerParam : held_linear_bytes(s, 2.0);
    out.frozen = st.params;
    out.block_linear = block_linear;
    out.frozen_bytes = block_linear * linear_bytes + other * (kbit_fp32(s) ? 4.0 : 2.0);
    out.trained = st.layers * lora_params_per_layer(s.model, s.lora) / tp;
    return out;
  }
  if (s.method == Method::freeze) {
    // Stages hold the bottom layers first; the trained ones are the top of the model.
    const int top_start = std::max(s.model.layers - s.trained_layers(), st.first_layer);
    const double trained_layers = std::max(0.0, st.first_layer + st.layers - top_start);
    out.trained = layers_params_per_rank(p, s.model, top_start, trained_layers, s.parallel);
    out.trained_linear = fp8_linear_params_per_rank(s, p, top_start, trained_layers);
    if (ep > 1) out.trained_expert = routed_params_per_rank(p, s.model, top_start, trained_layers, s.parallel);
    const double frozen_layers = st.layers - trained_layers;
    const double frozen_linear = linear_params_per_rank(p, s.model, st.first_layer, frozen_layers, s.parallel);
    out.frozen = st.params - out.trained;
    out.block_linear = frozen_linear + linear_params_per_rank(p, s.model, top_start, trained_layers, s.parallel);
    out.untouched_linear = frozen_linear;
    out.frozen_bytes = out.frozen * 2.0 - frozen_linear * (2.0 - held_linear_bytes(s, 2.0));
    return out;
  }
  out.trained = st.params;
  out.trained_linear = fp8_linear_params_per_rank(s, p, st.first_layer, st.layers);
  out.block_linear = linear_params_per_rank(p, s.model, st.first_layer, st.layers, s.parallel);
  if (ep > 1) out.trained_expert = routed_params_per_rank(p, s.model, st.first_layer, st.layers, s.parallel);
  return out;
}

// Model states of a stage's trained parameters; with FP8 weights the block linears' they cover as
// held_linear_bytes says (the routed experts among them under Transformer Engine), sharded as their
// states are.
ModelStateBytes stage_state_bytes(const Scenario& s, const StageParams& sp, StateBytesPerParam b) {
  if (!s.fp8_params) return trained_state_bytes(s, sp.trained, sp.trained_expert, b);
  const double fp8_experts = fp8_covers_routed_experts(s) ? sp.trained_expert : 0.0;
  const ModelStateBytes other =
      trained_state_bytes(s, sp.trained - sp.trained_linear, sp.trained_expert - fp8_experts, b);
  const ModelStateBytes linear = trained_state_bytes(s, sp.trained_linear, fp8_experts,
                                                     {held_linear_bytes(s, b.weights), b.gradients, b.optimizer});
  return {other.weights + linear.weights, other.gradients + linear.gradients, other.optimizer + linear.optimizer};
}

// Transformer Engine keeps each block linear's FP8 copy from a step's first micro-batch to its last
// when told which is the first (Megatron-Core's TE layers pass is_first_microbatch unless
// disable_parameter_transpose_cache: megatron/core/extensions/transformer_engine.py; TE's Linear
// then caches the quantized weight in its FP8 workspaces, cache_name "weight",
// transformer_engine/pytorch/module/linear.py), and the workspaces outlive the step: 1 B a
// weight beside the 16-bit copy, and its FP8 transpose where FP8 GEMMs take one layout and a
// backward runs through the layer (TE asks for the column-wise copy only when the input needs a
// gradient: not in a freeze-tune's frozen bottom blocks). FP8 weights (fp8_params) are that copy
// already. Under Megatron's FSDP (ZeRO-3) the weights stay whole only with pipeline stages
// (keeps_gathered_weights); its per-block gathers' caching is not modelled.
double fp8_weight_cache_bytes(const Scenario& s, const StageParams& sp) {
  const bool caches = s.precision == Precision::fp8 && !s.fp8_params && s.framework == FrameworkKind::megatron &&
                      s.method != Method::qlora && (s.parallel.zero < 3 || keeps_gathered_weights(s));
  if (!caches) return 0;
  const double transposed = fp8_gemm_tn_only(s) ? sp.block_linear - sp.untouched_linear : 0.0;
  return sp.block_linear + transposed;
}

}  // namespace

double average_block_linear_params(const Scenario& s, const ParamCount& p) {
  return linear_params_per_rank(p, s.model, 0, s.model.layers, s.parallel) / s.parallel.pp;
}

// Every block linear under Transformer Engine; under torchao's float8 all-gather (torchtitan) the
// nn.Linear layers it converts, not the routed experts' grouped weights (torchtitan
// docs/float8.md: Float8Linear), which it keeps and gathers in 16-bit.
bool fp8_covers_routed_experts(const Scenario& s) { return s.framework != FrameworkKind::torchtitan; }

double trained_block_linear_params(const Scenario& s, const ParamCount& p) {
  if (s.is_peft()) return 0;
  const int trained = s.method == Method::freeze ? s.trained_layers() : s.model.layers;
  return linear_params_per_rank(p, s.model, s.model.layers - trained, trained, s.parallel) / s.parallel.pp;
}

ActivationShape activation_shape(const Scenario& s) {
  ActivationShape a;
  a.gemm_input_bytes = s.precision == Precision::fp8 ? 1.0 : element_bytes(s.precision);
  a.norm_input_bytes = s.techniques.fp32_norm_inputs ? 4.0 : residual_bytes(s);
  a.residual_bytes = residual_bytes(s);
  a.seq_len = s.seq_len;
  a.micro_batch = s.micro_batch;
  a.tp = s.parallel.tp;
  a.cp = s.parallel.cp;
  a.sequence_parallel = s.parallel.sequence_parallel && s.parallel.tp > 1;
  a.recompute = s.parallel.recompute;
  a.flash_attention = s.parallel.flash_attention;
  a.dropout = s.dropout;
  a.element_bytes = element_bytes(s.precision);
  // LoRA on the attention projections leaves the MLP frozen and unadapted; on every linear layer
  // each adapter keeps the input its frozen layer would.
  a.frozen_mlp = s.is_peft() && s.lora.targets == LoraTargets::attention;
  a.fused_gated_activation = s.techniques.fused_activation();
  a.gathered_gemm_inputs = a.sequence_parallel && tp_keeps_gathered_inputs(s);
  a.routed_rows = s.parallel.padded_rows();
  return a;
}

double offloaded_layers(const Scenario& s, double layers) {
  if (!s.techniques.activation_offload) return 0;
  const int n = s.techniques.activation_offload_layers;
  return n > 0 ? std::min<double>(n, layers) : layers;
}

namespace {

double stage_activations(const Scenario& s, const StageLoad& st, const Batch& batch) {
  ActivationShape a = activation_shape(s);
  a.micro_batch = batch.micro_batch;
  const double in_flight = in_flight_of_schedule(s.parallel, st.rank, batch.schedule_micro_batches);
  // Frozen bottom layers (freeze-tuning) run without autograd and keep nothing for backward.
  const double frozen_below = s.method == Method::freeze ? s.model.layers - s.trained_layers() : 0.0;
  const double stage_start = st.first ? 0.0 : s.model.layers - st.layers;
  const double layers = std::max(0.0, st.layers - std::max(0.0, frozen_below - stage_start));
  if (layers <= 0) return 0;
  // Activation offloading (torchtune, Megatron cpu-offloading) streams saved tensors to host
  // memory: the GPU keeps the layer in use and the one being copied, and every layer not offloaded.
  const double offloaded = offloaded_layers(s, layers);
  const double kept_layers = (layers - offloaded) * in_flight + std::min(2.0, offloaded);
  ActivationShape working = a;
  working.recompute = Recompute::none;
  const double whole = activation_bytes_per_layer(s.model, working);
  // Partial recompute (parallel.recompute_layers): the blocks that do not recompute keep everything.
  const double recomputing =
      a.recompute == Recompute::full
          ? std::min<double>(layers, recomputed_layers(s, static_cast<int>(std::lround(st.layers))))
          : layers;
  const double per_layer = activation_bytes_per_layer(s.model, a);
  double bytes = kept_layers * (recomputing * per_layer + (layers - recomputing) * whole) / layers;
  if ((a.recompute == Recompute::full && recomputing > 0) || a.recompute == Recompute::selective_op) {
    // During backward one layer is recomputed and holds its whole working set: what it keeps
    // anyway is counted above.
    const double kept = a.recompute == Recompute::full ? 0.0 : per_layer;
    bytes += std::max(0.0, whole - kept);
  }
  return bytes;
}

// Bytes per token and vocabulary entry the loss holds at its peak, by what each framework's loss
// code keeps alive (vocab-parallel under TP):
// - PyTorch cross-entropy on upcast logits: Hugging Face Transformers (ForCausalLMLoss:
//   logits.float(), then F.cross_entropy), the loops that run its models (FSDP, DeepSpeed),
//   torchtitan (cross_entropy(pred.float())) and torchtune (CEWithChunkedOutputLoss: the same a
//   chunk at a time). Log-softmax saves its fp32 output, 4 bytes, and its backward holds the fp32
//   gradient arriving from nll_loss and the fp32 gradient it produces, 8 bytes a chunk at a time.
//   The logits themselves are gone by then: the training loop keeps only the loss, and log-softmax
//   saves its output, not its input. 4 + 8 / loss_chunks (12 unchunked).
// - Megatron-LM (vocab-parallel cross-entropy, fused): the 16-bit logits and one fp32 tensor it
//   overwrites with exp(logits) in place, e + 4 / loss_chunks.
// - A fused cross-entropy kernel on the whole logits (techniques.fused_loss fused_ce: flash-attn's
//   CrossEntropyLoss, flash_attn/losses/cross_entropy.py) saves the 16-bit logits and their
//   log-sum-exp, and its backward writes a 16-bit gradient beside them: 2 e. Under Megatron it is
//   Transformer Engine's parallel_cross_entropy (cross_entropy_fusion_impl "te"), whose backward
//   writes the gradient over the saved logits (transformer_engine/pytorch/triton/cross_entropy.py,
//   cross_entropy_backward_kernel): e.
// - torch.compile (techniques.compile) fuses log-softmax and nll_loss into one kernel, which saves
//   the logits and their log-sum-exp and recomputes the softmax in backward: e + 4 / loss_chunks
//   like Megatron (torchtune README, 'Optimization flags': compile alone takes Llama 3.2 3B at
//   8,192 tokens from 60.0 to 51.0 GiB, 9 bytes a logit).
// - A plain PyTorch loop around a Hugging Face model (framework fsdp or deepspeed: `out = model(...);
//   out.loss.backward()`) keeps the model's output, and with it the fp32 logits ForCausalLMLoss
//   made, through the backward: 4 more bytes.
// - PyTorch's loss parallelism (torch.distributed.tensor.parallel.loss_parallel), which torchtitan
//   runs on the vocab-sharded logits whenever TP > 1 (training.disable_loss_parallel is false by
//   default), replaces the fused kernels with unfused ops: its backward
//   (_nll_loss_and_log_softmax_backward) holds the saved fp32 log-softmax, a zeros_like gradient,
//   exp of the log-softmax and their sum, 16 bytes, 4 + 12 / loss_chunks.
double loss_bytes_per_logit(const Scenario& s) {
  const double c = s.techniques.loss_chunks;
  if (s.techniques.fused_loss == FusedLoss::fused_ce)
    return (s.framework == FrameworkKind::megatron ? 1.0 : 2.0) * residual_bytes(s);
  if (s.framework == FrameworkKind::megatron || s.techniques.compile) return residual_bytes(s) + 4.0 / c;
  if (s.framework == FrameworkKind::torchtitan && s.parallel.tp > 1) return 4.0 + 12.0 / c;
  const bool keeps_output = s.framework == FrameworkKind::fsdp || s.framework == FrameworkKind::deepspeed;
  return (keeps_output ? 4.0 : 0.0) + 4.0 + 8.0 / c;
}

// Final norm input and head input (replicated unless sequence-parallel; a frozen head keeps no
// input) and what the loss holds.
// A fused linear cross-entropy (Liger-Kernel fused_linear_cross_entropy.py, which Unsloth also
// uses) never forms the whole logits: it projects chunk_size = next_power_of_2(ceil(tokens /
// ceil(V / h))) tokens at a time, 16-bit logits and their fp32 gradient.
double logits_bytes(const Scenario& s, int micro_batch) {
  const double e = residual_bytes(s);
  const double tokens = static_cast<double>(s.seq_len) * micro_batch;
  const double tp = s.parallel.tp;
  const double rep_div = (s.parallel.sequence_parallel && tp > 1) ? tp : 1.0;
  // The head's input is kept for its gradient only, and PEFT and freeze-tuning freeze the head; a
  // fused linear loss keeps it anyway (Cut Cross-Entropy saves it to recompute the logits, Liger its
  // gradient, computed in the forward).
  const bool frozen_head = (s.is_peft() || s.method == Method::freeze) && !fuses_output_layer(s.techniques.fused_loss);
  const double inputs = tokens * (frozen_head ? 1.0 : 2.0) * e * s.model.hidden / rep_div;
  // Cut Cross-Entropy (Wijmans et al. 2024, arXiv:2411.09009) computes the logits in on-chip memory
  // block by block and writes none of them, forward or backward.
  if (s.techniques.fused_loss == FusedLoss::cce) return inputs;
  if (s.techniques.fused_loss == FusedLoss::liger) {
    const double chunks = std::ceil(static_cast<double>(s.model.vocab) / s.model.hidden);
    const double chunk_tokens = std::min(tokens, std::exp2(std::ceil(std::log2(std::ceil(tokens / chunks)))));
    return inputs + chunk_tokens * (e + 4.0) * s.model.vocab / tp;
  }
  return inputs + tokens * loss_bytes_per_logit(s) * s.model.vocab / tp;
}

// The PyTorch FSDP implementations (FSDP1 under Hugging Face and plain loops, FSDP2 under torchtune
// and torchtitan) shard ZeRO-3 style; DeepSpeed's ZeRO-3 and Megatron-LM manage parameters their own way.
bool pytorch_fsdp(const Scenario& s) {
  switch (s.framework) {
    case FrameworkKind::hf:
    case FrameworkKind::fsdp:
    case FrameworkKind::torchtune:
    case FrameworkKind::torchtitan: return true;
    default: return false;
  }
}

double buffer_bytes(const Scenario& s, const ParamCount& p, const StateBytesPerParam& b, const Calibration& cal) {
  if (dense_shard_ranks(s) <= 1) return 0;
  if (keeps_gathered_weights(s)) return 0;  // the gathered weights are counted as weights
  if (s.parallel.zero >= 3) {
    // FSDP / ZeRO-3 gather one layer's full weights and prefetch the next.
    const double linear = fp8_linear_params_per_rank(s, p, largest_layer(s.model), 1);
    const double layer = largest_layer_params_per_rank(p, s.model, s.parallel) * b.weights -
                         linear * (b.weights - whole_linear_bytes(s, b.weights));
    if (!pytorch_fsdp(s)) return 2.0 * layer;
    // PyTorch FSDP keeps the root unit (the parameters no block holds: embedding, final norm,
    // output head) gathered from its forward until its backward: FSDP1 does not free the root's
    // parameters in the post-forward (torch/distributed/fsdp/_runtime_utils.py,
    // _post_forward_reshard), FSDP2 sets the root's reshard_after_forward to False (fully_shard
    // docs). At the loss, the step's peak, it sits beside the next block prefetched for backward.
    const double root = (p.embedding / s.parallel.tp + p.positions + p.head / s.parallel.tp + p.final_norm) * b.weights;
    return std::max(2.0 * layer, layer + root);
  }
  // Megatron-Core keeps the gradients in one contiguous buffer whose buckets are views of it
  // (distributed/param_and_grad_buffer.py), reduced in place: nothing beside the gradients.
  if (s.framework == FrameworkKind::megatron) return 0;
  // DeepSpeed's BF16_Optimizer reduces its fp32 gradients after the backward, when the activations
  // are freed (engine._exec_reduce_grads): no bucket at the activation peak.
  if (deepspeed_bf16_optimizer(s)) return 0;
  if (s.parallel.zero >= 1) return cal.deepspeed_bucket_elements.value * b.gradients;
  return 2.0 * cal.ddp_bucket_bytes.value;  // two buckets in flight
}

// What a stage holds whatever its micro-batch: model states, frozen weights, buffers.
// PEFT adapters train in 16-bit with an fp32 master like full mixed precision (16 B with AdamW).
MemoryBreakdown stage_states(const Scenario& s, const ParamCount& p, const StageLoad& st, const Calibration& cal) {
  const StateBytesPerParam b = scenario_state_bytes(s);
  const StageParams sp = stage_params(s, p, st);
  const ModelStateBytes states = stage_state_bytes(s, sp, b);
  const double frozen = sp.frozen_bytes / (s.parallel.zero >= 3 ? dense_shard_ranks(s) : 1);
  MemoryBreakdown m;
  m.weights = states.weights + frozen;
  // Fusing the optimizer step into backward (torchtune optimizer_in_bwd) frees each gradient
  // right after its update: at most one block's gradients are alive.
  m.gradients = s.techniques.optimizer_in_backward
                    ? std::min(states.gradients, largest_layer_params_per_rank(p, s.model, s.parallel) * b.gradients)
                    : states.gradients;
  // DeepSpeed's BF16_Optimizer keeps fp32 gradients of all the trained parameters beside the bf16
  // ones (fp32_groups_gradients_flat, the size of the unpartitioned bf16 groups).
  if (deepspeed_bf16_optimizer(s)) m.gradients += sp.trained * 4.0;
  m.optimizer = s.parallel.offload == Offload::none ? states.optimizer : 0.0;
  if (s.parallel.offload != Offload::none && s.parallel.zero >= 3) m.weights = 0;  // params live on the host too
  if (keeps_gathered_weights(s)) {
    // FSDP with pipeline stages (torchtitan apply_fsdp: "For PP, do not reshard after forward to
    // avoid per-microbatch all-gathers") holds the stage's gathered 16-bit weights for the whole
    // step, and the gradients accumulate unsharded over the micro-batches (FSDP2 reduces them
    // once, at the last one): the sharded copies stay, as master weights and reduced gradients.
    m.weights =
        sp.trained * b.weights - sp.trained_linear * (b.weights - whole_linear_bytes(s, b.weights)) + sp.frozen_bytes;
    // FSDP2 accumulates them in the reduce dtype when it is wider (FSDPParam.to_accumulated_grad_if_needed):
    // fp32 with torchtitan.
    m.gradients += sp.trained * std::max(b.weights, grad_reduce_bytes(s));
  }
  m.weights += fp8_weight_cache_bytes(s, sp);  // beside the weights, however they are held
  m.buffers = buffer_bytes(s, p, b, cal);
  return m;
}

// The stage's peak at a micro-batch: its states (stage_states) and what the micro-batch decides.
MemoryBreakdown stage_peak(const Scenario& s, const ParamCount& p, const StageLoad& st, MemoryBreakdown m,
                           const Batch& batch, const Calibration& cal) {
  // CP: the loss of this GPU's tokens. Each multi-token prediction module computes logits and a
  // loss of its own, all alive until the backward starts.
  m.logits = st.has_logits ? (1.0 + p.mtp_layers) * logits_bytes(s, batch.micro_batch) * cp_token_share(s) : 0.0;
  m.activations = stage_activations(s, st, batch);
  // PyTorch's ring buffers live in a layer's attention backward, after the loss has freed the
  // logits (a micro-batch's loss runs its backward before its layers'): the peak holds the larger
  // of the two. A stage of frozen layers keeps no activations and runs no backward.
  const bool runs_attention_backward = m.activations > 0;
  if (runs_attention_backward) m.activations += std::max(0.0, pytorch_ring_bytes_at(s, batch.micro_batch) - m.logits);
  // A single process without data parallelism or accumulation (plain PyTorch) allocates .grad
  // during backward while activations are freed, and frees it at zero_grad: its peak is the
  // larger of "activations at the start of backward" and "gradients at its end", not their sum.
  // DDP, FSDP/ZeRO and Megatron keep persistent gradient buffers, and accumulation keeps .grad.
  const bool transient_grads = s.cluster.gpus == 1 && batch.grad_accum == 1 && !deepspeed_bf16_optimizer(s);
  if (transient_grads) {
    if (m.activations + m.logits >= m.gradients) {
      m.off_peak_gradients = m.gradients;
      m.gradients = 0;
    } else {
      m.off_peak_activations = m.activations + m.logits;
      m.activations = 0;
      m.logits = 0;
    }
  }
  // A trial's measured peak scales what depends on the framework (calibrate.hpp); 1 otherwise.
  const double measured = s.memory_factor();
  m.activations *= measured;
  m.logits *= measured;
  m.off_peak_activations *= measured;
  m.buffers *= measured;
  m.runtime =
      cal.runtime_overhead_bytes.value + cal.allocator_fragmentation.value * (m.activations + m.logits + m.buffers);
  return m;
}

struct Peak {
  MemoryBreakdown mem;
  Stage stage;
};

StageLoad stage_load(const Scenario& s, const ParamCount& p, Stage stage) {
  switch (stage) {
    case Stage::last: return last_stage(s, p);
    case Stage::middle: return middle_stage(s, p);
    case Stage::only:
    case Stage::first: break;
  }
  return first_stage(s, p);
}

// The stages whose peak can be the GPU's highest (the first, the last, and the second where an
// uneven split gives the middle stages more blocks), each with its states, computed once for the
// scenario's own micro-batch and every size the search tries.
struct PeakCandidates {
  std::array<Stage, 3> stage{};
  std::array<StageLoad, 3> load{};
  std::array<MemoryBreakdown, 3> states{};
  int count = 0;
};

PeakCandidates peak_candidates(const Scenario& s, const ParamCount& p, const Calibration& cal) {
  PeakCandidates c;
  auto add = [&](Stage stage, const StageLoad& st) {
    const auto i = static_cast<size_t>(c.count++);
    c.stage[i] = stage;
    c.load[i] = st;
    c.states[i] = stage_states(s, p, st, cal);
  };
  if (s.parallel.pp == 1) {
    add(Stage::only, first_stage(s, p));
    return c;
  }
  add(Stage::first, first_stage(s, p));
  add(Stage::last, last_stage(s, p));
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  if (s.parallel.pp > 2 && split.middle > split.first) add(Stage::middle, middle_stage(s, p));
  return c;
}

// The highest of the candidates' peaks; on a tie the earlier (first, then last, then middle).
Peak peak_stage(const Scenario& s, const ParamCount& p, const PeakCandidates& c, const Batch& batch,
                const Calibration& cal) {
  Peak peak{stage_peak(s, p, c.load[0], c.states[0], batch, cal), c.stage[0]};
  for (size_t i = 1; i < static_cast<size_t>(c.count); ++i) {
    const MemoryBreakdown m = stage_peak(s, p, c.load[i], c.states[i], batch, cal);
    if (m.total() > peak.mem.total()) peak = {m, c.stage[i]};
  }
  return peak;
}

// Memory grows with the micro-batch (fewer micro-batches in flight never outweigh bigger ones),
// so a bisection finds the largest one that fits while the global batch stays the same. Where it
// does not grow (one GPU whose gradients leave the peak once nothing accumulates; a pipeline whose
// micro-batches a step round down), the answer is the boundary this probe order finds, 1, 2, 4, ...
// then halves: a size that fits, the next one not.
// `own_fits`: whether the scenario's own micro-batch fits, which the caller has just computed: the
// search does not compute that peak again.
int largest_micro_batch(const Scenario& s, const ParamCount& p, const PeakCandidates& c, double capacity,
                        const Calibration& cal, bool own_fits) {
  auto fits = [&](int b) {
    if (b == s.micro_batch) return own_fits;
    return peak_stage(s, p, c, batch_at(s, b), cal).mem.total() <= capacity;
  };
  if (!fits(1)) return 0;
  constexpr int kCap = 1 << 20;
  int hi = 1;
  while (hi < kCap && fits(hi * 2)) hi *= 2;
  if (hi >= kCap) return hi;
  int lo = hi;
  hi *= 2;  // fits(lo), !fits(hi)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

// Host-side bytes per node when offloading: the sharded optimizer states (and with ZeRO-3 the
// weights) of every GPU of the node, measured on the first stage.
double offload_bytes_per_node(const Scenario& s, const ParamCount& p) {
  const StateBytesPerParam b = scenario_state_bytes(s);
  const StageParams sp = stage_params(s, p, first_stage(s, p));
  const ModelStateBytes states = stage_state_bytes(s, sp, b);
  double per_gpu = states.optimizer;
  if (s.parallel.zero >= 3) per_gpu += states.weights + sp.frozen_bytes / dense_shard_ranks(s);
  return per_gpu * std::min(s.cluster.gpus, s.cluster.gpus_per_node);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Memory step
//-----------------------------------------------------------------------------

namespace {

// The formulas above, in words, with the values of the most loaded stage.
void explain_memory(const Scenario& s, const ParamCount& p, const MemoryResult& r, const Calibration& cal,
                    Explainer& ex) {
  const MemoryBreakdown& m = r.per_gpu;
  const StateBytesPerParam b = scenario_state_bytes(s);
  const Constant& runtime = cal.runtime_overhead_bytes;
  const Constant& fragmentation = cal.allocator_fragmentation;
  const double gpus_per_node = std::min(s.cluster.gpus, s.cluster.gpus_per_node);
  const Parallel& x = s.parallel;
  const int peak_rank = r.stage == Stage::last ? x.pp - 1 : r.stage == Stage::middle ? 1 : 0;
  const StageParams peak_params = stage_params(s, p, stage_load(s, p, r.stage));
  ex.add("memory.per_gpu_bytes.weights", m.weights, "B",
         "parameters on this GPU (routed experts / ep) x bytes per weight / (dp x cp) when ZeRO-3, the routed "
         "experts' / (dp x cp / ep) (ZeRO paper §3; Megatron-Core expert-data-parallel group); precision fp8 under "
         "Megatron without fp8_params, its weights whole (below ZeRO-3, or with pipeline stages), adds Transformer "
         "Engine's cached FP8 copy of the stage's block linears: fp8_cache_bytes (1 B each, 1 more for the FP8 "
         "transpose where FP8 GEMMs take only the TN layout, compute capability below 10.0 or 12.x, and a backward "
         "runs through the block)",
         {{"zero", static_cast<double>(x.zero)},
          {"fp8_cache_bytes", fp8_weight_cache_bytes(s, peak_params)},
          {"block_linear_params_this_stage", peak_params.block_linear},
          {"dp", static_cast<double>(s.dp())},
          {"cp", static_cast<double>(x.cp)},
          {"ep", static_cast<double>(x.ep)},
          {"routed_params_per_moe_block", p.mlp_routed}});
  ex.add("memory.per_gpu_bytes.optimizer", m.optimizer, "B",
         "trained parameters on this GPU x (fp32 master + optimizer state bytes) / (dp x cp) when ZeRO >= 1, the "
         "routed experts' / (dp x cp / ep)",
         {{"bytes_per_param", b.optimizer},
          {"dense_shard_ranks", static_cast<double>(dense_shard_ranks(s))},
          {"expert_shard_ranks", static_cast<double>(expert_shard_ranks(s))}});
  ex.add("memory.per_gpu_bytes.activations", m.activations, "B",
         "layers x in-flight micro-batches x per-layer bytes of micro_batch x seq_len / cp tokens (Korthikanti et al. "
         "2022 Table 2, per tensor; a fused gated activation keeps gate and up only; less the MLP's GEMM "
         "inputs under LoRA on attention only, whose frozen MLP keeps none; context parallelism splits the sequence, "
         "Liu et al. 2023 'Ring Attention'; with sequence parallelism Megatron keeps the QKV and MLP inputs "
         "sharded and gathers them again in backward, the DTensor plans of torchtitan and torchtune keep them "
         "gathered, whole); "
         "with full recompute a block keeps only its input, and with parallel.recompute_layers N only the first N "
         "blocks of each chunk recompute, the others keeping everything (Megatron-LM --recompute-method block); "
         "in flight: 1F1B min(pp - rank, m), interleaved 1F1B min((pp - rank - 1) x 2 + (vp - 1) x pp + 1, m vp) / "
         "vp, on the first stage pp (1 + (pp - 1) / (pp vp)) (Korthikanti et al. 2022 §4.2.3); with PyTorch's "
         "context-parallel ring (torchtitan, cp > 1) + what its attention backward holds beyond the logits, which "
         "the loss has freed by then: max(0, pytorch_ring_bytes - logits), pytorch_ring_bytes = b (s / cp) (k + "
         "v) x heads / kv_heads / tp x ((cp + 2) e + 3 x 4) + b (s / cp) q / tp x (4 + e) (the gathered keys and "
         "values, the chunk sent, three fp32 key/value gradient chunks and the 16-bit copy returned, an fp32 query "
         "gradient and its copy; "
         "torch.distributed.tensor.experimental _templated_ring_attention_backward)",
         {{"seq_len", static_cast<double>(s.seq_len)},
          {"micro_batch", static_cast<double>(s.micro_batch)},
          {"tp", static_cast<double>(x.tp)},
          {"cp", static_cast<double>(x.cp)},
          {"vp", static_cast<double>(x.vp)},
          {"recompute_layers", static_cast<double>(x.recompute_layers)},
          {"frozen_mlp", activation_shape(s).frozen_mlp ? 1.0 : 0.0},
          {"gathered_gemm_inputs", activation_shape(s).gathered_gemm_inputs ? 1.0 : 0.0},
          {"fused_kernels", s.techniques.fused_kernels ? 1.0 : 0.0},
          {"eager_activation", s.techniques.eager_activation ? 1.0 : 0.0},
          {"pytorch_ring_bytes", pytorch_ring_bytes(s)},
          {"in_flight_micro_batches", in_flight_micro_batches(s, peak_rank)}});
  ex.add("memory.per_gpu_bytes.gradients", m.gradients, "B",
         "trained parameters on this GPU x gradient bytes / (dp x cp) when ZeRO >= 2, the routed experts' / (dp x cp "
         "/ ep) (0 at the activation peak of a single process); DeepSpeed's BF16_Optimizer adds 4 B of fp32 "
         "gradient per trained parameter; Megatron-Core's gradient buffer is fp32 with techniques.fp32_grad_reduce",
         {{"bytes_per_param", b.gradients}, {"bf16_optimizer", deepspeed_bf16_optimizer(s) ? 1.0 : 0.0}});
  ex.add("memory.off_peak_bytes.gradients", m.off_peak_gradients, "B",
         "one GPU without accumulation (plain PyTorch): .grad is allocated during backward as the activations are "
         "freed, so its peak holds the activations or the gradients, not both; these gradients come after the "
         "activation peak and are not in the total (0 when the gradients are at the peak, or persist)",
         {});
  ex.add("memory.off_peak_bytes.activations", m.off_peak_activations, "B",
         "one GPU without accumulation: the activations and logits, freed before the gradients' peak, not in the "
         "total (0 when they are at the peak)",
         {});
  ex.add("memory.per_gpu_bytes.logits", m.logits, "B",
         "micro_batch x seq_len / cp x (2 e h + loss bytes per logit x V / tp): norm and head inputs (1 e h with "
         "PEFT or freeze-tuning and no fused loss: a frozen head keeps no input) and what the framework's loss holds "
         "at its peak (PyTorch cross-entropy "
         "on fp32 logits: Hugging Face, torchtitan, "
         "torchtune: 4 + 8 / loss_chunks; FSDP and DeepSpeed loops also keep the fp32 logits: + 4; torchtitan "
         "with TP > 1 runs PyTorch's unfused loss parallelism: 4 + 12 / loss_chunks; Megatron or "
         "torch.compile: e + 4 / loss_chunks); "
         "fused linear "
         "cross-entropy: one chunk of "
         "next_power_of_2(tokens / ceil(V / h)) tokens x (e + 4) V (Liger); Cut Cross-Entropy: none",
         {{"vocab", static_cast<double>(s.model.vocab)},
          {"loss_chunks", static_cast<double>(s.techniques.loss_chunks)},
          {"loss_bytes_per_logit", loss_bytes_per_logit(s)},
          {"fused_loss", static_cast<double>(s.techniques.fused_loss)},
          {"cp", static_cast<double>(x.cp)}});
  ex.add("memory.per_gpu_bytes.buffers", m.buffers, "B",
         "DDP 2 x 25 MiB buckets; DeepSpeed ZeRO-1/2 5e8-element buckets (none with its BF16_Optimizer, which "
         "reduces after the backward); Megatron-LM none (its buckets are views of the gradient buffer); ZeRO-3 two "
         "layers gathered, with PyTorch "
         "FSDP (frameworks hf, fsdp, torchtune, torchtitan) at least one layer and the root unit (embedding, final "
         "norm, head), which FSDP keeps gathered from forward to backward",
         {});
  ex.add("memory.per_gpu_bytes.runtime", m.runtime, "B",
         "kRuntimeOverheadBytes + kAllocatorFragmentation x dynamic tensors",
         {{runtime.name, runtime.value}, {fragmentation.name, fragmentation.value}});
  ex.add("memory.per_gpu_bytes.total", m.total(), "B",
         "weights + gradients + optimizer + activations + logits + buffers + runtime",
         {{"capacity", r.capacity_bytes}});
  ex.add("memory.per_gpu_bytes.other", m.other(), "B",
         "logits + buffers + runtime: what is neither model state nor layer activations",
         {{"logits", m.logits}, {"buffers", m.buffers}, {"runtime", m.runtime}});
  ex.add("memory.capacity_bytes", r.capacity_bytes, "B",
         "usable GPU memory: cluster.gpu_memory_gb x 1e9 (catalog or override)",
         {{"gpu_memory_gb", s.cluster.gpu_memory_gb}});
  ex.add("memory.headroom_bytes", r.headroom_bytes, "B", "capacity - total (negative: does not fit)",
         {{"capacity", r.capacity_bytes}, {"total", m.total()}});
  ex.add("memory.fits", r.fits ? 1.0 : 0.0, "bool", "headroom >= 0", {{"headroom_bytes", r.headroom_bytes}});
  ex.add("memory.max_micro_batch", r.max_micro_batch, "sequences",
         "largest b with total(b) <= capacity at the same global batch (none given: b x dp, nothing accumulating), by "
         "bisection over 1, 2, 4, ... (memory grows with b; where it does not, the first boundary found)",
         {{"capacity", r.capacity_bytes}});
  ex.add("memory.trainable_params", r.trainable_params, "1",
         "full/pretrain: all parameters; LoRA/QLoRA: layers x r x (d_in + d_out) per adapted matrix; freeze: the top "
         "trainable layers",
         {{"method", static_cast<double>(s.method)},
          {"lora_rank", static_cast<double>(s.lora.rank)},
          {"trainable_layers", static_cast<double>(s.trainable_layers)}});
  ex.add("memory.cpu_offload_bytes_per_node", r.cpu_offload_bytes_per_node, "B",
         "offload cpu: sharded optimizer states (+ ZeRO-3 weights) of every GPU of the node (ZeRO-Offload)",
         {{"gpus_per_node", gpus_per_node}});
  ex.add("memory.nvme_offload_bytes_per_node", r.nvme_offload_bytes_per_node, "B",
         "offload nvme: sharded optimizer states (+ ZeRO-3 weights) of every GPU of the node (ZeRO-Infinity)",
         {{"gpus_per_node", gpus_per_node}});
}

}  // namespace

MemoryResult estimate_memory(const Scenario& s, const ParamCount& p, const Calibration& cal, Explainer* ex) {
  MemoryResult r;
  if (s.is_peft()) {
    r.trainable_params = lora_params_total(s.model, s.lora);
  } else {
    r.trainable_params = s.method == Method::freeze ? s.trained_layers() * (p.layers_total / s.model.layers) : p.total;
  }
  if (s.parallel.offload == Offload::cpu) r.cpu_offload_bytes_per_node = offload_bytes_per_node(s, p);
  if (s.parallel.offload == Offload::nvme) r.nvme_offload_bytes_per_node = offload_bytes_per_node(s, p);
  const PeakCandidates candidates = peak_candidates(s, p, cal);
  const Peak peak = peak_stage(s, p, candidates, batch_of(s), cal);
  r.per_gpu = peak.mem;
  r.stage = peak.stage;
  r.capacity_bytes = s.cluster.gpu_memory_gb * 1e9;
  r.headroom_bytes = r.capacity_bytes - r.per_gpu.total();
  r.fits = r.headroom_bytes >= 0;
  r.max_micro_batch = largest_micro_batch(s, p, candidates, r.capacity_bytes, cal, r.fits);
  if (ex) explain_memory(s, p, r, cal, *ex);
  return r;
}

const char* to_string(Stage stage) {
  switch (stage) {
    case Stage::only: return "only";
    case Stage::first: return "first";
    case Stage::last: return "last";
    case Stage::middle: return "middle";
  }
  return "only";
}

}  // namespace llmplan
