// performance.hpp: the steps of the estimate after memory: compute, communication, step time,
// data IO, reliability (checkpoints and interruptions) and cost. Each step takes what it needs and
// returns its own result; estimate() (estimate.hpp) runs them in that order. Every constant that
// is not an input comes from the Calibration, with its source (calibration.hpp).
#pragma once
#include "llmplan/calibration.hpp"
#include "llmplan/explain.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Flops {
  double model_per_token = 0;     // training FLOPs per token, no recompute (MFU numerator)
  double hardware_per_token = 0;  // with recomputation (HFU numerator)
  double model_per_step = 0;      // whole cluster
  double hardware_per_gpu_step = 0;
  // Attention score work: its share of hardware_per_token in the same (Megatron) count, and what a
  // fused kernel executes (FlashAttention's own count: causal blocks skipped, backward 2.5x forward
  // because it recomputes the scores). Zero kernel FLOPs without fused attention: the score GEMMs
  // then run as ordinary batched GEMMs.
  double attention_per_token = 0;
  double attention_kernel_per_token = 0;
  // LoRA and QLoRA: the adapters' share of hardware_per_token (their GEMMs; 0 for other methods).
  double adapter_per_token = 0;
  // One forward pass's share of that attention work (fused: of the kernel FLOPs, else of the
  // Megatron count), and the forward passes a step runs, averaged over the blocks (1 + t when
  // attention's forward runs again under recompute, t = Scenario::trained_share(): freeze-tuning's
  // frozen blocks are not recomputed): the ring of context parallelism runs once per pass.
  double attention_forward_share = 0;
  double attention_forward_passes = 1;
};

// Compute step: the FLOPs and how fast one GPU runs them.
struct Compute {
  Flops flops;
  double gemm_efficiency = 0;       // achieved / peak for this GEMM shape (linear layers, compute precision)
  double attention_efficiency = 0;  // fused attention kernel rate / 16-bit peak
  double gemm_s = 0;                // linear-layer matrix multiplications per GPU per step
  double attention_s = 0;           // fused attention kernels per GPU per step
  double memory_bound_s = 0;        // elementwise (and unfused softmax) traffic per GPU per step
  double moe_permute_s = 0;         // of it, MoE token permutations (moe_permute_s)
  double lora_adapter_s = 0;        // of it, unmerged LoRA adapters' reads and writes (lora_adapter_s)
  double cp_merge_s = 0;            // of it, ring attention's output and gradient merges (cp_merge_s)
  double loss_s = 0;                // of it, the cross-entropy's passes over the vocabulary
  double framework_copy_s = 0;      // FSDP2's gather and reduce buffers, DeepSpeed BF16_Optimizer's fp32 accumulation
  double expert_imbalance_s = 0;    // EP > 1: the busiest rank's extra routed-expert GEMM time (in gemm_s)
  double dequant_s = 0;             // QLoRA: NF4 weights copied out in the compute dtype before each GEMM
  double compute_s = 0;             // per step, all micro-batches: gemm + attention + memory-bound + copies + dequant
  double stage_imbalance = 1;       // busiest pipeline stage's work / the average stage's (in compute_s)
  double achieved_tflops = 0;       // per GPU while computing
  // FLOPs the kernels execute per GPU per step: the GEMMs (recompute included) and the fused
  // attention kernel's own count (causal blocks skipped), where MFU's count takes full attention.
  double executed_flops = 0;
};

// Communication step. Per GPU per optimizer step; bytes are what one GPU sends through its link.
// cp: ring attention's key/value exchange; ep: the MoE all-to-alls (dispatch and combine).
struct Comm {
  double tp_bytes = 0, pp_bytes = 0, dp_bytes = 0, cp_bytes = 0, ep_bytes = 0;
  double tp_s = 0, pp_s = 0, dp_s = 0, cp_s = 0, ep_s = 0;  // total time of each
  double tp_exposed_s = 0, pp_exposed_s = 0, dp_exposed_s = 0, cp_exposed_s = 0, ep_exposed_s = 0;
  bool tp_inter_node = false, pp_inter_node = false, dp_inter_node = false, cp_inter_node = false,
       ep_inter_node = false;
  double ep_inter_node_bytes = 0;  // the part of ep_bytes that leaves the node (through the GPU's own NIC)
  double intra_bytes() const;
  double inter_bytes() const;
  double exposed_s() const;  // tp + pp + dp + cp + ep exposed: communication on the step's critical path
};

// Time step: one optimizer step and the whole training run without interruptions. It carries the
// compute and communication it was built from, so a front end reads the step from one struct.
// One offloaded layer's host copy against its compute, per micro-batch (activation offloading).
struct OffloadCopy {
  double layers = 0, micro_batches = 0;
  double bytes = 0;  // saved activations of a layer
  double copy_s = 0, forward_s = 0, backward_s = 0;
};

struct TimeResult {
  Flops flops;
  double gemm_efficiency = 0;       // achieved / peak for this GEMM shape
  double attention_efficiency = 0;  // fused attention kernel / 16-bit peak (0 without fused attention)
  double attention_s = 0;           // fused attention kernels per GPU per step (part of compute_s)
  double qlora_dequant_s = 0;       // QLoRA's NF4 -> compute-dtype weight copies per GPU per step (in compute_s)
  double moe_permute_s = 0;         // MoE token permutations per GPU per step (in compute_s)
  double lora_adapter_s = 0;        // unmerged LoRA adapters' reads and writes per GPU per step (in compute_s)
  double cp_merge_s = 0;            // ring attention's merges of partial outputs and gradients (in compute_s)
  double achieved_tflops = 0;       // per GPU while computing
  double compute_s = 0;             // per step, all micro-batches
  double stage_imbalance = 1;       // busiest pipeline stage's work / the average stage's (part of compute_s)
  double expert_imbalance_s = 0;    // of compute_s's GEMM time: EP's busiest rank (kMoeCapacityFactor)
  Comm comm;
  double bubble_s = 0;
  double offload_s = 0;             // optimizer on the host / NVMe swaps, and activation_offload_s
  double activation_offload_s = 0;  // saved activations' host copies not hidden behind a layer's compute
  double busy_s = 0;      // compute + exposed communication + bubble + offload: the step without waiting for data
  double io_stall_s = 0;  // waiting for data
  double step_s = 0;      // busy_s + io_stall_s
  double tokens_per_step = 0;
  double tokens_per_s = 0;  // whole cluster
  double mfu = 0;           // model FLOPs / (time x GPUs x dense peak)
  double hfu = 0;
  // FLOPs the kernels execute / (time x dense peak): bounded by the GEMM and attention kernels'
  // measured rates, where MFU (Megatron's count, attention without causal masking) is not.
  double executed_fraction = 0;
  double model_tflops_per_gpu = 0;  // model FLOPs per second per GPU
  double steps = 0;
  double training_hours = 0;  // pure training, no interruptions
};

// IO step: feeding the data.
struct IoResult {
  double data_bytes_per_s = 0;  // the cluster's read rate when the GPUs are busy
  double data_tier_bytes_per_s = 0;
  double data_utilisation = 0;  // needed / available
  double input_cores_per_node = 0;
  double dataset_bytes = 0;
  double staging_h = 0;  // copying the dataset from object storage before training
};

// Reliability step: checkpoints, interruptions and the wall-clock time they add.
struct ReliabilityResult {
  double checkpoint_bytes = 0;
  double checkpoint_write_s = 0;
  double interruptions_per_hour = 0;  // failures + spot, whole job
  double mtbi_h = 0;                  // mean time between interruptions (inf when none)
  double checkpoint_interval_h = 0;
  double overhead_fraction = 0;       // checkpoint stalls + expected lost work + restarts
  double expected_interruptions = 0;  // over the run
  double lost_work_h = 0;             // wall-clock hours redone or spent restarting over the run
  double retention_bytes = 0;         // kept checkpoints + dataset
  double total_hours = 0;             // training hours with checkpoint stalls, lost work and restarts
  double gpu_hours = 0;               // GPUs x total_hours
};

struct CostResult {
  double usd_per_gpu_hour = 0;
  double used_hours = 0;    // wall-clock hours paid for: total hours x overhead factor
  double billed_hours = 0;  // what is billed: the used hours, or the offering's minimum billing block if longer
  double compute_usd = 0;   // billed hours x GPUs x price
  double storage_usd = 0;
  double total_usd = 0;
  double usd_per_billion_tokens = 0;
  double total_cny = 0;
  double usd_to_cny = 0;
};

// How many times a trained block's forward elementwise ops, casts and all-to-alls run again, on
// average over the busiest stage: full recompute in the share of the blocks that recompute
// (full_recompute_share), per-operator checkpointing once; selective recomputes the attention
// core only.
double forward_reruns(const Scenario& s);
// How many times a trained block's attention forward runs again: selective and per-operator
// checkpointing once, full recompute in the share of the blocks that recompute.
double attention_reruns(const Scenario& s);
// Tensor-parallel collectives per layer and micro-batch, in all-reduce volumes; with full
// recompute, in a stage whose share `recomputing_share` of the blocks recompute.
double tp_collectives_per_layer(Recompute r, double recomputing_share);
// The same averaged over the scenario's blocks: a frozen block of freeze-tuning runs its forward
// pair only, 2 (1 - t) + t x tp_collectives_per_layer, t = Scenario::trained_share().
double tp_collectives_per_block(const Scenario& s);
// Of those, the ones parallel.tp_comm_overlap hides behind GEMMs in the scenario's framework.
double tp_overlapped_collectives_per_layer(const Scenario& s);
// FLOPs per token (Narayanan et al. 2021 §5.1 convention: attention without causal halving).
Flops training_flops(const Scenario& s, const ParamCount& p, Explainer* ex);
// Blocks of the busiest pipeline stage (pipeline_split; the last one also runs the multi-token
// prediction modules' blocks), and that over the average layers / pp.
double busiest_stage_layers(const Scenario& s);
// The logit layer's work in blocks: V h / (a block's matmul parameters + its attention FLOPs / 2).
double logit_layer_equivalents(const Scenario& s, const ParamCount& p);
// The multi-token prediction modules' work on the last stage, in the same blocks: their blocks,
// projections and second passes through the head, and their attention.
double mtp_layer_equivalents(const Scenario& s, const ParamCount& p);
// The busiest stage's work (blocks; the last stage also runs the logit layer) over the average's.
double stage_imbalance(const Scenario& s, const ParamCount& p);
// Dense peak TFLOP/s at the scenario's precision (the MFU denominator).
double peak_tflops(const Scenario& s);
double gemm_efficiency(const Scenario& s, const Calibration& cal, Explainer* ex);
// Shares of the linear-layer FLOPs that tensor-parallel comm overlap (parallel.tp_comm_overlap)
// runs as GEMMs over a part of the micro-batch's tokens: a tp-th (ring exchange, PyTorch async TP)
// or a quarter (Transformer Engine's pipelined reduce-scatter). Zero without the overlap.
struct SplitGemms {
  double share_by_tp = 0;
  double share_by_4 = 0;
};
SplitGemms tp_overlap_split_gemms(const Scenario& s, const ParamCount& p);
// The linear layers' efficiency with those splits: `whole` for the rest, each split GEMM at the
// efficiency of its own size, combined by FLOPs (a harmonic mean).
double split_gemm_efficiency(const Scenario& s, const Calibration& cal, double whole, const SplitGemms& split,
                             Explainer* ex);
// The fused attention kernel that runs: parallel.attention_kernel, or the accelerator's usual one.
AttentionKernel attention_kernel(const Scenario& s);
// The length a fused attention kernel runs on: seq_len / cp (ring attention passes chunks of that
// many tokens; the local chunk against itself or another).
double attention_kernel_length(const Scenario& s);
// The head dimension a fused attention kernel runs at: Q and K's per-head width (MLA: nope + rope).
double attention_kernel_head_dim(const ModelArch& m);
// A kernel's rate at `x` (a length or a head dimension) over its catalog rate: linear in log2(x)
// between the measured points, the end points' ratios beyond them, 1 without points.
double scale_at(const AttentionLengthScale& points, double x);
// A kernel's catalog rate on this accelerator at the scenario's kernel length and head dimension;
// 0 when unpublished.
double measured_attention_rate(const Scenario& s, AttentionKernel kernel);
// Its rate / 16-bit dense peak: the accelerator's measured forward + backward ratio for that kernel
// (catalog attention_efficiency), else the accelerator's large-GEMM ratio.
double attention_efficiency(const Scenario& s, const Calibration& cal, Explainer* ex);
// Ring all-reduce time of `bytes` over `n` ranks (nccl-tests PERFORMANCE.md): 2(n-1)/n S / busbw.
double allreduce_s(double bytes, int n, double busbw_bytes_per_s, double latency_s);

// Context parallelism (ring attention, Liu et al. 2023; Megatron-Core's P2P ring): the key and
// value bytes one GPU sends forward per layer and micro-batch, (cp - 1) steps of its chunk,
// (cp - 1) x b (s / cp) x cp_kv_width / tp x bytes; backward sends K, V and their gradients (2x).
double cp_kv_bytes_per_layer(const Scenario& s);
// Expert parallelism: the bytes of one all-to-all (dispatch or combine) of one MoE layer and
// micro-batch that leave one GPU, b (s / cp) top_k h x bytes x (ep - 1) / ep, times the busiest
// rank's load kMoeCapacityFactor; per sequence-parallel shard with TP (Megatron-Core's dispatcher).
double ep_alltoall_bytes(const Scenario& s, const Calibration& cal);
// Pipeline bubble as a fraction of the ideal step: (p - 1) / m for 1F1B, (p - 1) / (v m) for the
// interleaved schedule with v virtual stages per rank (Narayanan et al. 2021 §2.2.2).
double pipeline_bubble_fraction(int pp, double vp, int micro_batches);
// The v of that formula for the scenario's layout: the bubble is p - 1 chunk times, and a chunk is
// as long as the longest one, ceil(L / vp) blocks of the largest stage's L, so v = L / ceil(L / vp):
// vp itself when it divides every stage, less when the chunks are uneven; 1 without VP.
double bubble_virtual_stages(const Scenario& s);

// NCCL bus bandwidth inside a node (the scale-up link) and the share of the node's NICs one GPU
// drives (node scale-out bandwidth x achieved fraction / GPUs per node): the parts group_link()
// combines, and what the post-provisioning checklist expects.
struct LinkBandwidth {
  double intra_busbw = 0;  // bytes/s, all-reduce inside one node
  double nic_busbw = 0;    // bytes/s, one GPU's share of the node's NICs
  double node_busbw = 0;   // bytes/s, all-reduce of whole nodes: min(intra, GPUs per node x nic_busbw)
  double intra_latency_s = 0;
  double inter_latency_s = 0;
};
LinkBandwidth link_bandwidth(const Scenario& s);

// A communication group and the bandwidth its collectives get. Ranks are laid out TP innermost,
// then CP, then DP, then PP (Megatron-LM's order), so a group of `ranks` GPUs whose neighbours are
// `stride` ranks apart holds ranks_per_node of them on every node. A group inside one node runs
// at the scale-up bus bandwidth. Across nodes NCCL reduces inside each node, exchanges shards over
// the r NICs the group's ranks drive at once (one NIC per GPU on rail-optimised fabrics) and
// broadcasts back: busbw = min(scale-up busbw, r x one NIC's busbw) (stas00/ml-engineering,
// network chapter, "Inter-node speed depends on intra-node speed": 4 nodes of 8 x B200 with
// 8 x 400 Gb/s NICs reach 377-382 GB/s all-reduce busbw).
struct GroupLink {
  int ranks = 1;
  int ranks_per_node = 1;
  int nodes = 1;  // nodes the group spans
  bool inter_node = false;
  double busbw = 0;  // bytes/s
  double intra_latency_s = 0, inter_latency_s = 0;
};
GroupLink group_link(const Scenario& s, int ranks, int stride);
// The same with the scenario's link bandwidths already at hand (estimate_comm's several groups).
GroupLink group_link(const Scenario& s, const LinkBandwidth& l, int ranks, int stride);
// Expert parallelism: the copies of one token that leave its node per all-to-all in the EP group
// `g` (experts spread evenly over its ranks, routing uniform): the alltoall dispatcher sends one
// per routed expert on another node, top_k (ep - r) / ep for r ranks a node; DeepEP one per
// destination node, (n - 1) (1 - C(E - E/n, k) / C(E, k)) for n nodes (DeepSeek-V3 report §3.2.2:
// IB to the same in-node index on the target node, then NVLink). 0 within one node. With
// parallel.moe_routing fake_balanced DeepEP's count is (n - 1) / n x the nodes that k consecutive
// experts reach, averaged over their starting points (the all-to-all's count does not change).
double ep_network_copies_per_token(const Scenario& s, const GroupLink& g);
// The copies of one token that cross the scale-up link (NVLink) per all-to-all: the alltoall
// dispatcher one per routed expert on another rank of the node, top_k (r - 1) / ep; DeepEP one
// per destination rank, not per expert (its dispatch layout counts tokens per rank), except the
// rank of the sender's in-node index, which the token reaches directly or over the network:
// ep (1 - C(E - E/ep, k) / C(E, k)) (1 - 1 / r); with fake_balanced routing the ranks that k
// consecutive experts reach replace ep (1 - C(...) / C(...)).
double ep_scale_up_copies_per_token(const Scenario& s, const GroupLink& g);
// Ring all-reduce of `bytes` over the group: 2 (n-1)/n S / busbw, plus the latency of the ring's
// steps inside the nodes and across them (hierarchical: 2 (r - 1) intra + 2 (nodes - 1) inter).
double group_allreduce_s(double bytes, const GroupLink& g);

// The steps, in the order estimate() runs them (parameters and memory come first: model.hpp,
// memory.hpp). `ex` records the formula and inputs of every figure when not null.
Compute estimate_compute(const Scenario& s, const ParamCount& p, const MemoryResult& mem, const Calibration& cal,
                         Explainer* ex);
Comm estimate_comm(const Scenario& s, const ParamCount& p, const MemoryResult& mem, const Compute& compute,
                   const Calibration& cal, Explainer* ex);
TimeResult estimate_time(const Scenario& s, const MemoryResult& mem, const Compute& compute, const Comm& comm,
                         const Calibration& cal, Explainer* ex);
IoResult estimate_io(const Scenario& s, const TimeResult& time, const Calibration& cal, Explainer* ex);
ReliabilityResult estimate_reliability(const Scenario& s, const MemoryResult& mem, const TimeResult& time,
                                       const IoResult& io, Explainer* ex);
CostResult estimate_cost(const Scenario& s, const TimeResult& t, const ReliabilityResult& rel, Explainer* ex);

}  // namespace llmplan
