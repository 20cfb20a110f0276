// scaling.cpp: the closed form of scaling.hpp.
#include "llmplan/scaling.hpp"

#include <cmath>

namespace llmplan {

namespace {
double g_factor(const ScalingLaw& law) {
  return std::pow(law.alpha * law.A / (law.beta * law.B), 1 / (law.alpha + law.beta));
}
}  // namespace

ComputeOptimal compute_optimal(const ScalingLaw& law, double flops) {
  const double g = g_factor(law);
  const double c6 = flops / 6;
  const double a = law.beta / (law.alpha + law.beta), b = law.alpha / (law.alpha + law.beta);
  return {g * std::pow(c6, a), std::pow(c6, b) / g};
}

double law_optimal_tokens(const ScalingLaw& law, double params) {
  // Invert N_opt(C) = G (C/6)^a for C/6, then D = (C/6) / N.
  const double a = law.beta / (law.alpha + law.beta);
  const double c6 = std::pow(params / g_factor(law), 1 / a);
  return c6 / params;
}

TrainingRegime training_regime(double params, double tokens) {
  const double ratio = tokens / (kComputeOptimalTokensPerParam * params);
  if (ratio < 1 / kNearOptimalFactor) return TrainingRegime::under_trained;
  if (ratio > kNearOptimalFactor) return TrainingRegime::over_trained;
  return TrainingRegime::near_optimal;
}

}  // namespace llmplan
