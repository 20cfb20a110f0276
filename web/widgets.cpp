// widgets.cpp: form rows with range clamping and per-field error display.
#include "widgets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"
#include "i18n.hpp"
#include "imgui_internal.h"  // FindRenderedTextEnd: the label as drawn, without its ##id
#include "palette.hpp"

namespace llmplan::web {
namespace {

void label_cell(const char* label) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  label_text(label);
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-1.0f);
}

// Wraps a widget: red frame while the field is in error, and the message under it.
struct ErrorScope {
  bool active;
  ErrorScope(const char* field, const InputError& e) : active(field && e.field == field) {
    if (active) {
      ImGui::PushStyleColor(ImGuiCol_Border, palette::kError);
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
    ImGui::PushStyleColor(ImGuiCol_Text, palette::kError);
    ImGui::TextWrapped("%s", input_error_text(e).c_str());
    ImGui::PopStyleColor();
  }
};

void range_tooltip(double lo, double hi) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%g .. %g", lo, hi);
}

std::vector<WidgetRect> g_rects;
std::vector<TextRect> g_texts;

void record(const char* id) { record_widget(id); }

}  // namespace

void record_widget(const char* id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  g_rects.push_back({id, a.x, a.y, b.x - a.x, b.y - a.y});
}

std::vector<WidgetRect>& widget_rects() { return g_rects; }
std::vector<TextRect>& text_rects() { return g_texts; }

void record_text_item(const char* text) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 c0 = dl->GetClipRectMin(), c1 = dl->GetClipRectMax();
  g_texts.push_back({text ? text : "", a.x, a.y, b.x - a.x, b.y - a.y, c0.x, c1.x, c0.y, c1.y});
}

void record_label_in_item(const char* label, float reserved_right) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const char* end = ImGui::FindRenderedTextEnd(label);
  const ImVec2 size = ImGui::CalcTextSize(label, end);
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  g_texts.push_back(
      {std::string(label, end), a.x + pad.x, a.y + pad.y, size.x, size.y, a.x, b.x - reserved_right, a.y, b.y});
}

void text(const char* s) {
  ImGui::TextUnformatted(s);
  record_text_item(s);
}

void text_disabled(const char* s) {
  ImGui::TextDisabled("%s", s);
  record_text_item(s);
}

void text_colored(const ImVec4& color, const char* s) {
  ImGui::TextColored(color, "%s", s);
  record_text_item(s);
}

namespace {

// Whether `c` is a CJK character (a line may break before or after any of them).
bool is_cjk(unsigned int c) { return c >= 0x2E80; }
// CJK punctuation that never starts a line, and that never ends one.
bool closing_cjk(unsigned int c) {
  return std::u32string_view(U"\uFF0C\u3002\uFF1A\uFF1B\u3001\uFF09\uFF01\uFF1F\u300D\u300B").find(c) !=
         std::u32string_view::npos;
}
bool opening_cjk(unsigned int c) { return c == 0xFF08 || c == 0x300C || c == 0x300A; }

}  // namespace

// ImGui's own wrapping also breaks after '.' and ',', so "87.4" could become "87." and "4".
std::string wrap_text(const char* s, float width) {
  const ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  std::string out;
  const char* line = s;       // the current line's start
  const char* cut = nullptr;  // where the line may end, and where the next one then starts
  const char* next = nullptr;
  float w = 0;
  for (const char* p = s; *p;) {
    unsigned int c = 0;
    const char* q = p + ImTextCharFromUtf8(&c, p, nullptr);
    if (c == '\n') {
      out.append(line, q);
      line = q, cut = nullptr, w = 0, p = q;
      continue;
    }
    if (c == ' ') cut = p, next = q;
    if (is_cjk(c) && !closing_cjk(c) && p != line) cut = p, next = p;
    w += font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
    if (c != ' ' && w > width && p != line) {
      if (!cut || cut <= line) cut = p, next = p;  // one word wider than the line
      out.append(line, cut);
      out += '\n';
      line = next, cut = nullptr;
      w = ImGui::CalcTextSize(line, q).x;
    }
    if (is_cjk(c) && !opening_cjk(c)) cut = q, next = q;
    p = q;
  }
  out.append(line);
  return out;
}

void text_wrapped(const char* s, const ImVec4* color) {
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  const std::string wrapped = wrap_text(s, ImGui::GetContentRegionAvail().x - 1);
  ImGui::TextUnformatted(wrapped.c_str());
  if (color) ImGui::PopStyleColor();
  record_text_item(s);
}

bool button(const char* label, const char* id) {
  const bool pressed = ImGui::Button(label);
  if (id) record_widget(id);
  record_label_in_item(label);
  return pressed;
}

bool small_button(const char* label, const char* id) {
  const bool pressed = ImGui::SmallButton(label);
  if (id) record_widget(id);
  record_label_in_item(label);
  return pressed;
}

namespace {

// The widest run of `s` a line may not break inside: Latin words between spaces and CJK characters.
float widest_word(const char* s) {
  float widest = 0;
  const char* start = s;
  for (const char* p = s;;) {
    unsigned int c = 0;
    const int n = *p ? ImTextCharFromUtf8(&c, p, nullptr) : 0;
    if (!*p || c == ' ' || is_cjk(c)) {
      widest = std::max(widest, ImGui::CalcTextSize(start, p).x);
      if (!*p) return widest;
      start = p + n;
    }
    p += n;
  }
}

// The longest prefix of `s` (whole characters) that fits `width` with "…" after it.
std::string elided(const char* s, float width) {
  static const char* kEllipsis = "\xE2\x80\xA6";
  std::string best = kEllipsis;
  for (const char* p = s; *p;) {
    unsigned int c = 0;
    p += ImTextCharFromUtf8(&c, p, nullptr);
    std::string candidate = std::string(s, p) + kEllipsis;
    if (ImGui::CalcTextSize(candidate.c_str()).x > width) break;
    best = std::move(candidate);
  }
  return best;
}

}  // namespace

void label_text(const char* s, const ImVec4* color) {
  const float width = ImGui::GetContentRegionAvail().x;
  if (widest_word(s) <= width) {
    text_wrapped(s, color);
    return;
  }
  const std::string shown = elided(s, width);
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  ImGui::TextUnformatted(shown.c_str());
  if (color) ImGui::PopStyleColor();
  record_text_item(shown.c_str());
  item_tooltip(s);
}

void text_wrapped_disabled(const char* s) {
  const ImVec4 c = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  text_wrapped(s, &c);
}

void flow_same_line(float next_w) {
  const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  const float limit = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (x + next_w <= limit) ImGui::SameLine();
}

float button_width(const char* label, bool small) {
  return ImGui::CalcTextSize(label, nullptr, true).x + (small ? 0.0f : 2.0f) * ImGui::GetStyle().FramePadding.x +
         (small ? 2.0f * ImGui::GetStyle().FramePadding.x : 0.0f);
}

void why_marker(const AppState& app, const std::string& key) {
  ImGui::TextDisabled("(?)");
  record_text_item("(?)");
  if (!ImGui::IsItemHovered()) return;
  const Explanation* e = app_explain(app, key);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(em() * 34);
  ImGui::TextDisabled("%s%s%s", tr(S::why_title), tr(S::label_sep), key.c_str());
  if (e) {
    // "1" is the unit of a ratio (MFU, an efficiency): nothing to print.
    ImGui::Text("= %.6g %s", e->value, e->unit == "1" ? "" : e->unit.c_str());
    // A dollar figure of a yuan scenario: the yuan it shows, and the rate between them.
    if (e->unit == "USD" && app.scenario.pricing.currency == Currency::cny) {
      char line[160];
      std::snprintf(line, sizeof line, tr(S::why_in_yuan), app_money(app, e->value, Currency::cny).c_str(),
                    format_number("%.4g", app.scenario.pricing.usd_to_cny).c_str());
      ImGui::TextUnformatted(line);
    }
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr(S::why_formula));
    ImGui::TextUnformatted(formula_text(e->formula).c_str());
    if (!e->inputs.empty()) {
      ImGui::Spacing();
      ImGui::TextDisabled("%s", tr(S::why_inputs));
      for (const auto& [name, v] : e->inputs) ImGui::BulletText("%s = %.6g", name.c_str(), v);
    }
  } else {
    ImGui::TextUnformatted("-");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void clipped_preview_tooltip(const char* preview) {
  const float room = ImGui::GetItemRectSize().x - ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(preview).x > room) item_tooltip(preview);
}

void item_tooltip(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(em() * 32);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool begin_form(const char* id) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("(?)").x);
  return true;
}

void end_form() { ImGui::EndTable(); }

bool form_int(const char* label, const char* field, int* value, int lo, int hi, const InputError& error) {
  label_cell(label);
  ErrorScope scope(field, error);
  ImGui::PushID(label);
  // Read as a double (panel_inputs.cpp, field_int, says why): 2e3 is 2000 and a huge number is
  // clamped, not wrapped by sscanf("%d").
  double typed = *value;
  const bool changed = ImGui::InputDouble("##v", &typed, 1.0, 8.0, "%.0f");
  record(field ? field : label);
  ImGui::PopID();
  scope.end_frame();
  range_tooltip(lo, hi);
  scope.message(error);
  // Clamped as a double: the int conversion never sees a value out of its range.
  if (changed)
    *value = static_cast<int>(std::lround(std::clamp(typed, static_cast<double>(lo), static_cast<double>(hi))));
  return changed;
}

bool form_double(const char* label, const char* field, double* value, double lo, double hi, const char* format,
                 const InputError& error) {
  label_cell(label);
  ErrorScope scope(field, error);
  ImGui::PushID(label);
  // InputDouble accepts scientific notation (InputScalar's decimal filter drops the 'e').
  bool changed = ImGui::InputDouble("##v", value, 1.0, 8.0, format);
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

void form_text(const char* label, const char* value, const AppState* app, const char* key) {
  label_cell(label);
  ImGui::AlignTextToFramePadding();
  text_wrapped(value);
  if (app && key) {
    ImGui::TableSetColumnIndex(2);
    ImGui::AlignTextToFramePadding();
    why_marker(*app, key);
  }
}

void section_header(const char* label) {
  ImGui::Spacing();
  const ImVec4 c = ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram);
  text_wrapped(label, &c);
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
