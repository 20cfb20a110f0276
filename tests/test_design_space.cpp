// The app's planner helpers in core: the question of an edited scenario, per-plan details as
// structs (the same as `llmplan plan` JSON) and the design-space grid.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/design_space.hpp"
#include "llmplan/planner.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {
Scenario parsed(const std::string& text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}
}  // namespace

TEST_CASE("question_scenario_json drops what the planner searches, and write_question adds the objective") {
  const Scenario s =
      parsed(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "micro_batch": 2,
    "global_batch": 256, "tokens": 2e9, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 16, "gpus_per_node": 8},
    "parallel": {"tp": 8, "zero": 1}, "pricing": {"mode": "spot", "usd_per_gpu_hour": 2.5, "overhead_factor": 1.5}})");
  const json q = json::parse(question_scenario_json(s, builtin_catalog()));
  for (const char* k : {"cluster", "network", "parallel", "micro_batch"}) CHECK_MESSAGE(!q.contains(k), k);
  CHECK(q["pricing"] == json{{"overhead_factor", 1.5}});
  CHECK(q["global_batch"] == 256);
  CHECK(q["model"]["preset"] == "llama-3.1-70b");

  Constraints c;
  c.max_gpus = 64;
  c.deadline_days = 7;
  c.providers = {"aws", "lambda"};
  const std::string text =
      write_question(question_scenario_json(s, builtin_catalog()), Objective::min_cost_under_deadline, c, 20);
  const json w = json::parse(text);
  CHECK(w["objective"] == "min_cost_under_deadline");
  CHECK(w["constraints"] == json{{"max_gpus", 64}, {"deadline_days", 7.0}, {"providers", {"aws", "lambda"}}});
  CHECK(w["top_n"] == 20);
  const QuestionParse parse = parse_question(text, builtin_catalog());
  REQUIRE_MESSAGE(parse.question, parse.error.message);
  CHECK(parse.question->constraints.deadline_days == 7);
  CHECK(parse.question->base.global_batch == 256);
  CHECK(parse.question->base.pricing.overhead_factor == 1.5);
}

TEST_CASE("plan_details gives the structs behind each `llmplan plan` entry") {
  const char* text = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
    "tokens": 2e9, "objective": "min_cost", "constraints": {"max_gpus": 64}})";
  const QuestionParse parse = parse_question(text, builtin_catalog());
  REQUIRE(parse.question);
  const PlanResult res = plan(*parse.question, builtin_catalog(), default_calibration());
  const json body = json::parse(plan_json(text, builtin_catalog(), default_calibration()).body);
  REQUIRE(!res.plans.empty());
  for (size_t i = 0; i < res.plans.size(); ++i) {
    const PlanDetails d =
        plan_details(res.plans[i], parse.scenario_json, *parse.question, builtin_catalog(), default_calibration());
    const json& e = body["plans"][i];
    REQUIRE(d.ok);
    CHECK(json::parse(d.scenario_json) == e["scenario"]);
    CHECK(d.grad_accum == e["layout"]["grad_accum"]);
    CHECK(d.dp == e["layout"]["dp"]);
    CHECK(d.artifacts.torchrun == e["artifacts"]["torchrun"]);
    CHECK(d.advice.rdma_reason == e["advice"]["rdma"]["reason"]);
    CHECK(std::string(to_string(d.advice.tier)) == e["advice"]["tier"]);
    REQUIRE(d.checklist.size() == e["checklist"].size());
    CHECK(d.checklist.front().command == e["checklist"][0]["command"]);
  }
}

TEST_CASE("design space: each cell is the best plan of its accelerator at exactly that GPU count") {
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
    "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8, "accelerators": ["h100-sxm5-80gb", "l4", "rtx-4090"]}})";
  const QuestionParse parse = parse_question(text, builtin_catalog());
  REQUIRE(parse.question);
  const DesignGrid g = design_space(*parse.question, builtin_catalog(), default_calibration());
  CHECK(g.gpu_counts == std::vector<int>{1, 2, 4, 8});
  CHECK(g.rows_done == static_cast<int>(g.accelerators.size()));
  REQUIRE(g.accelerators.size() >= 2);
  // The same grid in small slices.
  DesignSpace sliced(*parse.question, builtin_catalog(), default_calibration());
  int slices = 0;
  while (!sliced.step(50)) ++slices;
  CHECK(slices > 3);
  CHECK(sliced.progress() == 1.0);
  double cheapest = 1e300;
  for (size_t r = 0; r < g.accelerators.size(); ++r) {
    Question row = *parse.question;
    row.constraints.accelerators = {g.accelerators[r]};
    row.top_n = 1000;
    const PlanResult all = plan(row, builtin_catalog(), default_calibration());
    for (size_t c = 0; c < g.gpu_counts.size(); ++c) {
      const DesignCell& cell = g.at(r, c);
      CHECK(cell.feasible == sliced.grid().at(r, c).feasible);
      bool any = false;
      for (const PlanCandidate& p : all.plans) {
        if (p.gpus() != g.gpu_counts[c]) continue;
        any = true;
        CHECK(cell.plan.cost_usd <= p.cost_usd);
      }
      CHECK(cell.feasible == any);
      if (!cell.feasible) continue;
      CHECK(cell.plan.gpus() == g.gpu_counts[c]);
      CHECK(cell.plan.instance->accelerator == g.accelerators[r]);
      CHECK(cell.plan.cost_usd == sliced.grid().at(r, c).plan.cost_usd);
      cheapest = std::min(cheapest, cell.plan.cost_usd);
    }
  }
  // The grid's cheapest cell is the planner's best plan.
  const PlanResult best = plan(*parse.question, builtin_catalog(), default_calibration());
  REQUIRE(!best.plans.empty());
  CHECK(cheapest == doctest::Approx(best.plans[0].cost_usd));
  CHECK(g.min_cost_usd == doctest::Approx(cheapest));
  CHECK(g.max_cost_usd >= g.min_cost_usd);
}
