// memory.hpp: the memory step of the estimate, per GPU: model states under ZeRO 0-3 and TP/PP
// (ZeRO paper, Rajbhandari et al. 2020, §3), activations (Korthikanti et al. 2022 §4, generalised to
// GQA and gated MLPs), logits/loss, communication buffers and runtime overhead, for the most loaded
// pipeline stage.
#pragma once
#include "llmplan/calibration.hpp"
#include "llmplan/explain.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

// Bytes kept per parameter (ZeRO paper §3: mixed-precision Adam is 2 + 2 + K with K = 12).
struct StateBytesPerParam {
  double weights = 2;
  double gradients = 2;
  double optimizer = 12;
};
StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer, bool pure_bf16 = false);
double optimizer_state_bytes(Optimizer optimizer);
// LoRA adapter parameters of the whole model, and per block (their mean over dense and MoE blocks).
double lora_params_total(const ModelArch& arch, const Lora& lora);
double lora_params_per_layer(const ModelArch& arch, const Lora& lora);
// The inputs and outputs of the adapted linear layers one token passes through in a block (the mean
// over dense and MoE blocks): column-parallel layers (Q, K, V; the MLP's up and gate) read the whole
// row and write their 1 / tp share, row-parallel ones (the output projection, the MLP's down) read
// their 1 / tp share and write `row_out` (h, or h / tp reduce-scattered with sequence parallelism);
// an MoE token passes through top_k + shared experts, whose MLPs split over `etp` and see
// `expert_tokens` of the block's tokens (etp / tp with sequence parallelism: a GPU's expert-TP group
// gathers etp of the tp sequence shards), writing `expert_row_out` (h, or h / etp reduce-scattered).
struct AdapterWidths {
  double in = 0, out = 0;
};
struct AdapterLayout {
  double tp = 1, etp = 1, row_out = 0, expert_tokens = 1, expert_row_out = 0;
};
AdapterWidths lora_adapter_widths(const ModelArch& arch, LoraTargets targets, const AdapterLayout& layout);
// The adapter parameters one token runs through per block (the mean over dense and MoE blocks):
// rank x (inputs + outputs) of the unsharded layers. Their FLOPs are 2 a pass per parameter.
double lora_active_params_per_layer(const ModelArch& arch, const Lora& lora);

// QLoRA (Dettmers et al. 2023 §3): NF4 weights at 0.5 B plus double-quantised constants at
// 0.127 bit per parameter, for the linear layers of the blocks (embeddings, head, norms stay 16-bit).
inline constexpr double kNf4BytesPerParam = 0.5 + 0.127 / 8.0;

struct ModelStateBytes {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double total() const { return weights + gradients + optimizer; }
};
// ZeRO stage z shards optimizer (z>=1), gradients (z>=2) and weights (z>=3) over dp ranks.
ModelStateBytes model_state_bytes(double params, StateBytesPerParam per_param, int dp, int zero);

// Activation bytes one transformer layer keeps for backward for one micro-batch.
struct ActivationShape {
  int seq_len = 2048;
  int micro_batch = 1;
  int tp = 1;
  int cp = 1;  // context parallel: each GPU keeps seq_len / cp of the tokens (ring attention)
  bool sequence_parallel = false;
  Recompute recompute = Recompute::none;
  bool flash_attention = false;
  bool dropout = true;
  double element_bytes = 2;     // 16-bit activations
  double gemm_input_bytes = 2;  // inputs saved for the weight-gradient GEMMs (1 under FP8 training)
  double norm_input_bytes = 0;  // inputs saved by the norms; 0 means element_bytes (fused kernels)
  double residual_bytes = 0;    // the residual stream (a block's input, kept under full recompute); 0: element_bytes
  bool frozen_mlp = false;      // the MLP's weights are frozen and unadapted: autograd keeps none of its GEMM inputs
  bool fused_gated_activation = false;  // a fused SwiGLU/GeGLU kernel (techniques.fused_kernels) keeps only its input
  // torchtitan's and torchtune's tensor parallelism (DTensor) keeps the all-gathered inputs of its
  // column-parallel layers whole under sequence parallelism; Megatron keeps them sharded.
  bool gathered_gemm_inputs = false;
  // Rows each routed expert's activations hold per routed token: parallel.moe_capacity_factor c
  // pads every expert's input to c x its mean share; 1 for dropless routing.
  double routed_rows = 1;
};
double activation_bytes_per_layer(const ModelArch& arch, const ActivationShape& shape);
ActivationShape activation_shape(const Scenario& s);
// Layers of a stage of `layers` whose saved activations go to host memory: none without
// techniques.activation_offload, else the first activation_offload_layers (0: all).
double offloaded_layers(const Scenario& s, double layers);
// Block-linear parameters of the average pipeline stage on one GPU (TP and EP shares; every
// data-parallel rank runs them whole): the weights QLoRA keeps in NF4.
double average_block_linear_params(const Scenario& s, const ParamCount& p);
// ... of the trained blocks (the top ones of a freeze-tune; none for PEFT, whose adapters train).
double trained_block_linear_params(const Scenario& s, const ParamCount& p);
// Whether FP8 weights (fp8_params) cover the routed experts' block linears too.
bool fp8_covers_routed_experts(const Scenario& s);

enum class Stage { only, first, last, middle };  // which pipeline stage is the most loaded

struct MemoryBreakdown {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double logits = 0;   // final norm / head inputs, logits and the fp32 copy the loss upcasts
  double buffers = 0;  // gradient buckets (ZeRO 0-2) or parameter gather buffers (ZeRO-3)
  double runtime = 0;  // CUDA context, library workspaces, allocator fragmentation
  // A single process without accumulation holds the activations (and logits) or the gradients,
  // never both: the one not at the peak, shown beside it and not counted in total().
  double off_peak_activations = 0;  // activations + logits, freed before the gradients' peak
  double off_peak_gradients = 0;    // .grad, allocated after the activations' peak
  double other() const { return logits + buffers + runtime; }
  double total() const { return weights + gradients + optimizer + activations + other(); }
};

struct MemoryResult {
  MemoryBreakdown per_gpu;                 // of the most loaded pipeline stage
  double trainable_params = 0;             // parameters with gradients and optimizer state (whole model)
  double cpu_offload_bytes_per_node = 0;   // optimizer states (and ZeRO-3 weights) moved to host RAM
  double nvme_offload_bytes_per_node = 0;  // ... or to local NVMe
  Stage stage = Stage::only;
  double capacity_bytes = 0;
  double headroom_bytes = 0;  // capacity - total; negative when it does not fit
  bool fits = false;
  int max_micro_batch = 0;  // largest micro-batch that fits with the same global batch; 0: none
};

// Micro-batches whose activations pipeline rank `rank` (0 first) keeps at its peak, in units of one
// micro-batch of the stage's blocks. 1F1B: min(pp - rank, m). Interleaved 1F1B with vp virtual
// stages (Megatron-Core schedules.py): min((pp - rank - 1) x 2 + (vp - 1) x pp + 1, m vp) / vp
// chunks of 1 / vp of the stage, which for the first stage is pp (1 + (pp - 1) / (pp vp))
// (Korthikanti et al. 2022 §4.2.3).
double in_flight_micro_batches(const Scenario& s, int rank);
// Megatron-Core's warm-up chunks of pipeline rank `rank` (0 first) in the interleaved schedule
// (schedules.py, num_warmup_microbatches): (pp - rank - 1) x 2 + (vp - 1) x pp, before the cap at
// the step's m vp chunks.
int interleaved_warmup_chunks(const Parallel& x, int rank);
// DeepSpeed trains bf16 through its BF16_Optimizer when gradients accumulate in fp32: ZeRO-1 with
// data_types.grad_accum_dtype fp32 (techniques.fp32_grad_reduce; the BLOOM run's set-up). Without
// ZeRO it is DeepSpeed's default too (engine.get_data_types), and it shards the fp32 master and
// optimizer states as ZeRO-1 does, so that set-up is the same fields. It keeps fp32 gradients of
// every trained parameter beside the bf16 ones, adds into them after every micro-batch and
// reduces them. Its fp32 gradients live from start-up: never off the peak.
bool deepspeed_bf16_optimizer(const Scenario& s);
// Bytes of one activation element in the compute dtype: 2 in 16-bit (and FP8, whose attention, norms and
// residual stream stay 16-bit), 4 in fp32.
double element_bytes(Precision p);
// Whether the ring is PyTorch's context parallelism (torch.distributed.tensor.experimental, run by
// torchtitan) rather than Transformer Engine's P2P ring (Megatron-Core).
bool cp_runs_pytorch_ring(const Scenario& s);
// Whether tensor parallelism with sequence parallelism keeps the all-gathered input of the QKV
// projection and of the MLP whole for backward: the DTensor plans of torchtitan and torchtune
// (SequenceParallel norms, PrepareModuleInput to Replicate()), as opposed to Megatron's sharded copy.
bool tp_keeps_gathered_inputs(const Scenario& s);
// The key + value width the ring moves per token, before TP: k + v, or with PyTorch's ring under
// grouped-query attention (k + v) x heads / kv_heads (torchtitan repeats them before SDPA).
double cp_kv_width(const Scenario& s);
// The key and value elements of one CP rank's chunk of a micro-batch, b (s / cp) x cp_kv_width / tp
// (TP splits the heads).
double cp_chunk_kv_elements(const Scenario& s);
// What PyTorch's context-parallel ring (torchtitan, cp > 1) holds in one layer's attention backward
// beyond the fused kernel's gradients: the all-gathered keys and values of every rank and the chunk
// sent, 16-bit, three fp32 key/value gradient chunks and the 16-bit copy it returns, an fp32 query
// gradient and its copy: cp_chunk_kv_elements x ((cp + 2) e + 12) + b (s / cp) q_width / tp x (4 + e)
// bytes; 0 otherwise.
double pytorch_ring_bytes(const Scenario& s);
// Bytes per gradient element in the data-parallel reduction (2 or 4).
double grad_reduce_bytes(const Scenario& s);
// ZeRO-3 / FSDP with pipeline stages keeps each stage's gathered weights through the step and
// accumulates unsharded gradients, gathering and reducing once per step (torchtitan).
bool keeps_gathered_weights(const Scenario& s);

// Buffers and runtime overhead come from the Calibration (calibration.hpp); `ex` records the
// formula and inputs of every figure when not null.
MemoryResult estimate_memory(const Scenario& s, const ParamCount& params, const Calibration& cal,
                             Explainer* ex = nullptr);

const char* to_string(Stage stage);

}  // namespace llmplan
