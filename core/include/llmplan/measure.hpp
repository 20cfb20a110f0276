// measure.hpp: a pasted training or benchmark log read into a `calibration` block
// (calibrate.hpp), for `llmplan measure` and window.llmplan.parseLog.
//
// Recognised, each as its tool documents or prints it:
// - Hugging Face Trainer: the final metrics dict (train_steps_per_second, train_runtime,
//   train_samples_per_second);
// - torchtune: metric lines with tokens_per_second_per_gpu and peak_memory_alloc (GiB);
// - Megatron-LM: "elapsed time per iteration (ms)" and the "max allocated" memory report (MB);
// - DeepSpeed: "samples/sec" and "MaxMemAllocated=..GB" (see_memory_usage);
// - torchtitan: "tps:", "mfu:" and "memory: ..GiB" (max reserved) per step;
// - nccl-tests all_reduce_perf: the result table's out-of-place busbw at the largest size, intra-
//   or inter-node by the hosts its ranks list;
// - fio: the "READ: bw=" summary (or a job's "read: ... BW=");
// - a printed torch.cuda.max_memory_allocated().
// Per-step figures are the median of the steps after the first (warm-up).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llmplan/scenario.hpp"

namespace llmplan {

struct LogFinding {
  std::string format;  // "torchtitan", "nccl-tests", ...
  std::string field;   // the calibration path it fills, e.g. "calibration.tokens_per_s_per_gpu"
  double value = 0;
  int samples = 0;  // lines it was read from
  std::string how;  // in words: "median of 9 steps after the first"
};

struct LogParse {
  bool ok = false;
  std::vector<LogFinding> found;
  std::string error;  // when nothing was recognised: what was looked for
};

// Reads `text`. `context` (may be null) converts samples/s into tokens/s per GPU with its sequence
// length and GPUs; without it a samples/s-only log says so.
LogParse parse_log(std::string_view text, const Scenario* context = nullptr);

// The calibration block of what was found: at most one throughput (tokens/s per GPU, then step
// time, then MFU), the peak memory with its source, the bus bandwidths, the read rate.
nlohmann::ordered_json calibration_block(const LogParse& p);

// {"calibration": {...}, "found": [...]} or {"error": {"field": "log", "message": ...}}.
std::string parse_log_json(std::string_view text, const Scenario* context = nullptr);

}  // namespace llmplan
