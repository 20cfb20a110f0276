// planner.hpp: searches catalog offerings x node counts x parallel layouts for the best plan
// under an objective and constraints, with counted rejections, the Pareto front of (time, cost)
// and the reasons each plan ranks where it does. Deterministic; runs in slices (step()) so the
// UI can show progress between frames.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmplan/advice.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/payment.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;
struct Instance;

enum class Objective { min_cost, min_time, min_cost_under_deadline, min_time_under_budget };
inline constexpr const char* kObjectiveNames[] = {"min_cost", "min_time", "min_cost_under_deadline",
                                                  "min_time_under_budget"};

struct Constraints {
  int max_gpus = 1024;
  double deadline_days = 0;            // 0: none
  double budget_usd = 0;               // 0: none
  std::vector<std::string> providers;  // empty: all
  std::vector<std::string> accelerators;
  std::vector<std::string> regions;  // empty: all; offerings sold in "all"/"global" regions always match
  std::string currency;              // "usd" | "cny": only offerings priced in it; empty: all
  bool spot = false;                 // also consider spot prices
  // Only providers that can start a job within this many days (catalog lead_time_days); a provider
  // whose lead time is unknown is kept and named in notice "lead_time_unknown". Empty: no limit.
  std::optional<double> start_within_days;
  std::vector<std::string> provider_kinds;  // empty: all; else kProviderKinds (catalog.hpp) names
  // Set-up and debugging hours before the long run, in each plan's ways to pay (payment.hpp).
  double debug_hours = kDefaultDebugHours;
};

// Whether the constraints let the planner consider `instance` at all (providers, accelerators,
// regions, currency); prices and node counts are checked by the search.
bool offering_allowed(const Constraints& c, const Instance& instance);

struct Question {
  Scenario base;  // model, method, shape, tokens, storage and pricing options; cluster/layout are searched
  Objective objective = Objective::min_cost;
  Constraints constraints;
  int top_n = 5;
};

// network: several machines of an offering with no published scale-out fabric; provider_kind and
// lead_time: the offering's provider is of another kind, or starts later than start_within_days;
// no_rdma: several machines of a provider whose catalog says it has no multi-node RDMA.
enum class RejectReason {
  memory,
  divisibility,
  batch,
  deadline,
  budget,
  no_price,
  software,
  network,
  precision,
  provider_kind,
  lead_time,
  no_rdma,
  count
};

struct PlanCandidate {
  const Instance* instance = nullptr;
  int nodes = 1;
  int cards = 0;  // cards per host of an offering rented by the card; 0: the instance's shape
  PricingMode mode = PricingMode::on_demand;
  Layout layout;
  double step_s = 0, total_hours = 0, cost_usd = 0, mfu = 0, memory_bytes = 0, capacity_bytes = 0;
  double exposed_comm_s = 0, bubble_s = 0, compute_s = 0;
  double used_hours = 0, billed_hours = 0;  // wall-clock hours paid for, and billed (a minimum block may set it)
  double peak_tflops = 0;                   // the GPU's dense peak at the run's precision (MFU's denominator)
  // The 80 % range of published / estimated throughput for this plan's regime (ranges.hpp), set on
  // the ranked and Pareto plans: time and cost divide by it. range_cases 0: no range.
  double speed_low = 1, speed_high = 1;
  int range_cases = 0;
  bool calibrated = false;  // a trial's factors apply: the plan runs on the accelerator it measured
  FrameworkKind framework = FrameworkKind::megatron;  // the one it was estimated in (apply_layout)
  int gpus_per_node() const;
  int gpus() const;
  int dp() const;  // data-parallel replicas: GPUs / (TP x CP x PP)
};

// Why a plan ranks where it does, as data a UI words in its own language (why_english is the
// English of PlanResult::why). #1 is the cheapest or the fastest; a plan below it takes
// PlanWhy::args[0] times the time (or is that many times faster) for args[1] more (or less) money,
// for the reason named, whose figures follow from args[2]; same_cost_larger stands alone.
enum class WhyReason {
  cheapest,          // {0} plans, {1} cost, {2} time, {3} MFU %, {4} per GPU-hour
  fastest,           // the same
  same_cost_larger,  // {0} time ratio, {1} GPUs, {2} GPUs of #1
  fewer_gpus,        // {2} GPUs, {3} of #1
  less_peak,         // {2} ratio, {3} TFLOP/s, {4} accelerator, {5} TFLOP/s of #1, {6} its accelerator
  same_gpu_dearer,   // {2} accelerator, {3} per GPU-hour, {4} of #1
  dearer_gpu_hour,   // {2} ratio, {3} per GPU-hour, {4} of #1
  billing_block,     // {2} billed, {3} used
  exposed_comm,      // {2} % of the step, {3} % of #1's, {4} nodes, {5} fabric, {6} MFU %, {7} of #1
  bubble,            // {2} % of the step, {3} PP, {4} ", VP n" or "", {5} MFU %, {6} of #1
  lower_mfu,         // {2} MFU %, {3} accelerator, {4} MFU % of #1, {5} its accelerator
  count
};
// #1's note when it runs past kLongRunDays: {0} its days, then the kShorterRunDays limits
// within which no plan, the cheapest plan, or the cheapest plans finish.
enum class WhyNote { none, no_shorter, one_shorter, two_shorter, count };
struct PlanWhy {
  WhyReason reason = WhyReason::cheapest;
  bool faster = false;            // below #1: args[0] is how many times faster, not the time ratio
  bool cheaper = false;           // below #1: args[1] is how much less, not more
  std::vector<std::string> args;  // the figures, formatted (money in the question's currency)
  std::string layout;             // #1: its layout in English ("TP 2 x PP 1, ZeRO-1, ...")
  WhyNote note = WhyNote::none;
  std::vector<std::string> note_args;
};
// A language's words for PlanWhy ({n} is args[n], or note_args[n] in a note): each reason, the
// head of a plan below #1 by pace and money (slower/faster x more/less), the separator before #1's
// layout, and each note (notes[none] unused).
struct WhyWords {
  const char* reasons[static_cast<int>(WhyReason::count)];
  const char* slower_more;
  const char* slower_less;
  const char* faster_more;
  const char* faster_less;
  const char* layout_sep;
  const char* notes[static_cast<int>(WhyNote::count)];
};
extern const WhyWords kWhyEnglish;
// The sentence of `w` in `words`, with `layout` the plan's layout in the same language.
std::string why_text(const PlanWhy& w, const WhyWords& words, const std::string& layout);
inline std::string why_english(const PlanWhy& w) { return why_text(w, kWhyEnglish, w.layout); }

struct PlanResult {
  std::vector<PlanCandidate> plans;   // ranked, best first, one per (offering, node count, mode)
  std::vector<PlanCandidate> pareto;  // non-dominated in (total hours, cost), fastest first
  std::vector<std::string> why;       // per plan: why it ranks where it does (why_english of why_data)
  std::vector<PlanWhy> why_data;      // the same as data, for the app's languages
  // When the best plan takes longer than kLongRunDays: the cheapest plan finishing within each of
  // kShorterRunDays (days of wall clock incl. the overhead factor, as deadlines count them).
  struct Within {
    double days = 0;
    PlanCandidate plan;
  };
  std::vector<Within> within;
  std::uint64_t evaluated = 0;  // layouts estimated
  std::uint64_t space = 0;      // layouts enumerated (evaluated + rejected before estimating)
  // Partial-recompute layouts estimated on top of the enumerated space: the fewest blocks of each
  // chunk recomputed that fit (bisected on the memory estimate alone) where every block
  // recomputing fits and recomputing none does not (Megatron-LM).
  std::uint64_t bisected = 0;
  std::uint64_t rejected[static_cast<int>(RejectReason::count)] = {};
  int offerings = 0;
  // No offering the constraints allow publishes a multi-node network with a price, so every plan
  // stays on one machine (the CNY catalog today: its multi-node RDMA products are priced only in
  // providers' consoles). The body says so as notice "one_machine_only".
  bool one_machine_only = false;
  // With start_within_days: the providers of allowed offerings whose lead time the catalog does not
  // know (kept, and named in notice "lead_time_unknown").
  std::vector<std::string> lead_time_unknown;
  std::vector<int> node_counts;
};

// A plan longer than this many days is flagged, with the cheapest that finish within each of
// kShorterRunDays beside it (a month is a long time to hold a job and its budget).
inline constexpr double kLongRunDays = 30;
inline constexpr double kShorterRunDays[] = {7, 30};

const char* to_string(RejectReason r);
const char* to_string(Objective o);

class Planner {
 public:
  // `catalog` and `cal` must outlive the planner.
  Planner(const Question& q, const Catalog& catalog, const Calibration& cal);
  // Evaluates up to `budget` layouts; returns true when the search is complete.
  bool step(std::uint64_t budget);
  double progress() const;                                    // 0..1 over the offerings x node counts
  std::uint64_t evaluated() const { return acc_.evaluated; }  // layouts estimated so far
  // Ranks what was found so far (call after step() returned true for the final answer).
  PlanResult result() const;

 private:
  struct Work {
    const Instance* instance;
    int nodes;
    int cards;  // per host, for offerings rented by the card; 0 otherwise
    PricingMode mode;
  };
  void evaluate(const Work& w);
  Question q_;
  const Catalog& catalog_;
  const Calibration& cal_;
  std::vector<Work> work_;
  size_t next_ = 0;
  PlanResult acc_;
  std::vector<PlanCandidate> best_;  // best layout per work item that passed
};

// The plans best first: among the plans within 1 % of the best remaining objective, the smaller
// cluster (for cost) or the cheaper plan (for time), then the faster, then the exact objective.
// The order depends on the plans alone, not on the order they come in.
std::vector<PlanCandidate> rank_plans(Objective o, const std::vector<PlanCandidate>& plans);

// The whole search at once: `llmplan plan` and window.llmplan.plan call this.
PlanResult plan(const Question& q, const Catalog& catalog, const Calibration& cal);

struct PlanJsonResponse {
  bool ok = false;
  std::string body;
  InputError error;
};
struct QuestionParse {
  std::optional<Question> question;  // empty when the question is invalid
  InputError error;
  std::string scenario_json;          // the question without objective/constraints/top_n
  bool default_global_batch = false;  // the question left global_batch at 0: the planner chose it (below)
};
// Parses {"objective", "constraints", "top_n", ...scenario fields without cluster/parallel};
// the global batch defaults to 4M tokens (pretraining) or 64 sequences (fine-tuning).
QuestionParse parse_question(std::string_view question_json, const Catalog& catalog);

// The currency a question's money reads in (costs, the budget): yuan where it asks only for
// offerings priced in yuan (constraints.currency "cny") or its scenario is priced in yuan; dollars
// otherwise. The search itself compares in USD.
Currency question_currency(std::string_view constraints_currency, Currency scenario_currency);
inline Currency question_currency(const Question& q) {
  return question_currency(q.constraints.currency, q.base.pricing.currency);
}

// The ranked plans as CSV (header + one row per plan: rank, offering, layout, time, cost, MFU,
// why), for spreadsheets: `llmplan plan --format csv` and the app's planner download.
std::string plans_csv(const PlanResult& result);

// Parses {"objective", "constraints", "top_n", ...scenario fields without cluster/parallel} and
// returns the plan JSON (docs/planner.md).
PlanJsonResponse plan_json(std::string_view question_json, const Catalog& catalog, const Calibration& cal);

// The scenario part of a planner question for a scenario a front end edits (the app): its input
// JSON (write_scenario_input) without what the planner searches or prices per offering: cluster,
// network, parallel, micro_batch, pricing.mode and pricing.usd_per_gpu_hour.
std::string question_scenario_json(const Scenario& s, const Catalog& catalog);
// That scenario JSON with an objective, constraints (defaults left out, max_gpus always written)
// and top_n: the input of `llmplan plan` and of parse_question().
std::string write_question(std::string_view scenario_json, Objective objective, const Constraints& constraints,
                           int top_n);

// Everything `llmplan plan` prints per plan beyond the search's figures, as structs: the scenario
// that reproduces the plan, its estimate, advice, launch artefacts and checklist.
struct PlanDetails {
  bool ok = false;            // false only if the plan's scenario did not parse (never for a searched plan)
  std::string scenario_json;  // the `llmplan estimate` input of this plan
  Scenario scenario;
  EstimateResult result;
  PlanAdvice advice;
  LaunchArtifacts artifacts;
  std::vector<Check> checklist;
  PaymentOptions payment;  // on demand, all spot, two phases (plan_payment)
  int dp = 1, global_batch = 1, grad_accum = 1;
};
// The ways to pay for plan `c` (payment.hpp): its offering's on-demand and spot prices per GPU-hour,
// its layout, the question's debugging hours, and the published spot interruption rates (the
// question's pricing.spot_interruptions_per_hour as the central one when given). Spot and two
// phases are unavailable, with a note, when the offering publishes no spot price.
PaymentOptions plan_payment(const PlanCandidate& c, const Question& q, const Catalog& catalog, const Calibration& cal);

// `question_scenario_json` is QuestionParse::scenario_json of the question `q` that found `c`.
PlanDetails plan_details(const PlanCandidate& c, std::string_view question_scenario_json, const Question& q,
                         const Catalog& catalog, const Calibration& cal);

}  // namespace llmplan
