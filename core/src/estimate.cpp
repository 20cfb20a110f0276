// estimate.cpp: the estimate pipeline on a validated scenario, its warnings and its JSON. Result
// keys are a public contract (docs/results.md): add, never rename.
#include "llmplan/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

#include "llmplan/calibrate.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

using json = nlohmann::ordered_json;  // keeps keys in the documented order

namespace {

// The cluster and layout as the scenario gives them, and the data parallelism they imply.
void explain_layout(const Scenario& s, const EstimateResult& r, Explainer& ex) {
  const Cluster& c = s.cluster;
  const Parallel& x = s.parallel;
  ex.add("cluster.gpus", c.gpus, "GPUs", "scenario cluster.gpus (or instance GPUs x nodes)", {});
  ex.add("cluster.gpus_per_node", c.gpus_per_node, "GPUs",
         "scenario cluster.gpus_per_node (or the instance's), min(8, gpus) by default", {});
  ex.add("cluster.nodes", c.nodes(), "nodes", "gpus / gpus_per_node (1 when gpus <= gpus_per_node)",
         {{"gpus", static_cast<double>(c.gpus)}, {"gpus_per_node", static_cast<double>(c.gpus_per_node)}});
  ex.add("layout.gpus", c.gpus, "GPUs", "tp x cp x pp x dp",
         {{"tp", static_cast<double>(x.tp)},
          {"cp", static_cast<double>(x.cp)},
          {"pp", static_cast<double>(x.pp)},
          {"dp", static_cast<double>(r.dp)}});
  ex.add("layout.tp", x.tp, "GPUs", "scenario parallel.tp (tensor parallel, Megatron)", {});
  ex.add("layout.pp", x.pp, "stages", "scenario parallel.pp (pipeline stages, 1F1B)", {});
  ex.add("layout.cp", x.cp, "GPUs", "scenario parallel.cp (context parallel: each sequence split over cp GPUs)", {});
  ex.add("layout.ep", x.ep, "GPUs",
         "scenario parallel.ep (expert parallel: the routed experts split over ep of the data-parallel GPUs)", {});
  ex.add("layout.vp", x.vp, "stages", "scenario parallel.vp (virtual pipeline stages per rank, interleaved 1F1B)", {});
  ex.add("layout.dp", r.dp, "replicas", "gpus / (tp x cp x pp)",
         {{"gpus", static_cast<double>(c.gpus)},
          {"tp", static_cast<double>(x.tp)},
          {"cp", static_cast<double>(x.cp)},
          {"pp", static_cast<double>(x.pp)}});
  ex.add("layout.zero", x.zero, "stage",
         "scenario parallel.zero: 1 shards optimizer states, 2 + gradients, 3 + weights (ZeRO paper)", {});
  ex.add("layout.micro_batch", s.micro_batch, "sequences", "scenario micro_batch: sequences per GPU per micro-batch",
         {});
  ex.add("layout.global_batch", r.global_batch, "sequences", "scenario global_batch, or micro_batch x dp when 0",
         {{"micro_batch", static_cast<double>(s.micro_batch)}, {"dp", static_cast<double>(r.dp)}});
  ex.add("layout.grad_accum", r.grad_accum, "micro-batches", "global_batch / (micro_batch x dp)",
         {{"global_batch", static_cast<double>(r.global_batch)},
          {"micro_batch", static_cast<double>(s.micro_batch)},
          {"dp", static_cast<double>(r.dp)}});
  ex.add("layout.pp_flushes", s.pp_schedules(), "flushes",
         "pipeline schedules a step: parallel.pp_flushes with pipeline stages (torchtitan runs one per "
         "gradient-accumulation step), each filling and draining the pipeline; 1 without a pipeline",
         {{"pp", static_cast<double>(s.parallel.pp)}, {"pp_flushes", static_cast<double>(s.parallel.pp_flushes)}});
}

// Planning rule of thumb (Tier in estimate.hpp). "Over 70B" means above the 70B class: Llama 3.1
// 70B counts 70.6 B parameters and a one-node full fine-tune of it is L2 (docs/results.md).
constexpr double kTierL3Params = 72e9;

Tier tier_of(const Scenario& s, const ParamCount& p) {
  if (s.cluster.nodes() > 1 || p.total > kTierL3Params) return Tier::l3;
  if (s.cluster.gpus <= 2 && p.total <= 13.5e9) return Tier::l1;
  return Tier::l2;
}

// The kernel with the catalog's fastest rate on this accelerator at this scenario's length and head
// dimension (attention_efficiency x attention_length_scale x attention_head_dim_scale) when the kernel the scenario
// names runs at under half of it: `used` is the rate the estimate gave the named kernel (its own, or FlashAttention-2's
// where it has none, at the same length). auto_ when no kernel is named or none is
// that much faster.
AttentionKernel much_faster_attention_kernel(const Scenario& s, double used) {
  const AttentionKernel named = s.parallel.attention_kernel;
  if (!s.parallel.flash_attention || named == AttentionKernel::auto_ || used <= 0) return AttentionKernel::auto_;
  // Every kernel's rate at this scenario's length, as the named kernel's `used` is.
  int best = 0;
  double best_rate = 0;
  for (int k = 1; k < kAttentionKernels; ++k) {
    const double rate = measured_attention_rate(s, static_cast<AttentionKernel>(k));
    if (rate > best_rate) best = k, best_rate = rate;
  }
  return best_rate > 2 * used ? static_cast<AttentionKernel>(best) : AttentionKernel::auto_;
}

// Fills r.warnings in place from the rest of r: no copy of the whole list on every estimate.
void add_warnings(const Scenario& s, EstimateResult& r) {
  Warnings& w = r.warnings;
  const Cluster& c = s.cluster;
  const int nodes = c.nodes();
  const int per_node = std::min(c.gpus, c.gpus_per_node);
  if (!r.memory.fits) {
    Warning m{WarningCode::memory_exceeds, r.memory.per_gpu.total(), r.memory.capacity_bytes, c.gpus == 1};
    m.remedies = memory_remedies(s, r.memory);
    w.add(m);
  }
  // Early in the list: it says how far every time and cost figure may be off (the card shows three).
  const SlowPath path = slow_path_of(s);
  if (path != SlowPath::none) {
    const SlowPathEvidence& e = builtin_slow_path_evidence(path);
    if (e.warns()) {
      Warning k{WarningCode::known_slow_path, e.median, e.lowest};
      k.rule = kSlowPathNames[static_cast<int>(path)];
      k.runs = e.runs;
      k.high = e.highest;
      w.add(k);
    }
  }
  if (s.parallel.tp > c.gpus_per_node)
    w.add({WarningCode::tp_crosses_nodes, static_cast<double>(s.parallel.tp), static_cast<double>(c.gpus_per_node)});
  if (s.max_context > 0 && s.seq_len > s.max_context)
    w.add({WarningCode::seq_exceeds_context, static_cast<double>(s.seq_len), static_cast<double>(s.max_context)});
  if (nodes > 1 && !s.network.rdma) w.add({WarningCode::multinode_without_rdma, s.network.node_gb_per_s * 8, 100});
  if (s.storage.data_kind == "block")
    w.add({WarningCode::data_on_block_disk, s.storage.data_read_mb_per_s, r.io.data_bytes_per_s / 1e6});
  if (r.io.data_utilisation > 1.0)
    w.add({WarningCode::io_bound, r.io.data_bytes_per_s / 1e6, s.storage.data_read_mb_per_s});
  const double node_gpu_gb = per_node * c.gpu_memory_gb;
  if (c.node_ram_gb > 0 && c.node_ram_gb < 2 * node_gpu_gb)
    w.add({WarningCode::host_ram_below_2x_gpu, c.node_ram_gb, 2 * node_gpu_gb});
  if (c.node_vcpus > 0 && c.node_vcpus < 16) w.add({WarningCode::few_vcpus, c.node_vcpus, 16});
  if (per_node > 1 && c.intra_node_gb_per_s < 100 && (s.parallel.tp > 1 || s.dp() > 1))
    w.add({WarningCode::pcie_only_gpus, c.intra_node_gb_per_s, 100});
  if (nodes > 1 && s.storage.checkpoint_kind == "local_nvme")
    w.add({WarningCode::checkpoints_on_local_disk, static_cast<double>(nodes), 1});
  if (c.node_ram_gb > 0 && r.memory.cpu_offload_bytes_per_node > c.node_ram_gb * 1e9)
    w.add({WarningCode::offload_exceeds_host_ram, r.memory.cpu_offload_bytes_per_node, c.node_ram_gb * 1e9});
  const double exposed = r.time.comm.exposed_s();
  if (exposed > r.time.step_s / 3) w.add({WarningCode::comm_dominates, exposed, r.time.step_s});
  if (s.pricing.usd_per_gpu_hour <= 0) w.add({WarningCode::no_price, 0, 0});
  if (s.pricing.mode == PricingMode::spot && s.pricing.spot_interruptions_per_hour <= 0)
    w.add({WarningCode::spot_without_rate, 0, 0});
  // The planner searches only layouts some framework runs (layouts.hpp); say so of one that none
  // does, with its rule, unless torchtitan runs it (its job config covers ZeRO-3 with PP, per-op SAC).
  const FrameworkChoice runs = framework_for(layout_of(s), s.model, s.method);
  if (s.method == Method::qlora && !runs_qlora(c)) {
    Warning u{WarningCode::unsupported_layout, 0, 0};
    u.rule = kQloraVendorRule;
    w.add(u);
  } else if (runs.framework == Framework::none && !(s.framework == FrameworkKind::torchtitan && torchtitan_runs(s))) {
    Warning u{WarningCode::unsupported_layout, 0, 0};
    u.rule = runs.reason;
    w.add(u);
  }
  if (r.cost.billed_hours > r.cost.used_hours && r.cost.usd_per_gpu_hour > 0)
    w.add({WarningCode::minimum_billing, r.cost.billed_hours * 3600, r.cost.used_hours * 3600});
  // A reservation bills its whole term whether used or not; the cost counts only the run's hours.
  if (const double term_h = reservation_term_hours(s.pricing.mode);
      term_h > 0 && r.cost.used_hours > 0 && r.cost.used_hours < term_h && r.cost.usd_per_gpu_hour > 0)
    w.add({WarningCode::reserved_term, term_h * 3600, r.cost.used_hours * 3600});
  if (r.time.mfu > 1) w.add({WarningCode::mfu_above_one, r.time.mfu, r.time.executed_fraction});
  if (r.reliability.overhead_fraction > 1)
    w.add({WarningCode::failures_dominate, r.reliability.overhead_fraction, r.reliability.mtbi_h * 3600});
  // Only where attention is a tenth of the step or more: below that the kernel hardly matters.
  const double used = r.time.attention_efficiency;
  const AttentionKernel faster = much_faster_attention_kernel(s, used);
  if (faster != AttentionKernel::auto_ && r.time.attention_s >= r.time.step_s / 10) {
    Warning k{WarningCode::slow_attention_kernel, r.time.attention_s,
              r.time.attention_s * used / measured_attention_rate(s, faster)};
    k.rule = kAttentionKernelNames[static_cast<int>(faster)];
    w.add(k);
  }
}

}  // namespace

namespace {
ScalingResult estimate_scaling(const Scenario& s, const ParamCount& p, Explainer* ex) {
  ScalingResult r;
  r.params = p.active;
  r.tokens = s.training_tokens();
  r.tokens_per_param = r.tokens / r.params;
  r.rule_tokens = kComputeOptimalTokensPerParam * r.params;
  r.law_tokens = law_optimal_tokens(kBesiroglu2024, r.params);
  r.budget_flops = 6 * r.params * r.tokens;
  const ComputeOptimal opt = compute_optimal(kBesiroglu2024, r.budget_flops);
  r.optimal_params = opt.params;
  r.optimal_tokens = opt.tokens;
  r.regime = training_regime(r.params, r.tokens);
  r.applies = s.method == Method::pretrain;
  if (!ex) return r;
  ex->add("scaling.params", r.params, "1", "parameters a token uses (all of a dense model's, an MoE's active ones)",
          {{"active_params", p.active}});
  ex->add("scaling.tokens", r.tokens, "1", "training tokens", {});
  ex->add("scaling.tokens_per_param", r.tokens_per_param, "1", "tokens / params",
          {{"tokens", r.tokens}, {"params", r.params}});
  ex->add("scaling.rule_tokens", r.rule_tokens, "1",
          "20 x params: compute-optimal tokens by Hoffmann et al. 2022 Table 3 (about 20 tokens per parameter)",
          {{"params", r.params}});
  ex->add("scaling.law_tokens", r.law_tokens, "1",
          "D such that N_opt(6 N D) = N, N_opt(C) = G (C/6)^(beta/(alpha+beta)), G = (alpha A / (beta "
          "B))^(1/(alpha+beta)); "
          "Besiroglu et al. 2024 refit of Hoffmann et al. 2022 approach 3",
          {{"A", kBesiroglu2024.A},
           {"B", kBesiroglu2024.B},
           {"alpha", kBesiroglu2024.alpha},
           {"beta", kBesiroglu2024.beta},
           {"params", r.params}});
  ex->add("scaling.budget_flops", r.budget_flops, "FLOP", "6 x params x tokens (Kaplan et al. 2020)",
          {{"params", r.params}, {"tokens", r.tokens}});
  ex->add("scaling.optimal_params", r.optimal_params, "1", "G (C/6)^(beta/(alpha+beta)) for this run's compute C",
          {{"budget_flops", r.budget_flops}});
  ex->add("scaling.optimal_tokens", r.optimal_tokens, "1", "(C/6)^(alpha/(alpha+beta)) / G for this run's compute C",
          {{"budget_flops", r.budget_flops}});
  ex->add("scaling.applies", r.applies ? 1 : 0, "1",
          "1 for pretraining from scratch (method pretrain), which the laws are about; continued pretraining and "
          "fine-tuning: 0",
          {});
  return r;
}
}  // namespace

EstimateResult estimate(const Scenario& s, const Calibration& cal, Explainer* ex) {
  EstimateResult r;
  r.params = count_params(s.model, s.techniques.mtp_layers, ex);
  r.dp = s.dp();
  r.global_batch = s.effective_global_batch();
  r.grad_accum = s.grad_accum();
  if (ex) explain_layout(s, r, *ex);
  r.memory = estimate_memory(s, r.params, cal, ex);
  const Compute compute = estimate_compute(s, r.params, r.memory, cal, ex);
  const Comm comm = estimate_comm(s, r.params, r.memory, compute, cal, ex);
  r.time = estimate_time(s, r.memory, compute, comm, cal, ex);
  r.io = estimate_io(s, r.time, cal, ex);
  r.reliability = estimate_reliability(s, r.memory, r.time, r.io, ex);
  r.cost = estimate_cost(s, r.time, r.reliability, ex);
  r.scaling = estimate_scaling(s, r.params, ex);
  r.tier = tier_of(s, r.params);
  add_warnings(s, r);
  return r;
}

const char* warning_code(WarningCode code) {
  static const char* names[] = {"memory_exceeds",
                                "tp_crosses_nodes",
                                "seq_exceeds_context",
                                "multinode_without_rdma",
                                "data_on_block_disk",
                                "io_bound",
                                "host_ram_below_2x_gpu",
                                "few_vcpus",
                                "pcie_only_gpus",
                                "checkpoints_on_local_disk",
                                "offload_exceeds_host_ram",
                                "comm_dominates",
                                "no_price",
                                "spot_without_rate",
                                "minimum_billing",
                                "unsupported_layout",
                                "mfu_above_one",
                                "failures_dominate",
                                "slow_attention_kernel",
                                "known_slow_path",
                                "reserved_term"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(WarningCode::count));
  return names[static_cast<int>(code)];
}

namespace {

// A slow path (kSlowPathNames) in the words of the known_slow_path warning.
std::string slow_path_words(std::string_view path) {
  if (path == kSlowPathNames[static_cast<int>(SlowPath::dropless_moe_small_batch)])
    return "Megatron's dropless all-to-all MoE dispatch at small micro-batches (up to " +
           format_number("%.0f", kSlowMoeTokens) + " tokens a GPU), which waits on the host once per MoE layer,";
  if (path == kSlowPathNames[static_cast<int>(SlowPath::pytorch_ring_attention)])
    return "PyTorch's context parallelism (torchtitan's ring attention)";
  if (path == kSlowPathNames[static_cast<int>(SlowPath::pytorch_expert_parallel)])
    return "PyTorch-native expert parallelism (FSDP2 stacks such as NeMo AutoModel and torchtitan)";
  return "this software path";
}

}  // namespace

unsigned memory_remedies(const Scenario& s, const MemoryResult& memory) {
  const Parallel& p = s.parallel;
  // The weights train (not adapters or frozen layers): their optimizer state is what 8-bit Adam and
  // ZeRO-Offload shrink, and adapters would drop it.
  const bool full_weights = s.method == Method::pretrain || s.method == Method::continued || s.method == Method::full;
  // The logits and the loss's fp32 copies are a tenth of the peak or more (Hugging Face's loss at a
  // large vocabulary): a fused or chunked cross-entropy removes most of them.
  const bool big_logits = memory.per_gpu.logits >= 0.1 * memory.per_gpu.total();
  const bool loss_unchunked =
      !fuses_output_layer(s.techniques.fused_loss) && s.techniques.loss_chunks == 1;  // whole logits at once
  const bool applies[] = {
      s.cluster.gpus > 1 && p.zero < 3 && s.dp() > 1,            // raise_zero
      s.cluster.gpus > 1,                                        // model_parallel
      p.recompute != Recompute::full || p.recompute_layers > 0,  // recompute (every block)
      s.micro_batch > 1,                                         // lower_micro_batch
      big_logits && loss_unchunked,                              // chunked_loss
      full_weights,                                              // adapters
      s.method == Method::lora,                                  // qlora
      full_weights && s.optimizer == Optimizer::adamw,           // eight_bit_optimizer
      full_weights && p.offload == Offload::none,                // offload_optimizer
      true,                                                      // bigger_gpu
  };
  static_assert(std::size(applies) == static_cast<size_t>(MemoryRemedy::count));
  unsigned bits = 0;
  for (size_t i = 0; i < std::size(applies); ++i)
    if (applies[i]) bits |= 1u << i;
  return bits;
}

const char* memory_remedy_words(MemoryRemedy m) {
  static const char* words[] = {"raise the ZeRO stage (3 shards the weights too)",
                                "raise tensor or pipeline parallelism",
                                "recompute activations",
                                "lower the micro-batch",
                                "use a fused or chunked cross-entropy (techniques.fused_loss, loss_chunks)",
                                "train LoRA/QLoRA adapters instead of every weight",
                                "load the frozen weights in 4 bits (QLoRA)",
                                "use an 8-bit optimizer",
                                "offload the optimizer to CPU",
                                "take a GPU with more memory"};
  static_assert(std::size(words) == static_cast<size_t>(MemoryRemedy::count));
  return words[static_cast<int>(m)];
}

std::vector<MemoryRemedy> remedies_in(unsigned bits) {
  std::vector<MemoryRemedy> out;
  for (unsigned i = 0; i < static_cast<unsigned>(MemoryRemedy::count); ++i)
    if ((bits >> i) & 1u) out.push_back(static_cast<MemoryRemedy>(i));
  return out;
}

namespace {

// "a, b, or c": the remedies a memory_exceeds warning advises.
std::string remedy_list(const Warning& w) {
  std::vector<std::string> parts;
  for (const MemoryRemedy m : remedies_in(w.remedies)) parts.emplace_back(memory_remedy_words(m));
  return join_list(parts, ", ", ", or ");
}

}  // namespace

std::string warning_message(const Warning& w) {
  switch (w.code) {
    case WarningCode::memory_exceeds:
      return "Needs " + format_bytes(w.value) + (w.one_gpu ? "" : " per GPU") + " but the GPU has " +
             format_bytes(w.limit) + ": " + remedy_list(w) + ".";
    case WarningCode::tp_crosses_nodes:
      return "Tensor parallelism of " + format_count(w.value) + " spans nodes of " + format_count(w.limit) +
             " GPUs: its per-layer all-reduces then cross the inter-node network (one user measured 3x slower than one "
             "node). "
             "Keep TP within a node and use pipeline/data parallelism across nodes.";
    case WarningCode::seq_exceeds_context:
      return "Sequence length " + format_count(w.value) + " exceeds the model's trained context of " +
             format_count(w.limit) + " tokens; long-context training needs position scaling (e.g. RoPE scaling).";
    case WarningCode::multinode_without_rdma:
      return "Several nodes without RDMA: gradients cross " + format_count(w.value) +
             " Gb/s kernel TCP. For scale: 28 GB of gradients take 224 s over 1 GbE and ~10 s over 25 Gb/s while a "
             "step "
             "computes in 1-2 s. Use InfiniBand or RoCE (>= " +
             format_count(w.limit) + " Gb/s per node, 400 per GPU is typical).";
    case WarningCode::data_on_block_disk:
      return "Training data on a cloud block disk (" + format_count(w.value) + " MB/s for the job; the GPUs read " +
             format_count(w.limit) +
             " MB/s). Block disks stall multi-GPU jobs and cannot be shared: stage data to local "
             "NVMe or use a parallel file system.";
    case WarningCode::io_bound:
      return "The data tier gives " + format_count(w.limit) + " MB/s but the GPUs consume " + format_count(w.value) +
             " MB/s: steps wait for data. Use local NVMe or a faster tier.";
    case WarningCode::host_ram_below_2x_gpu:
      return "Host RAM " + format_count(w.value) + " GB is under twice the node's GPU memory (" +
             format_count(w.limit) + " GB): checkpoint loading, pinned buffers and offload need headroom.";
    case WarningCode::few_vcpus:
      return "Only " + format_count(w.value) +
             " vCPUs per node (one user measured 8 vCPUs dropping one H100 from 90 % to under 60 % "
             "utilisation; 32 kept up). Choose at least " +
             format_count(w.limit) + ".";
    case WarningCode::pcie_only_gpus:
      return "GPUs talk over PCIe only (" + format_count(w.value) +
             " GB/s per direction, NVLink gives 300-900): gradient and "
             "tensor-parallel traffic between them is slow. For a small model one larger GPU is often faster than two "
             "small ones.";
    case WarningCode::checkpoints_on_local_disk:
      return "Checkpoints of a job on " + format_count(w.value) +
             " nodes go to local disks: losing a node loses its shard. "
             "Save to shared storage (parallel file system or object storage).";
    case WarningCode::offload_exceeds_host_ram:
      return "CPU offload needs " + format_bytes(w.value) + " of host RAM per node but the node has " +
             format_bytes(w.limit) + ".";
    case WarningCode::comm_dominates:
      return "Exposed communication takes " + format_duration(w.value) + " of a " + format_duration(w.limit) +
             " step: the network, not the GPUs, sets the pace.";
    case WarningCode::no_price:
      return "No price for this accelerator and pricing mode in the catalog: give pricing.usd_per_gpu_hour to see "
             "costs.";
    case WarningCode::spot_without_rate:
      return "Spot pricing without pricing.spot_interruptions_per_hour: interruptions, lost work and checkpoint "
             "cadence are "
             "not accounted for.";
    case WarningCode::minimum_billing:
      return "The offering bills a minimum block: " + format_duration(w.value) + " billed for " +
             format_duration(w.limit) + " used, and the cost counts the whole block.";
    case WarningCode::reserved_term:
      return "A reservation bills every hour of its " + format_duration(w.value) +
             " term, used or not; this run uses " + format_duration(w.limit) +
             " of it. The cost counts only those hours, a share of a reservation kept busy with other work; reserved "
             "for this run alone, the whole term is billed (compare pricing.mode on_demand or spot).";
    case WarningCode::unsupported_layout:
      return std::string("No framework the planner targets runs this layout: ") + w.rule +
             ". The figures assume it runs; the planner would not propose it.";
    case WarningCode::mfu_above_one:
      return "MFU is " + format_number("%.2f", w.value) +
             ": the Megatron convention counts attention without causal masking, twice what a causal kernel runs, "
             "so at long sequences it can pass 1. The GPU runs " +
             format_percent(w.limit) + " of its peak (time.executed_fraction).";
    case WarningCode::failures_dominate:
      return "Interruptions (one every " + format_duration(w.limit) + " across the job) and their restarts add " +
             format_number("%.1f", w.value) +
             "x the training time: the job spends more time recovering than training, and this first-order "
             "estimate understates it. Use fewer GPUs, faster restarts (pricing.restart_h) or checkpoint more often.";
    case WarningCode::slow_attention_kernel:
      return "Attention takes " + format_duration(w.value) + " a step with the kernel this scenario names; \"" +
             w.rule +
             "\", which the catalog rates at more than twice its rate on this GPU at this sequence length and "
             "head dimension (attention_efficiency, attention_length_scale, attention_head_dim_scale), " +
             "would take about " + format_duration(w.limit) +
             ". Name it in parallel.attention_kernel if the framework runs it.";
    case WarningCode::known_slow_path:
      return "Published runs on " + slow_path_words(w.rule) + " ran at " + format_number("%.2f", w.limit) + "x to " +
             format_number("%.2f", w.high) + "x the throughput estimated for them (" + std::to_string(w.runs) +
             " runs), for a cost the model does not count yet. The time and cost shown are not adjusted: at the "
             "runs' median a step takes " +
             format_number("%.1f", 1 / w.value) + "x as long; budget for it (docs/validation.md lists the runs).";
    case WarningCode::count: break;
  }
  return "";
}

const char* to_string(Tier t) {
  static const char* names[] = {"L1", "L2", "L3"};
  return names[static_cast<int>(t)];
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
          {"off_peak_bytes", {{"gradients", b.off_peak_gradients}, {"activations", b.off_peak_activations}}},
          {"capacity_bytes", m.capacity_bytes},
          {"headroom_bytes", m.headroom_bytes},
          {"fits", m.fits},
          {"max_micro_batch", m.max_micro_batch},
          {"stage", to_string(m.stage)},
          {"trainable_params", m.trainable_params},
          {"cpu_offload_bytes_per_node", m.cpu_offload_bytes_per_node},
          {"nvme_offload_bytes_per_node", m.nvme_offload_bytes_per_node}};
}

json time_json(const TimeResult& t, const ReliabilityResult& rel) {
  return {{"step_s", t.step_s},
          {"compute_s", t.compute_s},
          {"expert_imbalance_s", t.expert_imbalance_s},
          {"exposed_comm_s", t.comm.exposed_s()},
          {"bubble_s", t.bubble_s},
          {"offload_s", t.offload_s},
          {"activation_offload_s", t.activation_offload_s},
          {"io_stall_s", t.io_stall_s},
          {"tokens_per_step", t.tokens_per_step},
          {"tokens_per_s", t.tokens_per_s},
          {"mfu", t.mfu},
          {"hfu", t.hfu},
          {"executed_fraction", t.executed_fraction},
          {"model_tflops_per_gpu", t.model_tflops_per_gpu},
          {"achieved_tflops_per_gpu", t.achieved_tflops},
          {"gemm_efficiency", t.gemm_efficiency},
          {"attention_efficiency", t.attention_efficiency},
          {"attention_s", t.attention_s},
          {"qlora_dequant_s", t.qlora_dequant_s},
          {"moe_permute_s", t.moe_permute_s},
          {"lora_adapter_s", t.lora_adapter_s},
          {"cp_merge_s", t.cp_merge_s},
          {"stage_imbalance", t.stage_imbalance},
          {"model_flops_per_token", t.flops.model_per_token},
          {"model_flops_per_step", t.flops.model_per_step},
          {"steps", t.steps},
          {"training_hours", t.training_hours},
          {"total_hours", rel.total_hours},
          {"total_days", rel.total_hours / 24.0}};
}

json comm_json(const Comm& c) {
  auto one = [](double bytes, double s, double exposed, bool inter) {
    return json{{"bytes", bytes}, {"s", s}, {"exposed_s", exposed}, {"link", inter ? "inter_node" : "intra_node"}};
  };
  return {{"tp", one(c.tp_bytes, c.tp_s, c.tp_exposed_s, c.tp_inter_node)},
          {"pp", one(c.pp_bytes, c.pp_s, c.pp_exposed_s, c.pp_inter_node)},
          {"dp", one(c.dp_bytes, c.dp_s, c.dp_exposed_s, c.dp_inter_node)},
          {"cp", one(c.cp_bytes, c.cp_s, c.cp_exposed_s, c.cp_inter_node)},
          {"ep", one(c.ep_bytes, c.ep_s, c.ep_exposed_s, c.ep_inter_node)},
          {"intra_node_bytes", c.intra_bytes()},
          {"inter_node_bytes", c.inter_bytes()}};
}
// Blocks on each pipeline stage, first to last (pipeline_split).
nlohmann::ordered_json stage_layers_json(const Scenario& s) {
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (int i = 0; i < s.parallel.pp; ++i) out.push_back(split.stage(i, s.parallel.pp));
  return out;
}
// Of those, the blocks whose forward full recompute runs again (recomputed_layers): every one, or
// with parallel.recompute_layers the first N of each chunk; 0 without full recompute.
nlohmann::ordered_json stage_recomputed_layers_json(const Scenario& s) {
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (int i = 0; i < s.parallel.pp; ++i) out.push_back(recomputed_layers(s, split.stage(i, s.parallel.pp)));
  return out;
}

// "ranges": result path -> {low, high, level, cases} (ranges.hpp).

std::vector<std::string> note_texts(const TrialReport& report) {
  std::vector<std::string> out;
  for (const TrialNote& n : report.notes) out.push_back(n.text);
  return out;
}
}  // namespace

json calibration_json(const Scenario& s, const Catalog& catalog, const Calibration& cal) {
  const TrialReport report = trial_report(s, catalog, cal);
  json reproduced = json::object();
  for (const Reproduced& x : report.reproduced)
    reproduced[x.path.substr(std::string("calibration.").size())] = {{"measured", x.measured},
                                                                     {"estimated", x.estimated}};
  json factors = json::object();
  if (s.factors.throughput) factors["compute"] = s.factors.compute;
  if (s.factors.memory_measured) factors["memory"] = s.factors.memory;
  const Scenario trial = trial_scenario(s, catalog);
  return {{"summary", calibration_sentence(s, catalog)},
          {"trial", {{"accelerator", trial.cluster.accelerator}, {"gpus", trial.cluster.gpus}}},
          {"factors", factors},
          {"reproduced", reproduced},
          {"accelerator", s.factors.accelerator},
          {"applies", s.calibrated()},
          {"same_layout", s.factors.same_layout},
          {"notes", note_texts(report)}};
}

namespace {

json ranges_json(const std::vector<FigureRange>& ranges) {
  json out = json::object();
  for (const FigureRange& f : ranges)
    out[f.path] = {
        {"low", f.low}, {"high", f.high}, {"level", kRangeLevel}, {"cases", f.cases}, {"basis", to_string(f.basis)}};
  return out;
}

json result_json(const Scenario& s, const EstimateResult& r, const Catalog& catalog) {
  json warnings = json::array();
  for (int i = 0; i < r.warnings.count; ++i) {
    const Warning& w = r.warnings.items[static_cast<size_t>(i)];
    json item = {
        {"code", warning_code(w.code)}, {"message", warning_message(w)}, {"value", w.value}, {"limit", w.limit}};
    // What a translation needs beyond the numbers (the embed card words each code in its language).
    if (w.code == WarningCode::memory_exceeds) {
      item["one_gpu"] = w.one_gpu;
      json remedies = json::array();
      for (const MemoryRemedy m : remedies_in(w.remedies)) remedies.push_back(kMemoryRemedyIds[static_cast<int>(m)]);
      item["remedies"] = remedies;
    }
    if (w.code == WarningCode::unsupported_layout) {
      item["rule"] = w.rule;
      item["rule_id"] = layout_rule_id(w.rule);
    }
    if (w.code == WarningCode::slow_attention_kernel) item["kernel"] = w.rule;
    if (w.code == WarningCode::known_slow_path) {
      item["slow_path"] = w.rule;
      item["runs"] = w.runs;
      item["highest"] = w.high;
    }
    warnings.push_back(std::move(item));
  }
  json model = {{"params", params_json(r.params)}};
  if (!s.model_preset.empty()) model["preset"] = s.model_preset;
  const IoResult& io = r.io;
  const ReliabilityResult& rel = r.reliability;
  return {{"llmplan_version", LLMPLAN_VERSION},
          {"catalog_version", catalog.catalog_version},
          {"model", model},
          {"cluster",
           {{"accelerator", s.cluster.accelerator},
            {"instance", s.cluster.instance},
            {"gpus", s.cluster.gpus},
            {"gpus_per_node", s.cluster.gpus_per_node},
            {"nodes", s.cluster.nodes()},
            {"inter_node_link", s.network.inter_node_link}}},
          {"layout",
           {{"gpus", s.cluster.gpus},
            {"tp", s.parallel.tp},
            {"pp", s.parallel.pp},
            {"dp", r.dp},
            {"cp", s.parallel.cp},
            {"ep", s.parallel.ep},
            {"vp", s.parallel.vp},
            {"zero", s.parallel.zero},
            {"micro_batch", s.micro_batch},
            {"global_batch", r.global_batch},
            {"grad_accum", r.grad_accum},
            {"pp_flushes", s.pp_schedules()},
            {"stage_layers", stage_layers_json(s)},
            {"stage_recomputed_layers", stage_recomputed_layers_json(s)}}},
          {"memory", memory_json(r.memory)},
          {"time", time_json(r.time, rel)},
          {"gpu_hours", rel.gpu_hours},
          {"comm", comm_json(r.time.comm)},
          {"io",
           {{"data_bytes_per_s", io.data_bytes_per_s},
            {"data_tier_bytes_per_s", io.data_tier_bytes_per_s},
            {"data_utilisation", io.data_utilisation},
            {"input_cores_per_node", io.input_cores_per_node},
            {"dataset_bytes", io.dataset_bytes},
            {"staging_h", io.staging_h},
            {"staging_source", s.storage.staging_source}}},
          {"checkpoint",
           {{"size_bytes", rel.checkpoint_bytes},
            {"write_s", rel.checkpoint_write_s},
            {"interval_h", rel.checkpoint_interval_h},
            {"interruptions_per_hour", rel.interruptions_per_hour},
            {"overhead_fraction", rel.overhead_fraction},
            {"expected_interruptions", rel.expected_interruptions},
            {"lost_work_h", rel.lost_work_h},
            {"retention_bytes", rel.retention_bytes}}},
          {"cost",
           {{"usd_per_gpu_hour", r.cost.usd_per_gpu_hour},
            {"used_hours", r.cost.used_hours},
            {"billed_hours", r.cost.billed_hours},
            {"price_source", s.pricing.price_source},
            {"mode", to_string(s.pricing.mode)},
            {"overhead_factor", s.pricing.overhead_factor},
            {"compute_usd", r.cost.compute_usd},
            {"storage_usd", r.cost.storage_usd},
            {"total_usd", r.cost.total_usd},
            {"usd_per_billion_tokens", r.cost.usd_per_billion_tokens},
            {"total_cny", r.cost.total_cny},
            {"usd_to_cny", r.cost.usd_to_cny},
            {"currency", kCurrencyNames[static_cast<int>(s.pricing.currency)]}}},
          {"scaling",
           {{"params", r.scaling.params},
            {"tokens", r.scaling.tokens},
            {"tokens_per_param", r.scaling.tokens_per_param},
            {"rule_tokens", r.scaling.rule_tokens},
            {"law_tokens", r.scaling.law_tokens},
            {"budget_flops", r.scaling.budget_flops},
            {"optimal_params", r.scaling.optimal_params},
            {"optimal_tokens", r.scaling.optimal_tokens},
            {"regime", kTrainingRegimeNames[static_cast<int>(r.scaling.regime)]},
            {"applies", r.scaling.applies}}},
          {"tier", to_string(r.tier)},
          {"warnings", warnings}};
}

// JSON has no infinity: write null.
double finite(double v) { return std::isfinite(v) ? v : 0.0; }

json explain_json(const Explainer& ex) {
  json out = json::object();
  for (const Explanation& e : ex.items()) {
    json inputs = json::object();
    for (const auto& [name, v] : e.inputs) inputs[name] = finite(v);
    out[e.key] = {{"value", finite(e.value)}, {"unit", e.unit}, {"formula", e.formula}, {"inputs", inputs}};
  }
  return out;
}

}  // namespace

JsonResponse estimate_json(std::string_view scenario_json, const Catalog& catalog, const Calibration& cal,
                           bool explain) {
  JsonResponse out;
  ScenarioParse parse = parse_scenario(scenario_json, catalog);
  if (!parse.scenario) {
    out.error = parse.error;
    out.body = json{{"error", {{"field", parse.error.field}, {"message", parse.error.message}}}}.dump();
    return out;
  }
  const Scenario& s = *parse.scenario;
  Explainer ex;
  const EstimateResult r = estimate(s, cal, explain ? &ex : nullptr);
  json body = result_json(s, r, catalog);
  if (s.measured.any()) body["calibration"] = calibration_json(s, catalog, cal);
  body["ranges"] = ranges_json(figure_ranges(s, r, builtin_residuals(), explain ? &ex : nullptr));
  if (explain) body["explain"] = explain_json(ex);
  out.ok = true;
  out.body = body.dump(2);
  return out;
}

}  // namespace llmplan
