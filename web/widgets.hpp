// widgets.hpp: small form helpers on top of ImGui: a label column, range-clamped inputs that
// also show steppers (soft keyboards do not open for a canvas), and error highlighting.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"
#include "llmplan/scenario.hpp"

namespace llmplan::web {

struct AppState;

inline float em() { return ImGui::GetFontSize(); }  // sizes scale with the font (and so the dpr)

// Where each form widget was drawn this frame (canvas pixels), by its field path: the test hook
// (Module.appWidgets) lets browser tests click real widgets and check the layout.
struct WidgetRect {
  std::string id;
  float x, y, w, h;
};
std::vector<WidgetRect>& widget_rects();  // app_draw clears it at the start of each frame
void record_widget(const char* id);       // the last item, under `id`

// Where each piece of text was drawn this frame and the horizontal extent it may use (its
// window, column or widget), for the layout test (Module.appTexts): no two texts overlap and
// none runs past its column. Cleared with widget_rects().
struct TextRect {
  std::string text;
  float x, y, w, h;      // the text
  float x0, x1, y0, y1;  // the clip rectangle it must stay within
};
std::vector<TextRect>& text_rects();
void record_text_item(const char* text = nullptr);  // the last item is text (Text*, wrapped or not)
// A widget that draws `label` inside its frame (button, combo preview): the label must fit.
void record_label_in_item(const char* label, float reserved_right = 0);
// Text helpers that record themselves.
void text(const char* s);  // TextUnformatted
void text_disabled(const char* s);
void text_colored(const ImVec4& color, const char* s);
void text_wrapped(const char* s, const ImVec4* color = nullptr);
// `s` with line breaks where it must wrap to fit `width`: at spaces and between CJK characters,
// never inside a word or a number; only a word wider than the whole line is cut, where it must be.
std::string wrap_text(const char* s, float width);
// A label in a narrow column: wrapped at spaces (and between CJK characters), never inside a word:
// when a word is wider than the column, one line cut with "…", the whole label in its tooltip.
void label_text(const char* s, const ImVec4* color = nullptr);
bool button(const char* label, const char* id = nullptr);  // records the widget under `id`
bool small_button(const char* label, const char* id = nullptr);
void text_wrapped_disabled(const char* s);
// SameLine() when an item `next_w` wide still fits on this line, else a new line (narrow windows).
void flow_same_line(float next_w);
float button_width(const char* label, bool small = false);
// "(?)" that, hovered, shows how result figure `key` was computed: formula, value and unit, and
// the values plugged in (core's Explainer, cached per update in app.explain_index).
void why_marker(const AppState& app, const std::string& key);
// A tooltip with wrapped text for the last item, when hovered.
void item_tooltip(const char* text);
// After a closed combo: its whole preview as a tooltip when the box cuts it ("NVIDIA H800 80GB SXM5
// (China ..." on a narrow form).
void clipped_preview_tooltip(const char* preview);

// A two-column form (label | widget); rows go between begin_form() and end_form().
bool begin_form(const char* id);
void end_form();

// Each row highlights itself and prints the message when `error.field == field`.
bool form_int(const char* label, const char* field, int* value, int lo, int hi, const InputError& error);
bool form_double(const char* label, const char* field, double* value, double lo, double hi, const char* format,
                 const InputError& error);
bool form_combo(const char* label, const char* field, int* index, const char* const* items, int count,
                const InputError& error);
bool form_checkbox(const char* label, bool* value);
void form_text(const char* label, const char* value, const AppState* app = nullptr, const char* key = nullptr);
void section_header(const char* text);
void help_marker(const char* text);

}  // namespace llmplan::web
