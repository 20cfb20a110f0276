// report.hpp: a finished estimate as text a person pastes elsewhere (a Markdown summary of the
// scenario and its result) and the small breakdowns front ends draw (step time and cost parts),
// so every front end shows the same figures and none computes its own.
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "llmplan/estimate.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

// The parts a training step's time is made of; they add up to TimeResult::step_s.
enum class StepPart { compute, exposed_comm, bubble, offload, io_stall, count };
struct StepBreakdown {
  std::array<double, static_cast<size_t>(StepPart::count)> s{};  // seconds per step, by StepPart
  double total_s = 0;                                            // = time.step_s
};
StepBreakdown step_breakdown(const TimeResult& t);
const char* result_key(StepPart part);  // "time.compute_s", ... (the explanation / result JSON key)

// An amount in USD shown in `currency` at the estimate's own exchange rate (cost.usd_to_cny).
double usd_in(double usd, Currency currency, const CostResult& cost);

// A Markdown summary: the scenario (model, method, cluster, layout, tokens), the verdict, memory
// per GPU, step time, wall-clock time, GPU-hours, cost in USD and CNY, tier and warnings, and the
// scenario JSON it reproduces from. `input_json` is the scenario input; `link` (may be empty) is
// a URL to the same view.
std::string markdown_summary(std::string_view input_json, const Scenario& s, const EstimateResult& r,
                             const Catalog& catalog, std::string_view link);

}  // namespace llmplan
