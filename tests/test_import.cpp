// Import your config (llmplan/import.hpp, docs/import.md). The config.json files in tests/import
// copy the architecture numbers of the published Hugging Face configs (tests/import/README.md:
// URLs and date); each parameter count is checked against the published figure with the tolerance
// its rounding allows, or exactly where the count is published to the parameter.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../core/src/yaml_lite.hpp"
#include "llmplan/advice.hpp"
#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/import.hpp"
#include "llmplan/model.hpp"
#include "llmplan/scenario.hpp"

using namespace llmplan;
using json = nlohmann::ordered_json;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(LLMPLAN_SOURCE_DIR) + "/tests/import/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in, "missing tests/import/" << name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

json import_text(const std::string& text) { return json::parse(import_config(text, builtin_catalog())); }

json imported(const std::string& name) {
  const json r = import_text(fixture(name));
  REQUIRE_MESSAGE(!r.contains("error"), name << ": " << r.dump());
  return r;
}

// The contract: the partial scenario parses as import checks it (a default model, and where the
// command gives no GPU count a count its layout runs on).
Scenario parses(const json& r) {
  const ScenarioParse p = parse_imported_scenario(r["scenario"].dump(), builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}

std::string error_field(const std::string& text) {
  const json r = import_text(text);
  REQUIRE_MESSAGE(r.contains("error"), r.dump());
  return r["error"]["field"].get<std::string>();
}

std::string error_message(const std::string& text) {
  const json r = import_text(text);
  REQUIRE_MESSAGE(r.contains("error"), r.dump());
  return r["error"]["message"].get<std::string>();
}

bool lists(const json& arr, const std::string& key) {
  for (const json& e : arr)
    if ((e.is_string() && e == key) || (e.is_object() && e["key"] == key)) return true;
  return false;
}

// The launch artefacts' Megatron-LM command of a scenario, as a user runs it.
std::string megatron_command(const Scenario& s) {
  const EstimateResult r = estimate(s, default_calibration());
  const std::string args = launch_artifacts(s, r, default_calibration()).megatron_args;
  REQUIRE_MESSAGE(!args.empty(), "no Megatron-LM arguments");
  const int nodes = s.cluster.nodes();
  return "torchrun --nnodes=" + std::to_string(nodes) + " --nproc_per_node=" +
         std::to_string(std::min(s.cluster.gpus, s.cluster.gpus_per_node)) + " pretrain_gpt.py \\\n" + args;
}

Scenario scenario_of(const char* text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  return *p.scenario;
}

}  // namespace

TEST_SUITE("import") {
  TEST_CASE("Llama 3.1 8B config.json: the model, exactly 8,030,261,248 parameters, the preset") {
    const json r = imported("llama-3.1-8b.config.json");
    CHECK(r["format"] == "hf_config");
    const json& m = r["scenario"]["model"];
    CHECK(m["layers"] == 32);
    CHECK(m["hidden"] == 4096);
    CHECK(m["heads"] == 32);
    CHECK(m["kv_heads"] == 8);
    CHECK(m["ffn"] == 14336);
    CHECK(m["vocab"] == 128256);
    CHECK(m["tied_embeddings"] == false);
    CHECK(m["gated_mlp"] == true);
    // Hand count: 32 x (2 x 4096 x 4096 (q, o) + 2 x 4096 x 1024 (k, v) + 3 x 4096 x 14336 + 2 x 4096)
    // + 2 x 128256 x 4096 (embedding, head) + 4096 = 32 x 218,112,000 + 1,050,673,152 + 4,096.
    CHECK(r["params"]["total"] == 8030261248LL);
    CHECK(r["matches_preset"] == "llama-3.1-8b");  // Llama 3 8B has the same shape but an 8K context
    const Scenario s = parses(r);
    CHECK(count_params(s.model).total == 8030261248.0);
    CHECK(lists(r["unsupported"], "max_position_embeddings"));
    CHECK(r["unknown"].empty());
  }

  TEST_CASE("every config.json: its parameter count against the published figure") {
    struct Case {
      const char* file;
      double published;  // total parameters
      double tolerance;  // relative
      double published_active;
      double active_tolerance;
      const char* preset;  // the catalog preset of the same architecture ("" for none)
    };
    // Tolerances: one unit of the last published digit (a card's "7.61B" may be rounded or cut: the
    // count is 7.6156B), unless said.
    const Case cases[] = {
        // Llama 2 paper: "7B" is nominal; Hugging Face lists 6.74B; within 5 % of 7B (6,738,415,616).
        {"llama-2-7b.config.json", 7e9, 0.05, 0, 0, "llama-2-7b"},
        // Llama 3 8B model card: 8B nominal; the count is the same as Llama 3.1 8B's exact one.
        {"llama-3-8b.config.json", 8.03e9, 0.0006, 0, 0, "llama-3-8b"},
        // Qwen2.5-7B model card: 7.61B; Qwen2.5-0.5B: 0.49B.
        {"qwen2.5-7b.config.json", 7.61e9, 0.01 / 7.61, 0, 0, "qwen2.5-7b"},
        {"qwen2.5-0.5b.config.json", 0.49e9, 0.01 / 0.49, 0, 0, "qwen2.5-0.5b"},
        // Qwen3-8B card: 8.2B (q_norm/k_norm, 9,216 parameters, left out). Qwen3-30B-A3B card: 30.5B
        // total, 3.3B activated (the count: 3.35B).
        {"qwen3-8b.config.json", 8.2e9, 0.1 / 8.2, 0, 0, "qwen3-8b"},
        {"qwen3-30b-a3b.config.json", 30.5e9, 0.1 / 30.5, 3.3e9, 0.1 / 3.3, "qwen3-30b-a3b"},
        // Mistral 7B announcement: 7.3B (the count is 7.24B): 1 %.
        {"mistral-7b-v0.1.config.json", 7.3e9, 0.01, 0, 0, "mistral-7b"},
        // Mixtral 8x7B announcement: 46.7B total, 12.9B per token.
        {"mixtral-8x7b-v0.1.config.json", 46.7e9, 0.1 / 46.7, 12.9e9, 0.1 / 12.9, "mixtral-8x7b"},
        // Phi-3 technical report: 3.8B.
        {"phi-3-mini-4k-instruct.config.json", 3.8e9, 0.1 / 3.8, 0, 0, "phi-3-mini"},
        // DeepSeek-V2 paper: 236B total, 21B activated. DeepSeek-V3 report: 671B total (the 14B
        // multi-token-prediction module aside), 37B activated (the count: 37.55B; 36.6B without the
        // embedding, which the report does not say it counts).
        {"deepseek-v2.config.json", 236e9, 1 / 236.0, 21e9, 1 / 21.0, ""},
        {"deepseek-v3.config.json", 671e9, 1 / 671.0, 37e9, 1 / 37.0, "deepseek-v3"},
        // gpt-oss model card (arXiv:2508.10925), Table 1: 20.91B total (the count: 20,908,050,240; the
        // output projection's and the experts' biases and the sinks, about 6.7M, left out). Its 3.61B
        // active leaves out the 579M embedding the count keeps: 4.19B - 0.58B.
        {"gpt-oss-20b.config.json", 20.91e9, 0.01 / 20.91, 3.61e9 + 201088.0 * 2880, 0.01 / 4.19, "gpt-oss-20b"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.file);
      const json r = imported(c.file);
      const double total = r["params"]["total"].get<double>();
      CHECK(std::abs(total / c.published - 1) <= c.tolerance);
      if (c.published_active > 0) {
        CHECK(std::abs(r["params"]["active"].get<double>() / c.published_active - 1) <= c.active_tolerance);
      } else {
        CHECK(r["params"]["active"] == r["params"]["total"]);
      }
      if (*c.preset) {
        CHECK(r.value("matches_preset", "") == c.preset);
      } else {
        CHECK(!r.contains("matches_preset"));
      }
      CHECK(count_params(parses(r).model).total == total);
      CHECK(r["unknown"].empty());
    }
  }

  TEST_CASE("Gemma: head_dim, tied embeddings, and the norms the count leaves out, to the parameter") {
    // Gemma 3 1B: 999,885,952 parameters (Google's Keras Hub preset gemma3_1b). The field table has
    // two norms per layer; Gemma 3 has four plus a q and a k norm: 26 x (2 x 1152 + 2 x 256) = 73,216.
    const json g3 = imported("gemma-3-1b.config.json");
    CHECK(g3["scenario"]["model"]["head_dim"] == 256);
    CHECK(g3["scenario"]["model"]["tied_embeddings"] == true);  // absent: Gemma ties them by default
    CHECK(g3["params"]["total"].get<long long>() + 73216 == 999885952LL);
    CHECK(lists(g3["unsupported"], "model_type"));
    // A 512-token window with sliding_window_pattern 6: every 6th layer attends globally, so 26 - 26 / 6
    // = 22 of the 26 layers are windowed (transformers Gemma3TextConfig: layer i is global when
    // (i + 1) % pattern == 0).
    CHECK(g3["scenario"]["model"]["sliding_window"] == 512);
    CHECK(g3["scenario"]["model"]["sliding_layers"] == 22);
    // Gemma 2 9B: 9,242,164,736 in the Gemma 2 paper (catalog preset gemma-2-9b), whose vocabulary is
    // 256,128 against 256,000 in config.json (128 x 3584 = 458,752), plus the post norms the count
    // leaves out: 42 x 2 x 3584 = 301,056.
    const json g2 = imported("gemma-2-9b.config.json");
    CHECK(g2["params"]["total"].get<long long>() + 458752 + 301056 == 9242164736LL);
    CHECK(g2["matches_preset"] == "gemma-2-9b");
    // Its 4,096-token window on every second layer (Gemma 2 paper §2), as the preset has it.
    CHECK(g2["scenario"]["model"]["sliding_window"] == 4096);
    CHECK(g2["scenario"]["model"]["sliding_layers"] == 21);
    CHECK(!lists(g2["unsupported"], "sliding_window"));
  }

  TEST_CASE("GPT-OSS: every layer MoE, and its window on the layers layer_types lists") {
    const json g = imported("gpt-oss-20b.config.json");
    const json& m = g["scenario"]["model"];
    CHECK(m["experts"] == 32);
    CHECK(m["top_k"] == 4);
    CHECK(m["expert_ffn"] == 2880);
    CHECK(m["head_dim"] == 64);
    CHECK(m["sliding_window"] == 128);
    CHECK(m["sliding_layers"] == 12);  // "sliding_attention" on 12 of the 24 layer_types
    CHECK(g["unknown"].empty());
    CHECK(lists(g["unsupported"], "attention_bias"));  // the output projection's bias
  }

  TEST_CASE("MoE and MLA fields: Mixtral, Qwen3 MoE, DeepSeek-V3") {
    const json mx = imported("mixtral-8x7b-v0.1.config.json");
    CHECK(mx["scenario"]["model"]["experts"] == 8);
    CHECK(mx["scenario"]["model"]["top_k"] == 2);
    CHECK(mx["scenario"]["model"]["expert_ffn"] == 14336);
    const json q = imported("qwen3-30b-a3b.config.json");
    CHECK(q["scenario"]["model"]["experts"] == 128);
    CHECK(q["scenario"]["model"]["expert_ffn"] == 768);
    CHECK(q["scenario"]["model"]["head_dim"] == 128);
    const json d = imported("deepseek-v3.config.json");
    const json& m = d["scenario"]["model"];
    CHECK(m["attention"] == "mla");
    CHECK(m["q_lora_rank"] == 1536);
    CHECK(m["kv_lora_rank"] == 512);
    CHECK(m["qk_nope_head_dim"] == 128);
    CHECK(m["qk_rope_head_dim"] == 64);
    CHECK(m["v_head_dim"] == 128);
    CHECK(m["experts"] == 256);
    CHECK(m["shared_experts"] == 1);
    CHECK(m["dense_layers"] == 3);
    CHECK(m["expert_ffn"] == 2048);
    CHECK(lists(d["unsupported"], "num_nextn_predict_layers"));
    CHECK(lists(d["unsupported"], "quantization_config"));
  }

  TEST_CASE("LLaMA-Factory YAML: method, LoRA, precision, batch, the preset, recompute by default") {
    const json r = imported("llamafactory-llama3-lora-sft.yaml");
    CHECK(r["format"] == "llamafactory");
    const json& s = r["scenario"];
    CHECK(s["model"]["preset"] == "llama-3-8b");  // meta-llama/Meta-Llama-3-8B-Instruct
    CHECK(s["method"] == "lora");
    CHECK(s["lora"]["rank"] == 8);
    CHECK(s["lora"]["targets"] == "all_linear");
    CHECK(s["seq_len"] == 2048);
    CHECK(s["micro_batch"] == 1);
    CHECK(s["precision"] == "bf16");
    CHECK(s["parallel"]["recompute"] == "full");
    CHECK(!s.contains("global_batch"));  // 1 x 8 x GPUs: the file gives no GPU count
    CHECK(lists(r["unsupported"], "gradient_accumulation_steps"));
    CHECK(lists(r["unsupported"], "deepspeed"));
    CHECK(lists(r["ignored"], "learning_rate"));
    parses(r);
  }

  TEST_CASE("axolotl YAML: QLoRA, targets, packing, the 8-bit optimizer") {
    const json r = imported("axolotl-llama3.1-qlora.yaml");
    CHECK(r["format"] == "axolotl");
    const json& s = r["scenario"];
    CHECK(s["model"]["preset"] == "llama-3.1-8b");
    CHECK(s["method"] == "qlora");
    CHECK(s["lora"]["rank"] == 32);
    CHECK(s["lora"]["targets"] == "all_linear");
    CHECK(s["seq_len"] == 4096);
    CHECK(s["micro_batch"] == 2);
    CHECK(s["optimizer"] == "adamw8bit");
    CHECK(s["parallel"]["recompute"] == "full");
    CHECK(lists(r["unsupported"], "bf16"));  // "auto"
    CHECK(lists(r["ignored"], "datasets"));
    parses(r);
  }

  TEST_CASE("an axolotl QLoRA YAML without gradient_checkpointing does not recompute") {
    // axolotl passes gradient_checkpointing (false by default) to PEFT's prepare_model_for_kbit_training;
    // the scenario's QLoRA default is PEFT's own (true), so the import says none.
    const json r = import_text("base_model: meta-llama/Llama-3.1-8B\nadapter: qlora\nload_in_4bit: true\n");
    CHECK(r["scenario"]["method"] == "qlora");
    CHECK(r["scenario"]["parallel"]["recompute"] == "none");
    CHECK(parses(r).parallel.recompute == Recompute::none);
    // LoRA keeps the scenario's own default: nothing is written.
    const json lora = import_text("base_model: meta-llama/Llama-3.1-8B\nadapter: lora\n");
    CHECK_FALSE(lora["scenario"].contains("parallel"));
  }

  TEST_CASE("axolotl's Liger switches: its SwiGLU kernel off beside the others is an eager activation") {
    // axolotl's Liger plugin applies liger_rms_norm, liger_rope and liger_glu_activation one by one.
    const json part = import_text(
        "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nliger_rms_norm: true\nliger_glu_activation: false\n");
    CHECK(part["scenario"]["techniques"]["fused_kernels"] == true);
    CHECK(part["scenario"]["techniques"]["eager_activation"] == true);
    CHECK(parses(part).techniques.eager_activation);
    // Alone it says nothing the scenario can hold: listed as ignored.
    const json alone = import_text("base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nliger_glu_activation: false\n");
    CHECK_FALSE(alone["scenario"].contains("techniques"));
    CHECK(lists(alone["ignored"], "liger_glu_activation"));
  }

  TEST_CASE("DeepSpeed JSON and accelerate YAML: ZeRO stage, offload, GPUs and nodes") {
    const json ds = imported("deepspeed-zero3-offload.json");
    CHECK(ds["format"] == "deepspeed");
    CHECK(ds["scenario"]["parallel"]["zero"] == 3);
    CHECK(ds["scenario"]["parallel"]["offload"] == "cpu");
    CHECK(ds["scenario"]["framework"] == "deepspeed");
    CHECK(lists(ds["ignored"], "zero_optimization.overlap_comm"));
    parses(ds);
    const json ac = imported("accelerate-fsdp-2nodes.yaml");
    CHECK(ac["format"] == "accelerate");
    CHECK(ac["scenario"]["parallel"]["zero"] == 3);
    CHECK(ac["scenario"]["framework"] == "fsdp");
    CHECK(ac["scenario"]["precision"] == "bf16");
    CHECK(ac["scenario"]["cluster"]["gpus"] == 16);
    CHECK(ac["scenario"]["cluster"]["gpus_per_node"] == 8);  // 16 processes on 2 machines
    parses(ac);
    // `accelerate config` writes no sharding key when the user keeps the default, FULL_SHARD
    // (FullyShardedDataParallelPlugin.sharding_strategy); FSDP2 reshards after forward by default.
    const json fsdp2 = import_text(
        "compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 8\n"
        "fsdp_config:\n  fsdp_version: 2\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n");
    CHECK(fsdp2["scenario"]["parallel"]["zero"] == 3);
    CHECK(lists(fsdp2["mapped"], "fsdp_config.fsdp_sharding_strategy"));
    // A stated strategy wins over the default.
    const json grad_op = import_text("distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n");
    CHECK(grad_op["scenario"]["parallel"]["zero"] == 2);
    // Plain data parallelism stays unsharded.
    CHECK(import_text("distributed_type: MULTI_GPU\nnum_processes: 8\n")["scenario"]["parallel"]["zero"] == 0);
  }

  TEST_CASE("torchrun and deepspeed command lines: GPUs, the global batch, the script's flags") {
    const json t = imported("torchrun-sft.txt");
    CHECK(t["format"] == "torchrun");
    const json& s = t["scenario"];
    CHECK(s["cluster"]["gpus"] == 16);  // 8 per node x 2 nodes
    CHECK(s["global_batch"] == 2 * 4 * 16);
    CHECK(s["model"]["preset"] == "qwen2.5-7b");
    CHECK(s["seq_len"] == 4096);
    CHECK(s["precision"] == "bf16");
    CHECK(s["parallel"]["recompute"] == "full");
    CHECK(lists(t["unsupported"], "(method)"));
    CHECK(lists(t["ignored"], "--learning_rate"));
    parses(t);
    const json d = imported("deepspeed-cli-lora.txt");
    CHECK(d["format"] == "deepspeed_cli");
    CHECK(d["scenario"]["cluster"]["gpus"] == 4);
    CHECK(d["scenario"]["global_batch"] == 4 * 2 * 4);
    CHECK(d["scenario"]["method"] == "lora");
    CHECK(d["scenario"]["lora"]["targets"] == "attention");
    CHECK(d["scenario"]["precision"] == "fp16");
    CHECK(d["scenario"]["model"]["preset"] == "llama-2-7b");
    parses(d);
  }

  TEST_CASE("a Megatron-LM command: the launch artefacts' arguments come back as the scenario they were written from") {
    // Before, pretrain_gpt.py's flags were unknown and the global batch came out as micro-batch x
    // GPUs (32 for the first scenario, which runs 256 sequences a step).
    const char* scenarios[] = {
        // MoE with every layout dimension, forced balance, the EP overlap and a fused loss
        R"({"model": {"preset": "qwen3-30b-a3b"}, "framework": "megatron", "method": "pretrain", "seq_len": 4096,
            "micro_batch": 1, "global_batch": 256, "tokens": 1e9, "precision": "bf16",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 32, "gpus_per_node": 8},
            "parallel": {"tp": 2, "pp": 2, "cp": 2, "ep": 4, "vp": 2, "zero": 1, "sequence_parallel": true,
                         "recompute": "selective", "moe_routing": "random", "ep_comm_overlap": true},
            "techniques": {"fused_loss": "fused_ce"}})",
        // MLA, three dense blocks, a shared expert, FP8, block recompute, DeepEP, fp32 reduction
        R"({"model": {"preset": "deepseek-v3"}, "framework": "megatron", "method": "pretrain", "seq_len": 4096,
            "micro_batch": 1, "global_batch": 1024, "tokens": 1e10, "precision": "fp8",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1024, "gpus_per_node": 8},
            "parallel": {"tp": 1, "pp": 16, "ep": 64, "zero": 1, "recompute": "full", "recompute_layers": 2,
                         "ep_dispatcher": "deepep"},
            "techniques": {"fp32_grad_reduce": true}})",
        // dense, GQA, tied embeddings and biases on QKV only, dropout, no sharding, unfused attention
        R"({"model": {"preset": "qwen2.5-7b"}, "framework": "megatron", "method": "pretrain", "seq_len": 2048,
            "micro_batch": 2, "global_batch": 64, "tokens": 1e9, "precision": "bf16", "dropout": true,
            "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 16, "gpus_per_node": 8},
            "parallel": {"tp": 4, "pp": 1, "zero": 0, "recompute": "none", "tp_comm_overlap": true,
                         "sequence_parallel": true, "flash_attention": false}})",
        // 126 blocks on PP 8 x VP 8: the embedding and the loss each take a block's slot
        R"({"model": {"preset": "llama-3.1-405b"}, "framework": "megatron", "method": "pretrain", "seq_len": 8192,
            "micro_batch": 1, "global_batch": 512, "tokens": 1e10, "precision": "bf16",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1024, "gpus_per_node": 8},
            "parallel": {"tp": 8, "pp": 8, "vp": 8, "zero": 1, "sequence_parallel": true, "recompute": "full"}})",
        // 32 blocks on PP 4 x VP 3: chunks of unequal length, a layout string; cuDNN attention
        R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron", "method": "pretrain", "seq_len": 8192,
            "micro_batch": 1, "global_batch": 64, "tokens": 1e9, "precision": "bf16",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16, "gpus_per_node": 8},
            "parallel": {"tp": 1, "pp": 4, "vp": 3, "zero": 1, "recompute": "selective",
                         "attention_kernel": "cudnn"}})",
        // a model of its own (GPT-3 style: learned positions, LayerNorm, biases, GeLU), its vocabulary
        // a multiple of 128 x TP 8, so Megatron-LM's padding keeps it
        R"({"model": {"layers": 24, "hidden": 2048, "heads": 16, "ffn": 8192, "vocab": 51200, "gated_mlp": false,
                      "tied_embeddings": true, "linear_bias": true, "norm": "layernorm", "learned_positions": 2048},
            "framework": "megatron", "method": "pretrain", "seq_len": 2048, "micro_batch": 4, "global_batch": 64,
            "tokens": 1e9, "precision": "bf16", "dropout": true,
            "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 16, "gpus_per_node": 8},
            "parallel": {"tp": 8, "zero": 1, "sequence_parallel": true}})",
        // activations offloaded from every block, no pipeline
        R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron", "method": "pretrain", "seq_len": 8192,
            "micro_batch": 1, "global_batch": 64, "tokens": 1e9, "precision": "bf16",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8, "gpus_per_node": 8},
            "parallel": {"tp": 2, "pp": 1, "zero": 1, "recompute": "none", "sequence_parallel": true},
            "techniques": {"activation_offload": true}})"};
    for (const char* text : scenarios) {
      const Scenario s = scenario_of(text);
      const std::string command = megatron_command(s);
      CAPTURE(command);
      const json r = import_text(command);
      REQUIRE_MESSAGE(!r.contains("error"), r.dump());
      CHECK(r["unknown"].empty());
      CHECK_MESSAGE(r["unsupported"].empty(), r["unsupported"].dump());
      const Scenario b = parses(r);
      REQUIRE(r["scenario"].contains("model"));
      CHECK(r["scenario"]["model"].value("preset", "") == s.model_preset);
      CHECK(count_params(b.model).total == count_params(s.model).total);
      CHECK(b.model.learned_positions == s.model.learned_positions);
      CHECK(b.framework == FrameworkKind::megatron);
      CHECK(b.method == Method::pretrain);
      CHECK(b.cluster.gpus == s.cluster.gpus);
      CHECK(b.seq_len == s.seq_len);
      CHECK(b.micro_batch == s.micro_batch);
      CHECK(b.global_batch == s.global_batch);
      CHECK(b.precision == s.precision);
      CHECK(b.dropout == s.dropout);
      CHECK(b.parallel.tp == s.parallel.tp);
      CHECK(b.parallel.pp == s.parallel.pp);
      CHECK(b.parallel.cp == s.parallel.cp);
      CHECK(b.parallel.ep == s.parallel.ep);
      CHECK(b.parallel.vp == s.parallel.vp);
      CHECK(b.parallel.zero == s.parallel.zero);
      CHECK(b.parallel.sequence_parallel == s.parallel.sequence_parallel);
      CHECK(b.parallel.tp_comm_overlap == s.parallel.tp_comm_overlap);
      CHECK(b.parallel.recompute == s.parallel.recompute);
      CHECK(b.parallel.recompute_layers == s.parallel.recompute_layers);
      CHECK(b.parallel.ep_comm_overlap == s.parallel.ep_comm_overlap);
      CHECK(b.parallel.pp_comm_overlap == s.parallel.pp_comm_overlap);
      if (s.parallel.ep > 1) CHECK(b.parallel.ep_dispatcher == s.parallel.ep_dispatcher);
      if (s.parallel.ep > 1) CHECK(b.parallel.moe_routing == s.parallel.moe_routing);
      CHECK(b.techniques.fused_loss == s.techniques.fused_loss);
      CHECK(b.techniques.fp32_grad_reduce == s.techniques.fp32_grad_reduce);
      CHECK(b.techniques.activation_offload == s.techniques.activation_offload);
      CHECK(b.techniques.activation_offload_layers == s.techniques.activation_offload_layers);
      CHECK(b.parallel.flash_attention == s.parallel.flash_attention);
      if (s.parallel.attention_kernel == AttentionKernel::cudnn) CHECK(b.parallel.attention_kernel == AttentionKernel::cudnn);
      CHECK(b.tokens == doctest::Approx(s.tokens).epsilon(0.01));  // whole iterations
    }
  }

  TEST_CASE("a Megatron-LM command: Megatron-LM's defaults where a flag is absent, its vocabulary padding") {
    // A GPT-3-style model no preset has: learned positions, LayerNorm, biases, tied embeddings, GeLU
    // with ffn 4h; GPT-2's 50,257 tokens padded to a multiple of 128 x TP 8 = 1,024: 51,200.
    const json r = import_text(
        "torchrun --nnodes 4 --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 8 "
        "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --max-position-embeddings 2048 "
        "--seq-length 2048 --micro-batch-size 4 --vocab-size 50257 --fp16");
    REQUIRE_MESSAGE(!r.contains("error"), r.dump());
    const json& m = r["scenario"]["model"];
    CHECK(m["vocab"] == 51200);
    CHECK(m["ffn"] == 4 * 2048);
    CHECK(m["gated_mlp"] == false);
    CHECK(m["norm"] == "layernorm");
    CHECK(m["learned_positions"] == 2048);
    CHECK(m["tied_embeddings"] == true);
    CHECK(m["linear_bias"] == true);
    CHECK(m["kv_heads"] == 16);
    const json& s = r["scenario"];
    CHECK(s["global_batch"] == 4 * 32 / 8);  // micro-batch x data-parallel size 32 / TP 8
    CHECK(s["parallel"]["zero"] == 0);       // no --use-distributed-optimizer: DDP
    CHECK(s["dropout"] == true);             // 0.1 unless --attention-dropout and --hidden-dropout say 0
    CHECK(s["precision"] == "fp16");
    CHECK(s["method"] == "pretrain");
    parses(r);
    // SwiGLU without --ffn-hidden-size: 2/3 of 4h, rounded down to a multiple of 64 (arguments.py).
    const json g = import_text(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 1000 --num-attention-heads 8 "
        "--swiglu --position-embedding-type rope --vocab-size 32000 --bf16");
    REQUIRE_MESSAGE(!g.contains("error"), g.dump());
    CHECK(g["scenario"]["model"]["ffn"] == 2624);  // 4 x 1000 x 2 / 3 = 2666.7 -> 41 x 64
    CHECK(g["scenario"]["precision"] == "bf16");
    CHECK(g["scenario"]["techniques"]["fp32_grad_reduce"] == true);  // no --grad-reduce-in-bf16
    // Without a vocabulary (the tokenizer names no preset) the model is left out, and says why.
    const json v = import_text(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 1000 --num-attention-heads 8 "
        "--position-embedding-type rope --tokenizer-model ./my_tokenizer");
    REQUIRE_MESSAGE(!v.contains("error"), v.dump());
    CHECK(!v["scenario"].contains("model"));
    CHECK(lists(v["unsupported"],
                "--num-layers, --hidden-size, --num-attention-heads, --position-embedding-type, --tokenizer-model"));
    parses(v);
    // The same with experts split over ranks: the layout is checked over an MoE model, not refused.
    const json e = import_text(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 1000 --num-attention-heads 8 "
        "--position-embedding-type rope --num-experts 64 --expert-model-parallel-size 8 "
        "--moe-token-dispatcher-type alltoall");
    REQUIRE_MESSAGE(!e.contains("error"), e.dump());
    CHECK(e["scenario"]["parallel"]["ep"] == 8);
    CHECK(!e["scenario"].contains("model"));
    parses(e);
  }

  TEST_CASE("a Megatron-LM command: shell variables, ambiguous architectures, other scripts") {
    // A value the shell gives is not known here: listed, and nothing is derived from it (not the
    // default global batch, not the model).
    const json r = import_text(
        "torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py --pipeline-model-parallel-size $PP "
        "--micro-batch-size 1 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
        "--ffn-hidden-size $FFN --position-embedding-type rope --vocab-size 32000 --bf16");
    REQUIRE_MESSAGE(!r.contains("error"), r.dump());
    CHECK(!r["scenario"].contains("global_batch"));
    CHECK(!r["scenario"].contains("model"));
    CHECK(!r["scenario"]["parallel"].contains("pp"));
    CHECK(lists(r["unsupported"], "--pipeline-model-parallel-size"));
    CHECK(lists(r["unsupported"], "--ffn-hidden-size"));
    parses(r);
    // Mistral 7B and Llama 3 8B have one architecture and two vocabularies: the launch artefacts
    // write the vocabulary (--vocab-size), and without it neither preset is guessed.
    const Scenario mistral = scenario_of(
        R"({"model": {"preset": "mistral-7b"}, "framework": "megatron", "method": "pretrain", "seq_len": 4096,
            "global_batch": 64, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
            "parallel": {"tp": 2, "zero": 1}})");
    const json m = import_text(megatron_command(mistral));
    REQUIRE_MESSAGE(!m.contains("error"), m.dump());
    CHECK(m["scenario"]["model"]["preset"] == "mistral-7b");
    const json u = import_text(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
        "--group-query-attention --num-query-groups 8 --ffn-hidden-size 14336 --swiglu --normalization RMSNorm "
        "--position-embedding-type rope --untie-embeddings-and-output-weights --disable-bias-linear "
        "--tokenizer-model TOKENIZER");
    REQUIRE_MESSAGE(!u.contains("error"), u.dump());
    CHECK(!u["scenario"].contains("model"));
    bool named = false;
    for (const json& e : u["unsupported"])
      named = named || e["reason"].get<std::string>().find("mistral-7b") != std::string::npos;
    CHECK(named);
    // A Hugging Face script called pretrain_*.py is not Megatron-LM's; Megatron-DeepSpeed's
    // pretrain_gpt.py under the DeepSpeed launcher runs a DeepSpeed engine.
    const json hf = import_text("torchrun --nproc_per_node 8 pretrain_llama.py --per_device_train_batch_size 2 --bf16");
    CHECK(!hf["scenario"].contains("framework"));
    CHECK(hf["scenario"]["global_batch"] == 16);
    const json ds = import_text("deepspeed --num_gpus 8 pretrain_gpt.py --tensor-model-parallel-size 2 "
                                "--micro-batch-size 2 --global-batch-size 64 --bf16");
    REQUIRE_MESSAGE(!ds.contains("error"), ds.dump());
    CHECK(ds["scenario"]["framework"] == "deepspeed");
    CHECK(ds["scenario"]["parallel"]["tp"] == 2);
    CHECK(ds["scenario"]["global_batch"] == 64);
    CHECK(!ds["scenario"]["parallel"].contains("zero"));  // the DeepSpeed config's, not Megatron-LM's DDP
    // --moe-layer-freq in a form not read: the model is left out, not taken as every block MoE.
    const json f = import_text(
        "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 24 --hidden-size 1024 --num-attention-heads 8 "
        "--position-embedding-type rope --num-experts 8 --moe-layer-freq 2 --vocab-size 32000");
    REQUIRE_MESSAGE(!f.contains("error"), f.dump());
    CHECK(!f["scenario"].contains("model"));
  }

  TEST_CASE("a Megatron-LM command: Megatron-LM's other spellings of a layout") {
    const char* base = "torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py --num-layers 32 --hidden-size 1024 "
                       "--num-attention-heads 8 --position-embedding-type rope --vocab-size 32000 "
                       "--micro-batch-size 1 --global-batch-size 64 ";
    // A layout string with repeats: 8 stages of 4 blocks on PP 4 is VP 2, the estimate's own split.
    const json l = import_text(std::string(base) + "--pipeline-model-parallel-size 4 "
                                                   "--pipeline-model-parallel-layout 'Et*4|t*4|t*4|t*4|t*4|t*4|t*4|t*4L'");
    REQUIRE_MESSAGE(!l.contains("error"), l.dump());
    CHECK(l["scenario"]["parallel"]["vp"] == 2);
    CHECK(lists(l["ignored"], "--pipeline-model-parallel-layout"));
    // The account-for flags count the embedding and the loss as blocks: (30 + 2) / 4 = 8 a stage,
    // 2 a virtual stage, VP 4 (arguments.py).
    const json a = import_text(
        "torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py --num-layers 30 --hidden-size 1024 "
        "--num-attention-heads 8 --position-embedding-type rope --vocab-size 32000 --pipeline-model-parallel-size 4 "
        "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split "
        "--num-layers-per-virtual-pipeline-stage 2 --micro-batch-size 1 --global-batch-size 64");
    REQUIRE_MESSAGE(!a.contains("error"), a.dump());
    CHECK(a["scenario"]["parallel"]["vp"] == 4);
    // --cpu-offloading-num-layers above 0 turns offloading on by itself.
    const json o = import_text(std::string(base) + "--cpu-offloading-num-layers 4");
    CHECK(o["scenario"]["techniques"]["activation_offload"] == true);
    CHECK(o["scenario"]["techniques"]["activation_offload_layers"] == 4);
    // Expert widths without --num-experts: no experts, listed, not refused.
    const json e = import_text(std::string(base) + "--moe-router-topk 2 --moe-ffn-hidden-size 512");
    REQUIRE_MESSAGE(!e.contains("error"), e.dump());
    CHECK(e["scenario"]["model"].value("experts", 0) == 0);
    CHECK(lists(e["ignored"], "--moe-router-topk"));
    // No GPU count (torchrun's arguments in a shell array): the layout is checked over the GPUs it
    // could run on, not refused against a default of 8.
    const json g = import_text("torchrun pretrain_gpt.py --tensor-model-parallel-size 8 "
                               "--pipeline-model-parallel-size 4 --micro-batch-size 1 --global-batch-size 64");
    REQUIRE_MESSAGE(!g.contains("error"), g.dump());
    CHECK(g["scenario"]["parallel"]["tp"] == 8);
    CHECK(!g["scenario"].contains("cluster"));
    // Hugging Face flags spelled with underscores are not Megatron-LM's, even beside a TP flag.
    const json h = import_text("deepspeed --num_gpus 8 train.py --model_name_or_path Qwen/Qwen2.5-7B --bf16 "
                               "--per_device_train_batch_size 2 --tensor_model_parallel_size 2");
    CHECK(h["scenario"]["model"]["preset"] == "qwen2.5-7b");
    CHECK(h["scenario"]["global_batch"] == 16);
  }

  TEST_CASE("a Megatron-LM command: bad values name the flag") {
    // Zero divisors and missing values are refused by name, never a crash.
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 64 "
                      "--num-attention-heads 8 --position-embedding-type rope "
                      "--num-layers-per-virtual-pipeline-stage 0") == "--num-layers-per-virtual-pipeline-stage");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 64 "
                      "--num-attention-heads 8 --position-embedding-type rope --vocab-size 1000 "
                      "--make-vocab-size-divisible-by 0") == "--make-vocab-size-divisible-by");
    CHECK(error_message("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers --hidden-size 64") ==
          "--num-layers: needs a value");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --swiglu true") == "--swiglu");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 0") ==
          "--tensor-model-parallel-size");
    CHECK(error_message("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 30 --hidden-size 64 "
                        "--num-attention-heads 8 --position-embedding-type rope --pipeline-model-parallel-size 4 "
                        "--num-layers-per-virtual-pipeline-stage 2") ==
          "--num-layers-per-virtual-pipeline-stage: must divide --num-layers / --pipeline-model-parallel-size (30 / "
          "4, the embedding and loss counted where the account-for flags say); got 2");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --recompute-granularity most") ==
          "--recompute-granularity");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 64 "
                      "--num-attention-heads 8") == "--position-embedding-type");
    CHECK(error_field("torchrun --nproc_per_node 8 pretrain_gpt.py --sequence-parallel yes") == "--sequence-parallel");
  }

  TEST_CASE("the Trainer's --fsdp options and TRL's --activation_offloading, as the launch artefacts write them") {
    // transformers TrainingArguments.fsdp takes its options as one space-separated string;
    // trl SFTConfig.activation_offloading is a boolean (HfArgumentParser reads "true").
    const json t = import_text(
        "torchrun --standalone --nproc_per_node=8 \\\n  train.py --fsdp \"full_shard auto_wrap\" "
        "--activation_offloading true\n");
    REQUIRE_MESSAGE(!t.contains("error"), t.dump());
    CHECK(t["scenario"]["parallel"]["zero"] == 3);
    CHECK(t["scenario"]["techniques"]["activation_offload"] == true);
    CHECK(t["unknown"].empty());
    CHECK(import_text("torchrun --nproc_per_node=8 train.py --fsdp \"shard_grad_op offload\"\n")["scenario"] ==
          json::parse(R"({"parallel": {"zero": 2, "offload": "cpu"}, "cluster": {"gpus": 8}})"));
    // axolotl writes the same options as a list.
    CHECK(import_text(
              "base_model: x\nadapter: lora\nfsdp:\n  - full_shard\n  - auto_wrap\n")["scenario"]["parallel"]["zero"] ==
          3);
    CHECK(lists(import_text("torchrun --nproc_per_node=8 train.py --fsdp hybrid_shard\n")["unsupported"], "--fsdp"));
    // axolotl's gradient_checkpointing: offload checkpoints every layer and offloads the checkpoints;
    // offload_disk's disk is no place the model has.
    const json ax = import_text("base_model: x\nadapter: lora\ngradient_checkpointing: offload\n");
    CHECK(ax["scenario"]["parallel"]["recompute"] == "full");
    CHECK(ax["scenario"]["techniques"]["activation_offload"] == true);
    const json disk = import_text("base_model: x\nadapter: lora\ngradient_checkpointing: offload_disk\n");
    CHECK(disk["scenario"]["parallel"]["recompute"] == "full");
    CHECK(!disk["scenario"].contains("techniques"));
    CHECK(lists(disk["unsupported"], "gradient_checkpointing"));
    CHECK(error_message("base_model: x\ngradient_checkpointing: sometimes\n") ==
          "gradient_checkpointing: must be true or false; got \"sometimes\"");
    // PEFT's lora_dropout: at 0 an identity; above, a dropped copy of every adapted layer's input kept
    // for backward, which no scenario field counts.
    CHECK(lists(import_text("base_model: x\nadapter: lora\nlora_dropout: 0.0\n")["ignored"], "lora_dropout"));
    CHECK(lists(imported("axolotl-llama3.1-qlora.yaml")["unsupported"], "lora_dropout"));  // 0.05
    CHECK(error_message("base_model: x\nadapter: lora\nlora_dropout: 1.5\n") ==
          "lora_dropout: must be a number in 0..1 (exclusive of 1); got 1.5");
    // A value other than a boolean: an offload target the model has no place for, or a wrong type.
    CHECK(lists(import_text("torchrun --nproc_per_node=8 train.py --activation_offloading disk\n")["unsupported"],
                "--activation_offloading"));
    CHECK(error_message("torchrun --nproc_per_node=8 train.py --activation_offloading 3\n") ==
          "--activation_offloading: must be true or false; got 3");
    CHECK(import_text("torchrun --nproc_per_node=8 train.py --activation_offloading 1\n")["scenario"]["techniques"]
                                                                                         ["activation_offload"] ==
          true);
  }

  TEST_CASE("unknown keys are listed, never dropped, and conflicting keys are refused") {
    const json r = import_text("stage: sft\nfinetuning_type: full\nmy_own_flag: 3\n");
    CHECK(lists(r["unknown"], "my_own_flag"));
    CHECK(r["scenario"]["method"] == "full");
    CHECK(error_field("stage: sft\nbf16: true\nfp16: true\n") == "fp16");
    CHECK(error_message("stage: sft\nbf16: true\nfp16: true\n") == "fp16: gives precision = fp16, but bf16 gave bf16");
  }

  TEST_CASE("bad values name the key and the allowed values") {
    CHECK(error_message("stage: sft\nlora_rank: 0\n") ==
          "lora_rank: must be an integer in 1..4096; got 0 (for lora.rank)");
    CHECK(error_message("stage: sft\nfinetuning_type: oft\n") ==
          "finetuning_type: must be one of lora, full, freeze; got 'oft'");
    CHECK(error_field(R"({"model_type": "llama", "hidden_size": "4096", "num_hidden_layers": 32,
      "num_attention_heads": 32, "intermediate_size": 11008, "vocab_size": 32000})") == "hidden_size");
    CHECK(error_field(R"({"model_type": "gpt2"})") == "model_type");
    CHECK(error_field(R"({"model_type": "llama", "hidden_size": 4096})") == "num_hidden_layers");
    // kv heads that do not divide the heads: the architecture check names the source key.
    CHECK(error_field(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
      "num_attention_heads": 32, "num_key_value_heads": 5, "intermediate_size": 11008, "vocab_size": 32000})") ==
          "num_key_value_heads");
    CHECK(error_field("compute_environment: LOCAL_MACHINE\ndistributed_type: XLA\n") == "distributed_type");
    CHECK(error_field("torchrun --nproc_per_node 0 train.py\n") == "--nproc_per_node");
    // A count out of range or not whole is refused as typed (it reads as 1e+20), not taken for a
    // value like "gpu" that the command leaves to the machine.
    CHECK(error_message("torchrun --nproc_per_node=99999999999999999999 train.py\n") ==
          "--nproc_per_node: must be an integer in 1..1024; got \"99999999999999999999\"");
    CHECK(error_message("torchrun --nproc_per_node=8 --nnodes 2.5 train.py\n") ==
          "--nnodes: must be an integer in 1..100000; got \"2.5\"");
  }

  TEST_CASE("an unrecognised file is an error naming what was looked for") {
    for (const char* text : {"", "hello world", "{\"seq_len\": 4096}", "a: 1\nb: 2\n", "[1, 2]", "python train.py"}) {
      CAPTURE(text);
      const std::string m = error_message(text);
      CHECK(m.find("looked for a Hugging Face config.json") != std::string::npos);
    }
    CHECK(error_field("{\"model_type\": ") == "(json)");
    CHECK(error_field(std::string("stage: sft\nx: \xff\n")) == "(file)");
  }

  TEST_CASE("the YAML subset: maps, lists, flow lists, quotes, comments and scalar types") {
    detail::YamlError e;
    const json v = detail::parse_yaml_lite(R"(# a comment
---
a: 1            # trailing comment
b: -2.5e-3
c: "quoted: # not a comment"
d: 'it''s'
e: [x, "y z", 3, [true, null]]
f:
  g: yes
  h: ~
list:
  - one
  - k: v
    k2: 2
  -
    - nested
compact:
- p
- q
empty:
no_value: NO
url: http://example.org/a
)",
                                           e);
    REQUIRE_MESSAGE(e.line == 0, e.message);
    CHECK(v["a"] == 1);
    CHECK(v["b"] == -2.5e-3);
    CHECK(v["c"] == "quoted: # not a comment");
    CHECK(v["d"] == "it's");
    CHECK(v["e"] == json::parse(R"(["x", "y z", 3, [true, null]])"));
    CHECK(v["f"]["g"] == true);
    CHECK(v["f"]["h"].is_null());
    CHECK(v["list"] == json::parse(R"(["one", {"k": "v", "k2": 2}, ["nested"]])"));
    CHECK(v["compact"] == json::parse(R"(["p", "q"])"));
    CHECK(v["empty"].is_null());
    CHECK(v["no_value"] == false);  // as PyYAML reads it
    CHECK(v["url"] == "http://example.org/a");
  }

  TEST_CASE("the YAML subset refuses everything else, naming the line") {
    struct Bad {
      const char* text;
      int line;
      const char* says;
    };
    const Bad bad[] = {
        {"a: 1\n\tb: 2\n", 2, "tab"},
        {"a: &x 1\nb: *x\n", 1, "anchors"},
        {"a: 1\nb: *x\n", 2, "aliases"},
        {"a: 1\n---\nb: 2\n", 2, "second document"},
        {"a: 1\n...\n", 2, "document end"},
        {"a: |\n  text\n", 1, "block scalars"},
        {"a: {b: 1}\n", 1, "flow maps"},
        {"a: 1\na: 2\n", 2, "written twice"},
        {"a: !!str 1\n", 1, "tags"},
        {"a: [1, 2\n", 1, "closing ']'"},
        {"a: 'open\n", 1, "closing single quote"},
        {"a:\n  b: 1\n c: 2\n", 3, "indentation"},
        {"a: 1\n  b: 2\n", 2, "indentation"},
        {"%YAML 1.2\na: 1\n", 1, "directives"},
        {"a: b: c\n", 1, "second ': '"},
        {"- a\nb: 1\n", 2, "list item"},
        {"? a\n", 1, "expected 'key: value'"},
    };
    for (const Bad& b : bad) {
      CAPTURE(b.text);
      detail::YamlError e;
      const json v = detail::parse_yaml_lite(b.text, e);
      CHECK(v.is_discarded());
      CHECK(e.line == b.line);
      CHECK(e.message.find(b.says) != std::string::npos);
    }
    // Through import, the error names the line.
    CHECK(error_field("stage: sft\ncutoff_len: [1, 2\n") == "line 2");
    // Deep nesting stops at the limit instead of exhausting the stack.
    std::string deep;
    for (int i = 0; i < 200; ++i) deep += std::string(static_cast<size_t>(i), ' ') + "k:\n";
    detail::YamlError e;
    CHECK(detail::parse_yaml_lite(deep, e).is_discarded());
    CHECK(e.message.find("nested deeper") != std::string::npos);
    std::string flows(300, '[');
    CHECK(detail::parse_yaml_lite("a: " + flows, e).is_discarded());
  }

  TEST_CASE("model names map to catalog presets") {
    const Catalog& c = builtin_catalog();
    CHECK(preset_for_model_name("meta-llama/Llama-3.1-8B", c) == "llama-3.1-8b");
    CHECK(preset_for_model_name("meta-llama/Meta-Llama-3.1-70B-Instruct", c) == "llama-3.1-70b");
    CHECK(preset_for_model_name("meta-llama/Llama-2-7b-hf", c) == "llama-2-7b");
    CHECK(preset_for_model_name("Qwen/Qwen2.5-7B-Instruct", c) == "qwen2.5-7b");
    CHECK(preset_for_model_name("mistralai/Mixtral-8x7B-Instruct-v0.1", c) == "mixtral-8x7b");
    CHECK(preset_for_model_name("microsoft/Phi-3-mini-4k-instruct", c) == "phi-3-mini");
    CHECK(preset_for_model_name("google/gemma-2-9b-it", c) == "gemma-2-9b");
    CHECK(preset_for_model_name("deepseek-ai/DeepSeek-V3", c) == "deepseek-v3");
    CHECK(preset_for_model_name("/data/models/my-own-model", c).empty());
    CHECK(preset_for_model_name("mistralai/Mistral-7B-Instruct-v0.3", c).empty());  // vocab 32,768: not v0.1
  }
}
