// design_space.hpp: the design space of one training question: accelerator (rows) x GPU count
// (columns) -> the best plan the planner finds for that accelerator at exactly that many GPUs
// (its cost and time), for the app's heat map. Runs in slices like the Planner, one accelerator
// after another, so a front end can show it filling in.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llmplan/planner.hpp"

namespace llmplan {

// Columns of the grid: powers of two up to 1024 GPUs.
inline constexpr int kDesignGpuCounts[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

struct DesignCell {
  bool feasible = false;  // some offering of this accelerator runs the question at this GPU count
  PlanCandidate plan;     // the best of them under the question's objective (its layout, time, cost)
};

struct DesignGrid {
  std::vector<std::string> accelerators;  // rows: catalog accelerator ids with a priced offering, catalog order
  std::vector<int> gpu_counts;            // columns
  std::vector<DesignCell> cells;          // row-major: cells[row * gpu_counts.size() + column]
  int rows_done = 0;                      // rows whose search is complete (the rest are not feasible yet)
  const DesignCell& at(size_t row, size_t column) const { return cells[row * gpu_counts.size() + column]; }
  // Range of the feasible cells' cost (USD) and time (hours); 0 when no cell is feasible.
  double min_cost_usd = 0, max_cost_usd = 0, min_hours = 0, max_hours = 0;
};

class DesignSpace {
 public:
  // The question's deadline and budget are ignored (the grid shows the whole space); its
  // providers, accelerators and spot constraints narrow it; max_gpus is the last column.
  // `catalog` and `cal` must outlive the design space.
  DesignSpace(const Question& q, const Catalog& catalog, const Calibration& cal,
              std::vector<int> gpu_counts = {std::begin(kDesignGpuCounts), std::end(kDesignGpuCounts)});
  ~DesignSpace();
  // Evaluates up to about `budget` layouts (at least one offering at one node count); true when done.
  bool step(std::uint64_t budget);
  double progress() const;  // 0..1
  const DesignGrid& grid() const { return grid_; }
  std::uint64_t evaluated() const { return evaluated_; }

 private:
  void finish_row();
  Question q_;
  const Catalog& catalog_;
  const Calibration& cal_;
  DesignGrid grid_;
  std::unique_ptr<Planner> planner_;  // of row grid_.rows_done
  std::uint64_t evaluated_ = 0, row_evaluated_ = 0;
};

// The whole grid at once.
DesignGrid design_space(const Question& q, const Catalog& catalog, const Calibration& cal);

}  // namespace llmplan
