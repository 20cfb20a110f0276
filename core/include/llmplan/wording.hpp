// wording.hpp: sentences built from a template and values, so that the app can word the same
// values in another language: the checklist's texts (advice.hpp) and the input errors below.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmplan {

// `text` with every {name} of `args` replaced by its value.
std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& args);
// The same with the values named by position: {0} is args[0], {1} args[1].
std::string fill_positional(std::string text, const std::vector<std::string>& args);

// "2 pipeline flushes a step": the layout's parallel.pp_flushes, as the CLI table and the report
// both print it beside the layout.
inline std::string pipeline_flushes_a_step(int flushes) {
  return std::to_string(flushes) + " pipeline flushes a step";
}

// An input error's English sentence after its field ("parallel.tp: "), by code; {0}, {1} ... are
// InputError::args. The app words the same codes and values in Chinese (web/i18n.cpp); an error
// without a code keeps its English message in every language.
struct InputErrorWording {
  const char* code;
  const char* english;
};
inline constexpr InputErrorWording kInputErrorWordings[] = {
    // Types and ranges of single fields (json_read.cpp).
    {"object", "must be a JSON object"},
    {"required", "is required"},
    {"unknown_field", "unknown field; allowed here: {0}"},
    {"integer_range", "must be an integer in {0}; got {1}"},
    {"number_range", "must be a number in {0}; got {1}"},
    {"auto_or_range", "must be \"auto\" or a number in {0}; got {1}"},
    {"positive", "must be > 0, got {0}"},
    {"positive_or_null", "must be > 0 or null, got {0}"},
    {"boolean", "must be true or false; got {0}"},
    {"string", "must be a string; got {0}"},
    {"one_of", "must be one of {0}; got {1}"},
    // A model's architecture (check_arch).
    {"kv_heads_heads", "must divide heads ({0}) and be at most heads; got {1}"},
    {"heads_hidden", "must divide hidden ({0}) unless head_dim is given; got {1}"},
    {"top_k_experts", "must be in 1..experts ({0}) for an MoE model; got {1}"},
    {"moe_expert_ffn", "must be at least 1 for an MoE model; got {0}"},
    {"experts_needed", "must be at least 1 when top_k, shared_experts, expert_ffn or dense_layers is given"},
    {"at_most_layers", "must be at most layers ({0}); got {1}"},
    {"mla_dims", "\"mla\" needs kv_lora_rank, qk_nope_head_dim or qk_rope_head_dim, and v_head_dim >= 1"},
    // Planner questions and own-or-rent questions.
    {"required_by_objective", "is required by objective \"{0}\""},
    {"planner_tokens",
     "the planner needs the training tokens (or storage.dataset_tokens x epochs) to compare time and cost"},
    {"tco_other_accelerator", "runs on {0}, not on the servers' {1}: its GPU-hours would differ"},
    {"tco_tokens",
     "is needed (or storage.dataset_tokens): without tokens the run has no GPU-hours to fill the servers with"},
    {"tco_capacity",
     "needs {0} GPU-hours a month, more than the {1} GPUs give ({2}): set servers.count to at least {3}"},
    // Fields that must agree with each other (validate_scenario).
    {"tp_heads", "must divide the model's heads ({0}); got {1}"},
    {"pp_split",
     "must split the model's {0} layers into stages of ceil(layers / pp), the first and last taking the rest, none "
     "empty; got {1}"},
    {"cp_chunks",
     "must split seq_len ({0}) into 2 x cp equal chunks (Megatron-Core's load-balanced causal ring attention gives "
     "each of the cp ranks two of them), so 2 x cp must divide seq_len; allowed 1..1024, got {1}"},
    {"gpus_tp_pp", "must be a multiple of parallel.tp x parallel.pp ({0}); got {1}"},
    {"gpus_tp_cp_pp", "must be a multiple of parallel.tp x parallel.cp x parallel.pp ({0}); got {1}"},
    {"etp_tp",
     "must divide parallel.tp ({0}): an expert splits over part of a tensor-parallel group; allowed 1..{0}, got {1}"},
    {"ep_dense",
     "applies only to mixture-of-experts models (model.experts > 0): a dense model has no experts to split; allowed "
     "1, got {0}"},
    {"ep_experts", "must divide the model's routed experts ({0}); allowed 1..4096, got {1}"},
    {"ep_stage",
     "ep x etp ({0} x {1}) must divide the GPUs of a pipeline stage (tp x cp x dp = {2}): Megatron-Core folds expert "
     "parallelism into those ranks; allowed 1..4096, got {0}"},
    {"gpus_per_node_domain",
     "must be 1..{0} for {1}: no system it is sold in joins more GPUs by its scale-up link (catalog "
     "max_gpus_per_node); got {2}"},
    {"whole_nodes", "must be at most one node or a whole number of nodes of {0} GPUs; got {1}"},
    {"global_batch_multiple", "must be a multiple of micro_batch x data-parallel size ({0} x {1} = {2}); got {3}"},
    {"vp_needs_pp", "needs parallel.pp > 1 (virtual stages interleave a pipeline); got pp 1"},
    {"vp_layers",
     "needs at least one layer in every virtual stage (the embedding or the loss may stand for one in a first or "
     "last stage one layer short): stages of {0} of the model's {1} layers on {2} stages allow at most {3}; allowed "
     "1..{4}, got {5}"},
    {"vp_micro_batches",
     "needs the micro-batches per step (global_batch / (micro_batch x dp) = {0}) to be a multiple of parallel.pp "
     "({1}), as Megatron-LM's interleaved schedule does; got vp {2}"},
    {"vp_schedule_micro_batches",
     "needs the micro-batches of each pipeline schedule (global_batch / (micro_batch x dp x parallel.pp_flushes) = "
     "{0}) to be a multiple of parallel.pp ({1}), the rounds the interleaved schedule's warm-up is counted in; got vp "
     "{2}"},
    {"pp_flushes_stages",
     "leaves each pipeline schedule {0} micro-batches, fewer than the parallel.pp {1} stages, which PyTorch's 1F1B "
     "schedule refuses (the micro-batches must be at least the stages); allowed a divisor of {2} up to {3}, got {4}"},
    {"pp_flushes",
     "must divide the step's {0} micro-batches per data-parallel rank (global_batch / (micro_batch x dp)) into equal "
     "pipeline schedules; allowed a divisor of {0} from 1 to {0}, got {1}"},
    {"fp8_unsupported", "\"fp8\" needs FP8 tensor cores, which {0} does not have; use {1}"},
    {"bf16_unsupported",
     "\"bf16\" needs BF16 tensor cores, which {0} does not have (the catalog lists its unsupported precisions); use "
     "\"fp16\" (mixed precision with loss scaling)"},
    {"pure_bf16_precision", "applies only to precision \"bf16\"; got precision \"{0}\""},
    {"fp8_params_precision", "applies only to precision \"fp8\"; got precision \"{0}\""},
    {"fp8_params_qlora", "does not apply to method \"qlora\", whose frozen weights are NF4; use method \"lora\""},
    {"fp8_params_framework",
     "needs framework \"megatron\" (Transformer Engine's FP8 weights) or \"torchtitan\" (torchao's float8 "
     "all-gather); framework \"{0}\" keeps 16-bit weights"},
    {"fp8_params_megatron_sharding",
     "needs parallel.zero 1 or 3 with framework \"megatron\": Megatron-LM gathers FP8 weights only through its "
     "distributed optimizer (zero 1) or FSDP (zero 3); got zero {0}"},
    {"fp8_params_torchtitan_sharding",
     "needs parallel.zero >= 1 with framework \"torchtitan\": torchao gathers FP8 weights only under FSDP2; got "
     "zero 0"},
    {"fp8_params_torchtitan_method",
     "applies with framework \"torchtitan\" to full training only (torchtitan trains no adapters and freezes no "
     "layers); got method \"{0}\""},
    {"offload_needs_zero", "needs parallel.zero >= 1 (ZeRO-Offload moves the sharded optimizer states); got zero 0"},
    {"trainable_layers", "must be at most the model's layers ({0}); got {1}"},
    {"mtp_framework",
     "needs framework \"megatron\": Megatron-Core trains multi-token prediction modules (--mtp-num-layers), "
     "framework \"{0}\" has none; got {1}"},
    {"activation_offload_layers",
     "must be at most the layers of the smallest pipeline stage ({0} of the model's {1} on {2} stages); 0 offloads "
     "every layer; got {3}"},
    {"recompute_layers",
     "must be at most the blocks of the largest pipeline chunk ({0}: the model's {1} on {2} stages x {3} virtual "
     "stages); 0 recomputes every block; got {4}"},
    {"ep_comm_sms", "must be at most the {0} SMs of {1}; 0 takes kDeepEpSms; allowed 0..{0}, got {2}"},
    {"moe_capacity_factor",
     "must be 0 (dropless) or from 1 to experts / top_k = {0} ({1} experts, top {2}), where an expert takes every "
     "token of its rank; allowed 0 or 1..{0}, got {3}"},
};

// The English template of `code`, or nullptr for an unknown code.
constexpr const char* input_error_english(std::string_view code) {
  for (const InputErrorWording& w : kInputErrorWordings)
    if (code == w.code) return w.english;
  return nullptr;
}

// A code of kInputErrorWordings, checked when the program compiles: an unknown code does not build.
struct InputErrorCode {
  const char* code;
  consteval InputErrorCode(const char* c) : code(c) {  // NOLINT: implicit from a literal on purpose
    if (!input_error_english(c)) throw "unknown input error code: add it to kInputErrorWordings";
  }
};

}  // namespace llmplan
