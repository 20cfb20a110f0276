// calibrate.cpp: measurements of a trial run -> factors on the model (calibrate.hpp).
#include "llmplan/calibrate.hpp"

#include "json_read.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/performance.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

namespace {

// The factors a measurement may imply: beyond 20x either way the trial was not the layout the
// scenario describes, and saying so beats a number fitted to it.
constexpr double kFactorLo = 1.0 / 20.0, kFactorHi = 20.0;

// Log-space bisection of an increasing (rising = true) or decreasing function for f(x) = target.
template <class F>
double solve_factor(F value, double target, bool rising) {
  double lo = std::log(kFactorLo), hi = std::log(kFactorHi);
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    const bool below = value(std::exp(mid)) < target;
    ((below == rising) ? lo : hi) = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

// Bytes the measurement is compared with: max_memory_allocated sees the tensors only; nvidia-smi
// also the CUDA context, workspaces and the allocator's cache (the model's runtime term);
// max_memory_reserved the allocator's segments but not the context (kRuntimeOverheadBytes).
double measured_view(const MemoryResult& m, MemorySource from, const Calibration& cal) {
  switch (from) {
    case MemorySource::nvidia_smi: return m.per_gpu.total();
    case MemorySource::reserved: return m.per_gpu.total() - cal.runtime_overhead_bytes.value;
    default: return m.per_gpu.total() - m.per_gpu.runtime;
  }
}

const char* throughput_path(const Measurement& me) {
  if (me.tokens_per_s_per_gpu > 0) return "calibration.tokens_per_s_per_gpu";
  if (me.step_s > 0) return "calibration.step_s";
  return "calibration.mfu";
}

// The measured throughput as the step time of the trial.
double measured_step_s(const Scenario& trial, const EstimateResult& r) {
  const Measurement& me = trial.measured;
  if (me.step_s > 0) return me.step_s;
  const double tokens_per_s_per_gpu =
      me.tokens_per_s_per_gpu > 0 ? me.tokens_per_s_per_gpu
                                  : me.mfu * peak_tflops(trial) * 1e12 / std::max(1.0, r.time.flops.model_per_token);
  return r.time.tokens_per_step / (tokens_per_s_per_gpu * trial.cluster.gpus);
}

double measured_tokens_per_s_per_gpu(const Scenario& trial, const EstimateResult& r) {
  return r.time.tokens_per_step / (measured_step_s(trial, r) * trial.cluster.gpus);
}

bool fail(InputError& error, const std::string& field, const std::string& message) {
  error = {field, field + ": " + message};
  return false;
}

bool check_bandwidths(const Scenario& s, InputError& error) {
  const Measurement& me = s.measured;
  if (me.intra_busbw_gb_per_s > s.cluster.intra_node_gb_per_s)
    return fail(error, "calibration.busbw_gb_per_s.intra",
                "must be at most the scale-up link's " + format_significant(s.cluster.intra_node_gb_per_s) +
                    " GB/s (no all-reduce runs faster than its link); allowed 0.001.." +
                    format_significant(s.cluster.intra_node_gb_per_s) + ", got " +
                    format_significant(me.intra_busbw_gb_per_s));
  if (me.inter_busbw_gb_per_s > s.network.node_gb_per_s)
    return fail(error, "calibration.busbw_gb_per_s.inter",
                "must be at most the node's network bandwidth, " + format_significant(s.network.node_gb_per_s) +
                    " GB/s (every NIC of the node together); allowed 0.001.." +
                    format_significant(s.network.node_gb_per_s) + ", got " +
                    format_significant(me.inter_busbw_gb_per_s));
  if (me.intra_busbw_gb_per_s > 0 && me.inter_busbw_gb_per_s > me.intra_busbw_gb_per_s)
    return fail(error, "calibration.busbw_gb_per_s.inter",
                "must be at most the measured intra-node bus bandwidth, " +
                    format_significant(me.intra_busbw_gb_per_s) +
                    " GB/s (an all-reduce across nodes also reduces inside each node); got " +
                    format_significant(me.inter_busbw_gb_per_s));
  return true;
}

// The bandwidths a trial measured replace the catalog's in the scenario and its trial alike.
void apply_bandwidths(Scenario& s) {
  const Measurement& me = s.measured;
  if (me.intra_busbw_gb_per_s > 0) s.cluster.intra_busbw_gb_per_s = me.intra_busbw_gb_per_s;
  if (me.inter_busbw_gb_per_s > 0 && s.network.node_gb_per_s > 0)
    s.network.busbw_fraction = me.inter_busbw_gb_per_s / s.network.node_gb_per_s;
  if (me.data_read_gb_per_s > 0) s.storage.data_read_mb_per_s = me.data_read_gb_per_s * 1000.0 * s.cluster.nodes();
}

bool solve_memory(Scenario& trial, const Calibration& cal, InputError& error) {
  const Measurement& me = trial.measured;
  const double measured = me.peak_memory_gib * kGiB;
  const double capacity = trial.cluster.gpu_memory_gb * 1e9;
  if (measured > capacity)
    return fail(error, "calibration.peak_memory_gib",
                "must be at most the GPU's memory, " + format_significant(capacity / kGiB, 4) +
                    " GiB; allowed 0.001.." + format_significant(capacity / kGiB, 4) + ", got " +
                    format_significant(me.peak_memory_gib, 4));
  const ParamCount p = count_params(trial.model, trial.techniques.mtp_layers);
  trial.factors.memory_measured = true;  // the factor being solved applies
  auto at = [&](double f) {
    trial.factors.memory = f;
    return measured_view(estimate_memory(trial, p, cal), me.memory_from, cal);
  };
  const double least = at(kFactorLo), most = at(kFactorHi);
  if (measured < least)
    return fail(error, "calibration.peak_memory_gib",
                "is below what the trial's layout holds without activations (" + format_significant(least / kGiB, 4) +
                    " GiB of weights, gradients and optimizer states): give the trial's layout in "
                    "calibration.measured_on; got " +
                    format_significant(me.peak_memory_gib, 4));
  if (measured > most)
    return fail(error, "calibration.peak_memory_gib",
                "is more than 20x the activations this layout keeps (" + format_significant(most / kGiB, 4) +
                    " GiB at most): give the trial's layout in calibration.measured_on; got " +
                    format_significant(me.peak_memory_gib, 4));
  trial.factors.memory = solve_factor(at, measured, true);
  trial.factors.memory_measured = true;
  return true;
}

// The share of its peak a GPU runs at while it computes: the executed FLOPs of a step over the
// computing part of the step.
double computing_share(const TimeResult& t) {
  return t.compute_s > 0 ? t.executed_fraction * t.step_s / t.compute_s : 0.0;
}

// The largest part of a step outside its computation, so a refusal names what the model counts
// that the measured step leaves no room for, and a measured bus bandwidth when it is a collective.
std::string largest_wait(const TimeResult& t) {
  const Comm& c = t.comm;
  struct Part {
    const char* words;
    double s;
    bool link;
  };
  const Part parts[] = {{"exposed tensor-parallel collectives", c.tp_exposed_s, true},
                        {"exposed pipeline sends", c.pp_exposed_s, true},
                        {"exposed data-parallel gradient sync", c.dp_exposed_s, true},
                        {"exposed context-parallel key/value exchange", c.cp_exposed_s, true},
                        {"exposed expert-parallel all-to-alls", c.ep_exposed_s, true},
                        {"pipeline bubble", t.bubble_s, false},
                        {"optimizer offload", t.offload_s, false},
                        {"waits for data", t.io_stall_s, false}};
  const Part& top =
      *std::max_element(std::begin(parts), std::end(parts), [](const Part& a, const Part& b) { return a.s < b.s; });
  return " (the largest: the " + std::string(top.words) + ", " + format_significant(top.s, 3) + " s of the measured " +
         format_significant(t.step_s, 3) + " s step" +
         (top.link
              ? "; if the trial's links are faster, give their measured bus bandwidths in calibration.busbw_gb_per_s"
              : "") +
         ")";
}

bool solve_compute(Scenario& trial, const Calibration& cal, InputError& error) {
  const char* field = throughput_path(trial.measured);
  trial.factors.compute = 1;
  const EstimateResult plain = estimate(trial, cal);
  const double per_gpu = measured_tokens_per_s_per_gpu(trial, plain);
  const double peak = peak_tflops(trial);
  const double implied = per_gpu * plain.time.flops.model_per_token / 1e12;  // TFLOP/s per GPU
  if (implied > peak)
    return fail(error, field,
                "implies " + format_significant(implied, 4) + " TFLOP/s of model FLOPs per GPU (" +
                    format_significant(per_gpu, 5) + " tokens/s x " +
                    format_significant(plain.time.flops.model_per_token / 1e9, 4) +
                    " GFLOP per token), above the accelerator's dense " + to_string(trial.precision) + " peak of " +
                    format_significant(peak, 4) + " TFLOP/s");
  const double target = measured_step_s(trial, plain);
  trial.factors.throughput = true;  // the factor being solved applies
  auto step = [&](double f) {
    trial.factors.compute = f;
    return estimate(trial, cal).time.step_s;
  };
  const double fastest = step(kFactorHi), slowest = step(kFactorLo);
  if (target < fastest)
    return fail(error, field,
                "is faster than the trial's layout can run even with its compute 20x the model's rate (a step of " +
                    format_significant(fastest, 4) + " s, against " + format_significant(target, 4) +
                    " s measured): its communication, pipeline bubble or data reads alone take longer; give the "
                    "trial's layout in calibration.measured_on");
  if (target > slowest)
    return fail(error, field,
                "is over 20x slower than the model (a step of " + format_significant(target, 4) +
                    " s, against at most " + format_significant(slowest, 4) +
                    " s): give the trial's layout in calibration.measured_on");
  trial.factors.compute = solve_factor(step, target, false);
  trial.factors.throughput = true;
  // While it computes, a GPU runs at most its peak: a measurement that needs more of the trial's
  // layout (its communication, bubble and data reads left the computation too little time) was not
  // taken on that layout.
  const TimeResult solved = estimate(trial, cal).time;
  const double computing = computing_share(solved);
  if (computing > 1.0)
    return fail(error, field,
                "implies the GPUs compute at " + format_significant(computing * 100, 3) +
                    " % of their peak on the trial's layout, at most 100 %: the model's communication, pipeline "
                    "bubble and data reads for that layout leave less time than the measured step" +
                    largest_wait(solved) + "; check that calibration.measured_on describes the trial");
  return true;
}

}  // namespace

Scenario trial_scenario(const Scenario& s, const Catalog& catalog) {
  Scenario t = s;
  const TrialLayout& on = s.measured.on;
  if (!on.accelerator.empty() && on.accelerator != s.cluster.accelerator &&
      set_accelerator(catalog, on.accelerator, t.cluster)) {
    if (s.measured.intra_busbw_gb_per_s > 0) t.cluster.intra_busbw_gb_per_s = s.measured.intra_busbw_gb_per_s;
  }
  if (on.gpus > 0) t.cluster.gpus = on.gpus;
  if (on.gpus_per_node > 0) t.cluster.gpus_per_node = on.gpus_per_node;
  if (on.tp > 0) t.parallel.tp = on.tp;
  if (on.pp > 0) t.parallel.pp = on.pp;
  if (on.cp > 0) t.parallel.cp = on.cp;
  if (on.ep > 0) t.parallel.ep = on.ep;
  if (on.zero >= 0) t.parallel.zero = on.zero;
  if (on.micro_batch > 0) t.micro_batch = on.micro_batch;
  if (on.seq_len > 0) t.seq_len = on.seq_len;
  if (t.parallel.pp == 1) t.parallel.vp = 1;
  if (on.global_batch > 0) {
    t.global_batch = on.global_batch;
  } else if (t.cluster.gpus % (t.parallel.tp * t.parallel.cp * t.parallel.pp) == 0) {
    t.global_batch = s.grad_accum() * t.micro_batch * t.dp();
  }
  // Pipeline schedules a step (torchtitan runs one per accumulation step): the trial's own, else the
  // scenario's where they divide the trial's micro-batches (a trial of another batch or pipeline may
  // have too few for them), else one.
  if (on.pp_flushes > 0) {
    t.parallel.pp_flushes = on.pp_flushes;
  } else if (!pp_flushes_divide(t)) {
    t.parallel.pp_flushes = 1;
  }
  return t;
}

bool same_as_trial(const Scenario& s, const Catalog& catalog) {
  const Scenario t = trial_scenario(s, catalog);
  return t.cluster.accelerator == s.cluster.accelerator && t.cluster.gpus == s.cluster.gpus &&
         t.cluster.gpus_per_node == s.cluster.gpus_per_node && t.parallel.tp == s.parallel.tp &&
         t.parallel.pp == s.parallel.pp && t.parallel.cp == s.parallel.cp && t.parallel.ep == s.parallel.ep &&
         t.parallel.zero == s.parallel.zero && t.micro_batch == s.micro_batch && t.seq_len == s.seq_len &&
         t.effective_global_batch() == s.effective_global_batch() && t.pp_schedules() == s.pp_schedules();
}

bool calibrate_from_trial(Scenario& s, const Catalog& catalog, const Calibration& cal, InputError& error) {
  s.factors = TrialFactors{};
  const Measurement& me = s.measured;
  const std::string& measured_on = me.on.accelerator.empty() ? s.cluster.accelerator : me.on.accelerator;
  Cluster trial_hardware = s.cluster;
  if (!set_accelerator(catalog, measured_on, trial_hardware))
    return fail(
        error, "calibration.measured_on.accelerator",
        "unknown id " + detail::Reader::echo(measured_on) + "; `llmplan catalog list accelerators` prints the ids");
  if (!me.any()) return true;
  const bool same_hardware = measured_on == s.cluster.accelerator;
  const int throughputs = (me.tokens_per_s_per_gpu > 0) + (me.step_s > 0) + (me.mfu > 0);
  if (throughputs > 1)
    return fail(error, throughput_path(me),
                "give one of calibration.tokens_per_s_per_gpu, calibration.step_s and calibration.mfu: each "
                "fixes the same figure, so two may contradict each other");
  Scenario hardware = s;
  hardware.cluster = trial_hardware;
  if (!check_bandwidths(hardware, error)) return false;
  Scenario target = s;
  if (same_hardware) apply_bandwidths(target);  // measured on other machines, they say nothing of these
  Scenario trial = trial_scenario(target, catalog);
  if (InputError e = validate_scenario(trial); !e.field.empty())
    return fail(error, "calibration.measured_on",
                "the trial's layout (the scenario with calibration.measured_on in place) is not valid: " + e.message);
  // measured_on.pp_flushes applies under torchtitan only, so where parallel.pp_flushes does not
  // apply to the trial it has no pipeline stages.
  if (me.on.pp_flushes > 1 && !field_applies(field("parallel.pp_flushes"), trial))
    return fail(error, "calibration.measured_on.pp_flushes",
                "applies only where the trial runs pipeline stages (its parallel.pp is 1); allowed 1, got " +
                    std::to_string(me.on.pp_flushes));
  if (me.data_read_gb_per_s > 0)
    trial.storage.data_read_mb_per_s = me.data_read_gb_per_s * 1000.0 * trial.cluster.nodes();
  trial.factors.accelerator = trial.cluster.accelerator;  // the factors being solved apply to the trial
  if (me.peak_memory_gib > 0 && !solve_memory(trial, cal, error)) return false;
  if (me.throughput() && !solve_compute(trial, cal, error)) return false;
  target.factors = trial.factors;
  target.factors.accelerator = measured_on;
  target.factors.same_layout = same_as_trial(target, catalog);
  s = std::move(target);
  return true;
}

TrialReport trial_report(const Scenario& s, const Catalog& catalog, const Calibration& cal) {
  TrialReport out;
  const Measurement& me = s.measured;
  if (!me.any()) return out;
  Scenario trial = trial_scenario(s, catalog);
  if (me.data_read_gb_per_s > 0)
    trial.storage.data_read_mb_per_s = me.data_read_gb_per_s * 1000.0 * trial.cluster.nodes();
  const EstimateResult r = estimate(trial, cal);
  const std::string gpus = format_significant(trial.cluster.gpus, 6);
  const auto note = [&out](const char* code, std::vector<std::string> args, std::string text) {
    out.notes.push_back({code, std::move(args), std::move(text)});
  };
  if (me.throughput()) {
    const double per_gpu = r.time.tokens_per_s / trial.cluster.gpus;
    if (me.tokens_per_s_per_gpu > 0)
      out.reproduced.push_back({"calibration.tokens_per_s_per_gpu", me.tokens_per_s_per_gpu, per_gpu});
    if (me.step_s > 0) out.reproduced.push_back({"calibration.step_s", me.step_s, r.time.step_s});
    if (me.mfu > 0) out.reproduced.push_back({"calibration.mfu", me.mfu, r.time.mfu});
    const std::string k = format_significant(s.factors.compute);
    note("compute", {gpus, k},
         "throughput measured on " + gpus + " GPUs: the model's compute runs at " + k +
             "x its modelled rate, communication and the pipeline bubble as modelled");
  }
  if (me.peak_memory_gib > 0) {
    out.reproduced.push_back(
        {"calibration.peak_memory_gib", me.peak_memory_gib, measured_view(r.memory, me.memory_from, cal) / kGiB});
    const std::string from = kMemorySourceNames[static_cast<int>(me.memory_from)],
                      k = format_significant(s.factors.memory);
    note("memory", {from, gpus, k},
         "peak memory (" + from + ") measured on " + gpus + " GPUs: activations, logits and buffers are " + k +
             "x the model's, weights, gradients and optimizer states as counted");
  }
  const LinkBandwidth l = link_bandwidth(trial);
  if (me.intra_busbw_gb_per_s > 0)
    out.reproduced.push_back({"calibration.busbw_gb_per_s.intra", me.intra_busbw_gb_per_s, l.intra_busbw / 1e9});
  if (me.inter_busbw_gb_per_s > 0) {
    out.reproduced.push_back({"calibration.busbw_gb_per_s.inter", me.inter_busbw_gb_per_s, l.node_busbw / 1e9});
    const std::string f = format_significant(s.network.busbw_fraction);
    note("network", {f}, "collectives across nodes reach " + f + " of the node's network bandwidth, as measured");
  }
  if (me.data_read_gb_per_s > 0) {
    out.reproduced.push_back({"calibration.data_read_gb_per_s", me.data_read_gb_per_s,
                              trial.storage.data_read_mb_per_s / 1000.0 / std::max(1, trial.cluster.nodes())});
    note("data_read", {}, "every node reads the training data at the measured rate");
  }
  if (!s.calibrated())
    note("other_accelerator", {s.factors.accelerator, s.cluster.accelerator},
         "measured on " + s.factors.accelerator + ", while the scenario runs on " + s.cluster.accelerator +
             ": its figures are not calibrated");
  else if (!s.factors.same_layout)
    note("other_layout", {},
         "the scenario is not the trial's configuration: its figures carry the uncertainty of scaling a calibrated "
         "estimate to another layout (ranges)");
  return out;
}

namespace {
// 3100 -> "3,100": a measured figure as the log printed it, not rounded to "3.10 K".
std::string grouped(double v) {
  const std::string digits = std::to_string(static_cast<long long>(std::llround(v)));
  std::string out;  // appended char by char: std::string::insert trips GCC 12's -Wrestrict (bug 105651)
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}
}  // namespace

std::string calibration_sentence(const Scenario& s, const Catalog& catalog) {
  const Measurement& me = s.measured;
  if (!me.any()) return "";
  const Scenario t = trial_scenario(s, catalog);
  const Accelerator* a = catalog.find_accelerator(t.cluster.accelerator);
  const std::string on = grouped(t.cluster.gpus) + " x " + (a ? a->name : t.cluster.accelerator);
  std::string what;
  if (me.tokens_per_s_per_gpu > 0)
    what = "a measured " + grouped(me.tokens_per_s_per_gpu) + " tokens/s per GPU";
  else if (me.step_s > 0)
    what = "a measured step of " + format_duration(me.step_s);
  else if (me.mfu > 0)
    what = "a measured MFU of " + format_percent(me.mfu);
  else if (me.peak_memory_gib > 0)
    what = "a measured peak of " + format_significant(me.peak_memory_gib, 3) + " GiB per GPU";
  else
    what = "measured bandwidths";
  if (!s.calibrated() && (s.factors.throughput || s.factors.memory_measured))
    return "not calibrated: " + what + " on " + on + ", while this runs on " + s.cluster.accelerator;
  return "calibrated with " + what + " on " + on;
}

}  // namespace llmplan
