// panel_planner.cpp: the planner tab. The question is the app's scenario (core's
// question_scenario_json) plus the objective and constraints of the form; core's Planner runs it
// in time-boxed slices per frame; the result is a sortable table, a Pareto scatter of time vs
// cost, and for the selected plan its advice, launch artefacts and checklist (core's PlanDetails).
//
// [SECTION] Form
// [SECTION] Search in slices
// [SECTION] Results table
// [SECTION] Pareto scatter
// [SECTION] Selected plan

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "app.hpp"
#include "i18n.hpp"
#include "imgui.h"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

// The currency the question reads its costs in (CNY for a CNY question), set as each frame starts.
Currency g_currency = Currency::usd;
double g_usd_to_cny = 1;
std::string plan_money(double usd) {
  return format_money(g_currency == Currency::cny ? usd * g_usd_to_cny : usd, g_currency);
}

}  // namespace

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Form
//-----------------------------------------------------------------------------

const S kObjectiveNames[] = {S::obj_min_cost, S::obj_min_time, S::obj_cost_deadline, S::obj_time_budget};

void label_row(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-1.0f);
}

// The objective as a combo whose items are recorded (tests click them).
bool objective_row(PlannerState& p) {
  label_row(tr(S::objective));
  bool changed = false;
  if (ImGui::BeginCombo("##objective", tr(kObjectiveNames[p.objective]))) {
    for (int i = 0; i < 4; ++i) {
      if (ImGui::Selectable(tr(kObjectiveNames[i]), i == p.objective)) {
        p.objective = i;
        changed = true;
      }
      char id[32];
      std::snprintf(id, sizeof id, "planner.objective.%d", i);
      record_widget(id);
    }
    ImGui::EndCombo();
  }
  record_widget("planner.objective");
  return changed;
}

// A multi-select from catalog ids: a combo of checkboxes; none ticked means all.
void multi_select(const char* label, const char* id, const std::vector<std::pair<std::string, std::string>>& items,
                  std::vector<std::string>& chosen) {
  label_row(label);
  char preview[64];
  if (chosen.empty())
    std::snprintf(preview, sizeof preview, "%s", tr(S::any_all));
  else if (chosen.size() == 1)
    std::snprintf(preview, sizeof preview, "%s", chosen[0].c_str());
  else
    std::snprintf(preview, sizeof preview, tr(S::n_selected), static_cast<int>(chosen.size()));
  ImGui::PushID(id);
  if (ImGui::BeginCombo("##multi", preview, ImGuiComboFlags_HeightLarge)) {
    if (ImGui::SmallButton(tr(S::clear_selection))) chosen.clear();
    for (const auto& [item_id, name] : items) {
      bool on = std::find(chosen.begin(), chosen.end(), item_id) != chosen.end();
      if (ImGui::Checkbox(item_id.c_str(), &on)) {
        if (on)
          chosen.push_back(item_id);
        else
          chosen.erase(std::find(chosen.begin(), chosen.end(), item_id));
      }
      if (ImGui::IsItemHovered() && !name.empty()) ImGui::SetTooltip("%s", name.c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::PopID();
  record_widget(id);
}

// Maps the question's error field to the form's field ids, so form rows highlight themselves.
InputError form_error(const InputError& e) {
  InputError out = e;
  static const struct {
    const char* from;
    const char* to;
  } map[] = {{"constraints.max_gpus", "planner.max_gpus"},
             {"constraints.deadline_days", "planner.deadline_days"},
             {"constraints.budget_usd", "planner.budget_usd"},
             {"constraints.start_within_days", "planner.start_within_days"},
             {"constraints.debug_hours", "planner.debug_hours"}};
  for (const auto& m : map)
    if (e.field == m.from) out.field = m.to;
  return out;
}

// The form's currency choices (PlannerState::currency) as constraints.currency: any, USD, CNY.
constexpr const char* kFormCurrencies[] = {"", "usd", "cny"};

Constraints form_constraints(const PlannerState& p) {
  Constraints c;
  c.max_gpus = p.max_gpus;
  c.deadline_days = p.deadline_days;  // 0: none (the parser then names the field the objective needs)
  c.budget_usd = p.budget_usd;
  c.providers = p.providers;
  c.accelerators = p.accelerators;
  c.spot = p.spot;
  c.currency = kFormCurrencies[p.currency];
  if (p.limit_start) c.start_within_days = p.start_within_days;
  c.provider_kinds = p.provider_kinds;
  c.debug_hours = p.debug_hours;
  c.regions = p.regions;
  return c;
}

// The budget in the money the planner reads its costs in (yuan where the offerings or the scenario
// are priced in yuan), kept in USD as constraints.budget_usd at the scenario's exchange rate.
void budget_row(const AppState& app, PlannerState& p, const InputError& error) {
  const double rate = app.scenario.pricing.usd_to_cny;
  const bool cny =
      question_currency(kFormCurrencies[p.currency], app.scenario.pricing.currency) == Currency::cny && rate > 0;
  if (!cny) {
    form_double(tr(S::budget_usd), "planner.budget_usd", &p.budget_usd, 0, 1e12, "%.0f", error);
    return;
  }
  double yuan = p.budget_usd * rate;
  if (form_double(tr(S::budget_cny), "planner.budget_usd", &yuan, 0, 1e12 * rate, "%.0f", error))
    p.budget_usd = yuan / rate;
}

void draw_form(AppState& app, PlannerState& p) {
  const Catalog& catalog = app_catalog(app);
  const InputError error = form_error(p.error);
  if (!begin_form("planner_form")) return;
  objective_row(p);
  form_int(tr(S::max_gpus), "planner.max_gpus", &p.max_gpus, 1, 100000, error);
  form_double(tr(S::deadline_days), "planner.deadline_days", &p.deadline_days, 0, 100000, "%.1f", error);
  budget_row(app, p, error);
  std::vector<std::pair<std::string, std::string>> providers, accelerators;
  for (const Provider& pr : catalog.providers) providers.push_back({pr.id, pr.name});
  for (const Accelerator& a : catalog.accelerators) {
    const bool offered = std::any_of(catalog.instances.begin(), catalog.instances.end(),
                                     [&](const Instance& in) { return in.accelerator == a.id; });
    if (offered) accelerators.push_back({a.id, a.name});
  }
  multi_select(tr(S::providers), "planner.providers", providers, p.providers);
  multi_select(tr(S::accelerators), "planner.accelerators", accelerators, p.accelerators);
  const char* currencies[] = {tr(S::currency_any), tr(S::currency_usd), tr(S::currency_cny)};
  form_combo(tr(S::priced_in), "planner.currency", &p.currency, currencies, 3, error);
  label_row(tr(S::spot_allowed));
  ImGui::Checkbox("##spot", &p.spot);
  record_widget("planner.spot");
  std::vector<std::pair<std::string, std::string>> kinds;
  for (const char* k : kProviderKinds) kinds.push_back({k, provider_kind_name(k)});
  multi_select(tr(S::provider_kinds), "planner.provider_kinds", kinds, p.provider_kinds);
  label_row(tr(S::limit_start));
  ImGui::Checkbox("##limit_start", &p.limit_start);
  record_widget("planner.limit_start");
  if (p.limit_start)
    form_double(tr(S::start_within_days), "planner.start_within_days", &p.start_within_days, 0, 3650, "%.0f", error);
  form_double(tr(S::debug_hours), "planner.debug_hours", &p.debug_hours, 0, 8760, "%.0f", error);
  end_form();
  if (!p.error.field.empty() && error.field == p.error.field) {  // an error of the scenario part
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kError);
    ImGui::TextWrapped("%s %s", tr(S::planner_error), input_error_text(p.error).c_str());  // the text names the field
    ImGui::PopStyleColor();
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Search in slices
//-----------------------------------------------------------------------------

// The question the form asks of the scenario: what `llmplan plan` takes for the same search.
std::string form_question(const AppState& app, const PlannerState& p, const Catalog& catalog) {
  return write_question(question_scenario_json(app.scenario, catalog), static_cast<Objective>(p.objective),
                        form_constraints(p), kPlannerTopN);
}

void start_run(AppState& app, PlannerState& p) {
  p.error = {};
  if (!app.error.field.empty()) {
    p.error = app.error;
    return;
  }
  auto run = std::make_unique<PlannerRun>();
  run->catalog = std::make_shared<const Catalog>(app_catalog(app));
  run->question_json = form_question(app, p, *run->catalog);
  run->parse = parse_question(run->question_json, *run->catalog);
  if (!run->parse.question) {
    p.error = run->parse.error;
    return;
  }
  run->fragment = app.fragment;
  run->planner = std::make_unique<Planner>(*run->parse.question, *run->catalog, default_calibration());
  run->started_ms = platform_now_ms();
  p.run = std::move(run);
  p.selected.reset();
  p.details.reset();
  p.order.clear();
}

// One frame's share of the search: whole offerings-at-a-node-count until the slice passed.
void run_slice(PlannerState& p) {
  PlannerRun& r = *p.run;
  const SearchSlice s = run_search_slice(r.slice_ms, [&r] { return r.planner->step(1); });
  if (!s.done) return;
  r.result = r.planner->result();
  r.planner.reset();
  platform_result_changed();  // the text view lists the top plans
  r.elapsed_ms = s.end_ms - r.started_ms;
  p.order.clear();
  if (!r.result->plans.empty()) select_plan(p, r.result->plans[0]);
}

//-----------------------------------------------------------------------------
// [SECTION] Results table
//-----------------------------------------------------------------------------

// The plan's time (s) and cost 80 % ranges: they move together, cost being GPU-hours x price.
Bounds seconds_bounds(const PlanCandidate& c) {
  return duration_bounds(c.total_hours * 3600, c.speed_low, c.speed_high);
}
Bounds cost_bounds(const PlanCandidate& c) {
  return llmplan::cost_bounds(c.cost_usd, c.used_hours, c.billed_hours, c.speed_low, c.speed_high);
}

// "billed 730 h" when a minimum billing block sets the plan's cost, else "".
std::string billed_text(const PlanCandidate& c) {
  if (c.billed_hours <= c.used_hours) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, tr(S::billed_fmt), format_duration(c.billed_hours * 3600).c_str());
  return buf;
}
std::string time_range(const PlanCandidate& c) {
  if (c.range_cases == 0) return "";
  const Bounds b = seconds_bounds(c);
  return format_duration(b.low) + " " + tr(S::range_to) + " " + format_duration(b.high);
}
std::string cost_range(const PlanCandidate& c) {
  if (c.range_cases == 0) return "";
  const Bounds b = cost_bounds(c);
  return plan_money(b.low) + " " + tr(S::range_to) + " " + plan_money(b.high);
}

std::string layout_label(const PlanCandidate& c) {
  char buf[224];
  std::snprintf(buf, sizeof buf, tr(S::layout_fmt), c.layout.tp, c.layout.pp, c.dp(),
                layout_extra_text(c.layout).c_str(), c.layout.zero,
                c.layout.offload == Offload::cpu ? tr(S::cpu_offload) : "", c.layout.micro_batch,
                recompute_label(c.layout).c_str());
  return buf;
}

bool same_plan(const PlanCandidate& a, const PlanCandidate& b) {
  return a.instance == b.instance && a.nodes == b.nodes && a.mode == b.mode;
}

// The plans table's columns: the figures a plan is chosen by (time, cost, MFU) come before the long
// layout and reason, so that a laptop's screen shows them without scrolling the table sideways.
enum PlanColumn : int {
  kColNumber,
  kColInstance,
  kColProvider,
  kColGpus,
  kColTime,
  kColCost,
  kColMfu,
  kColLayout,
  kColWhy,
  kPlanColumns
};

void sort_rows(PlannerState& p, const PlanResult& res) {
  if (p.order.size() != res.plans.size()) {
    p.order.resize(res.plans.size());
    for (size_t i = 0; i < p.order.size(); ++i) p.order[i] = static_cast<int>(i);
  }
  auto key = [&](int i) -> double {
    const PlanCandidate& c = res.plans[static_cast<size_t>(i)];
    switch (p.sort_column) {
      case kColGpus: return c.gpus();
      case kColTime: return c.total_hours;
      case kColCost: return c.cost_usd;
      case kColMfu: return c.mfu;
      default: return i;
    }
  };
  auto text = [&](int i) -> std::string {
    const PlanCandidate& c = res.plans[static_cast<size_t>(i)];
    return p.sort_column == kColInstance ? c.instance->id : c.instance->provider;
  };
  const bool by_text = p.sort_column == kColInstance || p.sort_column == kColProvider;
  std::stable_sort(p.order.begin(), p.order.end(), [&](int a, int b) {
    const bool less = by_text ? text(a) < text(b) : key(a) < key(b);
    const bool more = by_text ? text(b) < text(a) : key(b) < key(a);
    return p.sort_descending ? more : less;
  });
}

// Whether the question carries a trial's measurements and this plan is not on its accelerator.
bool uncalibrated(const PlannerState& p, const PlanCandidate& c) {
  return p.run && p.run->parse.question && p.run->parse.question->base.measured.any() && !c.calibrated;
}

void uncalibrated_mark(const PlannerState& p, const PlanCandidate& c) {
  if (!uncalibrated(p, c)) return;
  ImGui::TextColored(palette::kWarning, "%s", tr(S::not_calibrated));
  item_tooltip(tr(S::t_not_calibrated));
}

// Why no plan came out, from what the search rejected: the constraints that rejected layouts, and
// the offerings' missing multi-node prices (a CNY question's usual cause).
void no_plan_text(const PlannerRun& r, const PlanResult& res) {
  const auto rejected = [&res](RejectReason why) { return res.rejected[static_cast<int>(why)] > 0; };
  bool any = false;
  for (int i = 0; i < static_cast<int>(RejectReason::count); ++i) any = any || res.rejected[i] > 0;
  // No layout was even tried: the providers, accelerators, currency or kinds chosen leave no offering.
  std::string text = tr(any ? S::no_plan : S::no_offering);
  if (r.parse.question) {
    const Constraints& k = r.parse.question->constraints;
    if (k.deadline_days > 0 && rejected(RejectReason::deadline)) text += tr(S::no_plan_deadline);
    if (k.budget_usd > 0 && rejected(RejectReason::budget)) text += tr(S::no_plan_budget);
  }
  if (rejected(RejectReason::memory)) text += tr(S::no_plan_memory);
  ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
  ImGui::TextWrapped("%s", text.c_str());
  if (res.one_machine_only) ImGui::TextWrapped("%s", tr(S::n_one_machine_only));
  ImGui::PopStyleColor();
}

// The global batch every plan trains: one for all, so that plans compare. Where the inputs leave
// it at 0 (one micro-batch a GPU for an estimate) the planner chose it, and says so.
void batch_line(const PlannerRun& r) {
  if (!r.parse.question) return;
  const Scenario& b = r.parse.question->base;
  char line[256];
  std::snprintf(line, sizeof line, tr(S::plan_batch_fmt), b.global_batch,
                format_count(static_cast<double>(b.global_batch) * b.seq_len).c_str());
  std::string text = line;
  if (r.parse.default_global_batch) text += tr(S::plan_batch_default);
  text_wrapped_disabled(text.c_str());
}

void draw_table(PlannerState& p, const PlanResult& res) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_SizingFixedFit;
  // Eight plans in view, each two lines (the figure and its 80 % range), under the header.
  const float rows_h = ImGui::GetTextLineHeightWithSpacing() *
                       (std::min<float>(8.0f, static_cast<float>(res.plans.size())) * 2.0f + 1.6f);
  if (!ImGui::BeginTable("plans", kPlanColumns, flags, ImVec2(0, rows_h))) return;
  ImGui::TableSetupScrollFreeze(2, 1);
  // In PlanColumn's order.
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_DefaultSort);
  ImGui::TableSetupColumn(tr(S::col_instance));
  ImGui::TableSetupColumn(tr(S::col_provider));
  ImGui::TableSetupColumn(tr(S::col_gpus));
  ImGui::TableSetupColumn(tr(S::col_time));
  ImGui::TableSetupColumn(tr(S::col_cost));
  ImGui::TableSetupColumn(tr(S::col_mfu));
  ImGui::TableSetupColumn(tr(S::col_layout), ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn(tr(S::col_why), ImGuiTableColumnFlags_NoSort);
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty || p.order.size() != res.plans.size()) {
      if (specs->SpecsCount > 0) {
        p.sort_column = specs->Specs[0].ColumnIndex;
        p.sort_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
      }
      p.order.clear();
      sort_rows(p, res);
      specs->SpecsDirty = false;
    }
  }
  for (size_t row = 0; row < p.order.size(); ++row) {
    const int i = p.order[row];
    const PlanCandidate& c = res.plans[static_cast<size_t>(i)];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(kColNumber);
    char label[32];
    std::snprintf(label, sizeof label, "%d##plan%d", i + 1, i);
    const bool selected = p.selected && same_plan(*p.selected, c);
    if (ImGui::Selectable(label, selected, ImGuiSelectableFlags_SpanAllColumns)) select_plan(p, c);
    char id[32];
    std::snprintf(id, sizeof id, "planner.row.%d", i);
    record_widget(id);
    ImGui::TableSetColumnIndex(kColInstance);
    ImGui::TextUnformatted(c.instance->id.c_str());
    if (c.mode == PricingMode::spot) ImGui::TextColored(palette::kNotice, "%s", tr(S::price_mode_spot));
    uncalibrated_mark(p, c);
    ImGui::TableSetColumnIndex(kColProvider);
    ImGui::TextUnformatted(c.instance->provider.c_str());
    ImGui::TableSetColumnIndex(kColGpus);
    ImGui::Text("%d", c.gpus());
    ImGui::TableSetColumnIndex(kColTime);
    ImGui::TextUnformatted(format_duration(c.total_hours * 3600).c_str());
    ImGui::TextDisabled("%s", time_range(c).c_str());  // its 80 % range
    ImGui::TableSetColumnIndex(kColCost);
    ImGui::TextUnformatted(plan_money(c.cost_usd).c_str());
    ImGui::TextDisabled("%s", cost_range(c).c_str());
    if (const std::string billed = billed_text(c); !billed.empty()) {
      ImGui::TextColored(palette::kWarning, "%s", billed.c_str());
      item_tooltip(tr(S::t_billed));
    }
    ImGui::TableSetColumnIndex(kColMfu);
    ImGui::TextUnformatted(format_percent(c.mfu).c_str());
    ImGui::TableSetColumnIndex(kColLayout);
    ImGui::TextUnformatted(layout_label(c).c_str());
    ImGui::TableSetColumnIndex(kColWhy);
    ImGui::TextUnformatted(plan_why_text(res.why_data[static_cast<size_t>(i)], layout_label(c)).c_str());
  }
  ImGui::EndTable();
  record_widget("planner.table");
}

//-----------------------------------------------------------------------------
// [SECTION] Pareto scatter
//-----------------------------------------------------------------------------

// 1-2-5 ticks of a log axis over [lo, hi].
std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> out;
  for (double decade = std::pow(10.0, std::floor(std::log10(lo))); decade <= hi * 1.0001; decade *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = decade * m;
      if (v >= lo * 0.9999 && v <= hi * 1.0001) out.push_back(v);
    }
  if (out.size() > 8) {  // keep the decades only
    std::vector<double> thin;
    for (double v : out)
      if (std::fabs(std::log10(v) - std::round(std::log10(v))) < 1e-9) thin.push_back(v);
    out = thin;
  }
  return out;
}

// Ticks of a log time axis (seconds) at the durations people think in: minutes, hours, days.
std::vector<double> time_ticks(double lo, double hi) {
  static const double kTicks[] = {60,          300,         900,         1800,       3600,       2 * 3600,
                                  3 * 3600,    6 * 3600,    12 * 3600,   86400,      2 * 86400,  3 * 86400,
                                  7 * 86400,   14 * 86400,  30 * 86400,  60 * 86400, 90 * 86400, 180 * 86400,
                                  365 * 86400, 730 * 86400, 1825 * 86400};
  std::vector<double> out;
  for (double t : kTicks)
    if (t >= lo && t <= hi) out.push_back(t);
  while (out.size() > 7) {  // every other one until they fit
    std::vector<double> thin;
    for (size_t i = 0; i < out.size(); i += 2) thin.push_back(out[i]);
    out = thin;
  }
  if (out.empty()) out = log_ticks(lo, hi);
  return out;
}

void tooltip_plan(const PlanCandidate& c, bool pareto) {
  ImGui::BeginTooltip();
  ImGui::Text("%d x %s  (%s)", c.gpus(), c.instance->accelerator.c_str(), c.instance->id.c_str());
  ImGui::TextUnformatted(layout_label(c).c_str());
  ImGui::Text("%s: %s   %s: %s   %s: %s", tr(S::col_time), format_duration(c.total_hours * 3600).c_str(),
              tr(S::col_cost), plan_money(c.cost_usd).c_str(), tr(S::col_mfu), format_percent(c.mfu).c_str());
  if (c.range_cases > 0)
    ImGui::TextDisabled("%s %s, %s", tr(S::range_80), time_range(c).c_str(), cost_range(c).c_str());
  if (pareto) ImGui::TextDisabled("%s", tr(S::pareto_point));
  ImGui::TextDisabled("%s", tr(S::click_to_select));
  ImGui::EndTooltip();
}

void draw_pareto(PlannerState& p, const PlanResult& res) {
  ImGui::TextDisabled("%s", tr(S::pareto_title));
  std::vector<const PlanCandidate*> pts;
  for (const PlanCandidate& c : res.plans) pts.push_back(&c);
  for (const PlanCandidate& c : res.pareto) pts.push_back(&c);
  if (pts.empty()) return;
  double tlo = 1e300, thi = 0, clo = 1e300, chi = 0;
  for (const PlanCandidate* c : pts) {  // the points and their 80 % ranges
    const Bounds t = seconds_bounds(*c), k = cost_bounds(*c);
    tlo = std::min(tlo, t.low);
    thi = std::max(thi, t.high);
    clo = std::min(clo, k.low);
    chi = std::max(chi, k.high);
  }
  // Pad by a fifth of a decade so points stay off the frame; a single point gets a decade.
  auto pad = [](double& lo, double& hi) {
    if (hi <= lo * 1.05) {
      lo /= 3;
      hi *= 3;
    }
    lo /= 1.25;
    hi *= 1.25;
  };
  pad(tlo, thi);
  pad(clo, chi);
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = std::max(12 * em(), std::min(20 * em(), w * 0.45f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("pareto", ImVec2(w, h));
  record_widget("planner.pareto");
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = 5.5f * em(), bottom = 2.2f * em();
  const ImVec2 a(origin.x + left, origin.y + 0.5f * em()), b(origin.x + w - 0.8f * em(), origin.y + h - bottom);
  dl->AddRectFilled(a, b, palette::kPlotBg);
  auto xof = [&](double t) { return a.x + static_cast<float>(std::log(t / tlo) / std::log(thi / tlo)) * (b.x - a.x); };
  auto yof = [&](double c) { return b.y - static_cast<float>(std::log(c / clo) / std::log(chi / clo)) * (b.y - a.y); };
  const ImU32 grid = palette::kGrid, label = palette::kAxisLabel;
  for (double t : time_ticks(tlo, thi)) {
    const float x = xof(t);
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), grid);
    const std::string s = format_duration(t);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(x - ts.x / 2, b.y + 0.2f * em()), label, s.c_str());
  }
  for (double c : log_ticks(clo, chi)) {
    const float y = yof(c);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), grid);
    const std::string s = plan_money(c);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(a.x - ts.x - 0.4f * em(), y - ts.y / 2), label, s.c_str());
  }
  const char* xl = tr(S::axis_time);
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(xl).x, b.y + 1.15f * em()), label, xl);
  dl->AddText(ImVec2(origin.x, origin.y), label, tr(S::axis_cost));
  // The Pareto front as a staircase, then every point.
  const ImU32 front = palette::kParetoFront;
  for (size_t i = 1; i < res.pareto.size(); ++i) {
    const PlanCandidate &u = res.pareto[i - 1], &v = res.pareto[i];
    dl->AddLine(ImVec2(xof(u.total_hours * 3600), yof(u.cost_usd)), ImVec2(xof(v.total_hours * 3600), yof(u.cost_usd)),
                front, 1.5f);
    dl->AddLine(ImVec2(xof(v.total_hours * 3600), yof(u.cost_usd)), ImVec2(xof(v.total_hours * 3600), yof(v.cost_usd)),
                front, 1.5f);
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const PlanCandidate* nearest = nullptr;
  bool nearest_pareto = false;
  float best_d2 = 0.8f * em() * 0.8f * em();
  const float r = 0.28f * em();
  for (size_t i = 0; i < pts.size(); ++i) {
    const PlanCandidate& c = *pts[i];
    const bool on_front = i >= res.plans.size();
    const ImVec2 q(xof(c.total_hours * 3600), yof(c.cost_usd));
    // Its 80 % range as an error bar: time and cost move together (cost is GPU-hours x price).
    if (c.range_cases > 0) {
      const Bounds t = seconds_bounds(c), k = cost_bounds(c);
      dl->AddLine(ImVec2(xof(t.low), yof(k.low)), ImVec2(xof(t.high), yof(k.high)),
                  ((on_front ? front : palette::kRankedPlan) & 0x00FFFFFFu) | 0x70000000u, 1.0f);  // faint
    }
    if (on_front)
      dl->AddCircleFilled(q, r, front);
    else
      dl->AddCircle(q, r * 1.6f, palette::kRankedPlan, 12, 1.5f);
    if (p.selected && same_plan(*p.selected, c)) dl->AddCircle(q, r * 2.6f, palette::kSelection, 16, 2.0f);
    const float dx = q.x - mouse.x, dy = q.y - mouse.y;
    if (hovered && dx * dx + dy * dy < best_d2) {
      best_d2 = dx * dx + dy * dy;
      nearest = &c;
      nearest_pareto = on_front;
    }
  }
  if (nearest) {
    for (const PlanCandidate& c : res.pareto)
      if (same_plan(c, *nearest)) nearest_pareto = true;
    tooltip_plan(*nearest, nearest_pareto);
    if (clicked) select_plan(p, *nearest);
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Selected plan
//-----------------------------------------------------------------------------

void copy_button(PlannerState& p, const char* id, const std::string& text) {
  ImGui::PushID(id);
  if (ImGui::SmallButton(tr(S::copy))) {
    platform_copy_text(text);
    p.copied = id;
  }
  ImGui::PopID();
  char rid[64];
  std::snprintf(rid, sizeof rid, "planner.copy.%s", id);
  record_widget(rid);
  if (p.copied == id) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr(S::copied));
  }
}

// A block of text (a command or config) with its title and a Copy button.
void artefact(PlannerState& p, const char* id, const char* title, const std::string& text) {
  if (text.empty()) return;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(title);
  ImGui::SameLine();
  copy_button(p, id, text);
  int lines = 1;
  for (char ch : text) lines += ch == '\n';
  const ImGuiStyle& style = ImGui::GetStyle();
  // A line wider than the box brings a horizontal scrollbar, which would cover the last line.
  const bool wide = ImGui::CalcTextSize(text.c_str()).x + 2 * style.WindowPadding.x > ImGui::GetContentRegionAvail().x;
  const float h = std::min(14.0f, static_cast<float>(lines) + 0.6f) * ImGui::GetTextLineHeight() +
                  style.WindowPadding.y + (wide ? style.ScrollbarSize : 0.0f);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, palette::kCodeBg);
  ImGui::BeginChild(id, ImVec2(0, h), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(text.c_str());
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

std::string checklist_text(const std::vector<Check>& checks) {
  std::string out;
  int i = 0;
  for (const Check& c : checks) {
    char head[16];
    std::snprintf(head, sizeof head, "%d. ", ++i);
    out += head + check_title_text(c) + tr(S::label_sep) + "`" + check_command_text(c) + "`\n   " + tr(S::expect) +
           tr(S::label_sep) + check_expect_text(c) + "\n";
  }
  return out;
}

const S kTiers[] = {S::tier_l1, S::tier_l2, S::tier_l3};

const char* known_or(double v, const std::string& text) { return v > 0 ? text.c_str() : tr(S::unknown); }

// The selected plan in one line with "Use this plan" (above the table, so it is always in view),
// and why it ranks where it does (the table's last column, often scrolled out of view).
void draw_selection(AppState& app, PlannerState& p, const PlanResult& res) {
  if (!p.selected || !p.details || !p.details->ok) return;
  const PlanCandidate& c = *p.selected;
  const PlanDetails& d = *p.details;
  const bool in_use = !p.used_fragment.empty() && p.used_fragment == app.fragment;
  if (ImGui::Button(tr(S::use_plan))) {
    app_set_input(app, d.scenario_json);
    p.used_fragment = app.fragment;
    app.select_results = true;  // its figures, and the page's link becomes the scenario's
  }
  record_widget("planner.use");
  ImGui::SameLine();
  ImGui::Text(tr(S::plan_heading), c.gpus(), c.instance->accelerator.c_str(), c.instance->id.c_str(),
              c.mode == PricingMode::spot ? tr(S::price_mode_spot) : tr(S::price_mode_on_demand));
  ImGui::SameLine();
  ImGui::TextDisabled("%s %s, %s %s", tr(S::col_time), format_duration(c.total_hours * 3600).c_str(), tr(S::col_cost),
                      plan_money(c.cost_usd).c_str());
  if (in_use) {
    ImGui::SameLine();
    ImGui::TextDisabled("- %s", tr(S::plan_in_use));
  }
  for (size_t i = 0; i < res.plans.size() && i < res.why_data.size(); ++i)
    if (same_plan(res.plans[i], c)) {
      const std::string why = "#" + std::to_string(i + 1) + ": " + plan_why_text(res.why_data[i], layout_label(c));
      text_wrapped(why.c_str());
      break;
    }
}

// Three ways to pay for the selected plan (core plan_payment): cost with its range over the
// published spot interruption rates, wall clock, and the cheapest.
void draw_payment(const PaymentOptions& pay, const char* instance) {
  if (!ImGui::CollapsingHeader(tr(S::ways_to_pay), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::BeginTable("payment", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn(tr(S::col_way));
    ImGui::TableSetupColumn(tr(S::col_cost));
    ImGui::TableSetupColumn(tr(S::col_time));
    ImGui::TableHeadersRow();
    const struct {
      const PaymentWay& way;
      S name;
      const char* id;
    } rows[] = {{pay.on_demand, S::pay_on_demand, "on_demand"},
                {pay.spot, S::pay_spot, "spot"},
                {pay.two_phase, S::pay_two_phase, "two_phase"}};
    for (const auto& r : rows) {
      if (!r.way.available) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const bool best = std::string_view(pay.cheapest) == r.id;
      if (best)
        text_colored(palette::kOk, tr(r.name));
      else
        text(tr(r.name));
      ImGui::TableNextColumn();
      std::string cost = plan_money(r.way.cost_usd);
      if (r.way.cost_usd_high > r.way.cost_usd_low)
        cost += " (" + plan_money(r.way.cost_usd_low) + " - " + plan_money(r.way.cost_usd_high) + ")";
      text(cost.c_str());
      ImGui::TableNextColumn();
      text(format_duration(r.way.wall_clock_h * 3600).c_str());
    }
    ImGui::EndTable();
  }
  char line[512];
  const PaymentWay& any = pay.on_demand.available ? pay.on_demand : pay.spot;
  std::snprintf(line, sizeof line, tr(S::pay_note_fmt), format_duration(any.debug_hours * 3600).c_str(), pay.debug_gpus,
                format_percent(1 - std::exp(-pay.rates.low * 730)).c_str(),
                format_percent(1 - std::exp(-pay.rates.high * 730)).c_str());
  text_wrapped_disabled(line);
  // Why a way is missing, from what the offering prices (core's note says the same in English).
  if (!pay.spot.available || !pay.on_demand.available) {
    std::snprintf(line, sizeof line, tr(pay.spot.available ? S::pay_no_on_demand_fmt : S::pay_no_spot_fmt), instance);
    text_wrapped_disabled(line);
  }
}

// The configuration a measurement taken on plan `c` ran: calibration.measured_on.
nlohmann::json measured_on(const PlanCandidate& c) {
  return {{"accelerator", c.instance->accelerator},
          {"gpus", c.gpus()},
          {"gpus_per_node", c.gpus_per_node()},
          {"tp", c.layout.tp},
          {"pp", c.layout.pp},
          {"cp", c.layout.cp},
          {"ep", c.layout.ep},
          {"zero", c.layout.zero},
          {"micro_batch", c.layout.micro_batch}};
}

// The checklist items that measure what the calibration block takes (advice.cpp ids).
bool measures(const Check& k) {
  for (const char* id : {"tiny_run", "nccl_intra", "nccl_inter", "fio_data_read", "first_steps"})
    if (k.id == id) return true;
  return false;
}

bool draw_details(AppState& app, PlannerState& p) {
  if (!p.selected || !p.details || !p.details->ok) return false;
  bool changed = false;
  const PlanCandidate& c = *p.selected;
  const PlanDetails& d = *p.details;
  ImGui::Spacing();
  section_header(tr(S::selected_plan));
  ImGui::Text(tr(S::plan_heading), c.gpus(), c.instance->accelerator.c_str(), c.instance->id.c_str(),
              c.mode == PricingMode::spot ? tr(S::price_mode_spot) : tr(S::price_mode_on_demand));
  ImGui::TextUnformatted(layout_label(c).c_str());
  ImGui::Text("%s %s   %s %s   %s %s   %s %s", tr(S::col_time), format_duration(c.total_hours * 3600).c_str(),
              tr(S::col_cost), plan_money(c.cost_usd).c_str(), tr(S::col_mfu), format_percent(c.mfu).c_str(),
              tr(S::tier), tr(kTiers[static_cast<int>(d.advice.tier)]));
  if (c.range_cases > 0)
    ImGui::TextDisabled("%s %s, %s", tr(S::range_80), time_range(c).c_str(), cost_range(c).c_str());
  uncalibrated_mark(p, c);
  draw_payment(d.payment, c.instance->id.c_str());

  if (ImGui::CollapsingHeader(tr(S::advice), ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("%s%s%s", tr(S::rdma), tr(S::label_sep),
                d.advice.rdma.needed ? tr(S::rdma_needed) : tr(S::rdma_not_needed));
    const Scenario& ps = d.scenario;
    ImGui::TextDisabled(
        "%s",
        rdma_reason_text(d.advice.rdma, ps.cluster.nodes(), ps.cluster.intra_node_gb_per_s, ps.network.rdma).c_str());
    ImGui::Text("%s%s", tr(S::data_location), tr(S::label_sep));
    ImGui::SameLine(0.0f, 0.0f);  // the separator carries its own space
    ImGui::TextDisabled("%s", data_placement_text(d.advice.data).c_str());
    ImGui::Text("%s%s", tr(S::checkpoint_location), tr(S::label_sep));
    ImGui::SameLine(0.0f, 0.0f);  // the separator carries its own space
    ImGui::TextDisabled("%s", checkpoint_placement_text(d.advice.checkpoints).c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::BeginTable("sizing", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn(tr(S::node_sizing));
      ImGui::TableSetupColumn(tr(S::col_need));
      ImGui::TableSetupColumn(tr(S::col_have));
      ImGui::TableHeadersRow();
      const NodeSizing& n = d.advice.node;
      char need[32], have[32];
      auto row = [&](const char* what, const char* a, const char* b) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(what);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(a);
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(b);
      };
      std::snprintf(need, sizeof need, "%.0f", n.vcpus_needed);
      std::snprintf(have, sizeof have, "%.0f", n.vcpus);
      row(tr(S::vcpus), need, known_or(n.vcpus, have));
      const std::string ram_need = format_bytes(n.ram_gb_needed * 1e9), ram_have = format_bytes(n.ram_gb * 1e9);
      row(tr(S::host_ram), ram_need.c_str(), known_or(n.ram_gb, ram_have));
      const std::string nvme_need = format_bytes(n.nvme_tb_needed * 1e12), nvme_have = format_bytes(n.nvme_tb * 1e12);
      row(tr(S::local_nvme), nvme_need.c_str(), known_or(n.nvme_tb, nvme_have));
      ImGui::EndTable();
    }
    if (d.advice.warnings.count > 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
      ImGui::PushTextWrapPos(0.0f);
      for (int i = 0; i < d.advice.warnings.count; ++i)
        ImGui::BulletText("%s", warning_message(d.advice.warnings.items[static_cast<size_t>(i)]).c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
  }

  char launch[96];
  std::snprintf(launch, sizeof launch, tr(S::launch), d.artifacts.framework.c_str());
  if (ImGui::CollapsingHeader(launch, ImGuiTreeNodeFlags_DefaultOpen)) {
    artefact(p, "torchrun", "torchrun", d.artifacts.torchrun);
    artefact(p, "deepspeed_json", "ds_config.json", d.artifacts.deepspeed_json);
    artefact(p, "accelerate_yaml", "accelerate config (yaml)", d.artifacts.accelerate_yaml);
    artefact(p, "megatron_args", "megatron_args.txt", d.artifacts.megatron_args);
    artefact(p, "torchtitan_toml", "torchtitan.toml", d.artifacts.torchtitan_toml);
    artefact(p, "peft_python", "PEFT (python)", d.artifacts.peft_python);
  }
  if (ImGui::CollapsingHeader(tr(S::checklist), ImGuiTreeNodeFlags_DefaultOpen)) {
    copy_button(p, "checklist", checklist_text(d.checklist));
    ImGui::PushTextWrapPos(0.0f);
    int i = 0;
    for (const Check& k : d.checklist) {
      ImGui::Text("%d. %s", ++i, check_title_text(k).c_str());
      ImGui::Indent();
      ImGui::PushStyleColor(ImGuiCol_Text, palette::kCommand);
      ImGui::TextUnformatted(check_command_text(k).c_str());
      ImGui::PopStyleColor();
      ImGui::TextDisabled("%s%s%s", tr(S::expect), tr(S::label_sep), check_expect_text(k).c_str());
      if (measures(k)) {
        // "Paste your measurement": the result of this check, read into the scenario's calibration.
        const std::string id = "planner.measure." + k.id;
        if (small_button(tr(S::paste_measurement), id.c_str())) ImGui::OpenPopup("measure_popup");
      }
      ImGui::Unindent();
    }
    ImGui::PopTextWrapPos();
  }
  if (ImGui::BeginPopup("measure_popup")) {
    ImGui::PushTextWrapPos(em() * 36);
    const nlohmann::json on = measured_on(c);
    changed |= draw_paste_box(app, &on, "planner_measure");
    ImGui::PopTextWrapPos();
    ImGui::EndPopup();
  }
  return changed;
}

}  // namespace

void select_plan(PlannerState& p, const PlanCandidate& c) {
  if (!p.run) return;
  p.selected = c;
  p.details =
      plan_details(c, p.run->parse.scenario_json, *p.run->parse.question, *p.run->catalog, default_calibration());
}

void form_from_question(PlannerState& p, const Question& q) {
  const Constraints& c = q.constraints;
  p.objective = static_cast<int>(q.objective);
  p.max_gpus = c.max_gpus;
  p.deadline_days = c.deadline_days;
  p.budget_usd = c.budget_usd;
  p.providers = c.providers;
  p.accelerators = c.accelerators;
  p.regions = c.regions;
  p.spot = c.spot;
  p.currency = 0;
  for (int i = 0; i < static_cast<int>(std::size(kFormCurrencies)); ++i)
    if (c.currency == kFormCurrencies[i]) p.currency = i;
  p.limit_start = c.start_within_days.has_value();
  p.start_within_days = c.start_within_days.value_or(0);
  p.provider_kinds = c.provider_kinds;
  p.debug_hours = c.debug_hours;
  p.error = {};
  p.run.reset();
  p.selected.reset();
  p.details.reset();
  p.order.clear();
}

const std::string& planner_fragment(AppState& app) {
  PlannerState& p = app.planner;
  if (!app.has_result) return app.fragment;
  const Catalog& catalog = app_catalog(app);
  std::string q = form_question(app, p, catalog);
  if (q != p.question_json) {
    const LinkEncode link = encode_link(q, catalog);
    p.fragment = link.ok ? link.fragment : app.fragment;
    p.question_json = std::move(q);
  }
  return p.fragment;
}

bool draw_planner(AppState& app) {
  PlannerState& p = app.planner;
  if (p.run_on_open && app.has_result && !p.run) {  // a question link: its search starts on opening
    p.run_on_open = false;
    start_run(app, p);
  }
  g_currency = Currency::usd;
  if (p.run && p.run->parse.question) {
    const Question& q = *p.run->parse.question;
    g_currency = question_currency(q);
    g_usd_to_cny = q.base.pricing.usd_to_cny;
  }
  text_wrapped_disabled(tr(S::planner_question));
  draw_form(app, p);
  const bool running = p.run && p.run->planner;
  if (!running) {
    if (ImGui::Button(tr(S::run_planner))) start_run(app, p);
    record_widget("planner.run");
  } else {
    if (ImGui::Button(tr(S::cancel))) {
      p.run->planner.reset();
      p.run->cancelled = true;
    }
    record_widget("planner.cancel");
  }
  bool more = false;
  if (p.run && p.run->planner) {
    run_slice(p);
    more = true;  // keep frames coming while the search runs
  }
  if (!p.run) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr(S::planner_hint));
    return more;
  }
  PlannerRun& r = *p.run;
  if (r.planner) {
    ImGui::SameLine();
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, tr(S::searching), 100 * r.planner->progress(),
                  format_count(static_cast<double>(r.planner->evaluated())).c_str());
    ImGui::ProgressBar(static_cast<float>(r.planner->progress()), ImVec2(-1, 0), overlay);
    record_widget("planner.progress");
    return more;
  }
  if (r.cancelled) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr(S::cancelled));
    return more;
  }
  if (!r.result) return more;
  const PlanResult& res = *r.result;
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled(tr(S::searched_summary), format_count(static_cast<double>(res.space)).c_str(),
                      format_count(static_cast<double>(res.evaluated)).c_str(), res.offerings,
                      format_duration(r.elapsed_ms / 1000).c_str());
  batch_line(r);
  if (r.fragment != app.fragment && p.used_fragment != app.fragment) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
    ImGui::TextWrapped("%s", tr(S::stale_question));
    ImGui::PopStyleColor();
  }
  {
    static const S reasons[] = {S::rej_memory,    S::rej_divisibility,  S::rej_batch,     S::rej_deadline,
                                S::rej_budget,    S::rej_no_price,      S::rej_software,  S::rej_network,
                                S::rej_precision, S::rej_provider_kind, S::rej_lead_time, S::rej_no_rdma};
    static_assert(std::size(reasons) == static_cast<size_t>(RejectReason::count), "one string per reason");
    std::string line = tr(S::rejected);
    for (int i = 0; i < static_cast<int>(RejectReason::count); ++i) {
      if (!res.rejected[i]) continue;
      line += "  ";
      line += tr(reasons[i]);
      line += " " + format_count(static_cast<double>(res.rejected[i]));
    }
    text_wrapped_disabled(line.c_str());
  }
  if (res.plans.empty()) {
    no_plan_text(r, res);
    return more;
  }
  if (ImGui::SmallButton(tr(S::download_csv))) platform_download("llmplan-plans.csv", "text/csv", plans_csv(res));
  record_widget("planner.csv");
  draw_selection(app, p, res);
  draw_table(p, res);
  for (const PlanResult::Within& w : res.within) {  // the best plan takes over a month
    char line[256];
    std::snprintf(line, sizeof line, tr(S::within_fmt), w.days, w.plan.instance->id.c_str(), w.plan.gpus(),
                  format_duration(w.plan.total_hours * 3600).c_str(), plan_money(w.plan.cost_usd).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
    ImGui::TextWrapped("%s", line);
    ImGui::PopStyleColor();
  }
  if (res.one_machine_only) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
    ImGui::TextWrapped("%s", tr(S::n_one_machine_only));
    ImGui::PopStyleColor();
  }
  draw_pareto(p, res);
  return draw_details(app, p) || more;
}

}  // namespace llmplan::web
