// bindings_planner.cpp: test and benchmark hooks of the planner, design-space and topology tabs
// (state only; the computing calls are in bindings_api.cpp):
//   appPlanner() -> {"running", "progress", "done", "cancelled", "question", "elapsed_ms", "slice_ms": [...],
//                    "plans": [{rank, instance, provider, gpus, nodes, pricing_mode, total_hours, cost_usd, mfu, why}],
//                    "pareto", "selected": {instance, gpus, nodes} | null, "error": {field, message} | null,
//                    "form": {objective, max_gpus, deadline_days, budget_usd, spot}}
//   appDesign()  -> {"rows", "columns", "rows_done", "done", "feasible", "elapsed_ms", "slice_ms": [...],
//                    "accelerators": [...], "gpu_counts": [...],
//                    "cells": [{instance, gpus, cost_usd, total_hours} | null], "error"}
#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "app.hpp"

namespace {

using nlohmann::json;

json error_json(const llmplan::InputError& e) {
  return e.field.empty() ? json(nullptr) : json{{"field", e.field}, {"message", e.message}};
}

std::string app_planner() {
  const llmplan::web::PlannerState& p = llmplan::web::app_state().planner;
  json out = {{"running", false},         {"done", false}, {"cancelled", false},  {"progress", 0},
              {"plans", json::array()},   {"pareto", 0},   {"selected", nullptr}, {"error", error_json(p.error)},
              {"slice_ms", json::array()}};
  out["form"] = {{"objective", llmplan::to_string(static_cast<llmplan::Objective>(p.objective))},
                 {"max_gpus", p.max_gpus},
                 {"deadline_days", p.deadline_days},
                 {"budget_usd", p.budget_usd},
                 {"spot", p.spot},
                 {"provider_kinds", p.provider_kinds},
                 {"debug_hours", p.debug_hours}};
  if (!p.run) return out.dump();
  const llmplan::web::PlannerRun& r = *p.run;
  out["running"] = r.planner != nullptr;
  out["progress"] = r.planner ? r.planner->progress() : (r.result ? 1.0 : 0.0);
  out["done"] = r.result.has_value();
  out["cancelled"] = r.cancelled;
  out["question"] = r.question_json;
  out["elapsed_ms"] = r.elapsed_ms;
  out["slice_ms"] = r.slice_ms;
  if (r.result) {
    for (size_t i = 0; i < r.result->plans.size(); ++i) {
      const llmplan::PlanCandidate& c = r.result->plans[i];
      out["plans"].push_back({{"rank", i + 1},
                              {"instance", c.instance->id},
                              {"provider", c.instance->provider},
                              {"accelerator", c.instance->accelerator},
                              {"gpus", c.gpus()},
                              {"nodes", c.nodes},
                              {"pricing_mode", llmplan::to_string(c.mode)},
                              {"total_hours", c.total_hours},
                              {"cost_usd", c.cost_usd},
                              {"mfu", c.mfu},
                              {"why", r.result->why[i]}});
    }
    out["pareto"] = r.result->pareto.size();
  }
  if (p.selected) {
    out["selected"] = {{"instance", p.selected->instance->id},
                       {"gpus", p.selected->gpus()},
                       {"nodes", p.selected->nodes},
                       {"scenario", p.details ? p.details->scenario_json : ""}};
    if (p.details) {  // the ways to pay the details panel shows: cost per way, null when not priced
      const llmplan::PaymentOptions& pay = p.details->payment;
      const auto cost = [](const llmplan::PaymentWay& w) { return w.available ? json(w.cost_usd) : json(nullptr); };
      out["selected"]["payment"] = {{"on_demand", cost(pay.on_demand)},
                                    {"spot", cost(pay.spot)},
                                    {"two_phase", cost(pay.two_phase)},
                                    {"cheapest", pay.cheapest}};
    }
  }
  return out.dump();
}

std::string app_design() {
  const llmplan::web::DesignState& d = llmplan::web::app_state().design;
  json out = {{"rows", 0},
              {"columns", 0},
              {"rows_done", 0},
              {"done", d.done},
              {"feasible", 0},
              {"elapsed_ms", d.elapsed_ms},
              {"slice_ms", d.slice_ms},
              {"error", error_json(d.parse.error)}};
  if (!d.space) return out.dump();
  const llmplan::DesignGrid& g = d.space->grid();
  int feasible = 0;
  for (const llmplan::DesignCell& c : g.cells) feasible += c.feasible;
  out["rows"] = g.accelerators.size();
  out["columns"] = g.gpu_counts.size();
  out["rows_done"] = g.rows_done;
  out["feasible"] = feasible;
  out["accelerators"] = g.accelerators;
  out["gpu_counts"] = g.gpu_counts;
  json cells = json::array();
  for (const llmplan::DesignCell& c : g.cells)
    cells.push_back(c.feasible ? json{{"instance", c.plan.instance->id},
                                      {"gpus", c.plan.gpus()},
                                      {"cost_usd", c.plan.cost_usd},
                                      {"total_hours", c.plan.total_hours}}
                               : json(nullptr));
  out["cells"] = cells;  // row-major, null where nothing runs
  return out.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(llmplan_planner_hooks) {
  emscripten::function("appPlanner", &app_planner);
  emscripten::function("appDesign", &app_design);
}
