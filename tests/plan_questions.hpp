// Planner questions shared by the planner and advice tests, and the plan JSON they answer.
#pragma once
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/planner.hpp"

namespace plan_questions {

inline nlohmann::json plan_of(const std::string& question) {
  const llmplan::PlanJsonResponse r =
      llmplan::plan_json(question, llmplan::builtin_catalog(), llmplan::default_calibration());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return nlohmann::json::parse(r.body);
}

inline const char* const k7bQlora =
    R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
  "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8}})";
inline const char* const k70bFull =
    R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
  "tokens": 2e9, "objective": "min_cost", "constraints": {"max_gpus": 64}})";
inline const char* const k405bPretrain =
    R"({"model": {"preset": "llama-3.1-405b"}, "method": "pretrain", "seq_len": 8192,
  "global_batch": 2048, "tokens": 15e12, "objective": "min_time", "constraints": {"max_gpus": 16384}})";

}  // namespace plan_questions
