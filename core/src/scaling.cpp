// scaling.cpp: the closed form of scaling.hpp.
#include "llmplan/scaling.hpp"

#include <cmath>

namespace llmplan {

// D_opt = (C/6)^b / G equals (C/6) / N_opt, as a + b = 1: one power instead of two.
ComputeOptimal compute_optimal(const ScalingLaw& law, double flops) {
  const double c6 = flops / 6;
  if (c6 <= 0) return {};  // no training compute (no tokens given): no optimum
  const double params = law.G * std::pow(c6, law.beta / (law.alpha + law.beta));
  return {params, c6 / params};
}

double law_optimal_tokens(const ScalingLaw& law, double params) {
  // Invert N_opt(C) = G (C/6)^a for C/6, then D = (C/6) / N.
  const double a = law.beta / (law.alpha + law.beta);
  const double c6 = std::pow(params / law.G, 1 / a);
  return c6 / params;
}

TrainingRegime training_regime(double params, double tokens) {
  const double ratio = tokens / (kComputeOptimalTokensPerParam * params);
  if (ratio < 1 / kNearOptimalFactor) return TrainingRegime::under_trained;
  if (ratio > kNearOptimalFactor) return TrainingRegime::over_trained;
  return TrainingRegime::near_optimal;
}

}  // namespace llmplan
