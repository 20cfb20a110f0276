// estimate.hpp: the one entry point every front end calls (CLI, Embind, the ImGui app).
// estimate() is allocation-free; the JSON wrappers parse, estimate and serialise.
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

enum class WarningCode {
  memory_exceeds,      // the most loaded GPU needs more than it has
  tp_crosses_nodes,    // tensor parallelism spans nodes: every layer waits on the slow link
  seq_exceeds_context, // sequence longer than the preset's trained context
};

struct Warning {
  WarningCode code;
  double value = 0;  // the number behind the warning (bytes, GPUs, tokens)
  double limit = 0;  // what it was compared with
};

struct Warnings {
  std::array<Warning, 8> items{};
  int count = 0;
  void add(Warning w) {
    if (count < static_cast<int>(items.size())) items[static_cast<size_t>(count++)] = w;
  }
};

struct EstimateResult {
  ParamCount params;
  int dp = 1;
  int global_batch = 1;
  int grad_accum = 1;
  MemoryResult memory;
  Warnings warnings;
};

// `max_context` is the preset's trained context (0 when unknown).
EstimateResult estimate(const Scenario& s, int max_context = 0);

const char* warning_code(WarningCode code);
std::string warning_message(const Warning& w);

struct JsonResponse {
  bool ok = false;
  std::string body;   // the result JSON, or {"error": {"field", "message"}} when !ok
  InputError error;
};

// Parses a scenario, estimates it and serialises the result: the CLI and window.llmplan.estimate
// both call exactly this.
JsonResponse estimate_json(std::string_view scenario_json, const Catalog& catalog);

}  // namespace llmplan
