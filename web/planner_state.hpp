// planner_state.hpp: what the planner, design-space and topology tabs keep between frames: the
// planner form, the search running in slices, its result and the selected plan's details; the
// cached design-space grid; the topology colouring. All numbers come from core.
#pragma once
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llmplan/catalog.hpp"
#include "llmplan/design_space.hpp"
#include "llmplan/planner.hpp"
#include "platform.hpp"

namespace llmplan::web {

// Planner and design-space work per frame: steps run until the frame's slice has passed. A slice
// is as long as the rest of the previous frame took (drawing, compositing, presenting, waiting
// for the display), from kPlannerSliceMs to kPlannerSliceMaxMs: the search then takes about half
// of the time on a device whose frames are slow (a phone, software WebGL at 4K: there a fixed
// 6 ms was 2 % of a 300 ms frame and the search crawled). The last step may overrun the slice
// by up to one offering at one node count (about 15 ms), so the cap keeps a frame's own work
// under the 50 ms a long task takes.
inline constexpr double kPlannerSliceMs = 6.0;
inline constexpr double kPlannerSliceMaxMs = 12.0;
inline double planner_slice_ms(double frame_interval_ms, double previous_slice_ms) {
  return std::clamp(frame_interval_ms - previous_slice_ms, kPlannerSliceMs, kPlannerSliceMaxMs);
}

// One frame's share of a search (the planner's or the design space's): step() runs, each call
// returning true once the search is done, until this frame's slice has passed; the slice's time
// is appended to slice_ms. Returns whether the search is done and when the slice ended.
struct SearchSlice {
  bool done = false;
  double end_ms = 0;
};
template <class Step>
SearchSlice run_search_slice(std::vector<double>& slice_ms, Step step) {
  const double t0 = platform_now_ms();
  const double slice = planner_slice_ms(platform_frame_interval_ms(), slice_ms.empty() ? 0 : slice_ms.back());
  SearchSlice out;
  while (!out.done && platform_now_ms() - t0 < slice) out.done = step();
  out.end_ms = platform_now_ms();
  slice_ms.push_back(out.end_ms - t0);
  return out;
}
inline constexpr int kPlannerTopN = 30;

struct PlannerRun {
  std::shared_ptr<const Catalog> catalog;  // the search's own copy: plans point into it
  QuestionParse parse;                     // the question (its scenario part and the parsed Question)
  std::string question_json;               // what `llmplan plan` takes for the same search
  std::string fragment;                    // app.fragment when it started (the scenario it plans)
  std::unique_ptr<Planner> planner;        // while running
  std::optional<PlanResult> result;        // when complete
  bool cancelled = false;
  double started_ms = 0, elapsed_ms = 0;
  std::vector<double> slice_ms;  // planner time per frame (benchmark, test hook)
};

struct PlannerState {
  // The form (constraints of issue 5).
  int objective = static_cast<int>(Objective::min_cost);
  int max_gpus = 1024;
  double deadline_days = 0;                          // 0: none
  double budget_usd = 0;                             // 0: none
  std::vector<std::string> providers, accelerators;  // empty: all
  bool spot = false;
  int currency = 0;                         // 0 any, 1 USD-priced offerings only, 2 CNY-priced only
  bool limit_start = false;                 // constraints.start_within_days given
  double start_within_days = 0;             // providers that start a job within this many days
  std::vector<std::string> provider_kinds;  // empty: all
  double debug_hours = 8;                   // constraints.debug_hours (payment.hpp kDefaultDebugHours)
  std::vector<std::string> regions;         // constraints.regions of a question link (no control)
  InputError error;                         // the last question that did not parse
  // While the tab is open the page's link is its question (the scenario's question part and the
  // form), so a link reproduces the search: the question last encoded, its link, and the link last
  // written. A question link opens the tab and runs it.
  bool active = false;
  bool select = false;
  bool run_on_open = false;
  std::string question_json, fragment, written;

  std::unique_ptr<PlannerRun> run;
  int sort_column = 0;
  bool sort_descending = false;
  std::vector<int> order;  // table rows in display order (indices into result->plans)
  // The selected plan (from the table, the scatter or the heat map) and its details.
  std::optional<PlanCandidate> selected;
  std::optional<PlanDetails> details;
  std::string used_fragment;  // app.fragment after "use this plan"
  std::string copied;         // id of the artefact last copied
};

struct DesignState {
  std::string fragment;  // app.fragment the grid was computed for
  std::string key;       // its question JSON: recompute only when this changes
  std::shared_ptr<const Catalog> catalog;
  QuestionParse parse;
  std::unique_ptr<DesignSpace> space;
  bool done = false;
  bool show_time = false;  // colour by time instead of cost
  double started_ms = 0, elapsed_ms = 0;
  std::vector<double> slice_ms;
  std::vector<float> values;  // per cell: 0..1 on the log colour scale, -1 infeasible
};

struct TopologyState {
  int color_by = 0;  // 0 TP group, 1 PP stage, 2 DP group, 3 CP group, 4 EP group (RankGroup order)
};

// Selects a plan of the current run and computes its details (advice, artefacts, checklist).
void select_plan(PlannerState& p, const PlanCandidate& c);
// Sets the form from a question (a question link), clearing the last search.
void form_from_question(PlannerState& p, const Question& q);

}  // namespace llmplan::web
