// panel_results.cpp: the Results tab: exports, summary cards (fits?, time, cost, MFU, tier),
// per-GPU memory (panel_memory.cpp), step-time breakdown, cost breakdown, network and storage
// needs against the hardware, and the warnings (translated by code, with their numbers). Every
// figure has a "why" marker showing the core's formula and the values plugged in.
//
// [SECTION] Helpers
// [SECTION] Exports
// [SECTION] Summary cards
// [SECTION] Step time
// [SECTION] Cost
// [SECTION] Network and storage needs
// [SECTION] Warnings
#include <algorithm>
#include <cstdio>
#include <string>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/calibrate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/report.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

const std::string kDash = "\u2014";

// The scenario sizes a run (training tokens, or a dataset and epochs): without it there is a step
// to time but no run to time or price.
bool sized_run(const EstimateResult& r) { return r.time.steps > 0; }

//-----------------------------------------------------------------------------
// [SECTION] Helpers
//-----------------------------------------------------------------------------

// A UI string's %s filled in; the strings take up to five (unused trailing ones are ignored).
std::string fmt(const char* format, const char* a, const char* b = "", const char* c = "", const char* d = "",
                const char* e = "") {
  char buf[640];
  std::snprintf(buf, sizeof buf, format, a, b, c, d, e);
  return buf;
}

std::string num(double v, const char* format = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string rate(double bytes_per_s) { return format_bytes(bytes_per_s) + "/s"; }

Currency primary(const AppState& app) { return app.scenario.pricing.currency; }
Currency secondary(const AppState& app) { return primary(app) == Currency::usd ? Currency::cny : Currency::usd; }

// A table with a label column, value columns and a final narrow "why" column.
bool begin_lines(const char* id, int value_columns, const S* headers = nullptr) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable(id, value_columns + 2, flags)) return false;
  ImGui::TableSetupColumn(headers ? tr(headers[0]) : "", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  for (int i = 0; i < value_columns; ++i)
    ImGui::TableSetupColumn(headers ? tr(headers[i + 1]) : "", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("(?)").x);
  if (headers) {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int i = 0; i <= value_columns; ++i) {
      ImGui::TableSetColumnIndex(i);
      text_wrapped(tr(headers[i]));
    }
  }
  return true;
}

// One line: label, values, why marker (key may be null).
void line(const AppState& app, const char* label, std::initializer_list<std::string> values, const char* key,
          const ImVec4* color = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  label_text(label);
  int column = 1;
  for (const std::string& v : values) {
    ImGui::TableSetColumnIndex(column++);
    text_wrapped(v.c_str(), color);
  }
  ImGui::TableSetColumnIndex(column);
  if (key) why_marker(app, key);
}

//-----------------------------------------------------------------------------
// [SECTION] Exports
//-----------------------------------------------------------------------------

void exports(AppState& app) {
  const Catalog& catalog = app_catalog(app);
  if (small_button(tr(S::export_md), "export_markdown")) {
    const std::string link = app.fragment.empty() ? "" : platform_page_url() + "#" + app.fragment;
    platform_copy_text(markdown_summary(app.input.dump(2), app.scenario, app.result, catalog, link));
    app.export_note = tr(S::copied);
  }
  flow_same_line(button_width(tr(S::export_scenario), true));
  if (small_button(tr(S::export_scenario), "export_scenario")) {
    platform_download("llmplan-scenario.json", "application/json", app.input.dump(2) + "\n");
    app.export_note = tr(S::exported);
  }
  flow_same_line(button_width(tr(S::export_result), true));
  if (small_button(tr(S::export_result), "export_result")) {
    const JsonResponse r = estimate_json(app.input.dump(), catalog, default_calibration(), true);
    const nlohmann::json doc = nlohmann::json::parse(r.body, nullptr, false);
    platform_download("llmplan-result.json", "application/json", (doc.is_discarded() ? r.body : doc.dump(2)) + "\n");
    app.export_note = tr(S::exported);
  }
  if (!app.export_note.empty()) {
    flow_same_line(ImGui::CalcTextSize(app.export_note.c_str()).x);
    text_disabled(app.export_note.c_str());
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Summary cards
//-----------------------------------------------------------------------------

void card(const AppState& app, const char* title, const std::string& value, const ImVec4* color,
          const std::string& detail, const char* key) {
  ImGui::TableNextColumn();
  text_disabled(title);
  ImGui::SameLine();
  if (key) why_marker(app, key);
  ImGui::PushFont(ImGui::GetIO().Fonts->Fonts[1]);
  text_wrapped(value.c_str(), color);
  ImGui::PopFont();
  text_wrapped_disabled(detail.c_str());
}

// "80 % range: low–high" and a line break, or nothing without a range.
std::string range_line(const AppState& app, std::string_view path, const std::function<std::string(double)>& format) {
  for (const FigureRange& f : app.ranges)  // the trial's own configuration: the figure is its measurement
    if (path == f.path && f.basis == RangeBasis::measured) return std::string(tr(S::range_measured)) + "\n";
  const std::string r = app_range_text(app, path, format);
  if (r.size() < 4) return "";
  return std::string(tr(S::range_80)) + " " + r.substr(2, r.size() - 3) + "\n";  // without its parentheses
}

// A trial note in the UI language: its code's string with its values, else the core's words.
std::string trial_note_text(const TrialNote& n) {
  static const std::pair<const char*, S> kNotes[] = {{"compute", S::note_compute},
                                                     {"memory", S::note_memory},
                                                     {"network", S::note_network},
                                                     {"data_read", S::note_data_read},
                                                     {"other_accelerator", S::note_other_accelerator},
                                                     {"other_layout", S::note_other_layout}};
  for (const auto& [code, id] : kNotes) {
    if (n.code != code) continue;
    const auto arg = [&n](size_t i) { return i < n.args.size() ? n.args[i].c_str() : ""; };
    char buf[512];
    std::snprintf(buf, sizeof buf, tr(id), arg(0), arg(1), arg(2));
    return buf;
  }
  return n.text;
}

void cards(const AppState& app) {
  const EstimateResult& r = app.result;
  const int columns = std::clamp(static_cast<int>(ImGui::GetContentRegionAvail().x / (9.5f * em())), 2, 5);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingStretchSame;
  if (!ImGui::BeginTable("cards", columns, flags)) return;
  const MemoryResult& m = r.memory;
  // Each ranged figure shows its 80 % range under the value (llmplan/ranges.hpp).
  const auto bytes = [](double v) { return format_bytes(v); };
  const auto hours = [](double v) { return format_duration(v * 3600); };
  const auto cash = [&app](double v) { return app_money(app, v, primary(app)); };
  card(app, tr(S::card_fits), m.fits ? tr(S::fits) : tr(S::does_not_fit), m.fits ? &palette::kOk : &palette::kError,
       format_bytes(m.per_gpu.total()) + " / " + format_bytes(m.capacity_bytes) + "\n" +
           range_line(app, "memory.per_gpu_bytes.total", bytes),
       "memory.fits");
  char gpu_hours[96];
  std::snprintf(gpu_hours, sizeof gpu_hours, tr(S::gpu_hours_fmt), format_amount(r.reliability.gpu_hours).c_str());
  char per_hour[96];
  std::snprintf(per_hour, sizeof per_hour, tr(S::per_gpu_hour_fmt),
                app_money(app, r.cost.usd_per_gpu_hour, primary(app)).c_str());
  if (sized_run(r)) {
    card(app, tr(S::card_time), format_duration(r.reliability.total_hours * 3600), nullptr,
         range_line(app, "time.total_hours", hours) + gpu_hours, "time.total_days");
    if (r.cost.usd_per_gpu_hour > 0)
      card(app, tr(S::card_cost), app_money(app, r.cost.total_usd, primary(app)), nullptr,
           range_line(app, "cost.total_usd", cash) +
               fmt(tr(S::in_other_currency), app_money(app, r.cost.total_usd, secondary(app)).c_str()) + per_hour,
           "cost.total_usd");
    else  // no offering priced and no override: a zero would read as free
      card(app, tr(S::card_cost), kDash, nullptr, tr(S::price_src_none), "cost.total_usd");
  } else {  // a step, but no run to time or price: say what is missing rather than show zeros
    card(app, tr(S::card_time), kDash, nullptr, tr(S::no_tokens_hint), "time.total_days");
    card(app, tr(S::card_cost), kDash, nullptr, per_hour, "cost.total_usd");
  }
  char executed[96];  // MFU counts attention without causal masking; the kernels' own rate is bounded
  std::snprintf(executed, sizeof executed, tr(S::executed_fmt), format_percent(r.time.executed_fraction).c_str());
  card(app, tr(S::card_mfu), format_percent(r.time.mfu), nullptr,
       range_line(app, "time.mfu", [](double v) { return format_percent(v); }) + format_count(r.time.tokens_per_s) +
           " " + tr(S::u_tok_s) + "\n" + executed,
       "time.mfu");
  const S tier = r.tier == Tier::l1 ? S::tier_l1 : r.tier == Tier::l2 ? S::tier_l2 : S::tier_l3;
  card(app, tr(S::card_tier), to_string(r.tier), nullptr, tr(tier), nullptr);
  ImGui::EndTable();
}

//-----------------------------------------------------------------------------
// [SECTION] Step time
//-----------------------------------------------------------------------------

const S kPartLabels[] = {S::part_compute, S::part_comm, S::part_bubble, S::part_offload, S::part_io};
const ImU32 kPartColors[] = {palette::kSeriesBlue, palette::kSeriesOrange, palette::kSeriesPurple,
                             palette::kSeriesGreen, palette::kSeriesRed};

void step_time(const AppState& app) {
  section_header(tr(S::sec_step));
  const StepBreakdown b = step_breakdown(app.result.time);
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = em() * 1.2f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), palette::kBarTrack, em() * 0.2f);
  float x = p0.x;
  for (size_t i = 0; i < b.s.size(); ++i) {
    const float w = b.total_s > 0 ? static_cast<float>(b.s[i] / b.total_s) * width : 0;
    dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + w, p0.y + height), kPartColors[i]);
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height));
  record_widget("step_bar");
  if (!begin_lines("step_parts", 2)) return;
  for (size_t i = 0; i < b.s.size(); ++i) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = em() * 0.7f;
    dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, p.y + em() * 0.2f), ImVec2(p.x + s, p.y + em() * 0.2f + s), kPartColors[i]);
    ImGui::Dummy(ImVec2(s, s));
    ImGui::SameLine();
    label_text(tr(kPartLabels[i]));
    ImGui::TableSetColumnIndex(1);
    text(format_duration(b.s[i]).c_str());
    ImGui::TableSetColumnIndex(2);
    text(b.total_s > 0 ? format_percent(b.s[i] / b.total_s).c_str() : "-");
    ImGui::TableSetColumnIndex(3);
    why_marker(app, result_key(static_cast<StepPart>(i)));
  }
  const TimeResult& t = app.result.time;
  line(
      app, tr(S::step_total),
      {format_duration(t.step_s) + app_range_text(app, "time.step_s", [](double v) { return format_duration(v); }), ""},
      "time.step_s");
  line(app, tr(S::tokens_per_s),
       {format_count(t.tokens_per_s) +
            app_range_text(app, "time.tokens_per_s", [](double v) { return format_count(v); }),
        tr(S::u_tok_s)},
       "time.tokens_per_s");
  line(app, tr(S::steps), {format_count(t.steps), ""}, "time.steps");
  ImGui::EndTable();
}

//-----------------------------------------------------------------------------
// [SECTION] Cost
//-----------------------------------------------------------------------------

// Where the price came from, in the UI language (Pricing::price_source holds the core's English).
std::string price_source_text(const AppState& app) {
  const Pricing& pr = app.scenario.pricing;
  const Catalog& catalog = app_catalog(app);
  char buf[512];
  switch (pr.source) {
    case PriceSource::user: return tr(S::price_src_user);
    case PriceSource::none: return tr(S::price_src_none);
    case PriceSource::instance:
      if (const Instance* in = catalog.find_instance(app.scenario.cluster.instance)) {
        std::snprintf(buf, sizeof buf, tr(S::price_src_instance_fmt), in->name.c_str(),
                      pricing_mode_name(kPricingModeNames[static_cast<int>(pr.mode)]), in->source.c_str(),
                      in->as_of.c_str());
        return buf;
      }
      break;
    case PriceSource::catalog_median: {
      const Accelerator* a = catalog.find_accelerator(app.scenario.cluster.accelerator);
      std::snprintf(
          buf, sizeof buf, tr(S::price_src_median_fmt), pricing_mode_name(kPricingModeNames[static_cast<int>(pr.mode)]),
          std::to_string(pr.price_offerings).c_str(), a ? a->name.c_str() : app.scenario.cluster.accelerator.c_str());
      return buf;
    }
  }
  return pr.price_source;
}

void cost(const AppState& app) {
  section_header(tr(S::sec_cost));
  const CostResult& c = app.result.cost;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("cost", 4, flags)) return;
  ImGui::TableSetupColumn("item", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn("usd", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("cny", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("(?)").x);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableSetColumnIndex(0);
  text(tr(S::col_item));
  ImGui::TableSetColumnIndex(1);
  text("USD");
  ImGui::TableSetColumnIndex(2);
  text("CNY");
  auto row = [&](S label, double usd, const char* key) {
    line(app, tr(label), {app_money(app, usd, Currency::usd), app_money(app, usd, Currency::cny)}, key);
  };
  const bool run = sized_run(app.result);
  auto run_row = [&](S label, double usd, const char* key) {
    if (run) return row(label, usd, key);
    line(app, tr(label), {kDash, kDash}, key);
  };
  run_row(S::cost_compute, c.compute_usd, "cost.compute_usd");
  run_row(S::cost_storage, c.storage_usd, "cost.storage_usd");
  run_row(S::cost_total, c.total_usd, "cost.total_usd");
  const FigureRange* f = run ? find_range(app.ranges, "cost.total_usd") : nullptr;
  if (f)
    line(app, tr(S::range_80),
         {app_money(app, f->low, Currency::usd) + " " + tr(S::range_to) + " " + app_money(app, f->high, Currency::usd),
          app_money(app, f->low, Currency::cny) + " " + tr(S::range_to) + " " + app_money(app, f->high, Currency::cny)},
         "ranges.cost.total_usd.low");
  row(S::cost_per_btok, c.usd_per_billion_tokens, "cost.usd_per_billion_tokens");
  row(S::price_per_gpu_hour, c.usd_per_gpu_hour, "cost.usd_per_gpu_hour");
  line(app, tr(S::overhead), {"x" + num(app.scenario.pricing.overhead_factor, "%.2f"), ""}, "cost.overhead_factor");
  line(app, tr(S::gpu_hours), {run ? format_amount(app.result.reliability.gpu_hours) : kDash, ""}, "gpu_hours");
  // A minimum billing block: the hours billed beside the hours used, so the sum can be checked.
  line(app, tr(S::used_hours), {run ? format_duration(c.used_hours * 3600) : kDash, ""}, "cost.used_hours");
  if (run && c.billed_hours > c.used_hours)
    line(app, tr(S::billed_hours), {format_duration(c.billed_hours * 3600), ""}, "cost.billed_hours");
  ImGui::EndTable();
  if (!run) text_wrapped_disabled(tr(S::no_tokens_hint));
  const std::string source = std::string(tr(S::price_source)) + tr(S::label_sep) + price_source_text(app);
  text_wrapped_disabled(source.c_str());
}

//-----------------------------------------------------------------------------
// [SECTION] Network and storage needs
//-----------------------------------------------------------------------------

std::string have(double v, const char* unit) { return v > 0 ? num(v, "%.4g") + " " + unit : tr(S::unknown); }

void needs(const AppState& app) {
  section_header(tr(S::sec_needs));
  const EstimateResult& r = app.result;
  const IoResult& io = r.io;
  const NodeSizing& n = app.advice.node;
  const S headers[] = {S::col_item, S::col_needed, S::col_provided};
  if (!begin_lines("needs", 2, headers)) return;
  const bool io_short = io.data_utilisation > 1;
  line(app, tr(S::need_data_rate),
       {rate(io.data_bytes_per_s), rate(io.data_tier_bytes_per_s) + " (" + format_percent(io.data_utilisation) + ")"},
       "io.data_bytes_per_s", io_short ? &palette::kError : nullptr);
  const ReliabilityResult& rel = r.reliability;
  line(app, tr(S::need_ckpt), {format_bytes(rel.checkpoint_bytes), format_duration(rel.checkpoint_write_s)},
       "checkpoint.write_s");
  line(app, tr(S::need_ckpt_interval),
       {format_duration(rel.checkpoint_interval_h * 3600), format_percent(rel.overhead_fraction)},
       "checkpoint.interval_h");
  line(app, tr(S::need_inter),
       {format_bytes(r.time.comm.inter_bytes()),
        fmt(tr(S::per_node_fmt), rate(app.scenario.network.node_gb_per_s * 1e9).c_str())},
       "comm.inter_node_bytes");
  const bool cpu_short = n.vcpus > 0 && n.vcpus < n.vcpus_needed;
  line(app, tr(S::need_vcpus), {num(n.vcpus_needed, "%.0f"), have(n.vcpus, "")}, "io.input_cores_per_node",
       cpu_short ? &palette::kError : nullptr);
  const bool ram_short = n.ram_gb > 0 && n.ram_gb < n.ram_gb_needed;
  line(app, tr(S::need_ram), {num(n.ram_gb_needed, "%.0f") + " GB", have(n.ram_gb, "GB")}, nullptr,
       ram_short ? &palette::kError : nullptr);
  const bool nvme_short = n.nvme_tb > 0 && n.nvme_tb < n.nvme_tb_needed;
  line(app, tr(S::need_nvme), {num(n.nvme_tb_needed, "%.2f") + " TB", have(n.nvme_tb, "TB")}, nullptr,
       nvme_short ? &palette::kError : nullptr);
  const bool rdma_short = app.advice.rdma.needed && !app.scenario.network.rdma;
  line(app, tr(S::need_rdma),
       {tr(app.advice.rdma.needed ? S::rdma_needed : S::rdma_not_needed),
        app.scenario.network.rdma ? tr(S::yes) : tr(S::no)},
       nullptr, rdma_short ? &palette::kError : nullptr);
  const Scenario& sc = app.scenario;
  item_tooltip(
      rdma_reason_text(app.advice.rdma, sc.cluster.nodes(), sc.cluster.intra_node_gb_per_s, sc.network.rdma).c_str());
  ImGui::EndTable();
  for (const auto& [label, body] : {std::pair{S::where_data, data_placement_text(app.advice.data)},
                                    std::pair{S::where_ckpt, checkpoint_placement_text(app.advice.checkpoints)}}) {
    const std::string s = std::string(tr(label)) + tr(S::label_sep) + body;
    text_wrapped_disabled(s.c_str());
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Warnings
//-----------------------------------------------------------------------------

enum class Kind { count, bytes, duration };

struct WarningText {
  S text;
  Kind kind;
};

const WarningText kWarningTexts[] = {
    {S::w_memory_exceeds, Kind::bytes},
    {S::w_tp_crosses_nodes, Kind::count},
    {S::w_seq_exceeds_context, Kind::count},
    {S::w_multinode_without_rdma, Kind::count},
    {S::w_data_on_block_disk, Kind::count},
    {S::w_io_bound, Kind::count},
    {S::w_host_ram_below_2x_gpu, Kind::count},
    {S::w_few_vcpus, Kind::count},
    {S::w_pcie_only_gpus, Kind::count},
    {S::w_checkpoints_on_local_disk, Kind::count},
    {S::w_offload_exceeds_host_ram, Kind::bytes},
    {S::w_comm_dominates, Kind::duration},
    {S::w_no_price, Kind::count},
    {S::w_spot_without_rate, Kind::count},
    {S::w_minimum_billing, Kind::duration},
    {S::w_unsupported_layout, Kind::count},
    {S::w_mfu_above_one, Kind::count},          // formatted below: a ratio and a percentage
    {S::w_failures_dominate, Kind::count},      // formatted below: a duration and a ratio
    {S::w_slow_attention_kernel, Kind::count},  // formatted below: a duration, a kernel and a duration
    {S::w_known_slow_path, Kind::count},        // formatted below: a path, two ratios, a count, a factor
    {S::w_reserved_term, Kind::duration},
};
static_assert(sizeof(kWarningTexts) / sizeof(kWarningTexts[0]) == static_cast<size_t>(WarningCode::count),
              "one text per warning code");

// A kernel id (kAttentionKernelNames) as the Attention kernel field's choice reads it.
const char* attention_kernel_label(const char* id) {
  return table_string((std::string("attention_kernel_") + id).c_str(), id);
}

// A slow path (kSlowPathNames) in the known_slow_path warning's words.
const char* slow_path_label(const char* id) { return table_string((std::string("slow_path_") + id).c_str(), id); }

std::string warning_value(double v, Kind kind) {
  switch (kind) {
    case Kind::bytes: return format_bytes(v);
    case Kind::duration: return format_duration(v);
    case Kind::count: break;
  }
  return format_count(v);
}

void warnings(const EstimateResult& r) {
  if (r.warnings.count == 0) return;
  section_header(tr(S::warnings));
  for (int i = 0; i < r.warnings.count; ++i) {
    const Warning& w = r.warnings.items[static_cast<size_t>(i)];
    const WarningText& t = kWarningTexts[static_cast<size_t>(w.code)];
    const S text = w.one_gpu ? S::w_memory_exceeds_one_gpu : t.text;
    std::string message;
    if (w.code == WarningCode::memory_exceeds)
      message = fmt(tr(text), format_bytes(w.value).c_str(), format_bytes(w.limit).c_str(),
                    memory_remedy_list(w.remedies).c_str());
    else if (w.code == WarningCode::unsupported_layout)
      message = fmt(tr(text), layout_rule_text(w.rule));
    else if (w.code == WarningCode::mfu_above_one)
      message = fmt(tr(text), format_number("%.2f", w.value).c_str(), format_percent(w.limit).c_str());
    else if (w.code == WarningCode::failures_dominate)
      message = fmt(tr(text), format_duration(w.limit).c_str(), format_number("%.1f", w.value).c_str());
    else if (w.code == WarningCode::slow_attention_kernel)
      message = fmt(tr(text), format_duration(w.value).c_str(), attention_kernel_label(w.rule),
                    format_duration(w.limit).c_str());
    else if (w.code == WarningCode::known_slow_path)
      message = fmt(tr(text), slow_path_label(w.rule), format_number("%.2f", w.limit).c_str(),
                    format_number("%.2f", w.high).c_str(), std::to_string(w.runs).c_str(),
                    format_number("%.1f", 1 / w.value).c_str());
    else
      message = fmt(tr(text), warning_value(w.value, t.kind).c_str(), warning_value(w.limit, t.kind).c_str());
    // The sentence first; its code (what the docs and the result JSON call it) after, quietly.
    text_wrapped(message.c_str(), &palette::kWarning);
    ImGui::TextDisabled("%s", warning_code(w.code));
  }
}

}  // namespace

// What the trial's measurements pinned down: each measured figure against the calibrated estimate
// at the trial's configuration, the core's notes, and a button that takes them out.
bool calibration(AppState& app) {
  if (!app.scenario.measured.any()) return false;
  ImGui::Spacing();
  text_colored(app.scenario.calibrated() ? palette::kOk : palette::kWarning,
               app.scenario.calibrated() ? tr(S::calibration_title) : tr(S::not_calibrated));
  for (const Reproduced& x : app.trial.reproduced) {
    const FieldSpec* f = find_field(x.path);
    const char* name = f ? table_string(f->label, x.path.c_str()) : x.path.c_str();
    char measured[32], estimated[32], line[256];
    std::snprintf(measured, sizeof measured, "%.4g", x.measured);
    std::snprintf(estimated, sizeof estimated, "%.4g", x.estimated);
    std::snprintf(line, sizeof line, tr(S::calibration_row), name, measured, estimated);
    text_wrapped(line);
  }
  for (const TrialNote& note : app.trial.notes) text_wrapped_disabled(trial_note_text(note).c_str());
  if (!small_button(tr(S::clear_calibration), "clear_calibration")) return false;
  app.input.erase("calibration");
  app.measure_status.clear();
  return true;
}

bool draw_results(AppState& app) {
  if (!app.has_result) {
    draw_memory(app);
    return false;
  }
  exports(app);
  if (app.result_is_stale) {
    text_wrapped(tr(S::stale), &palette::kError);
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
  }
  cards(app);
  const bool changed = calibration(app);
  draw_memory(app);
  step_time(app);
  cost(app);
  needs(app);
  warnings(app.result);
  if (app.result_is_stale) ImGui::PopStyleVar();
  return changed;
}

}  // namespace llmplan::web
