// scenario.hpp: everything a user chooses (model, method, precision, shape, cluster, layout),
// parsed strictly from JSON: an unknown key or an out-of-range value is an InputError that
// names the field and the allowed range. The field list and defaults are documented in README.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "llmplan/model.hpp"

namespace llmplan {

struct Catalog;

enum class Method { pretrain, continued, full };
enum class Precision { bf16, fp16, fp32 };
enum class Optimizer { adamw };
enum class Recompute { none, selective, full };

struct Cluster {
  int gpus = 8;                  // total accelerators N
  int gpus_per_node = 8;         // the NVLink/PCIe domain; TP should stay inside it
  double gpu_memory_gb = 80.0;   // usable memory per GPU, decimal GB (1e9 B)
};

struct Parallel {
  int tp = 1;                    // tensor parallel size t (divides heads, within a node)
  int pp = 1;                    // pipeline stages p (divides layers)
  int zero = 0;                  // ZeRO stage 0-3 (FSDP full-shard = 3), over the DP group
  bool sequence_parallel = false;// Megatron sequence parallelism (needs tp > 1 to matter)
  Recompute recompute = Recompute::none;
  bool flash_attention = true;   // no s x s score matrix stored
};

struct Scenario {
  std::string model_preset;      // catalog id, or empty when the architecture was given
  ModelArch model;
  Method method = Method::pretrain;
  Precision precision = Precision::bf16;
  Optimizer optimizer = Optimizer::adamw;
  int seq_len = 4096;            // tokens per sequence s
  int micro_batch = 1;           // sequences per micro-batch per GPU b
  int global_batch = 0;          // sequences per optimizer step; 0 means micro_batch x dp
  double tokens = 0;             // training tokens (used by the time and cost model)
  bool dropout = false;          // dropout layers keep 1-byte masks (GPT-3 style); off for Llama/Qwen
  Cluster cluster;
  Parallel parallel;

  int dp() const { return cluster.gpus / (parallel.tp * parallel.pp); }
  int effective_global_batch() const { return global_batch > 0 ? global_batch : micro_batch * dp(); }
  int grad_accum() const { return effective_global_batch() / (micro_batch * dp()); }
};

struct InputError {
  std::string field;    // JSON path, e.g. "parallel.tp"
  std::string message;  // full sentence naming the field, the allowed range and what was given
};

struct ScenarioParse {
  std::optional<Scenario> scenario;
  InputError error;     // set when scenario is empty
};

ScenarioParse parse_scenario(std::string_view json_text, const Catalog& catalog);

// Cross-field checks (divisibility, ranges that depend on the model); empty field when valid.
// Used by the parser and by the UI after every edit, so both reject the same inputs.
InputError validate_scenario(const Scenario& s);

const char* to_string(Method m);
const char* to_string(Precision p);
const char* to_string(Optimizer o);
const char* to_string(Recompute r);

}  // namespace llmplan
