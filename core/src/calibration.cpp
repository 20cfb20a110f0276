// calibration.cpp: the default value of every constant, with its source. A value marked
// "uncalibrated" has no validation case that tests it yet; the fitted ones name their cases.
#include "llmplan/calibration.hpp"

#include <cstdio>
#include <cstdlib>

namespace llmplan {

namespace {

// The fit families of tests/validation/cases.json (rows of ../shared/data/published_runs.json and
// published_runs_h100_single_node.json only): llmplan_validate --fit searches the four constants
// below together, minimising the mean over these families of each family's median |error|.
constexpr const char* kThroughputFitCases = "foundry-a100 foundry-h100 korthikanti-2022 narayanan-2021";
// The fit rows that ran an attention kernel with no published rate on their accelerator.
constexpr const char* kTritonAttentionFitCases = "foundry-a100 foundry-h100";

constexpr Calibration kDefault = {
    //-------------------------------------------------------------------------
    // Compute rate
    //-------------------------------------------------------------------------
    .default_gemm_efficiency =
        {.value = 0.75,
         .name = "kDefaultGemmEfficiency",
         .unit = "1",
         .source =
             "large BF16 GEMM throughput / dense peak for accelerators the catalog has no measurement of: the mean "
             "(0.752) of the nine measured ratios in catalog 2026.12.0, from 0.51 (MI300X) to 0.87 (A100 SXM) "
             "(stas00/ml-engineering, compute/accelerator/README.md, 'Maximum Achievable Matmul FLOPS' table)"},
    .gemm_half_size =
        {.value = 256.0,
         .name = "kGemmHalfSize",
         .unit = "elements",
         .source =
             "a GEMM whose smallest dimension is d runs at d / (d + kGemmHalfSize) of the large-GEMM rate: "
             "efficiency grows with the matrix dimensions until the tiles fill the GPU (NVIDIA Deep Learning "
             "Performance Guide, 'Matrix Multiplication Background'); the half point is fitted "
             "(llmplan_validate --fit) to published throughput of the fit families (Korthikanti et al. 2022 Table 5, "
             "Narayanan et al. 2021 Tables 1-2, llm-foundry scripts/train/benchmarking/README.md A100 and H100 "
             "tables), with kElementwisePasses, kSoftmaxPasses and kZero3Overlap",
         .fitted_on = kThroughputFitCases},
    .elementwise_passes =
        {.value = 12.0,
         .name = "kElementwisePasses",
         .unit = "passes",
         .source =
             "elementwise work between GEMMs (norms, residual adds, bias, GeLU/SwiGLU, dropout, rotary) is "
             "memory-bound (Ivanov et al. 2021, 'Data Movement Is All You Need', MLSys): per token, layer "
             "and pass it moves this many (h + f) vectors through HBM, (h + 2 f) with a gated MLP, whose gate and "
             "up projections both write an f-wide tensor that SiLU and the product read (Shazeer 2020, 'GLU "
             "Variants Improve Transformer'); fitted with kGemmHalfSize (2026-12-06, once the fit's H100 rows "
             "ran their own attention kernel, kTritonAttentionRatio: 20 passes before)",
         .fitted_on = kThroughputFitCases},
    .softmax_passes =
        {.value = 6.0,
         .name = "kSoftmaxPasses",
         .unit = "passes",
         .source = "unfused attention reads and writes the a x s score matrix this many times per pass (scale and "
                   "mask, softmax, dropout and their backward), the traffic FlashAttention removes (Dao et al. 2022, "
                   "'FlashAttention', §2.2); fitted with kGemmHalfSize (4 before 2026-12-06)",
         .fitted_on = kThroughputFitCases},
    .triton_attention_ratio =
        {.value = 0.56,
         .name = "kTritonAttentionRatio",
         .unit = "1",
         .source =
             "rate of the Triton FlashAttention of flash-attn's flash_attn_triton.py (Dao's kernel, which MPT "
             "and llm-foundry run as attn_impl triton) / FlashAttention-2's rate; no published benchmark of its rate "
             "was found for any accelerator. Fitted (llmplan_validate --fit-attention) on the llm-foundry A100 and "
             "H100 rows longer than 4,096 tokens (89 figures), which ran that kernel (the benchmark launcher's and "
             "the MPT yamls' default attn_impl), with the other fitted constants at "
             "their values here: median |error| 4.3 % at 0.56, against 37 % at 1 (FlashAttention-2's own rate); "
             "on the H100 rows alone 0.51. The FlashAttention-2 paper's Triton bar (Dao 2023, arXiv:2307.08691, "
             "Fig. 4: 0.39 of FlashAttention-2 on the A100) is OpenAI Triton's triton.ops.flash_attention "
             "(flash-attn benchmarks/benchmark_flash_attention.py @0469c727), another kernel. Other kernels with no "
             "published rate keep FlashAttention-2's",
         .fitted_on = kTritonAttentionFitCases},
    .mem_bw_efficiency =
        {.value = 0.9,
         .name = "kMemBwEfficiency",
         .unit = "1",
         .source = "planning rule of thumb: STREAM-style copy kernels reach about 90 % of the datasheet HBM bandwidth "
                   "on A100 and H100; uncalibrated"},
    //-------------------------------------------------------------------------
    // Communication hidden behind compute
    //-------------------------------------------------------------------------
    .dp_overlap = {.value = 0.8,
                   .name = "kDpOverlap",
                   .unit = "1",
                   .source =
                       "bucketed gradient all-reduce starts during the backward pass (Li et al. 2020, 'PyTorch "
                       "Distributed', VLDB, §3.2.3; Megatron-LM overlap_grad_reduce), so this share of the last "
                       "micro-batch's backward can hide it (ZeRO-1/2: the reduce-scatter; the weights' all-gather "
                       "behind the same share of the next step's first forward with Megatron-Core "
                       "--overlap-param-gather and FSDP prefetch); assumed, uncalibrated"},
    .zero3_overlap =
        {.value = 0.3,
         .name = "kZero3Overlap",
         .unit = "1",
         .source =
             "ZeRO-3 / FSDP prefetch parameter gathers behind compute (Rajbhandari et al. 2020, 'ZeRO', §7; "
             "Zhao et al. 2023, 'PyTorch FSDP', VLDB: prefetching) less completely than bucketed all-reduce (per-layer "
             "synchronisation, prefetch depth, NCCL kernels sharing the SMs): this share of the compute hides them; "
             "fitted with kGemmHalfSize (llmplan_validate --fit) on the fit families' FSDP rows",
         .fitted_on = kThroughputFitCases},
    .tp_comm_overlap =
        {.value = 0.8,
         .name = "kTpCommOverlap",
         .unit = "1",
         .source = "share of the compute that Megatron-Core's tensor-parallel communication overlap "
                   "(--tp-comm-overlap, Transformer Engine userbuffers: GEMMs pipelined with their collectives) can "
                   "hide the collectives behind; uncalibrated, set to the kDpOverlap value"},
    //-------------------------------------------------------------------------
    // Expert parallelism
    //-------------------------------------------------------------------------
    .moe_capacity_factor =
        {.value = 1.25,
         .name = "kMoeCapacityFactor",
         .unit = "1",
         .source = "tokens the busiest expert-parallel rank receives and computes / the mean, which paces the "
                   "all-to-all and the expert GEMMs with EP > 1: the expert capacity factor of Fedus et al. 2021, "
                   "'Switch Transformers', §2.1 (capacity = tokens per batch / experts x capacity factor; Table 1 "
                   "compares 1.0, 1.25 and 2.0), the bound that token dropping (Megatron-Core "
                   "--moe-expert-capacity-factor) enforces; routing balanced without dropping (DeepSeek-V3's "
                   "auxiliary-loss-free balancing) stays near it only on average. Not fitted: no validation case "
                   "runs EP yet"},
    //-------------------------------------------------------------------------
    // Offload and data loading
    //-------------------------------------------------------------------------
    .deepep_sms = {.value = 20,
                   .name = "kDeepEpSms",
                   .unit = "SMs",
                   .source = "SMs DeepEP's all-to-all kernels hold while they run, which an overlapped computation "
                             "cannot use: the DeepSeek-V3 report (arXiv:2412.19437, §3.2.2) partitions 20 SMs into "
                             "10 communication channels, 'sufficient to fully utilize the bandwidths of IB and "
                             "NVLink'; Megatron-Core's moe_deepep_num_sms defaults to 20; not fitted"},
    .cpu_adam_params_per_s =
        {.value = 1e9,
         .name = "kCpuAdamParamsPerS",
         .unit = "params/s",
         .source = "DeepSpeed CPU Adam updates about 1e9 parameters per second on a modern server (Ren et al. 2021, "
                   "'ZeRO-Offload', USENIX ATC, §5: about 6x faster than PyTorch's CPU Adam); order of magnitude, "
                   "uncalibrated"},
    .nvme_offload_gb_per_s =
        {.value = 3.0,
         .name = "kNvmeOffloadGbPerS",
         .unit = "GB/s",
         .source = "planning rule of thumb: a data-center NVMe SSD sustains about 3 GB/s of mixed reads and writes, "
                   "where ZeRO-Infinity (Rajbhandari et al. 2021) swaps the optimizer states; uncalibrated"},
    .input_cores_per_gpu =
        {.value = 4.0,
         .name = "kInputCoresPerGpu",
         .unit = "cores/GPU",
         .source = "planning rule of thumb: 4 data-loader worker processes per GPU (PyTorch DataLoader num_workers) "
                   "keep up with pre-tokenised text; raw text, tokenised on the fly, or images need more"},
    //-------------------------------------------------------------------------
    // Memory
    //-------------------------------------------------------------------------
    .runtime_overhead_bytes =
        {.value = 1.0e9,
         .name = "kRuntimeOverheadBytes",
         .unit = "B",
         .source = "planning rule of thumb: the CUDA context plus cuBLAS, cuDNN and NCCL workspaces take 0.5-1.5 GB "
                   "per GPU, memory that nvidia-smi shows beyond what PyTorch allocates (PyTorch docs, 'CUDA "
                   "semantics', memory management); the middle of that range, uncalibrated"},
    .allocator_fragmentation =
        {.value = 0.05,
         .name = "kAllocatorFragmentation",
         .unit = "1",
         .source = "planning rule of thumb: PyTorch's caching allocator reserves 5-15 % more than the live dynamic "
                   "tensors (activations, logits, buffers) (PyTorch docs, 'CUDA semantics', memory management: "
                   "memory_reserved vs memory_allocated); the low end, uncalibrated"},
    .ddp_bucket_bytes = {.value = 25.0 * 1024 * 1024,
                         .name = "kDdpBucketBytes",
                         .unit = "B",
                         .source =
                             "PyTorch DistributedDataParallel bucket_cap_mb defaults to 25 (MiB) (torch.nn.parallel."
                             "DistributedDataParallel docs); two buckets are in flight"},
    .deepspeed_bucket_elements =
        {.value = 5e8,
         .name = "kDeepSpeedBucketElements",
         .unit = "elements",
         .source = "DeepSpeed ZeRO-1/2 reduce_bucket_size and allgather_bucket_size default to 5e8 elements "
                   "(DeepSpeed configuration docs, \"zero_optimization\"); the launch artefacts write the same value"},
};

// A constant added to the struct but not to all() would escape the checks that iterate over it.
static_assert(sizeof(Calibration) == Calibration::kCount * sizeof(Constant), "update Calibration::kCount and all()");

}  // namespace

std::array<const Constant*, Calibration::kCount> Calibration::all() const {
  return {&default_gemm_efficiency,
          &gemm_half_size,
          &elementwise_passes,
          &softmax_passes,
          &triton_attention_ratio,
          &mem_bw_efficiency,
          &dp_overlap,
          &zero3_overlap,
          &tp_comm_overlap,
          &moe_capacity_factor,
          &deepep_sms,
          &cpu_adam_params_per_s,
          &nvme_offload_gb_per_s,
          &input_cores_per_gpu,
          &runtime_overhead_bytes,
          &allocator_fragmentation,
          &ddp_bucket_bytes,
          &deepspeed_bucket_elements};
}

const Calibration& default_calibration() { return kDefault; }

namespace {

std::string value_text(double v) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string cell(const char* text) {
  std::string out;
  for (const char* c = text; *c; ++c) out += *c == '|' ? std::string("\\|") : std::string(1, *c);
  return out;
}

}  // namespace

std::string calibration_markdown(const Calibration& cal) {
  std::string out =
      "# Calibration: the estimator's constants\n\n"
      "Every constant of the estimator that is not a scenario input, with its value, its public source and, for "
      "the few fitted on published runs, the validation cases it was fitted on (`llmplan_validate --fit`). All "
      "other published figures are held out ([validation.md](validation.md)). The formulas that use them are "
      "in [methodology.md](methodology.md).\n\n"
      "Generated from `core/src/calibration.cpp` by `llmplan calibration`; do not edit by hand.\n\n"
      "| constant | value | unit | fitted on | source |\n|---|---|---|---|---|\n";
  for (const Constant* c : cal.all()) {
    const std::string fitted = c->fitted() ? std::string(c->fitted_on) : "not fitted";
    out += std::string("| `") + c->name + "` | " + value_text(c->value) + " | " + cell(c->unit) + " | " +
           cell(fitted.c_str()) + " | " + cell(c->source) + " |\n";
  }
  return out;
}

}  // namespace llmplan
