// validate: runs every case of tests/validation/cases.json (published training runs, throughput
// tables and memory measurements, each with its source) through the estimator, prints predicted
// vs published with the error, reports every source family apart (count, median and worst error,
// per metric group, the families the constants were fitted on apart from the held-out ones),
// writes the table as Markdown and JSON for the site, and fails when the held-out targets are
// missed (docs/validation.md):
//   the median |error| over all held-out throughput figures (MFU, TFLOPS/GPU, tokens/s) <= 8 %,
//   every held-out family's median |error| <= 12 % (per metric group),
//   no held-out figure worse than 30 % unless its case states a tolerance ("tolerance": number or
//   {metric: number}, with "tolerance_reason"), which is printed and asserted instead,
//   the median |error| over all held-out memory figures <= 10 %,
//   no wrong held-out "fits" prediction (published "fits": true or false, whether the run fit in
//   GPU memory or ran out of it; the error is 0 when right, +1 or -1 when wrong, and each family
//   reports how many are wrong),
//   and every case runs (a case the scenario parser refuses is reported with its message).
// A case with "exclude": "reason" is run and printed but counts in no median and no target. Fit
// families are reported but never gated: their error says how well the constants were fitted.
//
// cases.json declares each source family once: {"families": {NAME: {"set": "fit" | "holdout",
// "source": ...}}, "cases": [{"id", "family", "source", "record", "scenario", "published", ...}]}.
// Only rows of the two published-runs files (../shared/data/published_runs.json and
// published_runs_h100_single_node.json, outside the repository) may be fitted on: a fit family
// whose cases' "record" ids are not rows of those files is refused. Where the files are not there
// (a clone of the repository alone, as in CI) that check is skipped with a note.
//
// Usage:
//   validate CASES.json OUT_DIR [--published DIR]   run, print, write OUT_DIR/validation.{md,json}, gate
//   validate --fit CASES.json [--published DIR]     grid search of the fitted constants on the fit
//                                                   families' throughput figures
//   validate --fit-attention CASES.json             search kTritonAttentionRatio on its fit families'
//                                                   rows longer than 4,096 tokens
//   validate --table-md CASES.json                  print the per-family block of README.md and
//                                                   docs/validation.md
//   validate --check-md CASES.json FILE...          exit 1 when a FILE's block is not that output
//   validate --update-md CASES.json FILE...         rewrite the block in each FILE
// DIR defaults to ../shared/data next to the repository that holds CASES.json.
//   validate --update-ratchet CASES.json            tighten tests/validation/ratchet.json to today's figures
// Exit status: 0 targets met, or missed with no held-out family worse than ratchet.json (or block
// current); 1 otherwise (or block stale); 2 input refused.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"

namespace {

using nlohmann::json;

// The held-out targets (docs/validation.md).
constexpr double kThroughputMedianTarget = 0.08;  // all held-out throughput figures
constexpr double kFamilyMedianTarget = 0.12;      // each held-out family, per metric group
constexpr double kWorstTarget = 0.30;             // each held-out figure, unless its case states a tolerance
constexpr double kMemoryMedianTarget = 0.10;      // all held-out memory figures

// The published-runs files whose rows alone may be fitted on.
const char* const kPublishedFiles[] = {"published_runs.json", "published_runs_h100_single_node.json"};

// Markers of the generated block in README.md and docs/validation.md.
constexpr const char* kBegin = "<!-- BEGIN validation-table";
constexpr const char* kEnd = "<!-- END validation-table -->";
constexpr const char* kRegenerate =
    "build/native/tests/llmplan_validate --update-md tests/validation/cases.json README.md docs/validation.md";

// "fits" is a group of its own: its figures are right or wrong, so it counts wrong predictions
// instead of a median error (and stays out of the 30 % and family-median targets).
const char* const kGroups[] = {"throughput", "memory", "gpu_hours", "fits"};

struct Family {
  std::string set, source;  // set: "fit" or "holdout"
};

struct CaseFile {
  std::string path;
  std::map<std::string, Family> families;
  json cases = json::array();
};

struct Row {
  std::string id, metric, group, family, set, source;
  double published = 0, predicted = 0, error = 0;
  double limit = kWorstTarget;    // |error| allowed: the worst-case target or the case's stated tolerance
  bool stated_tolerance = false;  // the case carries "tolerance"
  std::string note;               // layout searched, tolerance or exclusion reason
  std::string exclude_reason;
  bool excluded = false;
  llmplan::Regime regime;  // the case's scenario, for the ranges (llmplan/ranges.hpp)
  bool within() const { return excluded || std::fabs(error) <= limit; }
};

struct Invalid {
  std::string id, family, message;
};

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * x);
  return buf;
}

std::string signed_percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", 100 * x);
  return buf;
}

std::string target_percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", 100 * x);
  return buf;
}

std::string set_label(const std::string& set) { return set == "fit" ? "fit" : "held-out"; }

// The memory figures, against the per-GPU breakdown of the most loaded stage (llmplan/memory.hpp):
// total() = weights + gradients + optimizer + activations + logits + buffers + runtime, where runtime
// = kRuntimeOverheadBytes + kAllocatorFragmentation x (activations + logits + buffers). The first
// term is, by its definition in calibration.cpp, the CUDA context and the library and NCCL memory
// "that nvidia-smi shows beyond what PyTorch allocates"; the second, the blocks the caching
// allocator reserves beyond the live tensors. So each published measure drops what it does not see:
// - peak_memory_gb: device-level used memory (nvidia-smi, NVML): everything, total().
// - peak_reserved_gb: torch.cuda.max_memory_reserved (torchtitan's max_reserved, memory_stats
//   reserved_bytes.all.peak): the caching allocator's segments, live tensors and fragmentation but
//   not the CUDA context: total() - kRuntimeOverheadBytes. The per-GPU total itself is the nvidia-smi
//   figure; comparing a reserved peak with it would credit the estimate with a context the published
//   figure leaves out.
// - peak_allocated_gb: torch.cuda.max_memory_allocated (or active bytes): live tensors only, neither
//   context nor fragmentation: total() - runtime.
// - fits: whether the run fit in GPU memory (1) or ran out of it (0): the estimate's own verdict,
//   memory.fits (total() <= the stated capacity). Host RAM under CPU offload is not asked: the
//   published statements are about CUDA out-of-memory, and the rigs' RAM is seldom given.
double predicted_value(const std::string& metric, const llmplan::EstimateResult& r, const llmplan::Scenario& s,
                       const llmplan::Calibration& cal) {
  const llmplan::MemoryBreakdown& m = r.memory.per_gpu;
  if (metric == "mfu") return r.time.mfu;
  if (metric == "tflops_per_gpu") return r.time.model_tflops_per_gpu;
  if (metric == "tokens_per_s_per_gpu") return r.time.tokens_per_s / s.cluster.gpus;
  if (metric == "hw_tflops_per_gpu") return r.time.flops.hardware_per_gpu_step / r.time.step_s / 1e12;
  if (metric == "peak_memory_gb") return m.total() / 1e9;
  if (metric == "peak_reserved_gb") return (m.total() - cal.runtime_overhead_bytes.value) / 1e9;
  if (metric == "peak_allocated_gb") return (m.total() - m.runtime) / 1e9;
  if (metric == "fits") return r.memory.fits ? 1.0 : 0.0;
  if (metric == "gpu_hours") return r.reliability.gpu_hours;
  return NAN;
}

// Each metric needs its predicted_value and group_of.
const std::string kMetrics[] = {"mfu",
                                "tflops_per_gpu",
                                "tokens_per_s_per_gpu",
                                "hw_tflops_per_gpu",
                                "peak_memory_gb",
                                "peak_reserved_gb",
                                "peak_allocated_gb",
                                "fits",
                                "gpu_hours"};

std::string group_of(const std::string& metric) {
  if (metric == "peak_memory_gb" || metric == "peak_reserved_gb" || metric == "peak_allocated_gb") return "memory";
  if (metric == "fits") return "fits";
  if (metric == "gpu_hours") return "gpu_hours";
  return "throughput";
}

// "fits" as words, for the tables.
std::string fits_word(double v) { return v > 0.5 ? "fits" : "out of memory"; }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// [SECTION] the cases file: its shape is checked before anything runs, so a family that is not
// declared, a set that is neither fit nor holdout or a per-case "calibration" (the set belongs to
// the family) is refused with every problem named, instead of being counted somewhere.
std::optional<CaseFile> load_cases(const std::string& path) {
  std::vector<std::string> problems;
  CaseFile f;
  f.path = path;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "validate: cannot read %s\n", path.c_str());
    return std::nullopt;
  }
  const json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    std::fprintf(stderr, "validate: %s is not a JSON object\n", path.c_str());
    return std::nullopt;
  }
  if (!doc.contains("families") || !doc["families"].is_object())
    problems.push_back(
        "\"families\" (an object: family name -> {\"set\": \"fit\" | \"holdout\", \"source\": ...}) is missing");
  else
    for (const auto& [name, fam] : doc["families"].items()) {
      if (!fam.is_object() || !fam.contains("set") || !fam["set"].is_string() ||
          (fam["set"] != "fit" && fam["set"] != "holdout")) {
        problems.push_back("family " + name + ": \"set\" must be \"fit\" or \"holdout\"");
        continue;
      }
      if (!fam.contains("source") || !fam["source"].is_string() || fam["source"].get<std::string>().empty())
        problems.push_back("family " + name + ": \"source\" (the table or page its cases come from) is missing");
      f.families[name] = {fam["set"].get<std::string>(), fam.value("source", std::string())};
    }
  if (!doc.contains("cases") || !doc["cases"].is_array()) {
    problems.push_back("\"cases\" (an array) is missing");
  } else {
    std::set<std::string> ids;
    size_t index = 0;
    for (const json& c : doc["cases"]) {
      const std::string where = "case " + std::to_string(index++);
      if (!c.is_object() || !c.contains("id") || !c["id"].is_string() || c["id"].get<std::string>().empty()) {
        problems.push_back(where + ": \"id\" (a string) is missing");
        continue;
      }
      const std::string id = c["id"];
      if (!ids.insert(id).second) problems.push_back("case " + id + ": the id is used twice");
      if (c.contains("calibration"))
        problems.push_back("case " + id +
                           ": \"calibration\" is no longer read; the set (fit or holdout) belongs to the family, "
                           "declared once under \"families\"");
      if (!c.contains("family") || !c["family"].is_string())
        problems.push_back("case " + id +
                           ": \"family\" (its source table or page, declared under \"families\") is missing");
      else if (doc.contains("families") && doc["families"].is_object() &&
               !doc["families"].contains(c["family"].get<std::string>()))
        problems.push_back("case " + id + ": family " + c["family"].get<std::string>() +
                           " is not declared under \"families\" (add \"" + c["family"].get<std::string>() +
                           "\": {\"set\": \"holdout\", \"source\": \"...\"})");
    }
    f.cases = doc["cases"];
  }
  if (!problems.empty()) {
    for (const std::string& p : problems) std::fprintf(stderr, "validate: %s: %s\n", path.c_str(), p.c_str());
    return std::nullopt;
  }
  std::set<std::string> used;
  for (const json& c : f.cases) used.insert(c["family"].get<std::string>());
  for (const auto& [name, fam] : f.families)
    if (!used.count(name)) std::fprintf(stderr, "note: family %s is declared but has no cases\n", name.c_str());
  return f;
}

// [SECTION] fit provenance: every case of a fit family must be a row of the published-runs files.
// Returns false (after naming each offending case) when one is not; skipped with a note when the
// files are not there.
bool check_fit_provenance(const CaseFile& f, const std::string& dir, std::string& note) {
  std::set<std::string> records;
  for (const char* name : kPublishedFiles) {
    const std::string file = (std::filesystem::path(dir) / name).string();
    std::ifstream in(file);
    if (!in) {
      note = "fit provenance not checked: " + file +
             " is not there (a clone of the repository alone); the fit families are taken as declared";
      return true;
    }
    const json rows = json::parse(in, nullptr, false);
    if (rows.is_discarded() || !rows.is_array()) {
      std::fprintf(stderr, "validate: %s is not a JSON array of published runs\n", file.c_str());
      return false;
    }
    for (const json& r : rows)
      if (r.is_object() && r.contains("id") && r["id"].is_string()) records.insert(r["id"].get<std::string>());
  }
  bool ok = true;
  size_t fit_cases = 0;
  for (const json& c : f.cases) {
    const std::string family = c["family"];
    if (f.families.at(family).set != "fit") continue;
    ++fit_cases;
    const std::string record = c.contains("record") && c["record"].is_string() ? c["record"].get<std::string>() : "";
    if (records.count(record)) continue;
    ok = false;
    std::fprintf(stderr,
                 "validate: family %s is \"fit\" but case %s has record \"%s\", which is not a row of %s/%s or %s: "
                 "only those rows may be fitted on; declare the family \"holdout\"\n",
                 family.c_str(), c["id"].get<std::string>().c_str(), record.c_str(), dir.c_str(), kPublishedFiles[0],
                 kPublishedFiles[1]);
  }
  if (!ok) {
    note = "fit provenance check failed";
    return false;
  }
  note = "fit provenance checked: the " + std::to_string(fit_cases) + " cases of the fit families are rows of " +
         kPublishedFiles[0] + " and " + kPublishedFiles[1];
  return true;
}

std::string default_published_dir(const std::string& cases_path) {
  // CASES is REPO/tests/validation/cases.json; the files live in REPO/../shared/data.
  const std::filesystem::path p =
      std::filesystem::path(cases_path).parent_path() / ".." / ".." / ".." / "shared" / "data";
  return p.lexically_normal().string();
}

// [SECTION] running the cases.

// "layout": "searched": the run's layout is not published, so the case takes the layout with the
// fewest GPU-hours that fits on the stated cluster, among the layouts the planner searches
// (llmplan/layouts.hpp: one set of ranges and the same framework rule); the chosen layout is printed
// with the row. "searched_keep_tp_pp" keeps the scenario's TP and PP, where a source fixes them (the
// model-parallel size of Meta's released Llama checkpoints) and the rest of the layout (ZeRO,
// offload, micro-batch) is unknown. What the source does state stays: the scenario's recompute
// (LLaMA §2.4: selective). run_case refuses any other "layout" value, so a case with one is searched.
constexpr const char* kSearched = "searched";
constexpr const char* kSearchedKeepTpPp = "searched_keep_tp_pp";

std::string search_layout(llmplan::Scenario& s, const llmplan::Calibration& cal, bool keep_tp_pp) {
  const llmplan::Scenario base = s;
  double best = INFINITY;
  std::string chosen = "no layout fits";
  for (const llmplan::Layout& l : llmplan::enumerate_layouts(llmplan::layout_space(base)).layouts) {
    if (l.recompute != base.parallel.recompute) continue;
    if (keep_tp_pp && (l.tp != base.parallel.tp || l.pp != base.parallel.pp)) continue;
    llmplan::Scenario t = base;
    llmplan::apply_layout(l, t);
    const llmplan::EstimateResult r = llmplan::estimate(t, cal);
    if (!llmplan::layout_fits(t, r) || r.reliability.gpu_hours >= best) continue;
    best = r.reliability.gpu_hours;
    s = t;
    chosen = "layout searched (unpublished): TP " + std::to_string(l.tp) + " PP " + std::to_string(l.pp) +
             (l.cp > 1 || l.ep > 1 || l.vp > 1 ? llmplan::layout_extra_text(l) + "," : "") + " ZeRO-" +
             std::to_string(l.zero) + (l.offload == llmplan::Offload::cpu ? " + CPU offload" : "") + " recompute " +
             llmplan::to_string(l.recompute) + " micro-batch " + std::to_string(l.micro_batch);
  }
  return chosen;
}

// One case: its rows, or the reason it cannot run (the scenario parser's message for a scenario
// key or value this core does not take, or a malformed "published", "tolerance" or "exclude").
std::vector<Row> run_case(const json& c, const Family& fam, const llmplan::Calibration& cal, std::string& error) {
  std::vector<Row> rows;
  if (!c.contains("scenario") || !c["scenario"].is_object()) {
    error = "\"scenario\" (an object) is missing";
    return {};
  }
  if (!c.contains("published") || !c["published"].is_object() || c["published"].empty()) {
    error = "\"published\" ({metric: value}) is missing";
    return {};
  }
  for (const auto& [metric, value] : c["published"].items()) {
    if (metric == "fits" && !value.is_boolean()) {
      error = "published fits must be true (the run fit in GPU memory) or false (it ran out of memory)";
      return {};
    }
    if (metric != "fits" && (!value.is_number() || value.get<double>() <= 0)) {
      error = "published " + metric + " must be a positive number";
      return {};
    }
    if (std::find(std::begin(kMetrics), std::end(kMetrics), metric) == std::end(kMetrics)) {
      std::string known;
      for (const std::string& m : kMetrics) known += (known.empty() ? "" : ", ") + m;
      error = "unknown metric " + metric + " (known: " + known + ")";
      return {};
    }
  }
  for (const char* key : {"exclude", "layout", "tolerance_reason", "source"})
    if (c.contains(key) && !c[key].is_string()) {
      error = "\"" + std::string(key) + "\" must be a string";
      return {};
    }
  if (c.contains("layout") && c["layout"] != kSearched && c["layout"] != kSearchedKeepTpPp) {
    error = "\"layout\" must be \"searched\" or \"searched_keep_tp_pp\"";
    return {};
  }
  if (c.contains("tolerance")) {
    const json& t = c["tolerance"];
    bool ok = t.is_number() && t.get<double>() > 0;
    if (t.is_object()) {
      ok = !t.empty();
      for (const auto& [metric, value] : t.items())
        ok = ok && metric != "fits" && c["published"].contains(metric) && value.is_number() && value.get<double>() > 0;
    }
    if (!ok) {
      error =
          "\"tolerance\" must be a positive number or {metric: number} over its published metrics (a fits "
          "prediction is right or wrong: it takes no tolerance)";
      return {};
    }
  }
  const llmplan::ScenarioParse parse = llmplan::parse_scenario(c["scenario"].dump(), llmplan::builtin_catalog());
  if (!parse.scenario) {
    error = parse.error.message;
    return {};
  }
  llmplan::Scenario scenario = *parse.scenario;
  const std::string layout_note =
      c.contains("layout") ? search_layout(scenario, cal, c["layout"] == kSearchedKeepTpPp) : "";
  const llmplan::EstimateResult r = llmplan::estimate(scenario, cal);
  for (const auto& [metric, value] : c["published"].items()) {
    Row row;
    row.id = c["id"];
    row.metric = metric;
    row.group = group_of(metric);
    row.family = c["family"];
    row.set = fam.set;
    row.source = c.value("source", std::string());
    row.published = metric == "fits" ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
    row.predicted = predicted_value(metric, r, scenario, cal);
    if (!std::isfinite(row.predicted)) {
      error = "the estimate gives no finite " + metric;
      return {};
    }
    row.note = layout_note;
    row.regime = llmplan::regime_of(scenario);
    if (row.group == "fits") {
      // Right (0) or wrong: +1 says it fits where the run ran out of memory, -1 the reverse.
      row.error = row.predicted - row.published;
      row.limit = 0;
      char text[160];
      std::snprintf(text, sizeof text, "estimate %.2f GB of %.2f GB (%.0f %%)", r.memory.per_gpu.total() / 1e9,
                    r.memory.capacity_bytes / 1e9, 100 * r.memory.per_gpu.total() / r.memory.capacity_bytes);
      row.note += (row.note.empty() ? "" : "; ") + std::string(text);
    } else {
      row.error = row.predicted / row.published - 1.0;
    }
    if (c.contains("tolerance") && row.group != "fits") {
      const json& t = c["tolerance"];
      if (t.is_number())
        row.limit = t.get<double>(), row.stated_tolerance = true;
      else if (t.is_object() && t.contains(metric))
        row.limit = t[metric].get<double>(), row.stated_tolerance = true;
      if (row.stated_tolerance)
        row.note += (row.note.empty() ? "" : "; ") + std::string("tolerance: ") +
                    c.value("tolerance_reason", std::string("(no reason given)"));
    }
    if (c.contains("exclude")) {
      row.excluded = true;
      row.exclude_reason = c["exclude"].get<std::string>();
      // A fits row keeps the estimate beside the reason: how far from the capacity it landed.
      row.note = "excluded: " + row.exclude_reason + (row.group == "fits" ? "; " + row.note : "");
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<Row> run_cases(const CaseFile& f, const llmplan::Calibration& cal, std::vector<Invalid>& invalid,
                           bool fit_throughput_only = false) {
  std::vector<Row> rows;
  invalid.clear();
  for (const json& c : f.cases) {
    const Family& fam = f.families.at(c["family"].get<std::string>());
    if (fit_throughput_only) {
      bool any = false;
      if (c.contains("published") && c["published"].is_object())
        for (const auto& [metric, value] : c["published"].items()) any = any || group_of(metric) == "throughput";
      if (fam.set != "fit" || !any) continue;
    }
    std::string error;
    std::vector<Row> got;
    try {
      got = run_case(c, fam, cal, error);
    } catch (const json::exception& e) {
      error = std::string("malformed case: ") + e.what();
      got.clear();
    }
    if (!error.empty()) {
      invalid.push_back({c["id"].get<std::string>(), c["family"].get<std::string>(), error});
      continue;
    }
    rows.insert(rows.end(), got.begin(), got.end());
  }
  return rows;
}

// [SECTION] the summary: per metric group, per set (held-out first), per family.

// A wrong fits prediction, in words: "case (says fits, ran out of memory)".
std::string fits_mismatch(const Row& r) {
  return r.id + " (says " + fits_word(r.predicted) + ", " + (r.published > 0.5 ? "fit" : "ran out of memory") + ")";
}
struct Stat {
  std::vector<double> errs;  // |error| of the figures counted (excluded ones aside)
  int excluded = 0, beyond = 0;
  double worst = -1, worst_signed = 0;
  std::string worst_case;
  std::vector<const Row*> beyond_rows;  // the figures beyond their limit (for fits: the wrong predictions)
  void add(const Row& r) {
    if (r.excluded) {
      ++excluded;
      return;
    }
    errs.push_back(std::fabs(r.error));
    if (!r.within()) ++beyond, beyond_rows.push_back(&r);
    if (std::fabs(r.error) > worst)
      worst = std::fabs(r.error), worst_signed = r.error, worst_case = r.id + " " + r.metric;
  }
  double med() const { return median(errs); }
};

struct Line {  // one line of the family table: a family, or every family of a set ("all")
  std::string group, set, family;
  Stat stat;
};

struct Target {
  std::string text;  // what is asserted and what was found
  bool met;
};

struct Summary {
  std::vector<Line> lines;
  std::vector<Target> targets;
  std::vector<const Row*> excluded, widened;  // excluded figures; held-out figures with a tolerance beyond 30 %
  std::vector<Invalid> invalid;
  bool met = true;
};

Summary summarise(const std::vector<Row>& rows, const std::vector<Invalid>& invalid) {
  Summary s;
  s.invalid = invalid;
  for (const char* group : kGroups)
    for (const char* set : {"holdout", "fit"}) {
      std::map<std::string, Stat> by_family;
      Stat all;
      for (const Row& r : rows) {
        if (r.group != group || r.set != set) continue;
        by_family[r.family].add(r);
        all.add(r);
      }
      for (const auto& [family, stat] : by_family) s.lines.push_back({group, set, family, stat});
      if (!by_family.empty()) s.lines.push_back({group, set, "", all});
    }
  auto pooled = [&](const std::string& group) -> const Stat* {
    for (const Line& l : s.lines)
      if (l.group == group && l.set == "holdout" && l.family.empty()) return &l.stat;
    return nullptr;
  };
  auto median_target = [&](const std::string& group, double target) {
    const Stat* st = pooled(group);
    std::string text = "held-out " + group + " median over all its figures ≤ " + target_percent(target) + ": ";
    if (!st || st->errs.empty()) return Target{text + "no held-out " + group + " figures", true};
    const bool met = st->med() <= target;
    return Target{text + percent(st->med()) + " over " + std::to_string(st->errs.size()) + (met ? ", met" : ", MISSED"),
                  met};
  };
  s.targets.push_back(median_target("throughput", kThroughputMedianTarget));
  {
    std::string over;
    size_t n = 0;
    for (const Line& l : s.lines) {
      if (l.set != "holdout" || l.family.empty() || l.stat.errs.empty() || l.group == "fits") continue;
      ++n;
      if (l.stat.med() > kFamilyMedianTarget)
        over += (over.empty() ? "" : ", ") + l.family + " " + l.group + " " + percent(l.stat.med());
    }
    s.targets.push_back({"every held-out family's median ≤ " + target_percent(kFamilyMedianTarget) + " (" +
                             std::to_string(n) +
                             " family and group pairs): " + (over.empty() ? "met" : "MISSED: " + over),
                         over.empty()});
  }
  {
    std::string beyond;
    double worst = -1;
    std::string worst_text = "none";
    for (const Row& r : rows) {
      if (r.set != "holdout" || r.group == "fits") continue;
      if (r.excluded) continue;
      if (std::fabs(r.error) > worst)
        worst = std::fabs(r.error), worst_text = signed_percent(r.error) + " " + r.id + " " + r.metric;
      if (r.stated_tolerance && r.limit > kWorstTarget) s.widened.push_back(&r);
      if (!r.within())
        beyond += (beyond.empty() ? "" : ", ") + r.id + " " + r.metric + " " + signed_percent(r.error) +
                  (r.stated_tolerance ? " (stated tolerance " + percent(r.limit) + ")" : "");
    }
    s.targets.push_back({"every held-out figure within " + target_percent(kWorstTarget) +
                             " (or its case's stated tolerance; excluded figures aside): worst " + worst_text + ", " +
                             (beyond.empty() ? "met" : "MISSED: " + beyond),
                         beyond.empty()});
  }
  s.targets.push_back(median_target("memory", kMemoryMedianTarget));
  {
    const Stat* st = pooled("fits");
    std::string text = "no wrong held-out fits prediction (excluded figures aside): ";
    if (!st || st->errs.empty()) {
      s.targets.push_back({text + "no held-out fits figures", true});
    } else {
      std::string wrong;
      for (const Row* r : st->beyond_rows) wrong += (wrong.empty() ? "" : ", ") + fits_mismatch(*r);
      s.targets.push_back({text + std::to_string(st->beyond) + " wrong of " + std::to_string(st->errs.size()) +
                               (wrong.empty() ? ", met" : ", MISSED: " + wrong),
                           wrong.empty()});
    }
  }
  if (!invalid.empty()) {
    std::string names;
    for (const Invalid& i : invalid) names += (names.empty() ? "" : ", ") + i.id;
    s.targets.push_back({"every case runs: MISSED, " + std::to_string(invalid.size()) + " could not: " + names, false});
  }
  for (const Row& r : rows)
    if (r.excluded) s.excluded.push_back(&r);
  for (const Target& t : s.targets) s.met = s.met && t.met;
  return s;
}

// The block of README.md and docs/validation.md (between the markers): the family table, the fits
// table, the held-out targets, the excluded figures. Nothing in it depends on the machine or on
// ../shared.
std::string family_block(const Summary& s) {
  std::ostringstream md;
  md << "| metric group | set | family | figures | excluded | median abs error | worst error (case) | beyond "
        "limit |\n|---|---|---|---|---|---|---|---|\n";
  for (const Line& l : s.lines) {
    if (l.group == "fits") continue;
    const bool all = l.family.empty();
    const std::string family = all ? "**all " + set_label(l.set) + "**" : l.family;
    const std::string med = l.stat.errs.empty() ? "–" : percent(l.stat.med());
    const std::string worst =
        l.stat.errs.empty() ? "–" : signed_percent(l.stat.worst_signed) + " (" + l.stat.worst_case + ")";
    md << "| " << l.group << " | " << set_label(l.set) << " | " << family << " | " << l.stat.errs.size() << " | "
       << l.stat.excluded << " | " << (all ? "**" + med + "**" : med) << " | " << worst << " | " << l.stat.beyond
       << " |\n";
  }
  if (std::any_of(s.lines.begin(), s.lines.end(), [](const Line& l) { return l.group == "fits"; })) {
    md << "\nFits or runs out of memory (published: whether the run fit in GPU memory; predicted: whether the "
          "estimate fits the stated capacity):\n\n| set | family | cases | excluded | wrong | wrong predictions "
          "|\n|---|---|---|---|---|---|\n";
    for (const Line& l : s.lines) {
      if (l.group != "fits") continue;
      const bool all = l.family.empty();
      std::string wrong;
      if (!all)
        for (const Row* r : l.stat.beyond_rows) wrong += (wrong.empty() ? "" : ", ") + fits_mismatch(*r);
      md << "| " << set_label(l.set) << " | " << (all ? "**all " + set_label(l.set) + "**" : l.family) << " | "
         << l.stat.errs.size() << " | " << l.stat.excluded << " | "
         << (all ? "**" + std::to_string(l.stat.beyond) + "**" : std::to_string(l.stat.beyond)) << " | "
         << (wrong.empty() ? "–" : wrong) << " |\n";
    }
  }
  md << "\nHeld-out targets (the exit status of `llmplan_validate` and the test `validation.published_runs`):\n\n";
  for (const Target& t : s.targets) md << "- " << t.text << "\n";
  if (!s.met)
    md << "\nWhile a target is missed the test passes only if no held-out family is worse than "
          "`tests/validation/ratchet.json` records (median and worst error, wrong fits predictions), a file that "
          "only tightens (`llmplan_validate --update-ratchet`): a model change may not trade one family's accuracy "
          "for another's unseen.\n";
  if (!s.widened.empty()) {
    md << "\nHeld-out figures allowed beyond " << target_percent(kWorstTarget) << " by their case's stated tolerance: ";
    for (size_t i = 0; i < s.widened.size(); ++i)
      md << (i ? ", " : "") << s.widened[i]->id << " " << s.widened[i]->metric << " ("
         << target_percent(s.widened[i]->limit) << ")";
    md << ".\n";
  }
  if (!s.excluded.empty()) {
    md << "\nExcluded (run and shown, counted in no median and no target):\n\n";
    for (const Row* r : s.excluded) md << "- " << r->id << " " << r->metric << ": " << r->exclude_reason << "\n";
  }
  for (const Invalid& i : s.invalid)
    md << "\nCould not run: " << i.id << " (" << i.family << "): " << i.message << "\n";
  return md.str();
}

json summary_json(const Summary& s, const CaseFile& f) {
  json families = json::array();
  for (const Line& l : s.lines) {
    // A fits line has no error to take a median of: it counts the wrong predictions ("wrong",
    // "wrong_cases"), which are also its figures beyond their limit.
    const bool fits = l.group == "fits";
    json j = {{"group", l.group},
              {"set", l.set},
              {"family", l.family.empty() ? json(nullptr) : json(l.family)},
              {"figures", l.stat.errs.size()},
              {"excluded", l.stat.excluded},
              {"median_abs_error", l.stat.errs.empty() || fits ? json(nullptr) : json(l.stat.med())},
              {"worst_error", l.stat.errs.empty() || fits ? json(nullptr) : json(l.stat.worst_signed)},
              {"worst_case", fits ? std::string() : l.stat.worst_case},
              {"beyond_limit", l.stat.beyond}};
    if (fits) {
      json wrong = json::array();
      for (const Row* r : l.stat.beyond_rows) wrong.push_back(fits_mismatch(*r));
      j["wrong"] = l.stat.beyond;
      j["wrong_cases"] = wrong;
    }
    if (!l.family.empty()) j["source"] = f.families.at(l.family).source;
    families.push_back(j);
  }
  json targets = json::array();
  for (const Target& t : s.targets) targets.push_back({{"target", t.text}, {"met", t.met}});
  json invalid = json::array();
  for (const Invalid& i : s.invalid) invalid.push_back({{"case", i.id}, {"family", i.family}, {"message", i.message}});
  return {{"families", families}, {"targets", targets}, {"invalid", invalid}, {"met", s.met}};
}

// [SECTION] --fit: grid search of the fitted constants on the fit families' throughput figures,
// each point a copy of the default calibration with those three values changed, printing every
// improvement of the objective (the chosen values are then written into core/src/calibration.cpp).
// The objective is the mean over the fit families of each family's median |error|: rows of one
// table are not independent, so the largest table must not choose the constants alone.
void fit(const CaseFile& f) {
  double best = 1e9;
  for (double half : {128.0, 192.0, 256.0, 320.0, 384.0, 512.0, 768.0, 1024.0})
    for (double ew : {8.0, 12.0, 16.0, 20.0, 24.0, 28.0, 32.0, 40.0})
      for (double sm : {2.0, 4.0, 6.0, 8.0, 10.0})
        for (double z3 : {0.3, 0.5, 0.7, 0.9}) {
          llmplan::Calibration cal = llmplan::default_calibration();
          cal.gemm_half_size.value = half;
          cal.elementwise_passes.value = ew;
          cal.softmax_passes.value = sm;
          cal.zero3_overlap.value = z3;
          std::vector<Invalid> invalid;
          std::map<std::string, std::vector<double>> by_family;
          for (const Row& r : run_cases(f, cal, invalid, true))
            if (r.set == "fit" && r.group == "throughput" && !r.excluded)
              by_family[r.family].push_back(std::fabs(r.error));
          double sum = 0;
          std::string detail;
          for (const auto& [family, errs] : by_family) {
            sum += median(errs);
            detail += " " + family + " " + std::to_string(static_cast<int>(std::lround(1000 * median(errs))) / 10.0);
          }
          const double m = by_family.empty() ? 1e9 : sum / static_cast<double>(by_family.size());
          if (m < best) {
            best = m;
            std::printf("%s %g %s %g %s %g %s %g: mean of family medians %.2f %% (%s)\n", cal.gemm_half_size.name, half,
                        cal.elementwise_passes.name, ew, cal.softmax_passes.name, sm, cal.zero3_overlap.name, z3,
                        100 * m, detail.c_str());
          }
        }
}

// [SECTION] --fit-attention: kTritonAttentionRatio alone, on the throughput figures of the families it
// names (its fitted_on) whose sequences are longer than 4,096 tokens, where the attention kernel
// is a seventh of the step or more and its rate, not the GEMMs', sets the error; the other
// constants stay at their defaults. Prints the median |error| at each value and the best.
void fit_attention(const CaseFile& f) {
  const std::string families = std::string(" ") + llmplan::default_calibration().triton_attention_ratio.fitted_on + " ";
  double best = 1e9, best_ratio = 0;
  for (int step = 30; step <= 100; ++step) {
    llmplan::Calibration cal = llmplan::default_calibration();
    cal.triton_attention_ratio.value = step / 100.0;
    std::vector<Invalid> invalid;
    std::vector<double> errs;
    for (const Row& r : run_cases(f, cal, invalid, true))
      if (r.group == "throughput" && !r.excluded && r.regime.seq_band >= 1 &&
          families.find(" " + r.family + " ") != std::string::npos)
        errs.push_back(std::fabs(r.error));
    const double m = errs.empty() ? 1e9 : median(errs);
    std::printf("%s %.2f: median |error| %.2f %% over %zu figures\n", cal.triton_attention_ratio.name, step / 100.0,
                100 * m, errs.size());
    if (m < best) best = m, best_ratio = step / 100.0;
  }
  std::printf("best: %s %.2f (median |error| %.2f %%)\n", llmplan::default_calibration().triton_attention_ratio.name,
              best_ratio, 100 * best);
}

// [SECTION] ratchet: while a held-out target is missed, no held-out family may get worse than
// tests/validation/ratchet.json records (its median and worst |error|, its wrong fits). The file
// only tightens: --update-ratchet keeps the smaller of the recorded and the current figure and adds
// new families at their current figures; loosening an entry is a hand edit that a review sees.
std::string ratchet_path(const std::string& cases_path) {
  const size_t slash = cases_path.find_last_of('/');
  return (slash == std::string::npos ? std::string() : cases_path.substr(0, slash + 1)) + "ratchet.json";
}

std::string ratchet_key(const Line& l) { return l.family + "/" + l.group; }

json ratchet_entry(const Line& l) {
  if (l.group == "fits") return {{"wrong", l.stat.beyond}};
  return {{"median", std::round(1e4 * l.stat.med()) / 1e4}, {"worst", std::round(1e4 * l.stat.worst) / 1e4}};
}

// The held-out families worse than the ratchet, in words; empty when none.
std::string ratchet_regressions(const Summary& s, const json& ratchet) {
  std::string out;
  auto add = [&out](const std::string& text) { out += (out.empty() ? "" : ", ") + text; };
  for (const Line& l : s.lines) {
    if (l.set != "holdout" || l.family.empty() || l.stat.errs.empty()) continue;
    const std::string key = ratchet_key(l);
    if (!ratchet.contains("families") || !ratchet["families"].contains(key)) {
      add(key + " has no entry (run --update-ratchet)");
      continue;
    }
    const json& e = ratchet["families"][key];
    if (l.group == "fits") {
      if (l.stat.beyond > e.value("wrong", 0)) add(key + " wrong " + std::to_string(l.stat.beyond));
      continue;
    }
    const double slack = 5e-4;  // the recorded figures are rounded to 0.01 %
    if (l.stat.med() > e.value("median", 0.0) + slack) add(key + " median " + percent(l.stat.med()));
    if (l.stat.worst > e.value("worst", 0.0) + slack) add(key + " worst " + percent(l.stat.worst));
  }
  for (const Invalid& i : s.invalid) add(i.id + " could not run");
  return out;
}

// [SECTION] the generated block in Markdown files.
std::string block_with_markers(const std::string& body) {
  return std::string(kBegin) + ": generated by `" + kRegenerate + "`; a test fails while it is stale -->\n" + body +
         kEnd + "\n";
}

// Returns the file with its block replaced by BLOCK, or nullopt (with a message) without markers.
std::optional<std::string> replace_block(const std::string& file, const std::string& text, const std::string& block) {
  const size_t b = text.find(kBegin);
  const size_t e = b == std::string::npos ? std::string::npos : text.find(kEnd, b);
  if (b == std::string::npos || e == std::string::npos) {
    std::fprintf(stderr, "validate: %s has no \"%s ... -->\" ... \"%s\" block\n", file.c_str(), kBegin, kEnd);
    return std::nullopt;
  }
  size_t after = e + std::string(kEnd).size();
  if (after < text.size() && text[after] == '\n') ++after;
  return text.substr(0, b) + block + text.substr(after);
}

int markdown_files(const std::string& mode, const std::string& block, const std::vector<std::string>& files) {
  int status = 0;
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "validate: cannot read %s\n", file.c_str());
      status = 2;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::optional<std::string> updated = replace_block(file, text.str(), block);
    if (!updated) {
      status = 2;
      continue;
    }
    if (*updated == text.str()) {
      std::printf("%s: the validation table is current\n", file.c_str());
      continue;
    }
    if (mode == "--update-md") {
      std::ofstream(file) << *updated;
      std::printf("%s: validation table rewritten\n", file.c_str());
    } else {
      std::fprintf(stderr,
                   "validate: %s: the validation table is stale (the estimator or the cases changed); run\n  %s\n",
                   file.c_str(), kRegenerate);
      status = std::max(status, 1);
    }
  }
  return status;
}

// [SECTION] residuals: what the ranges of every estimate are read from (llmplan/ranges.hpp).

// published / estimated as a throughput or memory ratio: rates and peaks as they are, GPU-hours
// inverted (more hours is less throughput).
std::optional<std::pair<std::string, double>> residual_of(const Row& r) {
  if (r.excluded) return std::nullopt;
  if (r.group == "throughput" || r.group == "memory") return std::make_pair(r.group, 1.0 / (1.0 + r.error));
  if (r.group == "gpu_hours") return std::make_pair(std::string("throughput"), 1.0 + r.error);
  return std::nullopt;
}

// One residual per case and group (its metrics' geometric mean: a case's tokens/s and TFLOP/s are
// one measurement), in case order, as the document core/data/residuals.json holds.
std::vector<llmplan::Residual> residuals_of(const std::vector<Row>& rows) {
  std::vector<llmplan::Residual> out;
  std::map<std::pair<std::string, std::string>, std::pair<double, int>> logs;
  for (const Row& r : rows) {
    const auto res = residual_of(r);
    if (!res) continue;
    const auto key = std::make_pair(r.id, res->first);
    if (!logs.count(key)) out.push_back({r.id, r.family, res->first, 1.0, r.regime});
    logs[key].first += std::log(res->second);
    logs[key].second += 1;
  }
  for (llmplan::Residual& x : out) {
    const auto& [sum, n] = logs.at({x.case_id, x.group});
    x.ratio = std::exp(sum / n);
  }
  return out;
}

std::string residuals_document(const std::vector<llmplan::Residual>& rows) {
  std::string columns;
  for (const char* c : llmplan::kResidualColumns) columns += (columns.empty() ? "\"" : ",\"") + std::string(c) + "\"";
  std::string text =
      "{\n \"about\": \"Validation residuals (published / estimated) the ranges of every estimate are read from: one "
      "per case and group of tests/validation/cases.json, excluded figures left out; multi_node and peft as 0/1; "
      "slow_path the software path a warning reads the runs of (ranges.hpp). "
      "Generated by build/native/tests/llmplan_validate --update-residuals tests/validation/cases.json "
      "core/data/residuals.json; do not edit.\",\n \"columns\": [" +
      columns + "],\n \"residuals\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const llmplan::Residual& x = rows[i];
    char line[512];
    // Rows without keys or spaces: the file is embedded in every build, the embed card's module too (1 MB budget).
    std::snprintf(line, sizeof line, "[\"%s\",\"%s\",\"%s\",%.4f,%d,%d,%d,%d,\"%s\",\"%s\"]%s\n", x.case_id.c_str(),
                  x.family.c_str(), x.group.c_str(), x.ratio, x.regime.multi_node ? 1 : 0, x.regime.peft ? 1 : 0,
                  x.regime.seq_band, x.regime.accelerator_class,
                  llmplan::kFrameworkNames[static_cast<int>(x.regime.framework)],
                  llmplan::kSlowPathNames[static_cast<int>(x.regime.slow_path)], i + 1 < rows.size() ? "," : "");
    text += line;
  }
  return text + " ]\n}\n";
}

// How often the 80 % range holds a held-out published figure, each read with its own family
// left out (as a run the residuals do not contain would be).
std::string coverage_line(const std::vector<Row>& rows) {
  const std::vector<llmplan::Residual> all = residuals_of(rows);
  std::map<std::string, std::pair<int, int>> per_group;  // group -> (inside, figures)
  for (const Row& r : rows) {
    if (r.set == "fit") continue;
    const auto res = residual_of(r);
    if (!res) continue;
    const llmplan::RatioRange q = llmplan::ratio_range(r.regime, res->first, all, r.family);
    if (q.cases == 0) continue;
    auto& [inside, n] = per_group[res->first];
    inside += res->second >= q.low && res->second <= q.high;
    ++n;
  }
  std::string out;
  for (const auto& [group, c] : per_group) {
    char text[160];
    std::snprintf(text, sizeof text, "%s%s %d of %d (%.1f %%)", out.empty() ? "" : ", ", group.c_str(), c.first,
                  c.second, 100.0 * c.first / std::max(1, c.second));
    out += text;
  }
  return "Ranges of the estimates (80 % intervals, llmplan/ranges.hpp; target: 75-85 % of held-out figures inside), "
         "each held-out figure read with its own family's residuals left out: " +
         out + ".";
}

// What the runs on each slow path measured (llmplan/ranges.hpp), as the known_slow_path warning reads it.
std::string slow_path_line(const std::vector<Row>& rows) {
  const std::vector<llmplan::Residual> all = residuals_of(rows);
  std::string out;
  for (int i = 1; i < static_cast<int>(llmplan::SlowPath::count); ++i) {
    const llmplan::SlowPathEvidence e = llmplan::slow_path_evidence(static_cast<llmplan::SlowPath>(i), all);
    char text[200];
    std::snprintf(text, sizeof text, "%s`%s` median %.2f, %.2f to %.2f over %d runs (%s)", out.empty() ? "" : "; ",
                  llmplan::kSlowPathNames[i], e.median, e.lowest, e.highest, e.runs,
                  e.warns() ? "warned" : "not warned");
    out += text;
  }
  char rule[160];
  std::snprintf(rule, sizeof rule, "warned while the median is under %.1f with %d runs or more",
                llmplan::kSlowPathWarnBelow, llmplan::kMinSlowPathRuns);
  return "Software paths the estimate warns about (`known_slow_path`: published / estimated throughput of the runs "
         "on the path; " +
         std::string(rule) + "): " + out + ".";
}

// [SECTION] calibration of the method (llmplan/calibrate.hpp): within every family, the rows of
// one model that differ only in what calibration.measured_on can say (GPUs, TP, PP, CP, EP, ZeRO,
// micro-batch, sequence length, global batch) are calibrated on one of them, the one on the fewest
// GPUs (a short trial is small), with its published figure as the measurement; the others are
// predicted from it. Their published / calibrated ratios are what the ranges of a calibrated
// scenario are read from ("throughput_calibrated", "memory_calibrated").

struct Pair {
  std::string family, trial, target, group;  // group: "throughput" or "memory"
  double before = 0, after = 0;              // published / estimated, uncalibrated and calibrated
  llmplan::Regime regime;
};

// What a case keeps when its layout is taken away: rows with the same key can calibrate each other.
std::string pair_key(const json& c) {
  json s = c["scenario"];
  for (const char* k : {"micro_batch", "seq_len", "global_batch", "tokens"}) s.erase(k);
  if (s.contains("cluster"))
    for (const char* k : {"gpus", "gpus_per_node"}) s["cluster"].erase(k);
  if (s.contains("parallel"))
    for (const char* k : {"tp", "pp", "cp", "ep", "zero", "pp_flushes"}) s["parallel"].erase(k);
  return c["family"].get<std::string>() + "|" + s.dump();
}

// The trial's layout as calibration.measured_on (its pipeline flushes where the framework has them).
json measured_on(const llmplan::Scenario& t) {
  json on = {{"gpus", t.cluster.gpus},  {"gpus_per_node", t.cluster.gpus_per_node},
             {"tp", t.parallel.tp},     {"pp", t.parallel.pp},
             {"cp", t.parallel.cp},     {"ep", t.parallel.ep},
             {"zero", t.parallel.zero}, {"micro_batch", t.micro_batch},
             {"seq_len", t.seq_len},    {"global_batch", t.effective_global_batch()}};
  if (llmplan::field_applies(llmplan::field("calibration.measured_on.pp_flushes"), t))
    on["pp_flushes"] = t.parallel.pp_flushes;
  return on;
}

struct CaseMeasures {
  const json* c = nullptr;
  llmplan::Scenario scenario;
  llmplan::EstimateResult r;
  double throughput = 0;      // published / estimated tokens/s (geometric mean over its metrics); 0: none
  std::string memory_metric;  // peak_allocated_gb or peak_memory_gb; "" when none
  double memory_published_gb = 0;
};

double memory_view_gb(const std::string& metric, const llmplan::EstimateResult& r) {
  const llmplan::MemoryBreakdown& m = r.memory.per_gpu;
  return (metric == "peak_memory_gb" ? m.total() : m.total() - m.runtime) / 1e9;
}

std::vector<Pair> calibrated_pairs(const CaseFile& f, const std::vector<Row>& rows, const llmplan::Calibration& cal) {
  std::map<std::string, double> ratio_log;
  std::map<std::string, int> ratio_n;
  for (const Row& r : rows)
    if (!r.excluded && r.group == "throughput") ratio_log[r.id] += std::log(1.0 / (1.0 + r.error)), ++ratio_n[r.id];
  std::map<std::string, std::vector<CaseMeasures>> groups;
  for (const json& c : f.cases) {
    if (c.contains("exclude") || c.contains("layout")) continue;  // a searched layout is not the run's
    const llmplan::ScenarioParse parse = llmplan::parse_scenario(c["scenario"].dump(), llmplan::builtin_catalog());
    if (!parse.scenario) continue;
    CaseMeasures m;
    m.c = &c;
    m.scenario = *parse.scenario;
    m.r = llmplan::estimate(m.scenario, cal);
    const std::string id = c["id"];
    if (ratio_n.count(id)) m.throughput = std::exp(ratio_log[id] / ratio_n[id]);
    for (const char* metric : {"peak_allocated_gb", "peak_memory_gb"})
      if (c["published"].contains(metric) && m.memory_metric.empty())
        m.memory_metric = metric, m.memory_published_gb = c["published"][metric].get<double>();
    groups[pair_key(c)].push_back(std::move(m));
  }
  std::vector<Pair> out;
  for (auto& [key, cases] : groups) {
    for (const char* group : {"throughput", "memory"}) {
      const bool speed = std::string(group) == "throughput";
      std::vector<const CaseMeasures*> have;
      for (const CaseMeasures& m : cases)
        if (speed ? m.throughput > 0 : !m.memory_metric.empty()) have.push_back(&m);
      if (have.size() < 2) continue;
      const CaseMeasures* trial = *std::min_element(have.begin(), have.end(), [](const auto* a, const auto* b) {
        return a->scenario.cluster.gpus < b->scenario.cluster.gpus;
      });
      json calibration = {{"measured_on", measured_on(trial->scenario)}};
      if (speed) {
        calibration["tokens_per_s_per_gpu"] =
            trial->r.time.tokens_per_s / trial->scenario.cluster.gpus * trial->throughput;
      } else {
        calibration["peak_memory_gib"] = trial->memory_published_gb * 1e9 / llmplan::kGiB;
        calibration["peak_memory_from"] = trial->memory_metric == "peak_memory_gb" ? "nvidia_smi" : "allocated";
      }
      for (const CaseMeasures* target : have) {
        if (target == trial) continue;
        json doc = (*target->c)["scenario"];
        doc["calibration"] = calibration;
        const llmplan::ScenarioParse parse = llmplan::parse_scenario(doc.dump(), llmplan::builtin_catalog());
        if (!parse.scenario) {
          std::printf("calibration: %s from %s could not be calibrated: %s\n",
                      (*target->c)["id"].get<std::string>().c_str(), (*trial->c)["id"].get<std::string>().c_str(),
                      parse.error.message.c_str());
          continue;
        }
        const llmplan::EstimateResult r = llmplan::estimate(*parse.scenario, cal);
        Pair p{(*target->c)["family"],
               (*trial->c)["id"],
               (*target->c)["id"],
               group,
               0,
               0,
               llmplan::regime_of(target->scenario)};
        if (speed) {
          p.before = target->throughput;
          p.after = target->throughput * target->r.time.tokens_per_s / r.time.tokens_per_s;
        } else {
          p.before = target->memory_published_gb / memory_view_gb(target->memory_metric, target->r);
          p.after = target->memory_published_gb / memory_view_gb(target->memory_metric, r);
        }
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

// Per family and group: the pairs and the median error of the targets before and after.
std::string calibration_block(const std::vector<Pair>& pairs) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>> by;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> all;
  for (const Pair& p : pairs) {
    auto& [b, a] = by[{p.group, p.family}];
    b.push_back(std::fabs(1.0 / p.before - 1.0));
    a.push_back(std::fabs(1.0 / p.after - 1.0));
    all[p.group].first.push_back(b.back());
    all[p.group].second.push_back(a.back());
  }
  std::ostringstream md;
  md << "Calibrated on one row (llmplan/calibrate.hpp): within each family, rows of one model differing only in "
        "GPUs, layout, batch or sequence length are calibrated on the one on the fewest GPUs (its published figure "
        "as the measurement, its layout as `calibration.measured_on`) and the others predicted from it:\n\n"
        "| metric group | family | predicted rows | median abs error, uncalibrated | median abs error, calibrated "
        "|\n|---|---|---|---|---|\n";
  for (const auto& [k, v] : by)
    md << "| " << k.first << " | " << k.second << " | " << v.first.size() << " | " << percent(median(v.first)) << " | "
       << percent(median(v.second)) << " |\n";
  for (const auto& [g, v] : all)
    md << "| " << g << " | **all** | " << v.first.size() << " | **" << percent(median(v.first)) << "** | **"
       << percent(median(v.second)) << "** |\n";
  return md.str();
}

std::vector<llmplan::Residual> calibrated_residuals(const std::vector<Pair>& pairs) {
  std::vector<llmplan::Residual> out;
  for (const Pair& p : pairs) out.push_back({p.target, p.family, p.group + "_calibrated", p.after, p.regime});
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: validate CASES.json OUT_DIR [--published DIR]\n"
               "       validate --fit CASES.json [--published DIR]\n"
               "       validate --fit-attention CASES.json [--published DIR]\n"
               "       validate --update-ratchet CASES.json [--published DIR]\n"
               "       validate --table-md CASES.json\n"
               "       validate --check-md|--update-md CASES.json FILE...\n"
               "       validate --check-residuals|--update-residuals CASES.json FILE\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string published_dir;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--published") {
      if (i + 1 >= args.size()) return usage();
      published_dir = args[i + 1];
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      break;
    }
  if (args.size() < 2) return usage();
  const bool mode = args[0].rfind("--", 0) == 0;
  const std::string cases_path = mode ? args[1] : args[0];
  const std::optional<CaseFile> f = load_cases(cases_path);
  if (!f) return 2;
  if (published_dir.empty()) published_dir = default_published_dir(cases_path);

  if (mode && (args[0] == "--table-md" || args[0] == "--check-md" || args[0] == "--update-md")) {
    std::vector<Invalid> invalid;
    const std::vector<Row> rows = run_cases(*f, llmplan::default_calibration(), invalid);
    const std::vector<Pair> pairs = calibrated_pairs(*f, rows, llmplan::default_calibration());
    const std::string block = block_with_markers(family_block(summarise(rows, invalid)) + "\n" + coverage_line(rows) +
                                                 "\n\n" + slow_path_line(rows) + "\n\n" + calibration_block(pairs));
    if (args[0] == "--table-md") {
      if (args.size() != 2) return usage();
      std::fputs(block.c_str(), stdout);
      return 0;
    }
    if (args.size() < 3) return usage();
    return markdown_files(args[0], block, std::vector<std::string>(args.begin() + 2, args.end()));
  }

  if (mode && (args[0] == "--check-residuals" || args[0] == "--update-residuals")) {
    if (args.size() != 3) return usage();
    std::vector<Invalid> invalid;
    const std::vector<Row> rows = run_cases(*f, llmplan::default_calibration(), invalid);
    std::vector<llmplan::Residual> all = residuals_of(rows);
    const std::vector<llmplan::Residual> calibrated =
        calibrated_residuals(calibrated_pairs(*f, rows, llmplan::default_calibration()));
    all.insert(all.end(), calibrated.begin(), calibrated.end());
    const std::string text = residuals_document(all);
    if (args[0] == "--update-residuals") {
      std::ofstream(args[2]) << text;
      std::printf("%s: residuals rewritten\n", args[2].c_str());
      return 0;
    }
    std::ifstream in(args[2]);
    std::ostringstream now;
    now << in.rdbuf();
    if (now.str() == text) return 0;
    std::printf("%s is stale: run build/native/tests/llmplan_validate --update-residuals %s %s\n", args[2].c_str(),
                cases_path.c_str(), args[2].c_str());
    return 1;
  }

  std::string provenance;
  const bool provenance_ok = check_fit_provenance(*f, published_dir, provenance);
  std::printf("%s\n", provenance.c_str());
  if (!provenance_ok) return 2;
  if (mode && args[0] == "--update-ratchet") {
    if (args.size() != 2) return usage();
    std::vector<Invalid> invalid;
    const Summary s = summarise(run_cases(*f, llmplan::default_calibration(), invalid), invalid);
    const std::string path = ratchet_path(cases_path);
    json old = json::object();
    if (std::ifstream in(path); in) old = json::parse(in, nullptr, false);
    if (old.is_discarded() || !old.is_object()) old = json::object();
    json r = {{"about",
               "Held-out families may not get worse than this while a held-out target is missed "
               "(tests/validation/validate.cpp, section ratchet). Written by llmplan_validate --update-ratchet, which "
               "only tightens it."},
              {"families", json::object()}};
    for (const Line& l : s.lines) {
      if (l.set != "holdout" || l.family.empty() || l.stat.errs.empty()) continue;
      json now = ratchet_entry(l);
      const std::string key = ratchet_key(l);
      if (old.contains("families") && old["families"].contains(key))
        for (auto& [k, v] : now.items())
          if (old["families"][key].contains(k)) v = std::min(v.get<double>(), old["families"][key][k].get<double>());
      r["families"][key] = now;
    }
    std::ofstream(path) << r.dump(1) << "\n";
    std::printf("%s: %zu held-out family entries\n", path.c_str(), r["families"].size());
    return 0;
  }
  if (mode) {
    if ((args[0] != "--fit" && args[0] != "--fit-attention") || args.size() != 2) return usage();
    if (args[0] == "--fit-attention")
      fit_attention(*f);
    else
      fit(*f);
    return 0;
  }
  if (args.size() != 2) return usage();

  std::vector<Invalid> invalid;
  const std::vector<Row> rows = run_cases(*f, llmplan::default_calibration(), invalid);
  for (const Invalid& i : invalid)
    std::printf("INVALID %s (%s): %s\n", i.id.c_str(), i.family.c_str(), i.message.c_str());

  std::ostringstream md;
  md << "| case | family | set | metric | published | predicted | error | limit | note "
        "|\n|---|---|---|---|---|---|---|---|---|\n";
  std::printf("%-44s %-17s %-8s %-21s %13s %13s %8s %6s %s\n", "case", "family", "set", "metric", "published",
              "predicted", "error", "limit", "note");
  for (const Row& r : rows) {
    // A fits row prints its values as words and its error as right or wrong.
    const bool fits = r.group == "fits";
    char pub[32], pred[32], err[32], lim[16];
    std::snprintf(pub, sizeof pub, "%.4g", r.published);
    std::snprintf(pred, sizeof pred, "%.4g", r.predicted);
    std::snprintf(err, sizeof err, "%+.1f %%", 100 * r.error);
    std::snprintf(lim, sizeof lim, "%.0f %%", 100 * r.limit);
    const std::string published = fits ? fits_word(r.published) : pub, predicted = fits ? fits_word(r.predicted) : pred;
    const std::string error = fits ? (r.error == 0 ? "right" : "wrong") : err, limit = fits ? "–" : lim;
    std::printf("%-44s %-17s %-8s %-21s %13s %13s %8s %6s %s%s\n", r.id.c_str(), r.family.c_str(),
                set_label(r.set).c_str(), r.metric.c_str(), published.c_str(), predicted.c_str(), error.c_str(),
                limit.c_str(), r.within() ? "" : (r.set == "fit" ? "beyond limit (fit, not gated) " : "BEYOND LIMIT "),
                r.note.c_str());
    md << "| " << r.id << " | " << r.family << " | " << set_label(r.set) << " | " << r.metric << " | " << published
       << " | " << predicted << " | " << error << " | " << limit << " | " << r.note << " |\n";
  }

  const Summary s = summarise(rows, invalid);
  const std::string block = family_block(s);
  std::printf("\nPer source family (%s):\n\n%s\n", provenance.c_str(), block.c_str());
  std::printf("%s\n\n", coverage_line(rows).c_str());
  std::printf("%s\n\n", slow_path_line(rows).c_str());
  const std::string calibrated = calibration_block(calibrated_pairs(*f, rows, llmplan::default_calibration()));
  std::printf("%s\n", calibrated.c_str());
  md << "\n" << block << "\n" << calibrated;

  const std::string out = args[1];
  std::ofstream(out + "/validation.md") << md.str();
  json cases = json::array();
  for (const Row& r : rows)
    cases.push_back({{"case", r.id},
                     {"family", r.family},
                     {"set", r.set},
                     {"group", r.group},
                     {"metric", r.metric},
                     {"published", r.published},
                     {"predicted", r.predicted},
                     {"error", r.error},
                     {"tolerance", r.limit},
                     {"stated_tolerance", r.stated_tolerance},
                     {"within", r.within()},
                     {"excluded", r.excluded},
                     {"note", r.note},
                     {"source", r.source}});
  json j = summary_json(s, *f);
  j["provenance"] = provenance;
  j["cases"] = cases;
  std::ofstream(out + "/validation.json") << j.dump(1);
  if (s.met) {
    std::printf("validation: every held-out target met\n");
    return 0;
  }
  json ratchet = json::object();
  if (std::ifstream in(ratchet_path(args[0])); in) ratchet = json::parse(in, nullptr, false);
  if (ratchet.is_discarded()) ratchet = json::object();
  const std::string worse = ratchet_regressions(s, ratchet);
  if (worse.empty()) {
    std::printf("validation: a held-out target is missed (listed above); no held-out family is worse than %s\n",
                ratchet_path(args[0]).c_str());
    return 0;
  }
  std::printf("validation: a held-out target is missed, and held-out families got worse than %s: %s\n",
              ratchet_path(args[0]).c_str(), worse.c_str());
  return 1;
}
