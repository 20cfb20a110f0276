// widgets.hpp: small form helpers on top of ImGui: a label column, range-clamped inputs that
// also show steppers (soft keyboards do not open for a canvas), and error highlighting.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"
#include "llmplan/scenario.hpp"

namespace llmplan::web {

inline float em() { return ImGui::GetFontSize(); }  // sizes scale with the font (and so the dpr)

// Where each form widget was drawn this frame (canvas pixels), by its field path: the test hook
// (Module.appWidgets) lets browser tests click real widgets and check the layout.
struct WidgetRect {
  std::string id;
  float x, y, w, h;
};
std::vector<WidgetRect>& widget_rects();  // app_draw clears it at the start of each frame
void record_widget(const char* id);       // the last item, under `id`

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
void form_text(const char* label, const char* text);
void section_header(const char* text);
void help_marker(const char* text);

}  // namespace llmplan::web
