// app.hpp: the app's state (the scenario being edited and its cached estimate) and the frame.
// The app draws what core computes; it computes nothing of its own.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llmplan/catalog.hpp"

#include "llmplan/estimate.hpp"
#include "llmplan/link.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan::web {

struct AppState {
  std::optional<Catalog> user_catalog;  // a catalog the user picked, when it loaded cleanly
  std::string user_catalog_name;
  std::string catalog_error;           // why the last picked file was refused (the built-in one stays)
  Scenario scenario;
  int preset_index = 0;        // index into builtin_catalog().models, or -1 for a custom architecture
  InputError error;            // from validate_scenario(); empty field when the scenario is valid
  EstimateResult result;       // of the last valid scenario
  bool has_result = false;
  bool result_is_stale = false;  // the inputs are invalid; `result` is from the last valid ones
  // The link (location.hash): the fragment last written, what opening a link reported, and
  // older catalog releases fetched for links made with them (by catalog_version).
  std::string fragment;
  std::vector<LinkNotice> link_notices;
  std::vector<std::string> link_changes;
  std::string pending_link;            // waiting for its catalog release to arrive
  struct Release {
    Catalog catalog;
    std::string json;
  };
  std::map<std::string, Release> releases;
  bool copied = false;                 // "copied" feedback next to the buttons
};

// The catalog in use: the one the user picked, else the built-in one.
const Catalog& app_catalog(const AppState& app);
AppState& app_state();  // the one instance (the browser has one app per page)

void app_init(AppState& app);
// Validates `text` as a catalog; on success uses it (keeping the scenario's preset when it exists
// there), otherwise keeps the current catalog and records the diagnostics for the UI.
void app_load_catalog(AppState& app, const std::string& name, const std::string& text);
void app_use_builtin_catalog(AppState& app);
// Re-validates and re-estimates after an edit, and writes the link.
void app_update(AppState& app);
// Opens a link (fragment, "#fragment" or URL) with the catalog release it was made with: a
// fetched one, else the built-in catalog while the release is fetched. Empty: the first view.
void app_open_link(AppState& app, const std::string& link);
void app_load_release(AppState& app, const std::string& text);
void app_release_missing(AppState& app, const std::string& version);
// Draws one frame of UI; returns true when the state changed (so a few more frames are drawn).
bool app_draw(AppState& app);

// Panels, one file each.
bool draw_inputs(AppState& app);
void draw_memory(const AppState& app);

}  // namespace llmplan::web
