// performance.hpp: FLOPs, achieved compute rate, communication, pipeline bubble, data and
// checkpoint IO, reliability and cost for one scenario (model-reference §3-6). Every constant
// that is not a published figure is named below, documented where it is defined, and fitted
// on the stated subset of tests/validation.
#pragma once
#include "llmplan/explain.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

extern const double kDefaultGemmEfficiency;   // large-GEMM efficiency when the catalog has no measurement
// The calibrated constants are variables only so that `llmplan_validate --fit` can search them;
// nothing else writes them.
extern double kGemmHalfSize;            // GEMM dimension at which efficiency halves (size curve)
extern double kElementwisePasses;       // memory-bound passes over (h + f) per token, layer and pass
extern double kSoftmaxPasses;           // passes over the a x s scores without FlashAttention
extern const double kMemBwEfficiency;         // achieved / peak HBM bandwidth of memory-bound kernels
extern double kDpOverlap;
extern double kZero3Overlap;                  // share of compute that hides ZeRO-3 gathers and reduce-scatters
extern const double kTpCommOverlap;           // share of compute that hides TP collectives with --tp-comm-overlap               // share of the last micro-batch's backward that hides DP traffic
extern const double kQloraSlowdown;           // NF4 dequantisation on every forward and backward GEMM
extern const double kCpuAdamParamsPerS;       // DeepSpeed CPU Adam throughput per node
extern const double kNvmeOffloadGbPerS;       // sustained NVMe read+write for ZeRO-Infinity swaps
extern const double kInputCoresPerGpu;        // data-loader cores per GPU

struct Flops {
  double model_per_token = 0;      // training FLOPs per token, no recompute (MFU numerator)
  double hardware_per_token = 0;   // with recomputation (HFU numerator)
  double model_per_step = 0;       // whole cluster
  double hardware_per_gpu_step = 0;
};

struct Comm {
  // Per GPU per optimizer step; bytes are what one GPU sends through its link.
  double tp_bytes = 0, pp_bytes = 0, dp_bytes = 0;
  double tp_s = 0, pp_s = 0, dp_s = 0;                 // total time of each
  double tp_exposed_s = 0, pp_exposed_s = 0, dp_exposed_s = 0;
  bool tp_inter_node = false, pp_inter_node = false, dp_inter_node = false;
  double intra_bytes() const;
  double inter_bytes() const;
};

struct TimeResult {
  Flops flops;
  double gemm_efficiency = 0;      // achieved / peak for this GEMM shape
  double achieved_tflops = 0;      // per GPU while computing
  double compute_s = 0;            // per step, all micro-batches
  double bubble_s = 0;
  double offload_s = 0;            // optimizer on the host / NVMe swaps
  double io_stall_s = 0;           // waiting for data
  Comm comm;
  double step_s = 0;
  double tokens_per_step = 0;
  double tokens_per_s = 0;         // whole cluster
  double mfu = 0;                  // model FLOPs / (time x GPUs x dense peak)
  double hfu = 0;
  double model_tflops_per_gpu = 0; // model FLOPs per second per GPU
  double steps = 0;
  double training_hours = 0;       // pure training, no interruptions
  double total_hours = 0;          // with checkpoint stalls, lost work and restarts
  double gpu_hours = 0;            // GPUs x total_hours
};

struct IoResult {
  double data_bytes_per_s = 0;     // the cluster's read rate
  double data_tier_bytes_per_s = 0;
  double data_utilisation = 0;     // needed / available
  double input_cores_per_node = 0;
  double dataset_bytes = 0;
  double checkpoint_bytes = 0;
  double checkpoint_write_s = 0;
  double interruptions_per_hour = 0;  // failures + spot, whole job
  double mtbi_h = 0;                  // mean time between interruptions (inf when none)
  double checkpoint_interval_h = 0;
  double overhead_fraction = 0;       // checkpoint stalls + expected lost work + restarts
  double retention_bytes = 0;
  double staging_h = 0;               // copying the dataset from object storage before training
  double expected_interruptions = 0;  // over the run
  double lost_work_h = 0;             // wall-clock hours redone or spent restarting over the run
};

struct CostResult {
  double usd_per_gpu_hour = 0;
  double compute_usd = 0;          // GPU-hours x overhead factor x price
  double storage_usd = 0;
  double total_usd = 0;
  double usd_per_billion_tokens = 0;
  double total_cny = 0;
  double usd_to_cny = 0;
};

// FLOPs per token (Narayanan et al. 2021 §5.1 convention: attention without causal halving).
Flops training_flops(const Scenario& s, const ParamCount& p, Explainer* ex);
double gemm_efficiency(const Scenario& s, Explainer* ex);
// Ring all-reduce time of `bytes` over `n` ranks (nccl-tests PERFORMANCE.md): 2(n-1)/n S / busbw.
double allreduce_s(double bytes, int n, double busbw_bytes_per_s, double latency_s);

// NCCL bus bandwidth a GPU gets inside its node and across nodes (its share of the node's NICs):
// what the communication model uses, and what the post-provisioning checklist expects.
struct LinkBandwidth {
  double intra_busbw = 0;  // bytes/s per GPU
  double inter_busbw = 0;  // bytes/s per GPU
  double intra_latency_s = 0;
  double inter_latency_s = 0;
};
LinkBandwidth link_bandwidth(const Scenario& s);

TimeResult estimate_time(const Scenario& s, const ParamCount& p, const MemoryResult& mem, Explainer* ex);
IoResult estimate_io(const Scenario& s, const ParamCount& p, const MemoryResult& mem, TimeResult& time, Explainer* ex);
CostResult estimate_cost(const Scenario& s, const TimeResult& time, const IoResult& io, Explainer* ex);

}  // namespace llmplan
