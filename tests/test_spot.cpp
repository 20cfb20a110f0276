// Ways to pay for a plan (payment.hpp): on demand, all spot, and two phases (debugging on demand on
// one machine, the long run on spot), with the range the published interruption rates give.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/payment.hpp"
#include "llmplan/planner.hpp"
#include "plan_questions.hpp"

using namespace llmplan;
using nlohmann::json;
using plan_questions::plan_of;

namespace {

// 8B full fine-tune on 2 x aws-p5.48xlarge (16 GPUs), a checkpoint every hour, no failures: the
// long run's overhead is then write/interval + (interval/2 + restart) x spot interruptions per hour.
Scenario hand_count_scenario() {
  const ScenarioParse p = parse_scenario(
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096, "global_batch": 64,
          "tokens": 1e9, "micro_batch": 1, "cluster": {"instance": "aws-p5.48xlarge-us-east-1", "nodes": 2},
          "parallel": {"zero": 3}, "storage": {"checkpoint_interval_h": 1},
          "pricing": {"failures_per_gpu_hour": 0, "restart_h": 0.5, "overhead_factor": 1.3}})",
      builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}

}  // namespace

TEST_SUITE("payment") {
  TEST_CASE("the published monthly bands convert to rates per node-hour: -ln(1 - f) / 730") {
    // By hand: -ln(0.95) = 0.0512933, -ln(0.875) = 0.1335314, -ln(0.8) = 0.2231436; / 730 h.
    const SpotRates r = spot_rates(0);
    CHECK(r.low == doctest::Approx(7.02648e-5).epsilon(1e-5));
    CHECK(r.central == doctest::Approx(1.829197e-4).epsilon(1e-5));
    CHECK(r.high == doctest::Approx(3.056761e-4).epsilon(1e-5));
    // The question's own rate is the central one; the range widens to include it.
    const SpotRates user = spot_rates(0.01);
    CHECK(user.central == 0.01);
    CHECK(user.low == r.low);
    CHECK(user.high == 0.01);
  }

  TEST_CASE("hand count of the three ways for one plan, a spot price, an interruption rate and a restart time") {
    const Scenario s = hand_count_scenario();
    const EstimateResult base = estimate(s, default_calibration());
    const double T = base.time.training_hours;                    // pure training hours
    const double c = base.reliability.checkpoint_write_s / 3600;  // write time, h
    const double S = base.cost.storage_usd;                       // the same in every way (a 1-month retention)
    REQUIRE(base.reliability.checkpoint_interval_h == 1.0);
    REQUIRE(T > 0);
    REQUIRE(T * 1.3 < 730);  // storage bills the 1-month retention in every way
    PaymentPrices prices;
    prices.on_demand_usd_per_gpu_hour = 2.0;  // given prices, USD per GPU-hour
    prices.spot_usd_per_gpu_hour = 0.6;
    prices.debug_gpus = 8;                     // one p5.48xlarge
    const SpotRates rates{0.001, 0.01, 0.05};  // given, per node-hour
    const double D = 8, G = 16, N = 2;
    const PaymentOptions p = compare_payment(s, default_calibration(), prices, rates, D);

    // On demand, no failures: overhead = write / interval = c / 1; used hours U = T (1 + c) x 1.3.
    const double u_od = T * (1 + c) * 1.3;
    REQUIRE(p.on_demand.available);
    CHECK(p.on_demand.cost_usd == doctest::Approx((D + u_od) * G * 2.0 + S));
    CHECK(p.on_demand.wall_clock_h == doctest::Approx(D + u_od));
    // Spot at rate r: overhead = c / 1 + (1 / 2 + 0.5 restart) x r x 2 nodes; U = T (1 + overhead) x 1.3.
    const auto u_spot = [&](double r) { return T * (1 + c + (0.5 + 0.5) * r * N) * 1.3; };
    REQUIRE(p.spot.available);
    CHECK(p.spot.cost_usd == doctest::Approx((D + u_spot(0.01)) * G * 0.6 + S));
    CHECK(p.spot.cost_usd_low == doctest::Approx((D + u_spot(0.001)) * G * 0.6 + S));
    CHECK(p.spot.cost_usd_high == doctest::Approx((D + u_spot(0.05)) * G * 0.6 + S));
    CHECK(p.spot.wall_clock_h == doctest::Approx(D + u_spot(0.01)));
    CHECK(p.spot.wall_clock_h_low == doctest::Approx(D + u_spot(0.001)));
    CHECK(p.spot.wall_clock_h_high == doctest::Approx(D + u_spot(0.05)));
    // Expected interruptions: total hours (before the overhead factor) x 0.01 x 2 nodes.
    CHECK(p.spot.interruptions == doctest::Approx(u_spot(0.01) / 1.3 * 0.01 * N));
    // Two phases: 8 h on one machine (8 GPUs) on demand, then the long run on spot.
    REQUIRE(p.two_phase.available);
    CHECK(p.two_phase.debug_hours == D);
    CHECK(p.two_phase.debug_cost_usd == doctest::Approx(8 * 8 * 2.0));  // $128
    CHECK(p.two_phase.cost_usd == doctest::Approx(u_spot(0.01) * G * 0.6 + S + 128));
    CHECK(p.two_phase.cost_usd_low == doctest::Approx(u_spot(0.001) * G * 0.6 + S + 128));
    CHECK(p.two_phase.cost_usd_high == doctest::Approx(u_spot(0.05) * G * 0.6 + S + 128));
    CHECK(p.two_phase.wall_clock_h == p.spot.wall_clock_h);
    // All spot debugs on 16 spot GPUs ($76.80), two phases on 8 on-demand GPUs ($128).
    CHECK(p.spot.debug_cost_usd == doctest::Approx(8 * 16 * 0.6));
    CHECK(std::string(p.cheapest) == "spot");
    CHECK(p.spot.cost_usd_low < p.spot.cost_usd);
    CHECK(p.spot.cost_usd < p.spot.cost_usd_high);

    // Two phases win when an hour of debugging on the whole spot cluster costs more than on one
    // on-demand machine: at $1.2 spot, 16 x 1.2 = $19.2 > 8 x 2.0 = $16 per hour, 8 h x $3.2 = $25.6 less.
    prices.spot_usd_per_gpu_hour = 1.2;
    const PaymentOptions q = compare_payment(s, default_calibration(), prices, rates, D);
    CHECK(q.spot.cost_usd - q.two_phase.cost_usd == doctest::Approx(8 * (16 * 1.2 - 8 * 2.0)));
    CHECK(std::string(q.cheapest) == "two_phase");
  }

  TEST_CASE("a plan's two-phase way costs the debugging hours at the on-demand price of one machine") {
    // aws-p5.48xlarge-us-east-1: $55.04 on demand, $17.6289 spot per 8-GPU instance-hour (catalog).
    const json r = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 4096,
      "global_batch": 64, "tokens": 1e9, "objective": "min_cost",
      "constraints": {"max_gpus": 16, "providers": ["aws"], "accelerators": ["h100-sxm5-80gb"], "debug_hours": 10},
      "top_n": 1})");
    REQUIRE(r["plans"].size() == 1);
    const json& plan = r["plans"][0];
    REQUIRE(plan["instance"] == "aws-p5.48xlarge-us-east-1");
    const json& pay = plan["payment"];
    const double gpus = plan["gpus"].get<double>();
    // 10 h x 8 GPUs x $55.04 / 8 = $550.40.
    CHECK(pay["two_phase"]["debug_hours"] == 10.0);
    CHECK(pay["two_phase"]["debug_cost_usd"].get<double>() == doctest::Approx(550.4));
    CHECK(pay["debug_gpus"] == 8);
    // The two-phase long run writes its checkpoints to object storage (the seed's way: a reclaimed
    // spot machine loses its local disk), AWS's own S3 tier in the catalog: it is the plan's
    // scenario with that checkpoint tier, estimated on spot at the central interruption rate.
    REQUIRE(pay["two_phase"]["checkpoint_tier"] == "aws-s3-s3pd");
    json run = plan["scenario"];
    run["storage"]["checkpoint_tier"] = "aws-s3-s3pd";
    run["pricing"] = {{"mode", "spot"},
                      {"spot_interruptions_per_hour", pay["spot_interruptions_per_node_hour"]["central"]}};
    const JsonResponse e = estimate_json(run.dump(), builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(e.ok, e.error.message);
    CHECK(pay["two_phase"]["cost_usd"].get<double>() - 550.4 ==
          doctest::Approx(json::parse(e.body)["cost"]["total_usd"].get<double>()));
    // All spot keeps the plan's own checkpoint tier and pays the 10 debugging hours on every GPU.
    json own = plan["scenario"];
    own["pricing"] = run["pricing"];
    const JsonResponse o = estimate_json(own.dump(), builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(o.ok, o.error.message);
    CHECK(pay["spot"]["cost_usd"].get<double>() - json::parse(o.body)["cost"]["total_usd"].get<double>() ==
          doctest::Approx(10 * gpus * 17.6289 / 8));
    // On demand = the plan's own cost (the same estimate) + 10 h on all its GPUs at $55.04 / 8.
    CHECK(pay["on_demand"]["cost_usd"].get<double>() ==
          doctest::Approx(plan["cost"]["total_usd"].get<double>() + 10 * gpus * 55.04 / 8));
    CHECK(pay["on_demand"]["cost_cny"].get<double>() ==
          doctest::Approx(pay["on_demand"]["cost_usd"].get<double>() * builtin_catalog().currency.usd_to_cny));
    CHECK(pay["on_demand"]["wall_clock_h"].get<double>() ==
          doctest::Approx(10 + plan["cost"]["used_hours"].get<double>()));
    for (const char* k : {"cost_usd", "cost_usd_low", "cost_usd_high", "wall_clock_h", "wall_clock_h_low",
                          "wall_clock_h_high", "interruptions"})
      CHECK_MESSAGE(pay["spot"].contains(k), k);
    CHECK(pay["cheapest"] == "spot");  // 32 % of the on-demand price
  }

  TEST_CASE("an offering without a spot price has null spot options, and the answer says so") {
    // Lambda publishes on-demand prices only (catalog/instances.json).
    const json r = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
      "tokens": 1e8, "objective": "min_cost", "constraints": {"max_gpus": 8, "providers": ["lambda"]}, "top_n": 1})");
    REQUIRE(r["plans"].size() == 1);
    const json& pay = r["plans"][0]["payment"];
    CHECK(pay["spot"].is_null());
    CHECK(pay["two_phase"].is_null());
    CHECK(pay["on_demand"].is_object());
    CHECK(pay["cheapest"] == "on_demand");
    CHECK(pay["note"].get<std::string>().find("publishes no spot price") != std::string::npos);
  }

  TEST_CASE("a bad constraints.debug_hours is refused, naming the field and its range") {
    for (const char* bad : {"-1", "9000", "\"one day\""}) {
      const std::string q = std::string(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9,
        "objective": "min_cost", "constraints": {"debug_hours": )") +
                            bad + "}}";
      const QuestionParse parse = parse_question(q, builtin_catalog());
      CHECK_FALSE(parse.question);
      CHECK_MESSAGE(parse.error.field == "constraints.debug_hours", bad);
      CHECK_MESSAGE(parse.error.message.find("0..8760") != std::string::npos, parse.error.message);
    }
    // 0 is allowed (no debugging phase): two phases then cost what the long run on spot costs.
    const QuestionParse zero =
        parse_question(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"debug_hours": 0}})",
                       builtin_catalog());
    REQUIRE(zero.question);
    CHECK(zero.question->constraints.debug_hours == 0);
    const QuestionParse none = parse_question(
        R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "min_cost"})", builtin_catalog());
    REQUIRE(none.question);
    CHECK(none.question->constraints.debug_hours == kDefaultDebugHours);
  }
}
