// scaling.hpp: compute-optimal model size and tokens (Chinchilla). For a training compute C =
// 6 N D (Kaplan et al. 2020; Hoffmann et al. 2022 §3.3), the parametric loss
// L(N, D) = E + A / N^alpha + B / D^beta is lowest at
//   N_opt(C) = G (C/6)^a,  D_opt(C) = (C/6)^b / G,  G = (alpha A / (beta B))^(1 / (alpha + beta)),
//   a = beta / (alpha + beta), b = alpha / (alpha + beta)        (Hoffmann et al. 2022, eq. 4)
// Over-training against it is often deliberate: a smaller model trained longer is cheaper to serve
// (Touvron et al. 2023; Sardana et al. 2023), as Llama 3 8B's 15T tokens (about 1,900 per parameter).
#pragma once

#include <cmath>

namespace llmplan {

struct ScalingLaw {
  double E, A, B, alpha, beta;
  double G;  // (alpha A / (beta B))^(1 / (alpha + beta)), set by scaling_law
};

// A law from its five fitted values; G is computed once here, not on every estimate.
inline ScalingLaw scaling_law(double E, double A, double B, double alpha, double beta) {
  return {E, A, B, alpha, beta, std::pow(alpha * A / (beta * B), 1 / (alpha + beta))};
}

// Hoffmann et al. 2022 (arXiv 2203.15556) Appendix D.2, the fit as printed: E = 1.69, A = 406.4,
// B = 410.7, alpha = 0.34, beta = 0.28. Its optimum disagrees with the paper's own approaches 1
// and 2 (67B -> 4.1T tokens in Table A3 against 1.5T in Table 3); Besiroglu et al. trace this to
// the fit and refit the same data.
inline const ScalingLaw kHoffmann2022 = scaling_law(1.69, 406.4, 410.7, 0.34, 0.28);
// Besiroglu, Erdil, Barnett, You 2024, "Chinchilla Scaling: A replication attempt" (arXiv
// 2404.10102), the refit of Hoffmann's approach 3: about 20 tokens per parameter, as approaches 1-2.
inline const ScalingLaw kBesiroglu2024 = scaling_law(1.8172, 482.01, 2085.43, 0.3478, 0.3658);
// The rule of thumb from Hoffmann et al. 2022 Table 3 (approach 1): about 20 tokens per parameter
// (1B -> 20.2B tokens, 10B -> 205.1B, 67B -> 1.5T); Chinchilla itself is 70B on 1.4T.
inline constexpr double kComputeOptimalTokensPerParam = 20;
// A run within this factor of the rule's tokens is called compute-optimal; a presentation band,
// not a fitted value: the isoFLOP curves of Hoffmann et al. Fig. 3 are flat near their minimum.
inline constexpr double kNearOptimalFactor = 2;

struct ComputeOptimal {
  double params = 0, tokens = 0;
};

// The compute-optimal size and tokens for `flops` of training compute (C = 6 N D).
ComputeOptimal compute_optimal(const ScalingLaw& law, double flops);
// The tokens at which a model of `params` parameters is compute-optimal under the law.
double law_optimal_tokens(const ScalingLaw& law, double params);

enum class TrainingRegime { under_trained, near_optimal, over_trained };
inline constexpr const char* kTrainingRegimeNames[] = {"under_trained", "near_optimal", "over_trained"};
// Where `tokens` sit against the rule's 20 tokens per parameter.
TrainingRegime training_regime(double params, double tokens);

}  // namespace llmplan
