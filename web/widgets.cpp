// widgets.cpp: form rows with range clamping and per-field error display.
#include "widgets.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace llmplan::web {
namespace {

const ImVec4 kErrorColor(0.95f, 0.35f, 0.35f, 1.0f);

void label_cell(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-1.0f);
}

// Wraps a widget: red frame while the field is in error, and the message under it.
struct ErrorScope {
  bool active;
  ErrorScope(const char* field, const InputError& e) : active(field && e.field == field) {
    if (active) {
      ImGui::PushStyleColor(ImGuiCol_Border, kErrorColor);
      ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, std::max(1.0f, em() / 8));
    }
  }
  // Ends the red frame (before any tooltip of the widget, which must not inherit it).
  void end_frame() {
    if (!active) return;
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
  }
  void message(const InputError& e) {
    if (!active) return;
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped("%s", e.message.c_str());
    ImGui::PopStyleColor();
  }
};

void range_tooltip(double lo, double hi) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%g .. %g", lo, hi);
}

std::vector<WidgetRect> g_rects;

void record(const char* id) { record_widget(id); }

}  // namespace

void record_widget(const char* id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  g_rects.push_back({id, a.x, a.y, b.x - a.x, b.y - a.y});
}

std::vector<WidgetRect>& widget_rects() { return g_rects; }

bool begin_form(const char* id) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  return true;
}

void end_form() { ImGui::EndTable(); }

bool form_int(const char* label, const char* field, int* value, int lo, int hi, const InputError& error) {
  label_cell(label);
  ErrorScope scope(field, error);
  ImGui::PushID(label);
  bool changed = ImGui::InputInt("##v", value, 1, 8);
  record(field ? field : label);
  ImGui::PopID();
  scope.end_frame();
  range_tooltip(lo, hi);
  scope.message(error);
  if (changed) *value = std::clamp(*value, lo, hi);
  return changed;
}

bool form_double(const char* label, const char* field, double* value, double lo, double hi, const char* format,
                 const InputError& error) {
  label_cell(label);
  ErrorScope scope(field, error);
  ImGui::PushID(label);
  const double step = 1.0, step_fast = 8.0;
  bool changed = ImGui::InputScalar("##v", ImGuiDataType_Double, value, &step, &step_fast, format);
  record(field ? field : label);
  ImGui::PopID();
  scope.end_frame();
  range_tooltip(lo, hi);
  scope.message(error);
  if (changed) *value = std::clamp(*value, lo, hi);
  return changed;
}

bool form_combo(const char* label, const char* field, int* index, const char* const* items, int count,
                const InputError& error) {
  label_cell(label);
  ErrorScope scope(field, error);
  ImGui::PushID(label);
  const bool changed = ImGui::Combo("##v", index, items, count);
  record(field ? field : label);
  ImGui::PopID();
  scope.end_frame();
  scope.message(error);
  return changed;
}

bool form_checkbox(const char* label, bool* value) {
  label_cell(label);
  ImGui::PushID(label);
  const bool changed = ImGui::Checkbox("##v", value);
  record(label);
  ImGui::PopID();
  return changed;
}

void form_text(const char* label, const char* text) {
  label_cell(label);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(text);
}

void section_header(const char* text) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram));
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em() * 30);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace llmplan::web
