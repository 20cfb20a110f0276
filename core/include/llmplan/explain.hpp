// explain.hpp: "why this number". Each model function can record the formula and the values it
// plugged in for a result figure; estimate() passes nullptr on the hot path (no allocation) and a
// recorder when a front end asks for explanations.
#pragma once
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace llmplan {

struct Explanation {
  std::string key;  // the result JSON path, e.g. "time.step_s"
  double value = 0;
  std::string unit;                                    // "s", "B", "FLOP", "USD", "1" ...
  std::string formula;                                 // in words and symbols, with its source
  std::vector<std::pair<std::string, double>> inputs;  // the values plugged in
};

class Explainer {
 public:
  void add(const char* key, double value, const char* unit, const char* formula,
           std::initializer_list<std::pair<const char*, double>> inputs) {
    Explanation e{key, value, unit, formula, {}};
    for (const auto& [name, v] : inputs) e.inputs.emplace_back(name, v);
    items_.push_back(std::move(e));
  }
  const std::vector<Explanation>& items() const { return items_; }

 private:
  std::vector<Explanation> items_;
};

}  // namespace llmplan
