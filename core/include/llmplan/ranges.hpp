// ranges.hpp: how sure a figure is. Every headline figure gets an 80 % interval read off the
// validation residuals (published / estimated) of comparable published runs: the same regime
// (across nodes or not, PEFT or full training, sequence-length band, accelerator class,
// framework), relaxed feature by feature until enough runs remain. The residuals are computed by
// the validator from tests/validation/cases.json and embedded at build time
// (core/data/residuals.json, `llmplan_validate --update-residuals`; a test fails while it is stale).
#pragma once
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "llmplan/estimate.hpp"
#include "llmplan/explain.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

// Software paths on which published runs come out clearly slower than the model counts, each for
// a cost the model does not have yet (docs/validation.md, "Open gaps"). The validator tags every
// run with its path, and an estimate on a path warns with what its tagged runs measured
// (WarningCode::known_slow_path), so the evidence is recomputed with every model change.
enum class SlowPath {
  none,
  dropless_moe_small_batch,  // Megatron's dropless all-to-all MoE dispatch, <= kSlowMoeTokens tokens a GPU
  pytorch_ring_attention,    // PyTorch's context parallelism (torchtitan and what builds on it)
  pytorch_expert_parallel,   // PyTorch-native expert parallelism (FSDP2 stacks: NeMo AutoModel, torchtitan)
  count
};
inline constexpr const char* kSlowPathNames[] = {"", "dropless_moe_small_batch", "pytorch_ring_attention",
                                                 "pytorch_expert_parallel"};
static_assert(std::size(kSlowPathNames) == static_cast<size_t>(SlowPath::count));
// The dropless dispatcher waits on the host once per MoE layer to learn the tokens per expert
// (Megatron-Core moe/token_dispatcher.py), so the host's launch time for the rest of the layer is
// exposed where the layer's GPU work is short: NVIDIA's tables show it at 1-2 sequences of 4,096
// tokens a micro-batch for Qwen3-30B-A3B and at 4 for GPT-OSS 120B, and much less at 8 for
// Qwen3-30B-A3B on B300 (docs/validation.md, "Fine-grained MoE on Megatron").
// Counted per GPU: a micro-batch's tokens over CP, and over TP with sequence parallelism.
inline constexpr int kSlowMoeTokens = 16384;
SlowPath slow_path_of(const Scenario& s);

// What the published runs of one slow path measured: published / estimated throughput.
// A path warns when its runs' median is under this (the estimate a quarter or more fast) and at
// least kMinSlowPathRuns runs show it: a looser bound would flag ordinary scatter.
inline constexpr double kSlowPathWarnBelow = 0.8;
inline constexpr int kMinSlowPathRuns = 2;
struct SlowPathEvidence {
  int runs = 0;
  double median = 1, lowest = 1, highest = 1;
  bool warns() const { return runs >= kMinSlowPathRuns && median < kSlowPathWarnBelow; }
};

// What makes two runs comparable, coarsely.
struct Regime {
  bool multi_node = false;
  bool peft = false;
  int seq_band = 0;           // 0: up to 4,096 tokens, 1: up to 16,384, 2: longer
  int accelerator_class = 0;  // 16-bit dense peak: 0 below 400 TFLOP/s (A100 class), 1 below 1,500 (H100), 2 above
  FrameworkKind framework = FrameworkKind::megatron;
  SlowPath slow_path = SlowPath::none;  // not a comparability feature: it says which runs a warning reads
};
Regime regime_of(const Scenario& s);

// One published figure against its estimate: `ratio` = published / estimated, for a throughput
// (tokens/s, MFU, TFLOP/s; GPU-hours inverted) or a memory figure (peak bytes).
struct Residual {
  std::string case_id, family, group;  // group: "throughput" or "memory"
  double ratio = 1;
  Regime regime;
};
const std::vector<Residual>& builtin_residuals();
// Reads the residuals document; an error names what is wrong.
// The columns of core/data/residuals.json, in order (multi_node and peft as 0/1).
inline constexpr const char* kResidualColumns[] = {"case",       "family",   "group",    "ratio",
                                                   "multi_node", "peft",     "seq_band", "accelerator_class",
                                                   "framework",  "slow_path"};
std::vector<Residual> parse_residuals(std::string_view text, std::string& error);

// The throughput residuals (published runs, not calibrated ones) of the runs on `path`, family
// `skip_family` left out.
SlowPathEvidence slow_path_evidence(SlowPath path, const std::vector<Residual>& rows,
                                    const std::string& skip_family = "");
// The same from the built-in residuals, read once.
const SlowPathEvidence& builtin_slow_path_evidence(SlowPath path);

inline constexpr double kRangeLevel = 0.8;
inline constexpr int kMinRangeCases = 10;    // runs a range is read from, at least
inline constexpr int kMinRangeFamilies = 3;  // ... from at least this many source families

struct RatioRange {
  double low = 1, high = 1;  // conformal 10th and 90th percentiles of published / estimated (ranges.cpp)
  int cases = 0, families = 0;
  std::string shared;  // the regime features the runs share, in words
  std::vector<std::string> family_names;
};

// The interval of published / estimated among the residuals of `group` comparable to `r`:
// those sharing every regime feature, dropping framework, then sequence band, accelerator class,
// PEFT and nodes until at least kMinRangeCases runs from kMinRangeFamilies families remain.
// Families weigh equally (rows of one table are not independent). `skip_family` leaves one
// family out (the validator's coverage check). Throughput runs on a software path that
// known_slow_path warns about are not among the comparable runs; on such a path a throughput
// range's low bound reaches down to the lowest run on it.
RatioRange ratio_range(const Regime& r, const std::string& group, const std::vector<Residual>& rows,
                       const std::string& skip_family = "");

// What a range is read from: published runs against the model; calibrated runs (a trial's
// measurement carried to another layout: the validator's calibrate-on-one-row residuals); or the
// measurement itself (the scenario is the trial's configuration: low = high = the value).
enum class RangeBasis { published, calibrated, measured };
const char* to_string(RangeBasis b);

struct FigureRange {
  const char* path;  // result JSON path, e.g. "time.step_s"
  double value = 0, low = 0, high = 0;
  int cases = 0;
  RangeBasis basis = RangeBasis::published;
};

// A time-like figure (time, GPU-hours, cost) when published / estimated throughput lies in
// [ratio_low, ratio_high]: a faster run takes less time, so [v / ratio_high, v / ratio_low].
struct Bounds {
  double low = 0, high = 0;
};
inline Bounds duration_bounds(double v, double ratio_low, double ratio_high) {
  return {ratio_high > 0 ? v / ratio_high : 0.0, ratio_low > 0 ? v / ratio_low : 0.0};
}
// A cost when a minimum billing block may set it: the used hours move with the throughput, the
// bill never falls below the block (billed_hours = max(used_hours, block)).
inline Bounds cost_bounds(double cost, double used_hours, double billed_hours, double ratio_low, double ratio_high) {
  if (billed_hours <= 0 || used_hours <= 0) return duration_bounds(cost, ratio_low, ratio_high);
  const double block = billed_hours > used_hours ? billed_hours : 0.0;
  const Bounds used = duration_bounds(used_hours, ratio_low, ratio_high);
  return {cost * (used.low > block ? used.low : block) / billed_hours,
          cost * (used.high > block ? used.high : block) / billed_hours};
}

// The range of figure `path`, or nullptr when there is none (no comparable runs; a measured
// figure has no range).
const FigureRange* find_range(const std::vector<FigureRange>& ranges, std::string_view path);
// " (low<to>high)" of figure `path`, each bound written by `format`; " (<measured>)" for a figure
// that is a trial's measurement; "" without a range.
std::string range_text(const std::vector<FigureRange>& ranges, std::string_view path,
                       const std::function<std::string(double)>& format, std::string_view to = "\u2013",
                       std::string_view measured = "measured");

// The ranged figures of an estimate: step time, tokens/s, MFU, total hours, GPU-hours, cost and
// per-GPU memory. With `ex`, each bound is explained by the runs it is read from.
std::vector<FigureRange> figure_ranges(const Scenario& s, const EstimateResult& r, const std::vector<Residual>& rows,
                                       Explainer* ex = nullptr);

}  // namespace llmplan
