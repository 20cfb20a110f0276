// design_space.cpp: accelerator x GPU count grid of best plans, one Planner per accelerator.
#include "llmplan/design_space.hpp"

#include <algorithm>
#include <climits>

#include "llmplan/catalog.hpp"

namespace llmplan {

DesignSpace::DesignSpace(const Question& q, const Catalog& catalog, const Calibration& cal, std::vector<int> gpu_counts)
    : q_(q), catalog_(catalog), cal_(cal) {
  q_.constraints.deadline_days = 0;
  q_.constraints.budget_usd = 0;
  if (q_.objective == Objective::min_cost_under_deadline) q_.objective = Objective::min_cost;
  if (q_.objective == Objective::min_time_under_budget) q_.objective = Objective::min_time;
  q_.top_n = INT_MAX;  // every feasible (offering, node count, mode): the cells pick from them
  for (int n : gpu_counts)
    if (n <= q_.constraints.max_gpus) grid_.gpu_counts.push_back(n);
  if (!grid_.gpu_counts.empty()) q_.constraints.max_gpus = grid_.gpu_counts.back();
  for (const Accelerator& a : catalog_.accelerators) {
    const bool offered = std::any_of(catalog_.instances.begin(), catalog_.instances.end(), [&](const Instance& in) {
      return in.accelerator == a.id && offering_allowed(q.constraints, in) &&
             (in.on_demand_per_hour || (q.constraints.spot && in.spot_per_hour));
    });
    if (offered) grid_.accelerators.push_back(a.id);
  }
  grid_.cells.resize(grid_.accelerators.size() * grid_.gpu_counts.size());
}

DesignSpace::~DesignSpace() = default;

void DesignSpace::finish_row() {
  const PlanResult r = planner_->result();  // ranked best first: the first plan at each count wins
  const size_t row = static_cast<size_t>(grid_.rows_done);
  for (size_t col = 0; col < grid_.gpu_counts.size(); ++col) {
    for (const PlanCandidate& c : r.plans) {
      if (c.gpus() != grid_.gpu_counts[col]) continue;
      DesignCell& cell = grid_.cells[row * grid_.gpu_counts.size() + col];
      cell.feasible = true;
      cell.plan = c;
      break;
    }
  }
  planner_.reset();
  ++grid_.rows_done;
  bool any = false;
  for (const DesignCell& cell : grid_.cells) {
    if (!cell.feasible) continue;
    const double cost = cell.plan.cost_usd, hours = cell.plan.total_hours;
    grid_.min_cost_usd = any ? std::min(grid_.min_cost_usd, cost) : cost;
    grid_.max_cost_usd = any ? std::max(grid_.max_cost_usd, cost) : cost;
    grid_.min_hours = any ? std::min(grid_.min_hours, hours) : hours;
    grid_.max_hours = any ? std::max(grid_.max_hours, hours) : hours;
    any = true;
  }
}

bool DesignSpace::step(std::uint64_t budget) {
  const std::uint64_t stop = evaluated_ + std::max<std::uint64_t>(1, budget);
  while (grid_.rows_done < static_cast<int>(grid_.accelerators.size()) && evaluated_ < stop) {
    if (!planner_) {
      Question row = q_;
      row.constraints.accelerators = {grid_.accelerators[static_cast<size_t>(grid_.rows_done)]};
      planner_ = std::make_unique<Planner>(row, catalog_, cal_);
      row_evaluated_ = 0;
    }
    const bool done = planner_->step(stop - evaluated_);
    const std::uint64_t now = planner_->evaluated();
    evaluated_ += now - row_evaluated_;
    row_evaluated_ = now;
    if (done) finish_row();
  }
  return grid_.rows_done >= static_cast<int>(grid_.accelerators.size());
}

double DesignSpace::progress() const {
  if (grid_.accelerators.empty()) return 1.0;
  const double row = planner_ ? planner_->progress() : 0.0;
  return std::min(1.0, (grid_.rows_done + row) / static_cast<double>(grid_.accelerators.size()));
}

DesignGrid design_space(const Question& q, const Catalog& catalog, const Calibration& cal) {
  DesignSpace d(q, catalog, cal);
  while (!d.step(1u << 20)) {}
  return d.grid();
}

}  // namespace llmplan
