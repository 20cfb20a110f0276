// ranges.cpp: 80 % intervals of the headline figures from the validation residuals of comparable
// published runs (ranges.hpp).
#include "llmplan/ranges.hpp"

#include "llmplan/embedded.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

extern const unsigned char llmplan_residuals[];
extern const unsigned long llmplan_residuals_size;

namespace llmplan {

using json = nlohmann::json;

SlowPath slow_path_of(const Scenario& s) {
  const Parallel& x = s.parallel;
  const double tokens_per_gpu =
      static_cast<double>(s.micro_batch) * s.seq_len / x.cp / (x.sequence_parallel ? x.tp : 1);
  // Token dropping with padding (moe_capacity_factor) sizes every all-to-all in advance: the
  // dispatcher does not wait for the GPU's token counts.
  if (s.model.is_moe() && x.ep > 1 && x.ep_dispatcher == EpDispatcher::alltoall && x.moe_capacity_factor == 0 &&
      s.framework == FrameworkKind::megatron && tokens_per_gpu <= kSlowMoeTokens)
    return SlowPath::dropless_moe_small_batch;
  if (x.cp > 1 && s.framework == FrameworkKind::torchtitan) return SlowPath::pytorch_ring_attention;
  if (s.model.is_moe() && x.ep > 1 && s.framework == FrameworkKind::torchtitan)
    return SlowPath::pytorch_expert_parallel;
  return SlowPath::none;
}

Regime regime_of(const Scenario& s) {
  Regime r;
  r.slow_path = slow_path_of(s);
  r.multi_node = s.cluster.gpus > s.cluster.gpus_per_node;
  r.peft = s.is_peft();
  r.seq_band = s.seq_len <= 4096 ? 0 : s.seq_len <= 16384 ? 1 : 2;
  r.accelerator_class = s.cluster.peak_16bit_tflops < 400 ? 0 : s.cluster.peak_16bit_tflops < 1500 ? 1 : 2;
  r.framework = s.framework;
  return r;
}

namespace {

FrameworkKind framework_named(const std::string& name, bool& ok) {
  for (int i = 0; i < static_cast<int>(std::size(kFrameworkNames)); ++i)
    if (name == kFrameworkNames[i]) return static_cast<FrameworkKind>(i);
  ok = false;
  return FrameworkKind::megatron;
}

SlowPath slow_path_named(const std::string& name, bool& ok) {
  for (int i = 0; i < static_cast<int>(SlowPath::count); ++i)
    if (name == kSlowPathNames[i]) return static_cast<SlowPath>(i);
  ok = false;
  return SlowPath::none;
}

// The regime features in the order they are given up when too few runs share them all.
enum Feature { kFramework, kSeqBand, kAccelerator, kPeft, kNodes, kFeatures };
const char* const kFeatureWords[] = {"framework", "sequence-length band", "accelerator class", "PEFT or full training",
                                     "single- or multi-node"};

bool same(const Regime& a, const Regime& b, int f) {
  switch (f) {
    case kFramework: return a.framework == b.framework;
    case kSeqBand: return a.seq_band == b.seq_band;
    case kAccelerator: return a.accelerator_class == b.accelerator_class;
    case kPeft: return a.peft == b.peft;
    default: return a.multi_node == b.multi_node;
  }
}

// The weighted q-quantile of (value, weight) pairs, interpolated between the midpoints of the
// sorted values' weights.
double weighted_quantile(std::vector<std::pair<double, double>> v, double q) {
  std::sort(v.begin(), v.end());
  double total = 0;
  for (const auto& [x, w] : v) total += w;
  double below = 0;
  double prev_mid = 0, prev_x = v.front().first;
  for (size_t i = 0; i < v.size(); ++i) {
    const double mid = (below + v[i].second / 2) / total;
    if (q <= mid) {
      if (i == 0) return v[i].first;
      return prev_x + (v[i].first - prev_x) * (q - prev_mid) / (mid - prev_mid);
    }
    below += v[i].second;
    prev_mid = mid;
    prev_x = v[i].first;
  }
  return v.back().first;
}

}  // namespace

// The file is a table, one row per residual in the column order of kResidualColumns (rows of
// objects would repeat every key 378 times in every build, the embed card's 1 MB module too).
std::vector<Residual> parse_residuals(std::string_view text, std::string& error) {
  std::vector<Residual> out;
  const json doc = json::parse(text, nullptr, false);
  json columns = json::array();
  for (const char* c : kResidualColumns) columns.push_back(c);
  if (doc.is_discarded() || !doc.contains("residuals") || !doc["residuals"].is_array() ||
      doc.value("columns", json()) != columns) {
    error = "residuals: expected {\"columns\": " + columns.dump() + ", \"residuals\": [[...], ...]}";
    return {};
  }
  for (const json& j : doc["residuals"]) {
    Residual r;
    bool ok = j.is_array() && j.size() == columns.size() && j[0].is_string() && j[1].is_string() && j[2].is_string() &&
              j[3].is_number() && j[3].get<double>() > 0 && j[4].is_number_integer() && j[5].is_number_integer() &&
              j[6].is_number_integer() && j[7].is_number_integer() && j[8].is_string() && j[9].is_string();
    if (ok) {
      r.case_id = j[0].get<std::string>();
      r.family = j[1].get<std::string>();
      r.group = j[2].get<std::string>();
      r.ratio = j[3].get<double>();
      r.regime.multi_node = j[4].get<int>() != 0;
      r.regime.peft = j[5].get<int>() != 0;
      r.regime.seq_band = j[6].get<int>();
      r.regime.accelerator_class = j[7].get<int>();
      r.regime.framework = framework_named(j[8].get<std::string>(), ok);
      r.regime.slow_path = slow_path_named(j[9].get<std::string>(), ok);
      ok = ok && !r.family.empty() &&
           (r.group == "throughput" || r.group == "memory" || r.group == "throughput_calibrated" ||
            r.group == "memory_calibrated");
    }
    if (!ok) {
      error = "residuals: a malformed row: " + j.dump();
      return {};
    }
    out.push_back(std::move(r));
  }
  return out;
}

const std::vector<Residual>& builtin_residuals() {
  static const std::vector<Residual> rows = [] {
    std::string error;
    std::vector<Residual> r =
        parse_residuals(detail::unpack_embedded(llmplan_residuals, llmplan_residuals_size), error);
    if (!error.empty()) {
      // The shipped file is written and checked by the test suite; reaching this is a build defect.
      std::fprintf(stderr, "llmplan: built-in residuals are invalid: %s\n", error.c_str());
      std::abort();
    }
    return r;
  }();
  return rows;
}

SlowPathEvidence slow_path_evidence(SlowPath path, const std::vector<Residual>& rows, const std::string& skip_family) {
  std::vector<double> ratios;
  for (const Residual& x : rows)
    if (x.group == "throughput" && x.regime.slow_path == path && x.family != skip_family) ratios.push_back(x.ratio);
  SlowPathEvidence e;
  if (path == SlowPath::none || ratios.empty()) return e;
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  e.runs = static_cast<int>(n);
  e.median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  e.lowest = ratios.front();
  e.highest = ratios.back();
  return e;
}

const SlowPathEvidence& builtin_slow_path_evidence(SlowPath path) {
  static const std::vector<SlowPathEvidence> evidence = [] {
    std::vector<SlowPathEvidence> e;
    for (int i = 0; i < static_cast<int>(SlowPath::count); ++i)
      e.push_back(slow_path_evidence(static_cast<SlowPath>(i), builtin_residuals()));
    return e;
  }();
  return evidence[static_cast<size_t>(path)];
}

namespace {

// Each software path's evidence among `rows`, `skip_family` left out: the throughput runs of a
// path known_slow_path warns about are read apart from the comparable runs (their slowness is the
// path's, which an estimate off the path does not share, so in the pool they would widen every
// other range), and an estimate on the path reads its low bound from them instead (ratio_range).
using PathEvidence = std::array<SlowPathEvidence, static_cast<size_t>(SlowPath::count)>;
PathEvidence path_evidence(const std::vector<Residual>& rows, const std::string& skip_family) {
  PathEvidence e{};
  for (size_t i = 1; i < e.size(); ++i) e[i] = slow_path_evidence(static_cast<SlowPath>(i), rows, skip_family);
  return e;
}

// The runs of a path whose `evidence` warns are left out (none outside the throughput group).
RatioRange comparable_range(const Regime& r, const std::string& group, const std::vector<Residual>& rows,
                            const std::string& skip_family, const PathEvidence& evidence) {
  RatioRange out;
  std::vector<const Residual*> pool;
  for (const Residual& x : rows)
    if (x.group == group && x.family != skip_family && !evidence[static_cast<size_t>(x.regime.slow_path)].warns())
      pool.push_back(&x);
  for (int kept = kFeatures; kept >= 0; --kept) {
    // Features [kFeatures - kept, kFeatures) must match: the first ones are given up first.
    std::vector<const Residual*> match;
    std::map<std::string, int> per_family;
    for (const Residual* x : pool) {
      bool all = true;
      for (int f = kFeatures - kept; f < kFeatures && all; ++f) all = same(x->regime, r, f);
      if (!all) continue;
      match.push_back(x);
      ++per_family[x->family];
    }
    const bool enough =
        static_cast<int>(match.size()) >= kMinRangeCases && static_cast<int>(per_family.size()) >= kMinRangeFamilies;
    if (!enough && kept > 0) continue;
    if (match.empty()) return out;
    std::vector<std::pair<double, double>> weighted;
    for (const Residual* x : match) weighted.emplace_back(x->ratio, 1.0 / per_family[x->family]);
    // A new run is one more draw than the n read: its 80 % interval takes the ceil((n + 1)(1 - a/2))-th
    // of n (split conformal prediction, Lei et al. 2018 JASA §2.2), not the in-sample 90th
    // percentile, which covers fewer than 80 % of new runs when n is small.
    const double n = static_cast<double>(match.size());
    const double hi_level = std::min(1.0, std::ceil((n + 1) * (1.0 - (1.0 - kRangeLevel) / 2)) / n);
    out.low = weighted_quantile(weighted, 1.0 - hi_level);
    out.high = weighted_quantile(weighted, hi_level);
    out.cases = static_cast<int>(match.size());
    out.families = static_cast<int>(per_family.size());
    for (const auto& [name, count] : per_family) out.family_names.push_back(name);
    for (int f = kFeatures - kept; f < kFeatures; ++f)
      out.shared += (out.shared.empty() ? "" : ", ") + std::string(kFeatureWords[f]);
    if (out.shared.empty()) out.shared = "none (every run of the group)";
    return out;
  }
  return out;
}

}  // namespace

// On a software path the warning known_slow_path is raised for, the runs on that path measured
// lower than the comparable runs (read without them) say: the throughput range reaches down to
// the lowest of them, so the range agrees with the warning (the high bound stays: the estimate is
// not moved).
RatioRange ratio_range(const Regime& r, const std::string& group, const std::vector<Residual>& rows,
                       const std::string& skip_family) {
  const bool throughput = group == "throughput";
  const PathEvidence evidence = throughput ? path_evidence(rows, skip_family) : PathEvidence{};
  RatioRange out = comparable_range(r, group, rows, skip_family, evidence);
  if (!throughput || r.slow_path == SlowPath::none || out.cases == 0) return out;
  const SlowPathEvidence& e = evidence[static_cast<size_t>(r.slow_path)];
  if (!e.warns() || e.lowest >= out.low) return out;
  out.low = e.lowest;
  out.shared += "; low bound the lowest of the " + std::to_string(e.runs) + " published runs on the software path " +
                kSlowPathNames[static_cast<int>(r.slow_path)] + " (warning known_slow_path)";
  return out;
}

const FigureRange* find_range(const std::vector<FigureRange>& ranges, std::string_view path) {
  for (const FigureRange& f : ranges)
    if (path == f.path && f.cases > 0 && f.basis != RangeBasis::measured) return &f;
  return nullptr;
}

std::string range_text(const std::vector<FigureRange>& ranges, std::string_view path,
                       const std::function<std::string(double)>& format, std::string_view to,
                       std::string_view measured) {
  for (const FigureRange& f : ranges)
    if (path == f.path && f.basis == RangeBasis::measured) return " (" + std::string(measured) + ")";
  const FigureRange* f = find_range(ranges, path);
  return f ? " (" + format(f->low) + std::string(to) + format(f->high) + ")" : "";
}

const char* to_string(RangeBasis b) {
  switch (b) {
    case RangeBasis::published: return "published runs";
    case RangeBasis::calibrated: return "calibrated runs";
    case RangeBasis::measured: return "measured";
  }
  return "published runs";
}

namespace {

// The ratios a group's figures are read from, and on what basis. A trial's measurement narrows
// them: at the trial's own configuration to the measurement itself, elsewhere to how far
// calibrated estimates of published runs landed from their published figures, when enough
// calibrated runs exist (else the uncalibrated range stands).
struct GroupRange {
  RatioRange q;
  RangeBasis basis = RangeBasis::published;
};
GroupRange group_range(const Scenario& s, const std::string& group, bool measured, const std::vector<Residual>& rows) {
  const Regime regime = regime_of(s);
  if (measured && s.factors.same_layout) {
    GroupRange g{{}, RangeBasis::measured};
    g.q.shared = "the trial's own configuration";
    return g;
  }
  if (measured) {
    const RatioRange c = ratio_range(regime, group + "_calibrated", rows);
    if (c.cases >= kMinRangeCases && c.families >= kMinRangeFamilies) return {c, RangeBasis::calibrated};
  }
  return {ratio_range(regime, group, rows), RangeBasis::published};
}

}  // namespace

std::vector<FigureRange> figure_ranges(const Scenario& s, const EstimateResult& r, const std::vector<Residual>& rows,
                                       Explainer* ex) {
  const GroupRange speed_range = group_range(s, "throughput", s.factors.throughput && s.calibrated(), rows);
  const GroupRange memory_range = group_range(s, "memory", s.factors.memory_measured && s.calibrated(), rows);
  const RatioRange& speed = speed_range.q;
  const RatioRange& memory = memory_range.q;
  // A faster run than estimated (published / estimated > 1) takes less time: time-like figures
  // divide by the ratio, rates multiply.
  auto rate = [](const char* path, double v, const GroupRange& g) {
    return FigureRange{path, v, v * g.q.low, v * g.q.high, g.q.cases, g.basis};
  };
  auto duration = [](const char* path, double v, const GroupRange& g) {
    const Bounds b = duration_bounds(v, g.q.low, g.q.high);
    return FigureRange{path, v, b.low, b.high, g.q.cases, g.basis};
  };
  std::vector<FigureRange> out = {
      duration("time.step_s", r.time.step_s, speed_range),
      rate("time.tokens_per_s", r.time.tokens_per_s, speed_range),
      rate("time.mfu", r.time.mfu, speed_range),
      duration("time.total_hours", r.reliability.total_hours, speed_range),
      duration("gpu_hours", r.reliability.gpu_hours, speed_range),
      [&] {  // a minimum billing block holds the cost up whatever the speed
        const Bounds b = cost_bounds(r.cost.total_usd, r.cost.used_hours, r.cost.billed_hours, speed.low, speed.high);
        return FigureRange{"cost.total_usd", r.cost.total_usd, b.low, b.high, speed.cases, speed_range.basis};
      }(),
      rate("memory.per_gpu_bytes.total", r.memory.per_gpu.total(), memory_range),
  };
  if (ex) {
    const char* const units[] = {"s", "tokens/s", "1", "h", "GPU-h", "USD", "B"};
    for (size_t i = 0; i < out.size(); ++i) {
      const FigureRange& f = out[i];
      const RatioRange& q = i + 1 == out.size() ? memory : speed;
      std::string families;
      for (const std::string& n : q.family_names) families += (families.empty() ? "" : ", ") + n;
      const std::string why =
          f.basis == RangeBasis::measured
              ? std::string(
                    "measured: the scenario is the trial run's own configuration, so the calibrated estimate "
                    "is the measurement (calibration block)")
              : "80 % interval: the 10th and 90th percentiles of published / estimated over " +
                    std::to_string(q.cases) +
                    (f.basis == RangeBasis::calibrated
                         ? " published runs estimated after calibrating on another row of their table"
                         : " published runs") +
                    " of " + std::to_string(q.families) + " families (" + families + ") sharing: " + q.shared +
                    "; families weigh equally (validation residuals of tests/validation/cases.json)";
      const std::string at = std::string("ranges.") + f.path + ".";
      ex->add((at + "low").c_str(), f.low, units[i], why.c_str(),
              {{"value", f.value}, {"ratio_low", q.low}, {"ratio_high", q.high}});
      ex->add((at + "high").c_str(), f.high, units[i], why.c_str(),
              {{"value", f.value}, {"ratio_low", q.low}, {"ratio_high", q.high}});
      ex->add((at + "level").c_str(), kRangeLevel, "1", why.c_str(), {});
      ex->add((at + "cases").c_str(), f.cases, "runs", why.c_str(), {{"families", static_cast<double>(q.families)}});
    }
  }
  return out;
}

}  // namespace llmplan
