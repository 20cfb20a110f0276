// llmplan CLI: the native front end of the same core the web app runs.
//   llmplan estimate FILE|- [--format json|table]    scenario JSON in, result JSON out
//   llmplan measure LOG|- [--scenario FILE]          a training log in, a calibration block out
//   llmplan tco FILE|- [--format json|table]         own or rent: an ownership question in, costs out
//   llmplan import FILE|- [--format json|scenario]   a training config in, a partial scenario out
//   llmplan catalog list|check|diff ...                 the catalog (see --help)
// Exit codes: 0 success, 2 invalid input or usage (message names the field), 1 internal error.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/catalog_diff.hpp"
#include "llmplan/catalog_releases.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/import.hpp"
#include "llmplan/link.hpp"
#include "llmplan/measure.hpp"
#include "llmplan/model_version.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/tco.hpp"
#include "llmplan/units.hpp"
#include "llmplan/wording.hpp"

namespace {

const char* kHelp = "llmplan " LLMPLAN_VERSION
                    ": GPU, time and cost planner for training large language models\n"
                    "\n"
                    "Usage:\n"
                    "  llmplan estimate FILE|- [--format json|table] [--explain]\n"
                    "      Read a scenario JSON (a file, or '-' for standard input) and print the estimate.\n"
                    "      --format json (default) prints the result JSON; --format table a summary for people;\n"
                    "      --explain adds \"explain\": the formula and the values behind every figure.\n"
                    "  llmplan plan FILE|- [--format json|table|artifacts|csv]\n"
                    "      Search the catalog's offerings, node counts and parallel layouts for the best plan:\n"
                    "      a scenario without cluster/parallel plus \"objective\" (min_cost, min_time,\n"
                    "      min_cost_under_deadline, min_time_under_budget) and optional \"constraints\"\n"
                    "      {max_gpus, deadline_days, budget_usd, providers, accelerators, regions, currency, spot,\n"
                    "      start_within_days, provider_kinds}.\n"
                    "      --format artifacts\n"
                    "      prints the best plan's launch commands, configs and post-provisioning checklist.\n"
                    "  llmplan tco FILE|- [--format json|table]\n"
                    "      Own or rent: GPU servers bought (capex, power, colocation, staff) against the same\n"
                    "      GPUs rented on demand, reserved or spot; the cost per GPU-hour, the break-even\n"
                    "      utilisation and month, and the cumulative cost by month. Input: {\"servers\":\n"
                    "      {\"accelerator\", \"gpus_per_server\", \"count\", \"price_usd\"|\"price_cny\", ...},\n"
                    "      \"utilisation\"|\"workload\", \"horizon_months\", \"currency\", ...} (docs/tco.md); every\n"
                    "      field but servers.accelerator has a catalog default, listed in \"assumptions\".\n"
                    "  llmplan measure LOG|- [--scenario FILE]\n"
                    "      Read a training or benchmark log (Hugging Face Trainer, torchtune, Megatron-LM,\n"
                    "      DeepSpeed, torchtitan, nccl-tests all_reduce_perf, fio, torch.cuda.max_memory_allocated)\n"
                    "      and print the \"calibration\" block it gives, with what was read from where; the\n"
                    "      scenario turns samples/s into tokens/s per GPU. Put the block in the scenario.\n"
                    "  llmplan import FILE|- [--format json|scenario]\n"
                    "      Read a training config (a Hugging Face config.json, a DeepSpeed config, an accelerate,\n"
                    "      LLaMA-Factory or axolotl YAML, or a torchrun / deepspeed command line) and print the\n"
                    "      partial scenario it gives, with every key mapped, ignored, unsupported or unknown\n"
                    "      (docs/import.md). --format scenario prints the scenario alone, for `llmplan estimate -`.\n"
                    "  llmplan link encode FILE|- [--catalog VERSION]\n"
                    "      Print the link fragment (v=1&c=...&mv=...&m=...) of a scenario or planner question JSON\n"
                    "      (made with the built-in catalog, or an archived release of it).\n"
                    "  llmplan link decode LINK\n"
                    "      Decode a link (a fragment or a whole URL) with the catalog release it was made with:\n"
                    "      the scenario, notices for every field that fell back to its default, catalog changes,\n"
                    "      the estimator model version it was made with and the model changes since.\n"
                    "  llmplan link estimate LINK [--format json|table]\n"
                    "      Decode a link and print its estimate (or plan, for a planner link); the notices, and\n"
                    "      whether the estimator changed since the link was made, go to standard error.\n"
                    "  llmplan link model-changes [--format md|json] | --update-md FILE...\n"
                    "      Print the estimator's model version and its change log (the \"Model changes\" table\n"
                    "      of docs/links.md), or rewrite that table between its markers in FILE.\n"
                    "  llmplan catalog list [SECTION] [--json]\n"
                    "      Print a section of the built-in catalog: accelerators, interconnects, storage,\n"
                    "      providers, instances, models, currency, servers, ownership (a table, or the entries\n"
                    "      as JSON). providers prints the scorecard: kind, multi-node RDMA, billing, spot, lead\n"
                    "      time, the GPUs listed, the parallel file system and the platform (\"?\": not found).\n"
                    "  llmplan catalog check FILE|DIR...\n"
                    "      Validate a catalog: one merged file, or the section files catalog/*.json (a folder\n"
                    "      stands for the *.json files directly in it, as the build merges catalog/).\n"
                    "  llmplan catalog diff OLD NEW\n"
                    "      Print what changed between two catalogs (files or folders), entry by entry and\n"
                    "      field by field.\n"
                    "  llmplan catalog dump\n"
                    "      Print the built-in catalog as one merged document (archived in catalog/releases/).\n"
                    "  llmplan fields [--format md|json]\n"
                    "      Print the reference of every scenario and planner field: type, range, default, unit,\n"
                    "      link code and meaning (docs/scenario.md is this output).\n"
                    "  llmplan --help | --version\n"
                    "\n"
                    "Exit status: 0 success; 2 invalid scenario or usage (the message names the field and the\n"
                    "allowed range); 1 internal error. Scenario fields and defaults: see docs/scenario.md.\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "llmplan: %s\nRun 'llmplan --help' for usage.\n", message.c_str());
  return 2;
}

// A scenario or question is a few kilobytes; reading stops past this (/dev/zero must not eat memory).
constexpr size_t kMaxInputBytes = 16u << 20;

bool read_limited(std::istream& in, const std::string& name, std::string& out, std::string& error) {
  out.clear();
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    out.append(buf, static_cast<size_t>(in.gcount()));
    if (out.size() > kMaxInputBytes) {
      error =
          name + " is larger than 16 MB, the most llmplan reads (scenarios, questions and catalogs are far smaller)";
      return false;
    }
  }
  return true;
}

bool read_input(const std::string& path, std::string& out, std::string& error) {
  if (path == "-") return read_limited(std::cin, "standard input", out, error);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "'" + path + "' is a directory, not a file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path +
            "': " + (std::filesystem::exists(path, ec) ? "permission denied or unreadable" : "no such file");
    return false;
  }
  return read_limited(in, "'" + path + "'", out, error);
}

// " (low–high)" of a ranged figure, each bound written by `fmt`; empty without a range.
// A USD amount in CNY (at `usd_to_cny`) or in USD.
std::string money_in(double usd, bool cny, double usd_to_cny) {
  return cny ? llmplan::format_money(usd * usd_to_cny, llmplan::Currency::cny)
             : llmplan::format_money(usd, llmplan::Currency::usd);
}

template <typename Format>
std::string range_text(const nlohmann::json& r, const char* path, Format fmt) {
  if (!r.contains("ranges") || !r["ranges"].contains(path)) return "";
  const auto& g = r["ranges"][path];
  if (g.value("basis", std::string()) == "measured") return " (measured)";
  return " (" + fmt(g["low"].get<double>()) + "\u2013" + fmt(g["high"].get<double>()) + ")";
}

void print_table(const std::string& body) {
  using llmplan::format_bytes;
  const auto r = nlohmann::json::parse(body);
  auto bytes = [](double v) { return format_bytes(v); };
  auto duration = [](double v) { return llmplan::format_duration(v); };
  auto hours = [](double v) { return llmplan::format_duration(v * 3600); };
  auto count = [](double v) { return llmplan::format_count(v); };
  auto amount = [](double v) { return llmplan::format_amount(v); };
  auto percent = [](double v) { return llmplan::format_percent(v); };
  // pricing.currency leads; the other currency follows in parentheses, at the catalog's rate.
  const auto& c = r["cost"];
  const bool cny = c.value("currency", "usd") == "cny";
  const double to_cny = c["usd_to_cny"].get<double>();
  auto money = [cny, to_cny](double usd) { return money_in(usd, cny, to_cny); };
  auto other_money = [cny, to_cny](double usd) { return " (" + money_in(usd, !cny, to_cny) + ")"; };
  const auto& m = r["memory"];
  const auto& b = m["per_gpu_bytes"];
  const auto& l = r["layout"];
  std::printf("Parameters        %s\n", llmplan::format_count(r["model"]["params"]["total"].get<double>()).c_str());
  std::string cp_part, extra;  // CP, EP and VP only when the layout uses them
  if (l["cp"].get<int>() > 1) cp_part = " x CP " + std::to_string(l["cp"].get<int>());
  if (l["ep"].get<int>() > 1) extra += ", EP " + std::to_string(l["ep"].get<int>());
  if (l["vp"].get<int>() > 1) extra += ", VP " + std::to_string(l["vp"].get<int>());
  if (l["pp_flushes"].get<int>() > 1)
    extra += ", " + llmplan::pipeline_flushes_a_step(l["pp_flushes"].get<int>());
  std::printf("Layout            %d GPUs = TP %d%s x PP %d x DP %d%s, ZeRO-%d, micro-batch %d, global batch %d\n",
              l["gpus"].get<int>(), l["tp"].get<int>(), cp_part.c_str(), l["pp"].get<int>(), l["dp"].get<int>(),
              extra.c_str(), l["zero"].get<int>(), l["micro_batch"].get<int>(), l["global_batch"].get<int>());
  std::printf("Memory per GPU (%s pipeline stage)\n", m["stage"].get<std::string>().c_str());
  // One process without accumulation holds activations or gradients at its peak: the other is
  // shown beside its 0 B, not counted in the total.
  const auto& off = m["off_peak_bytes"];
  const auto off_peak = [&](const char* k) -> std::string {
    const std::string key = std::string(k) == "logits" ? "" : k;
    if (key.empty() || !off.contains(key) || off[key].get<double>() <= 0) return "";
    return std::string("   (") + format_bytes(off[key].get<double>()) +
           (key == "gradients" ? " after backward frees the activations: not at the peak)"
                               : " with the logits, freed before the gradients' peak)");
  };
  for (const char* k : {"weights", "gradients", "optimizer", "activations", "logits", "buffers", "runtime", "total"})
    std::printf("  %-15s %12s  %12s%s%s\n", k, format_bytes(b[k].get<double>()).c_str(),
                format_bytes(b[k].get<double>(), llmplan::ByteUnit::binary).c_str(),
                std::string(k) == "total" ? range_text(r, "memory.per_gpu_bytes.total", bytes).c_str() : "",
                off_peak(k).c_str());
  std::printf("  %-15s %12s\n", "capacity", format_bytes(m["capacity_bytes"].get<double>()).c_str());
  std::printf("Fits              %s (headroom %s); largest micro-batch that fits: %d\n",
              m["fits"].get<bool>() ? "yes" : "NO", format_bytes(m["headroom_bytes"].get<double>()).c_str(),
              m["max_micro_batch"].get<int>());
  if (m["fits"].get<bool>() && r.contains("ranges") && r["ranges"].contains("memory.per_gpu_bytes.total")) {
    const double high = r["ranges"]["memory.per_gpu_bytes.total"]["high"].get<double>();
    if (high > m["capacity_bytes"].get<double>())
      std::printf("                  but the 80 %% range reaches %s, above the capacity: keep a margin\n",
                  format_bytes(high).c_str());
  }
  const auto& t = r["time"];
  std::printf("Step              %s%s (compute %s, exposed communication %s, bubble %s)\n",
              llmplan::format_duration(t["step_s"].get<double>()).c_str(),
              range_text(r, "time.step_s", duration).c_str(),
              llmplan::format_duration(t["compute_s"].get<double>()).c_str(),
              llmplan::format_duration(t["exposed_comm_s"].get<double>()).c_str(),
              llmplan::format_duration(t["bubble_s"].get<double>()).c_str());
  std::printf("Throughput        %s%s tokens/s, MFU %s%s\n",
              llmplan::format_count(t["tokens_per_s"].get<double>()).c_str(),
              range_text(r, "time.tokens_per_s", count).c_str(),
              llmplan::format_percent(t["mfu"].get<double>()).c_str(), range_text(r, "time.mfu", percent).c_str());
  // MFU counts attention without causal masking; what the kernels run is bounded by their rates.
  std::printf(
      "                  the kernels execute %s of peak (GEMMs at %s of peak; MFU counts attention without "
      "causal masking)\n",
      llmplan::format_percent(t["executed_fraction"].get<double>()).c_str(),
      llmplan::format_percent(t["gemm_efficiency"].get<double>()).c_str());
  // The figures a person needs to check the cost by hand: hardware, price and its source, the
  // overhead factor and any minimum billing block.
  const std::string hardware =
      r["cluster"]["instance"].get<std::string>().empty()
          ? std::to_string(r["cluster"]["gpus"].get<int>()) + " x " + r["cluster"]["accelerator"].get<std::string>()
          : std::to_string(r["cluster"]["nodes"].get<int>()) + " x " + r["cluster"]["instance"].get<std::string>() +
                " (" + std::to_string(r["cluster"]["gpus"].get<int>()) + " GPUs)";
  std::printf("Hardware          %s\n", hardware.c_str());
  if (c["usd_per_gpu_hour"].get<double>() <= 0)  // the core's no_price warning: no offering, no override
    std::printf("Price             none (%s): no catalog offering, give pricing.usd_per_gpu_hour\n",
                c["mode"].get<std::string>().c_str());
  else
    std::printf("Price             %s per GPU-hour (%s, %s), overhead x%.2f\n",
                (money(c["usd_per_gpu_hour"].get<double>()) + other_money(c["usd_per_gpu_hour"].get<double>())).c_str(),
                c["mode"].get<std::string>().c_str(), c["price_source"].get<std::string>().c_str(),
                c["overhead_factor"].get<double>());
  if (c["billed_hours"].get<double>() > c["used_hours"].get<double>())
    std::printf("Billing block     %s billed for %s used (the offering's minimum)\n",
                llmplan::format_duration(c["billed_hours"].get<double>() * 3600).c_str(),
                llmplan::format_duration(c["used_hours"].get<double>() * 3600).c_str());
  // Without a price the cost is unknown, not $0 (the JSON keeps 0 and the no_price warning).
  const std::string cost = c["usd_per_gpu_hour"].get<double>() <= 0
                               ? "cost unknown (no price)"
                               : money(c["total_usd"].get<double>()) + range_text(r, "cost.total_usd", money) +
                                     other_money(c["total_usd"].get<double>()) + ", " +
                                     money(c["usd_per_billion_tokens"].get<double>()) + " per 1B tokens";
  if (t["steps"].get<double>() > 0)
    std::printf("Run               %s%s wall clock, %s%s GPU-hours, %s\n",
                llmplan::format_duration(t["total_hours"].get<double>() * 3600).c_str(),
                range_text(r, "time.total_hours", hours).c_str(),
                llmplan::format_amount(r["gpu_hours"].get<double>()).c_str(),
                range_text(r, "gpu_hours", amount).c_str(), cost.c_str());
  const auto& sc = r["scaling"];
  if (sc["applies"].get<bool>() && sc["tokens"].get<double>() > 0) {
    const std::string regime = sc["regime"].get<std::string>();
    std::printf(
        "Tokens            %s = %.0f per parameter: %s; compute-optimal %s (20 per parameter, Hoffmann\n"
        "                  et al. 2022), %s by the refit law (Besiroglu et al. 2024)%s\n",
        llmplan::format_count(sc["tokens"].get<double>()).c_str(), sc["tokens_per_param"].get<double>(),
        regime == "over_trained"    ? "over-trained"
        : regime == "under_trained" ? "under-trained"
                                    : "near compute-optimal",
        llmplan::format_count(sc["rule_tokens"].get<double>()).c_str(),
        llmplan::format_count(sc["law_tokens"].get<double>()).c_str(),
        regime == "over_trained" ? "; often deliberate: a smaller model costs less to serve" : "");
    std::printf(
        "                  this run's compute (6ND = %s FLOPs) is compute-optimal for %s parameters on %s tokens\n",
        llmplan::format_count(sc["budget_flops"].get<double>()).c_str(),
        llmplan::format_count(sc["optimal_params"].get<double>()).c_str(),
        llmplan::format_count(sc["optimal_tokens"].get<double>()).c_str());
  }
  std::printf("Checkpoint        %s, written in %s, every %s; tier %s\n",
              format_bytes(r["checkpoint"]["size_bytes"].get<double>()).c_str(),
              llmplan::format_duration(r["checkpoint"]["write_s"].get<double>()).c_str(),
              llmplan::format_duration(r["checkpoint"]["interval_h"].get<double>() * 3600).c_str(),
              r["tier"].get<std::string>().c_str());
  if (r.contains("calibration")) {
    const auto& k = r["calibration"];
    for (const auto& [path, x] : k["reproduced"].items())
      std::printf("Calibrated        %s: measured %.4g, estimated at the trial %.4g\n", path.c_str(),
                  x["measured"].get<double>(), x["estimated"].get<double>());
    for (const auto& note : k["notes"]) std::printf("                  %s\n", note.get<std::string>().c_str());
  }
  for (const auto& w : r["warnings"])
    std::printf("Warning [%s] %s\n", w["code"].get<std::string>().c_str(), w["message"].get<std::string>().c_str());
}

int cmd_estimate(const std::vector<std::string>& args) {
  std::string file, format = "json";
  bool explain = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--explain") {
      explain = true;
    } else if (args[i] == "--format" && i + 1 < args.size()) {
      format = args[++i];
    } else if (args[i].rfind("--format=", 0) == 0) {
      format = args[i].substr(9);
    } else if (file.empty() && (args[i] == "-" || args[i][0] != '-')) {
      file = args[i];
    } else {
      return usage_error("estimate: unexpected argument '" + args[i] + "'");
    }
  }
  if (file.empty()) return usage_error("estimate: missing FILE (use '-' for standard input)");
  if (format != "json" && format != "table") return usage_error("--format must be json or table; got '" + format + "'");
  std::string text, error;
  if (!read_input(file, text, error)) return usage_error(error);
  const llmplan::JsonResponse r =
      llmplan::estimate_json(text, llmplan::builtin_catalog(), llmplan::default_calibration(), explain);
  if (!r.ok) {
    std::fprintf(stderr, "llmplan: invalid scenario: %s\n", r.error.message.c_str());
    return 2;
  }
  if (format == "table") {
    print_table(r.body);
  } else {
    std::printf("%s\n", r.body.c_str());
  }
  return 0;
}

// ---- measure ---------------------------------------------------------------

int cmd_measure(const std::vector<std::string>& args) {
  std::string file, scenario_file;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--scenario" && i + 1 < args.size()) {
      scenario_file = args[++i];
    } else if (file.empty() && (args[i] == "-" || args[i][0] != '-')) {
      file = args[i];
    } else {
      return usage_error("measure: unexpected argument '" + args[i] + "'");
    }
  }
  if (file.empty()) return usage_error("measure: missing LOG (use '-' for standard input)");
  std::string text, error;
  if (!read_input(file, text, error)) return usage_error(error);
  std::optional<llmplan::Scenario> context;
  if (!scenario_file.empty()) {
    std::string doc;
    if (!read_input(scenario_file, doc, error)) return usage_error(error);
    const llmplan::ScenarioParse p = llmplan::parse_scenario(doc, llmplan::builtin_catalog());
    if (!p.scenario) {
      std::fprintf(stderr, "llmplan: invalid scenario: %s\n", p.error.message.c_str());
      return 2;
    }
    context = *p.scenario;
  }
  const std::string body = llmplan::parse_log_json(text, context ? &*context : nullptr);
  if (body.find("\"error\"") != std::string::npos && body.find("\"calibration\"") == std::string::npos) {
    const auto e = nlohmann::json::parse(body);
    std::fprintf(stderr, "llmplan: %s\n", e["error"]["message"].get<std::string>().c_str());
    return 2;
  }
  std::printf("%s\n", body.c_str());
  return 0;
}

// ---- catalog ---------------------------------------------------------------

std::string opt_num(const llmplan::Opt& v, const char* fmt = "%g") {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, *v);
  return buf;
}

void list_table(const llmplan::Catalog& c, const std::string& section) {
  using llmplan::format_count;
  if (section == "accelerators") {
    std::printf("%-16s %-32s %8s %10s %10s %s\n", "id", "name", "mem_GB", "bf16_TF", "mem_GB/s", "intra_node_link");
    for (const auto& a : c.accelerators)
      std::printf("%-16s %-32s %8g %10s %10g %s\n", a.id.c_str(), a.name.c_str(), a.memory_gb,
                  opt_num(a.bf16_dense_tflops).c_str(), a.memory_bw_gb_per_s,
                  a.intra_node_link.empty() ? "-" : a.intra_node_link.c_str());
  } else if (section == "interconnects") {
    std::printf("%-22s %-10s %-15s %5s %10s %10s\n", "id", "scope", "technology", "rdma", "GB/s", "nccl_GB/s");
    for (const auto& l : c.interconnects)
      std::printf("%-22s %-10s %-15s %5s %10g %10s\n", l.id.c_str(),
                  l.scope == llmplan::LinkScope::intra_node ? "intra" : "inter", l.technology.c_str(),
                  l.rdma ? "yes" : "no", l.bandwidth_gb_per_s, opt_num(l.nccl_busbw_gb_per_s).c_str());
  } else if (section == "storage") {
    std::printf("%-26s %-10s %-12s %10s %10s %12s\n", "id", "provider", "kind", "read_MB/s", "write_MB/s",
                "USD/TB-month");
    for (const auto& s : c.storage)
      std::printf("%-26s %-10s %-12s %10s %10s %12s\n", s.id.c_str(), s.provider.c_str(), s.kind.c_str(),
                  opt_num(s.read_mb_per_s).c_str(), opt_num(s.write_mb_per_s).c_str(),
                  opt_num(s.usd_per_tb_month).c_str());
  } else if (section == "providers") {
    // The scorecard: kind and the indicators a training job needs ("?": not found, see --json notes).
    std::printf("%s\n", llmplan::provider_scorecard_header().c_str());
    for (const auto& p : c.providers) std::printf("%s\n", llmplan::provider_scorecard_line(c, p).c_str());
  } else if (section == "instances") {
    std::printf("%-40s %-12s %4s %-16s %-4s %10s %10s\n", "id", "provider", "gpus", "accelerator", "cur", "on_demand/h",
                "spot/h");
    for (const auto& i : c.instances)
      std::printf("%-40s %-12s %4d %-16s %-4s %10s %10s\n", i.id.c_str(), i.provider.c_str(), i.gpus,
                  i.accelerator.c_str(), i.currency == llmplan::CurrencyCode::usd ? "usd" : "cny",
                  opt_num(i.on_demand_per_hour, "%.2f").c_str(), opt_num(i.spot_per_hour, "%.2f").c_str());
  } else if (section == "models") {
    std::printf("%-20s %-26s %10s %10s %8s\n", "id", "name", "params", "published", "context");
    for (const auto& m : c.models)
      std::printf("%-20s %-26s %10s %10s %8d\n", m.id.c_str(), m.name.c_str(),
                  format_count(llmplan::count_params(m.arch).total).c_str(), format_count(m.published_params).c_str(),
                  m.max_context);
  } else if (section == "servers") {
    std::printf("%-20s %-16s %4s %14s %8s %s\n", "id", "accelerator", "gpus", "price", "max_kW", "as_of");
    for (const auto& v : c.servers)
      std::printf("%-20s %-16s %4d %14s %8g %s\n", v.id.c_str(), v.accelerator.c_str(), v.gpus,
                  (v.price_usd ? llmplan::format_money(*v.price_usd, llmplan::Currency::usd)
                               : llmplan::format_money(*v.price_cny, llmplan::Currency::cny))
                      .c_str(),
                  v.power_kw, v.as_of.c_str());
  } else if (section == "ownership") {
    std::printf("%-28s %10s  %-38s %s\n", "id", "value", "unit", "as_of");
    for (const auto& v : c.ownership)
      std::printf("%-28s %10s  %-38s %s\n", v.id.c_str(), opt_num(v.value).c_str(), v.unit.c_str(), v.as_of.c_str());
  } else if (section == "currency") {
    std::printf("usd_to_cny %g (as of %s; %s)\n", c.currency.usd_to_cny, c.currency.as_of.c_str(),
                c.currency.source.c_str());
  }
}

bool known_section(const std::string& s) {
  for (const char* k : llmplan::kCatalogSections)
    if (s == k) return true;
  return false;
}

int catalog_list(const std::vector<std::string>& args) {
  std::string section;
  bool as_json = false;
  for (const std::string& a : args) {
    if (a == "--json") {
      as_json = true;
    } else if (section.empty() && known_section(a)) {
      section = a;
    } else {
      return usage_error("catalog list: expected one of " + llmplan::catalog_sections_text() +
                         " and optionally --json; got '" + a + "'");
    }
  }
  const llmplan::Catalog& c = llmplan::builtin_catalog();
  if (as_json) {
    const auto doc = nlohmann::json::parse(llmplan::builtin_catalog_json());
    std::printf("%s\n", (section.empty() ? doc : doc[section]).dump(2).c_str());
    return 0;
  }
  if (section.empty()) {  // the ids scenarios use most: accelerators and models
    std::printf(
        "# catalog %s (as of %s, schema %d): %zu interconnects, %zu storage tiers, %zu providers, "
        "%zu instances; `llmplan catalog list SECTION` prints one section\n",
        c.catalog_version.c_str(), c.as_of.c_str(), c.schema_version, c.interconnects.size(), c.storage.size(),
        c.providers.size(), c.instances.size());
    list_table(c, "accelerators");
    std::printf("\n");
    list_table(c, "models");
    return 0;
  }
  list_table(c, section);
  return 0;
}

// A folder stands for the *.json files directly in it (catalog/: one file per section, as the
// build merges them; catalog/releases/ below it is not read), in name order; a file for itself.
bool expand_folders(const std::vector<std::string>& args, std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (arg == "-" || !fs::is_directory(arg, ec)) {
      paths.push_back(arg);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& e : fs::directory_iterator(arg, ec))
      if (e.is_regular_file(ec) && e.path().extension() == ".json") found.push_back(e.path().string());
    if (found.empty()) {
      std::fprintf(stderr, "llmplan: %s: a folder with no *.json catalog files\n", arg.c_str());
      return false;
    }
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  return true;
}

// Loads FILE|DIR... (one merged catalog, or several section files); prints diagnostics on failure.
std::optional<llmplan::CatalogLoad> load_files(const std::vector<std::string>& args, std::vector<std::string>& texts) {
  std::vector<std::string> paths;
  if (!expand_folders(args, paths)) return std::nullopt;
  std::vector<llmplan::CatalogFile> files;
  texts.resize(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string error;
    if (!read_input(paths[i], texts[i], error)) {
      std::fprintf(stderr, "llmplan: %s\n", error.c_str());
      return std::nullopt;
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i], texts[i]});
  llmplan::CatalogLoad load = llmplan::load_catalog_files(files);
  if (!load.catalog) {
    for (const std::string& d : load.diagnostics) std::fprintf(stderr, "%s\n", d.c_str());
    return std::nullopt;
  }
  return load;
}

int catalog_check(const std::vector<std::string>& paths) {
  if (paths.empty())
    return usage_error("catalog check: give one merged catalog file, or the section files catalog/*.json");
  std::vector<std::string> texts;
  const auto load = load_files(paths, texts);
  if (!load) return 2;
  const llmplan::Catalog& c = *load->catalog;
  std::printf(
      "ok: catalog %s (as of %s, schema %d): %zu accelerators, %zu interconnects, %zu storage tiers, "
      "%zu providers, %zu instances, %zu models\n",
      c.catalog_version.c_str(), c.as_of.c_str(), c.schema_version, c.accelerators.size(), c.interconnects.size(),
      c.storage.size(), c.providers.size(), c.instances.size(), c.models.size());
  return 0;
}

int catalog_diff(const std::vector<std::string>& paths) {
  if (paths.size() != 2) return usage_error("catalog diff: give OLD and NEW catalog files");
  std::vector<std::string> ta, tb;
  const auto a = load_files({paths[0]}, ta);
  const auto b = load_files({paths[1]}, tb);
  if (!a || !b) return 2;
  const std::vector<std::string> lines = llmplan::diff_catalogs(a->merged_json, b->merged_json);
  for (const std::string& l : lines) std::printf("%s\n", l.c_str());
  if (lines.empty()) std::printf("(no differences)\n");
  return 0;
}

// The best plan's three ways to pay (plans[].payment, docs/planner.md "Ways to pay"), in the
// question's currency, with the range the low and high spot interruption rates give.
void print_payment(const nlohmann::json& plan, bool cny) {
  if (!plan.contains("payment")) return;
  const auto& p = plan["payment"];
  const double rate =
      cny ? plan["cost"]["total_cny"].get<double>() / std::max(plan["cost"]["total_usd"].get<double>(), 1e-300) : 1.0;
  const auto money = [&](const nlohmann::json& usd) { return money_in(usd.get<double>(), cny, rate); };
  const auto hours = [](const nlohmann::json& h) { return llmplan::format_duration(h.get<double>() * 3600); };
  std::printf("  ways to pay:\n");
  if (!p["on_demand"].is_null())
    std::printf("    on demand   %12s over %s\n", money(p["on_demand"]["cost_usd"]).c_str(),
                hours(p["on_demand"]["wall_clock_h"]).c_str());
  for (const auto& [key, label] : {std::pair{"spot", "all spot "}, std::pair{"two_phase", "two-phase"}}) {
    const auto& w = p[key];
    if (w.is_null()) continue;
    std::printf("    %s   %12s (%s-%s) over %s (%s-%s), %.2g interruptions expected", label,
                money(w["cost_usd"]).c_str(), money(w["cost_usd_low"]).c_str(), money(w["cost_usd_high"]).c_str(),
                hours(w["wall_clock_h"]).c_str(), hours(w["wall_clock_h_low"]).c_str(),
                hours(w["wall_clock_h_high"]).c_str(), w["interruptions"].get<double>());
    if (std::string(key) == "two_phase")
      std::printf("; %s of debugging on %d GPUs on demand: %s", hours(w["debug_hours"]).c_str(),
                  p["debug_gpus"].get<int>(), money(w["debug_cost_usd"]).c_str());
    std::printf("\n");
  }
  if (p.contains("note")) std::printf("    %s\n", p["note"].get<std::string>().c_str());
  if (!p["cheapest"].is_null()) std::printf("    cheapest: %s\n", p["cheapest"].get<std::string>().c_str());
}

void print_plan_table(const std::string& body) {
  const auto r = nlohmann::json::parse(body);
  std::printf("Objective %s; %s layouts over %d offerings, %s estimated\n", r["objective"].get<std::string>().c_str(),
              llmplan::format_count(r["searched"]["layouts"].get<double>()).c_str(),
              r["searched"]["offerings"].get<int>(),
              llmplan::format_count(r["searched"]["evaluated"].get<double>()).c_str());
  std::printf("%-4s %-36s %5s %-44s %10s %12s %6s\n", "rank", "instance", "gpus", "layout", "time", "cost", "MFU");
  for (const auto& p : r["plans"]) {
    const auto& l = p["layout"];
    char layout[128];
    std::string extra;  // CP, VP and EP only when the layout uses them
    for (const auto& [key, name] : {std::pair{"cp", "CP"}, std::pair{"vp", "VP"}, std::pair{"ep", "EP"}})
      if (l[key].get<int>() > 1) extra += std::string(" ") + name + std::to_string(l[key].get<int>());
    // Partial recompute: the blocks of each chunk that recompute, "rc:full/25".
    std::string rc = l["recompute"].get<std::string>();
    if (l.value("recompute_layers", 0) > 0) {
      rc += '/';
      rc += std::to_string(l["recompute_layers"].get<int>());
    }
    std::snprintf(layout, sizeof layout, "TP%d PP%d%s DP%d ZeRO-%d mb%d rc:%s%s", l["tp"].get<int>(),
                  l["pp"].get<int>(), extra.c_str(), l["dp"].get<int>(), l["zero"].get<int>(),
                  l["micro_batch"].get<int>(), rc.c_str(), l["offload"] == "cpu" ? " offload" : "");
    // Spot rows are marked; a question in CNY reads its costs in CNY (plans[].cost.total_cny).
    const std::string instance = p["instance"].get<std::string>() + (p["pricing_mode"] == "spot" ? " (spot)" : "");
    const bool cny = r.value("currency", std::string("usd")) == "cny";
    const double cost = cny ? p["cost"]["total_cny"].get<double>() : p["cost"]["total_usd"].get<double>();
    std::printf("%-4d %-36s %5d %-44s %10s %12s %5.1f%%\n", p["rank"].get<int>(), instance.c_str(),
                p["gpus"].get<int>(), layout,
                llmplan::format_duration(p["time"]["total_hours"].get<double>() * 3600).c_str(),
                llmplan::format_money(cost, cny ? llmplan::Currency::cny : llmplan::Currency::usd).c_str(),
                100 * p["time"]["mfu"].get<double>());
    if (p["cost"].contains("billed_hours") &&
        p["cost"]["billed_hours"].get<double>() > p["cost"]["used_hours"].get<double>())
      std::printf("     billed: %s for %s used (the offering's minimum billing block)\n",
                  llmplan::format_duration(p["cost"]["billed_hours"].get<double>() * 3600).c_str(),
                  llmplan::format_duration(p["cost"]["used_hours"].get<double>() * 3600).c_str());
    std::printf("     why: %s\n", p["why"].get<std::string>().c_str());
    if (p.contains("calibrated") && !p["calibrated"].get<bool>())
      std::printf("     not calibrated: the trial ran on another accelerator\n");
  }
  for (const auto& w : r["within"])
    std::printf("within %.0f days: %s, %d GPUs, %s, %s\n", w["days"].get<double>(),
                w["instance"].get<std::string>().c_str(), w["gpus"].get<int>(),
                llmplan::format_duration(w["total_hours"].get<double>() * 3600).c_str(),
                r.value("currency", std::string("usd")) == "cny"
                    ? llmplan::format_money(w["cost_cny"].get<double>(), llmplan::Currency::cny).c_str()
                    : llmplan::format_money(w["cost_usd"].get<double>(), llmplan::Currency::usd).c_str());
  std::printf("rejected:");
  for (const auto& [k, v] : r["rejected"].items())
    std::printf(" %s %s", k.c_str(), llmplan::format_count(v.get<double>()).c_str());
  std::printf("\n");
  if (r.contains("message")) std::printf("%s\n", r["message"].get<std::string>().c_str());
  for (const auto& n : r.value("notices", nlohmann::json::array()))
    std::printf("notice %s: %s\n", n["code"].get<std::string>().c_str(), n["message"].get<std::string>().c_str());
  if (r["plans"].empty()) return;
  const auto& a = r["plans"][0]["advice"];
  std::printf("\nplan 1: tier %s\n  network: %s\n  data: %s\n  checkpoints: %s\n", a["tier"].get<std::string>().c_str(),
              a["rdma"]["reason"].get<std::string>().c_str(), a["data"].get<std::string>().c_str(),
              a["checkpoints"].get<std::string>().c_str());
  for (const auto& w : a["warnings"])
    std::printf("  warning %s: %s\n", w["code"].get<std::string>().c_str(), w["message"].get<std::string>().c_str());
  print_payment(r["plans"][0], r.value("currency", std::string("usd")) == "cny");
  std::printf("  (--format artifacts prints its launch commands, configs and checklist)\n");
}

// The best plan's launch artefacts and checklist, as Markdown a user can keep next to the job.
void print_plan_artifacts(const std::string& body) {
  const auto r = nlohmann::json::parse(body);
  if (r["plans"].empty()) {
    std::printf("%s\n", r.value("message", std::string("no plan")).c_str());
    return;
  }
  const auto& p = r["plans"][0];
  std::printf("# Plan 1: %d x %s on %s (%s)\n\n", p["gpus"].get<int>(), p["accelerator"].get<std::string>().c_str(),
              p["instance"].get<std::string>().c_str(), p["pricing_mode"].get<std::string>().c_str());
  std::printf("%s\n\nScenario (llmplan estimate reproduces it):\n```json\n%s\n```\n",
              p["why"].get<std::string>().c_str(), p["scenario"].dump().c_str());
  const auto& art = p["artifacts"];
  const struct {
    const char* key;
    const char* title;
    const char* lang;
  } parts[] = {{"torchrun", "torchrun (each node)", "sh"},       {"deepspeed_json", "ds_config.json", "json"},
               {"accelerate_yaml", "accelerate config", "yaml"}, {"megatron_args", "megatron_args.txt", "text"},
               {"torchtitan_toml", "torchtitan.toml", "toml"},   {"peft_python", "PEFT setup", "python"}};
  std::printf("\nFramework: %s\n", art["framework"].get<std::string>().c_str());
  for (const auto& part : parts) {
    if (art[part.key].is_null()) continue;
    std::string text = art[part.key].get<std::string>();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    std::printf("\n## %s\n```%s\n%s\n```\n", part.title, part.lang, text.c_str());
  }
  std::printf("\n## Checklist after provisioning\n");
  int i = 0;
  for (const auto& c : p["checklist"])
    std::printf("%d. %s: `%s`\n   expect: %s\n", ++i, c["title"].get<std::string>().c_str(),
                c["command"].get<std::string>().c_str(), c["expect"].get<std::string>().c_str());
}

// FILE|- and --format F of a command (plan, tco) whose formats are `formats`, read into `text`;
// a usage error's exit status otherwise.
std::optional<int> read_file_and_format(const std::vector<std::string>& args, const char* command,
                                        const std::vector<std::string>& formats, std::string& format,
                                        std::string& text) {
  std::string file;
  format = formats.front();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format" && i + 1 < args.size()) {
      format = args[++i];
    } else if (file.empty() && (args[i] == "-" || args[i][0] != '-')) {
      file = args[i];
    } else {
      return usage_error(std::string(command) + ": unexpected argument '" + args[i] + "'");
    }
  }
  if (file.empty()) return usage_error(std::string(command) + ": missing FILE (use '-' for standard input)");
  if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
    std::string allowed;
    for (size_t i = 0; i < formats.size(); ++i)
      allowed += (i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ") + formats[i];
    return usage_error("--format must be " + allowed + "; got '" + format + "'");
  }
  std::string error;
  if (!read_input(file, text, error)) return usage_error(error);
  return std::nullopt;
}

int cmd_plan(const std::vector<std::string>& args) {
  std::string format, text;
  if (const auto rc = read_file_and_format(args, "plan", {"json", "table", "artifacts", "csv"}, format, text))
    return *rc;
  if (format == "csv") {
    const llmplan::QuestionParse q = llmplan::parse_question(text, llmplan::builtin_catalog());
    if (!q.question) {
      std::fprintf(stderr, "llmplan: invalid question: %s\n", q.error.message.c_str());
      return 2;
    }
    std::fputs(
        llmplan::plans_csv(llmplan::plan(*q.question, llmplan::builtin_catalog(), llmplan::default_calibration()))
            .c_str(),
        stdout);
    return 0;
  }
  const llmplan::PlanJsonResponse r =
      llmplan::plan_json(text, llmplan::builtin_catalog(), llmplan::default_calibration());
  if (!r.ok) {
    std::fprintf(stderr, "llmplan: invalid question: %s\n", r.error.message.c_str());
    return 2;
  }
  if (format == "table") {
    print_plan_table(r.body);
  } else if (format == "artifacts") {
    print_plan_artifacts(r.body);
  } else {
    std::printf("%s\n", r.body.c_str());
  }
  return 0;
}

// The answer of `llmplan tco` for people: what owning costs, then each way of renting.
void print_tco_table(const std::string& body) {
  const auto t = nlohmann::json::parse(body);
  const auto& q = t["question"];
  const bool cny = q["currency"] == "cny";
  const char* cur = cny ? "_cny" : "_usd";
  const auto money = [&](const nlohmann::json& obj, const std::string& key) {
    return llmplan::format_money(obj[key + cur].get<double>(), cny ? llmplan::Currency::cny : llmplan::Currency::usd);
  };
  const auto per_hour = [&](const nlohmann::json& obj) {
    const double v = obj[cny ? "cny_per_gpu_hour" : "usd_per_gpu_hour"].get<double>();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.2f", cny ? "¥" : "$", v);
    return std::string(buf);
  };
  const auto& o = t["own"];
  const auto& b = o["monthly_breakdown"];
  std::printf("Own: %d x %d-GPU %s servers (%d GPUs) at %.0f %% utilisation, %.0f GPU-hours a month\n",
              q["servers"]["count"].get<int>(), q["servers"]["gpus_per_server"].get<int>(),
              q["servers"]["accelerator"].get<std::string>().c_str(), o["gpus"].get<int>(),
              100 * o["utilisation"].get<double>(), o["gpu_hours_per_month"].get<double>());
  std::printf("  capex %s; a month %s (depreciation %s, power %s, colocation %s, staff %s); %s per GPU-hour\n",
              money(o, "capex").c_str(), money(o, "monthly").c_str(), money(b, "depreciation").c_str(),
              money(b, "power").c_str(), money(b, "colocation").c_str(), money(b, "staff").c_str(),
              per_hour(o).c_str());
  std::printf("  delivered after %.1f months; horizon %d months\n\n", o["delivery_months"].get<double>(),
              q["horizon_months"].get<int>());
  std::printf("%-13s %-40s %10s %-10s %14s %12s %12s\n", "rent", "cheapest offering", "per GPU-h", "billing", "a month",
              "break-even u", "break-even");
  for (const auto& r : t["rent"]) {
    const auto& be = r["break_even"];
    char u[16] = "-", m[24] = "never";
    if (!be["utilisation"].is_null()) std::snprintf(u, sizeof u, "%.0f %%", 100 * be["utilisation"].get<double>());
    if (!be["months"].is_null()) std::snprintf(m, sizeof m, "%.1f months", be["months"].get<double>());
    std::printf("%-13s %-40s %10s %-10s %14s %12s %12s\n", r["mode"].get<std::string>().c_str(),
                r["instance"].is_null() ? "(your quote)" : r["instance"].get<std::string>().c_str(),
                per_hour(r).c_str(), r["billing"].get<std::string>().c_str(), money(r, "monthly").c_str(), u, m);
  }
  if (t["rent"].empty())
    std::printf("(the catalog rents no %s)\n", q["servers"]["accelerator"].get<std::string>().c_str());
  std::printf("\nAssumed from the catalog (give the field to change it):\n");
  for (const auto& a : t["assumptions"])
    std::printf("  %s = %g %s (%s; %s)\n", a["field"].get<std::string>().c_str(), a["value"].get<double>(),
                a["unit"].get<std::string>().c_str(), a["as_of"].get<std::string>().c_str(),
                a["source"].get<std::string>().substr(0, 100).c_str());
  for (const auto& n : t["notices"]) std::printf("Note: %s\n", n["message"].get<std::string>().c_str());
}

int cmd_tco(const std::vector<std::string>& args) {
  std::string format, text;
  if (const auto rc = read_file_and_format(args, "tco", {"json", "table"}, format, text)) return *rc;
  const llmplan::TcoJsonResponse r =
      llmplan::tco_json(text, llmplan::builtin_catalog(), llmplan::default_calibration());
  if (!r.ok) {
    std::fprintf(stderr, "llmplan: invalid tco question: %s\n", r.error.message.c_str());
    return 2;
  }
  if (format == "table") {
    print_tco_table(r.body);
  } else {
    std::printf("%s\n", r.body.c_str());
  }
  return 0;
}

// ---- import ----------------------------------------------------------------

int cmd_import(const std::vector<std::string>& args) {
  std::string format, text;
  if (const auto rc = read_file_and_format(args, "import", {"json", "scenario"}, format, text)) return *rc;
  const auto r = nlohmann::ordered_json::parse(llmplan::import_config(text, llmplan::builtin_catalog()));
  if (r.contains("error")) {
    std::fprintf(stderr, "llmplan: %s\n", r["error"]["message"].get<std::string>().c_str());
    return 2;
  }
  std::printf("%s\n", (format == "scenario" ? r["scenario"] : r).dump(2).c_str());
  return 0;
}

llmplan::OpenedLink open_cli_link(const std::string& link) {
  const std::string version = llmplan::link_catalog_version(link);
  return llmplan::open_link(link, llmplan::builtin_catalog(), llmplan::builtin_catalog_json(),
                            llmplan::catalog_for_version(version), llmplan::catalog_json_for_version(version));
}

// The estimator's model changes (model_version.hpp): the Markdown table of docs/links.md, as JSON,
// or written into Markdown files between their model-changes markers.
int link_model_changes(const std::vector<std::string>& args) {
  if (args.size() == 3 && args[1] == "--format" && args[2] == "json") {
    nlohmann::ordered_json changes = nlohmann::ordered_json::array();
    for (const llmplan::ModelChange& c : llmplan::model_changes())
      changes.push_back({{"version", c.version}, {"date", c.date}, {"change", c.change}, {"effect", c.effect}});
    std::printf(
        "%s\n",
        nlohmann::ordered_json{{"model_version", llmplan::kModelVersion}, {"changes", changes}}.dump(2).c_str());
    return 0;
  }
  if (args.size() == 1 || (args.size() == 3 && args[1] == "--format" && args[2] == "md")) {
    std::fputs(llmplan::model_changes_markdown().c_str(), stdout);
    return 0;
  }
  if (args.size() < 3 || args[1] != "--update-md")
    return usage_error("link model-changes: expected [--format md|json] or --update-md FILE...");
  for (size_t i = 2; i < args.size(); ++i) {
    std::string text, error;
    if (!read_input(args[i], text, error)) return usage_error(error);
    const std::optional<std::string> updated = llmplan::with_model_changes_markdown(text);
    if (!updated) {
      std::fprintf(stderr, "llmplan: %s has no <!-- BEGIN model-changes ... --> ... <!-- END model-changes --> block\n",
                   args[i].c_str());
      return 2;
    }
    if (*updated == text) {
      std::printf("%s: the model changes are current\n", args[i].c_str());
      continue;
    }
    std::ofstream(args[i], std::ios::binary) << *updated;
    std::printf("%s: model changes rewritten\n", args[i].c_str());
  }
  return 0;
}

int cmd_link(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  if (sub == "model-changes") return link_model_changes(args);
  if (args.size() < 2) return usage_error("link: expected encode FILE|-, decode LINK, estimate LINK or model-changes");
  if (sub == "encode") {
    std::string text, error;
    if (!read_input(args[1], text, error)) return usage_error(error);
    const llmplan::Catalog* catalog = &llmplan::builtin_catalog();
    if (args.size() == 4 && args[2] == "--catalog") {
      catalog = llmplan::catalog_for_version(args[3]);
      if (!catalog) return usage_error("link encode: --catalog " + args[3] + " is not a catalog release of this build");
    } else if (args.size() != 2) {
      return usage_error("link encode: expected FILE|- [--catalog VERSION]");
    }
    const llmplan::LinkEncode e = llmplan::encode_link(text, *catalog);
    if (!e.ok) {
      std::fprintf(stderr, "llmplan: invalid scenario: %s\n", e.error.message.c_str());
      return 2;
    }
    std::printf("%s\n", e.fragment.c_str());
    return 0;
  }
  const llmplan::OpenedLink opened = open_cli_link(args[1]);
  if (sub == "decode") {
    if (args.size() != 2) return usage_error("link decode: expected one LINK");
    std::printf("%s\n", llmplan::opened_link_json(opened).c_str());
    if (opened.link.valid) return 0;
    // Invalid: the notice that could not be mended (the last) says why on stderr too.
    const llmplan::LinkNotice* last = opened.link.notices.empty() ? nullptr : &opened.link.notices.back();
    std::fprintf(stderr, "llmplan: link: %s\n",
                 last ? (last->field + ": " + last->message).c_str() : "the link holds no valid scenario");
    return 2;
  }
  if (sub != "estimate")
    return usage_error("link: expected encode, decode, estimate or model-changes; got '" + sub + "'");
  for (const llmplan::LinkNotice& n : opened.link.notices)
    std::fprintf(stderr, "llmplan: link: %s: %s\n", n.field.c_str(), n.message.c_str());
  if (!opened.link.model_changes.empty())
    std::fprintf(stderr,
                 "llmplan: link: mv: figures changed since this link was made (estimator model %d -> %d, %zu "
                 "changes; `llmplan link decode` lists them)\n",
                 opened.link.model_version, llmplan::kModelVersion, opened.link.model_changes.size());
  if (!opened.link.valid) return 2;
  const llmplan::Catalog& catalog = *llmplan::catalog_for_version(opened.catalog_used);
  std::vector<std::string> rest(args.begin() + 2, args.end());
  const std::string format = rest.size() == 2 && rest[0] == "--format" ? rest[1] : "json";
  if (!rest.empty() && !(rest.size() == 2 && rest[0] == "--format" && (format == "json" || format == "table")))
    return usage_error("link estimate: expected LINK [--format json|table]");
  if (opened.link.is_tco) {
    const llmplan::TcoJsonResponse r =
        llmplan::tco_json(opened.link.input_json, catalog, llmplan::default_calibration());
    format == "table" ? print_tco_table(r.body) : (void)std::printf("%s\n", r.body.c_str());
    return r.ok ? 0 : 2;
  }
  if (opened.link.is_question) {
    const llmplan::PlanJsonResponse r =
        llmplan::plan_json(opened.link.input_json, catalog, llmplan::default_calibration());
    format == "table" ? print_plan_table(r.body) : (void)std::printf("%s\n", r.body.c_str());
    return r.ok ? 0 : 2;
  }
  const llmplan::JsonResponse r =
      llmplan::estimate_json(opened.link.input_json, catalog, llmplan::default_calibration());
  format == "table" ? print_table(r.body) : (void)std::printf("%s\n", r.body.c_str());
  return r.ok ? 0 : 2;
}

int cmd_catalog(const std::vector<std::string>& args) {
  const std::string sub = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (sub == "list") return catalog_list(rest);
  if (sub == "check") return catalog_check(rest);
  if (sub == "diff") return catalog_diff(rest);
  if (sub == "dump" && rest.empty()) {  // the merged built-in catalog: what catalog/releases/ archives
    std::printf("%s\n", std::string(llmplan::builtin_catalog_json()).c_str());
    return 0;
  }
  return usage_error("catalog: expected list, check, diff or dump");
}

// The field table as Markdown (docs/scenario.md) or JSON.
int cmd_fields(const std::vector<std::string>& args) {
  std::string format = "md";
  if (args.size() == 2 && args[0] == "--format")
    format = args[1];
  else if (!args.empty())
    return usage_error("fields: expected [--format md|json]");
  if (format == "md") {
    std::fputs(llmplan::fields_markdown().c_str(), stdout);
  } else if (format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const llmplan::FieldSpec& f : llmplan::all_fields()) {
      nlohmann::ordered_json e = {{"path", f.path},
                                  {"type", llmplan::kFieldTypeNames[static_cast<int>(f.type)]},
                                  {"code", f.code},
                                  {"unit", f.unit},
                                  {"default", llmplan::field_default_text(f)},
                                  {"scope", f.scope == llmplan::FieldScope::scenario ? "scenario" : "question"},
                                  {"meaning", f.meaning}};
      if (f.type == llmplan::FieldType::integer || f.type == llmplan::FieldType::number ||
          f.type == llmplan::FieldType::number_or_auto)
        e["range"] = {f.lo, f.hi};
      if (!f.choices.empty()) e["choices"] = std::vector<std::string>(f.choices.begin(), f.choices.end());
      if (*f.applies) e["applies"] = f.applies;
      out.push_back(e);
    }
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    return usage_error("fields: --format must be md or json; got '" + format + "'");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (args[0] == "--version") {
    std::printf("llmplan %s (catalog %s)\n", LLMPLAN_VERSION, llmplan::builtin_catalog().catalog_version.c_str());
    return 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  // `llmplan estimate --help`: the one help text covers every command.
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
  try {
    if (cmd == "estimate") return cmd_estimate(args);
    if (cmd == "catalog") return cmd_catalog(args);
    if (cmd == "plan") return cmd_plan(args);
    if (cmd == "tco") return cmd_tco(args);
    if (cmd == "link") return cmd_link(args);
    if (cmd == "fields") return cmd_fields(args);
    if (cmd == "measure") return cmd_measure(args);
    if (cmd == "import") return cmd_import(args);
    if (cmd == "calibration" && args.empty()) {
      std::fputs(llmplan::calibration_markdown(llmplan::default_calibration()).c_str(), stdout);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "llmplan: internal error: %s\n", e.what());
    return 1;
  }
  return usage_error("unknown command '" + cmd + "'");
}
