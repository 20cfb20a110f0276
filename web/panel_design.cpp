// panel_design.cpp: the design-space tab: accelerator (rows) x GPU count (columns) -> the cost
// or time of the best plan core's DesignSpace finds for that cell, drawn through the project's
// own WebGL2 shader (gl_heatmap.cpp) with a viridis colour legend. The grid is computed in
// time-boxed slices while the tab is open and cached until the scenario's question changes.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "app.hpp"
#include "gl_heatmap.hpp"
#include "i18n.hpp"
#include "imgui.h"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

// The grid's question: the scenario's, at the lowest cost, over the planner form's providers and spot.
void restart(AppState& app, DesignState& d) {
  d.fragment = app.fragment;
  if (!app.error.field.empty()) return;  // keep the last grid while the inputs are invalid
  const PlannerState& p = app.planner;
  Constraints c;
  c.max_gpus = std::end(kDesignGpuCounts)[-1];
  c.providers = p.providers;
  c.spot = p.spot;
  auto catalog = std::make_shared<const Catalog>(app_catalog(app));
  const std::string question =
      write_question(question_scenario_json(app.scenario, *catalog), Objective::min_cost, c, 1);
  if (question == d.key && (d.space || !d.parse.error.field.empty())) return;
  d.key = question;
  d.catalog = catalog;
  d.parse = parse_question(question, *catalog);
  d.space.reset();
  d.values.clear();
  d.done = false;
  d.slice_ms.clear();
  if (!d.parse.question) return;
  d.space = std::make_unique<DesignSpace>(*d.parse.question, *d.catalog, default_calibration());
  d.started_ms = platform_now_ms();
}

// The colour coordinate of each cell: log scale between the grid's extremes (presentation only).
void update_values(DesignState& d) {
  const DesignGrid& g = d.space->grid();
  const double lo = d.show_time ? g.min_hours : g.min_cost_usd, hi = d.show_time ? g.max_hours : g.max_cost_usd;
  d.values.assign(g.cells.size(), -1.0f);
  for (size_t i = 0; i < g.cells.size(); ++i) {
    if (!g.cells[i].feasible) continue;
    const double v = d.show_time ? g.cells[i].plan.total_hours : g.cells[i].plan.cost_usd;
    d.values[i] = hi > lo * 1.0001 ? static_cast<float>(std::log(v / lo) / std::log(hi / lo)) : 0.5f;
  }
}

std::string metric_text(const AppState& app, const DesignState& d, double v) {
  return d.show_time ? format_duration(v * 3600) : app_money(app, v, app.scenario.pricing.currency);
}

void use_cell(AppState& app, DesignState& d, const PlanCandidate& c) {
  const PlanDetails details =
      plan_details(c, d.parse.scenario_json, *d.parse.question, *d.catalog, default_calibration());
  if (!details.ok) return;
  app_set_input(app, details.scenario_json);
  d.fragment = app.fragment;  // the question is unchanged: keep the grid
}

void draw_grid(AppState& app, DesignState& d) {
  const DesignGrid& g = d.space->grid();
  const int rows = static_cast<int>(g.accelerators.size()), cols = static_cast<int>(g.gpu_counts.size());
  if (rows == 0 || cols == 0) return;
  float label_w = 0;
  for (const std::string& a : g.accelerators) label_w = std::max(label_w, ImGui::CalcTextSize(a.c_str()).x);
  label_w += 0.8f * em();
  const float w = ImGui::GetContentRegionAvail().x;
  const float cell_h = std::max(1.25f * em(), ImGui::GetTextLineHeight() + 0.3f * em());
  const float grid_w = std::max(10 * em(), w - label_w - 0.5f * em());
  const float top_axis = 1.5f * em();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 a(origin.x + label_w, origin.y + top_axis);
  const ImVec2 b(a.x + grid_w, a.y + cell_h * static_cast<float>(rows));
  ImGui::InvisibleButton("heatmap", ImVec2(label_w + grid_w, top_axis + cell_h * static_cast<float>(rows)));
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked();
  widget_rects().push_back({"design.heatmap", a.x, a.y, b.x - a.x, b.y - a.y});  // the cells only
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover = -1;
  const bool inside = hovered && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
  if (inside) {
    const int c = std::clamp(static_cast<int>((mouse.x - a.x) / (grid_w / static_cast<float>(cols))), 0, cols - 1);
    const int r = std::clamp(static_cast<int>((mouse.y - a.y) / cell_h), 0, rows - 1);
    hover = r * cols + c;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (!heatmap_draw(dl, a, b, d.values, rows, cols, hover)) {
    ImGui::TextColored(palette::kError, tr(S::shader_failed), heatmap_error().c_str());
    return;
  }
  const ImU32 label = palette::kHeatmapLabel;
  for (int c = 0; c < cols; ++c) {
    char t[16];
    std::snprintf(t, sizeof t, "%d", g.gpu_counts[static_cast<size_t>(c)]);
    const float x =
        a.x + (static_cast<float>(c) + 0.5f) * grid_w / static_cast<float>(cols) - ImGui::CalcTextSize(t).x / 2;
    dl->AddText(ImVec2(x, origin.y + 0.1f * em()), label, t);
  }
  dl->AddText(ImVec2(origin.x, origin.y + 0.1f * em()), palette::kHeatmapAxisTitle, tr(S::col_gpus));
  for (int r = 0; r < rows; ++r) {
    const char* t = g.accelerators[static_cast<size_t>(r)].c_str();
    const float y = a.y + (static_cast<float>(r) + 0.5f) * cell_h - ImGui::GetTextLineHeight() / 2;
    dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(t).x - 0.4f * em(), y),
                r < g.rows_done ? label : palette::kHeatmapPending, t);
  }
  if (hover < 0) return;
  const DesignCell& cell = g.cells[static_cast<size_t>(hover)];
  const std::string& acc = g.accelerators[static_cast<size_t>(hover / cols)];
  const int gpus = g.gpu_counts[static_cast<size_t>(hover % cols)];
  ImGui::BeginTooltip();
  if (!cell.feasible) {
    ImGui::Text(tr(S::design_cell_none), acc.c_str(), gpus);
  } else {
    const PlanCandidate& p = cell.plan;
    ImGui::Text("%d x %s  (%s, %d x %d)", gpus, acc.c_str(), p.instance->id.c_str(), p.nodes, p.gpus_per_node());
    ImGui::Text(tr(S::layout_fmt), p.layout.tp, p.layout.pp, p.dp(), layout_extra_text(p.layout).c_str(), p.layout.zero,
                p.layout.offload == Offload::cpu ? tr(S::cpu_offload) : "", p.layout.micro_batch,
                recompute_label(p.layout).c_str());
    ImGui::Text("%s: %s   %s: %s   %s: %s", tr(S::col_time), format_duration(p.total_hours * 3600).c_str(),
                tr(S::col_cost), app_money(app, p.cost_usd, app.scenario.pricing.currency).c_str(), tr(S::col_mfu),
                format_percent(p.mfu).c_str());
    ImGui::TextDisabled("%s", tr(S::click_to_use));
    if (clicked) use_cell(app, d, p);
  }
  ImGui::EndTooltip();
}

// The accelerators with no plan at any size, named: a grey row says nothing of why (too little
// memory on the one machine an offering has, or no priced multi-node network for it).
void empty_rows_line(const DesignGrid& g) {
  std::string names;
  for (size_t row = 0; row < g.accelerators.size(); ++row) {
    bool any = false;
    for (size_t col = 0; col < g.gpu_counts.size(); ++col) any = any || g.at(row, col).feasible;
    if (!any) names += (names.empty() ? "" : ", ") + g.accelerators[row];
  }
  if (names.empty()) return;
  char line[1024];
  std::snprintf(line, sizeof line, tr(S::design_empty_rows), names.c_str());
  text_wrapped_disabled(line);
}

void draw_legend(const AppState& app, DesignState& d) {
  const DesignGrid& g = d.space->grid();
  const double lo = d.show_time ? g.min_hours : g.min_cost_usd, hi = d.show_time ? g.max_hours : g.max_cost_usd;
  if (hi <= 0) return;
  const float w = std::min(ImGui::GetContentRegionAvail().x, 32 * em());
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 a(origin.x + 0.6f * em(), origin.y), b(origin.x + w - 2.5f * em(), origin.y + 0.9f * em());
  ImGui::Dummy(ImVec2(w, 2.4f * em()));
  record_widget("design.legend");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  heatmap_draw_legend(dl, a, b);
  const ImU32 label = palette::kHeatmapLabel;
  // Five ticks; a label that would touch a shown one is left out (the two ends always show):
  // wide figures such as yuan totals do not fit five across.
  struct Tick {
    float left, right;
    std::string text;
  };
  std::array<Tick, 5> ticks;
  for (int i = 0; i <= 4; ++i) {
    const double t = i / 4.0;
    const double v = hi > lo * 1.0001 ? lo * std::pow(hi / lo, t) : lo;
    const float x = a.x + static_cast<float>(t) * (b.x - a.x);
    dl->AddLine(ImVec2(x, b.y), ImVec2(x, b.y + 0.3f * em()), label);
    Tick& k = ticks[static_cast<size_t>(i)];
    k.text = metric_text(app, d, v);
    const float tw = ImGui::CalcTextSize(k.text.c_str()).x;
    k.left = std::clamp(x - tw / 2, origin.x, std::max(origin.x, b.x + 2.5f * em() - tw));
    k.right = k.left + tw;
  }
  std::array<bool, 5> shown = {true, false, false, false, true};
  const float gap = 0.6f * em();
  for (size_t i : {2u, 1u, 3u}) {
    bool clear = true;
    for (size_t j = 0; j < ticks.size(); ++j)
      if (shown[j] && ticks[i].left < ticks[j].right + gap && ticks[j].left < ticks[i].right + gap) clear = false;
    shown[i] = clear;
  }
  for (size_t i = 0; i < ticks.size(); ++i)
    if (shown[i]) dl->AddText(ImVec2(ticks[i].left, b.y + 0.35f * em()), label, ticks[i].text.c_str());
  const float gx = b.x + 0.8f * em();
  dl->AddRectFilled(ImVec2(gx, a.y), ImVec2(gx + 0.9f * em(), b.y), palette::kHeatmapNoPlan);
}

}  // namespace

bool draw_design(AppState& app) {
  DesignState& d = app.design;
  if (d.fragment != app.fragment) restart(app, d);
  ImGui::TextDisabled("%s", tr(S::design_title));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(S::design_metric));
  ImGui::SameLine();
  if (ImGui::RadioButton(tr(S::col_cost), !d.show_time)) {
    d.show_time = false;
    d.values.clear();
  }
  record_widget("design.metric.cost");
  ImGui::SameLine();
  if (ImGui::RadioButton(tr(S::col_time), d.show_time)) {
    d.show_time = true;
    d.values.clear();
  }
  record_widget("design.metric.time");
  if (!d.parse.question) {
    if (!d.parse.error.field.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::kError);
      ImGui::TextWrapped("%s %s", tr(S::planner_error), input_error_text(d.parse.error).c_str());
      ImGui::PopStyleColor();
    }
    return false;
  }
  if (!d.space) return false;
  bool more = false;
  if (!d.done) {
    const int before = d.space->grid().rows_done;
    const SearchSlice s = run_search_slice(d.slice_ms, [&d] { return d.space->step(1); });
    d.done = s.done;
    if (d.done) d.elapsed_ms = s.end_ms - d.started_ms;
    if (d.space->grid().rows_done != before) d.values.clear();
    more = !d.done;
  }
  if (d.values.empty()) update_values(d);
  if (!d.done) {
    ImGui::SameLine();
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, tr(S::design_computing), 100 * d.space->progress());
    ImGui::ProgressBar(static_cast<float>(d.space->progress()), ImVec2(-1, 0), overlay);
  } else {
    ImGui::SameLine();
    ImGui::TextDisabled(tr(S::design_done), format_count(static_cast<double>(d.space->evaluated())).c_str(),
                        format_duration(d.elapsed_ms / 1000).c_str());
  }
  draw_grid(app, d);
  draw_legend(app, d);
  ImGui::TextDisabled("%s", tr(S::design_grey));
  if (d.done) empty_rows_line(d.space->grid());
  return more;
}

}  // namespace llmplan::web
