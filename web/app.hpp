// app.hpp: the app's state (the scenario being edited and its cached estimate) and the frame.
// The app draws what core computes; it computes nothing of its own.
#pragma once
#include <string>

#include "llmplan/estimate.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan::web {

struct AppState {
  Scenario scenario;
  int preset_index = 0;        // index into builtin_catalog().models, or -1 for a custom architecture
  InputError error;            // from validate_scenario(); empty field when the scenario is valid
  EstimateResult result;       // of the last valid scenario
  bool has_result = false;
  bool result_is_stale = false;  // the inputs are invalid; `result` is from the last valid ones
};

void app_init(AppState& app);
// Re-validates and re-estimates after an edit.
void app_update(AppState& app);
// Draws one frame of UI; returns true when the state changed (so a few more frames are drawn).
bool app_draw(AppState& app);

// Panels, one file each.
bool draw_inputs(AppState& app);
void draw_memory(const AppState& app);

}  // namespace llmplan::web
