// payment.cpp: on demand, spot, and two phases for one plan (payment.hpp). The long runs are
// estimate()'s; this file only prices the debugging phase and adds the parts up.
#include "llmplan/payment.hpp"

#include <algorithm>
#include <cmath>

#include "llmplan/estimate.hpp"

namespace llmplan {

double spot_rate_from_monthly(double f) { return -std::log1p(-f) / kHoursPerMonth; }

SpotRates spot_rates(double user_rate) {
  SpotRates r{spot_rate_from_monthly(kSpotMonthlyLow), spot_rate_from_monthly(kSpotMonthlyCentral),
              spot_rate_from_monthly(kSpotMonthlyHigh)};
  if (user_rate > 0) {
    r.central = user_rate;
    r.low = std::min(r.low, user_rate);
    r.high = std::max(r.high, user_rate);
  }
  return r;
}

namespace {

// The long run at one price, mode and spot rate: the estimator's hours, billing and storage.
struct LongRun {
  double used_h = 0;  // total hours x overhead factor
  double storage_usd = 0;
  double interruptions = 0;
};

LongRun long_run(Scenario s, const Calibration& cal, PricingMode mode, double usd_per_gpu_hour, double min_billing_h,
                 double rate) {
  s.pricing.mode = mode;
  s.pricing.usd_per_gpu_hour = usd_per_gpu_hour;
  s.pricing.min_billing_hours = min_billing_h;
  s.pricing.spot_interruptions_per_hour = rate;
  const EstimateResult r = estimate(s, cal);
  return {r.cost.used_hours, r.cost.storage_usd, r.reliability.expected_interruptions};
}

// A phase of `hours` on `gpus` at `price`, billed at least `block` hours when it runs at all.
double billed(double hours, double block, int gpus, double price) {
  return hours > 0 ? std::max(hours, block) * gpus * price : 0.0;
}

// The long run on spot at the low, central and high interruption rates.
struct SpotRuns {
  LongRun low, mid, high;
};

SpotRuns spot_runs(const Scenario& s, const Calibration& cal, double price, double block, const SpotRates& rates) {
  return {long_run(s, cal, PricingMode::spot, price, block, rates.low),
          long_run(s, cal, PricingMode::spot, price, block, rates.central),
          long_run(s, cal, PricingMode::spot, price, block, rates.high)};
}

// A way's cost and wall clock at the three rates: `cost` prices one long run, and the debugging
// hours come before it.
template <class Cost>
void set_range(PaymentWay& w, double debug_h, const SpotRuns& r, Cost cost) {
  w.cost_usd = cost(r.mid);
  w.cost_usd_low = cost(r.low);
  w.cost_usd_high = cost(r.high);
  w.wall_clock_h = debug_h + r.mid.used_h;
  w.wall_clock_h_low = debug_h + r.low.used_h;
  w.wall_clock_h_high = debug_h + r.high.used_h;
  w.interruptions = r.mid.interruptions;
}

}  // namespace

PaymentOptions compare_payment(const Scenario& s, const Calibration& cal, const PaymentPrices& p,
                               const SpotRates& rates, double debug_hours, const Scenario* two_phase_run) {
  PaymentOptions out;
  out.rates = rates;
  out.debug_gpus = std::min(p.debug_gpus, s.cluster.gpus);
  const int gpus = s.cluster.gpus;
  const double d = debug_hours;
  if (p.on_demand_usd_per_gpu_hour > 0) {
    const double od = p.on_demand_usd_per_gpu_hour;
    const LongRun l = long_run(s, cal, PricingMode::on_demand, od, p.on_demand_min_billing_hours, 0);
    PaymentWay& w = out.on_demand;
    w.available = true;
    w.debug_hours = d;
    w.debug_cost_usd = d * gpus * od;
    w.cost_usd = billed(d + l.used_h, p.on_demand_min_billing_hours, gpus, od) + l.storage_usd;
    w.wall_clock_h = d + l.used_h;
    w.interruptions = l.interruptions;
  }
  if (p.spot_usd_per_gpu_hour > 0) {
    const double sp = p.spot_usd_per_gpu_hour, block = p.spot_min_billing_hours;
    const SpotRuns runs = spot_runs(s, cal, sp, block, rates);
    // All spot: the debugging runs on the whole spot cluster too.
    PaymentWay& w = out.spot;
    w.available = true;
    w.debug_hours = d;
    w.debug_cost_usd = d * gpus * sp;
    set_range(w, d, runs, [&](const LongRun& l) { return billed(d + l.used_h, block, gpus, sp) + l.storage_usd; });
    // Two phases: the debugging on the smallest unit on demand, the long run on spot.
    if (p.on_demand_usd_per_gpu_hour > 0) {
      PaymentWay& t = out.two_phase;
      t.available = true;
      t.debug_hours = d;
      t.debug_cost_usd = billed(d, p.on_demand_min_billing_hours, out.debug_gpus, p.on_demand_usd_per_gpu_hour);
      const Scenario& run = two_phase_run ? *two_phase_run : s;
      out.two_phase_checkpoint_tier = run.storage.checkpoint_tier;
      const SpotRuns runs2 = two_phase_run ? spot_runs(run, cal, sp, block, rates) : runs;
      set_range(t, d, runs2,
                [&](const LongRun& l) { return billed(l.used_h, block, gpus, sp) + l.storage_usd + t.debug_cost_usd; });
    }
  }
  // The cheapest at the central rate; on a tie the simpler way (on demand, then all spot) wins.
  const std::pair<const char*, const PaymentWay*> ways[] = {
      {"on_demand", &out.on_demand}, {"spot", &out.spot}, {"two_phase", &out.two_phase}};
  const PaymentWay* best = nullptr;
  for (const auto& [name, way] : ways)
    if (way->available && (!best || way->cost_usd < best->cost_usd)) {
      best = way;
      out.cheapest = name;
    }
  return out;
}

}  // namespace llmplan
