// report.cpp: the Markdown summary and the step-time and cost breakdowns of an estimate.
#include "llmplan/report.hpp"

#include <cstdio>
#include <functional>

#include "llmplan/calibrate.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"
#include "llmplan/wording.hpp"

namespace llmplan {

StepBreakdown step_breakdown(const TimeResult& t) {
  StepBreakdown b;
  b.s[static_cast<size_t>(StepPart::compute)] = t.compute_s;
  b.s[static_cast<size_t>(StepPart::exposed_comm)] = t.comm.exposed_s();
  b.s[static_cast<size_t>(StepPart::bubble)] = t.bubble_s;
  b.s[static_cast<size_t>(StepPart::offload)] = t.offload_s;
  b.s[static_cast<size_t>(StepPart::io_stall)] = t.io_stall_s;
  b.total_s = t.step_s;
  return b;
}

const char* result_key(StepPart part) {
  static const char* keys[] = {"time.compute_s", "time.exposed_comm_s", "time.bubble_s", "time.offload_s",
                               "time.io_stall_s"};
  return part == StepPart::count ? "time.step_s" : keys[static_cast<size_t>(part)];
}

double usd_in(double usd, Currency currency, const CostResult& cost) {
  return currency == Currency::cny ? usd * cost.usd_to_cny : usd;
}

std::string markdown_summary(std::string_view input_json, const Scenario& s, const EstimateResult& r,
                             const Catalog& catalog, std::string_view link) {
  const ModelPreset* preset = s.model_preset.empty() ? nullptr : catalog.find_model(s.model_preset);
  const std::string model = preset ? preset->name : "custom architecture";
  const std::string hw = s.cluster.instance.empty()
                             ? std::to_string(s.cluster.gpus) + " x " + s.cluster.accelerator
                             : std::to_string(s.cluster.nodes()) + " x " + s.cluster.instance + " (" +
                                   std::to_string(s.cluster.gpus) + " x " + s.cluster.accelerator + ")";
  const MemoryResult& m = r.memory;
  const TimeResult& t = r.time;
  const CostResult& c = r.cost;
  // " (low–high)" after each ranged figure: its 80 % range (ranges.hpp).
  const std::vector<FigureRange> ranges = figure_ranges(s, r, builtin_residuals());
  auto range = [&ranges](std::string_view path, const std::function<std::string(double)>& format) {
    return range_text(ranges, path, format);
  };
  const auto duration = [](double v) { return format_duration(v); };
  std::string out;
  out += "## llmplan estimate: " + model + ", " + to_string(s.method) + " on " + hw + "\n\n";
  out += "| | |\n|---|---|\n";
  out += "| Model | " + model + " (" + format_count(r.params.total) + " parameters) |\n";
  out += "| Method, precision, optimizer | " + std::string(to_string(s.method)) + ", " + to_string(s.precision) + ", " +
         to_string(s.optimizer) + " |\n";
  const std::string flushes =
      s.pp_schedules() > 1 ? " (" + pipeline_flushes_a_step(s.pp_schedules()) + ")" : "";
  out += "| Layout | TP " + std::to_string(s.parallel.tp) + ", PP " + std::to_string(s.parallel.pp) + flushes +
         ", DP " + std::to_string(r.dp) + ", ZeRO " + std::to_string(s.parallel.zero) + ", recompute " +
         recompute_text(layout_of(s)) + " |\n";
  out += "| Batch | " + std::to_string(r.global_batch) + " sequences of " + std::to_string(s.seq_len) +
         " tokens (micro-batch " + std::to_string(s.micro_batch) + ", accumulation " + std::to_string(r.grad_accum) +
         ") |\n";
  out += "| Training tokens | " + format_count(s.training_tokens()) + " |\n";
  out += "| Fits? | " + std::string(m.fits ? "yes" : "**no**") + ": " + format_bytes(m.per_gpu.total()) +
         range("memory.per_gpu_bytes.total", [](double v) { return format_bytes(v); }) + " of " +
         format_bytes(m.capacity_bytes) + " per GPU |\n";
  out += "| Step time | " + format_duration(t.step_s) + range("time.step_s", duration) + ", compute " +
         format_duration(t.compute_s) + " |\n";
  out += "| MFU | " + format_percent(t.mfu) + range("time.mfu", [](double v) { return format_percent(v); }) + " |\n";
  out += "| Throughput | " + format_count(t.tokens_per_s) +
         range("time.tokens_per_s", [](double v) { return format_count(v); }) + " tokens/s |\n";
  out += "| Wall-clock | " + format_duration(r.reliability.total_hours * 3600) +
         range("time.total_hours", [](double v) { return format_duration(v * 3600); }) + ", " +
         format_number("%.0f", r.reliability.gpu_hours) + " GPU-hours |\n";
  out += "| Cost | " + format_money(c.total_usd, Currency::usd) +
         range("cost.total_usd", [](double v) { return format_money(v, Currency::usd); }) + " / " +
         format_money(c.total_cny, Currency::cny) + " at " + format_money(c.usd_per_gpu_hour, Currency::usd) +
         " per GPU-hour, overhead x" + format_number("%.2g", s.pricing.overhead_factor) + " |\n";
  out += "| Tier | " + std::string(to_string(r.tier)) + " |\n";
  if (s.measured.any()) out += "| Calibration | " + calibration_sentence(s, catalog) + " |\n";
  out += "\nIn parentheses: 80 % ranges, read off published runs comparable to this one (llmplan validation).\n";
  if (r.warnings.count > 0) {
    out += "\n**Warnings**\n\n";
    for (int i = 0; i < r.warnings.count; ++i) {
      const Warning& w = r.warnings.items[static_cast<size_t>(i)];
      out += "- `" + std::string(warning_code(w.code)) + "`: " + warning_message(w) + "\n";
    }
  }
  out += "\nCatalog " + catalog.catalog_version + " (as of " + catalog.as_of + "), llmplan " LLMPLAN_VERSION ".";
  if (!link.empty()) out += " [Open this estimate](" + std::string(link) + ")";
  out += "\n\n```json\n" + std::string(input_json) + "\n```\n";
  return out;
}

}  // namespace llmplan
