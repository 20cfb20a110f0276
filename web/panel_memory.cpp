// panel_memory.cpp: the per-GPU memory result: verdict, stacked bar against capacity, table.
#include <algorithm>
#include <cstdio>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

struct Component {
  S label;
  double bytes;
  ImU32 color;
  const char* key;  // result key of its explanation
};

int components(const MemoryBreakdown& m, Component out[7]) {
  const Component all[] = {
      {S::weights, m.weights, palette::kSeriesBlue, "memory.per_gpu_bytes.weights"},
      {S::gradients, m.gradients, palette::kSeriesOrange, "memory.per_gpu_bytes.gradients"},
      {S::optimizer_states, m.optimizer, palette::kSeriesPurple, "memory.per_gpu_bytes.optimizer"},
      {S::activations, m.activations, palette::kSeriesGreen, "memory.per_gpu_bytes.activations"},
      {S::logits, m.logits, palette::kSeriesTeal, "memory.per_gpu_bytes.logits"},
      {S::buffers, m.buffers, palette::kSeriesOchre, "memory.per_gpu_bytes.buffers"},
      {S::runtime, m.runtime, palette::kSeriesGrey, "memory.per_gpu_bytes.runtime"},
  };
  std::copy(std::begin(all), std::end(all), out);
  return 7;
}

void verdict(const AppState& app, const MemoryResult& m) {
  text_colored(m.fits ? palette::kOk : palette::kError, m.fits ? tr(S::fits) : tr(S::does_not_fit));
  ImGui::SameLine();
  char line[256];
  const std::string range = app_range_text(app, "memory.per_gpu_bytes.total", [](double v) { return format_bytes(v); });
  std::snprintf(line, sizeof line, "%s%s %s %s  (%s %s)", format_bytes(m.per_gpu.total()).c_str(), range.c_str(),
                tr(S::of_capacity), format_bytes(m.capacity_bytes).c_str(), m.fits ? tr(S::headroom) : tr(S::over_by),
                format_bytes(m.fits ? m.headroom_bytes : -m.headroom_bytes).c_str());
  text_wrapped(line);
  ImGui::SameLine();
  why_marker(app, "memory.headroom_bytes");
}

// One bar scaled to max(total, capacity); a white tick marks the capacity.
void stacked_bar(const MemoryResult& m, const Component* c, int n) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = em() * 1.6f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double scale_max = std::max(m.per_gpu.total(), m.capacity_bytes);
  dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), palette::kBarTrack, em() * 0.2f);
  float x = p0.x;
  for (int i = 0; i < n; ++i) {
    const float w = static_cast<float>(c[i].bytes / scale_max) * width;
    dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + w, p0.y + height), c[i].color);
    x += w;
  }
  const float cap_x = p0.x + static_cast<float>(m.capacity_bytes / scale_max) * width;
  dl->AddLine(ImVec2(cap_x, p0.y - em() * 0.3f), ImVec2(cap_x, p0.y + height + em() * 0.3f), IM_COL32_WHITE,
              std::max(1.0f, em() / 8));
  ImGui::Dummy(ImVec2(width, height + em() * 0.4f));
}

void breakdown_table(const AppState& app, const MemoryResult& m, const Component* c, int n) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("breakdown", 5, flags)) return;
  ImGui::TableSetupColumn(tr(S::col_component), ImGuiTableColumnFlags_WidthStretch, 2.2f);
  ImGui::TableSetupColumn("GB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("GiB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn(tr(S::col_share), ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("(?)").x);
  ImGui::TableHeadersRow();
  const double total = m.per_gpu.total();
  auto row = [&](const char* label, double bytes, ImU32 color, const char* key, bool share = true) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (color) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float s = em() * 0.7f;
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + em() * 0.2f), ImVec2(p.x + s, p.y + em() * 0.2f + s),
                                                color);
      ImGui::Dummy(ImVec2(s, s));
      ImGui::SameLine();
    }
    label_text(label);
    ImGui::TableSetColumnIndex(1);
    text(format_bytes(bytes).c_str());
    ImGui::TableSetColumnIndex(2);
    text(format_bytes(bytes, ByteUnit::binary).c_str());
    ImGui::TableSetColumnIndex(3);
    if (share) text(format_percent(bytes / total).c_str());
    ImGui::TableSetColumnIndex(4);
    why_marker(app, key);
  };
  for (int i = 0; i < n; ++i) row(tr(c[i].label), c[i].bytes, c[i].color, c[i].key);
  row(tr(S::total), total, 0, "memory.per_gpu_bytes.total");
  row(tr(S::capacity), m.capacity_bytes, 0, "memory.capacity_bytes", false);
  // One process without accumulation: what it holds at the other end of backward, not at the peak.
  if (m.per_gpu.off_peak_gradients > 0)
    row(tr(S::off_peak_gradients), m.per_gpu.off_peak_gradients, 0, "memory.off_peak_bytes.gradients", false);
  if (m.per_gpu.off_peak_activations > 0)
    row(tr(S::off_peak_activations), m.per_gpu.off_peak_activations, 0, "memory.off_peak_bytes.activations", false);
  ImGui::EndTable();
}

void details(const AppState& app) {
  const EstimateResult& r = app.result;
  const MemoryResult& m = r.memory;
  if (!begin_form("details")) return;
  char buf[192];
  if (m.max_micro_batch > 0) {
    std::snprintf(buf, sizeof buf, "%d", m.max_micro_batch);
    form_text(tr(S::max_micro_batch), buf, &app, "memory.max_micro_batch");
  } else {
    form_text(tr(S::max_micro_batch), tr(S::max_micro_batch_none), &app, "memory.max_micro_batch");
  }
  std::snprintf(buf, sizeof buf, tr(S::batch_detail), r.global_batch, app.scenario.micro_batch, r.dp, r.grad_accum);
  if (app.scenario.pp_schedules() > 1) {
    const std::string batch = buf;
    std::snprintf(buf, sizeof buf, tr(S::batch_schedules), batch.c_str(), app.scenario.pp_schedules());
  }
  form_text(tr(S::global_batch), buf, &app, "layout.global_batch");
  if (m.stage != Stage::only) {
    const S names[] = {S::stage_only, S::stage_first, S::stage_last, S::stage_middle};  // by Stage
    form_text(tr(S::stage), tr(names[static_cast<int>(m.stage)]));
  }
  const ParamCount& p = r.params;
  const std::string embeddings = format_count(p.embedding + p.positions + p.head);
  if (p.mtp > 0)
    std::snprintf(buf, sizeof buf, tr(S::params_detail_mtp), format_count(p.per_layer()).c_str(),
                  app.scenario.model.layers, embeddings.c_str(), format_count(p.mtp).c_str());
  else
    std::snprintf(buf, sizeof buf, tr(S::params_detail), format_count(p.per_layer()).c_str(), app.scenario.model.layers,
                  embeddings.c_str());
  form_text(tr(S::params), format_count(p.total).c_str(), &app, "model.params.total");
  form_text("", buf, &app, "model.params.per_layer");
  end_form();
}

}  // namespace

void draw_memory(const AppState& app) {
  section_header(tr(S::section_result));
  if (!app.error.field.empty()) {
    const std::string e = std::string(tr(S::invalid_input)) + tr(S::label_sep) + input_error_text(app.error);
    text_wrapped(e.c_str(), &palette::kError);
  }
  if (!app.has_result) return;
  if (app.result_is_stale) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
  Component c[7];
  const int n = components(app.result.memory.per_gpu, c);
  verdict(app, app.result.memory);
  stacked_bar(app.result.memory, c, n);
  breakdown_table(app, app.result.memory, c, n);
  ImGui::Spacing();
  details(app);
  if (app.result_is_stale) ImGui::PopStyleVar();
  const std::string note = std::string(tr(S::unit_note)) + tr(S::sources_note);  // the note ends its own sentence
  text_wrapped_disabled(note.c_str());
}

}  // namespace llmplan::web
