// launch.cpp: the commands and configs that run a plan: torchrun on every node, a DeepSpeed
// JSON, an accelerate config (FSDP or DeepSpeed), Megatron-LM arguments, a torchtitan job config
// and a PEFT snippet.
// Every value comes from the scenario and its estimate, so the artefacts cannot disagree with
// the plan (tests parse them back).
//
// [SECTION] Which framework runs the layout
// [SECTION] torchrun
// [SECTION] DeepSpeed and accelerate
// [SECTION] Megatron-LM
// [SECTION] torchtitan (FSDP2)
// [SECTION] PEFT
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "llmplan/advice.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Which framework runs the layout
//-----------------------------------------------------------------------------

// The one rule the planner searches with (layouts.hpp): Megatron-LM for TP/PP, torch FSDP for
// ZeRO-3 without offload, DeepSpeed otherwise; none for a layout no framework runs.
FrameworkChoice framework(const Scenario& s) { return framework_for(layout_of(s), s.model, s.method); }

// The framework the artefacts launch: the one the scenario names where they can launch it
// (torchtitan or Megatron-LM running the layout), else the planner's rule. A scenario estimated in
// torchtitan launched as DeepSpeed would hold other buffers than the estimate counted.
const char* launched_framework(const Scenario& s) {
  if (s.framework_given && s.framework == FrameworkKind::torchtitan && torchtitan_runs(s)) return "torchtitan";
  if (s.framework_given && s.framework == FrameworkKind::megatron && megatron_runs(layout_of(s), s.model, s.method))
    return to_string(Framework::megatron);
  return to_string(framework(s).framework);
}

// bf16 weights: bf16 training, and FP8's (Transformer Engine keeps bf16 weights and casts per GEMM).
bool bf16_weights(const Scenario& s) { return s.precision == Precision::bf16 || s.precision == Precision::fp8; }

int save_interval_steps(const EstimateResult& r) {
  if (r.time.step_s <= 0) return 1;
  return std::max(1, static_cast<int>(std::lround(r.reliability.checkpoint_interval_h * 3600 / r.time.step_s)));
}

long long train_steps(const EstimateResult& r) {
  return std::max(1LL, static_cast<long long>(std::ceil(r.time.steps)));
}

std::string num(long long v) { return std::to_string(v); }

//-----------------------------------------------------------------------------
// [SECTION] torchrun
//-----------------------------------------------------------------------------

bool ascend(const Scenario& s) { return s.cluster.vendor == "huawei"; }

// Ascend NPUs talk through HCCL, not NCCL, and send between nodes over their own RoCE ports (one a
// chip, set up with hccn_tool), not the host's NICs: the NCCL variables would do nothing. HCCL
// takes the host interface that sets up its communicators from HCCL_SOCKET_IFNAME and waits
// HCCL_CONNECT_TIMEOUT seconds for every rank to join (CANN environment variable reference,
// hiascend.com).
constexpr const char* kHcclEnvironment =
    "export HCCL_SOCKET_IFNAME=eth0 HCCL_CONNECT_TIMEOUT=1200   # HCCL: name the host interface; the NPUs' RoCE "
    "ports carry the traffic (check them with hccn_tool -i 0 -link -g)\n";

std::string collective_environment(const Scenario& s) {
  if (s.cluster.nodes() == 1) return "";
  if (ascend(s)) return kHcclEnvironment;
  const std::string& link = s.network.inter_node_link;
  if (link.rfind("aws-efa", 0) == 0) return "export FI_PROVIDER=efa FI_EFA_USE_DEVICE_RDMA=1 NCCL_DEBUG=WARN\n";
  if (s.network.rdma)
    return "export NCCL_IB_HCA=mlx5 NCCL_DEBUG=WARN   # RDMA NICs; check the names with ibv_devices\n";
  return "export NCCL_SOCKET_IFNAME=eth0 NCCL_IB_DISABLE=1 NCCL_DEBUG=WARN   # TCP only: name the data interface\n";
}

// Activation offload in a Hugging Face training script: TRL's SFTConfig.activation_offloading
// (trl/trainer/sft_config.py), which SFTTrainer applies around every forward and backward with
// torchtune's OffloadActivations hooks (trl/models/activation_offloading.py); transformers'
// TrainingArguments, accelerate's FSDP plugin and a DeepSpeed config for such a script have no
// equivalent (DeepSpeed's cpu_checkpointing serves only its own checkpointing API).
// SFTConfig's max_length (1,024 by default) truncates the sequences: the plan's length goes with it.
std::string trl_offload_flag(const Scenario& s) {
  return s.techniques.activation_offload ? " --activation_offloading true --max_length " + num(s.seq_len) : "";
}

const char* trainer_name(const Scenario& s) {
  return s.techniques.activation_offload ? "TRL SFTTrainer, SFTConfig.activation_offloading" : "Hugging Face Trainer";
}

// TRL's activation offloading fails in backward under DeepSpeed (huggingface/trl issue #4280, open).
constexpr const char* kTrlDeepspeedOffload =
    "; under DeepSpeed it fails in backward (huggingface/trl issue #4280): run it with --fsdp or on one GPU";

// `launched`: launched_framework(s), decided once by launch_artifacts.
std::string torchrun(const Scenario& s, std::string_view launched) {
  const int per_node = std::min(s.cluster.gpus, s.cluster.gpus_per_node);
  const int nodes = s.cluster.nodes();
  FrameworkChoice fw = framework(s);
  if (launched == to_string(Framework::megatron)) fw.framework = Framework::megatron;
  const bool torchtitan = launched == "torchtitan";
  // xargs reads Megatron-LM's arguments as the shell would, quotes included, without expanding
  // '*' or '[' in values such as --moe-layer-freq ([0]*3+[1]*58); $(cat ...) would pass the quotes
  // on literally and glob the rest.
  std::string cmd = collective_environment(s) +
                    (fw.framework == Framework::megatron ? "xargs -a megatron_args.txt " : "") + "torchrun";
  if (nodes == 1) {
    cmd += " --standalone --nproc_per_node=" + num(per_node);
  } else {
    cmd += " --nnodes=" + num(nodes) + " --nproc_per_node=" + num(per_node) +
           " --node_rank=$NODE_RANK --rdzv_id=llmplan --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500";
  }
  const std::string offload = trl_offload_flag(s);
  if (torchtitan)
    return cmd + " \\\n  -m torchtitan.train --job.config_file torchtitan.toml   # torchtitan, as the scenario names";
  switch (fw.framework) {
    case Framework::megatron:
      // MindSpeed runs Megatron-LM on Ascend with the same arguments once pretrain_gpt.py imports
      // its adaptor (Ascend/MindSpeed, docs/user-guide/getting_started.md).
      return cmd + " \\\n  pretrain_gpt.py   # " +
             (ascend(s) ? "Megatron-LM with MindSpeed: add 'import mindspeed.megatron_adaptor' under 'import torch' "
                          "in pretrain_gpt.py; "
                        : "Megatron-LM; ") +
             "xargs appends megatron_args.txt, where DATA_PREFIX is your tokenised data "
             "(tools/preprocess_data.py), TOKENIZER the model's Hugging Face tokenizer" +
             (s.method != Method::pretrain ? ", BASE_CHECKPOINT the base model converted to Megatron format" : "");
    case Framework::fsdp:
      return cmd + " \\\n  train.py --fsdp \"full_shard auto_wrap\"" + offload + "   # " + trainer_name(s) +
             "; or: accelerate launch --config_file accelerate_fsdp.yaml train.py" + offload;
    case Framework::deepspeed:
      return cmd + " \\\n  train.py --deepspeed ds_config.json" + offload + "   # your script (" + trainer_name(s) +
             (s.techniques.activation_offload ? std::string(")") + kTrlDeepspeedOffload : " or deepspeed.initialize)");
    case Framework::none: break;
  }
  return cmd + " \\\n  train.py   # no framework of these artefacts runs this layout: " + fw.reason;
}

//-----------------------------------------------------------------------------
// [SECTION] DeepSpeed and accelerate
//-----------------------------------------------------------------------------

std::string deepspeed_json(const Scenario& s, const EstimateResult& r, const Calibration& cal) {
  using json = nlohmann::ordered_json;
  json ds = {{"train_batch_size", r.global_batch},
             {"train_micro_batch_size_per_gpu", s.micro_batch},
             {"gradient_accumulation_steps", r.grad_accum},
             {"gradient_clipping", 1.0}};
  if (bf16_weights(s)) ds["bf16"] = {{"enabled", true}};
  // ZeRO-1 with fp32 gradient accumulation runs the BF16_Optimizer, as the estimate does (without ZeRO
  // it is DeepSpeed's default).
  if (s.precision == Precision::bf16 && s.parallel.zero == 1 && s.techniques.fp32_grad_reduce)
    ds["data_types"] = {{"grad_accum_dtype", "fp32"}};
  if (s.precision == Precision::fp16) ds["fp16"] = {{"enabled", true}, {"loss_scale", 0}, {"initial_scale_power", 16}};
  json zero = {{"stage", s.parallel.zero}, {"overlap_comm", true}, {"contiguous_gradients", true}};
  if (s.parallel.zero >= 1 && s.parallel.zero <= 2) {
    zero["reduce_bucket_size"] = cal.deepspeed_bucket_elements.value;
    zero["allgather_bucket_size"] = cal.deepspeed_bucket_elements.value;
  }
  if (s.parallel.offload != Offload::none) {
    const bool nvme = s.parallel.offload == Offload::nvme;
    json dev = {{"device", nvme ? "nvme" : "cpu"}, {"pin_memory", true}};
    if (nvme) dev["nvme_path"] = "/local_nvme";
    zero["offload_optimizer"] = dev;
    if (s.parallel.zero == 3) zero["offload_param"] = dev;
  }
  if (s.parallel.zero == 3) {
    zero["stage3_prefetch_bucket_size"] = "auto";
    zero["stage3_param_persistence_threshold"] = "auto";
    zero["stage3_gather_16bit_weights_on_model_save"] = true;
  }
  ds["zero_optimization"] = zero;
  ds["steps_per_print"] = 10;
  return ds.dump(2);
}

const char* mixed_precision(const Scenario& s) {
  switch (s.precision) {
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::fp32: return "no";
  }
  return "no";
}

const char* fsdp_sharding(int zero) {
  if (zero >= 3) return "FULL_SHARD";
  if (zero >= 1) return "SHARD_GRAD_OP";  // FSDP has no optimizer-only sharding: ZeRO-1 maps to ZeRO-2
  return "NO_SHARD";
}

std::string accelerate_yaml(const Scenario& s) {
  const int nodes = s.cluster.nodes();
  const bool fsdp = framework(s).framework == Framework::fsdp;
  std::string y = "# accelerate launch --config_file accelerate_" + std::string(fsdp ? "fsdp" : "deepspeed") +
                  ".yaml train.py" + trl_offload_flag(s) + "   (machine_rank: 0..nodes-1, one per node)\n";
  y += "compute_environment: LOCAL_MACHINE\n";
  y += std::string("distributed_type: ") +
       (fsdp ? "FSDP" : (s.cluster.gpus == 1 && s.parallel.zero == 0 ? "NO" : "DEEPSPEED")) + "\n";
  y += std::string("mixed_precision: ") + mixed_precision(s) + "\n";
  y += "num_machines: " + num(nodes) + "\n";
  y += "num_processes: " + num(s.cluster.gpus) + "\n";
  y += "machine_rank: 0\n";
  if (nodes > 1)
    y += "main_process_ip: MASTER_ADDR\nmain_process_port: 29500\nrdzv_backend: c10d\nsame_network: true\n";
  if (fsdp) {
    y += "fsdp_config:\n";
    y += std::string("  fsdp_sharding_strategy: ") + fsdp_sharding(s.parallel.zero) + "\n";
    y += "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n";
    y += "  fsdp_backward_prefetch: BACKWARD_PRE\n";
    y += std::string("  fsdp_offload_params: ") + (s.parallel.offload == Offload::cpu ? "true" : "false") + "\n";
    y += std::string("  fsdp_activation_checkpointing: ") +
         (s.parallel.recompute != Recompute::none ? "true" : "false") + "\n";
    y += "  fsdp_state_dict_type: SHARDED_STATE_DICT\n";
    y += "  fsdp_cpu_ram_efficient_loading: true\n";
    y += "  fsdp_sync_module_states: true\n";
    y += "  fsdp_use_orig_params: true\n";
  } else if (s.cluster.gpus > 1 || s.parallel.zero > 0) {
    y += "deepspeed_config:\n  deepspeed_config_file: ds_config.json\n  deepspeed_multinode_launcher: standard\n";
  }
  return y;
}

//-----------------------------------------------------------------------------
// [SECTION] Megatron-LM
//-----------------------------------------------------------------------------

// Arguments of Megatron-LM's pretrain_gpt.py (Megatron-Core flag names), one per line.
std::string megatron_args(const Scenario& s, const EstimateResult& r) {
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  std::string a;
  auto arg = [&a](const std::string& flag, const std::string& value = "") {
    a += flag + (value.empty() ? "" : " " + value) + "\n";
  };
  arg("--tensor-model-parallel-size", num(x.tp));
  arg("--pipeline-model-parallel-size", num(x.pp));
  const PipelineSplit split = pipeline_split(m.layers, x.pp);
  const bool layout = x.vp > 1 && !vp_divides_stages(split, x.pp, x.vp);  // chunks of unequal length
  if (layout) {
    // Quoted: xargs takes the quotes off, and a shell the command is pasted into reads no pipes.
    arg("--pipeline-model-parallel-layout",
        "\"" + megatron_pipeline_layout(split, x.pp, x.vp, s.techniques.mtp_layers) + "\"");
  } else if (embedding_counts_as_block(split, x.pp, x.vp)) {
    // Virtual stages of middle-stage size, the embedding and the loss each taking a block's slot.
    arg("--account-for-embedding-in-pipeline-split");
    arg("--account-for-loss-in-pipeline-split");
  } else if (!split.even()) {
    arg("--decoder-first-pipeline-num-layers", num(split.first));
    arg("--decoder-last-pipeline-num-layers", num(split.last));
  }
  // Context, expert and virtual pipeline parallelism (megatron/training/arguments.py). With an
  // uneven split Megatron-LM refuses --num-layers-per-virtual-pipeline-stage and asks for
  // --num-virtual-stages-per-pipeline-rank, which also serves even splits.
  if (x.cp > 1) arg("--context-parallel-size", num(x.cp));
  if (x.ep > 1) arg("--expert-model-parallel-size", num(x.ep));
  if (s.model.is_moe() && x.expert_tp() != x.tp) arg("--expert-tensor-parallel-size", num(x.expert_tp()));
  // Megatron-Core's default dispatcher is allgather; the model counts an all-to-all, or DeepEP's
  // per-node dispatch through the flex dispatcher.
  if (x.ep > 1 && x.dispatches_per_rank()) {
    arg("--moe-token-dispatcher-type", "flex");
    arg("--moe-flex-dispatcher-backend", to_string(x.ep_dispatcher));
    if (x.ep_comm_sms > 0) arg("--moe-flex-dispatcher-num-sms", num(x.ep_comm_sms));
  } else if (x.ep > 1) {
    arg("--moe-token-dispatcher-type", "alltoall");
    if (x.moe_capacity_factor > 0) {  // token dropping, every expert's input padded to its capacity
      arg("--moe-expert-capacity-factor", format_number("%g", x.moe_capacity_factor));
      arg("--moe-pad-expert-input-to-capacity");
    }
  }
  // Random router logits, a benchmark's forced balance (Megatron-Core moe_router_force_load_balancing).
  if (x.ep > 1 && x.moe_routing == MoeRouting::random) arg("--moe-router-force-load-balancing");
  if (x.ep > 1 && x.ep_comm_overlap) {
    arg("--overlap-moe-expert-parallel-comm");  // the combined 1F1B schedule
    arg("--delay-wgrad-compute");
  }
  if (x.vp > 1 && !layout) arg("--num-virtual-stages-per-pipeline-rank", num(x.vp));  // the layout implies it
  // Megatron-LM overlaps the interleaved schedule's pipeline transfers unless told not to.
  if (x.vp > 1 && !x.pp_comm_overlap) arg("--no-overlap-p2p-communication");
  if (x.tp > 1 && x.sequence_parallel) arg("--sequence-parallel");
  if (x.tp > 1 && x.tp_comm_overlap) arg("--tp-comm-overlap");  // Transformer Engine userbuffers
  if (x.zero == 1) arg("--use-distributed-optimizer");
  if (x.zero <= 1) arg("--overlap-grad-reduce");  // DDP's all-reduce or the distributed optimizer's reduce-scatter
  if (x.zero == 1) arg("--overlap-param-gather");
  if (x.zero == 3) arg("--use-torch-fsdp2");
  if (x.recompute == Recompute::selective) arg("--recompute-activations");
  if (x.recompute == Recompute::full) {
    // "uniform" with 1 checkpoints every block alone; "block" recomputes the first N blocks of each
    // chunk and keeps the others' activations (parallel.recompute_layers).
    arg("--recompute-granularity", "full");
    arg("--recompute-method", x.recompute_layers > 0 ? "block" : "uniform");
    arg("--recompute-num-layers", x.recompute_layers > 0 ? num(x.recompute_layers) : "1");
  }
  if (s.techniques.activation_offload) {
    // Megatron-LM offloads fewer layers than the model has, and only without PP (TransformerConfig;
    // megatron_runs refuses the rest): "every layer" is all but the last, whose activations
    // backward reads at once.
    const int all_but_last = std::max(1, m.layers - 1);
    const int n = s.techniques.activation_offload_layers;
    arg("--cpu-offloading");
    arg("--cpu-offloading-num-layers", num(n > 0 ? std::min(n, all_but_last) : all_but_last));
  }
  arg("--num-layers", num(m.layers));
  arg("--hidden-size", num(m.hidden));
  arg("--ffn-hidden-size", num(m.ffn));
  arg("--num-attention-heads", num(m.heads));
  if (m.head_dim > 0) arg("--kv-channels", num(m.head_dim));
  if (m.attention == AttentionKind::mla) {
    arg("--multi-latent-attention");
    if (m.q_lora_rank > 0) arg("--q-lora-rank", num(m.q_lora_rank));
    arg("--kv-lora-rank", num(m.kv_lora_rank));
    arg("--qk-head-dim", num(m.qk_nope_head_dim));
    arg("--qk-pos-emb-head-dim", num(m.qk_rope_head_dim));
    arg("--v-head-dim", num(m.v_head_dim));
  } else if (m.kv_heads > 0 && m.kv_heads < m.heads) {
    arg("--group-query-attention");
    arg("--num-query-groups", num(m.kv_heads));
  }
  if (m.is_moe()) {
    arg("--num-experts", num(m.experts));
    arg("--moe-router-topk", num(m.top_k));
    arg("--moe-ffn-hidden-size", num(m.expert_ffn));
    if (m.shared_experts > 0)
      arg("--moe-shared-expert-intermediate-size",
          num(static_cast<long long>(m.shared_experts) * m.effective_shared_ffn()));
    if (m.dense_layers > 0)
      arg("--moe-layer-freq", "\"([0]*" + num(m.dense_layers) + "+[1]*" + num(m.moe_layers()) + ")\"");
  }
  // Multi-token prediction (DeepSeek-V3 §2.2): Megatron-Core's MTP modules, their loss weighted by
  // --mtp-loss-scaling-factor (0.1 by default, the report's first 10T tokens).
  if (s.techniques.mtp_layers > 0) arg("--mtp-num-layers", num(s.techniques.mtp_layers));
  if (m.gated_mlp) arg("--swiglu");
  // The activation left unfused as the estimate counts it (Megatron-LM fuses bias and SwiGLU by default).
  if (m.gated_mlp && s.techniques.eager_activation) arg("--no-bias-swiglu-fusion");
  arg("--normalization", m.norm == NormKind::rmsnorm ? "RMSNorm" : "LayerNorm");
  if (m.learned_positions > 0) {
    arg("--position-embedding-type", "learned_absolute");
  } else {
    arg("--position-embedding-type", "rope");
  }
  if (!m.tied_embeddings) arg("--untie-embeddings-and-output-weights");
  if (!m.linear_bias) arg("--disable-bias-linear");
  if (m.qkv_bias) arg("--add-qkv-bias");
  // Megatron-LM's "auto" backend fuses attention wherever it can: the estimate's kernel named.
  arg("--attention-backend", !x.flash_attention                          ? "unfused"
                             : x.attention_kernel == AttentionKernel::cudnn ? "fused"
                                                                            : "flash");
  // Megatron-LM drops 10 % of the attention probabilities and hidden states unless told otherwise
  // (arguments.py: --attention-dropout, --hidden-dropout default 0.1); the estimate counts their
  // masks only where the scenario says dropout.
  if (!s.dropout) {
    arg("--attention-dropout", "0.0");
    arg("--hidden-dropout", "0.0");
  }
  arg("--seq-length", num(s.seq_len));
  arg("--max-position-embeddings", num(std::max(s.seq_len, s.max_context)));
  arg("--micro-batch-size", num(s.micro_batch));
  arg("--global-batch-size", num(r.global_batch));
  arg("--train-iters", num(train_steps(r)));
  if (bf16_weights(s)) arg("--bf16");
  if (s.precision == Precision::fp8) arg("--fp8-format", "hybrid");
  // FP8 weights gathered by the distributed optimizer or FSDP (zero 1 or 3, which fp8_params needs here).
  if (s.fp8_params) arg("--fp8-param-gather");
  // Megatron-LM accumulates and reduces bf16 gradients in fp32 unless told otherwise; the estimate
  // keeps them in bf16 unless techniques.fp32_grad_reduce says fp32, and so does the job.
  if (bf16_weights(s) && !s.techniques.fp32_grad_reduce) arg("--grad-reduce-in-bf16");
  // One fused kernel on the logits, as the estimate times it (8 bytes a vocabulary entry): Transformer
  // Engine's fused cross-entropy; without it Megatron-Core runs its vocab-parallel one op by op.
  if (s.techniques.fused_loss == FusedLoss::fused_ce) {
    arg("--cross-entropy-loss-fusion");
    arg("--cross-entropy-fusion-impl", "te");
  }
  if (s.precision == Precision::fp16) arg("--fp16");
  arg("--save-interval", num(save_interval_steps(r)));
  arg("--save", "/checkpoints");
  arg("--load", "/checkpoints");
  if (s.method != Method::pretrain)  // fine-tuning starts from the released weights; a restart resumes from --load
    arg("--pretrained-checkpoint", "BASE_CHECKPOINT");
  // Placeholders only: xargs passes every word of the file to Megatron-LM, comments included (the
  // torchrun line says what to put in their place).
  arg("--data-path", "DATA_PREFIX");
  arg("--tokenizer-type", "HuggingFaceTokenizer");
  arg("--tokenizer-model", "TOKENIZER");
  // Read by Megatron-LM's NullTokenizer only (a Hugging Face tokenizer brings its own): the
  // vocabulary the estimate counts, which also tells `llmplan import` Mistral 7B from Llama 3 8B.
  arg("--vocab-size", num(m.vocab));
  return a;
}

//-----------------------------------------------------------------------------
// [SECTION] torchtitan (FSDP2)
//-----------------------------------------------------------------------------

// Megatron-LM's block method recomputes the first N blocks of each chunk; torchtitan's nearest is
// its layer checkpointing, selective with selective_ac_option "k", which wraps every k-th block
// (torchtitan/distributed/activation_checkpoint.py, _apply_layer_sac): k = floor(blocks / recomputed)
// recomputes at least as many, so the stage still fits.
std::string torchtitan_layer_checkpointing(const Scenario& s) {
  const int most = most_stage_layers(s);
  const int recomputed = std::max(1, recomputed_layers(s, most));
  const int k = std::max(1, most / recomputed);
  if (k == 1)
    return "mode = \"full\"  # Megatron-LM recomputes " + num(recomputed) + " of a stage's " + num(most) + "\n";
  return "mode = \"selective\"\nselective_ac_option = \"" + num(k) + "\"  # one block in " + num(k) + ", " +
         num(most / k) + " of a stage's " + num(most) + "; Megatron-LM recomputes " + num(recomputed) +
         " (--recompute-method block)\n";
}

// torchtitan's [activation_checkpoint] (torchtitan/config/job_config.py): mode none, full or
// selective; selective with selective_ac_option "op" is per-operator checkpointing. It has no
// attention-core recompute: with a fused attention kernel Megatron's selective keeps what none keeps.
std::string torchtitan_checkpoint_mode(const Scenario& s) {
  const Parallel& x = s.parallel;
  switch (x.recompute) {
    case Recompute::full: return x.recompute_layers > 0 ? torchtitan_layer_checkpointing(s) : "mode = \"full\"\n";
    case Recompute::selective_op: return "mode = \"selective\"\nselective_ac_option = \"op\"\n";
    case Recompute::selective:
      return x.flash_attention
                 ? "mode = \"none\"  # selective (attention core): the fused kernel already recomputes it\n"
                 : "mode = \"full\"  # torchtitan has no attention-core recompute; full is the nearest\n";
    default: return "mode = \"none\"\n";
  }
}

// torchtitan counts the embedding and the output as one layer each when it splits the model by
// pipeline_parallel_layers_per_stage: ceil((layers + 2) / layers_per_stage) virtual stages
// (torchtitan/distributed/pipeline_parallel.py). The smallest value giving pp x vp stages, or 0.
int torchtitan_layers_per_stage(int layers, int stages) {
  for (int per = 1; per <= layers + 2; ++per)
    if ((layers + 2 + per - 1) / per == stages) return per;
  return 0;
}

// The job config torchtitan's train.py reads (--job.config_file): the [parallelism] section maps
// the layout (torchtitan/config/job_config.py, class Parallelism); ZeRO-3 is FSDP2 resharding
// after forward, ZeRO-1/2 FSDP2 keeping the gathered weights until backward (FSDP2 has no
// optimizer-only sharding), ZeRO-0 plain replication (DDP).
std::string torchtitan_toml(const Scenario& s, const EstimateResult& r) {
  const Parallel& x = s.parallel;
  const int dp = s.dp();
  std::string t = "# torchtitan job config: torchrun ... -m torchtitan.train --job.config_file torchtitan.toml\n";
  t += "[model]\n";
  t += "name = \"MODEL\"     # a torchtitan model (llama3, llama4, deepseek_v3, qwen3) with this architecture\n";
  t += "flavor = \"FLAVOR\"  # its size, e.g. \"8B\"\n";
  if (s.precision == Precision::fp8) t += "converters = [\"float8\"]\n";
  // torchao's float8 all-gather under FSDP2 (the scenario's fp8_params, which needs zero >= 1).
  if (s.fp8_params)
    t += "\n[float8]\nenable_fsdp_float8_all_gather = true\nprecompute_float8_dynamic_scale_for_fsdp = true\n";
  t += "\n[training]\n";
  // With PP, the local batch is split into micro-batches of pipeline_parallel_microbatch_size, one
  // pipeline schedule a local batch: the step's micro-batches over parallel.pp_flushes schedules
  // (torchtitan accumulates global_batch_size / (local_batch_size x data-parallel size) of them).
  const int local = x.pp > 1 ? s.micro_batch * s.schedule_micro_batches() : s.micro_batch;
  t += "local_batch_size = " + num(local) + "\n";
  t += "global_batch_size = " + num(r.global_batch) + "\n";
  t += "seq_len = " + num(s.seq_len) + "\n";
  t += "steps = " + num(train_steps(r)) + "\n";
  // torchtitan runs PyTorch's cross_entropy (loss parallelism under TP), compiled with [compile]
  // components "loss" (techniques.compile); it has no switch for the kernels fused_loss names.
  if (s.techniques.fused_loss != FusedLoss::none && !s.techniques.compile)
    t += std::string("# techniques.fused_loss ") + kFusedLossNames[static_cast<int>(s.techniques.fused_loss)] +
         ": torchtitan has no switch for this loss kernel; the nearest, a compiled loss, is techniques.compile\n";
  if (bf16_weights(s)) t += "mixed_precision_param = \"bfloat16\"\n";
  if (s.precision != Precision::fp32)
    t += "mixed_precision_reduce = \"float32\"  # torchtitan's default, as estimated\n";
  t += "\n[parallelism]\n";
  t += "data_parallel_replicate_degree = " + num(x.zero == 0 ? dp : 1) + "\n";
  t += "data_parallel_shard_degree = " + num(x.zero == 0 ? 1 : dp) + "\n";
  if (x.zero >= 1) t += std::string("fsdp_reshard_after_forward = \"") + (x.zero >= 3 ? "default" : "never") + "\"\n";
  t += "tensor_parallel_degree = " + num(x.tp) + "\n";
  // Async TP (the inductor micro-pipeline TP pass) runs only in compiled blocks.
  if (x.tp > 1 && x.tp_comm_overlap)
    t += std::string("enable_async_tensor_parallel = true") +
         (s.techniques.fused_kernels || s.techniques.compile ? "\n" : "   # needs \"model\" in [compile] components\n");
  t += "context_parallel_degree = " + num(x.cp) + "\n";
  t += "expert_parallel_degree = " + num(x.ep) + "\n";
  if (x.ep > 1) t += "expert_tensor_parallel_degree = " + num(x.expert_tp()) + "\n";  // torchtitan's default is 1
  if (x.ep > 1 && x.dispatches_per_rank())
    t += std::string("expert_parallel_comm_backend = \"") + to_string(x.ep_dispatcher) + "\"\n";
  t += "pipeline_parallel_degree = " + num(x.pp) + "\n";
  if (x.pp > 1) {
    t += std::string("pipeline_parallel_schedule = \"") + (x.vp > 1 ? "Interleaved1F1B" : "1F1B") + "\"\n";
    t += "pipeline_parallel_microbatch_size = " + num(s.micro_batch) + "\n";
    if (x.vp > 1) {
      const int per = torchtitan_layers_per_stage(s.model.layers, x.pp * x.vp);
      if (per > 0)
        t += "pipeline_parallel_layers_per_stage = " + num(per) + "   # " + num(x.pp * x.vp) +
             " virtual stages, the embedding and output counted as a layer each\n";
      else
        t += "# no pipeline_parallel_layers_per_stage gives " + num(x.pp * x.vp) +
             " virtual stages: list them in pipeline_parallel_split_points\n";
    }
  }
  t += "\n[activation_checkpoint]\n";
  t += torchtitan_checkpoint_mode(s);
  // torchtitan/config/job_config.py [compile]: the blocks (fused norms, RoPE, SwiGLU) and the loss.
  if (s.techniques.fused_kernels || s.techniques.compile) {
    t += "\n[compile]\nenable = true\n";
    t += std::string("components = ") + (s.techniques.compile ? "[\"model\", \"loss\"]" : "[\"model\"]") + "\n";
    if (s.techniques.eager_activation)
      t += "# the estimate counts the gated activation unfused (techniques.eager_activation); compiling the\n"
           "# blocks fuses it too, so this job runs a little faster than estimated\n";
  }
  t += "\n[checkpoint]\n";
  t += "enable_checkpoint = true\n";
  t += "interval = " + num(save_interval_steps(r)) + "\n";
  return t;
}

//-----------------------------------------------------------------------------
// [SECTION] PEFT
//-----------------------------------------------------------------------------

// How the Trainer shards: the DeepSpeed config, FSDP, or nothing on one GPU.
std::string sharding_argument(const Scenario& s) {
  if (framework(s).framework == Framework::fsdp) return ", fsdp=\"full_shard auto_wrap\"";
  if (s.parallel.zero > 0 || s.cluster.gpus > 1) return ", deepspeed=\"ds_config.json\"";
  return "";
}

// The Trainer's switches for the loss and kernels the estimate counts: Liger's kernels
// (use_liger_kernel, transformers 4.45+; liger_kernel_config without its SwiGLU kernel, 4.52+) and
// torch.compile (torch_compile). Cut Cross-Entropy and
// a fused cross-entropy kernel have no Trainer switch: a comment says what the estimate assumed.
std::string loss_arguments(const Scenario& s, const std::string& indent) {
  std::string out;
  if (s.techniques.fused_loss == FusedLoss::liger) out += indent + "use_liger_kernel=True,\n";
  // Liger's SwiGLU kernel left out (transformers 4.52+ passes liger_kernel_config to Liger).
  if (s.techniques.fused_loss == FusedLoss::liger && s.techniques.eager_activation)
    out += indent + "liger_kernel_config={\"swiglu\": False},\n";
  if (s.techniques.compile) out += indent + "torch_compile=True,\n";
  if (s.fp8_params)
    out += indent +
           "# the estimate holds the frozen block linears in FP8 (Transformer Engine's fp8_model_init, as NeMo's\n" +
           indent + "# fp8_params); PEFT keeps them in 16-bit, 1 byte more per weight\n";
  if (s.techniques.fused_loss == FusedLoss::cce)
    out +=
        indent + "# the estimate assumes Cut Cross-Entropy (Unsloth's trainer), which the plain Trainer does not run\n";
  if (s.techniques.fused_loss == FusedLoss::fused_ce && !s.techniques.compile)  // compiled, the loss fuses too
    out += indent + "# the estimate assumes a fused cross-entropy kernel (e.g. flash-attn's CrossEntropyLoss as the\n" +
           indent + "# model's loss); the plain Trainer runs PyTorch's, which moves about 6x the bytes\n";
  return out;
}

std::string peft_python(const Scenario& s, const EstimateResult& r) {
  const bool qlora = s.method == Method::qlora;
  const std::string name = s.model_preset.empty() ? "your model" : s.model_preset;
  const bool ckpt = s.parallel.recompute != Recompute::none;
  std::string py = "# " + std::string(qlora ? "QLoRA" : "LoRA") + " rank " + num(s.lora.rank) + " on " +
                   (s.lora.targets == LoraTargets::all_linear ? "every linear layer" : "q, k, v, o") + " of " + name +
                   " (PEFT" + (qlora ? " + bitsandbytes" : "") + ")\n";
  py += "import torch\n";
  // torch_npu adds the "npu" device to PyTorch; transformers then runs attn_implementation
  // "flash_attention_2" with torch_npu.npu_fusion_attention, without the flash-attn package
  // (transformers/integrations/npu_flash_attention.py).
  if (ascend(s))
    py += "import torch_npu  # Ascend: the NPU device; flash_attention_2 runs torch_npu's fused attention\n";
  py += std::string("from transformers import AutoModelForCausalLM") +
        (s.techniques.activation_offload ? "" : ", TrainingArguments") + (qlora ? ", BitsAndBytesConfig" : "") + "\n";
  if (s.techniques.activation_offload) py += "from trl import SFTConfig\n";
  py += std::string("from peft import LoraConfig, get_peft_model") +
        (qlora ? ", prepare_model_for_kbit_training" : "") + "\n\n";
  py += "MODEL = \"" + name + "\"  # a local path or the Hugging Face id of this model\n";
  if (qlora) {
    py += "bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=True,\n";
    py += "                         bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_quant_storage=torch.bfloat16)\n";
    py += "model = AutoModelForCausalLM.from_pretrained(MODEL, quantization_config=bnb, torch_dtype=torch.bfloat16,\n";
  } else {
    py += "model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.bfloat16,\n";
  }
  py += std::string("                                             attn_implementation=\"") +
        (s.parallel.flash_attention ? "flash_attention_2" : "eager") + "\")\n";
  if (qlora)
    py += std::string("model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=") +
          (ckpt ? "True" : "False") + ")\n";
  const std::string targets =
      s.lora.targets == LoraTargets::all_linear ? "\"all-linear\"" : "[\"q_proj\", \"k_proj\", \"v_proj\", \"o_proj\"]";
  // PEFT keeps a dropped copy of each adapted layer's input (and a mask) for backward when
  // lora_dropout > 0 (peft/tuners/lora/layer.py): memory the estimate does not count.
  py +=
      "# lora_dropout 0: with p > 0 each adapted layer keeps a dropped copy of its input for backward (not in the "
      "estimate)\n";
  py += "lora = LoraConfig(r=" + num(s.lora.rank) + ", lora_alpha=" + num(2 * s.lora.rank) +
        ", lora_dropout=0.0, target_modules=" + targets + ", task_type=\"CAUSAL_LM\")\n";
  py += "model = get_peft_model(model, lora)\n";
  py += "model.print_trainable_parameters()\n";
  // SFTConfig is TrainingArguments with TRL's options; only its trainer offloads activations.
  const bool offload = s.techniques.activation_offload;
  const std::string call = offload ? "args = SFTConfig(" : "args = TrainingArguments(";
  const std::string indent(call.size(), ' ');
  if (offload)
    py += "# activation_offloading takes effect in trl.SFTTrainer(model=model, args=args, train_dataset=...)\n";
  py += call + "output_dir=\"out\", per_device_train_batch_size=" + num(s.micro_batch) +
        ", gradient_accumulation_steps=" + num(r.grad_accum) + ",\n";
  py += indent + "bf16=True, gradient_checkpointing=" + (ckpt ? "True" : "False") +
        ", max_steps=" + num(train_steps(r)) + ", save_steps=" + num(save_interval_steps(r)) + ",\n";
  if (offload) py += indent + "max_length=" + num(s.seq_len) + ", activation_offloading=True,\n";
  py += loss_arguments(s, indent);
  py += indent + "save_total_limit=" + num(s.storage.checkpoints_kept) + sharding_argument(s) + ")\n";
  return py;
}

}  // namespace

// Megatron-Core's --pipeline-model-parallel-layout for virtual stages of unequal length: the
// pp x vp virtual stages in schedule order (stage k is chunk k / pp of rank k % pp), '|' between
// them, 't' a decoder layer, 'E' the embedding on the first and 'L' the loss on the last
// (Megatron-LM docs, 'Custom Pipeline Model Parallel Layout'). Each rank keeps its stage's layers
// and deals them over its vp chunks, the longer chunks first.
// Megatron-Core's layout string (PipelineParallelLayerLayout): E the embedding, t a block, m a
// multi-token prediction module (it must sit on the last stage), L the loss.
std::string megatron_pipeline_layout(const PipelineSplit& split, int pp, int vp, int mtp) {
  std::string out;
  for (int k = 0; k < pp * vp; ++k) {
    const int rank = k % pp, chunk = k / pp;
    const int layers = split.stage(rank, pp);
    const int here = layers / vp + (chunk < layers % vp ? 1 : 0);
    if (k > 0) out += "|";
    if (k == 0) out += "E";
    out += std::string(here, 't');
    if (k == pp * vp - 1) out += std::string(mtp, 'm') + "L";
  }
  return out;
}

LaunchArtifacts launch_artifacts(const Scenario& s, const EstimateResult& r, const Calibration& cal) {
  LaunchArtifacts a;
  const Framework fw = framework(s).framework;
  a.framework = launched_framework(s);
  a.torchrun = torchrun(s, a.framework);
  // DeepSpeed or FSDP configs only where they launch the job: not beside the framework it names.
  if (a.framework == to_string(fw) && (fw == Framework::deepspeed || fw == Framework::fsdp)) {
    a.deepspeed_json = deepspeed_json(s, r, cal);
    a.accelerate_yaml = accelerate_yaml(s);
  }
  // Megatron-LM also runs some data-parallel layouts: its arguments come as an alternative.
  if (megatron_runs(layout_of(s), s.model, s.method)) a.megatron_args = megatron_args(s, r);
  if (torchtitan_runs(s)) a.torchtitan_toml = torchtitan_toml(s, r);
  if (s.is_peft()) a.peft_python = peft_python(s, r);
  return a;
}

}  // namespace llmplan
