// bindings.cpp: the app's own Embind functions (its catalog); the computing ones, shared with the
// API module, are in bindings_api.cpp. window.llmplan (site/app.js) wraps these; keep them thin.
#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "page_form.hpp"
#include "platform.hpp"
#include "widgets.hpp"

extern "C" void llmplan_wake();

namespace {

// The app's file picker hands the chosen file here; the UI shows the outcome.
void load_catalog(const std::string& name, const std::string& text) {
  llmplan::web::app_load_catalog(llmplan::web::app_state(), name, text);
  llmplan_wake();
}

// The catalog the app uses now (built-in or picked) as {catalogVersion, asOf, source, error}.
std::string app_catalog_status() {
  const llmplan::web::AppState& app = llmplan::web::app_state();
  const llmplan::Catalog& c = llmplan::web::app_catalog(app);
  nlohmann::json j = {{"catalogVersion", c.catalog_version},
                      {"asOf", c.as_of},
                      {"source", app.user_catalog     ? app.user_catalog_name
                                 : app.edited_catalog ? "built-in + edits"
                                                      : "built-in"},
                      {"error", app.catalog_error}};
  return j.dump();
}

// location.hash at start-up and on every hashchange the app did not write.
void app_open_link(const std::string& link) {
  llmplan::web::app_open_link(llmplan::web::app_state(), link);
  llmplan_wake();
}
void app_load_release(const std::string& text) { llmplan::web::app_load_release(llmplan::web::app_state(), text); }
void app_release_missing(const std::string& version) {
  llmplan::web::app_release_missing(llmplan::web::app_state(), version);
}
// The form widgets of the last frame, [{id, x, y, w, h}] in CSS pixels (test hook).
std::string app_widgets() {
  nlohmann::json out = nlohmann::json::array();
  const double dpr = llmplan::web::platform_canvas_size().dpr;
  for (const llmplan::web::WidgetRect& r : llmplan::web::widget_rects())
    out.push_back({{"id", r.id}, {"x", r.x / dpr}, {"y", r.y / dpr}, {"w", r.w / dpr}, {"h", r.h / dpr}});
  return out.dump();
}

// Text drawn in the last frame with the rectangle each may use, [{text, x, y, w, h, clip: [x0, y0,
// x1, y1]}] in CSS pixels (layout test: no overlap, nothing past its column).
std::string app_texts() {
  nlohmann::json out = nlohmann::json::array();
  const double dpr = llmplan::web::platform_canvas_size().dpr;
  for (const llmplan::web::TextRect& r : llmplan::web::text_rects())
    out.push_back({{"text", r.text},
                   {"x", r.x / dpr},
                   {"y", r.y / dpr},
                   {"w", r.w / dpr},
                   {"h", r.h / dpr},
                   {"clip", {r.x0 / dpr, r.y0 / dpr, r.x1 / dpr, r.y1 / dpr}}});
  return out.dump();
}

// Touches and pastes from the page (platform_web.cpp's listeners).
void app_touch(int kind, float x, float y) {
  llmplan::web::platform_touch_event(kind, x, y);
  llmplan_wake();
}
void app_key_tap(int key) {
  llmplan::web::platform_key_tap(key);
  llmplan_wake();
}
void app_card_height(float css_px) {
  llmplan::web::platform_set_card_height(css_px);
  llmplan_wake();
}
void app_paste(const std::string& text) {
  llmplan::web::platform_paste(text);
  llmplan_wake();
}

// The scenario input document the app edits (what `llmplan estimate` takes) and how many times
// it was re-parsed.
std::string app_input() { return llmplan::web::app_state().input.dump(); }
int app_updates() { return llmplan::web::app_state().updates; }
std::string app_catalog_edits() { return llmplan::web::app_state().catalog_edits.dump(); }

// The app's current estimate, as the JSON the CLI prints for the same scenario.
std::string app_result() {
  const llmplan::web::AppState& app = llmplan::web::app_state();
  const std::string input = app.error.field.empty()
                                ? app.input.dump()  // what the app shows: the last valid input
                                : llmplan::write_scenario_input(app.scenario, llmplan::web::app_catalog(app));
  return llmplan::estimate_json(input, llmplan::web::app_catalog(app), llmplan::default_calibration()).body;
}

// What opening the last link reported: {"notices": [{field, message, code, args}], "changes": [...], "catalog",
// "model_version", "model_changes": [...]}.
std::string app_link_report() {
  const llmplan::web::AppState& app = llmplan::web::app_state();
  const nlohmann::json notices = nlohmann::json::parse(llmplan::link_notices_json(app.link_notices));
  return nlohmann::json{{"notices", notices},
                        {"changes", app.link_changes},
                        {"catalog", llmplan::web::app_catalog(app).catalog_version},
                        {"model_version", app.link_model_version},
                        {"model_changes", app.link_model_changes}}
      .dump();
}

// The fragment of what the app shows now (tests read it; the address bar shows it 300 ms later).
std::string app_fragment() { return llmplan::web::app_state().fragment; }

// A training config dropped on the page or picked with "Import config": the core's import JSON.
std::string app_import_config(const std::string& text) {
  return llmplan::web::app_import(llmplan::web::app_state(), text);
}

// The "Own or rent" tab's state, for tests: {question, answer, fragment, active}.
std::string app_tco() {
  const llmplan::web::TcoState& t = llmplan::web::app_state().tco;
  return nlohmann::json{{"question", t.question}, {"answer", t.answer}, {"fragment", t.fragment}, {"active", t.active}}
      .dump();
}

// The main inputs as the page's own form fields (site/app.js): page_form.hpp. An edit returns the
// form as it is then, its "error" naming the field the core refused and why.
std::string app_form_fields() { return llmplan::web::page_form_json(llmplan::web::app_state()); }
std::string app_set_field(const std::string& path, const std::string& value_json) {
  llmplan::web::page_form_set(llmplan::web::app_state(), path, value_json);
  llmplan_wake();
  return llmplan::web::page_form_json(llmplan::web::app_state());
}

// Whether the canvas uses the keyboard now (a widget is active, e.g. a field being typed in): its
// Tab moves between the canvas's fields. Otherwise Tab leaves the canvas for the page (app.js).
bool app_keyboard_captured() { return ImGui::GetCurrentContext() && ImGui::IsAnyItemActive(); }

}  // namespace

EMSCRIPTEN_BINDINGS(llmplan_app) {
  emscripten::function("appFormFields", &app_form_fields);
  emscripten::function("appSetField", &app_set_field);
  emscripten::function("appKeyboardCaptured", &app_keyboard_captured);
  emscripten::function("appOpenLink", &app_open_link);
  emscripten::function("appLoadRelease", &app_load_release);
  emscripten::function("appReleaseMissing", &app_release_missing);
  emscripten::function("appFragment", &app_fragment);
  emscripten::function("appTco", &app_tco);
  emscripten::function("appImport", &app_import_config);
  emscripten::function("appWidgets", &app_widgets);
  emscripten::function("appResult", &app_result);
  emscripten::function("appLinkReport", &app_link_report);
  emscripten::function("loadCatalog", &load_catalog);
  emscripten::function("appCatalogStatus", &app_catalog_status);
  emscripten::function("appTexts", &app_texts);
  emscripten::function("appTouch", &app_touch);
  emscripten::function("appPaste", &app_paste);
  emscripten::function("appCardHeight", &app_card_height);
  emscripten::function("appKeyTap", &app_key_tap);
  emscripten::function("appInput", &app_input);
  emscripten::function("appUpdates", &app_updates);
  emscripten::function("appCatalogEdits", &app_catalog_edits);
}
