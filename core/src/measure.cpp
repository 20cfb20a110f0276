// measure.cpp: training and benchmark logs -> a calibration block (measure.hpp).
#include "llmplan/measure.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

#include "llmplan/fields.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

namespace {

using ojson = nlohmann::ordered_json;

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

// The number right after `key` in `line` (spaces, ':', '=', quotes and '(' between), thousands
// separators allowed ("3,456"); false when there is none.
bool number_after(std::string_view line, std::string_view key, double& value, size_t* end = nullptr) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return false;
  size_t i = at + key.size();
  while (i < line.size() &&
         (line[i] == ' ' || line[i] == ':' || line[i] == '=' || line[i] == '\'' || line[i] == '"' || line[i] == '\t'))
    ++i;
  std::string digits;
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
        ((c == '-' || c == '+') && (digits.empty() || digits.back() == 'e' || digits.back() == 'E')))
      digits += c;
    else if (c == ',' && !digits.empty() && i + 3 < line.size() + 1 &&
             std::isdigit(static_cast<unsigned char>(line[i + 1])))
      continue;  // thousands separator
    else
      break;
  }
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) return false;
  char* stop = nullptr;
  value = std::strtod(digits.c_str(), &stop);
  if (end) *end = i;
  return stop && *stop == '\0' && value >= 0;
}

// The unit right after a number ("GiB", "GB", "MB", "MiB"), as bytes per unit; 0 when none.
double unit_after(std::string_view line, size_t pos) {
  while (pos < line.size() && line[pos] == ' ') ++pos;
  const std::string_view rest = line.substr(pos);
  for (const auto& [name, bytes] :
       {std::pair{"GiB", kGiB}, std::pair{"GB", 1e9}, std::pair{"MiB", 1048576.0}, std::pair{"MB", 1e6}})
    if (rest.rfind(name, 0) == 0) return bytes;
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Per-step figures: the median of the steps after the first (compilation, allocator warm-up).
bool steady(const std::vector<double>& v, double& value, std::string& how) {
  if (v.empty()) return false;
  const std::vector<double> after(v.size() > 1 ? v.begin() + 1 : v.begin(), v.end());
  value = median(after);
  how = v.size() > 1 ? "median of " + std::to_string(after.size()) + " steps after the first" : "one step";
  return value > 0;
}

struct Reader {
  std::vector<std::string_view> lines;
  std::vector<LogFinding> found;

  std::vector<double> all(std::string_view key, std::string_view must = "") const {
    std::vector<double> out;
    for (std::string_view l : lines) {
      double v = 0;
      if ((must.empty() || l.find(must) != std::string_view::npos) && number_after(l, key, v)) out.push_back(v);
    }
    return out;
  }
  void add(const char* format, const char* field, double value, int samples, std::string how) {
    found.push_back({format, field, value, samples, std::move(how)});
  }
  void per_step(const char* format, const char* field, const std::vector<double>& v, double scale = 1) {
    double value = 0;
    std::string how;
    if (steady(v, value, how)) add(format, field, value * scale, static_cast<int>(v.size()), how);
  }
  void peak(const char* format, const char* field, const std::vector<double>& gib, const char* source) {
    if (gib.empty()) return;
    add(format, field, *std::max_element(gib.begin(), gib.end()), static_cast<int>(gib.size()),
        std::string("largest of the reported peaks (") + source + ")");
  }
};

void read_hf_trainer(Reader& r) {
  // Trainer.train() prints {'train_runtime': ..., 'train_samples_per_second': ..., 'train_steps_per_second': ...}.
  const auto steps = r.all("train_steps_per_second");
  if (!steps.empty() && steps.back() > 0)
    r.add("Hugging Face Trainer", "calibration.step_s", 1.0 / steps.back(), 1, "1 / train_steps_per_second");
}

void read_torchtune(Reader& r) {
  r.per_step("torchtune", "calibration.tokens_per_s_per_gpu", r.all("tokens_per_second_per_gpu"));
  std::vector<double> gib = r.all("peak_memory_alloc");
  const auto summary = r.all("GPU peak memory allocation");  // log_memory_stats
  gib.insert(gib.end(), summary.begin(), summary.end());
  r.peak("torchtune", "calibration.peak_memory_gib", gib, "allocated");
}

void read_megatron(Reader& r) {
  r.per_step("Megatron-LM", "calibration.step_s", r.all("elapsed time per iteration (ms)"), 1e-3);
  // report_memory: "memory (MB) | allocated: .. | max allocated: .. | reserved: ..", MB = 2^20 bytes.
  std::vector<double> gib;
  for (double mb : r.all("| max allocated", "memory (MB)")) gib.push_back(mb * 1048576.0 / kGiB);
  r.peak("Megatron-LM", "calibration.peak_memory_gib", gib, "allocated");
}

void read_deepspeed(Reader& r) {
  // see_memory_usage: "MA 1.2 GB  Max_MA 3.4 GB" and the engine's "MaxMemAllocated=3.4GB", both 2^30 bytes.
  std::vector<double> gib = r.all("MaxMemAllocated");
  const auto max_ma = r.all("Max_MA");
  gib.insert(gib.end(), max_ma.begin(), max_ma.end());
  r.peak("DeepSpeed", "calibration.peak_memory_gib", gib, "allocated");
}

void read_torchtitan(Reader& r) {
  // "step: 10  loss: 7.12  memory: 35.12GiB(44.38%)  tps: 3,456  tflops: 201.2  mfu: 20.35%" (per device).
  // Earlier releases printed "wps" (words, i.e. tokens, per second) where later ones print "tps".
  std::vector<double> tps = r.all("tps", "step:");
  if (tps.empty()) tps = r.all("wps", "step:");
  r.per_step("torchtitan", "calibration.tokens_per_s_per_gpu", tps);
  r.per_step("torchtitan", "calibration.mfu", r.all("mfu", "step:"), 0.01);
  r.peak("torchtitan", "calibration.peak_memory_gib", r.all("memory", "step:"), "reserved");
}

void read_nccl_tests(Reader& r) {
  // Result rows: size count type redop root time algbw busbw #wrong (out-of-place), then in-place.
  double best_size = -1, busbw = 0;
  int rows = 0;
  std::set<std::string> hosts;
  bool all_reduce = false;
  for (std::string_view l : r.lines) {
    // Every nccl-tests binary opens with "# nThread ..."; all_reduce_perf's rows reduce (redop sum).
    if (l.find("# nThread") != std::string_view::npos) all_reduce = true;
    // "#  Rank  0 Group  0 Pid 1234 on  host-a device  0 [0x18] NVIDIA H100"
    if (const size_t on = l.find(" on "); l.find("Rank") != std::string_view::npos && on != std::string_view::npos) {
      std::string_view rest = l.substr(on + 4);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      hosts.insert(std::string(rest.substr(0, rest.find(' '))));
    }
    if (l.empty() || l.front() == '#') continue;
    std::vector<std::string> cols;
    size_t i = 0;
    while (i < l.size()) {
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
      const size_t j = i;
      while (i < l.size() && l[i] != ' ' && l[i] != '\t') ++i;
      if (i > j) cols.emplace_back(l.substr(j, i - j));
    }
    if (cols.size() < 9 || (cols[2] != "float" && cols[2] != "half" && cols[2] != "bfloat16") || cols[3] == "none")
      continue;
    const double size = std::atof(cols[0].c_str()), bw = std::atof(cols[7].c_str());
    ++rows;
    if (size >= best_size) best_size = size, busbw = bw;
  }
  if (!all_reduce || rows == 0 || busbw <= 0) return;
  const bool inter = hosts.size() > 1;
  r.add("nccl-tests", inter ? "calibration.busbw_gb_per_s.inter" : "calibration.busbw_gb_per_s.intra", busbw, rows,
        "out-of-place busbw at the largest size, " + std::to_string(static_cast<long long>(best_size)) + " B, over " +
            std::to_string(std::max<size_t>(1, hosts.size())) + (inter ? " hosts" : " host"));
}

void read_fio(Reader& r) {
  for (const char* key : {"READ: bw", "read: IOPS"}) {
    for (std::string_view l : r.lines) {
      const size_t at = l.find(key);
      if (at == std::string_view::npos) continue;
      const std::string_view rest = l.substr(at);
      double v = 0;
      size_t end = 0;
      // "bw=2048MiB/s (2147MB/s)" in the summary, "BW=2048MiB/s (2147MB/s)" per job.
      const char* bw = rest.find("bw=") != std::string_view::npos ? "bw=" : "BW=";
      if (!number_after(rest, bw, v, &end)) continue;
      const double unit = unit_after(rest, end);
      if (unit <= 0) continue;
      r.add("fio", "calibration.data_read_gb_per_s", v * unit / 1e9, 1, std::string("the \"") + key + "\" line");
      return;
    }
  }
}

void read_max_memory_allocated(Reader& r) {
  std::vector<double> gib;
  for (std::string_view l : r.lines) {
    double v = 0;
    size_t end = 0;
    if (!number_after(l, "max_memory_allocated()", v, &end) && !number_after(l, "max_memory_allocated", v, &end))
      continue;
    const double unit = unit_after(l, end);
    gib.push_back(unit > 0 ? v * unit / kGiB : v / kGiB);  // a bare number is bytes, as the call returns
  }
  r.peak("torch.cuda", "calibration.peak_memory_gib", gib, "allocated");
}

void read_samples_per_s(Reader& r, const Scenario* context) {
  // Megatron-DeepSpeed "samples/sec: 12.3", else DeepSpeed's own ThroughputTimer line
  // ("CurrSamplesPerSec=12.3": train_batch_size, every rank's samples, over the step's time);
  // without a scenario no tokens/s per GPU.
  std::vector<double> samples = r.all("samples/sec");
  if (samples.empty()) samples = r.all("CurrSamplesPerSec");
  const auto trainer = r.all("train_samples_per_second");
  std::vector<double> v = samples.empty() ? trainer : samples;
  if (v.empty() || !context) return;
  double value = 0;
  std::string how;
  if (!steady(v, value, how)) return;
  r.add(samples.empty() ? "Hugging Face Trainer" : "DeepSpeed", "calibration.tokens_per_s_per_gpu",
        value * context->seq_len / context->cluster.gpus, static_cast<int>(v.size()),
        how + " of samples/s x seq_len / GPUs");
}

constexpr const char* kLookedFor =
    "Hugging Face Trainer train_steps_per_second; torchtune tokens_per_second_per_gpu and peak_memory_alloc; "
    "Megatron-LM 'elapsed time per iteration (ms)' and 'max allocated'; DeepSpeed samples/sec, "
    "CurrSamplesPerSec and MaxMemAllocated; torchtitan 'tps:', 'mfu:' and 'memory:'; an nccl-tests all_reduce_perf "
    "table; fio 'READ: "
    "bw='; a printed torch.cuda.max_memory_allocated()";

// The calibration takes one throughput: tokens/s per GPU, then step time, then MFU.
const char* const kThroughputOrder[] = {"calibration.tokens_per_s_per_gpu", "calibration.step_s", "calibration.mfu"};

}  // namespace

LogParse parse_log(std::string_view text, const Scenario* context) {
  Reader r;
  r.lines = lines_of(text);
  read_torchtitan(r);
  read_torchtune(r);
  read_megatron(r);
  read_deepspeed(r);
  read_hf_trainer(r);
  read_nccl_tests(r);
  read_fio(r);
  read_max_memory_allocated(r);
  const bool has_speed = std::any_of(r.found.begin(), r.found.end(), [](const LogFinding& f) {
    return f.field == kThroughputOrder[0] || f.field == kThroughputOrder[1];
  });
  if (!has_speed) read_samples_per_s(r, context);
  LogParse out;
  out.found = std::move(r.found);
  out.ok = !out.found.empty();
  // A figure the scenario's field would refuse is no measurement to carry over: say so here.
  for (const LogFinding& f : out.found) {
    const FieldSpec* spec = find_field(f.field);
    if (!spec || (f.value >= spec->lo && f.value <= spec->hi)) continue;
    out.ok = false;
    out.error = "log: " + f.field + " read as " + format_significant(f.value, 6) + " (" + f.format + ", " + f.how +
                "), outside the field's allowed " + field_range_text(*spec);
    return out;
  }
  if (!out.ok) {
    const bool samples_only = !r.all("samples/sec").empty() || !r.all("CurrSamplesPerSec").empty() ||
                              !r.all("train_samples_per_second").empty();
    out.error = samples_only ? "log: samples/s was found but no tokens/s or step time; samples/s becomes tokens/s "
                               "per GPU only with the scenario's sequence length and GPUs (give the scenario)"
                             : std::string("log: no measurement recognised; looked for ") + kLookedFor;
  }
  return out;
}

ojson calibration_block(const LogParse& p) {
  ojson block = ojson::object();
  auto first = [&p](const std::string& field) -> const LogFinding* {
    for (const LogFinding& f : p.found)
      if (f.field == field) return &f;
    return nullptr;
  };
  for (const char* speed : kThroughputOrder)
    if (const LogFinding* f = first(speed)) {
      block[std::string(speed).substr(12)] = f->value;
      break;
    }
  if (const LogFinding* f = first("calibration.peak_memory_gib")) {
    block["peak_memory_gib"] = f->value;
    const std::string source = f->how.find("reserved") != std::string::npos ? "reserved" : "allocated";
    if (source != "allocated") block["peak_memory_from"] = source;
  }
  for (const char* side : {"intra", "inter"})
    if (const LogFinding* f = first(std::string("calibration.busbw_gb_per_s.") + side))
      block["busbw_gb_per_s"][side] = f->value;
  if (const LogFinding* f = first("calibration.data_read_gb_per_s")) block["data_read_gb_per_s"] = f->value;
  return block;
}

std::string parse_log_json(std::string_view text, const Scenario* context) {
  const LogParse p = parse_log(text, context);
  if (!p.ok) return ojson{{"error", {{"field", "log"}, {"message", p.error}}}}.dump(2);
  ojson found = ojson::array();
  for (const LogFinding& f : p.found)
    found.push_back(
        {{"format", f.format}, {"field", f.field}, {"value", f.value}, {"samples", f.samples}, {"how", f.how}});
  return ojson{{"calibration", calibration_block(p)}, {"found", found}}.dump(2);
}

}  // namespace llmplan
