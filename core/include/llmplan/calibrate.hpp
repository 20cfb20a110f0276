// calibrate.hpp: a trial run's measurements (the scenario's `calibration` block, Scenario::measured)
// turned into factors on the model (Scenario::factors), and what the estimate reproduces of them.
//
// What each measurement pins down:
// - throughput (tokens/s per GPU, step time or MFU): one factor on every compute time (GEMMs,
//   attention, memory-bound kernels), solved so the estimate at the trial's layout takes the
//   measured step time; communication, bubble and IO keep their own models;
// - peak memory: one factor on the framework-dependent memory (activations, logits, buffers),
//   solved so the trial's most loaded GPU holds the measured bytes; model states are counted;
// - nccl-tests bus bandwidth: the scale-up all-reduce busbw (intra) and the share of the node's
//   NICs collectives reach (inter), used as they are;
// - fio read throughput: the data tier's read rate, per node.
#pragma once
#include <string>
#include <vector>

#include "llmplan/calibration.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

// The trial's own scenario: `s` with the fields of s.measured.on in place (the global batch, when
// not given, keeps the scenario's gradient accumulation at the trial's data parallelism).
// On another accelerator (measured_on.accelerator) the trial's cluster is that accelerator's.
Scenario trial_scenario(const Scenario& s, const Catalog& catalog);

// Checks the measurements against the trial's hardware and model, applies the bandwidths and
// solves the factors into s.factors. False, with `error` naming the field, when a measurement is
// impossible (above the accelerator's peak or the GPU's memory, below the model states) or the
// trial's layout is invalid; `s` is then unchanged.
// The factors hold on the trial's accelerator only (Scenario::calibrated): a scenario on another
// one is validated against the measurement but not calibrated.
bool calibrate_from_trial(Scenario& s, const Catalog& catalog, const Calibration& cal, InputError& error);

// A measured figure and the estimate's value of it at the trial's layout, calibrated.
struct Reproduced {
  std::string path;  // "calibration.tokens_per_s_per_gpu", ...
  double measured = 0;
  double estimated = 0;
};
// One note of the trial report: its words, and its code and the values they put in, so the app
// can say it in the reader's language.
struct TrialNote {
  std::string code;  // compute, memory, network, data_read, other_accelerator, other_layout
  std::vector<std::string> args;
  std::string text;
};
struct TrialReport {
  std::vector<Reproduced> reproduced;
  std::vector<TrialNote> notes;  // what was pinned down and how far the scenario is from the trial
};
TrialReport trial_report(const Scenario& s, const Catalog& catalog, const Calibration& cal);

// One sentence for summaries and cards: "calibrated with a measured 3,100 tokens/s per GPU on 8 x
// NVIDIA H100 80GB SXM5", or why the measurement does not apply; "" without measurements.
std::string calibration_sentence(const Scenario& s, const Catalog& catalog);

// Whether the scenario runs the trial's own configuration (GPUs, layout, batch and sequence).
bool same_as_trial(const Scenario& s, const Catalog& catalog);

}  // namespace llmplan
