// calibration.hpp: every constant of the estimator that is not an input of the scenario, in one
// value: framework defaults, measured ratios, planning rules of thumb and the few values fitted on
// tests/validation. Each carries its public source and, when fitted, the validation cases it was
// fitted on. estimate(), the planner and the validator take a Calibration explicitly; the shipped
// numbers use default_calibration(), and `llmplan_validate --fit` searches modified copies of it.
#pragma once
#include <array>
#include <string>

namespace llmplan {

// One named constant.
struct Constant {
  double value = 0;
  const char* name = "";       // what explanations and docs/calibration.md print, e.g. "kGemmHalfSize"
  const char* unit = "";       // "1" for ratios and factors
  const char* source = "";     // the public source of the value, or "planning rule of thumb: ..."
  const char* fitted_on = "";  // ids of the tests/validation cases it was fitted on (space-separated); "" if not fitted
  constexpr bool fitted() const { return fitted_on[0] != '\0'; }
};

struct Calibration {
  // Compute rate (performance.cpp)
  Constant default_gemm_efficiency;  // large-GEMM efficiency when the catalog has no measurement
  Constant gemm_half_size;           // GEMM dimension at which efficiency halves (size curve)
  Constant elementwise_passes;       // memory-bound passes over (h + f) per token, layer and pass
  Constant softmax_passes;           // passes over the a x s scores without FlashAttention
  Constant triton_attention_ratio;   // Triton FlashAttention rate / FlashAttention-2's where unmeasured
  Constant mem_bw_efficiency;        // achieved / peak HBM bandwidth of memory-bound kernels
  // Communication hidden behind compute (performance.cpp)
  Constant dp_overlap;     // share of a backward (and of a forward, for ZeRO-1/2's weight gather) that hides DP traffic
  Constant zero3_overlap;  // share of compute that hides ZeRO-3 gathers and reduce-scatters
  Constant tp_comm_overlap;  // share of compute that hides TP collectives with --tp-comm-overlap
  // Expert parallelism (performance.cpp)
  Constant moe_capacity_factor;  // the busiest expert-parallel rank's tokens / the mean (load imbalance)
  Constant deepep_sms;           // SMs DeepEP's all-to-all kernels hold while they overlap computation
  // Offload and data loading (performance.cpp)
  Constant cpu_adam_params_per_s;  // DeepSpeed CPU Adam throughput per node
  Constant nvme_offload_gb_per_s;  // sustained NVMe read+write for ZeRO-Infinity swaps
  Constant input_cores_per_gpu;    // data-loader cores per GPU
  // Memory (memory.cpp) and the launch configs that must agree with it (launch.cpp)
  Constant runtime_overhead_bytes;     // CUDA context and library workspaces per GPU
  Constant allocator_fragmentation;    // caching-allocator overhead on the dynamic tensors
  Constant ddp_bucket_bytes;           // PyTorch DDP gradient bucket
  Constant deepspeed_bucket_elements;  // DeepSpeed ZeRO-1/2 reduce and all-gather buckets

  static constexpr int kCount = 18;
  std::array<const Constant*, kCount> all() const;  // every constant, in declaration order
};

// The values the CLI, the app and the planner use (documented one by one in calibration.cpp).
const Calibration& default_calibration();

// Every constant of `cal` as a Markdown table (value, unit, source, fit cases): docs/calibration.md
// is this text for the default calibration (`llmplan calibration`; a test keeps it current).
std::string calibration_markdown(const Calibration& cal);

}  // namespace llmplan
