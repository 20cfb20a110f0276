// payment.hpp: three ways to pay for one plan (issue 14, item 3; seed 003 §3.3): all on demand,
// all spot with automatic restart, and two phases (set-up and debugging on demand on the smallest
// unit the offering rents, then the long run on spot with its checkpoints in object storage, as the
// seed does: plan_payment passes that run). The long run of every way is the estimator's own (estimate_reliability:
// checkpoint stalls, half an interval of lost work and pricing.restart_h per interruption; estimate_cost: billing
// block, overhead factor, storage), run at published spot interruption rates. Formulas and sources: docs/planner.md,
// "Ways to pay".
#pragma once
#include <string>

#include "llmplan/scenario.hpp"
#include "llmplan/tco.hpp"  // kHoursPerMonth: 8760 / 12, the month AWS prices and the advisor counts

namespace llmplan {

struct Calibration;

// A published share of spot capacity reclaimed per month -> interruptions per node-hour.
// A node that runs the whole 730-hour month and is reclaimed with probability f, at a constant
// rate (Poisson), has rate -ln(1 - f) / 730 per node-hour.
double spot_rate_from_monthly(double monthly_fraction);

// The published monthly figures behind the default rates. AWS Spot Instance Advisor: "Frequency
// of interruption represents the rate at which Spot has reclaimed capacity during the trailing
// month. They are in ranges of < 5%, 5-10%, 10-15%, 15-20% and >20%."
// (https://aws.amazon.com/ec2/spot/instance-advisor/; the definition in the advisor's data file,
// https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json, as quoted by the README of github.com/grailbio/base
// cloud/spotadvisor, v0.0.11, published 2024-03-07, https://pkg.go.dev/github.com/grailbio/base/cloud/spotadvisor; read
// 2026-12-02).
//   low:     5 %/month: the top of the advisor's lowest band, and nOps' "less than 5% of Spot
//            instances are terminated in any given month" (https://www.nops.io/blog/aws-spot-facts/,
//            undated, read 2026-12-02; a vendor that manages over $1B of spend);
//   central: 12.5 %/month: the middle of the advisor's middle band (10-15 %);
//   high:    20 %/month: the lower edge of the advisor's worst band (">20%"), which has no upper
//            edge; a vendor blog says H100 "can see rates exceeding 20% during peak periods"
//            (https://lyceum.technology/magazine/spot-instance-gpu-ml-training, 2026-02-23).
// No provider publishes a rate for its 8-GPU spot machines (p4d/p5 advisor rows were not found;
// Alibaba publishes only a 1-hour protection option, Azure only eviction bands in its portal):
// a question with its own figure gives pricing.spot_interruptions_per_hour.
inline constexpr double kSpotMonthlyLow = 0.05;
inline constexpr double kSpotMonthlyCentral = 0.125;
inline constexpr double kSpotMonthlyHigh = 0.20;
inline constexpr const char* kSpotRatesSource =
    "AWS Spot Instance Advisor bands (<5 %, 5-10 %, 10-15 %, 15-20 %, >20 % of capacity reclaimed per month): "
    "5 %, 12.5 % and 20 % per month, as -ln(1 - f) / 730 per node-hour";

// Interruptions per node-hour.
struct SpotRates {
  double low = 0, central = 0, high = 0;
};
// The published rates above; with the question's own pricing.spot_interruptions_per_hour (> 0)
// that rate is the central one and the range widens to include it.
SpotRates spot_rates(double user_rate_per_node_hour);

// Set-up and debugging hours before the long run (constraints.debug_hours). No published figure
// exists: this is a user assumption, one working day for the tiny-step run and the
// post-provisioning checklist (GPU topology, NCCL bandwidth, disk speed, a checkpoint round trip,
// the first minutes' tokens/s).
inline constexpr double kDefaultDebugHours = 8;

// One way to pay. Costs in USD (the CNY figures are these x the catalog's dated rate); wall clock
// in hours: the debugging hours + the long run's total hours x the overhead factor.
struct PaymentWay {
  bool available = false;  // false: the offering publishes no price in a mode this way needs
  double cost_usd = 0, wall_clock_h = 0;
  // Spot ways only: the same at the low and high interruption rate, and the long run's expected
  // interruptions (failures and spot reclaims) at the central rate.
  double cost_usd_low = 0, cost_usd_high = 0, wall_clock_h_low = 0, wall_clock_h_high = 0;
  double interruptions = 0;
  double debug_hours = 0, debug_cost_usd = 0;  // the debugging phase's part of the above
};

struct PaymentOptions {
  PaymentWay on_demand, spot, two_phase;
  SpotRates rates;                        // per node-hour
  int debug_gpus = 0;                     // GPUs of the smallest unit the offering rents (two-phase debugging)
  const char* cheapest = "";              // "on_demand" | "spot" | "two_phase" (central cost); "" when none priced
  std::string two_phase_checkpoint_tier;  // where the two-phase long run writes its checkpoints
  std::string note;                       // why a way is missing, when one is
};

// The prices one comparison needs, per GPU-hour in USD (0: not published) with each mode's billing block.
struct PaymentPrices {
  double on_demand_usd_per_gpu_hour = 0, spot_usd_per_gpu_hour = 0;
  double on_demand_min_billing_hours = 0, spot_min_billing_hours = 0;
  int debug_gpus = 1;  // the smallest unit rented for the two-phase debugging
};

// The three ways for the plan scenario `s` (cluster, layout and storage resolved; its pricing
// mode and price are replaced per way). Four estimates: on demand, and spot at the three rates.
//   long run L(mode, rate) = estimate(s at that price and rate): used hours U (total hours x
//     overhead factor), billing block B, storage S;
//   on_demand = max(D + U_od, B_od) x GPUs x p_od + S;   wall clock D + U_od
//   spot      = max(D + U_sp, B_sp) x GPUs x p_sp + S;   wall clock D + U_sp
//   two_phase = max(U_sp, B_sp) x GPUs x p_sp + S + (D > 0 ? max(D, B_od) : 0) x debug GPUs x p_od
// `two_phase_run`, when given, is the scenario of the two-phase long run (the seed's checkpoints in
// object storage: plan_payment points its checkpoint tier at the provider's object store); else `s`.
PaymentOptions compare_payment(const Scenario& s, const Calibration& cal, const PaymentPrices& prices,
                               const SpotRates& rates, double debug_hours, const Scenario* two_phase_run = nullptr);

}  // namespace llmplan
