// estimate.hpp: the one entry point every front end calls (CLI, Embind, the ImGui app).
// estimate() is allocation-free unless explanations are asked for; the JSON wrappers parse,
// estimate and serialise.
#pragma once
#include <array>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llmplan/calibration.hpp"
#include "llmplan/explain.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/performance.hpp"
#include "llmplan/scaling.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

// Planning rules of thumb and the model's own limits; codes are a public contract
// (docs/results.md), messages may improve.
enum class WarningCode {
  memory_exceeds,             // the most loaded GPU needs more than it has
  tp_crosses_nodes,           // tensor parallelism spans nodes: every layer waits on the slow link
  seq_exceeds_context,        // sequence longer than the preset's trained context
  multinode_without_rdma,     // gradients cross nodes over kernel TCP
  data_on_block_disk,         // training data on a cloud block disk (100-200 MB/s class)
  io_bound,                   // the data tier cannot feed the GPUs
  host_ram_below_2x_gpu,      // less host RAM than twice the node's GPU memory
  few_vcpus,                  // fewer than 16 vCPUs per node
  pcie_only_gpus,             // several GPUs that talk over PCIe only
  checkpoints_on_local_disk,  // multi-node job saving to one node's local disk
  offload_exceeds_host_ram,   // CPU offload needs more RAM than the node has
  comm_dominates,             // exposed communication is over a third of the step
  no_price,                   // no price in the catalog for this accelerator and mode
  spot_without_rate,          // spot pricing without an interruption rate
  minimum_billing,            // the offering's minimum billing block sets the cost (value billed, limit used, s)
  unsupported_layout,         // no framework the planner targets (nor torchtitan) runs this layout
  mfu_above_one,              // MFU over 1: non-causal attention in the convention (value MFU, limit executed share)
  failures_dominate,          // interruptions cost more than the training (value lost / training hours, limit MTBI s)
  slow_attention_kernel,  // a named kernel another runs twice as fast here (value its attention s, limit the other's)
  known_slow_path,        // published runs on this software path ran slower (value median, limit lowest published/est.)
  reserved_term,          // a 1- or 3-year reservation priced for a shorter run (value the term, limit the used, s)
  count
};

// What a memory_exceeds warning advises, each where the scenario leaves it to do (memory_remedies):
// ZeRO-3 and model parallelism on several GPUs; recomputation, a smaller micro-batch, a fused or
// chunked loss, adapters instead of full weights (QLoRA's 4-bit base for LoRA), an 8-bit or
// offloaded optimizer where the weights train; a GPU with more memory always.
enum class MemoryRemedy {
  raise_zero,
  model_parallel,
  recompute,
  lower_micro_batch,
  chunked_loss,
  adapters,
  qlora,
  eight_bit_optimizer,
  offload_optimizer,
  bigger_gpu,
  count
};
// The ids of the result JSON's warnings[].remedies, in MemoryRemedy order (a contract: never renamed).
inline constexpr const char* kMemoryRemedyIds[] = {
    "raise_zero", "model_parallel", "recompute",           "lower_micro_batch", "chunked_loss",
    "adapters",   "qlora",          "eight_bit_optimizer", "offload_optimizer", "bigger_gpu"};
static_assert(std::size(kMemoryRemedyIds) == static_cast<size_t>(MemoryRemedy::count));

struct Warning {
  WarningCode code;
  double value = 0;       // the number behind the warning (bytes, GPUs, tokens, MB/s)
  double limit = 0;       // what it was compared with
  bool one_gpu = false;   // memory_exceeds on a single GPU: no ZeRO, TP or PP to raise, other advice
  const char* rule = "";  // unsupported_layout: the rule that refuses the layout (layouts.cpp); slow_attention_kernel:
                          // the faster kernel; known_slow_path: the path (kSlowPathNames)
  int runs = 0;           // known_slow_path: the published runs the value is read from
  double high = 0;        // known_slow_path: the highest of their published / estimated
  unsigned remedies = 0;  // memory_exceeds: bit i set where MemoryRemedy i applies to the scenario
  bool has(MemoryRemedy m) const { return (remedies >> static_cast<unsigned>(m)) & 1u; }
};

struct Warnings {
  std::array<Warning, static_cast<size_t>(WarningCode::count)> items{};
  int count = 0;
  void add(Warning w) {
    if (count < static_cast<int>(items.size())) items[static_cast<size_t>(count++)] = w;
  }
};

// Planning rule of thumb: L1 1-13B PEFT on 1-2 GPUs; L2 one 8-GPU node; L3 multi-node or over 70B.
enum class Tier { l1, l2, l3 };

// Where the run's tokens sit against compute-optimal training (scaling.hpp), for the parameters a
// token uses (all of a dense model's, the active ones of an MoE).
struct ScalingResult {
  double params = 0, tokens = 0, tokens_per_param = 0;
  double rule_tokens = 0;                         // 20 tokens per parameter (Hoffmann et al. 2022, Table 3)
  double law_tokens = 0;                          // the refit law's optimum for this size (Besiroglu et al. 2024)
  double budget_flops = 0;                        // 6 N D: the run's training compute
  double optimal_params = 0, optimal_tokens = 0;  // the refit law's optimum for that compute
  TrainingRegime regime = TrainingRegime::near_optimal;
  bool applies = true;  // pretraining from scratch (method pretrain), which the laws are about
};

struct EstimateResult {
  ParamCount params;
  int dp = 1;
  int global_batch = 1;
  int grad_accum = 1;
  MemoryResult memory;
  TimeResult time;  // with the compute and communication it was built from
  IoResult io;
  ReliabilityResult reliability;
  CostResult cost;
  ScalingResult scaling;
  Tier tier = Tier::l1;
  Warnings warnings;
};

// Runs the steps in order, each on the results of the ones before: parameters (count_params),
// memory (estimate_memory), compute, communication, time, IO, reliability, cost (performance.hpp),
// then the tier and the warnings. With `explain`, every step records its formulas and inputs.
EstimateResult estimate(const Scenario& s, const Calibration& cal, Explainer* explain = nullptr);

const char* warning_code(WarningCode code);
std::string warning_message(const Warning& w);
// The remedies (MemoryRemedy bits) a scenario whose GPUs lack `memory` has left to use.
unsigned memory_remedies(const Scenario& s, const MemoryResult& memory);
// A remedy in the words of the English warning (web/i18n.cpp words it in each language).
const char* memory_remedy_words(MemoryRemedy m);
// The remedies whose bits are set, in MemoryRemedy order (the order the warning lists them).
std::vector<MemoryRemedy> remedies_in(unsigned bits);
const char* to_string(Tier t);

// The result's "calibration" block when the scenario carries measurements: the factors they pinned
// down, each measured figure against the calibrated estimate at the trial's layout, and notes.
nlohmann::ordered_json calibration_json(const Scenario& s, const Catalog& catalog, const Calibration& cal);

struct JsonResponse {
  bool ok = false;
  std::string body;  // the result JSON, or {"error": {"field", "message"}} when !ok
  InputError error;
};

// Parses a scenario, estimates it and serialises the result: the CLI and window.llmplan.estimate
// both call exactly this (with default_calibration()). With `explain`, the result carries
// "explain": {key: {value, unit, formula, inputs}} for every figure.
JsonResponse estimate_json(std::string_view scenario_json, const Catalog& catalog, const Calibration& cal,
                           bool explain = false);

}  // namespace llmplan
