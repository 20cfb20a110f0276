// import.hpp: "Import your config" (docs/import.md). A training configuration someone already has
// becomes a partial scenario:
// - a Hugging Face config.json (model_type or architectures): the scenario's custom `model`
//   (layers, hidden, heads, kv_heads, head_dim, ffn, vocab, tied embeddings, biases, MoE and MLA
//   fields) for Llama 2/3/3.1, Mistral, Mixtral, Qwen2/2.5, Qwen3 (dense and MoE), Gemma 1/2/3,
//   DeepSeek-V2/V3 and Phi-3, with its parameter count and the catalog preset of the same
//   architecture, if any;
// - a DeepSpeed config JSON, an accelerate config YAML, a LLaMA-Factory YAML, an axolotl YAML, or a
//   torchrun / deepspeed command line: method, LoRA rank and targets, precision, micro and global
//   batch, seq_len, ZeRO stage and offload, GPUs and nodes, and the model preset its model names.
// Every key of the input is accounted for: mapped (to a scenario field), ignored (understood, no
// effect on the estimate), unsupported (matters, but no field expresses it) or unknown.
#pragma once
#include <string>
#include <string_view>

#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

// The import as JSON text:
//   {"format": "hf_config"|"deepspeed"|"accelerate"|"llamafactory"|"axolotl"|"torchrun"|"deepspeed_cli",
//    "scenario": {...partial scenario input...},
//    "matches_preset": id (hf_config, when a catalog preset has the same architecture),
//    "params": {"total", "active"} (hf_config: count_params of the imported model),
//    "mapped": [{"key", "field", "value", "note"?}], "ignored": [{"key", "reason"}],
//    "unsupported": [{"key", "reason"}], "unknown": [key, ...]}
// or {"error": {"field": the key or "line N", "message"}}. The scenario parses as
// parse_imported_scenario reads it. Never throws.
std::string import_config(std::string_view text, const Catalog& catalog);

// A partial scenario as an import is checked: with parse_scenario, over {"model": {"preset":
// "llama-3.1-8b"}} when it names no model ("deepseek-v3", 256 experts, where it splits experts over
// ranks), and where it names no GPU count over the first of the counts its layout could run on
// (its model-parallel ranks times 1, EP, global / micro-batch, or both) that parses.
ScenarioParse parse_imported_scenario(std::string_view scenario_json, const Catalog& catalog);

// The scenario's preset for a model name as training configs write it ("meta-llama/Llama-3.1-8B",
// "Qwen/Qwen2.5-7B-Instruct"): the catalog id, or "" when none matches.
std::string preset_for_model_name(std::string_view name, const Catalog& catalog);

}  // namespace llmplan
