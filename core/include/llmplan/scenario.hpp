// scenario.hpp: everything a user chooses (model, method, precision, shape, cluster, layout),
// parsed strictly from JSON: an unknown key or an out-of-range value is an InputError that
// names the field and the allowed range. The fields, ranges and defaults are in the field table
// (fields.hpp), and docs/scenario.md is generated from it.
#pragma once
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "llmplan/model.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

struct Catalog;

enum class Method { pretrain, continued, full, lora, qlora, freeze };
enum class Precision { bf16, fp16, fp32, fp8 };
enum class Optimizer { adamw, adamw8bit, sgd, adafactor };
// selective_op: torchtitan's per-operator selective checkpointing (selective_ac_option "op"):
// matmul and attention outputs are saved except every second matmul of a block, the rest recomputed.
enum class Recompute { none, selective, full, selective_op };
enum class Offload { none, cpu, nvme };
enum class LoraTargets { attention, all_linear };
enum class PricingMode { on_demand, spot, reserved_1yr, reserved_3yr };
// A fused loss kernel: Liger's fused linear cross-entropy (logits a chunk at a time), Cut
// Cross-Entropy (Unsloth; logits never written to GPU memory), or a fused cross-entropy kernel on
// the whole 16-bit logits (fused_ce: flash-attn's xentropy, llm-foundry's MPT default; under Megatron,
// Transformer Engine's parallel_cross_entropy).
enum class FusedLoss { none, liger, cce, fused_ce };
inline constexpr const char* kFusedLossNames[] = {"none", "liger", "cce", "fused_ce"};
// Liger and Cut Cross-Entropy fuse the output layer's GEMM with the loss: no whole logits tensor.
constexpr bool fuses_output_layer(FusedLoss f) { return f == FusedLoss::liger || f == FusedLoss::cce; }
// The software that runs the job: it decides what the loss and the framework's buffers hold.
enum class FrameworkKind { hf, torchtune, fsdp, deepspeed, megatron, torchtitan };
// How MoE tokens reach their experts: one NCCL all-to-all copy per routed expert (Megatron-Core's
// alltoall dispatcher, torchtitan), or one copy per destination node over the network, forwarded
// inside the node over the scale-up link (DeepEP and HybridEP; DeepSeek-V3's dispatch kernels).
// DeepEP's Megatron-Core backend permutes the rows it receives into expert order on the compute
// stream; HybridEP writes them in that order from its communication kernels.
enum class EpDispatcher { alltoall, deepep, hybridep };
// How the router spreads tokens over the experts: learned (a trained router: the busiest
// expert-parallel rank gets kMoeCapacityFactor x the mean, and a token's experts land as uniform
// routing would place them), or a benchmark's fake balanced gate (NeMo AutoModel's
// FakeBalancedGate: token i goes to experts i k, ..., i k + k - 1 mod E, so every expert gets the
// same tokens and a token's k experts sit side by side, on ceil(k ep / E) ranks or one more), or random logits
// (Megatron-Core --moe-router-force-load-balancing: fresh normal logits a call, so a token's k
// experts are a uniform random set and the busiest rank exceeds the mean by chance only).
enum class MoeRouting { learned, fake_balanced, random };

// Each enum's names in JSON, links and the app (index i is enum value i): the only copy.
inline constexpr const char* kMethodNames[] = {"pretrain", "continued", "full", "lora", "qlora", "freeze"};
inline constexpr const char* kPrecisionNames[] = {"bf16", "fp16", "fp32", "fp8"};
inline constexpr const char* kOptimizerNames[] = {"adamw", "adamw8bit", "sgd", "adafactor"};
inline constexpr const char* kRecomputeNames[] = {"none", "selective", "full", "selective_op"};
inline constexpr const char* kOffloadNames[] = {"none", "cpu", "nvme"};
inline constexpr const char* kLoraTargetNames[] = {"attention", "all_linear"};
inline constexpr const char* kPricingModeNames[] = {"on_demand", "spot", "reserved_1yr", "reserved_3yr"};
// The hours a reservation bills, used or not: 1 or 3 years of 8,760 h (the 365-day year the clouds
// price reservations in); 0 for the modes billed by use.
constexpr double reservation_term_hours(PricingMode m) {
  return m == PricingMode::reserved_1yr ? 8760.0 : m == PricingMode::reserved_3yr ? 3 * 8760.0 : 0.0;
}
inline constexpr const char* kFrameworkNames[] = {"hf", "torchtune", "fsdp", "deepspeed", "megatron", "torchtitan"};
inline constexpr const char* kEpDispatcherNames[] = {"alltoall", "deepep", "hybridep"};
inline constexpr const char* kMoeRoutingNames[] = {"learned", "fake_balanced", "random"};

struct Lora {
  int rank = 16;
  LoraTargets targets = LoraTargets::all_linear;  // q,k,v,o (attention) or every linear layer
};

// The hardware a scenario runs on, resolved from the catalog (an accelerator id, or an instance
// id and a node count) and the user's overrides, so estimate() needs no catalog and no lookups.
struct Cluster {
  std::string accelerator = "h100-sxm5-80gb";  // catalog id
  std::string vendor = "nvidia";               // the accelerator's vendor (catalog)
  std::string instance;                        // catalog instance id, or empty
  int gpus = 8;                                // total accelerators N
  int gpus_per_node = 8;                       // the NVLink/PCIe domain; TP should stay inside it
  int max_gpus_per_node = 0;                   // the accelerator's largest scale-up domain (catalog); 0: unbounded
  int cards = 0;                     // cards rented per host of an instance sold by the card; 0: the instance's shape
  double gpu_memory_gb = 80.0;       // usable memory per GPU, decimal GB (1e9 B)
  double peak_16bit_tflops = 989.4;  // dense BF16 (FP16 where BF16 is absent)
  double peak_fp8_tflops = 0;        // dense FP8; 0 when unsupported
  bool bf16 = true;                  // the tensor cores run BF16 (not Volta); from the catalog
  double peak_fp32_tflops = 67;      // non-tensor FP32
  double memory_bw_gb_per_s = 3350;  // HBM bandwidth (memory-bound kernels)
  double gemm_efficiency = 0;        // measured large-GEMM / peak; 0 when unpublished (a named default applies)
  double fp8_gemm_efficiency = 0;    // measured large FP8 GEMM / FP8 peak; 0 when unpublished
  // Measured fused attention fwd+bwd / 16-bit peak per kernel (0 when unpublished) and the usual kernel.
  std::array<double, kAttentionKernels> attention_efficiency{};
  std::array<AttentionLengthScale, kAttentionKernels> attention_length_scale{};    // per kernel; empty: flat
  std::array<AttentionLengthScale, kAttentionKernels> attention_head_dim_scale{};  // per kernel; empty: flat
  AttentionKernel attention_kernel = AttentionKernel::flash2;
  AttentionKernel attention_kernel_pytorch = AttentionKernel::auto_;  // PyTorch SDPA's, where it differs
  double intra_node_gb_per_s = 450;                                   // per GPU, one direction
  // NCCL all-reduce bus bandwidth over the scale-up link as a share of its rate, as nccl-tests
  // measured it on the link's reference part (a part with the link capped, or a rate the user gives,
  // reaches the same share of its own rate).
  double intra_busbw_fraction = 0.8;
  double intra_busbw_gb_per_s = 0;  // measured on this very machine (a trial's nccl-tests); 0: the share above
  double pcie_gb_per_s = 64;        // host link per GPU, one direction (offload traffic): PCIe or NVLink-C2C
  double sm_count = 0;              // streaming multiprocessors a GPU enables; 0 when unpublished
  double compute_capability = 0;    // NVIDIA's (9.0 Hopper, 10.0 B200); 0 when unpublished
  double node_ram_gb = 0;           // host memory per node; 0 when unknown
  double node_vcpus = 0;            // per node; 0 when unknown
  double node_nvme_tb = 0;          // local NVMe per node; 0 when none or unknown
  int nodes() const { return gpus <= gpus_per_node ? 1 : gpus / gpus_per_node; }
};

struct Network {
  std::string inter_node_link = "infiniband-ndr";  // catalog interconnect id
  double node_gb_per_s = 400;                      // scale-out bandwidth of one node, one direction (all NICs)
  double busbw_fraction = 0.8;                     // achieved NCCL bus bandwidth / line bandwidth
  bool rdma = true;
  double latency_us = 5;
};

struct Parallel {
  int tp = 1;                      // tensor parallel size t (divides heads, within a node)
  int pp = 1;                      // pipeline stages p (divides layers)
  int zero = 0;                    // ZeRO stage 0-3 (FSDP full-shard = 3), over the DP group
  bool sequence_parallel = false;  // Megatron sequence parallelism (needs tp > 1 to matter)
  Recompute recompute = Recompute::none;
  // With full recompute, the first N blocks of each pipeline chunk recompute and the others keep
  // their activations (Megatron-LM --recompute-method block --recompute-num-layers N); 0: every block.
  int recompute_layers = 0;
  Offload offload = Offload::none;  // optimizer states (and with ZeRO-3 weights) to CPU RAM or NVMe
  bool flash_attention = true;      // no s x s score matrix stored
  AttentionKernel attention_kernel = AttentionKernel::auto_;  // which fused kernel (auto: the accelerator's usual)
  bool tp_comm_overlap = false;  // tensor-parallel collectives overlapped with GEMMs (Megatron-Core --tp-comm-overlap)
  bool ep_comm_overlap =
      false;  // expert all-to-alls overlapped with another micro-batch's compute (DualPipe, Megatron-Core)
  EpDispatcher ep_dispatcher = EpDispatcher::alltoall;  // per-expert copies, or per-node copies (DeepEP, HybridEP)
  // DeepEP and HybridEP send a token once per destination node and rank, not once per routed expert.
  bool dispatches_per_rank() const { return ep_dispatcher != EpDispatcher::alltoall; }
  MoeRouting moe_routing = MoeRouting::learned;  // a trained router, or a benchmark's fake balanced gate
  // Token dropping: every expert takes c x its mean share of the tokens, the overflow dropped and the
  // rest padded to that capacity (Megatron-Core --moe-expert-capacity-factor c
  // --moe-pad-expert-input-to-capacity); 0 is dropless routing. 1 <= c <= experts / top_k.
  double moe_capacity_factor = 0;
  // The rows each routed expert runs per routed token: c with token dropping and padding, else 1.
  double padded_rows() const { return moe_capacity_factor > 0 ? moe_capacity_factor : 1.0; }
  // SMs a DeepEP-style dispatcher's kernels hold while they overlap computation; 0 takes kDeepEpSms
  // (Megatron-Core --moe-flex-dispatcher-num-sms, whose unset value is DeepEP's default).
  int ep_comm_sms = 0;
  // Rank order TP innermost, then CP, then DP, then PP (Megatron-LM).
  int cp = 1;  // context parallel size: the sequence split over cp GPUs, ring attention (divides seq_len)
  int ep = 1;  // expert parallel size: the routed experts split over ep ranks (MoE only)
  int vp = 1;  // virtual pipeline stages per rank: interleaved 1F1B (Narayanan et al. 2021 §2.2)
  // The interleaved schedule's steady-state pipeline transfers each run during the chunk computed
  // while they are in flight (Megatron-LM --overlap-p2p-communication, vp > 1 only).
  bool pp_comm_overlap = false;
  // Pipeline flushes a step: the pipeline fills and drains this many times, each schedule running
  // grad_accum / pp_flushes micro-batches (torchtitan and NeMo AutoModel call the schedule once per
  // gradient-accumulation step); 1 runs every micro-batch of the step in one schedule (Megatron-LM).
  int pp_flushes = 1;
  // Expert tensor parallel size: each routed expert split over etp ranks; 0 follows tp, Megatron-Core's
  // default. The MoE layers fold their ranks as ETP innermost, then EP, then expert DP over the
  // tp x cp x dp ranks of a pipeline stage (Megatron-Core MoE parallel folding).
  int etp = 0;
  int expert_tp() const { return etp > 0 ? etp : tp; }
};

// Memory-saving techniques of training frameworks that change what a GPU holds.
struct Techniques {
  int loss_chunks = 1;                     // chunked cross-entropy (torchtune: 8): fp32 logits one chunk at a time
  bool activation_offload = false;         // saved activations streamed to host memory
  int activation_offload_layers = 0;       // ... of the first N layers of each stage; 0: every layer
  bool optimizer_in_backward = false;      // optimizer step fused into backward: gradients freed at once
  bool fp32_norm_inputs = false;           // unfused RMSNorm/LayerNorm (PyTorch eager, HF, torchtune) saves fp32 inputs
  FusedLoss fused_loss = FusedLoss::none;  // fused (linear +) cross-entropy kernel
  bool kbit_fp32_cast = false;             // QLoRA: non-4-bit parameters cast to fp32 (PEFT); default: hf + qlora
  bool compile = false;                    // torch.compile: the cross-entropy runs as one fused kernel
  bool fp32_grad_reduce = false;           // gradients reduced in fp32 (Composer/FSDP mixed precision DEFAULT)
  int mtp_layers = 0;                      // multi-token prediction modules trained alongside (DeepSeek-V3: 1)
  // The block's RMSNorm, rotary embedding and gated activation run as fused kernels (Megatron-LM /
  // Transformer Engine, torch.compile, Liger, Unsloth), not as separate eager PyTorch ops.
  bool fused_kernels = true;  // default: megatron, compile or a fused loss
  // ... but the gated activation, act(gate) x up, as eager ops (nanotron's MLP; Liger without its
  // SwiGLU kernel, liger_kernel_config {"swiglu": false}).
  bool eager_activation = false;
  // The gated activation runs fused: keeps gate and up for backward, moves no eager intermediates.
  bool fused_activation() const { return fused_kernels && !eager_activation; }
};

// The data tier when a scenario names none (one consumer Gen4 NVMe drive per node).
inline constexpr const char* kDefaultDataTier = "local-nvme-gen4-980pro";
// Pricing::price_source when the user gave pricing.usd_per_gpu_hour.
inline constexpr const char* kPriceOverrideSource = "pricing.usd_per_gpu_hour";

struct StorageChoice {
  std::string data_tier;                 // catalog storage id; empty: local NVMe when the node has it
  std::string checkpoint_tier;           // catalog storage id; empty: same as data
  double data_read_mb_per_s = 0;         // resolved aggregate read throughput of the data tier for the job
  double checkpoint_write_mb_per_s = 0;  // resolved aggregate write throughput for checkpoints
  std::string data_kind;                 // block | local_nvme | parallel_fs | file | object
  std::string checkpoint_kind;
  double checkpoint_interval_h = 0;  // 0: Young/Daly optimum
  double bytes_per_token = 4;        // on disk: pre-tokenised uint32 (2 for uint16, ~4 for raw text)
  double dataset_tokens = 0;         // for staging and retention; 0: the training tokens
  double retention_months = 1;       // how long checkpoints and data are kept
  int checkpoints_kept = 2;
  double usd_per_tb_month = 0;  // resolved price of the checkpoint tier (0 when unpublished)
  double staging_mb_per_s = 0;  // resolved: object storage -> data tier copy rate for the job (0: no staging)
  std::string staging_source;   // the object-storage tier used for staging
};

// Llama 3 paper §3.3.4: 419 unexpected interruptions in 54 days on 16,384 H100 GPUs
// -> 419 / (54 x 24 x 16384) = 1.97e-5 job interruptions per GPU-hour.
inline constexpr double kDefaultFailuresPerGpuHour = 419.0 / (54.0 * 24.0 * 16384.0);

// Where a scenario's price per GPU-hour came from.
enum class PriceSource { none, user, instance, catalog_median };

struct Pricing {
  PricingMode mode = PricingMode::on_demand;
  double usd_per_gpu_hour = 0;  // resolved: the override, the instance's price, or the catalog median
  PriceSource source = PriceSource::none;
  std::string price_source;      // where the price came from, in words (explanations show it)
  int price_offerings = 0;       // catalog offerings the median price was taken over
  double min_billing_hours = 0;  // a rent sold in blocks (monthly: 730); 0 when billed by use
  double overhead_factor = 1.3;  // debugging, reruns, idle time on top of pure training (planning allowance 1.3-1.5)
  Currency currency = Currency::usd;
  double usd_to_cny = 7.1;                                    // resolved from the catalog
  double spot_interruptions_per_hour = 0;                     // per instance (node)
  double failures_per_gpu_hour = kDefaultFailuresPerGpuHour;  // job interruptions per GPU-hour
  double restart_h = 0.25;  // time to detect, restart and reload after an interruption
};

// What a trial run measured (the scenario's `calibration` block) and where: the layout fields of
// `on` that are 0 (zero: -1) are the scenario's own. Zero figures were not measured.
// torch.cuda.max_memory_allocated, nvidia-smi, torch.cuda.max_memory_reserved (torchtitan's "memory").
enum class MemorySource { allocated, nvidia_smi, reserved };
inline constexpr const char* kMemorySourceNames[] = {"allocated", "nvidia_smi", "reserved"};
struct TrialLayout {
  std::string accelerator;  // catalog id; empty: the scenario's
  int gpus = 0, gpus_per_node = 0, tp = 0, pp = 0, cp = 0, ep = 0, zero = -1;
  int micro_batch = 0, seq_len = 0, global_batch = 0;
  int pp_flushes = 0;  // 0: the scenario's where they divide the trial's micro-batches, else 1
};
struct Measurement {
  double tokens_per_s_per_gpu = 0, step_s = 0, mfu = 0;  // at most one of the three
  double peak_memory_gib = 0;
  MemorySource memory_from = MemorySource::allocated;         // torch.cuda.max_memory_allocated or nvidia-smi
  double intra_busbw_gb_per_s = 0, inter_busbw_gb_per_s = 0;  // nccl-tests all_reduce_perf busbw
  double data_read_gb_per_s = 0;                              // fio sequential read, per node
  TrialLayout on;
  bool throughput() const { return tokens_per_s_per_gpu > 0 || step_s > 0 || mfu > 0; }
  bool any() const {
    return throughput() || peak_memory_gib > 0 || intra_busbw_gb_per_s > 0 || inter_busbw_gb_per_s > 0 ||
           data_read_gb_per_s > 0;
  }
};
// What the measurement pinned down (calibrate.hpp): factors on the modelled compute rate and on the
// framework-dependent memory (activations, logits, buffers); 1 where nothing was measured.
struct TrialFactors {
  double compute = 1, memory = 1;
  bool throughput = false, memory_measured = false;
  bool same_layout = false;  // the scenario is the trial's own configuration
  std::string accelerator;   // the factors hold on this accelerator only
};

struct Scenario {
  std::string model_preset;  // catalog id, or empty when the architecture was given
  ModelArch model;
  int max_context = 0;  // of the preset; 0 when unknown
  Method method = Method::pretrain;
  Lora lora;
  int trainable_layers = 0;                           // freeze: the top layers that train (0: a quarter of them)
  FrameworkKind framework = FrameworkKind::megatron;  // default_framework(method) unless given
  // Whether the input named the framework and the fields whose defaults follow it (else the
  // method's framework and apply_framework_defaults).
  bool framework_given = false, fused_kernels_given = false, kbit_fp32_cast_given = false, recompute_given = false;
  Precision precision = Precision::bf16;
  Optimizer optimizer = Optimizer::adamw;
  bool pure_bf16 = false;   // bf16 weights, grads and optimizer states, no fp32 master (torchtune)
  bool fp8_params = false;  // block linears' weights held and gathered in FP8 (Transformer Engine, torchao)
  int seq_len = 4096;       // tokens per sequence s
  int micro_batch = 1;      // sequences per micro-batch per GPU b
  int global_batch = 0;     // sequences per optimizer step; 0 means micro_batch x dp
  double tokens = 0;        // training tokens; 0 means dataset_tokens x epochs (or none)
  double epochs = 1;
  bool dropout = false;  // dropout layers keep 1-byte masks (GPT-3 style); off for Llama/Qwen
  Cluster cluster;
  Network network;
  Parallel parallel;
  Techniques techniques;
  StorageChoice storage;
  Pricing pricing;
  Measurement measured;  // the `calibration` block
  TrialFactors factors;  // resolved from it by the parser (calibrate.hpp)

  // Whether a trial's factors apply: they were measured on this accelerator.
  bool calibrated() const {
    return (factors.throughput || factors.memory_measured) && factors.accelerator == cluster.accelerator;
  }
  double compute_factor() const { return factors.throughput && calibrated() ? factors.compute : 1.0; }
  double memory_factor() const { return factors.memory_measured && calibrated() ? factors.memory : 1.0; }

  // Data-parallel replicas: GPUs / (tp x cp x pp); a replica processes micro_batch sequences, each split over cp GPUs.
  int dp() const { return cluster.gpus / (parallel.tp * parallel.cp * parallel.pp); }
  // Copies of each routed expert: tp x cp x dp / (ep x etp), the expert-data-parallel group.
  int expert_dp() const {
    return std::max(1, cluster.gpus / parallel.pp / (std::max(1, parallel.ep) * parallel.expert_tp()));
  }
  int effective_global_batch() const { return global_batch > 0 ? global_batch : micro_batch * dp(); }
  int grad_accum() const { return effective_global_batch() / (micro_batch * dp()); }
  // Pipeline schedules a step runs (parallel.pp_flushes with pipeline stages), and the micro-batches
  // of each: the step's split evenly over them.
  int pp_schedules() const { return parallel.pp > 1 ? std::max(1, parallel.pp_flushes) : 1; }
  int schedule_micro_batches() const { return schedule_micro_batches(grad_accum()); }
  // Of `accum` micro-batches a rank runs a step (the memory search tries other micro-batches).
  int schedule_micro_batches(int accum) const { return std::max(1, accum / pp_schedules()); }
  bool is_peft() const { return method == Method::lora || method == Method::qlora; }
  // Blocks whose weights train: freeze-tuning's top `trainable_layers` (0: a quarter of them,
  // LLaMA-Factory's default), every block otherwise.
  int trained_layers() const {
    if (method != Method::freeze) return model.layers;
    return trainable_layers > 0 ? trainable_layers : std::max(1, model.layers / 4);
  }
  // The share of the blocks that run backward: 1 but for freeze-tuning, whose frozen bottom
  // blocks run forward only (outside autograd).
  double trained_share() const { return static_cast<double>(trained_layers()) / std::max(1, model.layers); }
  double training_tokens() const { return tokens > 0 ? tokens : storage.dataset_tokens * epochs; }
};

// Blocks per pipeline stage. When the layers do not divide by pp, every middle stage takes
// ceil(layers / pp) and the first and last stages, which also hold the embedding and the loss,
// take the rest (Megatron-LM --decoder-first/last-pipeline-num-layers; Llama 3 405B: 126 blocks on
// 16 stages, 7 on the first and last and 8 on the others, Llama 3 paper §3.3.2). ok is false when
// no stage may be left empty that way.
struct PipelineSplit {
  int first = 0, middle = 0, last = 0;  // blocks of the first, each middle, and the last stage
  bool ok = false;
  bool even() const { return first == middle && last == middle; }
  // Blocks of stage i of pp: no stage has more than a middle one (pipeline_split).
  int stage(int i, int pp) const { return i == 0 ? first : i == pp - 1 ? last : middle; }
};
PipelineSplit pipeline_split(int layers, int pp);
// Whether vp virtual stages split every pipeline stage: each stage's blocks divide by vp, or a
// first/last stage one block short counts the embedding/loss as its missing block (Megatron-LM
// --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split; Llama 3.1
// 405B's 126 blocks on PP 8 x VP 8: 15 + 6 x 16 + 15).
bool embedding_counts_as_block(const PipelineSplit& split, int pp, int vp);
inline bool vp_divides_stages(const PipelineSplit& split, int pp, int vp) {
  const bool middle = pp <= 2 || split.middle % vp == 0;
  const bool ends = (split.first % vp == 0 && split.last % vp == 0) || embedding_counts_as_block(split, pp, vp);
  return middle && ends;
}

// Blocks of a stage of `stage_layers` that full recompute reruns: every one, or with
// parallel.recompute_layers N the first N of each of its vp chunks (Megatron-Core's TransformerBlock,
// one per chunk, recomputes its first recompute_num_layers with recompute_method "block"). 0
// without full recompute.
int recomputed_layers(const Scenario& s, int stage_layers);
// The most blocks a pipeline stage holds (a middle one: pipeline_split), at least 1.
int most_stage_layers(const Scenario& s);
// recomputed_layers over the blocks of the stage with the most: the share of a stage's forward
// that full recompute runs again. 1 for full recompute of every block.
double full_recompute_share(const Scenario& s);
// The most blocks a pipeline chunk holds: ceil(the most blocks of a stage / vp).
int most_chunk_layers(const Scenario& s);

struct InputError {
  InputError() = default;
  InputError(std::string f, std::string m, std::string c = {}, std::vector<std::string> a = {})
      : field(std::move(f)), message(std::move(m)), code(std::move(c)), args(std::move(a)) {}
  std::string field;    // JSON path, e.g. "parallel.tp"
  std::string message;  // full sentence naming the field, the allowed range and what was given
  // The wording of the sentence after the field (kInputErrorWordings, wording.hpp) and its values,
  // for the app to word in the user's language; empty for an error only worded in English.
  std::string code;
  std::vector<std::string> args;
};

struct ScenarioParse {
  std::optional<Scenario> scenario;
  InputError error;  // set when scenario is empty
};

ScenarioParse parse_scenario(std::string_view json_text, const Catalog& catalog);

struct Instance;
struct StorageTier;
struct Interconnect;
// Puts the scale-out network on `link` with this many ports per node (bandwidth, RDMA, the
// achieved NCCL fraction and latency from the catalog entry).
void set_inter_node_link(const Interconnect& link, double ports_per_node, Network& network);
// Points a parsed scenario at `nodes` of a catalog instance priced in `mode`, with `cards` cards
// per host when the instance is rented by the card (0 otherwise): hardware, links, storage
// throughput and price are re-resolved (the planner's inner loop). False when the instance lacks
// a price in that mode.
bool retarget_scenario(Scenario& s, const Catalog& catalog, const Instance& instance, int nodes, int cards,
                       PricingMode mode, InputError& error);

// Whether the cluster's tensor cores run precision `p` (the catalog's FP8 peak and unsupported
// precisions); validate_scenario refuses it otherwise.
bool runs_precision(const Cluster& c, Precision p);
// Whether parallel.pp_flushes divides the step's micro-batches per data-parallel rank as parse_scenario
// requires: at least one a stage in each schedule, a multiple of pp with virtual stages; true for one
// schedule, false where the field does not apply to the scenario and holds more than one.
bool pp_flushes_divide(const Scenario& s);
// QLoRA's NF4 kernels (bitsandbytes) run on NVIDIA GPUs and, through ROCm, AMD ones only.
bool runs_qlora(const Cluster& c);

// An offering's list price per GPU-hour in USD in `mode` (CNY prices at `usd_to_cny`), or none
// when the catalog has no price in that mode.
std::optional<double> offering_usd_per_gpu_hour(const Instance& in, PricingMode mode, double usd_to_cny);
// Points the scenario's checkpoints at catalog tier `t`, at the job-wide write rate its nodes get
// (what storage.checkpoint_tier resolves to): the advice's "what if" on a shared file system.
void set_checkpoint_tier(Scenario& s, const StorageTier& t);

// Puts the cluster on catalog accelerator `id` (peaks, memory, links); false when the catalog lacks it.
bool set_accelerator(const Catalog& catalog, const std::string& id, Cluster& c);

// The input JSON that parses back to `s` (what llmplan estimate and links take), writing only
// what differs from the defaults. The scale-out network is resolved from the cluster and not
// written: a scenario whose network fields were overridden loses those overrides.
std::string write_scenario_input(const Scenario& s, const Catalog& catalog);

// The scenario input the app opens with when the page has no link, and whose figures the site's
// index.html carries as static HTML (written at build time by this core): a full fine-tune of
// Llama 3.1 8B on 1B tokens, one 8 x 80 GB node with ZeRO-3.
std::string_view first_view_scenario_json();

// Cross-field checks (divisibility, ranges that depend on the model); empty field when valid.
// Used by the parser and by the UI after every edit, so both reject the same inputs.
InputError validate_scenario(const Scenario& s);

const char* to_string(Method m);
const char* to_string(Precision p);
const char* to_string(Optimizer o);
const char* to_string(Recompute r);
const char* to_string(Offload o);
const char* to_string(PricingMode m);
const char* to_string(FrameworkKind f);
const char* to_string(EpDispatcher d);
// Pretraining runs on Megatron-LM; fine-tuning on Hugging Face Transformers (with PEFT for LoRA).
FrameworkKind default_framework(Method m);
// The defaults that follow the framework, for the fields the input did not name: the parser's, and
// the planner's when it estimates a layout in the framework that launches it (apply_layout).
void apply_framework_defaults(Scenario& s);

}  // namespace llmplan
