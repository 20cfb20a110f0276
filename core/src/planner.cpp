// planner.cpp: the search behind `llmplan plan`: offerings x node counts x layouts, each
// estimated by the same core as `llmplan estimate`, rejected with a counted reason or ranked.
//
// [SECTION] Search space
// [SECTION] One offering at one node count
// [SECTION] Ranking, Pareto front and reasons
// [SECTION] JSON question and answer
#include "llmplan/planner.hpp"
#include "llmplan/fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <tuple>

#include "json_read.hpp"
#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

//-----------------------------------------------------------------------------
// [SECTION] Search space
//-----------------------------------------------------------------------------

namespace {

// Node counts tried per offering: the sizes people rent, up to the GPU limit.
const int kNodeCounts[] = {1,  2,  3,   4,   6,   8,   12,  16,  24,   32,   48,
                           64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};

}  // namespace

namespace {

bool allowed(const std::vector<std::string>& list, const std::string& v) {
  return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
}

// An offering listed for every region ("all", "all OCI regions", "global") is in any region asked for.
bool every_region(const std::string& region) { return region.rfind("all", 0) == 0 || region == "global"; }
bool in_regions(const std::vector<std::string>& regions, const std::string& region) {
  return allowed(regions, region) || every_region(region);
}

bool in_currency(const std::string& currency, CurrencyCode c) {
  return currency.empty() || (currency == "cny") == (c == CurrencyCode::cny);
}

bool by_cost(Objective o) { return o == Objective::min_cost || o == Objective::min_cost_under_deadline; }
double objective_of(Objective o, const PlanCandidate& c) { return by_cost(o) ? c.cost_usd : c.total_hours; }

// Within 1 % on the objective two plans are a tie: for cost, the smaller cluster wins (fewer
// GPUs to rent, fail and debug: a 7B QLoRA job stays on one GPU), then the faster; for time,
// the cheaper. For one offering's layouts, which all have its GPUs.
bool better(Objective o, const PlanCandidate& a, const PlanCandidate& b) {
  const double x = objective_of(o, a), y = objective_of(o, b);
  if (std::fabs(x - y) > 0.01 * std::min(x, y)) return x < y;
  if (by_cost(o) && a.gpus() != b.gpus()) return a.gpus() < b.gpus();
  if (by_cost(o)) return a.total_hours < b.total_hours;
  return a.cost_usd < b.cost_usd;
}

// The same preference as `better`, as a total order: by the tie-breakers first, then the exact
// objective, then the offering, so that equal plans keep one order on every platform.
bool preferred(Objective o, const PlanCandidate& a, const PlanCandidate& b) {
  const auto key = [o](const PlanCandidate& c) {
    return std::make_tuple(by_cost(o) ? c.gpus() : 0, by_cost(o) ? c.total_hours : c.cost_usd, objective_of(o, c),
                           c.instance ? std::string_view(c.instance->id) : std::string_view(), c.nodes, c.cards,
                           static_cast<int>(c.mode));
  };
  return key(a) < key(b);
}

}  // namespace

// `better` ties plans within 1 % of each other, and ties chain (a ~ b ~ c with a and c 2 % apart),
// so a sort by it is not a strict weak ordering and its result depends on the sort's algorithm
// (libstdc++ and libc++ differ; the app is WASM): instead, repeatedly take, among the remaining
// plans within 1 % of the best remaining objective, the preferred one.
std::vector<PlanCandidate> rank_plans(Objective o, const std::vector<PlanCandidate>& plans) {
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double x = objective_of(o, plans[a]), y = objective_of(o, plans[b]);
    return x != y ? x < y : preferred(o, plans[a], plans[b]);
  });
  std::vector<bool> taken(order.size(), false);
  std::vector<PlanCandidate> ranked;
  ranked.reserve(order.size());
  for (size_t first = 0; first < order.size();) {
    const double limit = objective_of(o, plans[order[first]]) * 1.01;
    size_t pick = first;
    for (size_t i = first + 1; i < order.size() && objective_of(o, plans[order[i]]) <= limit; ++i)
      if (!taken[i] && preferred(o, plans[order[i]], plans[order[pick]])) pick = i;
    ranked.push_back(plans[order[pick]]);
    taken[pick] = true;
    while (first < order.size() && taken[first]) ++first;
  }
  return ranked;
}

bool offering_allowed(const Constraints& c, const Instance& in) {
  return allowed(c.providers, in.provider) && allowed(c.accelerators, in.accelerator) &&
         in_regions(c.regions, in.region) && in_currency(c.currency, in.currency);
}

int PlanCandidate::gpus_per_node() const { return cards > 0 ? cards : (instance ? instance->gpus : 1); }
int PlanCandidate::gpus() const { return nodes * gpus_per_node(); }
int PlanCandidate::dp() const { return gpus() / (layout.tp * layout.cp * layout.pp); }

const char* to_string(RejectReason r) {
  static const char* names[] = {"memory",   "divisibility", "batch",     "deadline",      "budget",    "no_price",
                                "software", "network",      "precision", "provider_kind", "lead_time", "no_rdma"};
  static_assert(std::size(names) == static_cast<size_t>(RejectReason::count), "one name per reason");
  return names[static_cast<int>(r)];
}

const char* to_string(Objective o) {
  const auto& names = kObjectiveNames;
  return names[static_cast<int>(o)];
}

Planner::Planner(const Question& q, const Catalog& catalog, const Calibration& cal)
    : q_(q), catalog_(catalog), cal_(cal) {
  const Constraints& c = q_.constraints;
  bool fabric = false;  // an allowed, priced offering has a published scale-out network
  std::set<std::string> unknown_lead;
  for (const Instance& in : catalog_.instances) {
    if (!offering_allowed(c, in)) continue;
    // The provider's kind and how soon it can start a job (catalog providers).
    const Provider* provider = catalog_.find_provider(in.provider);
    if (!c.provider_kinds.empty() && (!provider || !allowed(c.provider_kinds, provider->kind))) {
      ++acc_.rejected[static_cast<int>(RejectReason::provider_kind)];
      continue;
    }
    const bool lead_unknown = c.start_within_days && provider && !provider->lead_time_days;
    if (c.start_within_days && provider && provider->lead_time_days &&
        *provider->lead_time_days > *c.start_within_days) {
      ++acc_.rejected[static_cast<int>(RejectReason::lead_time)];
      continue;
    }
    const bool no_rdma = provider && provider->rdma_multi_node == false;
    const Accelerator* a = catalog_.find_accelerator(in.accelerator);
    Cluster hw;
    const bool known = a && set_accelerator(catalog_, a->id, hw);
    if (known && q_.base.method == Method::qlora && !runs_qlora(hw)) {
      ++acc_.rejected[static_cast<int>(RejectReason::software)];
      continue;
    }
    // The question's precision on tensor cores that lack it (bf16 on a V100, fp8 on an A100).
    if (known && !runs_precision(hw, q_.base.precision)) {
      ++acc_.rejected[static_cast<int>(RejectReason::precision)];
      continue;
    }
    bool any = false;
    for (PricingMode mode : {PricingMode::on_demand, PricingMode::spot}) {
      if (mode == PricingMode::spot && !c.spot) continue;
      const Opt& price = mode == PricingMode::spot ? in.spot_per_hour : in.on_demand_per_hour;
      if (!price) {
        ++acc_.rejected[static_cast<int>(RejectReason::no_price)];
        continue;
      }
      any = true;
      // An offering rented by the card is searched at every card count one host gives.
      if (in.per_card())
        for (int cards = 1; cards < in.gpus_per_host_max && cards <= c.max_gpus; ++cards)
          work_.push_back({&in, 1, cards == in.gpus ? 0 : cards, mode});
      const int per_node = in.per_card() ? in.gpus_per_host_max : in.gpus;
      for (int nodes : kNodeCounts) {
        if (nodes * per_node > c.max_gpus) continue;
        // Several machines form one job only over a published scale-out fabric; single-GPU
        // containers and marketplace hosts without one are used one machine at a time.
        if (nodes > 1 && in.inter_node_link.empty()) {
          ++acc_.rejected[static_cast<int>(RejectReason::network)];
          continue;
        }
        // A provider without multi-node RDMA does not run a job across its machines.
        if (nodes > 1 && no_rdma) {
          ++acc_.rejected[static_cast<int>(RejectReason::no_rdma)];
          continue;
        }
        work_.push_back({&in, nodes, in.per_card() ? per_node : 0, mode});
      }
    }
    acc_.offerings += any ? 1 : 0;
    if (any && lead_unknown) unknown_lead.insert(provider->id);
    fabric = fabric || (any && !in.inter_node_link.empty() && !no_rdma);
  }
  acc_.lead_time_unknown.assign(unknown_lead.begin(), unknown_lead.end());
  acc_.one_machine_only = acc_.offerings > 0 && !fabric;
  for (int n : kNodeCounts)
    if (n <= c.max_gpus) acc_.node_counts.push_back(n);
}

double Planner::progress() const {
  return work_.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(work_.size());
}

bool Planner::step(std::uint64_t budget) {
  const std::uint64_t stop = acc_.evaluated + acc_.bisected + budget;
  while (next_ < work_.size() && acc_.evaluated + acc_.bisected < stop) evaluate(work_[next_++]);
  return next_ >= work_.size();
}

//-----------------------------------------------------------------------------
// [SECTION] One offering at one node count
//-----------------------------------------------------------------------------

namespace {

// The figures of one estimated layout that ranking and the reasons use.
PlanCandidate candidate(const Instance* instance, int nodes, int cards, PricingMode mode, const Layout& l,
                        const EstimateResult& r) {
  PlanCandidate c;
  c.instance = instance;
  c.nodes = nodes;
  c.cards = cards;
  c.mode = mode;
  c.layout = l;
  c.step_s = r.time.step_s;
  c.total_hours = r.reliability.total_hours;
  c.cost_usd = r.cost.total_usd;
  c.mfu = r.time.mfu;
  c.memory_bytes = r.memory.per_gpu.total();
  c.capacity_bytes = r.memory.capacity_bytes;
  c.exposed_comm_s = r.time.comm.exposed_s();
  c.bubble_s = r.time.bubble_s;
  c.compute_s = r.time.compute_s;
  c.used_hours = r.cost.used_hours;
  c.billed_hours = r.cost.billed_hours;
  c.peak_tflops = r.time.mfu > 0 ? r.time.model_tflops_per_gpu / r.time.mfu : 0;
  return c;
}

}  // namespace

namespace {
constexpr double kLeastStepWithoutRecompute = 7.0 / 12.0;
}  // namespace

void Planner::evaluate(const Work& w) {
  Scenario s = q_.base;
  InputError err;
  if (!retarget_scenario(s, catalog_, *w.instance, w.nodes, w.cards, w.mode, err)) return;
  const int global = s.effective_global_batch();
  LayoutSpace space = layout_space(s);
  PlanCandidate best;
  bool found = false, any_fits = false;
  // A layout that fits, within the question's deadline and budget, competes for the best plan.
  // `counted`: a layout of the enumerated space, whose rejections add up with it.
  auto consider = [&](const Layout& l, const EstimateResult& r, bool counted) {
    const double days = r.reliability.total_hours * s.pricing.overhead_factor / 24.0;
    if (q_.constraints.deadline_days > 0 && days > q_.constraints.deadline_days) {
      if (counted) ++acc_.rejected[static_cast<int>(RejectReason::deadline)];
      return;
    }
    if (q_.constraints.budget_usd > 0 && r.cost.total_usd > q_.constraints.budget_usd) {
      if (counted) ++acc_.rejected[static_cast<int>(RejectReason::budget)];
      return;
    }
    PlanCandidate c = candidate(w.instance, w.nodes, w.cards, w.mode, l, r);
    c.calibrated = s.calibrated();
    c.framework = s.framework;
    if (!found || better(q_.objective, c, best)) best = c;
    found = true;
  };
  auto search = [&](const LayoutSpace& sp) {
    const LayoutEnumeration e = enumerate_layouts(sp);
    acc_.rejected[static_cast<int>(RejectReason::divisibility)] += e.divisibility;
    acc_.rejected[static_cast<int>(RejectReason::software)] += e.software;
    acc_.rejected[static_cast<int>(RejectReason::batch)] += e.batch;
    acc_.space += e.divisibility + e.software + e.batch;
    const Layout* too_big = nullptr;  // memory grows with the micro-batch: once one fails, larger ones do
    struct {
      Layout layout;
      std::vector<int> micro_batches;
    } none_fits;  // the micro-batches at which the current layout fits without recompute
    for (const Layout& l : e.layouts) {
      ++acc_.space;
      if (too_big && same_but_micro_batch(l, *too_big)) {
        ++acc_.rejected[static_cast<int>(RejectReason::memory)];
        continue;
      }
      apply_layout(l, s);
      s.global_batch = global;
      ++acc_.evaluated;
      const EstimateResult r = estimate(s, cal_);
      if (!layout_fits(s, r)) {
        ++acc_.rejected[static_cast<int>(RejectReason::memory)];
        too_big = &l;
        continue;
      }
      any_fits = true;
      consider(l, r, true);
      if (l.recompute == Recompute::none) {
        if (!same_but_recompute(l, none_fits.layout)) none_fits = {l, {}};
        none_fits.micro_batches.push_back(l.micro_batch);
      }
      // Every block recomputing fits: Megatron-LM can recompute fewer (--recompute-method block),
      // which is faster. Memory falls as the recomputed blocks grow, so the fewest that fit are
      // found by bisection, and tried as a layout of their own. Where no recompute fits at this
      // micro-batch (enumerated before, recompute being the outer range) it is faster still.
      if (l.recompute != Recompute::full || s.framework != FrameworkKind::megatron || s.method == Method::freeze ||
          !megatron_runs(l, s.model, s.method))
        continue;
      if (same_but_recompute(l, none_fits.layout) &&
          std::count(none_fits.micro_batches.begin(), none_fits.micro_batches.end(), l.micro_batch) > 0)
        continue;
      // Nor where it cannot beat the best plan of this offering and size, whose time and cost go
      // together: recomputing nothing leaves at least 7/12 of the step (eager LoRA's pointwise rows
      // 7 of 12 outputs; PEFT's passes over the linear layers 2 of 3, TP's and EP's collectives 4
      // of 6; the rest more).
      if (found && kLeastStepWithoutRecompute * r.time.step_s >= best.step_s) continue;
      // Only the memory is estimated while bisecting; the layout found is estimated whole. It fits
      // by the rule every layout here fits by, the estimate; at the edge of memory by construction,
      // its memory range says how much room a run may need.
      Layout fewer = l;
      fewer.recompute_layers = 0;
      int lo = 1, hi = most_chunk_layers(s) - 1;  // hi: the most that are not every block of a chunk
      while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        Layout probe = l;
        probe.recompute_layers = mid;
        apply_layout(probe, s);
        s.global_batch = global;
        if (memory_fits(s, estimate_memory(s, r.params, cal_))) {
          fewer = probe;
          hi = mid - 1;
        } else {
          lo = mid + 1;
        }
      }
      if (fewer.recompute_layers == 0) continue;
      apply_layout(fewer, s);
      s.global_batch = global;
      ++acc_.bisected;
      consider(fewer, estimate(s, cal_), false);
    }
  };
  search(space);
  // Shorter sequences are searched without context parallelism; when no layout fits in memory
  // without it, the context-parallel layouts (CP >= 2) are searched too.
  if (!any_fits && space.max_cp == 1 && s.seq_len % 4 == 0) {
    space.min_cp = 2;
    space.max_cp = s.cluster.gpus;
    search(space);
  }
  if (found) best_.push_back(best);
}

//-----------------------------------------------------------------------------
// [SECTION] Ranking, Pareto front and reasons
//-----------------------------------------------------------------------------

constexpr WhyWords kWhyEnglish = {
    {"cheapest of {0} feasible offerings and sizes: {1} over {2}, MFU {3} %, {4} per GPU-hour incl. overhead",
     "fastest of {0} feasible offerings and sizes: {1} over {2}, MFU {3} %, {4} per GPU-hour incl. overhead",
     "same cost within 1 % and {0}x the time on {1} GPUs instead of {2}: at equal cost the smaller cluster ranks "
     "first (fewer machines to rent, fail and debug)",
     "{2} GPUs instead of {3}", "a GPU with {2}x less peak: {3} TFLOP/s on {4} vs {5} on {6}",
     "the same {2} at {3} instead of {4} per GPU-hour (incl. overhead)",
     "its GPU-hour costs {2}x more ({3} vs {4} incl. overhead)", "a minimum billing block: {2} billed for {3} used",
     "exposed communication is {2} % of its step (vs {3} %) across {4} nodes over {5} (MFU {6} % vs {7} %)",
     "the pipeline bubble takes {2} % of its step (PP {3}{4}; MFU {5} % vs {6} %)", "MFU {2} % on {3} vs {4} % on {5}"},
    "{0}x the time and {1} more than #1: ",
    "{0}x the time and {1} less than #1: ",
    "{0}x faster and {1} more than #1: ",
    "{0}x faster and {1} less than #1: ",
    "; ",
    {"", "; it takes {0} days of wall clock, and no plan finishes within {1} days",
     "; it takes {0} days of wall clock: see the cheapest plan within {1} days",
     "; it takes {0} days of wall clock: see the cheapest plans within {1} and {2} days"},
};
// Every reason and note has its words (an aggregate leaves missing ones null).
static_assert(kWhyEnglish.reasons[static_cast<int>(WhyReason::count) - 1] &&
              kWhyEnglish.notes[static_cast<int>(WhyNote::count) - 1]);

std::string why_text(const PlanWhy& w, const WhyWords& words, const std::string& layout) {
  const std::string reason = fill_positional(words.reasons[static_cast<int>(w.reason)], w.args);
  std::string out;
  if (w.reason == WhyReason::cheapest || w.reason == WhyReason::fastest) {
    out = reason + words.layout_sep + layout;
  } else if (w.reason == WhyReason::same_cost_larger) {
    out = reason;
  } else {
    const char* head = w.faster ? (w.cheaper ? words.faster_less : words.faster_more)
                                : (w.cheaper ? words.slower_less : words.slower_more);
    out = fill_positional(head, w.args) + reason;
  }
  if (w.note != WhyNote::none) out += fill_positional(words.notes[static_cast<int>(w.note)], w.note_args);
  return out;
}

namespace {

std::string layout_text(const PlanCandidate& c) {
  char buf[224];
  std::snprintf(buf, sizeof buf, "TP %d x PP %d%s, ZeRO-%d%s, micro-batch %d, recompute %s", c.layout.tp, c.layout.pp,
                layout_extra_text(c.layout).c_str(), c.layout.zero,
                c.layout.offload == Offload::cpu ? " + CPU offload" : "", c.layout.micro_batch,
                recompute_text(c.layout).c_str());
  return buf;
}

double price_per_gpu_hour(const PlanCandidate& c) {
  return c.total_hours > 0 ? c.cost_usd / (c.total_hours * c.gpus()) : 0;
}

std::string fabric_name(const PlanCandidate& c) {
  return c.instance->inter_node_link.empty() ? std::string("TCP") : c.instance->inter_node_link;
}

// The main reason `c` loses to `best` under the objective, found by splitting the ratio of the
// figures ranked. The model FLOPs of the run are fixed, so GPU-hours go as 1 / (peak x MFU):
//   cost ratio = price ratio x billing-block ratio x (peak x MFU of #1) / (peak x MFU of c)
//   time ratio = (GPUs x peak x MFU of #1) / (GPUs x peak x MFU of c)
// The factor that hurts `c` most is the reason; an MFU loss is then named by its cause when one
// stands out (exposed communication, the pipeline bubble).
// Money as the question reads it: USD, or CNY at the catalog's rate for a CNY question.
struct Money {
  Currency currency = Currency::usd;
  double usd_to_cny = 1;
  std::string operator()(double usd) const {
    return format_money(currency == Currency::cny ? usd * usd_to_cny : usd, currency);
  }
};

// The reason `c` loses to `best` and its figures, formatted (PlanWhy::args from index 2).
void loses_because(const PlanCandidate& c, const PlanCandidate& best, Objective o, const Money& money, PlanWhy& w) {
  const bool by_time = o == Objective::min_time || o == Objective::min_time_under_budget;
  // Per GPU-hour incl. the overhead factor, as if billed by use: cost / (billed hours x GPUs) x
  // (used hours / hours), which is the cost per GPU-hour of the run when no billing block applies.
  const auto list_price = [](const PlanCandidate& p) {
    if (p.billed_hours <= 0 || p.total_hours <= 0) return price_per_gpu_hour(p);
    return p.cost_usd / (p.billed_hours * p.gpus()) * (p.used_hours / p.total_hours);
  };
  const auto block = [](const PlanCandidate& p) {
    return p.used_hours > 0 ? std::max(1.0, p.billed_hours / p.used_hours) : 1.0;
  };
  const auto num = [](const char* fmt, double v) { return format_number(fmt, v); };
  enum Factor { kGpus, kPeak, kMfu, kPrice, kBlock, kFactors };
  double hurt[kFactors] = {};  // > 1: how many times worse this factor makes `c`
  hurt[kGpus] = by_time ? static_cast<double>(best.gpus()) / c.gpus() : 0.0;
  hurt[kPeak] = c.peak_tflops > 0 ? best.peak_tflops / c.peak_tflops : 0.0;
  hurt[kMfu] = c.mfu > 0 ? best.mfu / c.mfu : 0.0;
  hurt[kPrice] = by_time ? 0.0 : list_price(c) / std::max(list_price(best), 1e-12);
  hurt[kBlock] = by_time ? 0.0 : block(c) / block(best);
  int worst = kMfu;
  for (int f = 0; f < kFactors; ++f)
    if (hurt[f] > hurt[worst]) worst = f;
  const double comm = c.exposed_comm_s / c.step_s, bcomm = best.exposed_comm_s / best.step_s;
  const double bubble = c.bubble_s / c.step_s, bbubble = best.bubble_s / best.step_s;
  auto& a = w.args;
  switch (worst) {
    case kGpus:
      w.reason = WhyReason::fewer_gpus;
      a.insert(a.end(), {std::to_string(c.gpus()), std::to_string(best.gpus())});
      break;
    case kPeak:
      w.reason = WhyReason::less_peak;
      a.insert(a.end(), {num("%.2f", hurt[kPeak]), num("%.0f", c.peak_tflops), c.instance->accelerator,
                         num("%.0f", best.peak_tflops), best.instance->accelerator});
      break;
    case kPrice:
      if (c.instance->accelerator == best.instance->accelerator) {
        w.reason = WhyReason::same_gpu_dearer;
        a.insert(a.end(), {c.instance->accelerator, money(list_price(c)), money(list_price(best))});
      } else {
        w.reason = WhyReason::dearer_gpu_hour;
        a.insert(a.end(), {num("%.2f", hurt[kPrice]), money(list_price(c)), money(list_price(best))});
      }
      break;
    case kBlock:
      w.reason = WhyReason::billing_block;
      a.insert(a.end(), {format_duration(c.billed_hours * 3600), format_duration(c.used_hours * 3600)});
      break;
    default:
      if (comm > 0.2 && comm > bcomm + 0.1) {
        w.reason = WhyReason::exposed_comm;
        a.insert(a.end(), {num("%.0f", 100 * comm), num("%.0f", 100 * bcomm), std::to_string(c.nodes), fabric_name(c),
                           num("%.0f", 100 * c.mfu), num("%.0f", 100 * best.mfu)});
      } else if (bubble > 0.15 && bubble > bbubble + 0.1) {
        w.reason = WhyReason::bubble;
        a.insert(a.end(), {num("%.0f", 100 * bubble), std::to_string(c.layout.pp),
                           c.layout.vp > 1 ? ", VP " + std::to_string(c.layout.vp) : "", num("%.0f", 100 * c.mfu),
                           num("%.0f", 100 * best.mfu)});
      } else {
        w.reason = WhyReason::lower_mfu;
        // Equal to the percent, a tenth shows which is lower.
        const char* fmt = std::lround(100 * c.mfu) == std::lround(100 * best.mfu) ? "%.1f" : "%.0f";
        a.insert(a.end(), {num(fmt, 100 * c.mfu), c.instance->accelerator, num(fmt, 100 * best.mfu),
                           best.instance->accelerator});
      }
  }
}

// Why `c` ranks `rank` (0 = first) of `feasible` plans under the objective, as data (PlanWhy).
PlanWhy why_of(const PlanCandidate& c, const PlanCandidate& best, size_t rank, size_t feasible, Objective o,
               const Money& money) {
  PlanWhy w;
  w.layout = layout_text(c);
  if (rank == 0) {
    w.reason = by_cost(o) ? WhyReason::cheapest : WhyReason::fastest;
    w.args = {std::to_string(feasible), money(c.cost_usd), format_duration(c.total_hours * 3600),
              format_number("%.0f", 100 * c.mfu), money(price_per_gpu_hour(c))};
    return w;
  }
  const double slower = c.total_hours / best.total_hours;
  const double dearer = c.cost_usd - best.cost_usd;
  // Within 1 % a larger cluster ranks below the smaller one (rank_plans); a smaller one that ranks
  // below lost on something else, which the general reason says.
  if (by_cost(o) && std::fabs(dearer) <= 0.01 * best.cost_usd && c.gpus() > best.gpus()) {
    w.reason = WhyReason::same_cost_larger;
    w.args = {format_number("%.2f", slower), std::to_string(c.gpus()), std::to_string(best.gpus())};
    return w;
  }
  w.faster = slower < 0.995;
  w.cheaper = dearer < 0;
  w.args = {format_number("%.2f", w.faster ? 1.0 / slower : slower), money(std::fabs(dearer))};
  loses_because(c, best, o, money, w);
  return w;
}

}  // namespace

// The plan's throughput range: its scenario's regime (nodes, method, sequence, accelerator class,
// framework) read against the validation residuals.
namespace {
void set_range(PlanCandidate& c, const Question& q, const Catalog& catalog) {
  Scenario s = q.base;
  InputError err;
  if (!retarget_scenario(s, catalog, *c.instance, c.nodes, c.cards, c.mode, err)) return;
  // A calibrated plan is read against calibrated runs when there are enough of them (ranges.hpp).
  RatioRange r = ratio_range(regime_of(s), "throughput", builtin_residuals());
  if (c.calibrated) {
    const RatioRange k = ratio_range(regime_of(s), "throughput_calibrated", builtin_residuals());
    if (k.cases >= kMinRangeCases && k.families >= kMinRangeFamilies) r = k;
  }
  c.speed_low = r.low;
  c.speed_high = r.high;
  c.range_cases = r.cases;
}
}  // namespace

namespace {
Money money_of(const Question& q) { return {question_currency(q), q.base.pricing.usd_to_cny}; }
}  // namespace

Currency question_currency(std::string_view constraints_currency, Currency scenario_currency) {
  return constraints_currency == "cny" || scenario_currency == Currency::cny ? Currency::cny : Currency::usd;
}

PlanResult Planner::result() const {
  PlanResult out = acc_;
  const std::vector<PlanCandidate> ranked = rank_plans(q_.objective, best_);
  const size_t n = std::min(ranked.size(), static_cast<size_t>(std::max(1, q_.top_n)));
  for (size_t i = 0; i < n; ++i) {
    out.plans.push_back(ranked[i]);
    set_range(out.plans.back(), q_, catalog_);
    out.why_data.push_back(why_of(ranked[i], ranked[0], i, ranked.size(), q_.objective, money_of(q_)));
  }
  // A best plan over kLongRunDays gets the cheapest plans that finish sooner beside it.
  const auto days = [&](const PlanCandidate& c) { return c.total_hours * q_.base.pricing.overhead_factor / 24.0; };
  if (!ranked.empty() && days(ranked[0]) > kLongRunDays) {
    for (double limit : kShorterRunDays) {
      const PlanCandidate* pick = nullptr;
      for (const PlanCandidate& c : ranked)
        if (days(c) <= limit && (!pick || c.cost_usd < pick->cost_usd)) pick = &c;
      if (pick) out.within.push_back({limit, *pick});
    }
    PlanWhy& w = out.why_data.front();
    const auto whole = [](double d) { return format_number("%.0f", d); };
    w.note_args = {whole(days(ranked[0]))};
    if (out.within.empty()) {
      w.note = WhyNote::no_shorter;
      w.note_args.push_back(whole(kShorterRunDays[std::size(kShorterRunDays) - 1]));
    } else {
      w.note = out.within.size() == 1 ? WhyNote::one_shorter : WhyNote::two_shorter;
      for (const PlanResult::Within& x : out.within) w.note_args.push_back(whole(x.days));
    }
  }
  for (const PlanWhy& w : out.why_data) out.why.push_back(why_english(w));
  // Pareto front over (time, cost): sort by time, keep each plan cheaper than all faster ones.
  std::vector<PlanCandidate> by_time = best_;
  std::stable_sort(by_time.begin(), by_time.end(), [](const PlanCandidate& a, const PlanCandidate& b) {
    return a.total_hours < b.total_hours || (a.total_hours == b.total_hours && a.cost_usd < b.cost_usd);
  });
  double cheapest = INFINITY;
  for (const PlanCandidate& c : by_time)
    if (c.cost_usd < cheapest) {
      out.pareto.push_back(c);
      set_range(out.pareto.back(), q_, catalog_);
      cheapest = c.cost_usd;
    }
  return out;
}

PlanResult plan(const Question& q, const Catalog& catalog, const Calibration& cal) {
  Planner p(q, catalog, cal);
  while (!p.step(1u << 20)) {}
  return p.result();
}

//-----------------------------------------------------------------------------
// [SECTION] JSON question and answer
//-----------------------------------------------------------------------------

namespace {

using json = nlohmann::ordered_json;

// [low, high] of a range, as the Pareto points carry it.
json pair_of(const Bounds& b) { return json::array({b.low, b.high}); }
using detail::Reader;

json known(double v) { return v > 0 ? json(v) : json(nullptr); }

// The searched ranges as `llmplan plan` states them (layouts.hpp).
json zero_stages() {
  json out = json::array();
  for (int z = 0; z <= kMaxZeroStage; ++z) out.push_back(z);
  return out;
}

template <typename Enum, size_t N>
json names_of(const Enum (&values)[N]) {
  json out = json::array();
  for (Enum v : values) out.push_back(to_string(v));
  return out;
}

json layout_json(const PlanCandidate& c) {
  return {{"tp", c.layout.tp},
          {"pp", c.layout.pp},
          {"cp", c.layout.cp},
          {"ep", c.layout.ep},
          {"vp", c.layout.vp},
          {"zero", c.layout.zero},
          {"sequence_parallel", c.layout.tp > 1},
          {"recompute", to_string(c.layout.recompute)},
          {"recompute_layers", c.layout.recompute_layers},
          {"offload", to_string(c.layout.offload)}};
}

// The scenario `llmplan estimate` takes to reproduce this plan: the question's own fields plus
// the offering, node count, layout, batch and pricing mode the search chose.
json plan_scenario(const json& question, const PlanCandidate& c, int global_batch) {
  json sc = question;
  // The framework the plan was estimated in, where the question left it to the layout.
  if (!sc.contains("framework") && c.framework == FrameworkKind::megatron) sc["framework"] = to_string(c.framework);
  sc["cluster"] = {{"instance", c.instance->id}, {"nodes", c.nodes}};
  if (c.cards > 0) sc["cluster"]["cards"] = c.cards;
  sc["parallel"] = layout_json(c);
  for (const char* k : {"cp", "ep", "vp"})  // 1 is the default: the scenario names only what the layout uses
    if (sc["parallel"][k] == 1) sc["parallel"].erase(k);
  if (sc["parallel"]["recompute_layers"] == 0) sc["parallel"].erase("recompute_layers");  // every block, or none
  sc["micro_batch"] = c.layout.micro_batch;
  sc["global_batch"] = global_batch;
  if (!sc.contains("pricing")) sc["pricing"] = json::object();
  sc["pricing"]["mode"] = to_string(c.mode);
  return sc;
}

json advice_json(const PlanAdvice& a) {
  json warnings = json::array();
  for (int i = 0; i < a.warnings.count; ++i) {
    const Warning& w = a.warnings.items[static_cast<size_t>(i)];
    warnings.push_back({{"code", warning_code(w.code)}, {"message", warning_message(w)}});
  }
  const NodeSizing& n = a.node;
  return {{"tier", to_string(a.tier)},
          {"warnings", warnings},
          {"node",
           {{"vcpus_needed", n.vcpus_needed},
            {"vcpus", known(n.vcpus)},
            {"ram_gb_needed", n.ram_gb_needed},
            {"ram_gb", known(n.ram_gb)},
            {"nvme_tb_needed", n.nvme_tb_needed},
            {"nvme_tb", known(n.nvme_tb)}}},
          {"rdma",
           {{"needed", a.rdma.needed},
            {"reason", a.rdma_reason},
            {"inter_node_bytes_per_gpu_step", a.rdma.inter_node_bytes},
            {"step_s", a.rdma.step_s},
            {"tcp_step_s", a.rdma.tcp_step_s}}},
          {"data", a.data_location},
          {"checkpoints", a.checkpoint_location}};
}

json artifacts_json(const LaunchArtifacts& a) {
  auto text = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
  return {{"framework", a.framework},
          {"torchrun", a.torchrun},
          {"deepspeed_json", text(a.deepspeed_json)},
          {"accelerate_yaml", text(a.accelerate_yaml)},
          {"megatron_args", text(a.megatron_args)},
          {"torchtitan_toml", text(a.torchtitan_toml)},
          {"peft_python", text(a.peft_python)}};
}

json checklist_json(const std::vector<Check>& checks) {
  json out = json::array();
  for (const Check& c : checks)
    out.push_back({{"id", c.id},
                   {"title", c.title},
                   {"command", c.command},
                   {"expect", c.expect},
                   {"expected", c.expected},
                   {"unit", c.unit}});
  return out;
}

// The plan's advice, artefacts and checklist, estimated anew from the scenario that reproduces
// it (the same path as `llmplan estimate`).
PlanDetails details_of(const json& sc, const PlanCandidate& c, const Question& q, const Catalog& catalog,
                       const Calibration& cal) {
  PlanDetails d;
  d.scenario_json = sc.dump();
  d.dp = c.dp();
  d.global_batch = q.base.global_batch;
  d.grad_accum = d.global_batch / (c.layout.micro_batch * d.dp);
  const ScenarioParse parse = parse_scenario(d.scenario_json, catalog);
  if (!parse.scenario) return d;  // cannot happen: the planner searched this very scenario
  d.ok = true;
  d.scenario = *parse.scenario;
  d.result = estimate(d.scenario, cal);
  d.advice = advise(d.scenario, d.result, catalog, cal);
  d.artifacts = launch_artifacts(d.scenario, d.result, cal);
  d.checklist = checklist(d.scenario, d.result, catalog, cal);
  d.payment = plan_payment(c, q, catalog, cal);
  return d;
}

// The plan's needs against its provider's catalog indicators; ok null where the catalog does not know.
// rdma: the plan spans several nodes / the provider runs jobs across nodes over RDMA.
// storage: the data read rate the estimate needs (io.data_bytes_per_s, MB/s) / what the provider's
// parallel file system reads at its fastest published tier when sized to hold the dataset (MB/s per
// TiB x dataset TiB); `tib_needed` is the size at which that tier gives the rate.
json provider_checks(const PlanCandidate& c, const Provider* p, const IoResult* io) {
  json out = json::array();
  const bool multi = c.nodes > 1;
  json rdma_has = p && p->rdma_multi_node ? json(*p->rdma_multi_node) : json(nullptr);
  json rdma_ok = !multi ? json(true) : rdma_has;
  out.push_back({{"indicator", "rdma"},
                 {"need", multi},
                 {"has", rdma_has},
                 {"ok", rdma_ok},
                 {"fabric", p && !p->rdma_fabric.empty() ? json(p->rdma_fabric) : json(nullptr)}});
  json need = io ? json(io->data_bytes_per_s / 1e6) : json(nullptr);
  json has = nullptr, ok = nullptr, tib_needed = nullptr;
  if (io && p && p->parallel_fs_mb_per_s_per_tib) {
    const double per_tib = *p->parallel_fs_mb_per_s_per_tib;
    const double rate = per_tib * io->dataset_bytes / 1099511627776.0;
    has = rate;
    ok = rate >= io->data_bytes_per_s / 1e6;
    tib_needed = io->data_bytes_per_s / 1e6 / per_tib;
  }
  out.push_back({{"indicator", "storage"},
                 {"need", need},
                 {"has", has},
                 {"ok", ok},
                 {"unit", "MB/s"},
                 {"parallel_fs", p && !p->parallel_fs.empty() ? json(p->parallel_fs) : json(nullptr)},
                 {"mb_per_s_per_tib",
                  p && p->parallel_fs_mb_per_s_per_tib ? json(*p->parallel_fs_mb_per_s_per_tib) : json(nullptr)},
                 {"tib_needed", tib_needed}});
  return out;
}

// The ways to pay as the plan JSON states them (docs/planner.md, "Ways to pay"): null where the
// offering has no price for a way.
json payment_json(const PaymentOptions& p, double usd_to_cny) {
  const auto way = [&](const PaymentWay& w, bool spot, bool two_phase) {
    if (!w.available) return json(nullptr);
    json j = {{"cost_usd", w.cost_usd}, {"cost_cny", w.cost_usd * usd_to_cny}, {"wall_clock_h", w.wall_clock_h}};
    if (spot) {
      j["cost_usd_low"] = w.cost_usd_low;
      j["cost_usd_high"] = w.cost_usd_high;
      j["wall_clock_h_low"] = w.wall_clock_h_low;
      j["wall_clock_h_high"] = w.wall_clock_h_high;
      j["interruptions"] = w.interruptions;
    }
    if (two_phase) {
      j["debug_hours"] = w.debug_hours;
      j["debug_cost_usd"] = w.debug_cost_usd;
      j["checkpoint_tier"] = p.two_phase_checkpoint_tier;
    }
    return j;
  };
  json out = {
      {"on_demand", way(p.on_demand, false, false)},
      {"spot", way(p.spot, true, false)},
      {"two_phase", way(p.two_phase, true, true)},
      {"cheapest", *p.cheapest ? json(p.cheapest) : json(nullptr)},
      {"debug_gpus", p.debug_gpus},
      {"spot_interruptions_per_node_hour",
       {{"low", p.rates.low}, {"central", p.rates.central}, {"high", p.rates.high}, {"source", kSpotRatesSource}}}};
  if (!p.note.empty()) out["note"] = p.note;
  return out;
}

// One ranked plan: the search's figures, the scenario that reproduces it, and its details.
json plan_entry(const PlanCandidate& c, const json& question, const Question& q, const Catalog& catalog,
                const Calibration& cal) {
  const json sc = plan_scenario(question, c, q.base.global_batch);
  const PlanDetails d = details_of(sc, c, q, catalog, cal);
  json layout = layout_json(c);
  layout["dp"] = d.dp;
  layout["micro_batch"] = c.layout.micro_batch;
  layout["global_batch"] = d.global_batch;
  layout["grad_accum"] = d.grad_accum;
  const Provider* provider = catalog.find_provider(c.instance->provider);
  json entry = {
      {"instance", c.instance->id},
      {"provider", c.instance->provider},
      {"provider_kind", provider ? json(provider->kind) : json(nullptr)},
      {"accelerator", c.instance->accelerator},
      {"nodes", c.nodes},
      {"gpus", c.gpus()},
      {"pricing_mode", to_string(c.mode)},
      {"layout", layout},
      {"time",
       {{"step_s", c.step_s}, {"total_hours", c.total_hours}, {"total_days", c.total_hours / 24}, {"mfu", c.mfu}}},
      {"cost",
       {{"total_usd", c.cost_usd},
        {"total_cny", c.cost_usd * q.base.pricing.usd_to_cny},
        {"effective_usd_per_gpu_hour", price_per_gpu_hour(c)},
        {"used_hours", c.used_hours},
        {"billed_hours", c.billed_hours}}},
      {"memory", {{"per_gpu_bytes", c.memory_bytes}, {"capacity_bytes", c.capacity_bytes}}}};
  if (c.cards > 0) entry["cards"] = c.cards;
  entry["scenario"] = sc;
  if (q.base.measured.any()) entry["calibrated"] = c.calibrated;
  if (c.range_cases > 0) {  // time and cost under the plan's throughput range (ranges.hpp)
    auto range = [&c](double v) {
      const Bounds b = duration_bounds(v, c.speed_low, c.speed_high);
      return json{{"low", b.low}, {"high", b.high}, {"level", kRangeLevel}, {"cases", c.range_cases}};
    };
    const Bounds cost = cost_bounds(c.cost_usd, c.used_hours, c.billed_hours, c.speed_low, c.speed_high);
    entry["ranges"] = {
        {"time.step_s", range(c.step_s)},
        {"time.total_hours", range(c.total_hours)},
        {"cost.total_usd", {{"low", cost.low}, {"high", cost.high}, {"level", kRangeLevel}, {"cases", c.range_cases}}}};
  }
  entry["provider_checks"] = provider_checks(c, provider, d.ok ? &d.result.io : nullptr);
  if (!d.ok) return entry;
  entry["cost"]["usd_per_gpu_hour"] = d.result.cost.usd_per_gpu_hour;
  entry["payment"] = payment_json(d.payment, q.base.pricing.usd_to_cny);
  entry["advice"] = advice_json(d.advice);
  entry["artifacts"] = artifacts_json(d.artifacts);
  entry["checklist"] = checklist_json(d.checklist);
  return entry;
}

bool read_question(Reader& r, const nlohmann::json& root, Question& q) {
  if (!r.object(root, "")) return false;
  for (const char* searched : {"cluster", "parallel", "network"})
    if (root.contains(searched))
      return r.fail(searched, "is what the planner searches; leave it out (constraints narrow the search)");
  if (root.contains("pricing") && root["pricing"].is_object())
    for (const char* k : {"usd_per_gpu_hour", "mode"})
      if (root["pricing"].contains(k))
        return r.fail(std::string("pricing.") + k,
                      "is chosen per offering by the planner from the catalog; leave it out "
                      "(constraints.spot adds spot prices)");
  // The question's own fields, checked by the field table; the scenario part is parsed later.
  nlohmann::json own = nlohmann::json::object();
  for (const std::string& k : question_keys())
    if (root.contains(k)) own[k] = root[k];
  if (!detail::check_fields(r, own, FieldScope::question)) return false;
  const auto number = [&](const char* path, double fallback) {
    const nlohmann::json* v = json_at(own, path);
    return v ? v->get<double>() : fallback;
  };
  const auto names = [&](const char* path) {
    const nlohmann::json* v = json_at(own, path);
    return v ? v->get<std::vector<std::string>>() : std::vector<std::string>{};
  };
  Constraints& k = q.constraints;
  if (const nlohmann::json* v = json_at(own, "objective"))
    for (size_t i = 0; i < std::size(kObjectiveNames); ++i)
      if (*v == kObjectiveNames[i]) q.objective = static_cast<Objective>(i);
  q.top_n = static_cast<int>(number("top_n", q.top_n));
  k.max_gpus = static_cast<int>(number("constraints.max_gpus", k.max_gpus));
  k.deadline_days = number("constraints.deadline_days", k.deadline_days);
  k.budget_usd = number("constraints.budget_usd", k.budget_usd);
  k.providers = names("constraints.providers");
  k.accelerators = names("constraints.accelerators");
  k.regions = names("constraints.regions");
  if (const nlohmann::json* v = json_at(own, "constraints.currency")) k.currency = v->get<std::string>();
  if (const nlohmann::json* v = json_at(own, "constraints.spot")) k.spot = v->get<bool>();
  if (const nlohmann::json* v = json_at(own, "constraints.start_within_days")) k.start_within_days = v->get<double>();
  k.provider_kinds = names("constraints.provider_kinds");
  for (const std::string& kind : k.provider_kinds)
    if (std::find(std::begin(kProviderKinds), std::end(kProviderKinds), kind) == std::end(kProviderKinds)) {
      std::string kinds;
      for (const char* n : kProviderKinds) kinds += (kinds.empty() ? "\"" : ", \"") + std::string(n) + "\"";
      return r.fail("constraints.provider_kinds",
                    "unknown provider kind " + Reader::echo(kind) + "; allowed: " + kinds);
    }
  k.debug_hours = number("constraints.debug_hours", k.debug_hours);
  if (q.objective == Objective::min_cost_under_deadline && q.constraints.deadline_days <= 0)
    return r.fail("constraints.deadline_days", "required_by_objective", {"min_cost_under_deadline"});
  if (q.objective == Objective::min_time_under_budget && q.constraints.budget_usd <= 0)
    return r.fail("constraints.budget_usd", "required_by_objective", {"min_time_under_budget"});
  return true;
}

// A constraint naming something the catalog does not have matches no offering: refuse it and name
// the closest known values (an empty search would only advise relaxing the deadline).
bool check_known(Reader& r, const char* path, const char* what, const std::vector<std::string>& asked,
                 const std::set<std::string>& known) {
  for (const std::string& name : asked) {
    if (known.count(name)) continue;
    return r.fail(path, std::string("unknown ") + what + " " + Reader::echo(name) +
                            "; closest: " + detail::closest_ids(name, known) + "; `llmplan catalog list " +
                            (std::string(what) == "region" ? "instances" : std::string(what) + "s") + "` prints them");
  }
  return true;
}

bool check_constraint_names(Reader& r, const Constraints& k, const Catalog& catalog) {
  // A region no offering names would keep only those listed for every region ("all", "global"),
  // silently: a typo such as "us-east1" is refused with the closest names instead.
  std::set<std::string> providers, accelerators, regions;
  for (const Instance& in : catalog.instances) {
    providers.insert(in.provider);
    if (!every_region(in.region)) regions.insert(in.region);
  }
  for (const Accelerator& a : catalog.accelerators) accelerators.insert(a.id);
  return check_known(r, "constraints.providers", "provider", k.providers, providers) &&
         check_known(r, "constraints.accelerators", "accelerator", k.accelerators, accelerators) &&
         check_known(r, "constraints.regions", "region", k.regions, regions);
}

}  // namespace

QuestionParse parse_question(std::string_view text, const Catalog& catalog) {
  QuestionParse out;
  std::string problem, at;
  nlohmann::json root = detail::parse_checked(text, problem, &at);
  Reader r(out.error);
  Question q;
  if (root.is_discarded())
    return r.fail(at.empty() ? "(question)" : at,
                  "not valid JSON: " + (problem.empty() ? std::string("unreadable") : problem)),
           out;
  if (!read_question(r, root, q) || !check_constraint_names(r, q.constraints, catalog)) return out;
  for (const std::string& k : question_keys()) root.erase(k);
  ScenarioParse parse = parse_scenario(root.dump(), catalog);
  if (!parse.scenario) {
    out.error = parse.error;
    return out;
  }
  q.base = std::move(*parse.scenario);
  // The planner chooses the hardware, so a trial's measurement says on what it ran.
  if (q.base.measured.any())
    for (const char* k : {"accelerator", "gpus"})
      if (!root.contains("calibration") || !root["calibration"].contains("measured_on") ||
          !root["calibration"]["measured_on"].contains(k))
        return r.fail(std::string("calibration.measured_on.") + k,
                      "is needed in a planner question with measurements: the planner chooses the hardware, so "
                      "the trial's own must be given"),
               out;
  if (q.base.training_tokens() <= 0) {
    r.fail("tokens", "planner_tokens", {});
    return out;
  }
  // One global batch for every layout, so plans are comparable: the user's, else 4M tokens
  // for pretraining (LLaMA's batch) and 64 sequences for fine-tuning.
  if (q.base.global_batch <= 0) {
    out.default_global_batch = true;
    const bool pre = q.base.method == Method::pretrain || q.base.method == Method::continued;
    q.base.global_batch = pre ? std::max(1, static_cast<int>(std::lround(4194304.0 / q.base.seq_len))) : 64;
  }
  out.question = std::move(q);
  out.scenario_json = root.dump();
  return out;
}

PaymentOptions plan_payment(const PlanCandidate& c, const Question& q, const Catalog& catalog, const Calibration& cal) {
  if (!c.instance) return {};
  const Instance& in = *c.instance;
  PaymentPrices prices;
  // The smallest unit the offering rents: one machine, or the listed shape of one rented by the card.
  prices.debug_gpus = in.gpus;
  Scenario base;
  bool have = false;
  for (PricingMode mode : {PricingMode::on_demand, PricingMode::spot}) {
    Scenario s = q.base;
    InputError err;
    if (!retarget_scenario(s, catalog, in, c.nodes, c.cards, mode, err)) continue;  // no price in this mode
    const bool od = mode == PricingMode::on_demand;
    (od ? prices.on_demand_usd_per_gpu_hour : prices.spot_usd_per_gpu_hour) = s.pricing.usd_per_gpu_hour;
    (od ? prices.on_demand_min_billing_hours : prices.spot_min_billing_hours) = s.pricing.min_billing_hours;
    if (!have) base = std::move(s);
    have = true;
  }
  if (!have) return {};
  apply_layout(c.layout, base);
  base.global_batch = q.base.global_batch;
  // The two-phase long run keeps its checkpoints in object storage (seed 003 §3.3: a reclaimed spot
  // machine loses its local disk): the provider's own object store in the catalog, else the
  // generic S3-compatible client.
  std::optional<Scenario> object_run;
  const StorageTier* object = nullptr;
  for (const StorageTier& t : catalog.storage)
    if (t.kind == "object" && (t.provider == in.provider || (!object && t.provider == "generic"))) object = &t;
  if (object && prices.spot_usd_per_gpu_hour > 0) {
    Scenario s = q.base;
    s.storage.checkpoint_tier = object->id;
    InputError err;
    if (retarget_scenario(s, catalog, in, c.nodes, c.cards, PricingMode::spot, err)) {
      apply_layout(c.layout, s);
      s.global_batch = q.base.global_batch;
      object_run = std::move(s);
    }
  }
  PaymentOptions out = compare_payment(base, cal, prices, spot_rates(q.base.pricing.spot_interruptions_per_hour),
                                       q.constraints.debug_hours, object_run ? &*object_run : nullptr);
  if (!out.spot.available)
    out.note = in.id + " publishes no spot price: no spot or two-phase option";
  else if (!out.on_demand.available)
    out.note = in.id + " publishes no on-demand price: no on-demand or two-phase option";
  return out;
}

PlanDetails plan_details(const PlanCandidate& c, std::string_view question_scenario_json, const Question& q,
                         const Catalog& catalog, const Calibration& cal) {
  const json question = json::parse(question_scenario_json, nullptr, false);
  if (question.is_discarded() || !c.instance) return {};
  return details_of(plan_scenario(question, c, q.base.global_batch), c, q, catalog, cal);
}

std::string question_scenario_json(const Scenario& s, const Catalog& catalog) {
  json doc = detail::parse_text<json>(write_scenario_input(s, catalog));
  for (const char* k : {"cluster", "network", "parallel", "micro_batch"}) doc.erase(k);
  if (doc.contains("pricing")) {
    json& p = doc["pricing"];
    p.erase("mode");
    p.erase("usd_per_gpu_hour");
    if (p.empty()) doc.erase("pricing");
  }
  return doc.dump();
}

std::string write_question(std::string_view scenario_json, Objective objective, const Constraints& c, int top_n) {
  json doc = json::parse(scenario_json, nullptr, false);
  if (!doc.is_object()) doc = json::object();
  doc["objective"] = to_string(objective);
  json k = {{"max_gpus", c.max_gpus}};
  if (c.deadline_days > 0) k["deadline_days"] = c.deadline_days;
  if (c.budget_usd > 0) k["budget_usd"] = c.budget_usd;
  if (!c.providers.empty()) k["providers"] = c.providers;
  if (!c.accelerators.empty()) k["accelerators"] = c.accelerators;
  if (!c.regions.empty()) k["regions"] = c.regions;
  if (!c.currency.empty()) k["currency"] = c.currency;
  if (c.spot) k["spot"] = true;
  if (c.start_within_days) k["start_within_days"] = *c.start_within_days;
  if (!c.provider_kinds.empty()) k["provider_kinds"] = c.provider_kinds;
  if (c.debug_hours != kDefaultDebugHours) k["debug_hours"] = c.debug_hours;
  doc["constraints"] = k;
  doc["top_n"] = top_n;
  return doc.dump();
}

std::string plans_csv(const PlanResult& res) {
  auto quoted = [](const std::string& s) {  // RFC 4180: quote, double the quotes
    std::string out = "\"";
    for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
  };
  std::string csv =
      "rank,instance,provider,accelerator,nodes,gpus,pricing_mode,tp,pp,cp,ep,vp,dp,zero,micro_batch,recompute,"
      "offload,step_s,total_hours,cost_usd,mfu,why,recompute_layers\r\n";
  char buf[256];
  for (size_t i = 0; i < res.plans.size(); ++i) {
    const PlanCandidate& c = res.plans[i];
    const Layout& l = c.layout;
    std::snprintf(buf, sizeof buf, "%zu,%s,%s,%s,%d,%d,%s,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%.6g,%.6g,%.2f,%.4f,", i + 1,
                  c.instance->id.c_str(), c.instance->provider.c_str(), c.instance->accelerator.c_str(), c.nodes,
                  c.gpus(), to_string(c.mode), l.tp, l.pp, l.cp, l.ep, l.vp, c.dp(), l.zero, l.micro_batch,
                  to_string(l.recompute), to_string(l.offload), c.step_s, c.total_hours, c.cost_usd, c.mfu);
    csv += buf + quoted(i < res.why.size() ? res.why[i] : "") + "," + std::to_string(l.recompute_layers) + "\r\n";
  }
  return csv;
}

namespace {
// Why every plan stays on one machine, and what to do about it.
std::string one_machine_text(const Question& q, const PlanResult& res) {
  std::string t = res.offerings == 1
                      ? std::string("The one offering these constraints allow publishes")
                      : "None of the " + std::to_string(res.offerings) + " offerings these constraints allow publishes";
  t += res.offerings == 1 ? " no multi-node network with a price, so every plan runs on one machine."
                          : " a multi-node network with a price, so every plan runs on one machine.";
  if (money_of(q).currency == Currency::cny)
    t += " Chinese platforms do sell multi-node RDMA clusters (Alibaba PAI Lingjun, Tencent Cloud HCC, Volcano "
         "Engine ml.hpcpni2), but publish their prices only in the purchase console. To plan on one, estimate it "
         "with cluster.accelerator, cluster.gpus, network.inter_node_link and its quoted pricing.usd_per_gpu_hour.";
  return t;
}
}  // namespace

PlanJsonResponse plan_json(std::string_view text, const Catalog& catalog, const Calibration& cal) {
  PlanJsonResponse out;
  const QuestionParse parsed = parse_question(text, catalog);
  if (!parsed.question) {
    out.error = parsed.error;
    out.body = json{{"error", {{"field", out.error.field}, {"message", out.error.message}}}}.dump();
    return out;
  }
  const Question& q = *parsed.question;
  const PlanResult res = plan(q, catalog, cal);
  const json question = detail::parse_text<json>(parsed.scenario_json);
  json plans = json::array();
  for (size_t i = 0; i < res.plans.size(); ++i) {
    json p = {{"rank", i + 1}, {"why", res.why[i]}};
    p.update(plan_entry(res.plans[i], question, q, catalog, cal));
    plans.push_back(p);
  }
  json pareto = json::array();
  for (const PlanCandidate& c : res.pareto) {
    pareto.push_back({{"instance", c.instance->id},
                      {"nodes", c.nodes},
                      {"gpus", c.gpus()},
                      {"pricing_mode", to_string(c.mode)},
                      {"total_hours", c.total_hours},
                      {"cost_usd", c.cost_usd},
                      {"total_hours_range", pair_of(duration_bounds(c.total_hours, c.speed_low, c.speed_high))},
                      {"cost_usd_range",
                       pair_of(cost_bounds(c.cost_usd, c.used_hours, c.billed_hours, c.speed_low, c.speed_high))}});
    if (q.base.measured.any()) pareto.back()["calibrated"] = c.calibrated;
  }
  json within = json::array();
  for (const PlanResult::Within& w : res.within)
    within.push_back({{"days", w.days},
                      {"instance", w.plan.instance->id},
                      {"nodes", w.plan.nodes},
                      {"gpus", w.plan.gpus()},
                      {"pricing_mode", to_string(w.plan.mode)},
                      {"total_hours", w.plan.total_hours},
                      {"cost_usd", w.plan.cost_usd},
                      {"cost_cny", w.plan.cost_usd * q.base.pricing.usd_to_cny}});
  json notices = json::array();
  if (res.one_machine_only) notices.push_back({{"code", "one_machine_only"}, {"message", one_machine_text(q, res)}});
  if (!res.lead_time_unknown.empty()) {
    std::string names;
    for (const std::string& id : res.lead_time_unknown) names += (names.empty() ? "" : ", ") + id;
    notices.push_back({{"code", "lead_time_unknown"},
                       {"message", "The catalog does not know how soon " + names +
                                       " can start a job, so their offerings are kept although constraints."
                                       "start_within_days may exclude them: ask the provider."},
                       {"providers", res.lead_time_unknown}});
  }
  json rejected = json::object();
  for (int i = 0; i < static_cast<int>(RejectReason::count); ++i)
    rejected[to_string(static_cast<RejectReason>(i))] = res.rejected[i];
  json body = {{"llmplan_version", LLMPLAN_VERSION},
               {"catalog_version", catalog.catalog_version},
               {"objective", to_string(q.objective)},
               // The currency the question reads its costs in: CNY when it asks for CNY offerings or shows CNY.
               {"currency", kCurrencyNames[static_cast<int>(question_currency(q))]},
               {"plans", plans},
               {"pareto", pareto},
               {"within", within},
               {"notices", notices},
               {"searched",
                {{"offerings", res.offerings},
                 {"node_counts", res.node_counts},
                 {"tp", "divisors of heads up to the GPUs of one node"},
                 {"pp", "divisors of layers"},
                 {"cp",
                  "1, and powers of two whose 2 x cp divides seq_len from 16384 tokens or when nothing fits "
                  "without"},
                 {"ep", "divisors of the experts that divide DP (MoE models)"},
                 {"vp", "divisors of the layers per stage (PP > 1)"},
                 {"zero", zero_stages()},
                 {"offload", names_of(kOffloads)},
                 {"recompute", names_of(kRecomputes)},
                 {"recompute_layers",
                  "0 (every block), and with full recompute under Megatron-LM the fewest blocks of each chunk "
                  "that fit, found by bisection"},
                 {"micro_batch", kMicroBatches},
                 {"global_batch", q.base.global_batch},
                 {"layouts", res.space},
                 {"evaluated", res.evaluated},
                 {"partial_recompute_evaluated", res.bisected}}},
               {"rejected", rejected}};
  if (res.plans.empty())
    body["message"] =
        "no offering satisfies the constraints: see \"rejected\" for why, and relax max_gpus, the deadline or the "
        "budget";
  out.ok = true;
  out.body = body.dump(2);
  return out;
}

}  // namespace llmplan
