// performance.cpp: the estimate's steps after memory, in pipeline order: compute, communication,
// step time, data IO, reliability and cost. Each step returns its own result and records the
// explanation of each figure next to the formula that makes it.
//
// [SECTION] FLOPs (Kaplan et al. 2020 6N; Narayanan et al. 2021 §5.1)
// [SECTION] Context, expert and virtual pipeline parallelism
// [SECTION] Compute step: achieved rate and compute time
// [SECTION] Communication step (ring collectives, nccl-tests bus bandwidth)
// [SECTION] Time step
// [SECTION] IO step: feeding the data
// [SECTION] Reliability step: checkpoints and interruptions (Young 1974 / Daly 2006)
// [SECTION] Cost step
#include "llmplan/performance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace llmplan {

namespace {

//-----------------------------------------------------------------------------
// [SECTION] FLOPs
//-----------------------------------------------------------------------------

// Parameters that are GEMM weights for one token: the active blocks' linears plus the logit
// projection (embedding lookups and norms cost no GEMM), and the multi-token prediction modules'
// block, projection and second pass through the head.
double matmul_params(const ParamCount& p, const ModelArch& m) {
  return p.active - p.embedding - p.positions - p.head - p.final_norm - m.layers * p.norms_per_layer +
         static_cast<double>(m.vocab) * m.hidden + p.mtp_matmul;
}

// Passes over a linear layer's weights per token and step, in forward-pass units (2 FLOPs per
// parameter each): the forward (again with full recompute, for the share of the blocks that
// recompute), the data gradients and the weight gradients, which PEFT's frozen weights skip.
double linear_passes(const Scenario& s) { return 1.0 + full_recompute_share(s) + (s.is_peft() ? 1.0 : 2.0); }

// Attention score FLOPs per token, forward: QK^T (2 s q) and scores x V (2 s o) per layer, where
// every query head computes its own scores and its own weighted sum of values: with grouped-query
// attention the heads share K and V, but not this work, so the widths are the query heads' (q and
// the attention output o), never the key/value width (FlashAttention-2 paper, Dao 2023, §3.1:
// 4 s^2 d FLOPs forward per head, for every query head).
//
// Sliding-window blocks attend the last `sliding_window` keys instead of all s (Beltagy et al. 2020,
// "Longformer", §3.1; Jiang et al. 2023, "Mistral 7B", §2): the count takes min(window, s) keys for
// them, in the same no-causal-halving convention.
double attended_keys(const ModelArch& m, int seq_len) {
  const double s = seq_len;
  const int windowed = m.windowed_layers();
  return (m.layers - windowed) * s + windowed * std::min(static_cast<double>(m.sliding_window), s);
}

// Q K^T and scores x V of one token over every query head, for `keys` keys summed over the blocks.
double score_flops(const ModelArch& m, double keys) { return 2.0 * (m.q_width() + m.attn_out_width()) * keys; }

double attention_fwd_flops(const ModelArch& m, int seq_len) { return score_flops(m, attended_keys(m, seq_len)); }

// Forward attention score FLOPs per token of the multi-token prediction modules: one whole-context
// block each.
double mtp_attention_fwd_flops(const ParamCount& p, const ModelArch& m, double keys) {
  return p.mtp_layers * score_flops(m, keys);
}

// Unfused attention (eager softmax(Q K^T) V) computes every score of the sequence and masks the
// ones outside the window afterwards, so its work is the full count whatever the window.
double full_attention_fwd_flops(const ModelArch& m, int seq_len) {
  return score_flops(m, static_cast<double>(seq_len) * m.layers);
}

// What a causal fused kernel computes forward: the scores on and below the diagonal, s / 2 keys a
// query on average; in a windowed block query i attends min(i, w) keys, on average w - w^2 / (2 s)
// when s > w (FlashAttention-2 skips the key blocks outside the window: flash-attn's window_size).
double attention_kernel_fwd_flops(const ModelArch& m, int seq_len) {
  const double s = seq_len, w = m.sliding_window;
  const int windowed = m.windowed_layers();
  const double windowed_keys = s > w ? w - w * w / (2 * s) : s / 2;
  return score_flops(m, (m.layers - windowed) * s / 2 + windowed * windowed_keys);
}

// Per-operator selective checkpointing (torchtitan, selective_ac_option "op": its _save_list keeps
// the outputs of aten.mm and the SDPA kernels, "except every second mm" of a block, counted in
// call order). A Llama block calls q, k, v, o, then w1, w3, w2 (gated) or w1, w2: the second,
// fourth and sixth are k, the output projection and one h x f matrix, whose forward runs again.
double op_checkpoint_recompute_flops(const ModelArch& m) {
  return 2.0 * m.layers * m.hidden * (m.k_width() + m.attn_out_width() + m.active_mlp_width());
}

}  // namespace

double forward_reruns(const Scenario& s) {
  if (s.parallel.recompute == Recompute::selective_op) return 1.0;
  return full_recompute_share(s);
}

double attention_reruns(const Scenario& s) {
  if (s.parallel.recompute == Recompute::full) return full_recompute_share(s);
  return s.parallel.recompute == Recompute::none ? 0.0 : 1.0;
}

double tp_overlapped_collectives_per_layer(const Scenario& s) {
  // Megatron-Core's --tp-comm-overlap (Transformer Engine userbuffers) pipelines the all-gathers and
  // reduce-scatters of the forward and of the backward's data and weight gradients with their GEMMs.
  // PyTorch's async TP (torchtitan --parallelism.enable_async_tensor_parallel, the inductor
  // micro-pipeline TP pass) fuses an all-gather into the matmul that consumes it and a matmul into
  // the reduce-scatter that consumes it: the two pairs of the forward. Its authors report ~20-29 %
  // forward speedup but ~8 % end to end for Llama 3 8B and 70B (PyTorch dev-discuss, 'Introducing
  // Async Tensor Parallelism in PyTorch', 2024): the backward's collectives stay on the critical path.
  if (s.framework == FrameworkKind::megatron) return tp_collectives_per_block(s);
  return 2.0;
}

double tp_collectives_per_block(const Scenario& s) {
  const double t = s.trained_share();
  return 2.0 * (1.0 - t) + t * tp_collectives_per_layer(s.parallel.recompute, full_recompute_share(s));
}

double tp_collectives_per_layer(Recompute r, double recomputing_share) {
  // Forward 2 all-reduces (or all-gather + reduce-scatter pairs), backward 2; full recompute runs
  // the forward pair again in the blocks that recompute; per-operator checkpointing keeps the
  // reduce-scatter outputs (on its save list) and runs only the two all-gathers again, half a
  // pair's volume each.
  switch (r) {
    case Recompute::full: return 4.0 + 2.0 * recomputing_share;
    case Recompute::selective_op: return 5.0;
    default: return 4.0;
  }
}

namespace {
double routed_flops_per_gpu(const Scenario& s, const ParamCount& p);
}  // namespace

Flops training_flops(const Scenario& s, const ParamCount& p, Explainer* ex) {
  const ModelArch& m = s.model;
  const double P = matmul_params(p, m);
  const double attn_model = attention_fwd_flops(m, s.seq_len) + mtp_attention_fwd_flops(p, m, s.seq_len);
  const double logits = (1.0 + p.mtp_layers) * m.vocab * m.hidden;  // the head, again for each MTP module
  const double blocks = P - logits;
  const double trained_share = s.trained_share();
  // The adapter parameters a token runs through: every block's, of an MoE block's experts the top_k +
  // shared experts' (forward 2, backward 4 FLOPs each: input and weight gradients).
  const double adapters = s.is_peft() ? m.layers * lora_active_params_per_layer(m, s.lora) : 0.0;
  // Training FLOPs per token for attention score work `a` (the model's count, or what runs).
  auto per_token = [&](double a) {
    if (s.is_peft()) {
      // Forward 2P, backward through frozen weights for activation gradients 2P (no weight
      // gradients), adapters 6 each; attention backward is twice its forward.
      return 4.0 * P + 6.0 * adapters + 3.0 * a;
    }
    // Freeze-tuning: the frozen bottom blocks run forward only (2 P + A); the top blocks and the head train.
    if (s.method == Method::freeze)
      return (1 - trained_share) * (2.0 * blocks + a) + 6.0 * trained_share * blocks + 3.0 * trained_share * a +
             6.0 * logits;
    return 6.0 * P + 3.0 * a;  // Kaplan et al. 2020 6N + attention
  };
  Flops f;
  f.model_per_token = per_token(attn_model);
  // Without a fused kernel a windowed block still computes every score: the hardware runs that.
  const double attn = s.parallel.flash_attention
                          ? attn_model
                          : full_attention_fwd_flops(m, s.seq_len) + mtp_attention_fwd_flops(p, m, s.seq_len);
  // Recompute runs again what a trained block saved for its backward. Freeze-tuning's frozen
  // bottom blocks run outside autograd (their input needs no gradient): they save nothing and
  // are never recomputed, so every recompute term counts the trained share of the blocks.
  double recompute = 0;
  // One more forward of every block, its adapters' too.
  if (s.parallel.recompute == Recompute::full)
    recompute = full_recompute_share(s) * (2.0 * blocks + attn + 2.0 * adapters);
  if (s.parallel.recompute == Recompute::selective) recompute = attn;  // the attention core again
  // Per-operator checkpointing saves the fused attention kernel's output; unfused attention
  // (bmm and softmax, not on its save list) runs again.
  const bool op_keeps_attention = s.parallel.flash_attention;
  if (s.parallel.recompute == Recompute::selective_op)
    // The adapters' forward is counted again whole, as lora_adapter_s counts their rows.
    recompute = op_checkpoint_recompute_flops(m) + (op_keeps_attention ? 0.0 : attn) + 2.0 * adapters;
  recompute *= trained_share;
  f.hardware_per_token = per_token(attn) + recompute;
  // Token dropping with padding (parallel.moe_capacity_factor c): every expert also runs its padded
  // rows, (c - 1) x the routed experts' work, which the hardware executes and the model count leaves out.
  if (s.parallel.moe_capacity_factor > 0 && s.parallel.ep > 1) {
    const double tokens_per_gpu = static_cast<double>(s.effective_global_batch()) * s.seq_len / s.cluster.gpus;
    f.hardware_per_token += (s.parallel.padded_rows() - 1.0) * routed_flops_per_gpu(s, p) / tokens_per_gpu;
  }
  f.adapter_per_token = (6.0 + 2.0 * forward_reruns(s)) * adapters;
  // Attention's share of those FLOPs: forward A and backward 2A where the block trains or passes
  // gradients (every block but the frozen ones of freeze-tuning), plus a recomputed forward.
  const double attention_again =
      s.parallel.recompute == Recompute::selective_op ? (op_keeps_attention ? 0.0 : 1.0) : attention_reruns(s);
  const double recomputed_attention = attention_again * trained_share * attn;
  f.attention_per_token = (1.0 + 2.0 * trained_share) * attn + recomputed_attention;
  f.attention_forward_share = f.attention_per_token > 0 ? attn / f.attention_per_token : 0.0;
  f.attention_forward_passes = 1.0 + attention_again * trained_share;
  if (s.parallel.flash_attention) {
    // FlashAttention-2 (Dao 2023) skips the masked half of a causal score matrix and its backward
    // recomputes the scores: 2.5x the forward's FLOPs (the kernel benchmarks' count, flash-attention
    // benchmarks/benchmark_flash_attention.py). Full recompute runs the forward once more; selective
    // recompute adds nothing, the kernel already recomputes what it would.
    const double fwd = attention_kernel_fwd_flops(m, s.seq_len) + mtp_attention_fwd_flops(p, m, s.seq_len / 2.0);
    const double again = s.parallel.recompute == Recompute::full ? full_recompute_share(s) * trained_share : 0.0;
    f.attention_kernel_per_token = fwd + 2.5 * trained_share * fwd + again * fwd;
    f.attention_forward_share = f.attention_kernel_per_token > 0 ? fwd / f.attention_kernel_per_token : 0.0;
    f.attention_forward_passes = 1.0 + again;
  }
  const double tokens = static_cast<double>(s.effective_global_batch()) * s.seq_len;
  f.model_per_step = f.model_per_token * tokens;
  f.hardware_per_gpu_step = f.hardware_per_token * tokens / s.cluster.gpus;
  if (ex) {
    ex->add(
        "time.model_flops_per_token", f.model_per_token, "FLOP",
        s.is_peft() ? "4 P + 6 P_adapters + 3 A (LoRA: no weight gradients of the frozen model; P_adapters the "
                      "adapters a token runs through, an MoE block's top_k + shared experts')"
        : s.method == Method::freeze
            ? "(1 - share) (2 P_blocks + A) + 6 share P_blocks + 3 share A + 6 P_logits (frozen blocks run forward "
              "only)"
            : "6 P + 3 A: P matmul parameters (active blocks + logit layer), A attention score FLOPs "
              "2 s (q + o) L per token forward over every query head, no causal halving (Narayanan et al. 2021 §5.1); "
              "a sliding-window block counts min(window, s) keys instead of s",
        {{"P", P},
         {"P_adapters", adapters},
         {"A", attn_model},
         {"windowed_layers", static_cast<double>(m.windowed_layers())},
         {"seq_len", static_cast<double>(s.seq_len)},
         {"hardware_per_token", f.hardware_per_token},
         {"recompute_per_token", recompute}});
    ex->add("time.model_flops_per_step", f.model_per_step, "FLOP",
            "model FLOPs per token x global_batch x seq_len (whole cluster)",
            {{"model_flops_per_token", f.model_per_token}, {"tokens_per_step", tokens}});
  }
  return f;
}

//-----------------------------------------------------------------------------
// [SECTION] Context, expert and virtual pipeline parallelism. The figures these layouts add:
// ring attention's key/value exchange (CP), the MoE all-to-alls and the busiest expert rank (EP),
// the interleaved schedule's bubble (VP). estimate_compute, estimate_comm and estimate_time call
// them; without CP, EP and VP they add nothing.
//-----------------------------------------------------------------------------

double cp_kv_bytes_per_layer(const Scenario& s) {
  const Parallel& x = s.parallel;
  if (x.cp <= 1) return 0;
  return (x.cp - 1.0) * cp_chunk_kv_elements(s) * element_bytes(s.precision);
}

namespace {
// Sequence parallelism shards a GPU's tokens over TP (with TP 1 it changes nothing).
bool sequence_sharded(const Parallel& x) { return x.sequence_parallel && x.tp > 1; }

double busiest_stage_moe_layers(const Scenario& s);

// The tensor-parallel collectives of the busiest stage's MLPs, in blocks whose MLP moves a dense
// MLP's b (s / cp) h (its all-gather before and reduce-scatter after, or its all-reduce), and the
// MoE blocks whose routed experts move their own rows over the expert-TP group instead. A dense MLP
// and the shared experts keep the pair. Megatron-Core's MoE layer under sequence parallelism routes
// each TP rank's own sequence shard (moe_layer.py: tensor parallelism without it is refused in
// training), so its routed experts gather nothing across TP with etp 1; with etp > 1 the all-to-all
// dispatcher gathers the rows it received over the expert-TP group and reduce-scatters them after
// the experts (token_dispatcher.py, MoEAlltoAllTokenDispatcher: gather_from_sequence_parallel_region
// / reduce_scatter_to_sequence_parallel_region over tp_group, the expert-TP group), top_k rows a
// token. Other frameworks, and Megatron without sequence parallelism, count a dense MLP's pair.
struct TpMlpShare {
  double blocks = 0;           // MLPs moving a dense MLP's activations
  double expert_tp_blocks = 0;  // MoE blocks whose routed rows cross the expert-TP group
};

TpMlpShare tp_mlp_share(const Scenario& s) {
  const double layers = busiest_stage_layers(s);
  const Parallel& x = s.parallel;
  if (!s.model.is_moe() || s.framework != FrameworkKind::megatron || !sequence_sharded(x)) return {layers, 0};
  const double moe = std::min(layers, busiest_stage_moe_layers(s));
  const double shared = s.model.shared_experts > 0 ? moe : 0.0;
  return {layers - moe + shared, x.expert_tp() > 1 ? moe : 0.0};
}

// Tokens of one micro-batch one GPU dispatches: b (s / cp), over TP with sequence parallelism.
double ep_tokens_per_gpu(const Scenario& s) {
  const Parallel& x = s.parallel;
  return static_cast<double>(s.micro_batch) * s.seq_len / x.cp / (sequence_sharded(x) ? x.tp : 1.0);
}

// How many GPUs' token shards the experts' rows gather: the expert-tensor-parallel group's with
// sequence parallelism; without it every TP rank already holds the same tokens.
double expert_tp_gather(const Parallel& x) { return sequence_sharded(x) ? x.expert_tp() : 1.0; }

// Tokens one expert-parallel rank's experts draw their rows from per micro-batch: its GPU's, or
// with sequence parallelism the shards its expert-tensor-parallel group gathers.
double expert_rank_tokens(const Scenario& s) { return ep_tokens_per_gpu(s) * expert_tp_gather(s.parallel); }

// The busiest expert-parallel rank's tokens / the mean: 1 with token dropping and padding
// (parallel.moe_capacity_factor c), where every expert takes exactly c x its mean share (no rank
// waits; the padded rows are work every rank runs, counted with the routed FLOPs); kMoeCapacityFactor
// for a learned router; exactly 1 for the fake balanced gate, which gives every expert the same tokens. With random
// logits a rank holding E / ep experts receives X of a token's k, hypergeometric: mean k / ep,
// variance k (1 / ep)(1 - 1 / ep)(E - k) / (E - 1). Over the N = tokens x ep tokens the group
// dispatches the loads are near normal, and the busiest of ep ranks lies at most sqrt(2 ln ep)
// standard deviations above the mean (the bound on the expected maximum of ep standard normals).
double ep_load_factor(const Scenario& s, const Calibration& cal) {
  const Parallel& x = s.parallel;
  if (x.moe_capacity_factor > 0 || x.moe_routing == MoeRouting::fake_balanced) return 1.0;
  if (x.moe_routing == MoeRouting::learned || x.ep <= 1) return cal.moe_capacity_factor.value;
  const ModelArch& m = s.model;
  const double ep = x.ep, k = m.top_k, experts = m.experts, p = 1.0 / ep;
  const double mean = k * p, variance = k * p * (1 - p) * (experts - k) / std::max(1.0, experts - 1);
  const double tokens = expert_rank_tokens(s) * ep;
  return 1 + std::sqrt(2 * std::log(ep)) * std::sqrt(variance / tokens) / mean;
}

// The rows the busiest rank's all-to-alls carry / the mean: c padded rows with token dropping
// (parallel.moe_capacity_factor), else the busiest rank's load (ep_load_factor).
double ep_rows_factor(const Scenario& s, const Calibration& cal) {
  return s.parallel.moe_capacity_factor > 0 ? s.parallel.padded_rows() : ep_load_factor(s, cal);
}

// One copy of every token of a micro-batch one GPU dispatches, b (s / cp) h x bytes (per
// sequence-parallel shard with TP), times the rows the busiest rank's all-to-alls carry.
double ep_copy_bytes(const Scenario& s, const Calibration& cal) {
  return ep_tokens_per_gpu(s) * s.model.hidden * element_bytes(s.precision) * ep_rows_factor(s, cal);
}
}  // namespace

double ep_alltoall_bytes(const Scenario& s, const Calibration& cal) {
  const Parallel& x = s.parallel;
  if (x.ep <= 1 || !s.model.is_moe()) return 0;
  return ep_copy_bytes(s, cal) * s.model.top_k * (x.ep - 1.0) / x.ep;
}

namespace {
// The chance that a token routes none of its top_k experts to a holder of `held` of the E
// experts (routing uniform): C(E - held, k) / C(E, k).
double misses_all(const ModelArch& m, double held) {
  const double experts = m.experts;
  double none_here = 1;
  for (int i = 0; i < m.top_k; ++i) none_here *= std::max(0.0, (experts - held - i) / (experts - i));
  return none_here;
}
}  // namespace

namespace {
// The fake balanced gate sends token i to experts i k, ..., i k + k - 1 (mod E) (NeMo AutoModel,
// FakeBalancedGate), so the first of them steps through the E / gcd(k, E) multiples of gcd(k, E)
// evenly. Holders of `held` consecutive experts each: a token starting at `first` reaches
// floor((first + k - 1) / held) - floor(first / held) + 1 of them (the E / held holders at most).
double fake_balanced_holders(const ModelArch& m, double held) {
  const int k = m.top_k, experts = m.experts, step = std::gcd(k, experts);
  const double holders = experts / held;
  double sum = 0;
  for (int first = 0; first < experts; first += step)
    sum += std::min(holders, std::floor((first + k - 1) / held) - std::floor(first / held) + 1);
  return sum * step / experts;
}

// The share of the holders of `held` experts each that one token reaches: 1 - C(E - held, k) /
// C(E, k) for a learned router (destinations as uniform routing spreads them), the mean count
// above / (E / held) for the fake balanced gate.
double holders_reached(const Scenario& s, double held) {
  const ModelArch& m = s.model;
  if (s.parallel.moe_routing == MoeRouting::fake_balanced) {
    const double h = std::max(1.0, held);
    return fake_balanced_holders(m, h) * h / m.experts;
  }
  return 1 - misses_all(m, held);
}
}  // namespace

double ep_network_copies_per_token(const Scenario& s, const GroupLink& g) {
  const ModelArch& m = s.model;
  const int ep = s.parallel.ep;
  if (ep <= 1 || !m.is_moe() || g.nodes <= 1) return 0;
  if (s.parallel.ep_dispatcher == EpDispatcher::alltoall)
    return m.top_k * static_cast<double>(ep - g.ranks_per_node) / ep;
  // A node holds its ranks' experts: E / ep x ranks_per_node (E / nodes, the group filling its nodes).
  const double per_node = static_cast<double>(m.experts) / ep * g.ranks_per_node;
  return (g.nodes - 1) * holders_reached(s, per_node);
}

double ep_scale_up_copies_per_token(const Scenario& s, const GroupLink& g) {
  const ModelArch& m = s.model;
  const int ep = s.parallel.ep;
  if (ep <= 1 || !m.is_moe()) return 0;
  const double r = g.ranks_per_node;
  if (s.parallel.ep_dispatcher == EpDispatcher::alltoall) return m.top_k * (r - 1) / ep;
  // DeepEP: one copy to each rank holding at least one of the token's experts; the rank of the
  // sender's own in-node index (itself, or where the network copy lands) needs no NVLink hop.
  return ep * holders_reached(s, m.experts / ep) * (1 - 1 / r);
}

double pipeline_bubble_fraction(int pp, double vp, int micro_batches) {
  if (pp <= 1) return 0;
  return (pp - 1.0) / (std::max(1.0, vp) * std::max(1, micro_batches));
}

double bubble_virtual_stages(const Scenario& s) {
  const int vp = s.parallel.vp, pp = s.parallel.pp;
  if (vp <= 1 || pp <= 1) return 1.0;
  const double most = busiest_stage_layers(s);
  return most / std::ceil(most / vp);
}

namespace {

// MoE blocks of the stage with the most of them (its all-to-alls pace the pipeline).
double busiest_stage_moe_layers(const Scenario& s) {
  const ModelArch& m = s.model;
  if (!m.is_moe()) return 0;
  const PipelineSplit split = pipeline_split(m.layers, s.parallel.pp);
  auto moe_in = [&m](int first, int count) { return count - std::clamp(m.dense_layers - first, 0, count); };
  // The multi-token prediction modules' blocks (MoE blocks here) run on the last stage.
  const int mtp = s.techniques.mtp_layers;
  double most = moe_in(0, split.first) + (s.parallel.pp == 1 ? mtp : 0);
  if (s.parallel.pp > 1) most = std::max(most, static_cast<double>(moe_in(m.layers - split.last, split.last) + mtp));
  if (s.parallel.pp > 2) most = std::max(most, static_cast<double>(moe_in(split.first, split.middle)));
  return most;
}

// Blocks whose MLP is routed experts: the MoE blocks, and the multi-token prediction modules'
// (which repeat the model's last kind of block) when there are any.
double routed_blocks(const Scenario& s, const ParamCount& p) {
  const int moe = s.model.moe_layers();
  return moe > 0 ? moe + p.mtp_layers : 0.0;
}

// Routed-expert GEMM FLOPs per GPU and step: (6, 4 for PEFT, + 2 with full recompute) x top_k
// expert parameters x routed blocks x tokens / GPUs.
double routed_flops_per_gpu(const Scenario& s, const ParamCount& p) {
  const ModelArch& m = s.model;
  if (!m.is_moe()) return 0;
  const double routed_active = p.mlp_routed * m.top_k / m.experts;  // per token and MoE block
  const double tokens = static_cast<double>(s.effective_global_batch()) * s.seq_len;
  return 2.0 * linear_passes(s) * routed_active * routed_blocks(s, p) * tokens / s.cluster.gpus;
}

// Routed-expert parameters with gradients (whole model): every MoE block's experts, the trained
// top blocks' for freeze-tuning (dense blocks sit at the bottom), none for PEFT (adapters only).
double routed_trainable_params(const Scenario& s, const ParamCount& p) {
  const ModelArch& m = s.model;
  if (!m.is_moe() || s.is_peft()) return 0;
  if (s.method == Method::freeze) {
    const int trained = s.trainable_layers > 0 ? s.trainable_layers : std::max(1, m.layers / 4);
    return std::min(trained, m.moe_layers()) * p.mlp_routed;
  }
  return routed_blocks(s, p) * p.mlp_routed;
}

// EP > 1: the rank holding the busiest experts computes kMoeCapacityFactor x the mean of the
// routed-expert GEMMs (6 x top_k routed expert parameters per token and MoE block, 4 for PEFT,
// + 2 with full recompute), so the step waits (factor - 1) x that time more. Without EP every GPU
// runs all experts on its own tokens and no rank waits for another.
double expert_imbalance_s(const Scenario& s, const ParamCount& p, const Calibration& cal, double gemm_flops_per_s,
                          Explainer* ex) {
  const ModelArch& m = s.model;
  const Constant& cf = cal.moe_capacity_factor;
  double flops_per_gpu = 0, extra = 0;
  if (s.parallel.ep > 1 && m.is_moe()) {
    flops_per_gpu = routed_flops_per_gpu(s, p);
    if (gemm_flops_per_s > 0) extra = (ep_load_factor(s, cal) - 1.0) * flops_per_gpu / gemm_flops_per_s;
  }
  if (ex)
    ex->add("time.expert_imbalance_s", extra, "s",
            "(load factor - 1) x routed-expert GEMM FLOPs per GPU per step / (peak x GEMM efficiency): the rank with "
            "the busiest experts computes the load factor x the mean; routed FLOPs = (6, 4 for PEFT, + 2 with full "
            "recompute) x top_k expert parameters x MoE blocks x tokens / GPUs; 0 without EP. Load factor 1 with "
            "parallel.moe_capacity_factor (every expert padded to c x its mean share: no rank waits, and the padded "
            "rows count with the routed FLOPs), else by parallel.moe_routing: learned kMoeCapacityFactor (Fedus et al. "
            "2021 §2.1); fake_balanced 1 (every expert "
            "gets the same tokens); random 1 + sqrt(2 ln ep) sigma / mean of the hypergeometric tokens a rank receives "
            "from the tokens x ep the group dispatches",
            {{cf.name, cf.value},
             {"load_factor", ep_load_factor(s, cal)},
             {"routed_flops_per_gpu", flops_per_gpu},
             {"ep", static_cast<double>(s.parallel.ep)},
             {"gemm_TFLOPS", gemm_flops_per_s / 1e12}});
  return extra;
}

namespace {
struct RingTraffic {
  double bytes = 0, s = 0, exposed_s = 0;
  double hidden_s = 0;   // the attention time that can hide the transfers (TE) or the time they hide (PyTorch)
  double hop_bytes = 0;  // PyTorch's ring: one fp32 key/value gradient chunk
};

// Transformer Engine's P2P ring (Megatron-Core): each key/value chunk passes on cp - 1 times
// forward and, backward, with its gradients; a transfer hides behind the attention of the chunk
// before it, so (cp - 1) / cp of this GPU's attention time can hide it.
RingTraffic te_ring(const Scenario& s, double trained_share, double per_layer_fwd, double layers, int m, double bw,
                    double latency, double attention_s) {
  const Parallel& x = s.parallel;
  // Forward; where the block trains, backward x 2 (keys, values and their gradients) and with full
  // recompute a recomputed forward in the blocks that recompute.
  const double passes = 1.0 + trained_share * (2.0 + full_recompute_share(s));
  RingTraffic r;
  r.bytes = passes * per_layer_fwd * layers * m;
  r.s = r.bytes / bw + passes * (x.cp - 1.0) * layers * m * latency;
  r.hidden_s = attention_s * (x.cp - 1.0) / x.cp;
  r.exposed_s = std::max(0.0, r.s - r.hidden_s);
  return r;
}

// PyTorch's context parallelism as torchtitan runs it (torch/distributed/tensor/experimental/
// _attention.py; torchtitan's default experimental.context_parallel_rotate_method "allgather"):
// forward, the keys and values are all-gathered once and waited for before the second ring step,
// so only the first step's attention (1/cp of it) hides the gather; backward gathers them again
// the same way and passes the key/value gradients around the ring in fp32 (convert_to_f32), one
// hop per step behind the next step's attention, the last hop waited for after the loop.
RingTraffic pytorch_ring(const Scenario& s, const Compute& compute, double per_layer_fwd, double layers, int m,
                         double bw, double latency, double attention_s) {
  const Parallel& x = s.parallel;
  const double forwards = compute.flops.attention_forward_passes;  // each pass runs its own ring
  // Only trained blocks run a backward ring (freeze-tuning's frozen blocks run forward only).
  const double trained = s.trained_share();
  RingTraffic r;
  r.hop_bytes = cp_chunk_kv_elements(s) * 4.0;
  const double gather_s = per_layer_fwd / bw + (x.cp - 1.0) * latency;
  const double hop_s = r.hop_bytes / bw + latency;
  const double share = compute.flops.attention_forward_share;
  const double fwd = attention_s * share / (layers * m);  // one forward pass, one layer
  const double bwd =
      std::max(0.0, attention_s * (1.0 - forwards * share)) / (layers * m * trained);  // one trained layer
  const double backward_exposed =
      std::max(0.0, gather_s - bwd / x.cp) + (x.cp - 1.0) * std::max(0.0, hop_s - bwd / x.cp) + hop_s;
  const double exposed = forwards * std::max(0.0, gather_s - fwd / x.cp) + trained * backward_exposed;
  r.bytes = ((forwards + trained) * per_layer_fwd + trained * x.cp * r.hop_bytes) * layers * m;
  r.s = ((forwards + trained) * gather_s + trained * x.cp * hop_s) * layers * m;
  r.exposed_s = exposed * layers * m;
  r.hidden_s = r.s - r.exposed_s;
  return r;
}

void context_parallel_explain(const Scenario& s, const Comm& c, const RingTraffic& r, bool pytorch,
                              double per_layer_fwd, double layers, int m, double bw, const GroupLink& cp_group,
                              double attention_s, Explainer& ex) {
  const Parallel& x = s.parallel;
  const double trained_share = s.trained_share();
  ex.add("comm.cp.bytes", c.cp_bytes, "B",
         pytorch ? "layers of the busiest stage x micro-batches x ((1 + t, 1 + 2 t when attention's forward runs "
                   "again) x (cp - 1) x b (s / cp) (k + v) x heads / kv_heads / tp x bytes + t x cp x b (s / cp) (k "
                   "+ v) x heads / kv_heads / tp x 4), t the trained share of the blocks (1 but for freeze-tuning, "
                   "whose frozen blocks run forward only): PyTorch's ring (torchtitan) all-gathers the keys and "
                   "values, expanded to every query head, in each forward and backward pass, and passes their fp32 "
                   "gradients cp times around the ring; 0 without CP"
                 : "(1 + 2 t, 1 + (2 + r) t with full recompute, r the share of the blocks that recompute; t the "
                   "trained share of the blocks, 1 but for freeze-tuning) x layers of the busiest stage x "
                   "micro-batches x (cp - 1) x b (s / cp) (k + v) / tp "
                   "x bytes: ring attention passes each key/value chunk on cp - 1 times forward and keys, values and "
                   "their gradients backward (Liu et al. 2023; Megatron-Core context parallelism); 0 without CP",
         {{"kv_bytes_per_layer_forward", per_layer_fwd},
          {"trained_block_share", trained_share},
          {"kv_gradient_hop_bytes", r.hop_bytes},
          {"cp", static_cast<double>(x.cp)},
          {"layers", layers},
          {"micro_batches", static_cast<double>(m)}});
  ex.add("comm.cp.s", c.cp_s, "s",
         pytorch ? "the gathers / the CP group's bandwidth (each GPU's NIC across nodes, the scale-up link inside "
                   "one) + cp - 1 latencies each, and cp gradient hops + one latency each in every trained block's "
                   "backward"
                 : "cp.bytes / point-to-point bandwidth (each GPU's NIC across nodes, the scale-up link inside one) + "
                   "one latency per ring step",
         {{"busbw_GBps", bw / 1e9}, {"inter_node", cp_group.inter_node ? 1.0 : 0.0}});
  ex.add("comm.cp.exposed_s", c.cp_exposed_s, "s",
         pytorch ? "per layer and micro-batch: each gather less 1/cp of its pass's attention (the first ring step "
                   "runs while it arrives), each gradient hop less 1/cp of the backward attention, and the last hop "
                   "in full, the backward's terms in the trained blocks only (torch.distributed.tensor.experimental "
                   "context parallelism)"
                 : "max(0, cp.s - (cp - 1) / cp x this GPU's attention time): each transfer overlaps the attention of "
                   "the chunk before it",
         {{"cp_s", c.cp_s}, {"attention_s", attention_s}, {"hidden_s", r.hidden_s}});
}
}  // namespace

// Ring attention (Liu et al. 2023, "Ring Attention with Blockwise Transformers"): per layer and
// micro-batch each CP rank receives every other rank's key/value chunk while it computes attention
// on the chunk it holds: Transformer Engine's P2P ring (te_ring) or PyTorch's (pytorch_ring).
void context_parallel_comm(const Scenario& s, const LinkBandwidth& l, const Compute& compute, Comm& c, Explainer* ex) {
  const Parallel& x = s.parallel;
  if (x.cp <= 1 && !ex) return;                             // the planner's hot path: nothing to add
  const GroupLink cp_group = group_link(s, l, x.cp, x.tp);  // CP sits right outside TP in the rank order
  const int m = std::max(1, s.grad_accum());
  const double layers = busiest_stage_layers(s);
  const double per_layer_fwd = cp_kv_bytes_per_layer(s);  // 0 without CP
  const double bw = cp_group.inter_node ? l.nic_busbw : l.intra_busbw;
  const bool pytorch = cp_runs_pytorch_ring(s);
  double attention_s = 0;
  RingTraffic r;
  if (x.cp > 1) {
    const double latency = cp_group.inter_node ? l.inter_latency_s : l.intra_latency_s;
    c.cp_inter_node = cp_group.inter_node;
    // This GPU's attention time, paced by the busiest stage: the fused kernel's time, or without
    // one the share of the GEMM time that is attention scores (forward; where the block trains,
    // backward 2x and recomputed once with any recompute).
    const double t = s.trained_share();
    const double attn_per_token =
        full_attention_fwd_flops(s.model, s.seq_len) * (1.0 + 2.0 * t + attention_reruns(s) * t);
    const double per_token = compute.flops.hardware_per_token;
    const double attn_share = per_token > 0 ? attn_per_token / per_token : 0;
    attention_s = x.flash_attention
                      ? compute.attention_s * compute.stage_imbalance
                      : (compute.gemm_s - compute.expert_imbalance_s) * attn_share * compute.stage_imbalance;
    r = pytorch ? pytorch_ring(s, compute, per_layer_fwd, layers, m, bw, latency, attention_s)
                : te_ring(s, t, per_layer_fwd, layers, m, bw, latency, attention_s);
    c.cp_bytes = r.bytes;
    c.cp_s = r.s;
    c.cp_exposed_s = r.exposed_s;
  }
  if (ex) context_parallel_explain(s, c, r, pytorch, per_layer_fwd, layers, m, bw, cp_group, attention_s, *ex);
}

namespace {
// SMs a DeepEP-style dispatcher holds: the scenario's parallel.ep_comm_sms, or kDeepEpSms, the
// default of DeepEP and of HybridEP (Megatron-Core transformer_config.py: moe_hybridep_num_sms
// "None uses the default from DeepEP").
double ep_comm_sms(const Scenario& s, const Calibration& cal) {
  return s.parallel.ep_comm_sms > 0 ? s.parallel.ep_comm_sms : cal.deepep_sms.value;
}

// Below kDeepEpSms a DeepEP-style dispatcher drives fewer channels than it takes to fill the links:
// the DeepSeek-V3 report (§3.2.2) runs 10 channels on 20 SMs, "sufficient to fully utilize the
// bandwidths of both IB and NVLink", so with fewer SMs the transfers take kDeepEpSms / SMs of
// their time (an assumption of one channel's rate per 2 SMs); 1 at or above kDeepEpSms.
double ep_sm_slowdown(const Scenario& s, const Calibration& cal) {
  const int sms = s.parallel.ep_comm_sms;
  if (!s.parallel.dispatches_per_rank() || sms <= 0 || sms >= cal.deepep_sms.value) return 1.0;
  return cal.deepep_sms.value / sms;
}

// The share of a GPU's SMs an overlapped all-to-all holds while it runs: the dispatcher's SMs over
// the part's SM count; 0 for NCCL's all-to-all, whose SM use no source states, and where the
// catalog has no SM count (both optimistic).
double ep_comm_sm_share(const Scenario& s, const Calibration& cal) {
  if (!s.parallel.dispatches_per_rank() || s.cluster.sm_count <= 0) return 0;
  return std::min(1.0, ep_comm_sms(s, cal) / s.cluster.sm_count);
}

// Rank 0's warm-up chunks in the interleaved schedule, 2 (pp - 1) + (vp - 1) pp, of its m x vp.
double rank0_warmup_chunks(const Parallel& x, int m) {
  return std::min(static_cast<double>(m) * x.vp, static_cast<double>(interleaved_warmup_chunks(x, 0)));
}

// Of a schedule's chunks (micro-batches, times vp with virtual stages), those whose all-to-alls
// have no partner to overlap with. The overlap runs one micro-batch's forward beside another's
// backward (DeepSeek-V3 report §3.2.1; Megatron-Core --overlap-moe-expert-parallel-comm, its
// combined 1F1B schedule), so it needs both: rank 0's warm-up forwards run before any backward,
// its flush's backwards after the last forward, as many of each: pp - 1 micro-batches in 1F1B, the
// interleaved schedule's warm-up chunks with virtual stages, and without a pipeline the first
// forward and the last backward (one micro-batch: nothing overlaps).
double ep_unpaired_chunks(const Parallel& x, int m) {
  if (x.pp <= 1) return std::min(1, m);
  if (x.vp <= 1) return std::min(m, x.pp - 1);
  return rank0_warmup_chunks(x, m);
}

// ... as a share of the schedule's chunks.
double ep_unpaired_share(const Scenario& s) {
  const int m = s.schedule_micro_batches();
  const double chunks = static_cast<double>(m) * (s.parallel.pp > 1 ? std::max(1, s.parallel.vp) : 1);
  return ep_unpaired_chunks(s.parallel, m) / chunks;
}

// The all-to-all seconds on the critical path. Overlapped, the unpaired chunks' all-to-alls stay
// exposed; the steady state's run beside its computation, which meanwhile has the SMs they leave:
// while they run a share f of the SMs moves tokens, so they expose max(ep - compute, f ep).
double ep_exposed_s(const Scenario& s, double ep_s, double compute_s, double f) {
  if (!s.parallel.ep_comm_overlap) return ep_s;
  const double unpaired = ep_unpaired_share(s);
  const double steady_ep = ep_s * (1.0 - unpaired), steady_compute = compute_s * (1.0 - unpaired);
  return ep_s * unpaired + std::max(steady_ep - steady_compute, f * steady_ep);
}
}  // namespace

// Expert parallelism (Megatron-Core MoE, all-to-all token dispatcher): per MoE block and
// micro-batch a dispatch and a combine all-to-all forward, two more backward, and the forward pair
// again with full recompute. Of the ep - 1 peers, ranks_per_node - 1 share the node (scale-up
// link) and the rest are reached through the GPU's own NIC; both run at once. On the critical
// path: the experts wait for their tokens.
void expert_parallel_comm(const Scenario& s, const LinkBandwidth& l, const Calibration& cal, const Compute& compute,
                          Comm& c, Explainer* ex) {
  const Parallel& x = s.parallel;
  if ((x.ep <= 1 || !s.model.is_moe()) && !ex) return;  // the planner's hot path: nothing to add
  // Folded expert ranks: ETP innermost, then EP, so an EP group's neighbours sit etp ranks apart.
  const GroupLink ep_group = group_link(s, l, x.ep, x.expert_tp());
  const int m = std::max(1, s.grad_accum());
  const double per_a2a = ep_alltoall_bytes(s, cal);  // 0 without EP
  const double r = ep_group.ranks_per_node;
  // per_a2a carries top_k (ep - 1) / ep copies of a token's bytes, b (s / cp) h x bytes x
  // kMoeCapacityFactor: one per routed expert on another rank. `copies` cross the network and
  // `scale_up` the scale-up link; DeepEP sends one per destination rank, not per expert.
  const double copies = ep_network_copies_per_token(s, ep_group);
  const double scale_up = ep_scale_up_copies_per_token(s, ep_group);
  const double per_copy = ep_copy_bytes(s, cal);
  const double inter = per_copy * copies;
  const double intra = per_copy * scale_up;
  // Dispatch and combine forward; where the block trains, two more backward and the forward pair
  // again when the forward reruns (all-to-alls are not on op checkpointing's save list).
  const double per_layer = 2.0 + s.trained_share() * (2.0 + 2.0 * forward_reruns(s));
  const double count = x.ep > 1 ? per_layer * busiest_stage_moe_layers(s) * m : 0.0;
  const double f = ep_comm_sm_share(s, cal);
  if (count > 0) {
    const double a2a_s = ep_sm_slowdown(s, cal) * std::max(intra / l.intra_busbw, inter / l.nic_busbw) +
                         (ep_group.inter_node ? l.inter_latency_s : l.intra_latency_s);
    c.ep_inter_node = ep_group.inter_node;
    c.ep_bytes = count * (intra + inter);
    c.ep_inter_node_bytes = count * inter;
    c.ep_s = count * a2a_s;
    // Overlapped (DeepSeek-V3 report §3.2.1, DualPipe: the dispatch and combine of one chunk run
    // while another computes; Megatron-Core's combined 1F1B schedule): ep_exposed_s.
    c.ep_exposed_s = ep_exposed_s(s, c.ep_s, compute.compute_s, f);
  }
  if (ex) {
    ex->add("comm.ep.bytes", c.ep_bytes, "B",
            "all-to-alls x (scale-up + network copies per token) x b (s / cp) h bytes x kMoeCapacityFactor (1 with "
            "parallel.moe_routing fake_balanced, the chance excess with random: load_factor; c padded rows with "
            "parallel.moe_capacity_factor: rows_factor); 4 per "
            "MoE block of the busiest stage per micro-batch (dispatch and combine, forward and backward; 4 + 2 r "
            "with full recompute, r the share of the blocks that recompute; 2 for a frozen block of freeze-tuning), "
            "Megatron-Core MoE; 0 without EP. Dispatcher alltoall: "
            "top_k (ep - 1) / ep copies, one per routed expert on another rank",
            {{"alltoalls", count},
             {"routed_bytes_per_alltoall", per_a2a},
             {"ep", static_cast<double>(x.ep)},
             {cal.moe_capacity_factor.name, cal.moe_capacity_factor.value},
             {"load_factor", ep_load_factor(s, cal)},
             {"rows_factor", ep_rows_factor(s, cal)}});
    ex->add("comm.ep.s", c.ep_s, "s",
            "all-to-alls x max(intra-node share / scale-up busbw, inter-node share / one NIC's busbw) + latency: of "
            "the ep - 1 peers, ranks_per_node - 1 share the node (dispatcher alltoall: a copy per routed expert); "
            "dispatcher deepep: a token crosses the network once per destination node, (n - 1) (1 - C(E - E/n, k) / "
            "C(E, k)) copies for n nodes, E experts, top-k, and the scale-up link once per destination rank other "
            "than the one of its own in-node index, ep (1 - C(E - E/ep, k) / C(E, k)) (1 - 1 / ranks_per_node) "
            "(DeepSeek-V3 report §3.2.2; DeepEP's dispatch layout counts tokens per rank, not per expert); with "
            "parallel.moe_routing fake_balanced a token's experts are k consecutive ones (NeMo AutoModel "
            "FakeBalancedGate), and the nodes and ranks it reaches are counted over their starting points; the "
            "transfers x kDeepEpSms / parallel.ep_comm_sms where that gives a DeepEP-style dispatcher fewer than "
            "kDeepEpSms SMs (the report's 20 SMs, 10 channels, fill IB and NVLink; fewer drive fewer channels)",
            {{"ranks_per_node", r},
             {"nodes", static_cast<double>(ep_group.nodes)},
             {"deepep", x.dispatches_per_rank() ? 1.0 : 0.0},
             {"fake_balanced", x.moe_routing == MoeRouting::fake_balanced ? 1.0 : 0.0},
             {"network_copies_per_token", copies},
             {"scale_up_copies_per_token", scale_up},
             {"intra_bytes_per_alltoall", intra},
             {"inter_bytes_per_alltoall", inter},
             {"nic_busbw_GBps", l.nic_busbw / 1e9},
             {"sm_slowdown", ep_sm_slowdown(s, cal)}});
    ex->add("comm.ep.exposed_s", c.ep_exposed_s, "s",
            "ep.s: the experts wait for their tokens; with parallel.ep_comm_overlap ep.s u + max((ep.s - compute) (1 "
            "- u), f x ep.s (1 - u)): the all-to-alls of one micro-batch's forward run during another's backward "
            "(DualPipe, Megatron-Core combined 1F1B), which meanwhile has the SMs they leave, and the share u of the "
            "chunks without a partner waits whole (rank 0's warm-up forwards and flush backwards: pp - 1 "
            "micro-batches in 1F1B, 2 (pp - 1) + (vp - 1) pp chunks interleaved, 1 without a pipeline, of the "
            "schedule's chunks); f: the share they hold, min(1, SMs / the accelerator's "
            "sm_count), SMs parallel.ep_comm_sms, else kDeepEpSms (20, the default of DeepEP and HybridEP; DeepSeek-V3 "
            "report §3.2.2); 0 for NCCL's all-to-all (not published) and for a part without an sm_count",
            {{"ep_s", c.ep_s},
             {"ep_comm_overlap", x.ep_comm_overlap ? 1.0 : 0.0},
             {"unpaired_share", ep_unpaired_share(s)},
             {"compute_s", compute.compute_s},
             {"comm_sm_share", f},
             {"ep_comm_sms", static_cast<double>(x.ep_comm_sms)},
             {cal.deepep_sms.name, cal.deepep_sms.value},
             {"sm_count", s.cluster.sm_count}});
  }
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Compute step: achieved rate and compute time
//-----------------------------------------------------------------------------

namespace {

// The accelerator's measured large-BF16-GEMM ratio, or the named default where none is published.
double large_gemm_ratio(const Scenario& s, const Calibration& cal) {
  return s.cluster.gemm_efficiency > 0 ? s.cluster.gemm_efficiency : cal.default_gemm_efficiency.value;
}

}  // namespace

namespace {

double gemm_max_efficiency(const Scenario& s, const Calibration& cal) {
  const double bf16_max = large_gemm_ratio(s, cal);
  return s.precision == Precision::fp8 && s.cluster.fp8_gemm_efficiency > 0 ? s.cluster.fp8_gemm_efficiency : bf16_max;
}

// Tokens of one micro-batch on this GPU (CP splits them) and the TP-sharded width.
double gemm_tokens(const Scenario& s) { return static_cast<double>(s.micro_batch) * s.seq_len / s.parallel.cp; }
double gemm_width(const Scenario& s) { return static_cast<double>(s.model.hidden) / s.parallel.tp; }

// The efficiency of a GEMM whose smallest dimension is d: e_max d / (d + kGemmHalfSize).
double gemm_efficiency_at(const Scenario& s, const Calibration& cal, double d) {
  return gemm_max_efficiency(s, cal) * d / (d + cal.gemm_half_size.value);
}

// A linear layer's GEMM over `tokens` rows: d = min(tokens, hidden / tp).
double gemm_efficiency_of(const Scenario& s, const Calibration& cal, double tokens) {
  return gemm_efficiency_at(s, cal, std::min(tokens, gemm_width(s)));
}

// A routed expert's GEMMs run on the rows that reach it, not on the micro-batch: of the tokens
// each rank of its group draws from (expert_rank_tokens), top_k / E go to each expert, from ep
// ranks. Their smallest dimension is the fewest of those rows, the expert's width over ETP and the
// hidden size.
double routed_gemm_d(const Scenario& s) {
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const double rows = expert_rank_tokens(s) * m.top_k * std::max(1, x.ep) / m.experts * x.padded_rows();
  return std::min({rows, static_cast<double>(m.expert_ffn) / x.expert_tp(), static_cast<double>(m.hidden)});
}

}  // namespace

// What e_max is, in both explanations of time.gemm_efficiency.
constexpr const char* kGemmMaxExplained =
    "e_max is the accelerator's measured large-GEMM efficiency in the compute precision (catalog; FP8 falls back to "
    "the BF16 ratio) or kDefaultGemmEfficiency";

double gemm_efficiency(const Scenario& s, const Calibration& cal, Explainer* ex) {
  const Constant& half = cal.gemm_half_size;
  const double e_max = gemm_max_efficiency(s, cal);
  const double d = std::min(gemm_tokens(s), gemm_width(s));
  const double e = gemm_efficiency_of(s, cal, gemm_tokens(s));
  if (ex)
    ex->add("time.gemm_efficiency", e, "1",
            (std::string("e_max x d / (d + kGemmHalfSize), d = min(micro_batch x seq_len / cp, hidden / tp); ") +
             kGemmMaxExplained)
                .c_str(),
            {{"e_max", e_max}, {"d", d}, {half.name, half.value}});
  return e;
}

SplitGemms tp_overlap_split_gemms(const Scenario& s, const ParamCount& p) {
  const Parallel& x = s.parallel;
  if (!x.tp_comm_overlap || x.tp <= 1) return {};
  const ModelArch& m = s.model;
  // Per token, summed over the blocks: the weights whose GEMMs consume an all-gathered input (Q, K,
  // V and the dense MLP's input side) and those whose output is reduce-scattered (the output
  // projection and the dense MLP's output side). Routed experts and the logit layer are not
  // overlapped this way.
  const double dense_mlp_layers = m.layers - m.moe_layers();
  const double mlp_in = dense_mlp_layers * m.hidden * m.ffn * (m.gated_mlp ? 2.0 : 1.0);
  const double mlp_out = dense_mlp_layers * static_cast<double>(m.ffn) * m.hidden;
  const double gathered = m.layers * m.hidden * (m.q_width() + m.k_width() + m.v_width()) + mlp_in;
  const double scattered = m.layers * m.attn_out_width() * m.hidden + mlp_out;
  const double forward = 1.0 + full_recompute_share(s);
  const double all = linear_passes(s) * matmul_params(p, m);
  if (all <= 0) return {};
  SplitGemms split;
  if (s.framework == FrameworkKind::megatron) {
    // Transformer Engine's userbuffers with their default methods (transformer_engine/pytorch/
    // module/base.py, initialize_ub): "ring_exchange" for the forward of QKV and FC1 and the data
    // gradients of the output projection and FC2, which run tp GEMMs, one per arriving chunk of
    // tokens (common/comm_gemm_overlap/comm_gemm_overlap.cpp, CommOverlapP2PBase::split_overlap_ag);
    // "pipeline" for the forward of the output projection and FC2, num_splits 4 GEMMs whose outputs
    // are reduce-scattered as they finish; "bulk" (one whole GEMM beside its collective) for the rest.
    split.share_by_tp = (forward * gathered + scattered) / all;
    split.share_by_4 = forward * scattered / all;
  } else {
    // PyTorch's async TP (torch.distributed._symmetric_memory, fused_all_gather_matmul and
    // fused_matmul_reduce_scatter, used by torchtitan): the forward's all-gather-matmul and
    // matmul-reduce-scatter pairs run one matmul per rank's chunk of tokens; the backward's do not.
    split.share_by_tp = forward * (gathered + scattered) / all;
  }
  return split;
}

double split_gemm_efficiency(const Scenario& s, const Calibration& cal, double whole, const SplitGemms& split,
                             Explainer* ex) {
  const double whole_share = 1.0 - split.share_by_tp - split.share_by_4;
  if (whole_share >= 1.0) return whole;
  const double tokens = gemm_tokens(s);
  const double by_tp = gemm_efficiency_of(s, cal, tokens / s.parallel.tp);
  const double by_4 = gemm_efficiency_of(s, cal, tokens / 4.0);
  // The same FLOPs over their rates: the harmonic mean, weighted by FLOPs.
  const double e = 1.0 / (whole_share / whole + split.share_by_tp / by_tp + split.share_by_4 / by_4);
  if (ex)
    ex->add("time.gemm_efficiency", e, "1",
            ("with parallel.tp_comm_overlap the overlapped GEMMs run on a part of the micro-batch's tokens each, "
             "at the GEMM efficiency of that size: 1 / (whole share / e(tokens) + split_by_tp / e(tokens / tp) + "
             "split_by_4 / e(tokens / 4)), e(t) = e_max x d / (d + kGemmHalfSize), d = min(t, hidden / tp), "
             "tokens = micro_batch x seq_len / cp; " +
             std::string(kGemmMaxExplained) +
             ". Megatron-Core (Transformer Engine userbuffers, default methods): forward QKV and FC1 and the "
             "data gradients of the output projection and FC2 by tp (ring exchange), forward output projection "
             "and FC2 by 4 (pipeline); PyTorch async TP: the forward's four by tp")
                .c_str(),
            {{"e_max", gemm_max_efficiency(s, cal)},
             {"tokens", tokens},
             {cal.gemm_half_size.name, cal.gemm_half_size.value},
             {"gemm_efficiency_whole", whole},
             {"split_by_tp", split.share_by_tp},
             {"split_by_4", split.share_by_4},
             {"gemm_efficiency_by_tp", by_tp},
             {"gemm_efficiency_by_4", by_4}});
  return e;
}

namespace {
// The routed experts' GEMMs at the efficiency of their own size, e_max d_r / (d_r + kGemmHalfSize);
// the rest of the linear layers keep `mixed` (their whole or split figure, in which the routed
// share ran at `whole`): the same FLOPs over their rates, 1 / (1 / mixed - r / whole + r / e_r).
double with_routed_experts(const Scenario& s, const Calibration& cal, double mixed, double whole, double routed,
                           double e_routed, Explainer* ex) {
  const double rest = std::max(0.0, 1.0 / mixed - routed / whole);
  const double e = 1.0 / (rest + routed / e_routed);
  if (ex)
    ex->add("time.gemm_efficiency", e, "1",
            (std::string("the routed experts' GEMMs run on the rows that reach an expert, at e_max x d_r / (d_r + "
                         "kGemmHalfSize), d_r = min(tokens an expert-parallel rank draws from (x etp with sequence "
                         "parallelism) x top_k x ep / experts, "
                         "expert_ffn / etp, hidden); the other linear layers at their own figure (e_max x d / (d + "
                         "kGemmHalfSize), d = min(micro_batch x seq_len / cp, hidden / tp), or its mix with the GEMMs "
                         "tensor-parallel overlap splits); combined by FLOPs: 1 / (1 / e_rest - r / e_whole + r / "
                         "e_routed), r the routed share of the linear-layer FLOPs; ") +
             kGemmMaxExplained)
                .c_str(),
            {{"e_max", gemm_max_efficiency(s, cal)},
             {"d_routed", routed_gemm_d(s)},
             {cal.gemm_half_size.name, cal.gemm_half_size.value},
             {"routed_share", routed},
             {"gemm_efficiency_routed", e_routed},
             {"gemm_efficiency_rest", mixed},
             {"gemm_efficiency_whole", whole}});
  return e;
}
}  // namespace

// The named kernel, else the accelerator's usual one: Transformer Engine's under Megatron, and under
// the PyTorch-native frameworks the one torch's scaled_dot_product_attention dispatches to, where the
// catalog says it differs (ROCm: AOTriton).
AttentionKernel attention_kernel(const Scenario& s) {
  if (s.parallel.attention_kernel != AttentionKernel::auto_) return s.parallel.attention_kernel;
  const AttentionKernel sdpa = s.cluster.attention_kernel_pytorch;
  return sdpa != AttentionKernel::auto_ && s.framework != FrameworkKind::megatron ? sdpa : s.cluster.attention_kernel;
}

double attention_kernel_length(const Scenario& s) { return static_cast<double>(s.seq_len) / s.parallel.cp; }

double attention_kernel_head_dim(const ModelArch& m) {
  return m.attention == AttentionKind::mla ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.effective_head_dim();
}

double scale_at(const AttentionLengthScale& points, double x) {
  if (points.empty()) return 1.0;
  if (x <= points.front()[0]) return points.front()[1];
  if (x >= points.back()[0]) return points.back()[1];
  size_t i = 1;
  while (points[i][0] < x) ++i;
  const auto& [x0, r0] = points[i - 1];
  const auto& [x1, r1] = points[i];
  return r0 + (r1 - r0) * std::log2(x / x0) / std::log2(x1 / x0);
}

// A short sequence gives each query tile few key blocks to amortise its start and end over, and a
// narrow head gives each tile's matmuls a short inner dimension against the same softmax work per
// score: the measured rate at the kernel's length and head dimension (catalog
// attention_length_scale and attention_head_dim_scale, where measured).
double measured_attention_rate(const Scenario& s, AttentionKernel kernel) {
  const int k = static_cast<int>(kernel);
  return s.cluster.attention_efficiency[k] * scale_at(s.cluster.attention_length_scale[k], attention_kernel_length(s)) *
         scale_at(s.cluster.attention_head_dim_scale[k], attention_kernel_head_dim(s.model));
}

double attention_efficiency(const Scenario& s, const Calibration& cal, Explainer* ex) {
  const AttentionKernel kernel = attention_kernel(s);
  const double measured = measured_attention_rate(s, kernel);
  // A kernel without a published rate here runs at FlashAttention-2's where that one has a rate, the
  // Triton FlashAttention at kTritonAttentionRatio of it (fitted where it ran) and any other kernel at
  // FlashAttention-2's, a floor of its class (the older FlashAttention-1 is slower: FlashAttention-2
  // paper, Dao 2023, about 2x); never at the GEMM rate, which no attention kernel reaches
  // (FlashAttention-3 paper, Shah et al. 2024: FlashAttention-2 at 35 % of H100 peak).
  const double flash2 = measured_attention_rate(s, AttentionKernel::flash2);
  const double gemm = large_gemm_ratio(s, cal);
  const double triton_ratio = kernel == AttentionKernel::flash_triton ? cal.triton_attention_ratio.value : 1.0;
  const double e = measured > 0 ? measured : flash2 > 0 ? triton_ratio * flash2 : gemm;
  if (ex) {
    // The length, the head dimension and their ratios, for the explanation only
    // (measured_attention_rate applied them).
    // A kernel without a rate here runs at FlashAttention-2's: show the ratios that rate took.
    const int shown = static_cast<int>(measured > 0 ? kernel : AttentionKernel::flash2);
    const double length = attention_kernel_length(s);
    const double scale = scale_at(s.cluster.attention_length_scale[shown], length);
    const double head_dim = attention_kernel_head_dim(s.model);
    const double head_scale = scale_at(s.cluster.attention_head_dim_scale[shown], head_dim);
    ex->add("time.attention_efficiency", e, "1",
            measured > 0 ? "the accelerator's measured forward + backward rate of this fused attention kernel / 16-bit "
                           "dense peak, in the kernel's own FLOP count (catalog attention_efficiency), x its published "
                           "change at the kernel's length, seq_len / cp (catalog attention_length_scale, "
                           "interpolated in log2 length; 1 where none is published; the catalog source says where "
                           "a part takes its architecture's), x its published change at the model's head dimension "
                           "(catalog attention_head_dim_scale, the same way)"
            : flash2 > 0
                ? "no published rate of this kernel on this accelerator: FlashAttention-2's measured rate here, at "
                  "this length, x kTritonAttentionRatio for the Triton FlashAttention, x 1 for any other kernel (a "
                  "floor of its class)"
                : "no published rate of any attention kernel on this accelerator: its large-GEMM ratio is used",
            {{"measured", measured},
             {"kernel_length", length},
             {"length_scale", scale},
             {"head_dim", head_dim},
             {"head_dim_scale", head_scale},
             {"flash2_measured", flash2},
             {cal.triton_attention_ratio.name, triton_ratio},
             {"gemm_ratio", gemm},
             {"kernel", static_cast<double>(kernel)}});
  }
  return e;
}

// The linear layers' GEMMs run at the compute precision's peak. With FP8 (Transformer Engine)
// only they do: attention, softmax, norms and the optimizer stay in 16-bit (NVIDIA Transformer
// Engine documentation, "Using FP8 with Transformer Engine": te.Linear / LayerNormLinear /
// LayerNormMLP run FP8 GEMMs, DotProductAttention runs in BF16/FP16).
double peak_tflops(const Scenario& s) {
  switch (s.precision) {
    case Precision::fp32: return s.cluster.peak_fp32_tflops;
    case Precision::fp8: return s.cluster.peak_fp8_tflops;
    default: return s.cluster.peak_16bit_tflops;
  }
}

namespace {

// What eager PyTorch reads and writes beyond a fused kernel, per token and layer in the forward
// pass, counted op by op in torchtitan's Llama (torchtitan/models/llama/model.py; Hugging Face's
// LlamaRMSNorm, rotate_half RoPE and LlamaMLP make the same passes):
// - RMSNorm, x.float() -> pow(2) -> mean -> x * rsqrt -> type_as -> * weight: 4 e + 28 bytes per
//   element where a fused kernel reads and writes 2 e; two per block.
// - RoPE, x.float() -> view_as_complex -> * freqs_cis -> view_as_real -> type_as, on q and k:
//   2 e + 16 where a fused kernel takes 2 e.
// - SwiGLU, silu(w1 x) * (w3 x): silu reads and writes f, the product reads 2 f and writes f:
//   5 e f where a fused kernel takes 3 e f.
// LayerNorm (one ATen kernel), GeLU and learned or ALiBi positions add nothing.
// The gated activation's part alone: 2 e f, all that remains eager with techniques.eager_activation.
// (f counts each routed expert's padded rows: routed_rows, ModelArch::padded_mlp_width.)
double eager_activation_bytes(const ModelArch& m, double e, int tp, double routed_rows) {
  return m.gated_mlp ? 2.0 * e * m.padded_mlp_width(routed_rows) / tp : 0.0;
}

double eager_bytes_per_token_layer(const ModelArch& m, double e, double h_share, int tp, double routed_rows) {
  double bytes = 0;
  if (m.norm == NormKind::rmsnorm) bytes += 2.0 * (2.0 * e + 28.0) * h_share;
  if (m.learned_positions == 0) {
    const bool mla = m.attention == AttentionKind::mla;
    const double q = mla ? static_cast<double>(m.heads) * m.qk_rope_head_dim : m.q_width();
    const double k = mla ? m.qk_rope_head_dim : m.k_width();
    bytes += 16.0 * (q + k) / tp;
  }
  return bytes + eager_activation_bytes(m, e, tp, routed_rows);
}

// Seconds that memory-bound kernels take to move `bytes` through HBM, at the share of its datasheet
// bandwidth they reach (kMemBwEfficiency).
double hbm_s(const Scenario& s, const Calibration& cal, double bytes) {
  return bytes / (s.cluster.memory_bw_gb_per_s * 1e9 * cal.mem_bw_efficiency.value);
}

// The hidden width of a token's row one GPU holds: h, over TP with sequence parallelism.
double hidden_share(const Scenario& s) {
  return sequence_sharded(s.parallel) ? s.model.hidden / static_cast<double>(s.parallel.tp) : s.model.hidden;
}

// Tokens of a step one GPU's pipeline stage runs: the global batch's over DP and CP.
double stage_tokens_per_gpu(const Scenario& s) {
  return static_cast<double>(s.effective_global_batch()) * s.seq_len / (s.dp() * s.parallel.cp);
}

// Blocks of the average pipeline stage, layers / pp: the memory-bound terms count one stage's blocks
// and compute_s scales them by the stage imbalance.
double stage_layers(const Scenario& s) { return static_cast<double>(s.model.layers) / s.parallel.pp; }

// Memory-bound time per GPU per step: elementwise passes over (h + f) and, without
// FlashAttention, over the a x s score matrix; forward, backward (2x) and recomputed forward.
double elementwise_s(const Scenario& s, const Calibration& cal) {
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const double e = element_bytes(s.precision);
  const double h_share = hidden_share(s);
  const double eager = !s.techniques.fused_kernels ? eager_bytes_per_token_layer(m, e, h_share, x.tp, x.padded_rows())
                       : s.techniques.eager_activation ? eager_activation_bytes(m, e, x.tp, x.padded_rows())
                                                       : 0.0;
  // A gated MLP (SwiGLU, GeGLU) carries two f-wide intermediates, gate and up, where a plain one has one.
  const double mlp_tensors = m.gated_mlp ? 2.0 : 1.0;
  const double per_token_layer =
      cal.elementwise_passes.value * (h_share + mlp_tensors * m.padded_mlp_width(x.padded_rows()) / x.tp) * e + eager;
  const double scores =
      x.flash_attention ? 0.0 : cal.softmax_passes.value * m.heads * static_cast<double>(s.seq_len) * e / x.tp;
  const double passes = 3.0 + forward_reruns(s);
  const double score_passes = 3.0 + attention_reruns(s);
  const double tokens = stage_tokens_per_gpu(s);
  const double layers = stage_layers(s);
  // FP8 (Transformer Engine) casts every linear layer's 16-bit input to FP8 before its GEMM, in the
  // forward pass (the inputs of QKV, the output projection, FC1 and FC2: 3 x h + f per token) and
  // again for the gradients in backward: read 2 bytes, write 1, each time (Transformer Engine,
  // "Using FP8 with Transformer Engine": activations and gradients are quantized per GEMM).
  const double fp8_casts =
      s.precision == Precision::fp8
          ? 2.0 * (3.0 * h_share + m.padded_mlp_width(x.padded_rows()) / x.tp) * 3.0 * (1.0 + 0.5 * forward_reruns(s))
          : 0.0;
  return hbm_s(s, cal, tokens * layers * (passes * per_token_layer + score_passes * scores + fp8_casts));
}

// Ring attention merges each step's partial output into the running one (log-sum-exp rescaling) and
// adds each step's partial gradients: passes over this GPU's output chunk (o = attn_out_width / tp a
// token), query chunk (q / tp) and key/value chunk (kv = the ring's width / tp) that the attention
// kernels do not make. Counted for the last CP rank, which merges the most: with the load-balanced
// causal split its later steps use its whole query and half of the keys and values.
// - Transformer Engine's P2P ring (AttnFuncWithCPAndKVP2P) corrects its 16-bit output once after
//   the loop, a copy for the first step and a read-add-write for each later one
//   (flash_attn_fwd_out_correction): (2 + 3 (cp - 1)) e an output element; backward adds dq the same
//   way (dq.add_) and dKV at half width after the first step (dkv[:, :, 0].add_).
// - PyTorch's (_SDPAMerger with convert_to_f32, torchtitan), about, op by op: forward, e + 4 to
//   convert the first output, e + 36 to merge each later one in fp32 (out - sigmoid(lse' - lse)
//   (out - block_out)), 4 + e to cast back, and keys and values packed to send at each of cp - 1
//   steps (2 e); backward, fp32 accumulators zeroed (4), dq added each step (8 + e) and cast back
//   (4 + e); dK and dV added whole at the first step (8 + e), then half-width adds each concatenated
//   whole (4 + e / 2 + 8), packed to send in fp32 (8) with the keys and values (2 e), and cast back.
double cp_merge_s(const Scenario& s, const Flops& f, const Calibration& cal, Explainer* ex) {
  const Parallel& x = s.parallel;
  if (x.cp <= 1 || !x.flash_attention) {
    if (ex) ex->add("time.cp_merge_s", 0.0, "s", "0: no context parallelism or no fused attention kernel", {});
    return 0;
  }
  const double e = element_bytes(s.precision), cp = x.cp, later = cp - 1;
  const double o = s.model.attn_out_width() / x.tp, q = s.model.q_width() / x.tp, kv = cp_kv_width(s) / x.tp;
  const double forwards = f.attention_forward_passes, trained = s.trained_share();
  const bool pytorch = cp_runs_pytorch_ring(s);
  const double fwd = pytorch ? (8 + 2 * e + later * (36 + e)) * o + 2 * e * later * kv : (2 + 3 * later) * e * o;
  const double bwd = pytorch ? (8 + e + (8 + e) * cp) * q + (16 + 2 * e + later * (20 + 2.5 * e)) * kv
                             : (2 + 3 * later) * e * q + (2 + 1.5 * later) * e * kv;
  const double layers = stage_layers(s);
  const double tokens = stage_tokens_per_gpu(s);
  const double t = hbm_s(s, cal, tokens * layers * (forwards * fwd + trained * bwd));
  if (ex)
    ex->add("time.cp_merge_s", t, "s",
            "tokens x layers per stage x (forward passes x fwd + trained share x bwd) bytes / (HBM bandwidth x "
            "kMemBwEfficiency): ring attention's merges of each step's partial output and gradients, for the last "
            "CP rank, per output (o / tp), query (q / tp) and key/value (kv / tp) element of a token. Transformer "
            "Engine (16-bit, AttnFuncWithCPAndKVP2P): fwd (2 + 3 (cp - 1)) e o, bwd (2 + 3 (cp - 1)) e q + (2 + 1.5 "
            "(cp - 1)) e kv; PyTorch (_SDPAMerger, fp32): fwd (8 + 2 e + (cp - 1) (36 + e)) o + 2 e (cp - 1) kv, bwd "
            "(8 + e + (8 + e) cp) q + (16 + 2 e + (cp - 1) (20 + 2.5 e)) kv; part of memory_bound_s",
            {{"cp", cp},
             {"pytorch_ring", pytorch ? 1.0 : 0.0},
             {"fwd_bytes_per_token_layer", fwd},
             {"bwd_bytes_per_token_layer", bwd},
             {"forward_passes", forwards},
             {"trained_share", trained},
             {"layers_per_stage", layers},
             {"tokens_per_gpu", tokens},
             {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
             {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value}});
  return t;
}

// Bytes the cross-entropy moves through HBM per token and entry of the GPU's vocabulary share, forward
// and backward, counted op by op:
// - Megatron-Core's vocab-parallel cross-entropy (tensor_parallel/cross_entropy.py, unfused, the
//   Megatron-LM default): .float() 2 + 4, max 4, subtract in place 8, exp in place 8, sum 4, divide
//   in place 8; backward: scale in place 8, the cast back to 16 bits 4 + 2. 52.
// - PyTorch's cross_entropy on upcast logits (Hugging Face, plain loops, torchtune, torchtitan):
//   .float() 6, log_softmax 16 (rows this long are read three times, for the max, the sum and the
//   output, which is written once), nll; backward: nll's dense zero gradient 4, log_softmax's backward
//   16 (the incoming gradient read for its sum, then again with the output, one write), the cast
//   back 6. 48.
// - One fused kernel on the 16-bit logits (fused_ce, flash-attn's CrossEntropyLoss; torch.compile's
//   fused log-softmax and nll): forward reads them twice (max, then sum of exponentials), backward
//   reads them and writes the gradient. 8.
// - Liger: its kernel reads a chunk's 16-bit logits twice and writes their gradient in place. 6.
// - Cut Cross-Entropy computes the logits block by block on chip and writes none. 0.
double loss_bytes_per_vocab_entry(const Scenario& s) {
  switch (s.techniques.fused_loss) {
    case FusedLoss::cce: return 0.0;
    case FusedLoss::liger: return 6.0;
    case FusedLoss::fused_ce: return 8.0;
    case FusedLoss::none: break;
  }
  if (s.techniques.compile) return 8.0;
  return s.framework == FrameworkKind::megatron ? 52.0 : 48.0;
}

// Memory-bound time per step of the loss over the vocabulary on a GPU of the last pipeline stage,
// which alone runs it (each multi-token prediction module adds a loss of its own).
double loss_s(const Scenario& s, const ParamCount& p, const Calibration& cal) {
  const double vocab_share = static_cast<double>(s.model.vocab) / s.parallel.tp;
  return hbm_s(s, cal, stage_tokens_per_gpu(s) * (1.0 + p.mtp_layers) * vocab_share * loss_bytes_per_vocab_entry(s));
}

// Memory-bound time per GPU per step of routing tokens to experts and back: copies of hidden-wide
// rows the GEMMs do not count, per token and MoE block in the forward pass, by Megatron-Core's token
// dispatcher (megatron/core/transformer/moe/token_dispatcher.py, moe_utils.py):
// - permute: each of a token's k copies reads its row and writes it in expert order, 2 k rows;
//   unpermute reads the k expert outputs and writes the combined row, k + 1;
// - without EP (Megatron's allgather dispatcher) the permutation runs on the tokens gathered over
//   expert TP with sequence parallelism, every rank permuting them all: (3 k + 1) x etp;
// - the all-to-all dispatcher permutes its own tokens before the all-to-all, and with several experts
//   a rank sorts the received rows by local expert and back after it (sort_chunks_by_idxs), 2 k rows
//   each on the rows gathered over expert TP with sequence parallelism: 3 k + 1 + 4 k x etp;
// - DeepEP (the flex dispatcher) receives a token once per rank holding one of its experts (R ranks)
//   and permutes the received rows into expert order and back: 2 k + k + R; HybridEP's dispatch and
//   combine kernels write and read the rows in expert order themselves (dispatch_with_permute,
//   combine_with_unpermute): no copies on the compute stream.
// Each copy's backward moves the same rows the other way, and a recomputed forward repeats them.
// (Permute's backward is a k-to-1 sum, k + 1 rows, and the routing probabilities' gradient reads
// the k expert outputs once more: about the forward's rows in all.)
double moe_permute_rows(const Scenario& s) {
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const double k = m.top_k;
  const double gathered = expert_tp_gather(x);
  if (x.ep <= 1) return (3 * k + 1) * gathered;
  if (x.ep_dispatcher == EpDispatcher::hybridep) return 0;
  if (x.ep_dispatcher == EpDispatcher::deepep) return 3 * k + x.ep * holders_reached(s, m.experts / x.ep);
  // Padded to capacity, each of those copies carries c x the routed rows (parallel.moe_capacity_factor).
  const double ck = k * x.padded_rows();
  return 3 * ck + 1 + (m.experts / x.ep > 1 ? 4 * ck * gathered : 0.0);
}

double moe_permute_s(const Scenario& s, const ParamCount& p, const Calibration& cal, Explainer* ex) {
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const double blocks = routed_blocks(s, p) / x.pp;
  if (!m.is_moe() || blocks == 0) {
    if (ex) ex->add("time.moe_permute_s", 0.0, "s", "0: no MoE blocks, no tokens routed to experts", {});
    return 0;
  }
  const double k = m.top_k;
  const double rows = moe_permute_rows(s);
  const double passes = 2.0 + forward_reruns(s);
  const double tokens = stage_tokens_per_gpu(s);
  const double bytes = tokens * blocks * passes * rows * hidden_share(s) * element_bytes(s.precision);
  const double t = hbm_s(s, cal, bytes);
  if (ex)
    ex->add("time.moe_permute_s", t, "s",
            "tokens x MoE blocks per stage x passes (forward, backward, + a forward rerun by full or selective_op "
            "recompute) x hidden-wide rows copied per token x h (/ tp with sequence parallelism) x bytes / (HBM "
            "bandwidth x kMemBwEfficiency); rows: permute k copies in and out, unpermute k in and 1 out, 3 k + 1; "
            "without EP x expert TP with sequence parallelism (the allgather dispatcher permutes the gathered "
            "tokens); the all-to-all dispatcher with several experts a rank + 4 k (x expert TP with sequence "
            "parallelism) for its sort by local expert and back; DeepEP 3 k + R, R the ranks a token reaches; "
            "HybridEP 0, its kernels placing the rows in expert order; with parallel.moe_capacity_factor c the "
            "all-to-all dispatcher's k is c k, the padded rows "
            "(Megatron-Core token_dispatcher.py, moe_utils.permute, unpermute, sort_chunks_by_idxs); part of "
            "memory_bound_s",
            {{"top_k", k},
             {"rows_per_token", rows},
             {"passes", passes},
             {"tokens_per_gpu", tokens},
             {"moe_blocks_per_stage", blocks},
             {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
             {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value}});
  return t;
}

// Unmerged LoRA adapters run beside their frozen layers: result + lora_B(lora_A(x)) x scale
// (PEFT tuners/lora/layer.py Linear.forward, torchtune LoRALinear, NeMo AutoModel LinearLoRA).
// Per token and adapted layer, in rows of the layer's input (in) and output (out) widths
// (lora_adapter_widths):
// - the rank-wide GEMMs read x and write lora_B's output forward (1 in + 1 out), and backward read
//   the output gradient twice and x once and write an input gradient (2 in + 2 out). At rank r they
//   do 2 r / e FLOPs a byte, below an accelerator's ridge point (peak x GEMM ratio / bandwidth) up to
//   ranks of about 130 on an A100, 220 on an H100 and 30 on an H20, so they take the longer of their
//   FLOPs and their rows; gemm_s holds the adapter FLOPs of training_flops, and the rest is added;
// - eager, the scale reads and writes lora_B's output and the add reads both outputs and writes the
//   sum (5 out); backward the scale's gradient reads and writes (2 out) and autograd adds the
//   adapter's input gradient to the frozen layer's (3 in);
// - torch.compile fuses the scale and the adds into neighbouring kernels, which read lora_B's output
//   (1 out) and the input gradient (1 in) once more; backward the scaled gradient both of lora_B's
//   GEMMs read is written once (1 out);
// - PEFT (framework hf) keeps the adapters in fp32 (get_peft_model's autocast_adapter_dtype) and casts
//   x to their dtype, which autocast casts back for the GEMM: 2 + 4 bytes each way, 6 rows of a
//   16-bit model's in a forward and 6 in backward; PEFT's 4-bit layer clones the frozen output
//   (bnb.py Linear4bit.forward, 2 out a forward).
// A forward rerun by full or selective_op recompute repeats the forward. No LoRA dropout (PEFT's and
// torchtune's default 0): a dropout copies x once more.
struct AdapterRows {
  double gemm = 0, pointwise = 0;  // rows a token and adapted block moves, in the compute dtype's bytes
};
AdapterRows lora_adapter_rows(const Scenario& s, const AdapterWidths& w, double forwards) {
  const double in = w.in, out = w.out;
  AdapterRows r;
  r.gemm = (forwards + 2.0) * (in + out);
  r.pointwise = s.techniques.compile ? forwards * out + in + out : forwards * 5.0 * out + 3.0 * in + 2.0 * out;
  const bool sixteen_bit = s.precision == Precision::bf16 || s.precision == Precision::fp16;
  if (s.framework == FrameworkKind::hf && sixteen_bit) r.pointwise += forwards * 6.0 * in + 6.0 * in;
  if (s.framework == FrameworkKind::hf && s.method == Method::qlora) r.pointwise += forwards * 2.0 * out;
  return r;
}

double lora_adapter_s(const Scenario& s, const Calibration& cal, const Flops& f, double gemm_flops_per_s,
                      Explainer* ex) {
  if (!s.is_peft()) {
    if (ex) ex->add("time.lora_adapter_s", 0.0, "s", "0: no LoRA adapters (method is not lora or qlora)", {});
    return 0;
  }
  const Parallel& x = s.parallel;
  const double forwards = 1.0 + forward_reruns(s);
  // With sequence parallelism the expert layers run on the shards their expert-TP group gathers.
  const double gathered = expert_tp_gather(x);
  const AdapterWidths w = lora_adapter_widths(s.model, s.lora.targets,
                                              {.tp = static_cast<double>(x.tp),
                                               .etp = static_cast<double>(x.expert_tp()),
                                               .row_out = hidden_share(s),
                                               .expert_tokens = gathered / (sequence_sharded(x) ? x.tp : 1.0),
                                               .expert_row_out = s.model.hidden / gathered});
  const AdapterRows rows = lora_adapter_rows(s, w, forwards);
  const double e = element_bytes(s.precision);
  const double stage_tokens = stage_tokens_per_gpu(s);
  const double token_layers = stage_tokens * stage_layers(s);
  // The adapter GEMMs at the longer of their FLOPs and their rows, less the FLOPs gemm_s holds (a
  // GPU's 1 / (tp x pp) share of training_flops' adapter terms).
  const double adapter_flops = f.adapter_per_token * stage_tokens / (x.tp * x.pp);
  const double row_s = hbm_s(s, cal, token_layers * e);
  const double rows_s = row_s * rows.gemm;
  const double own_flops_s = token_layers * 2.0 * s.lora.rank * rows.gemm / gemm_flops_per_s;
  const double gemm_extra = std::max(0.0, std::max(rows_s, own_flops_s) - adapter_flops / gemm_flops_per_s);
  const double t = gemm_extra + row_s * rows.pointwise;
  if (ex)
    ex->add(
        "time.lora_adapter_s", t, "s",
        "result + lora_B(lora_A(x)) x scale, in rows of the adapted layers' inputs (in) and outputs (out) a token "
        "and block: max(GEMM rows (forwards + 2) (in + out) x bytes / (HBM bandwidth x kMemBwEfficiency), 2 rank "
        "FLOPs a GEMM row / GEMM rate) - adapter FLOPs in gemm_s, at least 0; + pointwise rows x bytes / the same "
        "bandwidth: eager 5 out x forwards + 3 in + 2 out, torch.compile out x forwards + in + out, PEFT's fp32 "
        "adapters (hf, 16-bit) + 6 in x (forwards + 1), its 4-bit clone + 2 out x forwards; forwards 1 + r with full "
        "recompute (r the share of the blocks that recompute), 2 with selective_op; x token-blocks per stage",
        {{"inputs_per_token_layer", w.in},
         {"outputs_per_token_layer", w.out},
         {"rank", static_cast<double>(s.lora.rank)},
         {"forwards", forwards},
         {"gemm_rows", rows.gemm},
         {"gemm_rows_s", rows_s},
         {"gemm_flops_s", own_flops_s},
         {"adapter_flops_in_gemm_s", adapter_flops / gemm_flops_per_s},
         {"pointwise_rows", rows.pointwise},
         {"token_layers_per_stage", token_layers},
         {"bytes_per_element", e},
         {"gemm_TFLOPS", gemm_flops_per_s / 1e12},
         {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
         {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value}});
  return t;
}

// Parameters and trained parameters one GPU holds the 16-bit copies of (its TP x PP share of the
// dense ones, EP x ETP x PP of the routed experts), and of the trained ones the routed experts'
// share, which reduces over the expert-data-parallel group.
struct RankParams {
  double weights = 0, trained = 0, trained_routed = 0;
  double routed = 0;  // of `weights`, the routed experts'
};
RankParams rank_params(const Scenario& s, const ParamCount& p, const MemoryResult& mem) {
  const Parallel& x = s.parallel;
  const double dense_ranks = static_cast<double>(x.tp) * x.pp;
  const double expert_ranks = static_cast<double>(x.expert_tp()) * x.pp * x.ep;
  const double routed = s.model.is_moe() ? s.model.moe_layers() * p.mlp_routed : 0.0;
  const double routed_trained = routed_trainable_params(s, p);
  // Freeze-tuning an MoE model counts its trained blocks at the average block's size: never below 0.
  const double dense_trained = std::max(0.0, mem.trainable_params - routed_trained);
  return {.weights = (p.total - routed) / dense_ranks + routed / expert_ranks,
          .trained = dense_trained / dense_ranks + routed_trained / expert_ranks,
          .trained_routed = routed_trained / expert_ranks,
          .routed = routed / expert_ranks};
}

// Bytes a gathered weight moves, over all the weights of a GPU's share: with FP8 weights
// (fp8_params) the block linears' 1 B (those fp8_covers_routed_experts says), Megatron-LM's
// --fp8-param-gather and torchao's float8 all-gather; the rest, embeddings and norms, at `sixteen_bit`.
double gathered_weight_bytes(const Scenario& s, const ParamCount& p, const RankParams& r, double sixteen_bit) {
  if (!s.fp8_params || r.weights <= 0) return sixteen_bit;
  const double fp8 = average_block_linear_params(s, p) - (fp8_covers_routed_experts(s) ? 0.0 : r.routed);
  const double linear_share = std::clamp(fp8 / r.weights, 0.0, 1.0);
  return sixteen_bit - linear_share * (sixteen_bit - 1.0);
}

// The bytes a data-parallel all-gather moves of one GPU's trained weights, the dense group's and the
// routed experts' (which gather over the expert-data-parallel group with EP, with the rest without):
// 16-bit, or with FP8 weights 1 B a block linear they cover (fp8_covers_routed_experts). PEFT's adapters
// stay 16-bit.
struct TrainedGather {
  double dense = 0, experts = 0;
};
TrainedGather trained_gather_bytes(const Scenario& s, const ParamCount& p, const RankParams& r, double dense,
                                   double experts) {
  const double e = element_bytes(s.precision);
  if (!s.fp8_params) return {dense * e, experts * e};
  // The trained block linears other than the routed experts, and the routed ones the dense group holds (no EP).
  const double non_routed = std::max(0.0, trained_block_linear_params(s, p) - r.trained_routed);
  const double routed_in_dense = s.parallel.ep > 1 ? 0.0 : r.trained_routed;
  const bool experts_fp8 = fp8_covers_routed_experts(s);
  const double dense_fp8 = non_routed + (experts_fp8 ? routed_in_dense : 0.0);
  return {dense * e - std::min(dense, dense_fp8) * (e - 1.0), experts * (experts_fp8 ? 1.0 : e)};
}

// FSDP2 (torchtune, torchtitan) copies on the compute stream, so the block waits for the copies:
// - each gathered parameter out of the all-gather buffer into its own tensor before the block
//   runs, reading and writing its 16-bit weights (FSDPParamGroup.wait_for_unshard ->
//   foreach_all_gather_copy_out), at every gather: forward and again backward per micro-batch,
//   once per pipeline schedule where pipeline stages keep the weights gathered;
// - the block's gradients into one reduce-scatter buffer in the reduce dtype before switching to
//   the reduce-scatter stream (foreach_reduce -> foreach_reduce_scatter_copy_in), at every
//   reduction.
// Source: torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py and _fsdp_collectives.py.
// FSDP1 gathers straight into the flat parameter whose views the block reads: no copy.
double fsdp2_copy_bytes(const Scenario& s, const ParamCount& p, const RankParams& r) {
  const Parallel& x = s.parallel;
  const bool fsdp2 = s.framework == FrameworkKind::torchtitan || s.framework == FrameworkKind::torchtune;
  if (!fsdp2 || x.zero < 3 || s.dp() * x.cp <= 1 || x.offload != Offload::none) return 0;
  const bool once = keeps_gathered_weights(s);
  const double e = element_bytes(s.precision);
  // QLoRA gathers its block linears in NF4. Backward gathers only the blocks it runs through: all
  // of them with adapters, the trained top blocks of a freeze-tune.
  const double w = s.method == Method::qlora ? kNf4BytesPerParam : gathered_weight_bytes(s, p, r, e);
  const double backward_weights = s.is_peft() ? r.weights : std::min(r.weights, r.trained);
  const double schedules = s.pp_schedules();
  const double gathered = once ? schedules * r.weights : s.grad_accum() * (r.weights + backward_weights);
  const double reduce = grad_reduce_bytes(s);
  if (!once) return gathered * 2.0 * w + s.grad_accum() * r.trained * (e + reduce);
  // Gradients accumulated unsharded over a schedule's micro-batches: in a reduce dtype wider than
  // the parameters', FSDPParam.to_accumulated_grad_if_needed upcasts the first micro-batch's (read
  // e, write 4) and accumulate_unsharded_grad_if_needed adds each later one (current PyTorch casts,
  // e + 4, then adds, 4 + 4 + 4; earlier releases added in one kernel); the reduce-scatter then
  // copies in the accumulated gradients (4 + 4).
  const double m = s.schedule_micro_batches();
  const double accumulated =
      reduce > e ? (e + reduce) + (m - 1) * (e + reduce + 3.0 * reduce) + 2.0 * reduce : e + reduce;
  return gathered * 2.0 * w + schedules * r.trained * accumulated;
}

// DeepSpeed's BF16_Optimizer adds each micro-batch's bf16 gradients into its fp32 gradients after
// the backward (update_hp_grads: hp_grad.add_(lp.grad.to(fp32)), called by the pipeline engine's
// _exec_backward_pass and by backward()): the cast reads 2 B and writes 4, the add reads 4 + 4 and
// writes 4, 18 B per trained parameter per micro-batch (deepspeed/runtime/bf16_optimizer.py).
double deepspeed_accumulation_bytes(const Scenario& s, const RankParams& r) {
  if (!deepspeed_bf16_optimizer(s)) return 0;
  return s.grad_accum() * r.trained * (2.0 + 4.0 + 3.0 * 4.0);
}

// Time the framework spends copying weights and gradients on the compute stream, at HBM bandwidth.
double framework_copy_s(const Scenario& s, const ParamCount& p, const MemoryResult& mem, const Calibration& cal) {
  const RankParams r = rank_params(s, p, mem);
  return hbm_s(s, cal, fsdp2_copy_bytes(s, p, r) + deepspeed_accumulation_bytes(s, r));
}

// QLoRA keeps the block linears in NF4 and dequantises each to a copy in the compute dtype before
// every GEMM that reads it (bitsandbytes dequantize_4bit then F.linear; torchao's NF4Tensor in
// torchtune likewise): reading the NF4 weight and its double-quantised constants and writing the copy, per
// micro-batch in the forward pass, in backward (the input gradient; the frozen weight has no
// gradient of its own) and in the recomputed forward (Dettmers et al. 2023, 'QLoRA', §3).
double qlora_dequant_s(const Scenario& s, const ParamCount& p, const Calibration& cal, Explainer* ex) {
  const double params = s.method == Method::qlora ? average_block_linear_params(s, p) : 0.0;
  const double passes = 2.0 + forward_reruns(s);
  const double copy = element_bytes(s.precision);  // the compute dtype: 2 bytes, 4 in fp32
  const double t = hbm_s(s, cal, s.grad_accum() * passes * params * (kNf4BytesPerParam + copy));
  if (ex)
    ex->add("time.qlora_dequant_s", t, "s",
            "0 unless method qlora. QLoRA dequantises every NF4 block linear to a copy in the compute dtype before "
            "each GEMM that reads it: micro-batches x passes (forward, backward, + the recomputed forward) x "
            "block-linear parameters per GPU x (NF4 bytes + the copy's) / (HBM bandwidth x kMemBwEfficiency) "
            "(bitsandbytes dequantize_4bit, torchao NF4Tensor; Dettmers et al. 2023 §3)",
            {{"micro_batches", static_cast<double>(s.grad_accum())},
             {"passes", passes},
             {"block_linear_params_per_gpu", params},
             {"nf4_bytes_per_param", kNf4BytesPerParam},
             {"copy_bytes_per_param", copy},
             {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
             {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value}});
  return t;
}

}  // namespace

double busiest_stage_layers(const Scenario& s) {
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  // The multi-token prediction modules' blocks run on the last stage, with their collectives.
  const double last = split.last + s.techniques.mtp_layers;
  return std::max({static_cast<double>(split.first), s.parallel.pp > 2 ? split.middle : 0.0, last});
}

namespace {
// One block's work in parameter units: its matmul parameters + its attention FLOPs / 2.
double block_work(const Scenario& s, const ParamCount& p) {
  const ModelArch& m = s.model;
  const double logits = static_cast<double>(m.vocab) * m.hidden;
  return (matmul_params(p, m) - logits - p.mtp_matmul) / m.layers + attention_fwd_flops(m, s.seq_len) / m.layers / 2;
}
}  // namespace

double logit_layer_equivalents(const Scenario& s, const ParamCount& p) {
  const double per_block = block_work(s, p);
  return per_block > 0 ? static_cast<double>(s.model.vocab) * s.model.hidden / per_block : 0.0;
}

double mtp_layer_equivalents(const Scenario& s, const ParamCount& p) {
  const double per_block = block_work(s, p);
  const double mtp = p.mtp_matmul + mtp_attention_fwd_flops(p, s.model, s.seq_len) / 2;
  return per_block > 0 ? mtp / per_block : 0.0;
}

namespace {
// The busiest and the last pipeline stage's work / the average stage's, in blocks: the last stage
// also runs the logit layer and the multi-token prediction modules (the loss aside).
struct StageShares {
  double busiest = 1, last = 1;
};

StageShares stage_shares(const Scenario& s, const ParamCount& p) {
  if (s.parallel.pp <= 1) return {};
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  const double last_extra = logit_layer_equivalents(s, p) + mtp_layer_equivalents(s, p);
  const double last = split.last + last_extra;
  const double busiest = std::max({static_cast<double>(split.first), static_cast<double>(split.middle), last});
  const double average = (s.model.layers + last_extra) / s.parallel.pp;
  return {busiest / average, last / average};
}
}  // namespace

double stage_imbalance(const Scenario& s, const ParamCount& p) { return stage_shares(s, p).busiest; }

Compute estimate_compute(const Scenario& s, const ParamCount& p, const MemoryResult& mem, const Calibration& cal,
                         Explainer* ex) {
  Compute c;
  c.flops = training_flops(s, p, ex);
  // With TP comm overlap some GEMMs run on chunks of the tokens; time.gemm_efficiency then explains
  // the combined figure (split_gemm_efficiency), the whole GEMM's among its inputs.
  // Routed experts run on the rows that reach them (with_routed_experts).
  const SplitGemms split = tp_overlap_split_gemms(s, p);
  const bool splits = split.share_by_tp + split.share_by_4 > 0;
  // The routed experts' share of the FLOPs the linear layers run (all but fused attention's).
  const double tokens_per_gpu = static_cast<double>(s.effective_global_batch()) * s.seq_len / s.cluster.gpus;
  const bool fused = s.parallel.flash_attention;
  const double attention_hw = fused ? c.flops.attention_per_token * tokens_per_gpu : 0.0;
  const double linear_flops = c.flops.hardware_per_gpu_step - attention_hw;
  const double routed_run = routed_flops_per_gpu(s, p) * s.parallel.padded_rows();  // padded rows included
  const double routed = linear_flops > 0 ? std::clamp(routed_run / linear_flops, 0.0, 1.0) : 0.0;
  const double whole_gemm_efficiency = gemm_efficiency(s, cal, splits || routed > 0 ? nullptr : ex);
  c.gemm_efficiency = splits ? split_gemm_efficiency(s, cal, whole_gemm_efficiency, split, routed > 0 ? nullptr : ex)
                             : whole_gemm_efficiency;
  const double routed_gemm_efficiency = routed > 0 ? gemm_efficiency_at(s, cal, routed_gemm_d(s)) : 0.0;
  if (routed > 0)
    c.gemm_efficiency =
        with_routed_experts(s, cal, c.gemm_efficiency, whole_gemm_efficiency, routed, routed_gemm_efficiency, ex);
  const double peak = peak_tflops(s) * 1e12;
  // Fused attention is its own kernel at its own measured rate, in 16-bit even in FP8 runs; without
  // it the score GEMMs run as batched GEMMs with the linear layers.
  c.attention_efficiency = fused ? attention_efficiency(s, cal, ex) : 0.0;
  if (ex && !fused)
    ex->add("time.attention_efficiency", 0.0, "1",
            "no fused attention: the score GEMMs run as batched GEMMs at the GEMM efficiency", {});
  c.attention_s = fused ? c.flops.attention_kernel_per_token * tokens_per_gpu /
                              (s.cluster.peak_16bit_tflops * 1e12 * c.attention_efficiency)
                        : 0.0;
  c.gemm_s = linear_flops / (peak * c.gemm_efficiency);
  c.expert_imbalance_s = expert_imbalance_s(s, p, cal, peak * routed_gemm_efficiency, ex);  // 0 without EP
  c.gemm_s += c.expert_imbalance_s;
  c.moe_permute_s = moe_permute_s(s, p, cal, ex);
  c.loss_s = loss_s(s, p, cal);
  c.lora_adapter_s = lora_adapter_s(s, cal, c.flops, peak * c.gemm_efficiency, ex);
  c.cp_merge_s = cp_merge_s(s, c.flops, cal, ex);
  c.memory_bound_s = elementwise_s(s, cal) + c.moe_permute_s + c.lora_adapter_s + c.cp_merge_s;
  c.framework_copy_s = framework_copy_s(s, p, mem, cal);
  c.dequant_s = qlora_dequant_s(s, p, cal, ex);
  // Per-GPU FLOPs are the average over the stages; the pipeline moves at the pace of the stage with
  // the most work: blocks, and on the last stage the logit layer too.
  const StageShares shares = stage_shares(s, p);
  const double imbalance = shares.busiest;
  // A trial's measured throughput scales every compute rate (calibrate.hpp); 1 otherwise.
  // The loss runs on the last stage alone, which is the pace when it is the busiest with it.
  const double stage_work = c.gemm_s + c.attention_s + c.memory_bound_s + c.framework_copy_s + c.dequant_s;
  c.compute_s = std::max(stage_work * imbalance, stage_work * shares.last + c.loss_s) / s.compute_factor();
  c.achieved_tflops = c.flops.hardware_per_gpu_step / c.compute_s / 1e12;
  c.executed_flops = c.flops.hardware_per_gpu_step - attention_hw +
                     (fused ? c.flops.attention_kernel_per_token * tokens_per_gpu : 0.0);
  c.stage_imbalance = imbalance;
  if (ex)
    ex->add("time.stage_imbalance", imbalance, "1",
            "work of the busiest pipeline stage / the average stage's, in blocks (the last stage also runs the "
            "logit layer, V h / (block matmul parameters + attention FLOPs / 2) blocks, and the multi-token "
            "prediction modules): the pipeline moves at the pace of its busiest stage (compute_s includes it)",
            {{"busiest_stage_layers", busiest_stage_layers(s)},
             {"logit_layer_blocks", logit_layer_equivalents(s, p)},
             {"mtp_blocks", mtp_layer_equivalents(s, p)},
             {"layers", static_cast<double>(s.model.layers)},
             {"pp", static_cast<double>(s.parallel.pp)}});
  if (ex) {
    ex->add("time.attention_s", c.attention_s, "s",
            "fused attention kernel FLOPs per GPU per step / (16-bit dense peak x attention efficiency); kernel FLOPs "
            "= forward A / 2 (causal blocks skipped) x (1 + t x 2.5 backward with score recompute, + t with full "
            "recompute), t the trained share of the blocks (1 but for freeze-tuning) (FlashAttention-2, Dao 2023)",
            {{"kernel_flops_per_token", c.flops.attention_kernel_per_token},
             {"tokens_per_gpu", tokens_per_gpu},
             {"peak16_TFLOPS", s.cluster.peak_16bit_tflops},
             {"attention_efficiency", c.attention_efficiency}});
    if (c.framework_copy_s > 0)
      ex->add("time.framework_copy_s", c.framework_copy_s, "s",
              "the framework's copies of weights and gradients on the compute stream / (HBM bandwidth x "
              "kMemBwEfficiency): FSDP2 (torch/distributed/fsdp/_fully_shard) copies each gathered 16-bit weight "
              "out of the all-gather buffer (read + write) at every gather, forward and backward per micro-batch or "
              "once per pipeline schedule with pipeline stages, and the gradients into the reduce-scatter buffer in "
              "the reduce "
              "dtype at every reduction; DeepSpeed's BF16_Optimizer adds each micro-batch's bf16 gradients into "
              "fp32 ones, 18 B per trained parameter (deepspeed/runtime/bf16_optimizer.py, update_hp_grads)",
              {{"grad_accum", static_cast<double>(s.grad_accum())},
               {"pp_flushes", static_cast<double>(s.pp_schedules())},
               {"gathered_weights_kept", keeps_gathered_weights(s) ? 1.0 : 0.0},
               {"grad_reduce_bytes", grad_reduce_bytes(s)},
               {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
               {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value}});
    ex->add("time.compute_s", c.compute_s, "s",
            "(linear-layer FLOPs per GPU per step / (dense peak x GEMM efficiency) + fused attention kernel "
            "FLOPs / (16-bit peak x attention efficiency) + memory-bound time + QLoRA's dequantisation) x stage "
            "imbalance; memory-bound time = tokens x layers x passes x (kElementwisePasses x (h + f, h + 2 f "
            "with a gated MLP) x bytes + the eager ops' extra bytes without techniques.fused_kernels: RMSNorm 2 "
            "(2 e + 28) h, RoPE 16 (q + k), SwiGLU 2 e f; the SwiGLU part alone with techniques.eager_activation) (+ "
            "kSoftmaxPasses x heads x seq_len without "
            "FlashAttention) / (HBM bandwidth x kMemBwEfficiency) + MoE token copies (time.moe_permute_s) + LoRA "
            "adapters' rows (time.lora_adapter_s) + ring attention's merges (time.cp_merge_s); + the framework's "
            "copies (time.framework_copy_s); the loss (loss_s) "
            "runs on the last pipeline stage: "
            "tokens x vocab / tp x bytes a vocabulary entry (Megatron 52, PyTorch's cross_entropy 48, a fused "
            "kernel or torch.compile 8, Liger 6, Cut Cross-Entropy 0) at the same bandwidth, and the step "
            "computes at the pace of the busiest stage or of the last one with its loss, whichever is slower; / "
            "the measured compute factor when a trial run calibrates the scenario",
            {{"flops_per_gpu", c.flops.hardware_per_gpu_step},
             {"peak_TFLOPS", peak / 1e12},
             {"gemm_efficiency", c.gemm_efficiency},
             {"gemm_s", c.gemm_s},
             {"attention_s", c.attention_s},
             {"attention_kernel_flops_per_token", c.flops.attention_kernel_per_token},
             {"memory_bound_s", c.memory_bound_s},
             {"loss_s", c.loss_s},
             {"moe_permute_s", c.moe_permute_s},
             {"lora_adapter_s", c.lora_adapter_s},
             {"cp_merge_s", c.cp_merge_s},
             {"framework_copy_s", c.framework_copy_s},
             {"fused_kernels", s.techniques.fused_kernels ? 1.0 : 0.0},
             {"eager_activation", s.techniques.eager_activation ? 1.0 : 0.0},
             {"hbm_GBps", s.cluster.memory_bw_gb_per_s},
             {cal.elementwise_passes.name, cal.elementwise_passes.value},
             {cal.softmax_passes.name, cal.softmax_passes.value},
             {cal.mem_bw_efficiency.name, cal.mem_bw_efficiency.value},
             {"qlora_dequant_s", c.dequant_s},
             {"measured_compute_factor", s.compute_factor()}});
    ex->add("time.achieved_tflops_per_gpu", c.achieved_tflops, "TFLOP/s",
            "hardware FLOPs per GPU per step (recompute and padded expert rows included) / compute_s: the rate while "
            "computing",
            {{"flops_per_gpu", c.flops.hardware_per_gpu_step}, {"compute_s", c.compute_s}});
  }
  return c;
}

//-----------------------------------------------------------------------------
// [SECTION] Communication step
//-----------------------------------------------------------------------------

double allreduce_s(double bytes, int n, double busbw, double latency_s) {
  if (n <= 1 || bytes <= 0) return 0;
  return 2.0 * (n - 1) / n * bytes / busbw + 2.0 * (n - 1) * latency_s;
}

double Comm::intra_bytes() const {
  return (tp_inter_node ? 0 : tp_bytes) + (pp_inter_node ? 0 : pp_bytes) + (dp_inter_node ? 0 : dp_bytes) +
         (cp_inter_node ? 0 : cp_bytes) + (ep_bytes - ep_inter_node_bytes);
}
double Comm::inter_bytes() const {
  return (tp_inter_node ? tp_bytes : 0) + (pp_inter_node ? pp_bytes : 0) + (dp_inter_node ? dp_bytes : 0) +
         (cp_inter_node ? cp_bytes : 0) + ep_inter_node_bytes;
}
namespace {

// ZeRO-1/2 the DeepSpeed way: the framework deepspeed, and Hugging Face, whose Trainer and Accelerate
// shard below ZeRO-3 with DeepSpeed (launch.cpp, accelerate_yaml and sharding_argument).
bool deepspeed_zero(const Scenario& s) {
  return s.framework == FrameworkKind::deepspeed || s.framework == FrameworkKind::hf;
}

// A once-a-step data-parallel exchange (ZeRO 0-2): `reduce_s` per gradient reduction, `reductions`
// of them, and the weights' all-gather `gather_s` (0 for ZeRO-0).
struct DpExchange {
  double reduce_s = 0, gather_s = 0;
  int reductions = 1;
  int gathers = 1;
};

// Its exposed part. Backward is two thirds of a micro-batch's compute (Kaplan et al. 2020: 2N
// forward, 4N backward), the forward one third. A gradient reduction (ZeRO-0's all-reduce, ZeRO-1/2's
// reduce-scatter) runs as its buckets fill during a backward: the last micro-batch's, or with
// DeepSpeed's ZeRO-2 each micro-batch's (partition_gradients: runtime/zero/stage_1_and_2.py,
// reduce_ready_partitions_and_remove_grads). The weights' all-gather can only follow the optimizer
// step: DeepSpeed runs it at the end of step() ("ready for next round forward"), exposed;
// Megatron-Core's distributed optimizer with --overlap-param-gather (which its launch command sets)
// waits for each bucket's gather in a forward pre-hook of the next step's first micro-batch, and FSDP
// prefetches the gathers of a forward, so there it hides behind one micro-batch's forward.
// DeepSpeed's pipeline engine reduces after the flush: its TrainSchedule appends ReduceTiedGrads,
// ReduceGrads and OptimizerStep after the last backward (runtime/pipe/schedule.py).
// FSDP under torch.distributed.pipelining reduces after the schedule's last backward has run: the
// stage calls each FSDP group's post_backward by hand once that backward returns, and
// _root_post_backward_final_callback makes the compute stream wait for the reduce-scatters
// (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync, "Manually call post backward
// for FSDP"). The first stage runs the pipeline's last backward, so its reduction ends the step.
// DDP's bucketed all-reduce still runs during that backward (prepare_for_backward).
bool reduces_after_pipeline_backward(const Scenario& s) {
  return s.framework == FrameworkKind::torchtitan && s.parallel.pp > 1 && s.parallel.zero >= 1;
}

double dp_exposed_s(const Scenario& s, const DpExchange& d, double compute_per_mb_s, double overlap) {
  if (deepspeed_zero(s) && s.parallel.pp > 1) return d.reductions * d.reduce_s + d.gathers * d.gather_s;
  const double backward = compute_per_mb_s * 2.0 / 3.0;
  const double hidden = reduces_after_pipeline_backward(s) ? 0.0 : overlap * backward;
  const double reduce = d.reductions * std::max(0.0, d.reduce_s - hidden);
  if (deepspeed_zero(s)) return reduce + d.gathers * d.gather_s;
  return reduce + d.gathers * std::max(0.0, d.gather_s - overlap * (compute_per_mb_s - backward));
}

}  // namespace

double Comm::exposed_s() const { return tp_exposed_s + pp_exposed_s + dp_exposed_s + cp_exposed_s + ep_exposed_s; }

LinkBandwidth link_bandwidth(const Scenario& s) {
  const Cluster& c = s.cluster;
  LinkBandwidth l;
  const double intra =
      c.intra_busbw_gb_per_s > 0 ? c.intra_busbw_gb_per_s : c.intra_busbw_fraction * c.intra_node_gb_per_s;
  const int per_node = std::max(1, std::min(c.gpus, c.gpus_per_node));
  l.intra_busbw = intra * 1e9;
  l.nic_busbw = s.network.node_gb_per_s * s.network.busbw_fraction / per_node * 1e9;
  l.node_busbw = per_node > 1 ? std::min(l.intra_busbw, per_node * l.nic_busbw) : l.nic_busbw;
  l.intra_latency_s = 2e-6;
  l.inter_latency_s = s.network.latency_us * 1e-6;
  return l;
}

GroupLink group_link(const Scenario& s, int ranks, int stride) {
  return group_link(s, link_bandwidth(s), ranks, stride);
}

GroupLink group_link(const Scenario& s, const LinkBandwidth& l, int ranks, int stride) {
  const int per_node = std::max(1, std::min(s.cluster.gpus, s.cluster.gpus_per_node));
  GroupLink g;
  g.ranks = std::max(1, ranks);
  g.ranks_per_node = stride >= per_node ? 1 : std::max(1, std::min(g.ranks, per_node / std::max(1, stride)));
  g.nodes = (g.ranks + g.ranks_per_node - 1) / g.ranks_per_node;
  g.inter_node = g.nodes > 1;
  g.busbw = !g.inter_node          ? l.intra_busbw
            : g.ranks_per_node > 1 ? std::min(l.intra_busbw, g.ranks_per_node * l.nic_busbw)
                                   : l.nic_busbw;
  g.intra_latency_s = l.intra_latency_s;
  g.inter_latency_s = l.inter_latency_s;
  return g;
}

double group_allreduce_s(double bytes, const GroupLink& g) {
  if (g.ranks <= 1 || bytes <= 0) return 0;
  const double steps_intra = 2.0 * (g.ranks_per_node - 1);
  const double steps_inter = 2.0 * (g.nodes - 1);
  return 2.0 * (g.ranks - 1) / g.ranks * bytes / g.busbw + steps_intra * g.intra_latency_s +
         steps_inter * g.inter_latency_s;
}

namespace {
// Of the pipeline's sends and receives, the ones on the critical path. Without overlap every one
// is (1F1B; Megatron-LM overlaps none without virtual stages). With parallel.pp_comm_overlap the
// interleaved schedule's steady state posts a forward chunk's activation transfer after the chunk
// and waits for it before the next forward chunk, so it runs during the backward chunk between;
// the gradient's runs during the forward chunk after its backward chunk. Each exposes only its
// excess over that chunk. The warm-up's forward and the flush's backward transfers stay
// synchronous (overlap_p2p_comm_warmup_flush off by default; megatron/core/pipeline_parallel/
// schedules.py, forward_backward_pipelining_with_interleaving). A chunk's forward is one of its
// linear_passes, the backward (with a rerun forward) the rest.
// With parallel.pp_flushes f, each of the f schedules has its own warm-up and flush.
double pipeline_exposed_s(const Scenario& s, double pp_s, double compute_s) {
  const Parallel& x = s.parallel;
  if (!x.pp_comm_overlap || x.vp <= 1 || x.pp <= 1) return pp_s;
  const int m = s.schedule_micro_batches();
  const double flushes = s.pp_schedules();
  const double chunks = static_cast<double>(m) * x.vp;  // of one schedule
  const double warmup = rank0_warmup_chunks(x, m);
  const double transfer_s = pp_s / (2.0 * chunks * flushes);  // one chunk's activation or gradient
  const double forward_s = compute_s / (chunks * flushes) / linear_passes(s);
  const double backward_s = compute_s / (chunks * flushes) - forward_s;
  const double steady = std::max(0.0, transfer_s - backward_s) + std::max(0.0, transfer_s - forward_s);
  return flushes * (2.0 * warmup * transfer_s + (chunks - warmup) * steady);
}
}  // namespace

Comm estimate_comm(const Scenario& s, const ParamCount& p, const MemoryResult& mem, const Compute& compute,
                   const Calibration& cal, Explainer* ex) {
  const LinkBandwidth l = link_bandwidth(s);
  const Parallel& x = s.parallel;
  const int per_node = s.cluster.gpus_per_node;
  // Rank order TP, CP, DP, PP (topology.hpp rank_role): each group's neighbours sit `stride` ranks
  // apart. Gradients are reduced over DP x CP (Megatron-LM), the ranks between TP and PP.
  const int dp = s.dp();
  const int dp_ranks = dp * x.cp;
  const GroupLink tp_group = group_link(s, l, x.tp, 1);
  const GroupLink dp_group = group_link(s, l, dp_ranks, x.tp);
  const GroupLink pp_group = group_link(s, l, x.pp, x.tp * x.cp * dp);
  const int m = std::max(1, s.grad_accum());
  const double compute_per_mb_s = compute.compute_s / m;
  const double e = element_bytes(s.precision);
  // b (s / cp) h: one layer boundary of this GPU's tokens
  const double act = static_cast<double>(s.micro_batch) * s.seq_len / x.cp * s.model.hidden * e;
  const double layers_per_stage = busiest_stage_layers(s);  // the pipeline waits for the busiest stage
  const Constant& tp_overlap = cal.tp_comm_overlap;
  const Constant& dp_overlap = cal.dp_overlap;
  const Constant& zero3_overlap = cal.zero3_overlap;
  Comm c;

  // Tensor parallel (Megatron): 2 all-reduces forward + 2 backward per layer (sequence
  // parallelism swaps them for all-gather + reduce-scatter of the same volume); full recompute
  // repeats the forward pair. On the critical path.
  if (x.tp > 1) {
    c.tp_inter_node = tp_group.inter_node;
    const double per_layer = tp_collectives_per_block(s);
    const TpMlpShare mlp = tp_mlp_share(s);
    // A block's collectives: half its attention's, half its MLP's (mlp.blocks of them at that size).
    const double count = per_layer * m * (layers_per_stage + mlp.blocks) / 2.0;
    c.tp_bytes = count * 2.0 * (x.tp - 1) / x.tp * act;
    c.tp_s = count * group_allreduce_s(act, tp_group);
    // With overlap, the collectives the framework pipelines with their GEMMs hide behind compute.
    const double hideable = c.tp_s * tp_overlapped_collectives_per_layer(s) / per_layer;
    c.tp_exposed_s = x.tp_comm_overlap ? c.tp_s - std::min(hideable, tp_overlap.value * m * compute_per_mb_s) : c.tp_s;
    // The routed rows an expert-tensor-parallel group gathers after the all-to-all and scatters back
    // are the dispatcher's own collectives, outside Transformer Engine's overlapped GEMMs: exposed.
    if (mlp.expert_tp_blocks > 0) {
      const GroupLink etp_group = group_link(s, l, x.expert_tp(), 1);
      const double rows = act * s.model.top_k * x.expert_tp() / x.tp;  // k rows a token, etp shards
      const double n = per_layer / 2.0 * mlp.expert_tp_blocks * m;
      c.tp_bytes += n * 2.0 * (x.expert_tp() - 1) / x.expert_tp() * rows;
      const double expert_s = n * group_allreduce_s(rows, etp_group);
      c.tp_s += expert_s;
      c.tp_exposed_s += expert_s;
    }
  }
  // Pipeline: each micro-batch sends its activations forward and their gradients back once per
  // stage boundary.
  if (x.pp > 1) {
    // Every GPU of a stage sends to its peer of the next stage at once, each through its own NIC.
    c.pp_inter_node = pp_group.inter_node;
    const double bw = c.pp_inter_node ? l.nic_busbw : l.intra_busbw;
    c.pp_bytes = 2.0 * m * act / x.tp * x.vp;  // interleaved: each micro-batch crosses vp boundaries per rank
    c.pp_s = c.pp_bytes / bw;
    // DeepSpeed's pipeline engine (runtime/pipe/schedule.py, TrainSchedule; pipe/p2p.py) receives and
    // sends with separate blocking dist.recv / dist.send calls, where Megatron batches a stage's
    // exchange (batch_isend_irecv): a middle stage's activation and gradient each cross its critical
    // path twice a boundary, received and then sent on. Under tensor parallelism it moves a 1/tp
    // partition (is_pipe_partitioned, is_grad_partitioned) and all-gathers it over the TP group: the
    // received activation, the received gradient and the saved output before its backward, three
    // all-gathers of b (s / cp) h a micro-batch, each half an all-reduce's bytes and steps.
    if (s.framework == FrameworkKind::deepspeed) {
      c.pp_s *= 2.0;
      if (x.tp > 1) c.pp_s += 3.0 * m * 0.5 * group_allreduce_s(act, tp_group);
    }
    c.pp_exposed_s = pipeline_exposed_s(s, c.pp_s, compute.compute_s);
  }
  // Data parallel: gradients of the trained parameters this GPU holds, once per step (ZeRO-1/2:
  // reduce-scatter + all-gather, same volume); ZeRO-3 gathers weights forward and backward and
  // reduce-scatters gradients every micro-batch: 1.5x the volume (ZeRO paper §7). With EP the
  // routed experts' gradients (1 / (ep x etp) of them per GPU) go over the expert-data-parallel
  // group, tp x cp x dp / (ep x etp) ranks, neighbours etp x ep apart (MoE parallel folding).
  if (dp_ranks > 1) {
    c.dp_inter_node = dp_group.inter_node;
    // Without EP every GPU holds its TP x PP share of the experts too: they reduce with the rest.
    const RankParams r = rank_params(s, p, mem);
    const double expert_per_gpu = x.ep > 1 ? r.trained_routed : 0.0;
    const double trained_per_gpu = r.trained - expert_per_gpu;
    const double grad_element = grad_reduce_bytes(s);
    const double grad_bytes = trained_per_gpu * grad_element;
    const TrainedGather g = trained_gather_bytes(s, p, r, trained_per_gpu, expert_per_gpu);
    const double expert_grad_bytes = expert_per_gpu * grad_element;
    const int edp = s.expert_dp();
    const GroupLink edp_group = x.ep > 1 ? group_link(s, l, edp, x.expert_tp() * x.ep) : dp_group;
    const double expert_ring = edp > 1 ? 2.0 * (edp - 1) / edp : 0.0;
    if (x.zero >= 3) {
      const double frozen_per_gpu =  // frozen weights are gathered too
          s.is_peft() ? p.total / (x.tp * x.pp) * gathered_weight_bytes(s, p, r, 2.0) : 0.0;
      // All-gather of the 16-bit weights forward and again backward, reduce-scatter of the gradients:
      // (w + w + g) / 2 in all-reduce terms (1.5x the 16-bit DP volume, ZeRO paper §7), per
      // micro-batch. With pipeline stages the gathered weights stay for the whole step and the
      // gradients are reduced at the last micro-batch (keeps_gathered_weights): (w + g) / 2 once.
      const bool once = keeps_gathered_weights(s);
      const double gathers = once ? 1.0 : 2.0;
      const double rounds = once ? s.pp_schedules() : m;
      const double per_mb = (gathers * g.dense + grad_bytes) / 2.0 + frozen_per_gpu;
      const double expert_per_mb = (gathers * g.experts + expert_grad_bytes) / 2.0;
      c.dp_bytes = rounds * 2.0 * (dp_ranks - 1) / dp_ranks * per_mb + rounds * expert_ring * expert_per_mb;
      // FSDP and ZeRO-3 gather and reduce block by block (Zhao et al. 2023, 'PyTorch FSDP', §3.3:
      // one FlatParameter per wrapped block): three collectives per block and micro-batch, each
      // paying its ring's latency, which small micro-batches cannot hide.
      const double ring_latency =
          (dp_group.ranks_per_node - 1) * dp_group.intra_latency_s + (dp_group.nodes - 1) * dp_group.inter_latency_s;
      c.dp_s = rounds * (group_allreduce_s(per_mb, dp_group) + (gathers + 1.0) * layers_per_stage * ring_latency) +
               rounds * group_allreduce_s(expert_per_mb, edp_group);
      // Under PyTorch's pipelining the reduce-scatters (g / 2 in all-reduce terms) follow the
      // schedule's last backward, exposed; the gathers still hide behind compute.
      const double after_backward_s = reduces_after_pipeline_backward(s)
                                          ? rounds * (group_allreduce_s(grad_bytes / 2.0, dp_group) +
                                                      group_allreduce_s(expert_grad_bytes / 2.0, edp_group))
                                          : 0.0;
      c.dp_exposed_s =
          after_backward_s + std::max(0.0, c.dp_s - after_backward_s - zero3_overlap.value * rounds * compute_per_mb_s);
    } else {
      const double reduce_all_s =
          group_allreduce_s(grad_bytes, dp_group) + group_allreduce_s(expert_grad_bytes, edp_group);
      DpExchange d;
      // PyTorch's pipeline schedules reduce the gradients at each schedule's last backward, and
      // FSDP reshards then and gathers again for the next (torch.distributed.pipelining,
      // backward_maybe_with_nosync): once per pipeline flush.
      d.reductions = d.gathers = s.pp_schedules();
      if (x.zero == 0) {
        d.reduce_s = reduce_all_s;
        c.dp_bytes = d.reductions * (2.0 * (dp_ranks - 1) / dp_ranks * grad_bytes + expert_ring * expert_grad_bytes);
      } else {
        // A reduce-scatter of the gradients and an all-gather of the 16-bit weights, each half of
        // an all-reduce of its own bytes (gradients in fp32 where the framework reduces so).
        d.reduce_s = reduce_all_s / 2.0;
        d.gather_s = (group_allreduce_s(g.dense, dp_group) + group_allreduce_s(g.experts, edp_group)) / 2.0;
        if (x.zero == 2 && deepspeed_zero(s)) d.reductions = m;
        const double ring = static_cast<double>(dp_ranks - 1) / dp_ranks;
        c.dp_bytes = d.reductions * (ring * grad_bytes + expert_ring / 2.0 * expert_grad_bytes) +
                     d.gathers * (ring * g.dense + expert_ring / 2.0 * g.experts);
      }
      c.dp_s = d.reductions * d.reduce_s + d.gathers * d.gather_s;
      c.dp_exposed_s = dp_exposed_s(s, d, compute_per_mb_s, dp_overlap.value);
    }
  }
  context_parallel_comm(s, l, compute, c, ex);
  expert_parallel_comm(s, l, cal, compute, c, ex);
  if (ex) {
    const double tp_bw = tp_group.busbw / 1e9;
    const double pp_bw = (c.pp_inter_node ? l.nic_busbw : l.intra_busbw) / 1e9;
    const double dp_bw = dp_group.busbw / 1e9;
    const TpMlpShare mlp = tp_mlp_share(s);
    const double tp_count = tp_collectives_per_block(s) * m * (layers_per_stage + mlp.blocks) / 2.0;
    ex->add("comm.tp.bytes", c.tp_bytes, "B",
            "collectives x 2 (tp - 1) / tp x b (s / cp) h bytes; 4 per layer per micro-batch (4 + 2 r with full "
            "recompute, r the share "
            "of the blocks that recompute), "
            "2 for a frozen block of freeze-tuning (its forward), Megatron; half of them the attention's, half the "
            "MLP's. A Megatron-Core MoE block under sequence parallelism routes each rank's own sequence shard: its "
            "routed experts move nothing across TP with etp 1 (the shared experts keep the MLP's half), and with etp "
            "> 1 the dispatcher gathers and scatters the rows it received over the expert-TP group instead, top_k "
            "rows a token (token_dispatcher.py)",
            {{"collectives", x.tp > 1 ? tp_count : 0.0},
             {"tp", static_cast<double>(x.tp)},
             {"activation_bytes", act},
             {"mlp_blocks", x.tp > 1 ? mlp.blocks : 0.0},
             {"expert_tp_blocks", x.tp > 1 ? mlp.expert_tp_blocks : 0.0},
             {"etp", static_cast<double>(x.expert_tp())}});
    ex->add("comm.tp.s", c.tp_s, "s",
            "collectives x ring all-reduce of b (s / cp) h bytes over tp ranks (nccl-tests bus bandwidth); the "
            "expert-TP group's, of top_k b (s / cp) h etp / tp bytes, over etp ranks",
            {{"bytes", act}, {"tp", static_cast<double>(x.tp)}, {"busbw_GBps", tp_bw}});
    ex->add("comm.tp.exposed_s", c.tp_exposed_s, "s",
            "tp.s on the critical path; with parallel.tp_comm_overlap tp.s - min(tp.s x overlapped / collectives, "
            "kTpCommOverlap x compute): Megatron-LM's userbuffers overlap every collective, PyTorch's async TP the "
            "forward's 2 per layer; the expert-TP group's gathers and scatters are the MoE dispatcher's own, "
            "exposed",
            {{"tp_s", c.tp_s},
             {"tp_comm_overlap", x.tp_comm_overlap ? 1.0 : 0.0},
             {"overlapped", tp_overlapped_collectives_per_layer(s)},
             {"collectives", tp_collectives_per_block(s)},
             {tp_overlap.name, tp_overlap.value}});
    ex->add("comm.pp.bytes", c.pp_bytes, "B",
            "2 x micro-batches x b (s / cp) h bytes / tp x vp (activations forward, gradients back; the interleaved "
            "schedule crosses vp stage boundaries per rank, Narayanan et al. 2021 §2.2.2)",
            {{"micro_batches", static_cast<double>(m)},
             {"activation_bytes", act},
             {"tp", static_cast<double>(x.tp)},
             {"vp", static_cast<double>(x.vp)}});
    ex->add("comm.pp.s", c.pp_s, "s",
            "pp.bytes / link bandwidth of the stage boundary; framework deepspeed: twice that (its engine receives "
            "and sends with separate blocking calls) + 3 all-gathers of b (s / cp) h over the tp ranks a micro-batch "
            "(its 1/tp partitions rebuilt: the received activation and gradient and the saved output)",
            {{"bytes", c.pp_bytes},
             {"pp", static_cast<double>(x.pp)},
             {"busbw_GBps", pp_bw},
             {"deepspeed", s.framework == FrameworkKind::deepspeed ? 1.0 : 0.0}});
    ex->add(
        "comm.pp.exposed_s", c.pp_exposed_s, "s",
        x.pp_comm_overlap && x.vp > 1
            ? "interleaved schedule with parallel.pp_comm_overlap: t = pp.s / (2 f m vp) a transfer, f = "
              "parallel.pp_flushes schedules of m micro-batches each; each schedule's warm-up forward and flush "
              "backward transfers exposed, 2 f W t, W = min(m vp, 2 (pp - 1) + (vp - 1) pp) warm-up chunks of rank 0; "
              "each of the f (m vp - W) steady-state steps exposes max(0, t - backward) + max(0, t - forward) of one "
              "chunk (compute / (f m vp), its forward 1 / linear passes of it)"
            : "point-to-point sends are not overlapped (1F1B, or parallel.pp_comm_overlap off): pp.exposed_s = "
              "pp.s",
        {{"pp_s", c.pp_s},
         {"pp", static_cast<double>(x.pp)},
         {"micro_batches", static_cast<double>(s.schedule_micro_batches())},
         {"pp_flushes", static_cast<double>(s.pp_schedules())},
         {"vp", static_cast<double>(x.vp)},
         {"warmup_chunks", x.vp > 1 ? rank0_warmup_chunks(x, s.schedule_micro_batches()) : 0.0},
         {"linear_passes", linear_passes(s)},
         {"compute_s", compute.compute_s}});
    ex->add("comm.dp.bytes", c.dp_bytes, "B",
            "2 (n - 1) / n x gradient bytes this GPU holds over n = dp x cp ranks (ZeRO-3: x 1.5 per micro-batch, "
            "ZeRO paper §7; with pipeline stages x 1 once per pipeline schedule, the gathered weights kept); once per "
            "pipeline schedule (parallel.pp_flushes) without ZeRO-3 too; with EP the routed experts' 1 / ep over dp x "
            "cp / ep ranks",
            {{"dp", static_cast<double>(dp)},
             {"cp", static_cast<double>(x.cp)},
             {"ep", static_cast<double>(x.ep)},
             {"zero", static_cast<double>(x.zero)},
             {"pp_flushes", static_cast<double>(s.pp_schedules())},
             {"trainable_params", mem.trainable_params}});
    ex->add(
        "comm.dp.s", c.dp_s, "s",
        "ring all-reduce 2 (n-1)/n x gradient bytes / bus bandwidth; ZeRO-1/2: a reduce-scatter of the gradients "
        "(each micro-batch with DeepSpeed's ZeRO-2) plus an all-gather of the 16-bit weights, (n-1)/n x bytes each; "
        "ZeRO-3: 1.5x per micro-batch; each once per pipeline schedule with parallel.pp_flushes (PyTorch pipelining "
        "reduces, and FSDP regathers, at each schedule's last backward); across nodes busbw = min(scale-up busbw, "
        "ranks "
        "per node x one NIC's busbw)",
        {{"ranks", static_cast<double>(dp_ranks)},
         {"bytes", c.dp_bytes},
         {"busbw_GBps", dp_bw},
         {"ranks_per_node", static_cast<double>(dp_group.ranks_per_node)},
         {"nodes", static_cast<double>(dp_group.nodes)}});
    ex->add(
        "comm.dp.exposed_s", c.dp_exposed_s, "s",
        "each gradient reduction (ZeRO-0's all-reduce; ZeRO-1/2's reduce-scatter, each micro-batch with DeepSpeed's "
        "ZeRO-2) max(0, its time - kDpOverlap x a micro-batch's backward), plus ZeRO-1/2's all-gather of the weights "
        "after the optimizer step: all of it with DeepSpeed (and Hugging Face, which shards with it), else max(0, its "
        "time - kDpOverlap x the next step's first micro-batch forward) (Megatron-Core --overlap-param-gather, FSDP "
        "prefetch); backward 2/3 and forward 1/3 of a micro-batch's compute; DeepSpeed with pipeline stages: all of "
        "dp.s, reduced after the flush; ZeRO-3: max(0, dp.s - kZero3Overlap x compute of the micro-batches it gathers "
        "for: all of them, or one with pipeline stages); FSDP under PyTorch's pipelining (torchtitan with pipeline "
        "stages): every gradient reduce-scatter whole, after each schedule's last backward",
        {{"dp_s", c.dp_s},
         {dp_overlap.name, dp_overlap.value},
         {zero3_overlap.name, zero3_overlap.value},
         {"compute_per_micro_batch_s", compute_per_mb_s}});
    ex->add("comm.intra_node_bytes", c.intra_bytes(), "B",
            "sum of tp, pp, dp and cp bytes whose group stays inside a node, and the all-to-alls' intra-node share",
            {{"tp_bytes", c.tp_bytes},
             {"pp_bytes", c.pp_bytes},
             {"dp_bytes", c.dp_bytes},
             {"cp_bytes", c.cp_bytes},
             {"ep_bytes", c.ep_bytes},
             {"gpus_per_node", static_cast<double>(per_node)}});
    ex->add("comm.inter_node_bytes", c.inter_bytes(), "B",
            "sum of tp, pp, dp and cp bytes whose group spans nodes, and the all-to-alls' inter-node share",
            {{"tp_inter_node", c.tp_inter_node ? 1.0 : 0.0},
             {"pp_inter_node", c.pp_inter_node ? 1.0 : 0.0},
             {"dp_inter_node", c.dp_inter_node ? 1.0 : 0.0},
             {"cp_inter_node", c.cp_inter_node ? 1.0 : 0.0},
             {"ep_inter_node_bytes", c.ep_inter_node_bytes}});
  }
  return c;
}

//-----------------------------------------------------------------------------
// [SECTION] Time step
//-----------------------------------------------------------------------------

namespace {

// ZeRO-Offload (Ren et al. 2021): CPU Adam over the trained parameters of the node's GPUs, the
// PCIe round trip of gradients and weights, and with ZeRO-Infinity NVMe swaps of the states.
double offload_s(const Scenario& s, const MemoryResult& mem, const Calibration& cal) {
  if (s.parallel.offload == Offload::none) return 0.0;
  const double trained_per_gpu =
      mem.trainable_params /
      (s.parallel.tp * s.parallel.pp * std::max(1, s.parallel.zero >= 1 ? s.dp() * s.parallel.cp : 1));
  const double gpus_node = std::min(s.cluster.gpus, s.cluster.gpus_per_node);
  const double cpu_adam = trained_per_gpu * gpus_node / cal.cpu_adam_params_per_s.value;
  const double pcie = trained_per_gpu * 4.0 / (s.cluster.pcie_gb_per_s * 1e9);  // grads down, weights up
  const double nvme = s.parallel.offload == Offload::nvme
                          ? mem.nvme_offload_bytes_per_node * 2.0 / (cal.nvme_offload_gb_per_s.value * 1e9)
                          : 0.0;
  return cpu_adam + pcie + nvme;
}

// Activation offloading (Megatron-LM megatron/core/cpu_offload.py, AsyncDoubleBufferGroupOffloadHandler:
// "D2h and h2d copying are completely hidden behind computation if computation time of a layer is
// longer than host-device communication time"; torchtune's OffloadActivations likewise on its own
// stream): a layer's saved tensors go to the host while the next layer runs forward, and come back
// while the one after it runs backward. Only a copy longer than that layer's compute shows, per
// offloaded layer and micro-batch. A layer's time is the stage's compute over its layers; forward
// is a third of the model FLOPs, recompute runs in backward.
double activation_offload_s(const Scenario& s, const Compute& compute, OffloadCopy* out = nullptr) {
  const double layers = busiest_stage_layers(s);
  const double offloaded = offloaded_layers(s, layers);
  if (offloaded <= 0 || layers <= 0 || compute.flops.hardware_per_token <= 0) return 0;
  OffloadCopy c;
  c.layers = offloaded;
  c.micro_batches = std::max(1, s.grad_accum());
  c.bytes = activation_bytes_per_layer(s.model, activation_shape(s));
  c.copy_s = c.bytes / (s.cluster.pcie_gb_per_s * 1e9);
  const double layer_s = compute.compute_s / (c.micro_batches * layers);
  c.forward_s = layer_s * compute.flops.model_per_token / (3.0 * compute.flops.hardware_per_token);
  c.backward_s = layer_s - c.forward_s;
  if (out) *out = c;
  return c.micro_batches * c.layers * (std::max(0.0, c.copy_s - c.forward_s) + std::max(0.0, c.copy_s - c.backward_s));
}

}  // namespace

TimeResult estimate_time(const Scenario& s, const MemoryResult& mem, const Compute& compute, const Comm& comm,
                         const Calibration& cal, Explainer* ex) {
  TimeResult t;
  t.flops = compute.flops;
  t.gemm_efficiency = compute.gemm_efficiency;
  t.attention_efficiency = compute.attention_efficiency;
  t.attention_s = compute.attention_s;
  t.qlora_dequant_s = compute.dequant_s;
  t.moe_permute_s = compute.moe_permute_s;
  t.lora_adapter_s = compute.lora_adapter_s;
  t.cp_merge_s = compute.cp_merge_s;
  t.stage_imbalance = compute.stage_imbalance;
  t.achieved_tflops = compute.achieved_tflops;
  t.compute_s = compute.compute_s;
  t.expert_imbalance_s = compute.expert_imbalance_s;
  t.comm = comm;
  // 1F1B bubble: (p - 1) / m of the ideal step; interleaved with v virtual stages (p - 1) / (v m)
  // (Narayanan et al. 2021 §2.2). The ideal step is compute and the per-layer communication on
  // its critical path (TP, CP's key/value exchange, EP's all-to-alls). Each of parallel.pp_flushes
  // schedules fills and drains with its own m micro-batches: f bubbles of (p - 1) / (v m) of a
  // schedule's ideal time, (p - 1) / (v m) of the step's.
  const int m = s.schedule_micro_batches();
  const int pp = s.parallel.pp;
  const double v = bubble_virtual_stages(s);
  const double bubble = pipeline_bubble_fraction(pp, v, m);
  const double ideal_s = t.compute_s + comm.tp_exposed_s + comm.cp_exposed_s + comm.ep_exposed_s;
  t.bubble_s = pp > 1 ? bubble * ideal_s : 0.0;
  OffloadCopy copy;
  t.activation_offload_s = activation_offload_s(s, compute, ex ? &copy : nullptr);
  t.offload_s = offload_s(s, mem, cal) + t.activation_offload_s;
  t.busy_s = t.compute_s + comm.tp_exposed_s + comm.pp_exposed_s + comm.dp_exposed_s + comm.cp_exposed_s +
             comm.ep_exposed_s + t.bubble_s + t.offload_s;
  t.tokens_per_step = static_cast<double>(s.effective_global_batch()) * s.seq_len;
  // The data of a step must come off the data tier; prefetching hides reads shorter than a step.
  const StorageChoice& st = s.storage;
  const double read_s = t.tokens_per_step * st.bytes_per_token / std::max(st.data_read_mb_per_s * 1e6, 1.0);
  t.io_stall_s = std::max(0.0, read_s - t.busy_s);
  t.step_s = t.busy_s + t.io_stall_s;
  t.tokens_per_s = t.tokens_per_step / t.step_s;
  const double peak = peak_tflops(s) * 1e12;
  t.mfu = t.flops.model_per_step / (t.step_s * s.cluster.gpus * peak);
  t.hfu = t.flops.hardware_per_gpu_step / (t.step_s * peak);
  t.executed_fraction = compute.executed_flops / (t.step_s * peak);
  t.model_tflops_per_gpu = t.flops.model_per_step / t.step_s / s.cluster.gpus / 1e12;
  const double tokens = s.training_tokens();
  t.steps = tokens > 0 ? std::ceil(tokens / t.tokens_per_step) : 0;
  t.training_hours = t.steps * t.step_s / 3600.0;
  if (ex) {
    ex->add("time.bubble_s", t.bubble_s, "s",
            "(p - 1) / (v m) x (compute + exposed TP, CP and EP time): 1F1B (v = 1) or interleaved 1F1B with v virtual "
            "stages per rank (Narayanan et al. 2021 §2.2.2); with chunks of unequal length v = L / ceil(L / vp), L the "
            "largest stage's blocks: the bubble follows the longest chunk; m the micro-batches of one pipeline "
            "schedule, the step's split over parallel.pp_flushes schedules, each filling and draining the pipeline",
            {{"p", static_cast<double>(pp)},
             {"v", v},
             {"vp", static_cast<double>(s.parallel.vp)},
             {"m", static_cast<double>(m)},
             {"pp_flushes", static_cast<double>(s.pp_schedules())},
             {"bubble_fraction", bubble}});
    ex->add(
        "time.offload_s", t.offload_s, "s",
        "ZeRO-Offload: trained params per GPU x GPUs per node / kCpuAdamParamsPerS + 4 B/param over the host link (+ "
        "NVMe swaps 2 x offloaded bytes / kNvmeOffloadGbPerS), + activation_offload_s",
        {{"offload", static_cast<double>(s.parallel.offload)},
         {cal.cpu_adam_params_per_s.name, cal.cpu_adam_params_per_s.value},
         {"host_link_GBps", s.cluster.pcie_gb_per_s},
         {cal.nvme_offload_gb_per_s.name, cal.nvme_offload_gb_per_s.value},
         {"activation_offload_s", t.activation_offload_s}});
    ex->add("time.activation_offload_s", t.activation_offload_s, "s",
            "micro-batches x offloaded layers x (max(0, copy - layer forward) + max(0, copy - layer backward)), copy "
            "= saved bytes of a layer / host link: each layer's copy runs beside the next layer's compute "
            "(Megatron-LM cpu_offload.py double buffer); layer time = stage compute / (micro-batches x stage layers), "
            "forward a third of its model FLOPs",
            {{"micro_batches", copy.micro_batches},
             {"offloaded_layers", copy.layers},
             {"saved_bytes_per_layer", copy.bytes},
             {"host_link_GBps", s.cluster.pcie_gb_per_s},
             {"copy_s", copy.copy_s},
             {"layer_forward_s", copy.forward_s},
             {"layer_backward_s", copy.backward_s}});
    ex->add("time.tokens_per_step", t.tokens_per_step, "token", "global_batch x seq_len",
            {{"global_batch", static_cast<double>(s.effective_global_batch())},
             {"seq_len", static_cast<double>(s.seq_len)}});
    ex->add("time.io_stall_s", t.io_stall_s, "s",
            "max(0, step tokens x bytes per token / data tier read rate - step time): "
            "prefetching hides reads shorter than a step",
            {{"read_s", read_s}, {"tier_MBps", st.data_read_mb_per_s}});
    ex->add("time.step_s", t.step_s, "s",
            "compute + exposed TP + exposed PP + exposed DP + exposed CP + exposed EP + bubble + offload + IO stall",
            {{"compute_s", t.compute_s},
             {"tp_exposed_s", comm.tp_exposed_s},
             {"pp_exposed_s", comm.pp_exposed_s},
             {"dp_exposed_s", comm.dp_exposed_s},
             {"cp_exposed_s", comm.cp_exposed_s},
             {"ep_exposed_s", comm.ep_exposed_s},
             {"bubble_s", t.bubble_s},
             {"offload_s", t.offload_s},
             {"io_stall_s", t.io_stall_s}});
    ex->add("time.exposed_comm_s", comm.exposed_s(), "s",
            "communication not hidden behind compute: tp, pp, dp, cp and ep exposed_s",
            {{"tp_exposed_s", comm.tp_exposed_s},
             {"pp_exposed_s", comm.pp_exposed_s},
             {"dp_exposed_s", comm.dp_exposed_s},
             {"cp_exposed_s", comm.cp_exposed_s},
             {"ep_exposed_s", comm.ep_exposed_s}});
    ex->add("time.tokens_per_s", t.tokens_per_s, "token/s", "global_batch x seq_len / step_s (whole cluster)",
            {{"tokens_per_step", t.tokens_per_step}, {"step_s", t.step_s}});
    ex->add("time.training_hours", t.training_hours, "h", "ceil(tokens / tokens per step) x step_s / 3600",
            {{"tokens", s.training_tokens()}, {"steps", t.steps}});
    ex->add("time.model_tflops_per_gpu", t.model_tflops_per_gpu, "TFLOP/s", "model FLOPs per step / step_s / GPUs",
            {{"model_flops_per_step", t.flops.model_per_step}});
    ex->add("time.mfu", t.mfu, "1",
            "model FLOPs per step / (step_s x GPUs x dense peak); model FLOPs exclude recompute",
            {{"model_flops_per_step", t.flops.model_per_step},
             {"gpus", static_cast<double>(s.cluster.gpus)},
             {"peak_TFLOPS", peak / 1e12}});
    ex->add(
        "time.executed_fraction", t.executed_fraction, "1",
        "FLOPs the kernels execute per GPU per step (GEMMs with recompute and padded expert rows, the fused attention "
        "kernel's own causal "
        "count) / (step_s x dense peak): at most the GEMM and attention kernels' measured rates; MFU counts "
        "attention without causal masking (Megatron, llm-foundry) and so can exceed it at long sequences",
        {{"executed_flops_per_gpu_step", compute.executed_flops}});
    ex->add("time.hfu", t.hfu, "1",
            "hardware FLOPs per GPU per step (recompute and padded expert rows included) / (step_s x dense peak)",
            {{"hardware_flops_per_gpu_step", t.flops.hardware_per_gpu_step},
             {"hardware_flops_per_token", t.flops.hardware_per_token},
             {"peak_TFLOPS", peak / 1e12}});
    ex->add("time.steps", t.steps, "1", "ceil(tokens / tokens per step)",
            {{"tokens", tokens}, {"tokens_per_step", t.tokens_per_step}});
  }
  return t;
}

//-----------------------------------------------------------------------------
// [SECTION] IO step: feeding the data
//-----------------------------------------------------------------------------

IoResult estimate_io(const Scenario& s, const TimeResult& t, const Calibration& cal, Explainer* ex) {
  IoResult io;
  const StorageChoice& st = s.storage;
  // The cluster's token rate while the GPUs are busy x bytes per token must come off the data tier.
  const double compute_rate = t.tokens_per_step / t.busy_s;
  io.data_bytes_per_s = compute_rate * st.bytes_per_token;
  io.data_tier_bytes_per_s = st.data_read_mb_per_s * 1e6;
  io.data_utilisation = io.data_tier_bytes_per_s > 0 ? io.data_bytes_per_s / io.data_tier_bytes_per_s : 0;
  const Constant& cores = cal.input_cores_per_gpu;
  io.input_cores_per_node = cores.value * std::min(s.cluster.gpus, s.cluster.gpus_per_node);
  const double dataset_tokens =
      st.dataset_tokens > 0 ? st.dataset_tokens : s.training_tokens() / std::max(s.epochs, 1.0);
  io.dataset_bytes = dataset_tokens * st.bytes_per_token;
  // Staging copies the dataset from object storage, which needs parallel clients: the catalog's fastest
  // published client (e.g. s5cmd, its README benchmark) x nodes, capped by the data tier (scenario.cpp).
  io.staging_h = st.staging_mb_per_s > 0 ? io.dataset_bytes / (st.staging_mb_per_s * 1e6) / 3600.0 : 0.0;
  if (ex) {
    ex->add("io.data_tier_bytes_per_s", io.data_tier_bytes_per_s, "B/s",
            "read throughput of the data tier (catalog storage)", {{"tier_MBps", st.data_read_mb_per_s}});
    ex->add("io.data_utilisation", io.data_utilisation, "1", "data bytes/s needed / data tier bytes/s",
            {{"data_bytes_per_s", io.data_bytes_per_s}, {"data_tier_bytes_per_s", io.data_tier_bytes_per_s}});
    ex->add("io.dataset_bytes", io.dataset_bytes, "B",
            "dataset tokens x bytes per token (dataset tokens = tokens / epochs unless given)",
            {{"dataset_tokens", dataset_tokens}, {"bytes_per_token", st.bytes_per_token}});
    ex->add("io.data_bytes_per_s", io.data_bytes_per_s, "B/s", "cluster tokens/s x bytes per token on disk",
            {{"bytes_per_token", st.bytes_per_token}, {"tier_MBps", st.data_read_mb_per_s}});
    ex->add("io.staging_h", io.staging_h, "h",
            "dataset bytes / min(object-store parallel clients x nodes, data tier write rate)",
            {{"dataset_bytes", io.dataset_bytes}, {"staging_MBps", st.staging_mb_per_s}});
    ex->add("io.input_cores_per_node", io.input_cores_per_node, "cores",
            "kInputCoresPerGpu x GPUs per node (planning rule of thumb: PyTorch DataLoader workers per GPU)",
            {{cores.name, cores.value}});
  }
  return io;
}

//-----------------------------------------------------------------------------
// [SECTION] Reliability step: checkpoints and interruptions
//-----------------------------------------------------------------------------

ReliabilityResult estimate_reliability(const Scenario& s, const MemoryResult& mem, const TimeResult& t,
                                       const IoResult& io, Explainer* ex) {
  ReliabilityResult r;
  const StorageChoice& st = s.storage;
  // Checkpoint: 16-bit weights + fp32 master + optimizer states of what trains (14 B/param for
  // AdamW, ZeRO paper §3); PEFT saves only the adapters.
  const StateBytesPerParam b = state_bytes_per_param(s.precision, s.optimizer, s.pure_bf16);
  r.checkpoint_bytes = mem.trainable_params * (b.weights + b.optimizer);
  r.checkpoint_write_s = r.checkpoint_bytes / (st.checkpoint_write_mb_per_s * 1e6);
  // Failures scale with the GPUs (the default rate comes from the Llama 3 paper §3.3.4: 419
  // unexpected interruptions in 54 days on up to 16,384 H100s); spot reclaims with the nodes.
  const double nodes = s.cluster.nodes();
  const double spot = s.pricing.mode == PricingMode::spot ? s.pricing.spot_interruptions_per_hour * nodes : 0.0;
  r.interruptions_per_hour = s.pricing.failures_per_gpu_hour * s.cluster.gpus + spot;
  r.mtbi_h = r.interruptions_per_hour > 0 ? 1.0 / r.interruptions_per_hour : std::numeric_limits<double>::infinity();
  const double c_h = r.checkpoint_write_s / 3600.0;
  // Young (1974): tau = sqrt(2 C M); the user's interval wins when given.
  r.checkpoint_interval_h = st.checkpoint_interval_h > 0 ? st.checkpoint_interval_h
                            : std::isfinite(r.mtbi_h)    ? std::sqrt(2.0 * c_h * r.mtbi_h)
                                                         : std::max(1.0, t.training_hours);
  r.checkpoint_interval_h = std::max(r.checkpoint_interval_h, c_h);
  // Stall to write + on each interruption, half an interval of lost work and the restart (Daly 2006).
  const double lost = std::isfinite(r.mtbi_h) ? (r.checkpoint_interval_h / 2.0 + s.pricing.restart_h) / r.mtbi_h : 0.0;
  r.overhead_fraction = c_h / r.checkpoint_interval_h + lost;
  r.total_hours = t.training_hours * (1.0 + r.overhead_fraction);
  r.gpu_hours = r.total_hours * s.cluster.gpus;
  r.retention_bytes = st.checkpoints_kept * r.checkpoint_bytes + io.dataset_bytes;
  r.expected_interruptions = r.total_hours * r.interruptions_per_hour;
  r.lost_work_h =
      std::isfinite(r.mtbi_h) ? r.expected_interruptions * (r.checkpoint_interval_h / 2.0 + s.pricing.restart_h) : 0.0;
  if (ex) {
    ex->add("checkpoint.size_bytes", r.checkpoint_bytes, "B",
            "trained parameters x (16-bit weights + fp32 master + optimizer states) bytes",
            {{"trainable_params", mem.trainable_params}, {"bytes_per_param", b.weights + b.optimizer}});
    ex->add("checkpoint.write_s", r.checkpoint_write_s, "s",
            "size / write throughput of the checkpoint tier for the whole job",
            {{"write_MBps", st.checkpoint_write_mb_per_s}});
    ex->add("checkpoint.interruptions_per_hour", r.interruptions_per_hour, "1/h",
            "failures per GPU-hour x GPUs + spot interruptions per node-hour x nodes (Llama 3 §3.3.4 default rate)",
            {{"failures_per_gpu_hour", s.pricing.failures_per_gpu_hour},
             {"gpus", static_cast<double>(s.cluster.gpus)},
             {"spot_per_hour", spot}});
    ex->add("checkpoint.interval_h", r.checkpoint_interval_h, "h",
            "Young (1974): sqrt(2 x write time x mean time between interruptions)",
            {{"write_h", c_h}, {"mtbi_h", std::isfinite(r.mtbi_h) ? r.mtbi_h : 0.0}});
    ex->add("checkpoint.overhead_fraction", r.overhead_fraction, "1",
            "write / interval + (interval / 2 + restart) / MTBI (Young 1974 / Daly 2006)",
            {{"write_h", c_h},
             {"interval_h", r.checkpoint_interval_h},
             {"restart_h", s.pricing.restart_h},
             {"mtbi_h", std::isfinite(r.mtbi_h) ? r.mtbi_h : 0.0}});
    ex->add("time.total_hours", r.total_hours, "h",
            "training hours x (1 + write/interval + (interval/2 + restart) / MTBI)",
            {{"training_hours", t.training_hours}, {"overhead_fraction", r.overhead_fraction}});
    ex->add("time.total_days", r.total_hours / 24.0, "d", "total hours / 24", {{"total_hours", r.total_hours}});
    ex->add("gpu_hours", r.gpu_hours, "GPU-h", "GPUs x total hours", {{"gpus", static_cast<double>(s.cluster.gpus)}});
    ex->add("checkpoint.expected_interruptions", r.expected_interruptions, "1", "total hours x interruptions per hour",
            {{"total_hours", r.total_hours}, {"interruptions_per_hour", r.interruptions_per_hour}});
    ex->add("checkpoint.lost_work_h", r.lost_work_h, "h", "expected interruptions x (interval / 2 + restart)",
            {{"interruptions", r.expected_interruptions},
             {"interval_h", r.checkpoint_interval_h},
             {"restart_h", s.pricing.restart_h}});
    ex->add("checkpoint.retention_bytes", r.retention_bytes, "B", "checkpoints kept x checkpoint size + dataset bytes",
            {{"checkpoints_kept", static_cast<double>(st.checkpoints_kept)},
             {"size_bytes", r.checkpoint_bytes},
             {"dataset_bytes", io.dataset_bytes}});
  }
  return r;
}

//-----------------------------------------------------------------------------
// [SECTION] Cost step
//-----------------------------------------------------------------------------

CostResult estimate_cost(const Scenario& s, const TimeResult& t, const ReliabilityResult& rel, Explainer* ex) {
  CostResult c;
  const Pricing& pr = s.pricing;
  c.usd_per_gpu_hour = pr.usd_per_gpu_hour;
  c.usd_to_cny = pr.usd_to_cny;
  // Rents sold by the month charge the whole block however short the job.
  c.used_hours = rel.total_hours * pr.overhead_factor;
  c.billed_hours = std::max(c.used_hours, pr.min_billing_hours);
  const double billed_hours = c.billed_hours;
  c.compute_usd = billed_hours * s.cluster.gpus * pr.usd_per_gpu_hour;
  const double months = std::max(s.storage.retention_months, rel.total_hours * pr.overhead_factor / 730.0);
  c.storage_usd = rel.retention_bytes / 1e12 * s.storage.usd_per_tb_month * months;
  c.total_usd = c.compute_usd + c.storage_usd;
  // The run trains whole steps: a run of fewer tokens than a step pays for, and trains, the whole
  // step, so its cost is spread over the tokens the steps carry.
  const double tokens = t.steps * t.tokens_per_step;
  // Without a token count, a billion tokens at the step's rate, with the same overheads (no
  // billing block: it belongs to a whole run).
  const double per_billion_h =
      t.tokens_per_s > 0 ? 1e9 / t.tokens_per_s / 3600.0 * (1.0 + rel.overhead_fraction) * pr.overhead_factor : 0.0;
  c.usd_per_billion_tokens =
      tokens > 0 ? c.total_usd / (tokens / 1e9) : per_billion_h * s.cluster.gpus * pr.usd_per_gpu_hour;
  c.total_cny = c.total_usd * pr.usd_to_cny;
  if (ex) {
    ex->add(
        "cost.usd_per_gpu_hour", pr.usd_per_gpu_hour, "USD",
        pr.price_source.empty() ? "no price in the catalog; give pricing.usd_per_gpu_hour" : pr.price_source.c_str(),
        {});
    ex->add("cost.compute_usd", c.compute_usd, "USD",
            "max(total hours x overhead factor, minimum billing hours) x GPUs x USD per GPU-hour",
            {{"gpu_hours", rel.gpu_hours},
             {"overhead_factor", pr.overhead_factor},
             {"usd_per_gpu_hour", pr.usd_per_gpu_hour},
             {"min_billing_hours", pr.min_billing_hours}});
    ex->add("cost.storage_usd", c.storage_usd, "USD", "(kept checkpoints + dataset) TB x USD per TB-month x months",
            {{"retention_TB", rel.retention_bytes / 1e12},
             {"usd_per_tb_month", s.storage.usd_per_tb_month},
             {"months", months}});
    ex->add("cost.total_usd", c.total_usd, "USD", "compute USD + storage USD",
            {{"compute_usd", c.compute_usd}, {"storage_usd", c.storage_usd}});
    ex->add("cost.usd_per_billion_tokens", c.usd_per_billion_tokens, "USD",
            "total USD / (steps x tokens per step / 1e9: the tokens the run's whole steps train); without "
            "training tokens, 1e9 / tokens per second / 3600 x (1 + reliability overhead) x overhead factor x GPUs x "
            "USD per GPU-hour",
            {{"total_usd", c.total_usd},
             {"tokens", tokens},
             {"tokens_per_s", t.tokens_per_s},
             {"reliability_overhead", rel.overhead_fraction}});
    ex->add("cost.used_hours", c.used_hours, "h", "total hours x overhead factor: the wall-clock hours paid for",
            {{"total_hours", rel.total_hours}, {"overhead_factor", pr.overhead_factor}});
    ex->add("cost.billed_hours", c.billed_hours, "h",
            "max(used hours, the offering's minimum billing block): a rent sold by the month bills the whole month",
            {{"used_hours", c.used_hours}, {"min_billing_hours", pr.min_billing_hours}});
    ex->add("cost.total_cny", c.total_cny, "CNY", "total USD x USD->CNY rate (catalog currency)",
            {{"usd_to_cny", pr.usd_to_cny}});
    ex->add("cost.usd_to_cny", c.usd_to_cny, "CNY/USD", "dated exchange rate from the catalog (currency section)", {});
    ex->add("cost.overhead_factor", pr.overhead_factor, "1",
            "pricing.overhead_factor: debugging and reruns on top of training (planning rule of thumb: 1.3-1.5)", {});
  }
  return c;
}

}  // namespace llmplan
