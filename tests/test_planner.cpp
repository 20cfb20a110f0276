// The planner: what the model implies for reference questions, determinism, constraints, the
// counted search space and the JSON contract.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/planner.hpp"
#include "plan_questions.hpp"

using namespace llmplan;
using namespace plan_questions;
using nlohmann::json;

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
    REQUIRE(builtin_catalog().find_instance(p["instance"].get<std::string>()) != nullptr);
    CHECK(p["layout"]["tp"].get<int>() <= p["gpus"].get<int>() / p["nodes"].get<int>());
  }
}

TEST_CASE("multi-node plans use a published fabric, an RDMA offering beats TCP for the same GPU") {
  const json r =
      plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 4096, "tokens": 2e10,
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

TEST_CASE("constraints: deadline and budget reject with counted reasons, providers filter") {
  const json tight =
      plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
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
                                       builtin_catalog(), default_calibration());
  CHECK_FALSE(a.ok);
  CHECK(a.error.field == "parallel");
  const PlanJsonResponse b =
      plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "cheapest"})", builtin_catalog(),
                default_calibration());
  CHECK(b.error.field == "objective");
  const PlanJsonResponse c =
      plan_json(R"({"model": {"preset": "llama-3.1-8b"}})", builtin_catalog(), default_calibration());
  CHECK(c.error.field == "tokens");
  const PlanJsonResponse d =
      plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "min_time_under_budget"})",
                builtin_catalog(), default_calibration());
  CHECK(d.error.field == "constraints.budget_usd");
  // A provider or accelerator the catalog does not have is refused with the closest ids, not
  // searched into "0 offerings" (a typo would otherwise read as "no plan meets the deadline").
  const PlanJsonResponse e = plan_json(
      R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"providers": ["lambda", "lamda"]}})",
      builtin_catalog(), default_calibration());
  CHECK_FALSE(e.ok);
  CHECK(e.error.field == "constraints.providers");
  CHECK(e.error.message.find("unknown provider \"lamda\"; closest: \"lambda\"") != std::string::npos);
  const PlanJsonResponse f = plan_json(
      R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"accelerators": ["H100-SXM"]}})",
      builtin_catalog(), default_calibration());
  CHECK(f.error.field == "constraints.accelerators");
  CHECK(f.error.message.find("closest: \"h100-sxm5-80gb\"") != std::string::npos);
  // A region no offering names would keep only the offerings listed for every region, silently.
  const PlanJsonResponse h =
      plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"regions": ["us-east1"]}})",
                builtin_catalog(), default_calibration());
  CHECK(h.error.field == "constraints.regions");
  CHECK(h.error.message.find("unknown region \"us-east1\"; closest: \"us-east-1\"") != std::string::npos);
  const PlanJsonResponse g = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9,
      "constraints": {"providers": ["lambda"], "accelerators": ["h100-sxm5-80gb"]}})",
                                       builtin_catalog(), default_calibration());
  CHECK(g.ok);
}

TEST_CASE("plans within 1 % rank by cluster size in one order, whatever order they arrive in") {
  // Minimum cost. A $100.0 on 16 GPUs, B $100.6 on 8, C $101.2 on 4, D $103.0 on 2. Pairwise, B
  // ties A (0.6 % apart: fewer GPUs first), A beats C (1.2 %) and C ties B (0.6 %, fewer GPUs): a
  // cycle, so a sort by the pairwise rule gives what its algorithm happens to give. Greedy, by hand:
  // within 1 % of $100.0 are A and B: B (8 GPUs); then A alone (C is 1.2 % above it); then within
  // 1 % of $101.2 only C; then D. B, A, C, D from each of the 24 arrival orders.
  Instance in;
  in.id = "x-8gpu";
  auto plan_of = [&in](double cost, int gpus) {
    PlanCandidate c;
    c.instance = &in;
    c.cards = gpus;
    c.cost_usd = cost;
    c.total_hours = 10;
    return c;
  };
  std::vector<PlanCandidate> plans = {plan_of(100.0, 16), plan_of(100.6, 8), plan_of(101.2, 4), plan_of(103.0, 2)};
  std::vector<int> order = {0, 1, 2, 3};
  int seen = 0;
  do {
    std::vector<PlanCandidate> arriving;
    for (int i : order) arriving.push_back(plans[i]);
    const std::vector<PlanCandidate> ranked = rank_plans(Objective::min_cost, arriving);
    REQUIRE(ranked.size() == 4);
    CHECK(ranked[0].cost_usd == 100.6);
    CHECK(ranked[1].cost_usd == 100.0);
    CHECK(ranked[2].cost_usd == 101.2);
    CHECK(ranked[3].cost_usd == 103.0);
    ++seen;
  } while (std::next_permutation(order.begin(), order.end()));
  CHECK(seen == 24);
}

TEST_CASE("the Pareto front is non-dominated and the best plan says why") {
  const json r = plan_of(k70bFull);
  const json& front = r["pareto"];
  REQUIRE(front.size() >= 1);
  for (size_t i = 1; i < front.size(); ++i) {
    CHECK(front[i]["total_hours"].get<double>() >= front[i - 1]["total_hours"].get<double>());
    CHECK(front[i]["cost_usd"].get<double>() < front[i - 1]["cost_usd"].get<double>());
  }
  CHECK(r["searched"]["offerings"].get<int>() > 50);
  CHECK_FALSE(r["plans"][0]["why"].get<std::string>().empty());
}

TEST_CASE("the searched space is the layouts.hpp enumeration, counted by hand for two offerings") {
  // AWS H100 in us-east-1 up to 8 GPUs: p5.48xlarge (8 GPUs, one node) and p5.4xlarge (1 GPU;
  // 2-8 machines of it have no scale-out fabric: 5 node counts rejected as "network").
  const json r = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096, "global_batch": 64,
    "tokens": 1e9, "objective": "min_cost", "constraints": {"max_gpus": 8, "providers": ["aws"],
    "accelerators": ["h100-sxm5-80gb"], "regions": ["us-east-1"]}})");
  CHECK(r["searched"]["offerings"] == 2);
  CHECK(r["rejected"]["network"] == 5);
  // 8 GPUs (test_layouts.cpp counts it): 132 (TP, PP, VP, ZeRO, offload) combinations x 3
  // recomputes x 6 micro-batches = 2376, of which 1404 no framework runs and 186 break the global
  // batch of 64 (or, with VP, the interleaved schedule's whole rounds of PP micro-batches).
  // 1 GPU: TP 1, PP 1, ZeRO-0 only: 18 layouts, all dividing 64. 4096 tokens: no CP; dense: no EP.
  // The 5 (TP, PP) pairs whose product does not divide 8 GPUs ((1,3) (1,5) (1,6) (1,7) (2,3):
  // uneven pipelines are layouts) are counted once each.
  CHECK(r["searched"]["layouts"] == 2376 + 18 + 5);
  CHECK(r["rejected"]["software"] == 1404);
  CHECK(r["rejected"]["batch"] == 186);
  CHECK(r["rejected"]["divisibility"] == 5);
  // The other 2376 - 1404 - 186 + 18 = 804 are estimated, except larger micro-batches of a layout
  // whose smaller one ran out of memory (counted as "memory" without an estimate).
  const int evaluated = r["searched"]["evaluated"].get<int>();
  CHECK(evaluated <= 804);
  CHECK(evaluated + r["rejected"]["memory"].get<int>() >= 804);
}

TEST_CASE("the app's question, written from its parsed scenario, plans as the question itself") {
  // The app writes its scenario back (question_scenario_json) and asks that: a framework, and the
  // fused kernels that follow it, which the input did not name must stay unnamed, or the planner
  // would estimate Megatron-LM's layouts with Hugging Face's eager kernels.
  const char* scenario = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
      "global_batch": 256, "tokens": 2e9})";
  const ScenarioParse p = parse_scenario(scenario, builtin_catalog());
  REQUIRE(p.scenario);
  const std::string written = question_scenario_json(*p.scenario, builtin_catalog());
  CHECK(written.find("framework") == std::string::npos);
  CHECK(written.find("fused_kernels") == std::string::npos);
  Constraints c;
  c.max_gpus = 64;
  const json app = plan_of(write_question(written, Objective::min_cost, c, 5));
  const json brief = plan_of(k70bFull);
  REQUIRE(app["plans"].size() >= 1);
  REQUIRE(brief["plans"].size() >= 1);
  CHECK(app["plans"][0]["cost"]["total_usd"].get<double>() ==
        doctest::Approx(brief["plans"][0]["cost"]["total_usd"].get<double>()).epsilon(1e-12));
  // A question that names the framework keeps it.
  Scenario named = *p.scenario;
  named.framework_given = true;
  CHECK(question_scenario_json(named, builtin_catalog()).find("\"framework\":\"hf\"") != std::string::npos);
}

TEST_CASE("where every block recomputing fits, the planner recomputes the fewest that fit") {
  // Llama 3.1 70B full training on at most 64 GPUs, cheapest: one 8 x B200 node, TP 2, ZeRO-3
  // (Megatron-LM with FSDP2), micro-batch 1. Without recompute it does not fit; recomputing 25 of
  // its 80 blocks does, 24 does not, and 25 is cheaper than all 80 (golden link plan-70b-deadline).
  const json r = plan_of(k70bFull);
  REQUIRE(r["plans"].size() >= 1);
  const json& best = r["plans"][0];
  CHECK(best["layout"]["recompute"] == "full");
  CHECK(best["layout"]["recompute_layers"] == 25);
  CHECK(r["searched"]["partial_recompute_evaluated"].get<int>() > 0);
  auto estimated = [&](int layers) {
    json sc = best["scenario"];
    sc["parallel"]["recompute_layers"] = layers;
    if (layers == 0) sc["parallel"].erase("recompute_layers");
    const JsonResponse e = estimate_json(sc.dump(), builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(e.ok, e.error.message);
    return json::parse(e.body);
  };
  CHECK(estimated(25)["memory"]["fits"] == true);
  CHECK(estimated(25)["layout"]["stage_recomputed_layers"] == json::array({25}));  // one stage, one chunk
  CHECK(estimated(0)["layout"]["stage_recomputed_layers"] == json::array({80}));
  CHECK(estimated(24)["memory"]["fits"] == false);
  CHECK(estimated(0)["cost"]["total_usd"].get<double>() > best["cost"]["total_usd"].get<double>());
  json none = best["scenario"];
  none["parallel"]["recompute"] = "none";
  none["parallel"].erase("recompute_layers");
  const JsonResponse e = estimate_json(none.dump(), builtin_catalog(), default_calibration());
  REQUIRE(e.ok);
  CHECK(json::parse(e.body)["memory"]["fits"] == false);
}

TEST_CASE("each plan's scenario reproduces its figures through llmplan estimate") {
  for (const char* q : {k7bQlora, k70bFull, k405bPretrain}) {
    const json r = plan_of(q);
    REQUIRE(r["plans"].size() >= 1);
    for (const json& p : r["plans"]) {
      const JsonResponse e = estimate_json(p["scenario"].dump(), builtin_catalog(), default_calibration());
      REQUIRE_MESSAGE(e.ok, e.error.message);
      const json est = json::parse(e.body);
      CHECK(est["time"]["total_hours"].get<double>() ==
            doctest::Approx(p["time"]["total_hours"].get<double>()).epsilon(1e-9));
      CHECK(est["cost"]["total_usd"].get<double>() ==
            doctest::Approx(p["cost"]["total_usd"].get<double>()).epsilon(1e-9));
      CHECK(est["memory"]["per_gpu_bytes"]["total"].get<double>() ==
            doctest::Approx(p["memory"]["per_gpu_bytes"].get<double>()).epsilon(1e-9));
      CHECK(est["layout"]["grad_accum"] == p["layout"]["grad_accum"]);
      // ... and its ranges: the plan's time and cost ranges are the estimate's.
      for (const char* path : {"time.total_hours", "cost.total_usd"}) {
        CAPTURE(path);
        REQUIRE(p["ranges"].contains(path));
        CHECK(p["ranges"][path]["low"].get<double>() ==
              doctest::Approx(est["ranges"][path]["low"].get<double>()).epsilon(1e-9));
        CHECK(p["ranges"][path]["high"].get<double>() ==
              doctest::Approx(est["ranges"][path]["high"].get<double>()).epsilon(1e-9));
        CHECK(p["ranges"][path]["cases"] == est["ranges"][path]["cases"]);
      }
    }
    // The Pareto front's points carry the same ranges, as error bars.
    for (const json& f : r["pareto"]) {
      CHECK(f["total_hours_range"][0].get<double>() <= f["total_hours"].get<double>());
      CHECK(f["total_hours"].get<double>() <= f["total_hours_range"][1].get<double>());
      CHECK(f["cost_usd_range"][0].get<double>() <= f["cost_usd"].get<double>());
    }
  }
}

TEST_CASE("layouts are ones the frameworks run: PEFT without model parallelism, TP dividing the KV heads") {
  const json lora =
      plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "lora", "seq_len": 4096, "global_batch": 64,
    "tokens": 1e8, "objective": "min_time", "constraints": {"max_gpus": 16}})");
  for (const json& p : lora["plans"]) CHECK(p["layout"]["tp"].get<int>() * p["layout"]["pp"].get<int>() == 1);
  const json qwen =
      plan_of(R"({"model": {"preset": "qwen2.5-7b"}, "method": "full", "seq_len": 4096, "global_batch": 64,
    "tokens": 1e9, "objective": "min_time", "constraints": {"max_gpus": 16}})");
  for (const json& p : qwen["plans"]) {
    CHECK(4 % p["layout"]["tp"].get<int>() == 0);  // Qwen2.5-7B: 4 KV heads
    const json& l = p["layout"];
    if (l["tp"].get<int>() * l["pp"].get<int>() > 1) {
      CHECK(l["offload"] == "none");
      CHECK(l["zero"] != 2);
    }
  }
  CHECK(qwen["rejected"]["software"].get<double>() > 0);
}

TEST_CASE("the search runs in slices with monotonic progress and the same answer as one call") {
  const PlanJsonResponse parsed = plan_json(k70bFull, builtin_catalog(), default_calibration());
  REQUIRE(parsed.ok);
  Question q;
  ScenarioParse s = parse_scenario(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
    "global_batch": 256, "tokens": 2e9})",
                                   builtin_catalog());
  REQUIRE(s.scenario);
  q.base = *s.scenario;
  q.constraints.max_gpus = 64;
  Planner sliced(q, builtin_catalog(), default_calibration());
  double last = -1;
  int slices = 0;
  while (!sliced.step(500)) {
    CHECK(sliced.progress() >= last);
    CHECK(sliced.progress() < 1.0);
    last = sliced.progress();
    ++slices;
  }
  CHECK(sliced.progress() == 1.0);
  CHECK(slices > 10);  // 500 layouts a slice: the UI gets many frames
  const PlanResult a = sliced.result(), b = plan(q, builtin_catalog(), default_calibration());
  REQUIRE(a.plans.size() == b.plans.size());
  for (size_t i = 0; i < a.plans.size(); ++i) {
    CHECK(a.plans[i].instance == b.plans[i].instance);
    CHECK(a.plans[i].nodes == b.plans[i].nodes);
    CHECK(a.plans[i].cost_usd == b.plans[i].cost_usd);
  }
  CHECK(a.evaluated == b.evaluated);
  // The same plan as the JSON call, which fills the same question from the same fields.
  CHECK(json::parse(parsed.body)["plans"][0]["instance"] == a.plans[0].instance->id);
}

TEST_CASE("region and currency constraints narrow the offerings, CSV lists the ranked plans") {
  const json cny =
      plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
    "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8, "currency": "cny"}})");
  REQUIRE(cny["plans"].size() >= 1);
  for (const json& p : cny["plans"])
    CHECK(builtin_catalog().find_instance(p["instance"].get<std::string>())->currency == CurrencyCode::cny);
  const json east = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048, "tokens": 1e8,
    "objective": "min_cost", "constraints": {"max_gpus": 8, "regions": ["us-east-1"]}})");
  for (const json& p : east["plans"]) {
    const std::string region = builtin_catalog().find_instance(p["instance"].get<std::string>())->region;
    CHECK((region == "us-east-1" || region.rfind("all", 0) == 0 || region == "global"));
  }
  const PlanJsonResponse bad =
      plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"currency": "eur"}})",
                builtin_catalog(), default_calibration());
  CHECK(bad.error.field == "constraints.currency");

  const QuestionParse q = parse_question(k70bFull, builtin_catalog());
  REQUIRE(q.question);
  const PlanResult r = plan(*q.question, builtin_catalog(), default_calibration());
  const std::string csv = plans_csv(r);
  size_t lines = 0;
  for (char ch : csv) lines += ch == '\n';
  CHECK(lines == r.plans.size() + 1);
  CHECK(csv.find("\r\n1," + r.plans[0].instance->id + ",") != std::string::npos);
  CHECK(csv.find("\"" + r.why[0] + "\"") != std::string::npos);
}

TEST_CASE("one offering filter serves the planner and the design space") {
  const Catalog& c = builtin_catalog();
  const Instance* aws = c.find_instance("aws-p5.48xlarge-us-east-1");
  const Instance* autodl = c.find_instance("autodl-1x-rtx-4090");
  REQUIRE(aws);
  REQUIRE(autodl);
  Constraints k;
  CHECK(offering_allowed(k, *aws));
  k.currency = "cny";
  CHECK_FALSE(offering_allowed(k, *aws));
  CHECK(offering_allowed(k, *autodl));
  k = Constraints{};
  k.regions = {"eu-west-1"};
  CHECK_FALSE(offering_allowed(k, *aws));
  k.regions = {"us-east-1"};
  CHECK(offering_allowed(k, *aws));
  k.providers = {"gcp"};
  CHECK_FALSE(offering_allowed(k, *aws));
}

TEST_CASE("a plan's 'why' cites the factor that makes it lose, and the factor points the right way") {
  // Cost and time questions over every offering: the cited figure of the losing plan must be the
  // worse one (lower peak, lower MFU, dearer GPU-hour, fewer GPUs). Before, 195 of 350 MFU reasons
  // named an MFU the losing plan had *higher* (e.g. "MFU 46 % on a800 vs 41 % on h800").
  const char* questions[] = {
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096, "global_batch": 256, "tokens": 2e9,
          "objective": "min_cost", "top_n": 40, "constraints": {"max_gpus": 64}})",
      R"({"model": {"preset": "qwen2.5-7b"}, "method": "lora", "tokens": 1e8, "objective": "min_cost", "top_n": 40,
          "constraints": {"currency": "cny"}})",
      R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256, "tokens": 2e9,
          "objective": "min_time", "top_n": 40, "constraints": {"max_gpus": 64}})"};
  auto number_after = [](const std::string& text, const std::string& key) {
    const size_t at = text.find(key);
    REQUIRE(at != std::string::npos);
    return std::stod(text.substr(at + key.size()));
  };
  int checked = 0;
  for (const char* q : questions) {
    const PlanJsonResponse r = plan_json(q, builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(r.ok, r.error.message);
    const nlohmann::json body = nlohmann::json::parse(r.body);
    for (const nlohmann::json& p : body["plans"]) {
      const std::string why = p["why"];
      CAPTURE(why);
      if (const size_t at = why.find("less peak: "); at != std::string::npos) {
        const std::string tail = why.substr(at);
        CHECK(number_after(tail, "less peak: ") < number_after(tail, " vs "));
        ++checked;
      } else if (const size_t m = why.find(": MFU "); m != std::string::npos) {
        const std::string tail = why.substr(m);
        CHECK(number_after(tail, ": MFU ") < number_after(tail, " vs "));
        ++checked;
      } else if (const size_t g = why.find("GPU-hour costs "); g != std::string::npos) {
        CHECK(number_after(why.substr(g), "GPU-hour costs ") > 1.0);
        ++checked;
      } else if (const size_t n = why.find(" GPUs instead of "); n != std::string::npos && why.find(": ") < n) {
        CHECK(number_after(why, ": ") < number_after(why, " GPUs instead of "));
        ++checked;
      }
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("a best plan over 30 days is flagged, with the cheapest plans that finish within 7 and 30 days") {
  // Qwen2.5 7B full fine-tune on 100 B tokens, cheapest: the 8 cards of one per-card host take
  // about 48 days of wall clock; multi-node plans finish sooner at a higher price.
  const PlanJsonResponse r = plan_json(R"({"model": {"preset": "qwen2.5-7b"}, "method": "full", "tokens": 1e11,
      "objective": "min_cost", "top_n": 2})",
                                       builtin_catalog(), default_calibration());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  const nlohmann::json body = nlohmann::json::parse(r.body);
  const nlohmann::json& best = body["plans"][0];
  const double best_days = best["time"]["total_hours"].get<double>() * 1.3 / 24;
  REQUIRE(best_days > kLongRunDays);
  CHECK(best["why"].get<std::string>().find("days of wall clock: see the cheapest plans within 7 and 30 days") !=
        std::string::npos);
  REQUIRE(body["within"].size() == 2);
  for (const nlohmann::json& w : body["within"]) {
    CHECK(w["total_hours"].get<double>() * 1.3 / 24 <= w["days"].get<double>());
    CHECK(w["cost_usd"].get<double>() >= best["cost"]["total_usd"].get<double>());  // the best is the cheapest
  }
  CHECK(body["within"][0]["days"] == 7);
  // A short best plan has none.
  const PlanJsonResponse short_run = plan_json(R"({"model": {"preset": "qwen2.5-7b"}, "method": "lora", "tokens": 1e8,
      "objective": "min_cost", "top_n": 1})",
                                               builtin_catalog(), default_calibration());
  REQUIRE(short_run.ok);
  CHECK(nlohmann::json::parse(short_run.body)["within"].empty());
}

TEST_CASE("offerings rented by the card are searched at 1 to gpus_per_host_max cards of one host") {
  // A 7B full fine-tune in CNY on A800: the only CNY A800 offering is AutoDL's, sold per card, up
  // to 8 on a host. Before, it was a 1-GPU offering and could never run the job: Qwen2.5 7B's
  // weights, gradients and AdamW states alone take 16 B x 7.62 B = 122 GB, more than one 80 GB card.
  const json r = plan_of(R"({"model": {"preset": "qwen2.5-7b"}, "method": "full", "seq_len": 2048,
    "global_batch": 64, "tokens": 2e8, "objective": "min_cost", "top_n": 8,
    "constraints": {"currency": "cny", "max_gpus": 8, "accelerators": ["a800-sxm4-80gb"]}})");
  REQUIRE(r["plans"].size() >= 3);
  std::set<int> sizes;
  const double per_gpu_hour = r["plans"][0]["cost"]["effective_usd_per_gpu_hour"].get<double>();
  for (const json& p : r["plans"]) {
    CHECK(p["instance"] == "autodl-1x-a800-80gb");
    CHECK(p["nodes"] == 1);
    CHECK(p["cards"] == p["gpus"]);  // at least 2 (below): one card is the offering's own shape
    CHECK(p["scenario"]["cluster"]["cards"] == p["gpus"]);
    // The per-card price: every size pays the same per GPU-hour.
    CHECK(p["cost"]["effective_usd_per_gpu_hour"].get<double>() == doctest::Approx(per_gpu_hour).epsilon(1e-9));
    sizes.insert(p["gpus"].get<int>());
  }
  CHECK(*sizes.begin() >= 2);
  CHECK(*sizes.rbegin() <= 8);
  CHECK(sizes.size() >= 3);
  // Each plan's scenario reproduces it through llmplan estimate.
  const json& best = r["plans"][0];
  const JsonResponse e = estimate_json(best["scenario"].dump(), builtin_catalog(), default_calibration());
  REQUIRE_MESSAGE(e.ok, e.error.message);
  CHECK(json::parse(e.body)["cost"]["total_usd"].get<double>() ==
        doctest::Approx(best["cost"]["total_usd"].get<double>()).epsilon(1e-9));
}

TEST_CASE("a question whose offerings have no priced multi-node network says every plan is one machine") {
  const json cny = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
    "global_batch": 256, "tokens": 2e9, "objective": "min_cost", "constraints": {"currency": "cny", "max_gpus": 64}})");
  REQUIRE(cny["notices"].size() == 1);
  CHECK(cny["notices"][0]["code"] == "one_machine_only");
  CHECK(cny["notices"][0]["message"].get<std::string>().find("Lingjun") != std::string::npos);
  for (const json& p : cny["plans"]) CHECK(p["nodes"] == 1);
  // The USD catalog has RDMA offerings: no notice.
  CHECK(plan_of(k70bFull)["notices"].empty());
}

TEST_CASE("the planner skips offerings whose tensor cores lack the question's precision") {
  // Alibaba's gn6e (8 x V100, CNY) cannot run bf16 (catalog: V100 unsupported_precisions) and no
  // V100 or A100 offering runs fp8: they are counted under "precision" and never planned.
  const json bf16 = plan_of(R"({"model": {"preset": "llama-2-7b"}, "method": "full", "seq_len": 2048,
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"currency": "cny", "max_gpus": 8}})");
  CHECK(bf16["rejected"]["precision"].get<int>() >= 1);
  for (const json& p : bf16["plans"]) CHECK(p["accelerator"] != "v100-sxm2-32gb");
  const json fp16 =
      plan_of(R"({"model": {"preset": "llama-2-7b"}, "method": "full", "seq_len": 2048, "precision": "fp16",
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"currency": "cny", "max_gpus": 8,
    "accelerators": ["v100-sxm2-32gb"]}})");
  CHECK(fp16["rejected"]["precision"] == 0);
  CHECK(fp16["plans"].size() >= 1);
  const json fp8 = plan_of(R"({"model": {"preset": "llama-2-7b"}, "method": "full", "seq_len": 2048, "precision": "fp8",
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"max_gpus": 8}})");
  for (const json& p : fp8["plans"]) {
    const Accelerator* a = builtin_catalog().find_accelerator(p["accelerator"].get<std::string>());
    CHECK(a->fp8_dense_tflops.has_value());
  }
  CHECK(fp8["rejected"]["precision"].get<int>() > 0);
}

namespace {
// The built-in catalog with some provider fields changed (sources merged), loaded as a catalog of its own.
Catalog catalog_variant(const json& provider_changes) {
  json doc = json::parse(builtin_catalog_json());
  for (json& p : doc["providers"]) {
    const std::string id = p["id"].get<std::string>();
    if (!provider_changes.contains(id)) continue;
    for (const auto& [key, value] : provider_changes[id].items()) {
      if (key == "sources")
        p["sources"].update(value);
      else
        p[key] = value;
    }
  }
  const CatalogLoad load = load_catalog(doc.dump());
  REQUIRE_MESSAGE(load.catalog.has_value(), load.error());
  return *load.catalog;
}

json plan_with(const std::string& question, const Catalog& catalog) {
  const PlanJsonResponse r = plan_json(question, catalog, default_calibration());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return json::parse(r.body);
}

// The notice with this code, or null.
json notice(const json& plan, const std::string& code) {
  for (const json& n : plan["notices"])
    if (n["code"] == code) return n;
  return nullptr;
}

int instances_where(const std::function<bool(const Instance&)>& pick) {
  int n = 0;
  for (const Instance& in : builtin_catalog().instances) n += pick(in) ? 1 : 0;
  return n;
}
}  // namespace

TEST_CASE("constraints.provider_kinds keeps only offerings of providers of those kinds") {
  const json r = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"max_gpus": 8, "provider_kinds": ["gpu_cloud"]}})");
  REQUIRE(r["plans"].size() >= 5);
  std::set<std::string> kinds;
  for (const json& p : r["plans"]) {
    kinds.insert(p["provider_kind"].get<std::string>());
    CHECK(builtin_catalog().find_provider(p["provider"].get<std::string>())->kind == "gpu_cloud");
  }
  CHECK(kinds == std::set<std::string>{"gpu_cloud"});
  // Every offering of another kind is counted once under provider_kind (66 of the 104 today).
  const int others = instances_where(
      [](const Instance& in) { return builtin_catalog().find_provider(in.provider)->kind != "gpu_cloud"; });
  CHECK(others == 66);
  CHECK(r["rejected"]["provider_kind"] == others);
  // Without the constraint the cheapest plans include other kinds.
  const json all = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"max_gpus": 8}})");
  std::set<std::string> all_kinds;
  for (const json& p : all["plans"]) all_kinds.insert(p["provider_kind"].get<std::string>());
  CHECK(all_kinds.size() > 1);
  CHECK(all["rejected"]["provider_kind"] == 0);
}

TEST_CASE("an unknown provider kind is refused naming constraints.provider_kinds and the kinds") {
  const QuestionParse q = parse_question(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e8,
    "objective": "min_cost", "constraints": {"provider_kinds": ["gpu_cloud", "cn_cloud"]}})",
                                         builtin_catalog());
  REQUIRE_FALSE(q.question.has_value());
  CHECK(q.error.field == "constraints.provider_kinds");
  CHECK(q.error.message ==
        "constraints.provider_kinds: unknown provider kind \"cn_cloud\"; allowed: \"hyperscaler\", \"gpu_cloud\", "
        "\"marketplace\", \"compute_centre\"");
  const QuestionParse far = parse_question(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e8,
    "constraints": {"start_within_days": 3651}})",
                                           builtin_catalog());
  CHECK(far.error.field == "constraints.start_within_days");
}

TEST_CASE("constraints.start_within_days rejects providers with a longer lead time, keeps unknown ones with a notice") {
  // No provider of the catalog has a lead time above 0 today: give Lambda two weeks.
  const Catalog c = catalog_variant(
      {{"lambda", {{"lead_time_days", 14}, {"sources", {{"lead_time_days", "test variant (read 2026-12-02)"}}}}}});
  const std::string ask = R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
    "tokens": 1e8, "objective": "min_cost", "top_n": 50, "constraints": {"max_gpus": 8,
    "providers": ["lambda", "runpod"], "start_within_days": )";
  const json now = plan_with(ask + "0}}", c);
  REQUIRE(now["plans"].size() >= 1);
  for (const json& p : now["plans"]) CHECK(p["provider"] == "runpod");
  CHECK(now["rejected"]["lead_time"] == instances_where([](const Instance& in) { return in.provider == "lambda"; }));
  CHECK(now["rejected"]["lead_time"] == 8);
  CHECK(notice(now, "lead_time_unknown").is_null());
  // Fourteen days is within a month.
  const json month = plan_with(ask + "30}}", c);
  CHECK(month["rejected"]["lead_time"] == 0);
  bool lambda = false;
  for (const json& p : month["plans"]) lambda |= p["provider"] == "lambda";
  CHECK(lambda);
  // CoreWeave's lead time is unknown (null): kept, and the notice names it.
  const json cw = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
    "tokens": 1e8, "objective": "min_cost", "constraints": {"max_gpus": 8, "providers": ["coreweave"],
    "start_within_days": 0}})");
  CHECK(cw["plans"].size() >= 1);
  CHECK(cw["rejected"]["lead_time"] == 0);
  const json unknown = notice(cw, "lead_time_unknown");
  REQUIRE(unknown.is_object());
  CHECK(unknown["providers"] == json::array({"coreweave"}));
}

TEST_CASE("a multi-node plan is refused on a provider without multi-node RDMA, and each plan checks its provider") {
  const std::string ask = R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 4096,
    "tokens": 2e10, "objective": "min_time", "constraints": {"max_gpus": 64, "providers": ["aws"],
    "accelerators": ["h100-sxm5-80gb"]}})";
  // AWS as the catalog has it (EFA): the fastest plan spans nodes, and its checks pass.
  const json efa = plan_of(ask);
  REQUIRE(efa["plans"].size() >= 1);
  const json& best = efa["plans"][0];
  CHECK(best["nodes"].get<int>() > 1);
  CHECK(best["provider_kind"] == "hyperscaler");
  CHECK(efa["rejected"]["no_rdma"] == 0);
  const json& rdma = best["provider_checks"][0];
  CHECK(rdma["indicator"] == "rdma");
  CHECK(rdma["need"] == true);
  CHECK(rdma["has"] == true);
  CHECK(rdma["ok"] == true);
  // Storage: the estimate's data read rate against FSx for Lustre at 1000 MB/s per TiB, sized to the
  // dataset: 2e10 tokens x 4 bytes (storage.bytes_per_token) = 8e10 B = 0.0728 TiB -> 72.8 MB/s.
  const json& st = best["provider_checks"][1];
  CHECK(st["indicator"] == "storage");
  CHECK(st["has"].get<double>() == doctest::Approx(1000 * 8e10 / 1099511627776.0));
  CHECK(st["has"].get<double>() == doctest::Approx(72.76).epsilon(0.001));
  const JsonResponse again = estimate_json(best["scenario"].dump(), builtin_catalog(), default_calibration());
  REQUIRE(again.ok);
  const double need = json::parse(again.body)["io"]["data_bytes_per_s"].get<double>() / 1e6;
  CHECK(st["need"].get<double>() == doctest::Approx(need));
  CHECK(st["ok"] == (st["has"].get<double>() >= need));
  // The same AWS without multi-node RDMA: every multi-node size is refused as no_rdma.
  const Catalog no_rdma = catalog_variant({{"aws", {{"rdma_multi_node", false}}}});
  const json single = plan_with(ask, no_rdma);
  CHECK(single["rejected"]["no_rdma"].get<int>() > 0);
  REQUIRE(single["plans"].size() >= 1);
  for (const json& p : single["plans"]) CHECK(p["nodes"] == 1);
  // Unknown (null) RDMA: multi-node plans are kept and their check says ok null.
  const Catalog unknown = catalog_variant({{"aws", {{"rdma_multi_node", nullptr}}}});
  const json kept = plan_with(ask, unknown);
  CHECK(kept["rejected"]["no_rdma"] == 0);
  REQUIRE(kept["plans"][0]["nodes"].get<int>() > 1);
  CHECK(kept["plans"][0]["provider_checks"][0]["ok"].is_null());
  CHECK(kept["plans"][0]["provider_checks"][0]["has"].is_null());
}

TEST_CASE("a question without a global batch plans 64 sequences for fine-tuning and 4M tokens for pretraining") {
  // parse_question's rule, so that plans compare: 64 sequences for a fine-tune; for pretraining
  // LLaMA's 4M-token batch, 4,194,304 / 4,096 = 1,024 sequences. The app says it chose the batch.
  const QuestionParse tune = parse_question(
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "tokens": 1e8, "seq_len": 4096, "objective": "min_cost"})",
      builtin_catalog());
  REQUIRE(tune.question);
  CHECK(tune.default_global_batch);
  CHECK(tune.question->base.global_batch == 64);
  const QuestionParse pre = parse_question(R"({"model": {"preset": "llama-3.1-8b"}, "method": "pretrain",
      "tokens": 1e9, "seq_len": 4096, "objective": "min_cost"})",
                                           builtin_catalog());
  REQUIRE(pre.question);
  CHECK(pre.question->base.global_batch == 1024);
  const QuestionParse given = parse_question(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e8,
      "seq_len": 4096, "global_batch": 32, "objective": "min_cost"})",
                                             builtin_catalog());
  REQUIRE(given.question);
  CHECK_FALSE(given.default_global_batch);
  CHECK(given.question->base.global_batch == 32);
}

TEST_CASE("a question's money reads in yuan when it asks for yuan offerings or its scenario is priced in yuan") {
  // One rule for the plan JSON's "currency", the why-lines and the app's budget field.
  CHECK(question_currency("cny", Currency::usd) == Currency::cny);
  CHECK(question_currency("", Currency::cny) == Currency::cny);
  CHECK(question_currency("usd", Currency::cny) == Currency::cny);
  CHECK(question_currency("usd", Currency::usd) == Currency::usd);
  CHECK(question_currency("", Currency::usd) == Currency::usd);
}
