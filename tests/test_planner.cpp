// The planner: the sanity the seeds and the model imply, determinism, constraints and the JSON contract.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/planner.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {
json plan_of(const std::string& question) {
  const PlanJsonResponse r = plan_json(question, builtin_catalog());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return json::parse(r.body);
}
const char* k7bQlora = R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
  "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8}})";
const char* k70bFull = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
  "tokens": 2e9, "objective": "min_cost", "constraints": {"max_gpus": 64}})";
}  // namespace

TEST_CASE("7B QLoRA picks a single GPU") {
  const json r = plan_of(k7bQlora);
  REQUIRE(r["plans"].size() >= 1);
  CHECK(r["plans"][0]["gpus"] == 1);
}

TEST_CASE("70B full fine-tune fits in one or two 8-GPU nodes with ZeRO-3/FSDP or TP x PP") {
  const json r = plan_of(k70bFull);
  const json& best = r["plans"][0];
  CHECK(best["gpus"].get<int>() <= 16);
  CHECK(best["nodes"].get<int>() <= 2);
  const json& l = best["layout"];
  CHECK((l["zero"] == 3 || l["tp"].get<int>() * l["pp"].get<int>() > 1));
}

TEST_CASE("TP never crosses a node in any plan, and plans are deterministic") {
  const json a = plan_of(k70bFull), b = plan_of(k70bFull);
  CHECK(a == b);
  for (const json& p : a["plans"]) {
    const Instance* in = builtin_catalog().find_instance(p["instance"].get<std::string>());
    REQUIRE(in != nullptr);
    CHECK(p["layout"]["tp"].get<int>() <= in->gpus);
  }
}

TEST_CASE("multi-node plans use a published fabric; an RDMA offering beats TCP for the same GPU") {
  const json r = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 4096, "tokens": 2e10,
    "objective": "min_time", "constraints": {"max_gpus": 64, "accelerators": ["h100-sxm5-80gb"]}})");
  for (const json& p : r["plans"]) {
    if (p["nodes"].get<int>() == 1) continue;
    const Instance* in = builtin_catalog().find_instance(p["instance"].get<std::string>());
    CHECK_FALSE(in->inter_node_link.empty());
  }
  CHECK(r["rejected"]["network"].get<int>() > 0);
  const Instance* top = builtin_catalog().find_instance(r["plans"][0]["instance"].get<std::string>());
  const Interconnect* link = builtin_catalog().find_interconnect(top->inter_node_link);
  if (r["plans"][0]["nodes"].get<int>() > 1) CHECK(link->rdma);
}

TEST_CASE("constraints: deadline and budget reject with counted reasons; providers filter") {
  const json tight = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
    "tokens": 2e9, "objective": "min_cost_under_deadline", "constraints": {"max_gpus": 64, "deadline_days": 0.5}})");
  CHECK(tight["rejected"]["deadline"].get<double>() > 0);
  for (const json& p : tight["plans"]) CHECK(p["time"]["total_hours"].get<double>() * 1.3 <= 12.0 + 1e-6);
  const json aws = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048, "tokens": 1e8,
    "objective": "min_time", "constraints": {"providers": ["aws"], "max_gpus": 8}})");
  for (const json& p : aws["plans"]) CHECK(p["provider"] == "aws");
  const json none = plan_of(R"({"model": {"preset": "llama-3.1-405b"}, "method": "full", "seq_len": 4096, "tokens": 1e9,
    "objective": "min_cost", "constraints": {"max_gpus": 1}})");
  CHECK(none["plans"].empty());
  CHECK(none.contains("message"));
}

TEST_CASE("the question is validated like a scenario, and cluster/layout are refused") {
  const PlanJsonResponse a = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "parallel": {"tp": 2}})",
                                       builtin_catalog());
  CHECK_FALSE(a.ok);
  CHECK(a.error.field == "parallel");
  const PlanJsonResponse b = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "cheapest"})",
                                       builtin_catalog());
  CHECK(b.error.field == "objective");
  const PlanJsonResponse c = plan_json(R"({"model": {"preset": "llama-3.1-8b"}})", builtin_catalog());
  CHECK(c.error.field == "tokens");
  const PlanJsonResponse d = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "min_time_under_budget"})",
                                       builtin_catalog());
  CHECK(d.error.field == "constraints.budget_usd");
}

TEST_CASE("the Pareto front is non-dominated and the searched space is stated") {
  const json r = plan_of(k70bFull);
  const json& front = r["pareto"];
  REQUIRE(front.size() >= 1);
  for (size_t i = 1; i < front.size(); ++i) {
    CHECK(front[i]["total_hours"].get<double>() >= front[i - 1]["total_hours"].get<double>());
    CHECK(front[i]["cost_usd"].get<double>() < front[i - 1]["cost_usd"].get<double>());
  }
  CHECK(r["searched"]["layouts"].get<double>() >= r["searched"]["evaluated"].get<double>());
  CHECK(r["searched"]["offerings"].get<int>() > 50);
  CHECK_FALSE(r["plans"][0]["why"].get<std::string>().empty());
}
