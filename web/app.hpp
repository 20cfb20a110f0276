// app.hpp: the app's state (the scenario being edited and its cached estimate) and the frame.
// The app draws what core computes; it computes nothing of its own.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "llmplan/advice.hpp"
#include "llmplan/calibrate.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/explain.hpp"
#include "llmplan/link.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/scenario.hpp"
#include "planner_state.hpp"

namespace llmplan::web {

// The "Own or rent" tab (panel_tco.cpp): the ownership question `llmplan tco` takes, edited by
// its form, and the answer of the last valid one.
struct TcoState {
  nlohmann::json question = {{"servers", {{"accelerator", "h100-sxm5-80gb"}}}};
  nlohmann::json answer;  // tco_json's answer
  InputError error;
  std::string fragment;  // the question's link
  bool dirty = true;     // re-compute before drawing
  bool active = false;   // the tab is open: the page's link is the question's
  bool select = false;   // open the tab on the next frame (a link to it was opened)
  // The user edited the question, or a link opened it: until then it follows the scenario's
  // accelerator and currency.
  bool edited = false;
};

struct AppState {
  std::optional<Catalog> user_catalog;  // a catalog the user picked, when it loaded cleanly
  std::string user_catalog_name;
  std::string catalog_error;  // why the last picked file was refused (the built-in one stays)
  // The user's own catalog edits (instance price overrides, custom GPUs; localStorage
  // "llmplan.catalogEdits") applied to the built-in catalog and validated by load_catalog.
  nlohmann::json catalog_edits = nlohmann::json::object();
  std::optional<Catalog> edited_catalog;
  std::string edited_catalog_json;
  std::string edits_error;  // why the edits were refused (the built-in catalog stays)
  // The scenario INPUT document (docs/scenario.md; what `llmplan estimate` takes) is the
  // source of truth: widgets edit it and every edit re-parses it with parse_scenario, so the app,
  // the CLI and links share one path. `scenario` is the last successful parse.
  nlohmann::json input = nlohmann::json::object();
  Scenario scenario;
  int preset_index = 0;   // index into app_catalog(app).models, or -1 for a custom architecture
  InputError error;       // from parse_scenario(); empty field when the input is valid
  EstimateResult result;  // of the last valid scenario
  Explainer explainer;    // the result's explanations ("why"), recorded once per update
  std::unordered_map<std::string, size_t> explain_index;  // result key -> explainer.items() index
  std::vector<FigureRange> ranges;                        // the headline figures' 80 % ranges (llmplan/ranges.hpp)
  PlanAdvice advice;  // node sizing, RDMA, data and checkpoint placement (llmplan::advise)
  TrialReport trial;  // what the scenario's measurements pinned down (llmplan/calibrate.hpp)
  bool has_result = false;
  bool result_is_stale = false;  // the inputs are invalid; `result` is from the last valid ones
  // Typing passes through numbers nobody meant (5, 50, ... on the way to 5000000000): the input
  // last estimated, and the one it stood at while no field was being typed in. An invalid edit
  // shows, and links, the settled input, not the last keystroke that happened to parse.
  std::string estimated_input;
  std::string settled_input;
  // The link (location.hash): the fragment last written, what opening a link reported, and
  // older catalog releases fetched for links made with them (by catalog_version).
  std::string fragment;
  std::vector<LinkNotice> link_notices;
  // What the last imported config gave (app_import): its format, then each key not imported and why.
  std::string import_format;
  struct ImportNotice {
    std::string field, message;
  };
  std::vector<ImportNotice> import_notices;
  std::vector<std::string> link_changes;
  int link_model_version = 0;                   // the estimator model the link was made with (`mv`)
  std::vector<std::string> link_model_changes;  // the estimator changes since then (model_version.hpp)
  std::string pending_link;                     // waiting for its catalog release to arrive
  struct Release {
    Catalog catalog;
    std::string json;
  };
  std::map<std::string, Release> releases;
  bool copied = false;          // "copied" feedback next to the buttons
  bool select_results = false;  // open the Results tab next frame ("Use this plan")
  std::string export_note;      // feedback of the last export ("copied", "downloaded")
  std::string measure_status;   // what reading a pasted log found, or why it changed nothing
  bool measure_error = false;
  int updates = 0;         // how many times the input was re-parsed (tests, bench)
  PlannerState planner;    // the planner tab (panel_planner.cpp)
  DesignState design;      // the design-space heat map (panel_design.cpp)
  TopologyState topology;  // the cluster sketch (panel_topology.cpp)
  TcoState tco;            // own or rent (panel_tco.cpp)
};

// The catalog in use: the one the user picked, else the built-in one.
const Catalog& app_catalog(const AppState& app);
AppState& app_state();  // the one instance (the browser has one app per page)

void app_init(AppState& app);
// Validates `text` as a catalog; on success uses it (keeping the scenario's preset when it exists
// there), otherwise keeps the current catalog and records the diagnostics for the UI.
void app_load_catalog(AppState& app, const std::string& name, const std::string& text);
void app_use_builtin_catalog(AppState& app);
// Re-parses the input document, re-estimates (with explanations and advice), writes the link.
void app_update(AppState& app);
// Called every frame: once no field is being typed in and the input is valid, it is the one an
// invalid edit falls back to.
void app_settle_input(AppState& app);
// Replaces the scenario input document (e.g. a plan's scenario) and updates.
void app_set_input(AppState& app, const std::string& input_json);
// The explanation of result figure `key` ("time.step_s"), or nullptr.
const Explanation* app_explain(const AppState& app, const std::string& key);
// A cost in USD as money in `c`, at the exchange rate the scenario's estimate used.
std::string app_money(const AppState& app, double usd, Currency c);
// " (low–high)" of ranged figure `path`, each bound written by `format`; empty without a range.
std::string app_range_text(const AppState& app, std::string_view path,
                           const std::function<std::string(double)>& format);
// Applies the user's catalog edits (JSON text; empty: none) and keeps them when they validate.
void app_set_catalog_edits(AppState& app, const std::string& edits_json);
// Opens a link (fragment, "#fragment" or URL) with the catalog release it was made with: a
// fetched one, else the built-in catalog while the release is fetched. Empty: the first view.
void app_open_link(AppState& app, const std::string& link);
// Imports a training config (Hugging Face config.json, DeepSpeed, accelerate, LLaMA-Factory,
// axolotl, torchrun; core import_config) into the scenario: a config.json replaces the model, a
// training config sets its fields; keys not imported are listed. Returns the core's import JSON.
std::string app_import(AppState& app, const std::string& text);
void app_load_release(AppState& app, const std::string& text);
void app_release_missing(AppState& app, const std::string& version);
// Draws one frame of UI; returns true when the state changed (so a few more frames are drawn).
bool app_draw(AppState& app);

// Panels, one file each.
bool draw_inputs(AppState& app);
void draw_memory(const AppState& app);
bool draw_results(AppState& app);
bool draw_catalog(AppState& app);
bool draw_planner(AppState& app);  // true while a search runs (frames continue)
// The page's link while the planner tab is open: the link of the question it asks (PlannerState).
const std::string& planner_fragment(AppState& app);
bool draw_design(AppState& app);  // true while the grid is computed
bool draw_topology(AppState& app);
bool draw_tco(AppState& app);
void tco_update(AppState& app);  // re-computes the ownership answer and its link
// "Paste your measurement": a log read into the calibration block; `measured_on` (may be null) is
// the configuration the trial ran (a planner plan). True when the input changed.
bool draw_paste_box(AppState& app, const nlohmann::json* measured_on, const char* id);

}  // namespace llmplan::web
