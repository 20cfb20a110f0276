// fields.cpp: the field table of fields.hpp and what is derived from it alone (ranges, defaults
// and the generated reference). Ranges are the parser's: the app and the reference show them.
//
// [SECTION] The table
// [SECTION] Lookup and values
// [SECTION] Generated reference
#include "llmplan/fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "llmplan/planner.hpp"

namespace llmplan {

namespace {

// The reference's prose of a field. The embed card's API module (llmplan_core_small) has no use
// for it and a 1 MB first-load budget, so it builds without it (core/CMakeLists.txt).
#ifdef LLMPLAN_NO_FIELD_DOCS
#define DOC(text) ""
#else
#define DOC(text) text
#endif

// A member pointer as a FieldRef factory: REF(parallel.tp) -> &s.parallel.tp.
#define REF(member) [](Scenario& s) -> FieldRef { return &s.member; }
#define ENUM_REF(member) [](Scenario& s) -> FieldRef { return enum_ref(s.member); }

using T = FieldType;
constexpr FieldStage kInput = FieldStage::input;
constexpr FieldStage kOverride = FieldStage::override_;
constexpr FieldScope kQuestion = FieldScope::question;

//-----------------------------------------------------------------------------
// [SECTION] The table
//-----------------------------------------------------------------------------

// Reserved link codes, never fields: v (format version), c (catalog version), u (app view state).
// A table, one entry per field, laid out for reading.
// clang-format off
const FieldSpec kFields[] = {
    // Model: a catalog preset, or the architecture.
    {.path = "model.preset", .type = T::id, .code = "m", .label = "preset", .help = "t_preset",
     .meaning = DOC("A catalog model (its architecture and context length); give this or the architecture fields."),
     .catalog = "models", .section = "model", .default_text = "none: the architecture fields are required", .ref = REF(model_preset)},
    {.path = "model.layers", .type = T::integer, .lo = 1, .hi = 1000, .code = "L", .unit = "layers", .label = "layers",
     .help = "t_layers", .meaning = DOC("Transformer blocks L."), .section = "model", .applies = "!model.preset",
     .default_text = "required without a preset", .required = true, .stage = kInput, .ref = REF(model.layers)},
    {.path = "model.hidden", .type = T::integer, .lo = 1, .hi = 1000000, .code = "H", .label = "hidden",
     .help = "t_hidden", .meaning = DOC("Model width h."), .section = "model", .applies = "!model.preset",
     .default_text = "required without a preset", .required = true, .stage = kInput, .ref = REF(model.hidden)},
    {.path = "model.heads", .type = T::integer, .lo = 1, .hi = 4096, .code = "A", .label = "heads", .help = "t_heads",
     .meaning = DOC("Attention (query) heads a."), .section = "model", .applies = "!model.preset",
     .default_text = "required without a preset", .required = true, .stage = kInput, .ref = REF(model.heads)},
    {.path = "model.kv_heads", .type = T::integer, .lo = 1, .hi = 4096, .code = "K", .label = "kv_heads",
     .help = "t_kv_heads", .meaning = DOC("Key/value heads (grouped-query attention when fewer than heads); divides heads."),
     .section = "model", .applies = "!model.preset", .default_text = "heads (multi-head attention)", .stage = kInput,
     .ref = REF(model.kv_heads)},
    {.path = "model.head_dim", .type = T::integer, .lo = 0, .hi = 65536, .code = "hd", .label = "head_dim",
     .help = "t_head_dim", .meaning = DOC("Width of one attention head; 0 means hidden / heads."), .section = "model",
     .applies = "!model.preset", .stage = kInput, .ref = REF(model.head_dim)},
    {.path = "model.ffn", .type = T::integer, .lo = 1, .hi = 10000000, .code = "F", .label = "ffn", .help = "t_ffn",
     .meaning = DOC("MLP inner width f (of the dense layers)."), .section = "model", .applies = "!model.preset",
     .default_text = "required without a preset", .required = true, .stage = kInput, .ref = REF(model.ffn)},
    {.path = "model.vocab", .type = T::integer, .lo = 1, .hi = 10000000, .code = "V", .unit = "tokens", .label = "vocab",
     .help = "t_vocab", .meaning = DOC("Vocabulary size V."), .section = "model", .applies = "!model.preset",
     .default_text = "required without a preset", .required = true, .stage = kInput, .ref = REF(model.vocab)},
    {.path = "model.gated_mlp", .type = T::boolean, .code = "gm", .label = "gated_mlp", .help = "t_gated",
     .meaning = DOC("SwiGLU-style MLP with three matrices (Llama); false: two matrices (GPT)."), .section = "model",
     .applies = "!model.preset", .stage = kInput, .ref = REF(model.gated_mlp)},
    {.path = "model.tied_embeddings", .type = T::boolean, .code = "te", .label = "tied_embeddings", .help = "t_tied",
     .meaning = DOC("The output head shares the input embedding matrix."), .section = "model", .applies = "!model.preset",
     .stage = kInput, .ref = REF(model.tied_embeddings)},
    {.path = "model.qkv_bias", .type = T::boolean, .code = "qb", .label = "qkv_bias", .help = "t_qkv_bias", .meaning = DOC("Biases on the Q, K and V projections only (Qwen2)."),
     .section = "model", .applies = "!model.preset", .stage = kInput, .ref = REF(model.qkv_bias)},
    {.path = "model.linear_bias", .type = T::boolean, .code = "lb", .label = "linear_bias", .help = "t_linear_bias", .meaning = DOC("Biases on every linear layer (GPT-2/3)."),
     .section = "model", .applies = "!model.preset", .stage = kInput, .ref = REF(model.linear_bias)},
    {.path = "model.norm", .type = T::choice, .code = "nm", .label = "norm", .help = "t_norm", .meaning = DOC("Normalisation: RMSNorm (a weight) or LayerNorm (a weight and a bias)."),
     .choices = kNormNames, .section = "model", .applies = "!model.preset", .stage = kInput, .ref = ENUM_REF(model.norm)},
    {.path = "model.learned_positions", .type = T::integer, .lo = 0, .hi = 10000000, .code = "lp", .unit = "positions",
     .label = "learned_positions", .help = "t_learned_positions", .meaning = DOC("Rows of a learned position embedding (GPT: the context length); 0 for rotary embeddings."),
     .section = "model", .applies = "!model.preset", .stage = kInput, .ref = REF(model.learned_positions)},
    {.path = "model.experts", .type = T::integer, .lo = 0, .hi = 4096, .code = "E", .label = "experts",
     .help = "t_experts", .meaning = DOC("Routed experts per MoE layer; 0 for a dense model."), .section = "model",
     .applies = "!model.preset", .stage = kInput, .ref = REF(model.experts)},
    {.path = "model.top_k", .type = T::integer, .lo = 1, .hi = 4096, .code = "tk", .label = "top_k", .help = "t_top_k",
     .meaning = DOC("Routed experts each token uses; 1..experts for an MoE model."), .section = "model",
     .applies = "!model.preset&model.experts>0", .stage = kInput, .ref = REF(model.top_k)},
    {.path = "model.shared_experts", .type = T::integer, .lo = 0, .hi = 64, .code = "se", .label = "shared_experts",
     .help = "t_shared", .meaning = DOC("Always-on shared experts per MoE layer."), .section = "model",
     .applies = "!model.preset&model.experts>0", .stage = kInput, .ref = REF(model.shared_experts)},
    {.path = "model.expert_ffn", .type = T::integer, .lo = 1, .hi = 10000000, .code = "ef", .label = "expert_ffn",
     .help = "t_expert_ffn", .meaning = DOC("Inner width of one routed expert; at least 1 for an MoE model."),
     .section = "model", .applies = "!model.preset&model.experts>0", .stage = kInput, .ref = REF(model.expert_ffn)},
    {.path = "model.shared_expert_ffn", .type = T::integer, .lo = 0, .hi = 10000000, .code = "sf",
     .label = "shared_expert_ffn", .help = "t_shared_expert_ffn", .meaning = DOC("Inner width of one shared expert; 0 means expert_ffn."), .section = "model", .applies = "!model.preset&model.experts>0", .stage = kInput,
     .ref = REF(model.shared_expert_ffn)},
    {.path = "model.dense_layers", .type = T::integer, .lo = 0, .hi = 1000, .code = "dl", .unit = "layers",
     .label = "dense_layers", .help = "t_dense_layers",
     .meaning = DOC("Leading layers that keep a dense MLP of width ffn (DeepSeek-V3: 3)."), .section = "model",
     .applies = "!model.preset&model.experts>0", .stage = kInput, .ref = REF(model.dense_layers)},
    {.path = "model.attention", .type = T::choice, .code = "at",
     .label = "attention", .help = "t_attention", .meaning = DOC("Attention kind: multi-head/grouped-query (mha) or DeepSeek's multi-head latent attention (mla)."),
     .choices = kAttentionNames, .section = "model", .applies = "!model.preset", .stage = kInput, .ref = ENUM_REF(model.attention)},
    {.path = "model.q_lora_rank", .type = T::integer, .lo = 0, .hi = 1000000, .code = "aq",
     .label = "q_lora_rank", .help = "t_q_lora_rank", .meaning = DOC("MLA: rank of the query bottleneck; 0 projects queries directly."), .section = "model", .applies = "!model.preset&model.attention=mla",
     .stage = kInput, .ref = REF(model.q_lora_rank)},
    {.path = "model.kv_lora_rank", .type = T::integer, .lo = 1, .hi = 1000000, .code = "ak",
     .label = "kv_lora_rank", .help = "t_kv_lora_rank", .meaning = DOC("MLA: rank of the compressed key/value latent."), .section = "model", .applies = "!model.preset&model.attention=mla", .stage = kInput,
     .ref = REF(model.kv_lora_rank)},
    {.path = "model.qk_nope_head_dim", .type = T::integer, .lo = 0, .hi = 65536, .code = "an",
     .label = "qk_nope_head_dim", .help = "t_qk_nope_head_dim", .meaning = DOC("MLA: per-head query/key width without rotary embedding."), .section = "model", .applies = "!model.preset&model.attention=mla",
     .stage = kInput, .ref = REF(model.qk_nope_head_dim)},
    {.path = "model.qk_rope_head_dim", .type = T::integer, .lo = 0, .hi = 65536, .code = "ar",
     .label = "qk_rope_head_dim", .help = "t_qk_rope_head_dim", .meaning = DOC("MLA: per-head query/key width with rotary embedding."), .section = "model", .applies = "!model.preset&model.attention=mla",
     .stage = kInput, .ref = REF(model.qk_rope_head_dim)},
    {.path = "model.v_head_dim", .type = T::integer, .lo = 1, .hi = 65536, .code = "av",
     .label = "v_head_dim", .help = "t_v_head_dim", .meaning = DOC("MLA: per-head value width."), .section = "model", .applies = "!model.preset&model.attention=mla", .stage = kInput,
     .ref = REF(model.v_head_dim)},
    {.path = "model.sliding_window", .type = T::integer, .lo = 0, .hi = 10000000, .code = "sw", .unit = "tokens",
     .label = "sliding_window", .help = "t_sliding_window",
     .meaning = DOC("Sliding-window attention: windowed layers attend only the last this many keys; 0 for none (Mistral 7B v0.1: 4096, every layer; Gemma 2: 4096 and GPT-OSS: 128, every second layer)."),
     .section = "model", .applies = "!model.preset", .stage = kInput, .ref = REF(model.sliding_window)},
    {.path = "model.sliding_layers", .type = T::integer, .lo = 0, .hi = 1000, .code = "sl", .unit = "layers",
     .label = "sliding_layers", .help = "t_sliding_layers",
     .meaning = DOC("Layers that use the sliding window, at most layers; 0 means every layer."), .section = "model",
     .applies = "!model.preset&model.sliding_window>0", .stage = kInput, .ref = REF(model.sliding_layers)},

    // Method and precision.
    {.path = "method", .type = T::choice, .code = "me", .label = "method", .help = "t_method",
     .meaning = DOC("Pretraining, continued pretraining, full fine-tune, LoRA, QLoRA, or training only the top layers (freeze)."),
     .choices = kMethodNames, .section = "method", .stage = kInput, .ref = ENUM_REF(method)},
    {.path = "lora.rank", .type = T::integer, .lo = 1, .hi = 4096, .code = "lr", .label = "lora_rank",
     .help = "t_lora_rank", .meaning = DOC("LoRA rank r of the adapters."), .section = "method",
     .applies = "method=lora|qlora", .stage = kInput, .ref = REF(lora.rank)},
    {.path = "lora.targets", .type = T::choice, .code = "lt", .label = "lora_targets", .help = "t_lora_targets",
     .meaning = DOC("Which linear layers get adapters: q, k, v, o (attention) or every linear layer."),
     .choices = kLoraTargetNames, .section = "method", .applies = "method=lora|qlora", .stage = kInput,
     .ref = ENUM_REF(lora.targets)},
    {.path = "trainable_layers", .type = T::integer, .lo = 0, .hi = 1000, .code = "tl", .unit = "layers",
     .label = "trainable_layers", .help = "t_trainable",
     .meaning = DOC("Freeze: the top layers that train, at most the model's layers; 0 means a quarter of them."),
     .section = "method", .applies = "method=freeze", .stage = kInput, .ref = REF(trainable_layers)},
    {.path = "framework", .type = T::choice, .code = "fw", .label = "framework", .help = "t_framework",
     .meaning = DOC("The software that runs the job: what the loss and the framework's buffers hold in memory, whether "
                "norms and activations run eager by default, and Hugging Face PEFT's fp32 LoRA adapters."),
     .choices = kFrameworkNames, .section = "method",
     .default_text = "megatron for pretrain and continued, hf for full, lora, qlora and freeze", .stage = kInput,
     .ref = ENUM_REF(framework)},
    {.path = "precision", .type = T::choice, .code = "p", .label = "precision", .help = "t_precision",
     .meaning = DOC("Compute precision of the matrix multiplications (fp8 needs FP8 tensor cores)."),
     .choices = kPrecisionNames, .section = "method", .stage = kInput, .ref = ENUM_REF(precision)},
    {.path = "optimizer", .type = T::choice, .code = "o", .label = "optimizer", .help = "t_optimizer",
     .meaning = DOC("Optimizer, which sets the bytes of optimizer state per trainable parameter."),
     .choices = kOptimizerNames, .section = "method", .stage = kInput, .ref = ENUM_REF(optimizer)},
    {.path = "pure_bf16", .type = T::boolean, .code = "pb", .label = "pure_bf16", .help = "t_pure_bf16",
     .meaning = DOC("bf16 weights, gradients and optimizer states with no fp32 master copy (torchtune)."),
     .section = "method", .applies = "precision=bf16", .stage = kInput, .ref = REF(pure_bf16)},
    {.path = "fp8_params", .type = T::boolean, .code = "f8", .label = "fp8_params", .help = "t_fp8_params",
     .meaning = DOC("The block linear layers' weights in FP8, 1 byte each instead of 2. Megatron (Transformer "
                "Engine's fp8_model_init, as NeMo's fp8_params and Megatron-LM's --fp8-param-gather run it) holds and "
                "gathers them in FP8, plus an FP8 transpose of each whole weight on GPUs whose FP8 GEMMs take one "
                "layout (compute capability below 10.0 or 12.x: Hopper, Ada); torchtitan (torchao's float8 "
                "all-gather under FSDP2) gathers its nn.Linear weights, not the routed experts', in FP8 from "
                "16-bit shards. Per-tensor FP8 scaling is assumed (MXFP8 keeps two copies). Embeddings, norms and "
                "the output layer stay 16-bit; trained weights keep their fp32 master."),
     .section = "method", .applies = "precision=fp8", .stage = kInput, .ref = REF(fp8_params)},

    // Data and batch.
    {.path = "seq_len", .type = T::integer, .lo = 1, .hi = 1048576, .code = "s", .unit = "tokens", .label = "seq_len",
     .help = "t_seq_len", .meaning = DOC("Tokens per training sequence s."), .section = "data", .stage = kInput,
     .ref = REF(seq_len)},
    {.path = "micro_batch", .type = T::integer, .lo = 1, .hi = 65536, .code = "mb", .unit = "sequences",
     .label = "micro_batch", .help = "t_micro_batch", .meaning = DOC("Sequences per micro-batch on each GPU b."),
     .section = "data", .stage = kInput, .ref = REF(micro_batch)},
    {.path = "global_batch", .type = T::integer, .lo = 0, .hi = 100000000, .code = "gb", .unit = "sequences",
     .label = "global_batch", .help = "t_global_batch",
     .meaning = DOC("Sequences per optimizer step, a multiple of micro_batch x data-parallel size; 0 means one micro-batch per GPU."),
     .section = "data", .stage = kInput, .ref = REF(global_batch)},
    {.path = "tokens", .type = T::number, .lo = 0, .hi = 1e16, .code = "t", .unit = "tokens", .label = "tokens",
     .help = "t_tokens", .meaning = DOC("Training tokens; 0 means storage.dataset_tokens x epochs."), .section = "data",
     .stage = kInput, .ref = REF(tokens)},
    {.path = "epochs", .type = T::number, .lo = 0.001, .hi = 10000, .code = "ep", .label = "epochs",
     .help = "t_epochs", .meaning = DOC("Passes over the data set, when tokens is not given."), .section = "data",
     .stage = kInput, .ref = REF(epochs)},
    {.path = "dropout", .type = T::boolean, .code = "do",
     .label = "dropout", .help = "t_dropout", .meaning = DOC("Dropout layers keep 1-byte masks (GPT-3 style); off for Llama and Qwen."), .section = "techniques", .stage = kInput,
     .ref = REF(dropout)},

    // Cluster: an accelerator and a GPU count, or a cloud instance and a node count.
    {.path = "cluster.accelerator", .type = T::id, .code = "g", .label = "accelerator", .help = "t_accelerator",
     .meaning = DOC("A catalog accelerator."), .catalog = "accelerators", .section = "cluster", .applies = "!cluster.instance",
     .default_text = "h100-sxm5-80gb", .ref = REF(cluster.accelerator)},
    {.path = "cluster.gpus", .type = T::integer, .lo = 1, .hi = 1000000, .code = "n", .unit = "GPUs", .label = "gpus",
     .help = "t_gpus", .meaning = DOC("Accelerators in the job: at most one node, or whole nodes."), .section = "cluster",
     .applies = "!cluster.instance", .default_text = "8", .ref = REF(cluster.gpus)},
    {.path = "cluster.gpus_per_node", .type = T::integer, .lo = 1, .hi = 72, .code = "gn", .unit = "GPUs",
     .label = "gpus_per_node", .help = "t_gpus_per_node",
     .meaning = DOC("GPUs that share one scale-up domain (NVLink/PCIe); tensor parallelism stays inside it. At most the "
                "accelerator's largest (catalog max_gpus_per_node: 8 on HGX boards, 72 in an NVL72 rack)."),
     .section = "cluster", .applies = "!cluster.instance", .default_text = "min(gpus, 8)", .ref = REF(cluster.gpus_per_node)},
    {.path = "cluster.gpu_memory_gb", .type = T::number, .lo = 1, .hi = 1000, .code = "gmem", .unit = "GB",
     .label = "gpu_memory", .help = "t_gpu_memory", .meaning = DOC("Usable memory per GPU in decimal GB."),
     .section = "cluster", .default_text = "the accelerator's memory", .stage = kOverride,
     .ref = REF(cluster.gpu_memory_gb)},
    {.path = "cluster.instance", .type = T::id, .code = "i", .label = "instance", .help = "t_instance",
     .meaning = DOC("A catalog cloud instance (offering): its accelerator, node size, network and price."),
     .catalog = "instances", .section = "cluster", .default_text = "none", .ref = REF(cluster.instance)},
    {.path = "cluster.nodes", .type = T::integer, .lo = 1, .hi = 100000, .code = "nn", .unit = "nodes",
     .label = "nodes", .help = "t_nodes", .meaning = DOC("Instances (nodes) of cluster.instance."), .section = "cluster",
     .applies = "cluster.instance", .default_text = "1"},
    {.path = "cluster.cards", .type = T::integer, .lo = 1, .hi = 64, .code = "nc", .unit = "GPUs",
     .label = "cards", .help = "t_cards",
     .meaning = DOC("Cards rented on one host of an offering sold by the card (AutoDL, Compshare): 1 to the "
                "instance's gpus_per_host_max, at the per-card price."),
     .section = "cluster", .applies = "cluster.instance", .default_text = "the instance's GPUs",
     .ref = REF(cluster.cards)},

    // Network overrides: the catalog gives them from the instance or the link.
    {.path = "network.inter_node_link", .type = T::id, .code = "nl", .label = "inter_link", .help = "t_inter_link",
     .meaning = DOC("The scale-out interconnect between nodes (a catalog inter-node link), one port per GPU."),
     .catalog = "interconnects", .section = "network",
     .default_text = "the instance's fabric, else infiniband-ndr", .stage = kOverride,
     .ref = REF(network.inter_node_link)},
    {.path = "network.inter_node_gbps", .type = T::number, .lo = 0.1, .hi = 1e6, .code = "ng", .unit = "Gbit/s",
     .label = "inter_gbps", .help = "t_inter_gbps", .meaning = DOC("Scale-out bandwidth of one node, one direction, all NICs."),
     .section = "network", .default_text = "the link's rate x ports", .stage = kOverride,
     .ref = REF(network.node_gb_per_s), .scale = 8},
    {.path = "network.intra_node_gb_per_s", .type = T::number, .lo = 0.1, .hi = 10000, .code = "ni", .unit = "GB/s",
     .label = "intra_gb_per_s", .help = "t_intra_gb_per_s", .meaning = DOC("Scale-up bandwidth per GPU, one direction (NVLink or PCIe); collectives reach the share of it nccl-tests measured on the link."),
     .section = "network", .default_text = "the accelerator's link", .stage = kOverride, .ref = REF(cluster.intra_node_gb_per_s)},
    {.path = "network.busbw_fraction", .type = T::number, .lo = 0.01, .hi = 1, .code = "bw",
     .label = "busbw_fraction", .help = "t_busbw_fraction", .meaning = DOC("Achieved NCCL bus bandwidth as a fraction of the scale-out line rate."),
     .section = "network", .default_text = "measured for the link, else 0.8 (RDMA) or 0.5 (TCP)", .stage = kOverride,
     .ref = REF(network.busbw_fraction)},

    {.path = "network.latency_us", .type = T::number, .lo = 0.1, .hi = 100000, .code = "nlat", .unit = "us",
     .label = "latency_us", .help = "t_latency_us",
     .meaning = DOC("One-way latency between nodes, which each collective step pays (ring all-reduce: 2 (n - 1) steps)."),
     .section = "network", .default_text = "the link's, else 5 (RDMA) or 50 (TCP)", .stage = kOverride,
     .ref = REF(network.latency_us)},

    // Parallel layout.
    {.path = "parallel.tp", .type = T::integer, .lo = 1, .hi = 1024, .code = "tp", .unit = "GPUs", .label = "tp",
     .help = "t_tp", .meaning = DOC("Tensor-parallel size; divides the heads and stays inside a node."), .section = "layout",
     .stage = kInput, .ref = REF(parallel.tp)},
    {.path = "parallel.pp", .type = T::integer, .lo = 1, .hi = 1000, .code = "pp", .unit = "stages", .label = "pp",
     .help = "t_pp", .meaning = DOC("Pipeline stages; when they do not divide the layers, the first and last stages take fewer blocks (Megatron-LM)."), .section = "layout", .stage = kInput,
     .ref = REF(parallel.pp)},
    {.path = "parallel.zero", .type = T::integer, .lo = 0, .hi = 3, .code = "z", .label = "zero", .help = "t_zero",
     .meaning = DOC("ZeRO stage over the data-parallel group (FSDP full shard = 3)."), .section = "layout",
     .stage = kInput, .ref = REF(parallel.zero)},
    {.path = "parallel.sequence_parallel", .type = T::boolean, .code = "sp", .label = "sequence_parallel",
     .help = "t_sp", .meaning = DOC("Megatron sequence parallelism (matters with tp > 1)."), .section = "layout",
     .stage = kInput, .ref = REF(parallel.sequence_parallel)},
    {.path = "parallel.recompute", .type = T::choice, .code = "rc", .label = "recompute", .help = "t_recompute",
     .meaning = DOC("Activation recomputation: none, selective (the attention core, Megatron-LM), full (every block) or selective_op (torchtitan's per-operator policy: every second matmul and all elementwise ops)."), .choices = kRecomputeNames,
     .section = "layout", .default_text = "full for method qlora with framework hf (PEFT's prepare_model_for_kbit_training turns gradient checkpointing on), else none", .stage = kInput, .ref = ENUM_REF(parallel.recompute)},
    {.path = "parallel.recompute_layers", .type = T::integer, .lo = 0, .hi = 1000, .code = "rcl", .unit = "layers",
     .label = "recompute_layers", .help = "t_recompute_layers",
     .meaning = DOC("With full recompute, only the first N blocks of each pipeline chunk (each stage's, or each of its vp virtual stages') recompute; the others keep their activations (Megatron-LM --recompute-method block --recompute-num-layers N). 0 recomputes every block. At most the blocks of the largest chunk."),
     .section = "layout", .applies = "parallel.recompute=full&framework=megatron&method=pretrain|continued|full|lora|qlora", .default_text = "0 (every block)",
     .stage = kInput, .ref = REF(parallel.recompute_layers)},
    {.path = "parallel.offload", .type = T::choice, .code = "of", .label = "offload", .help = "t_offload",
     .meaning = DOC("ZeRO-Offload of optimizer states (and, with ZeRO-3, weights) to CPU memory or NVMe; needs zero >= 1."),
     .choices = kOffloadNames, .section = "layout", .stage = kInput, .ref = ENUM_REF(parallel.offload)},
    {.path = "parallel.flash_attention", .type = T::boolean, .code = "fa", .label = "flash_attention",
     .help = "t_flash", .meaning = DOC("Fused attention that stores no s x s score matrix."), .section = "layout",
     .stage = kInput, .ref = REF(parallel.flash_attention)},
    {.path = "parallel.attention_kernel", .type = T::choice, .code = "ka", .label = "attention_kernel",
     .help = "t_attention_kernel",
     .meaning = DOC("Which fused attention kernel runs (its measured rate on the accelerator is in the catalog): auto is the accelerator's usual one (on AMD parts PyTorch's scaled_dot_product_attention runs aotriton, Megatron's Transformer Engine aiter). aotriton and aiter are ROCm kernels; flash2 there is flash-attn's ROCm build. flash_triton is flash-attn's Triton kernel (MPT and llm-foundry's attn_impl triton), for which no published benchmark was found: it runs at kTritonAttentionRatio of FlashAttention-2's rate."),
     .choices = kAttentionKernelNames, .section = "layout", .applies = "parallel.flash_attention",
     .default_text = "auto", .stage = kInput, .ref = ENUM_REF(parallel.attention_kernel)},
    {.path = "parallel.ep_comm_overlap", .type = T::boolean, .code = "eo", .label = "ep_overlap",
     .help = "t_ep_overlap",
     .meaning = DOC("Expert-parallel all-to-alls overlapped with another micro-batch's computation (DeepSeek-V3's DualPipe; Megatron-Core --overlap-moe-expert-parallel-comm)."),
     .section = "layout", .applies = "parallel.ep>1", .stage = kInput, .ref = REF(parallel.ep_comm_overlap)},
    {.path = "parallel.ep_dispatcher", .type = T::choice, .code = "xd", .label = "ep_dispatcher",
     .help = "t_ep_dispatcher",
     .meaning = DOC("How tokens reach their experts: alltoall sends one copy per routed expert (Megatron-Core's alltoall dispatcher, torchtitan); deepep one copy per destination node over the network and one per destination GPU over the scale-up link, the received rows then permuted into expert order on the compute stream (DeepEP: Megatron-Core --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend deepep); hybridep the same traffic, its kernels writing and reading the rows in expert order themselves (HybridEP: --moe-flex-dispatcher-backend hybridep; torchtitan expert_parallel_comm_backend hybridep)."),
     .choices = kEpDispatcherNames, .section = "layout", .applies = "parallel.ep>1", .stage = kInput,
     .ref = ENUM_REF(parallel.ep_dispatcher)},
    {.path = "parallel.ep_comm_sms", .type = T::integer, .lo = 0, .hi = 1024, .code = "xs", .unit = "SMs",
     .label = "ep_comm_sms", .help = "t_ep_comm_sms",
     .meaning = DOC("SMs the DeepEP or HybridEP kernels hold while their all-to-alls overlap computation, which runs on the rest (Megatron-Core --moe-flex-dispatcher-num-sms); 0 takes kDeepEpSms, 20, the default of both, which fill IB and NVLink: fewer slow the transfers by 20 / SMs; at most the accelerator's SMs."),
     .section = "layout", .applies = "parallel.ep>1&parallel.ep_dispatcher=deepep|hybridep&parallel.ep_comm_overlap",
     .default_text = "0: kDeepEpSms (20)", .stage = kInput, .ref = REF(parallel.ep_comm_sms)},
    {.path = "parallel.moe_routing", .type = T::choice, .code = "mr", .label = "moe_routing",
     .help = "t_moe_routing",
     .meaning = DOC("How the router spreads tokens over the experts: learned is a trained router (the busiest expert-parallel rank gets kMoeCapacityFactor x the mean); fake_balanced is a benchmark's fake balanced gate (NeMo AutoModel fake_balanced_gate: token i goes to experts i k to i k + k - 1, every expert gets the same tokens and a token's k experts sit side by side, on ceil(k ep / E) ranks or one more); random is a benchmark's random router logits (Megatron-Core --moe-router-force-load-balancing: a token's experts a uniform random set, the busiest rank above the mean by chance only). Benchmark settings: the Megatron-LM command carries random as --moe-router-force-load-balancing; no launch target has the fake gate."),
     .choices = kMoeRoutingNames, .section = "layout", .applies = "parallel.ep>1", .stage = kInput,
     .ref = ENUM_REF(parallel.moe_routing)},
    {.path = "parallel.moe_capacity_factor", .type = T::number, .lo = 0, .hi = 64, .code = "mcf",
     .label = "moe_capacity_factor", .help = "t_moe_capacity_factor",
     .meaning = DOC("Token dropping with padding: every expert takes c x its mean share of the tokens, the overflow dropped and the rest padded to that capacity (Megatron-Core --moe-expert-capacity-factor c --moe-pad-expert-input-to-capacity), so every expert-parallel rank computes and exchanges c x the mean whatever the router does, and the dispatcher learns no token counts from the GPU. 0 is dropless routing, where parallel.moe_routing sets the busiest rank's load; otherwise from 1 to experts / top_k, where an expert would take every token of its rank."),
     .section = "layout", .applies = "parallel.ep>1&parallel.ep_dispatcher=alltoall&framework=megatron", .default_text = "0 (dropless)",
     .stage = kInput, .ref = REF(parallel.moe_capacity_factor)},
    {.path = "parallel.tp_comm_overlap", .type = T::boolean, .code = "to", .label = "tp_overlap",
     .help = "t_tp_overlap", .meaning = DOC("Tensor-parallel collectives overlapped with GEMMs (Megatron-Core --tp-comm-overlap)."),
     .section = "layout", .stage = kInput, .ref = REF(parallel.tp_comm_overlap)},
    // "ep" is the code of epochs: expert parallelism is "xp".
    {.path = "parallel.cp", .type = T::integer, .lo = 1, .hi = 1024, .code = "cp", .unit = "GPUs", .label = "cp",
     .help = "t_cp", .meaning = DOC("Context-parallel size: each sequence split over cp GPUs with ring attention (Megatron-Core); 2 x cp divides seq_len."),
     .section = "layout", .stage = kInput, .ref = REF(parallel.cp)},
    {.path = "parallel.ep", .type = T::integer, .lo = 1, .hi = 4096, .code = "xp", .unit = "GPUs", .label = "ep",
     .help = "t_ep", .meaning = DOC("Expert-parallel size: the routed experts split over ep GPUs, tokens exchanged by all-to-all; divides the experts, and ep x etp divides the GPUs of a pipeline stage (tp x cp x dp: Megatron-Core folds EP into the tensor, context and data-parallel ranks)."),
     .section = "layout", .applies = "model.experts>0", .stage = kInput, .ref = REF(parallel.ep)},
    {.path = "parallel.etp", .type = T::integer, .lo = 1, .hi = 64, .code = "xt", .unit = "GPUs", .label = "etp",
     .help = "t_etp", .meaning = DOC("Expert tensor-parallel size: each routed expert split over etp GPUs (Megatron-Core --expert-tensor-parallel-size); divides tp, and ep x etp divides the GPUs of a pipeline stage (tp x cp x dp, MoE parallel folding)."),
     .section = "layout", .applies = "model.experts>0", .default_text = "parallel.tp (Megatron-Core's default)",
     .stage = kInput, .ref = REF(parallel.etp)},
    {.path = "parallel.vp", .type = T::integer, .lo = 1, .hi = 128, .code = "vp", .unit = "stages", .label = "vp",
     .help = "t_vp", .meaning = DOC("Virtual pipeline stages per rank (interleaved 1F1B); needs pp > 1 and at least one layer per virtual stage."),
     .section = "layout", .stage = kInput, .ref = REF(parallel.vp)},
    {.path = "parallel.pp_comm_overlap", .type = T::boolean, .code = "po", .label = "pp_overlap",
     .help = "t_pp_overlap",
     .meaning = DOC("Pipeline sends and receives overlapped with computation in the interleaved schedule's steady state, each transfer behind the chunk computed while it is in flight (Megatron-LM --overlap-p2p-communication, its default with virtual stages; the warm-up and flush stay exposed; Megatron-LM since April 2026 exposes the activation sends again)."),
     .section = "layout", .applies = "parallel.vp>1", .stage = kInput, .ref = REF(parallel.pp_comm_overlap)},
    {.path = "parallel.pp_flushes", .type = T::integer, .lo = 1, .hi = 4096, .code = "pf", .unit = "flushes",
     .label = "pp_flushes", .help = "t_pp_flushes",
     .meaning = DOC("Pipeline flushes a step: the pipeline fills and drains this many times, each schedule running an equal share of the step's micro-batches, so each pays the bubble and, as torch.distributed.pipelining does, the gradient reduction (NeMo AutoModel's MoE recipes with enable_fsdp_optimizations reduce at the step's last schedule only; the estimate counts one a schedule). torchtitan and NeMo AutoModel run one schedule per gradient-accumulation step (each step() call fills and drains the pipeline), local_batch_size / pipeline_parallel_microbatch_size micro-batches each: set the accumulation steps, global_batch / (local batch x data-parallel size). 1 runs every micro-batch of the step in one schedule, as Megatron-LM and DeepSpeed do. Divides the step's micro-batches per data-parallel rank, leaving each schedule at least one per stage (PyTorch's 1F1B)."),
     .section = "layout", .applies = "parallel.pp>1&framework=torchtitan", .default_text = "1",
     .stage = kInput, .ref = REF(parallel.pp_flushes)},

    // Framework techniques that change what a GPU holds.
    {.path = "techniques.loss_chunks", .type = T::integer, .lo = 1, .hi = 1024, .code = "lc", .unit = "chunks",
     .label = "loss_chunks", .help = "t_loss_chunks", .meaning = DOC("Chunked cross-entropy: fp32 logits one chunk at a time (torchtune: 8)."), .section = "techniques", .stage = kInput,
     .ref = REF(techniques.loss_chunks)},
    {.path = "techniques.activation_offload", .type = T::boolean, .code = "ao",
     .label = "activation_offload", .help = "t_activation_offload", .meaning = DOC("Saved activations streamed to host memory."), .section = "techniques", .stage = kInput, .ref = REF(techniques.activation_offload)},
    {.path = "techniques.activation_offload_layers", .type = T::integer, .lo = 0, .hi = 1000, .code = "aol", .unit = "layers",
     .label = "activation_offload_layers", .help = "t_activation_offload_layers",
     .meaning = DOC("Offload only the first N layers of each pipeline stage (Megatron-LM --cpu-offloading-num-layers); 0 offloads every layer. At most the layers of the smallest stage."),
     .section = "techniques", .applies = "techniques.activation_offload", .default_text = "0 (every layer)", .stage = kInput,
     .ref = REF(techniques.activation_offload_layers)},
    {.path = "techniques.optimizer_in_backward", .type = T::boolean, .code = "oib",
     .label = "optimizer_in_backward", .help = "t_optimizer_in_backward", .meaning = DOC("Optimizer step fused into the backward pass, so gradients are freed at once."), .section = "techniques", .stage = kInput,
     .ref = REF(techniques.optimizer_in_backward)},
    {.path = "techniques.fp32_norm_inputs", .type = T::boolean, .code = "fn",
     .label = "fp32_norm_inputs", .help = "t_fp32_norm_inputs", .meaning = DOC("Unfused RMSNorm/LayerNorm (PyTorch eager, Hugging Face, torchtune) saves fp32 inputs."),
     .section = "techniques", .stage = kInput, .ref = REF(techniques.fp32_norm_inputs)},
    {.path = "techniques.fused_loss", .type = T::choice, .code = "fl", .label = "fused_loss", .help = "t_fused_loss",
     .meaning = DOC("A fused linear cross-entropy: Liger's (the logits a small chunk at a time) or Cut Cross-Entropy (Unsloth: no logits in GPU memory); or fused_ce, a fused cross-entropy kernel on the whole 16-bit logits (flash-attn's, llm-foundry's MPT default; Transformer Engine's under Megatron)."),
     .choices = kFusedLossNames, .section = "techniques", .stage = kInput, .ref = ENUM_REF(techniques.fused_loss)},
    {.path = "techniques.compile", .type = T::boolean, .code = "tc", .label = "torch_compile", .help = "t_torch_compile",
     .meaning = DOC("torch.compile: the loss runs as one fused kernel that keeps the 16-bit logits and one fp32 buffer, not the log-softmax and its gradients; LoRA's scale and adds fuse into neighbouring kernels."),
     .section = "techniques", .stage = kInput, .ref = REF(techniques.compile)},
    {.path = "techniques.kbit_fp32_cast", .type = T::boolean, .code = "kc", .label = "kbit_fp32_cast",
     .help = "t_kbit_fp32_cast",
     .meaning = DOC("QLoRA: the parameters left out of 4-bit (embedding, norms, head) are cast to fp32, and with them the residual stream and the logits (PEFT prepare_model_for_kbit_training)."),
     .section = "techniques", .applies = "method=qlora", .default_text = "true with framework hf, else false",
     .stage = kInput, .ref = REF(techniques.kbit_fp32_cast)},
    {.path = "techniques.fp32_grad_reduce", .type = T::boolean, .code = "gr", .label = "fp32_grad_reduce",
     .help = "t_fp32_grad_reduce",
     .meaning = DOC("Gradients are reduced across data-parallel ranks in fp32 (Composer/FSDP mixed precision DEFAULT); with DeepSpeed, bf16 and ZeRO-1, its BF16_Optimizer, which also accumulates them in fp32 after every micro-batch (DeepSpeed's default without ZeRO, where it shards the optimizer like ZeRO-1: give that as ZeRO-1 with this on); with Megatron, its fp32 gradient buffer (Megatron-LM's bf16 default; off, its command passes --grad-reduce-in-bf16). torchtitan reduces in fp32 either way."),
     .section = "techniques", .stage = kInput, .ref = REF(techniques.fp32_grad_reduce)},
    {.path = "techniques.mtp_layers", .type = T::integer, .lo = 0, .hi = 8, .code = "mtp", .unit = "modules",
     .label = "mtp_layers", .help = "t_mtp_layers",
     .meaning = DOC("Multi-token prediction modules trained with the model (DeepSeek-V3: 1; Megatron-Core --mtp-num-layers): each adds one block of the model's last kind, a 2h x h projection and a pass through the shared output head per token, on the last pipeline stage."),
     .section = "techniques", .applies = "method=pretrain|continued|full", .stage = kInput,
     .ref = REF(techniques.mtp_layers)},
    {.path = "techniques.fused_kernels", .type = T::boolean, .code = "fk", .label = "fused_kernels",
     .help = "t_fused_kernels",
     .meaning = DOC("The blocks' RMSNorm, rotary embedding and gated activation run as fused kernels (Megatron-LM, torch.compile, Liger, Unsloth); off, each is a chain of eager PyTorch ops that read and write their tensors, the norm and RoPE in fp32, and the activation keeps its output for backward too."),
     .section = "techniques", .default_text = "true with framework megatron, techniques.compile or a fused_loss liger or cce, else false",
     .stage = kInput, .ref = REF(techniques.fused_kernels)},
    {.path = "techniques.eager_activation", .type = T::boolean, .code = "ea", .label = "eager_activation",
     .help = "t_eager_activation",
     .meaning = DOC("With the other kernels fused, the gated activation act(gate) x up still runs as eager PyTorch ops, which move its f-wide intermediates and keep its output for backward (nanotron's MLP; Liger with liger_kernel_config {\"swiglu\": false})."),
     .section = "techniques", .applies = "techniques.fused_kernels&model.gated_mlp&!techniques.compile", .stage = kInput,
     .ref = REF(techniques.eager_activation)},

    // Storage.
    {.path = "storage.data_tier", .type = T::id, .code = "dt", .label = "data_tier", .help = "t_data_tier",
     .meaning = DOC("Where the training data is read from (a catalog storage tier)."), .catalog = "storage",
     .section = "storage", .default_text = kDefaultDataTier, .ref = REF(storage.data_tier)},
    {.path = "storage.checkpoint_tier", .type = T::id, .code = "ct", .label = "ckpt_tier", .help = "t_ckpt_tier",
     .meaning = DOC("Where checkpoints are written (a catalog storage tier)."), .catalog = "storage",
     .section = "storage", .default_text = "the data tier", .ref = REF(storage.checkpoint_tier)},
    {.path = "storage.checkpoint_interval_h", .type = T::number_or_auto, .lo = 0.01, .hi = 10000, .code = "ci",
     .unit = "h", .label = "ckpt_interval", .help = "t_ckpt_interval",
     .meaning = DOC("Hours between checkpoints, or \"auto\" for the Young/Daly optimum."), .section = "storage",
     .default_text = "auto", .stage = kInput, .ref = REF(storage.checkpoint_interval_h)},
    {.path = "storage.bytes_per_token", .type = T::number, .lo = 0.5, .hi = 10000, .code = "bt", .unit = "bytes/token",
     .label = "bytes_per_token", .help = "t_bytes_per_token",
     .meaning = DOC("Bytes per training token on disk (pre-tokenised uint32: 4, uint16: 2)."), .section = "data",
     .stage = kInput, .ref = REF(storage.bytes_per_token)},
    {.path = "storage.dataset_tokens", .type = T::number, .lo = 0, .hi = 1e16, .code = "ds", .unit = "tokens",
     .label = "dataset_tokens", .help = "t_dataset_tokens",
     .meaning = DOC("Tokens in the data set, for staging and retention; 0 means the training tokens."), .section = "data",
     .stage = kInput, .ref = REF(storage.dataset_tokens)},
    {.path = "storage.retention_months", .type = T::number, .lo = 0, .hi = 120, .code = "rm", .unit = "months",
     .label = "retention", .help = "t_retention", .meaning = DOC("How long checkpoints and data are kept and paid for."),
     .section = "storage", .stage = kInput, .ref = REF(storage.retention_months)},
    {.path = "storage.checkpoints_kept", .type = T::integer, .lo = 1, .hi = 1000, .code = "ck", .unit = "checkpoints",
     .label = "ckpt_kept", .help = "t_ckpt_kept", .meaning = DOC("Checkpoints kept at a time."), .section = "storage",
     .stage = kInput, .ref = REF(storage.checkpoints_kept)},

    // Pricing and reliability.
    {.path = "pricing.mode", .type = T::choice, .code = "pm", .label = "price_mode", .help = "t_price_mode",
     .meaning = DOC("Which published price applies: on demand, spot, or a 1- or 3-year reservation."),
     .choices = kPricingModeNames, .section = "pricing", .stage = kInput, .ref = ENUM_REF(pricing.mode)},
    {.path = "pricing.usd_per_gpu_hour", .type = T::number, .lo = 0.001, .hi = 1000, .code = "pr", .unit = "USD/GPU-h",
     .label = "price", .help = "t_price", .meaning = DOC("Your price per GPU-hour, replacing the catalog's."),
     .section = "pricing", .default_text = "the instance's price, else the catalog median for the accelerator",
     .stage = kOverride, .ref = REF(pricing.usd_per_gpu_hour)},
    {.path = "pricing.overhead_factor", .type = T::number, .lo = 1, .hi = 10, .code = "ov", .unit = "x",
     .label = "overhead", .help = "t_overhead",
     .meaning = DOC("Debugging, reruns and idle time on top of pure training (planning allowance 1.3-1.5)."),
     .section = "pricing", .stage = kInput, .ref = REF(pricing.overhead_factor)},
    {.path = "pricing.currency", .type = T::choice, .code = "cu", .label = "currency", .help = "t_currency",
     .meaning = DOC("Currency the costs are shown in (converted at the catalog's dated rate)."), .choices = kCurrencyNames,
     .section = "pricing", .stage = kInput, .ref = ENUM_REF(pricing.currency)},
    {.path = "pricing.spot_interruptions_per_hour", .type = T::number, .lo = 0, .hi = 1, .code = "si",
     .unit = "per node-hour", .label = "spot_rate", .help = "t_spot_rate",
     .meaning = DOC("Spot preemptions per instance-hour."), .section = "pricing", .stage = kInput,
     .ref = REF(pricing.spot_interruptions_per_hour)},
    {.path = "pricing.failures_per_gpu_hour", .type = T::number, .lo = 0, .hi = 0.01, .code = "fr",
     .unit = "per GPU-hour", .label = "failure_rate", .help = "t_failure_rate",
     .meaning = DOC("Job interruptions per GPU-hour."), .section = "pricing",
     .default_text = "1.97e-5: 419 unexpected interruptions in 54 days on 16,384 H100 GPUs (Llama 3 paper, 3.3.4)",
     .stage = kInput, .ref = REF(pricing.failures_per_gpu_hour)},
    {.path = "pricing.restart_h", .type = T::number, .lo = 0, .hi = 100, .code = "rs", .unit = "h",
     .label = "restart_h", .help = "t_restart_h", .meaning = DOC("Time to detect an interruption, restart and reload the last checkpoint."), .section = "pricing", .stage = kInput,
     .ref = REF(pricing.restart_h)},

    // A trial run's measurements (calibrate.hpp): the estimate reproduces them at the trial's layout
    // and carries the factors they pin down to the scenario. Codes start with k.
    {.path = "calibration.tokens_per_s_per_gpu", .type = T::number, .lo = 0.001, .hi = 10000000, .code = "kt",
     .unit = "tokens/s", .label = "cal_tokens", .help = "t_cal_tokens",
     .meaning = DOC("Measured training throughput per GPU (torchtune tokens_per_second_per_gpu, torchtitan tps); one of this, calibration.step_s and calibration.mfu."),
     .section = "calibration", .default_text = "not measured", .stage = kInput, .ref = REF(measured.tokens_per_s_per_gpu)},
    {.path = "calibration.step_s", .type = T::number, .lo = 0.0001, .hi = 1000000, .code = "ks", .unit = "s",
     .label = "cal_step", .help = "t_cal_step",
     .meaning = DOC("Measured time of one optimizer step (Megatron-LM elapsed time per iteration)."), .section = "calibration",
     .default_text = "not measured", .stage = kInput, .ref = REF(measured.step_s)},
    {.path = "calibration.mfu", .type = T::number, .lo = 0.0001, .hi = 1, .code = "kf", .label = "cal_mfu",
     .help = "t_cal_mfu",
     .meaning = DOC("Measured model FLOPs utilisation in the Megatron convention (6N + 12 L s h per token over the dense peak at the run's precision)."),
     .section = "calibration", .default_text = "not measured", .stage = kInput, .ref = REF(measured.mfu)},
    {.path = "calibration.peak_memory_gib", .type = T::number, .lo = 0.001, .hi = 100000, .code = "km", .unit = "GiB",
     .label = "cal_memory", .help = "t_cal_memory",
     .meaning = DOC("Measured peak memory of the most loaded GPU, at most its capacity."), .section = "calibration",
     .default_text = "not measured", .stage = kInput, .ref = REF(measured.peak_memory_gib)},
    {.path = "calibration.peak_memory_from", .type = T::choice, .code = "kmf", .label = "cal_memory_from",
     .help = "t_cal_memory_from",
     .meaning = DOC("Where the peak memory was read: torch.cuda.max_memory_allocated (tensors only), nvidia-smi (also the CUDA context and the allocator's cache) or torch.cuda.max_memory_reserved (the cache, not the context; torchtitan's memory)."),
     .choices = kMemorySourceNames, .section = "calibration", .stage = kInput, .ref = ENUM_REF(measured.memory_from)},
    {.path = "calibration.busbw_gb_per_s.intra", .type = T::number, .lo = 0.001, .hi = 100000, .code = "kbi",
     .unit = "GB/s", .label = "cal_busbw_intra", .help = "t_cal_busbw_intra",
     .meaning = DOC("nccl-tests all_reduce_perf bus bandwidth over the GPUs of one node (large messages)."),
     .section = "calibration", .default_text = "not measured", .stage = kInput,
     .ref = REF(measured.intra_busbw_gb_per_s)},
    {.path = "calibration.busbw_gb_per_s.inter", .type = T::number, .lo = 0.001, .hi = 100000, .code = "kbe",
     .unit = "GB/s", .label = "cal_busbw_inter", .help = "t_cal_busbw_inter",
     .meaning = DOC("nccl-tests all_reduce_perf bus bandwidth over every GPU of two or more nodes (large messages)."),
     .section = "calibration", .default_text = "not measured", .stage = kInput,
     .ref = REF(measured.inter_busbw_gb_per_s)},
    {.path = "calibration.data_read_gb_per_s", .type = T::number, .lo = 0.0001, .hi = 100000, .code = "kr",
     .unit = "GB/s", .label = "cal_read", .help = "t_cal_read",
     .meaning = DOC("fio sequential read throughput of one node from the training data's storage."),
     .section = "calibration", .default_text = "not measured", .stage = kInput, .ref = REF(measured.data_read_gb_per_s)},
    {.path = "calibration.measured_on.accelerator", .type = T::id, .code = "koa", .label = "cal_on_accelerator",
     .help = "t_cal_on_accelerator",
     .meaning = DOC("The accelerator of the trial run; the factors apply to scenarios and plans on it only (a planner question needs it)."),
     .catalog = "accelerators", .section = "calibration", .default_text = "cluster.accelerator", .stage = kInput,
     .ref = REF(measured.on.accelerator)},
    {.path = "calibration.measured_on.gpus", .type = T::integer, .lo = 1, .hi = 1000000, .code = "kog", .unit = "GPUs",
     .label = "cal_on_gpus", .help = "t_cal_on",
     .meaning = DOC("GPUs of the trial run, when it ran on fewer or more than the scenario."), .section = "calibration",
     .default_text = "cluster.gpus", .stage = kInput, .ref = REF(measured.on.gpus)},
    {.path = "calibration.measured_on.gpus_per_node", .type = T::integer, .lo = 1, .hi = 72, .code = "kon",
     .unit = "GPUs", .label = "cal_on_per_node", .help = "t_cal_on", .meaning = DOC("GPUs per node of the trial run."),
     .section = "calibration", .default_text = "cluster.gpus_per_node", .stage = kInput,
     .ref = REF(measured.on.gpus_per_node)},
    {.path = "calibration.measured_on.tp", .type = T::integer, .lo = 1, .hi = 1024, .code = "kot", .unit = "GPUs",
     .label = "cal_on_tp", .help = "t_cal_on", .meaning = DOC("Tensor-parallel size of the trial run."),
     .section = "calibration", .default_text = "parallel.tp", .stage = kInput, .ref = REF(measured.on.tp)},
    {.path = "calibration.measured_on.pp", .type = T::integer, .lo = 1, .hi = 1000, .code = "kop", .unit = "stages",
     .label = "cal_on_pp", .help = "t_cal_on", .meaning = DOC("Pipeline stages of the trial run."), .section = "calibration",
     .default_text = "parallel.pp", .stage = kInput, .ref = REF(measured.on.pp)},
    {.path = "calibration.measured_on.cp", .type = T::integer, .lo = 1, .hi = 1024, .code = "koc", .unit = "GPUs",
     .label = "cal_on_cp", .help = "t_cal_on", .meaning = DOC("Context-parallel size of the trial run."),
     .section = "calibration", .default_text = "parallel.cp", .stage = kInput, .ref = REF(measured.on.cp)},
    {.path = "calibration.measured_on.ep", .type = T::integer, .lo = 1, .hi = 4096, .code = "koe", .unit = "GPUs",
     .label = "cal_on_ep", .help = "t_cal_on", .meaning = DOC("Expert-parallel size of the trial run."),
     .section = "calibration", .applies = "model.experts>0", .default_text = "parallel.ep", .stage = kInput,
     .ref = REF(measured.on.ep)},
    {.path = "calibration.measured_on.zero", .type = T::integer, .lo = 0, .hi = 3, .code = "koz", .label = "cal_on_zero",
     .help = "t_cal_on", .meaning = DOC("ZeRO stage of the trial run."), .section = "calibration",
     .default_text = "parallel.zero", .stage = kInput, .ref = REF(measured.on.zero)},
    {.path = "calibration.measured_on.micro_batch", .type = T::integer, .lo = 1, .hi = 65536, .code = "kom",
     .unit = "sequences", .label = "cal_on_micro_batch", .help = "t_cal_on", .meaning = DOC("Micro-batch per GPU of the trial run."),
     .section = "calibration", .default_text = "micro_batch", .stage = kInput, .ref = REF(measured.on.micro_batch)},
    {.path = "calibration.measured_on.seq_len", .type = T::integer, .lo = 1, .hi = 1048576, .code = "kos",
     .unit = "tokens", .label = "cal_on_seq_len", .help = "t_cal_on", .meaning = DOC("Sequence length of the trial run."),
     .section = "calibration", .default_text = "seq_len", .stage = kInput, .ref = REF(measured.on.seq_len)},
    {.path = "calibration.measured_on.global_batch", .type = T::integer, .lo = 1, .hi = 100000000, .code = "kob",
     .unit = "sequences", .label = "cal_on_global_batch", .help = "t_cal_on",
     .meaning = DOC("Sequences per optimizer step of the trial run."), .section = "calibration",
     .default_text = "the scenario's gradient accumulation at the trial's data parallelism", .stage = kInput,
     .ref = REF(measured.on.global_batch)},
    {.path = "calibration.measured_on.pp_flushes", .type = T::integer, .lo = 1, .hi = 4096, .code = "kof",
     .unit = "flushes", .label = "cal_on_pp_flushes", .help = "t_cal_on",
     .meaning = DOC("Pipeline flushes a step of the trial run (parallel.pp_flushes): torchtitan's accumulation steps when it ran a pipeline."),
     .section = "calibration", .applies = "framework=torchtitan",
     .default_text = "parallel.pp_flushes where they divide the trial's micro-batches a step, else 1", .stage = kInput,
     .ref = REF(measured.on.pp_flushes)},

    // Planner questions only: what to optimise and the limits of the search.
    {.path = "objective", .type = T::choice, .code = "qo",
     .meaning = DOC("What the planner minimises: cost, time, cost under a deadline, or time under a budget."),
     .choices = kObjectiveNames, .default_text = "min_cost", .scope = kQuestion},
    {.path = "constraints.max_gpus", .type = T::integer, .lo = 1, .hi = 100000, .code = "qg", .unit = "GPUs",
     .meaning = DOC("Most GPUs a plan may use."), .default_text = "1024", .scope = kQuestion},
    {.path = "constraints.deadline_days", .type = T::number, .lo = 0.001, .hi = 100000, .code = "qd", .unit = "days",
     .meaning = DOC("Longest wall-clock time a plan may take; required by min_cost_under_deadline."),
     .default_text = "none", .scope = kQuestion},
    {.path = "constraints.budget_usd", .type = T::number, .lo = 0.01, .hi = 1e12, .code = "qu", .unit = "USD",
     .meaning = DOC("Most a plan may cost; required by min_time_under_budget."), .default_text = "none",
     .scope = kQuestion},
    {.path = "constraints.providers", .type = T::list, .code = "qp", .meaning = DOC("Only offerings of these providers."),
     .catalog = "providers", .default_text = "all", .scope = kQuestion},
    {.path = "constraints.accelerators", .type = T::list, .code = "qa",
     .meaning = DOC("Only offerings with these accelerators."), .catalog = "accelerators", .default_text = "all",
     .scope = kQuestion},
    {.path = "constraints.spot", .type = T::boolean, .code = "qs", .meaning = DOC("Also consider spot prices."),
     .default_text = "false", .scope = kQuestion},
    {.path = "constraints.regions", .type = T::list, .code = "qr",
     .meaning = DOC("Only offerings sold in these regions (global offerings always match)."), .default_text = "all",
     .scope = kQuestion},
    {.path = "constraints.currency", .type = T::choice, .code = "qc",
     .meaning = DOC("Only offerings priced in this currency."), .choices = kCurrencyNames, .default_text = "any",
     .scope = kQuestion},
    {.path = "constraints.start_within_days", .type = T::number, .lo = 0, .hi = 3650, .code = "qsw", .unit = "days",
     .meaning = DOC("Only providers that typically start a job within this many days of sign-up (catalog lead_time_days; 0: self-serve); an unknown lead time is kept with a notice."),
     .default_text = "none", .scope = kQuestion},
    {.path = "constraints.provider_kinds", .type = T::list, .code = "qpk",
     .meaning = DOC("Only offerings of providers of these kinds: hyperscaler, gpu_cloud, marketplace, compute_centre."),
     .default_text = "all", .scope = kQuestion},
    // No published figure: a user assumption (payment.hpp, kDefaultDebugHours).
    {.path = "constraints.debug_hours", .type = T::number, .lo = 0, .hi = 8760, .code = "qh", .unit = "h",
     .meaning = DOC("Set-up and debugging hours before the long run, in each plan's ways to pay: on demand on one machine (the smallest unit rented) in the two-phase way, on the whole cluster in the others."),
     .default_text = "8: a user assumption (one working day), no published figure", .scope = kQuestion},
    {.path = "top_n", .type = T::integer, .lo = 1, .hi = 100, .code = "qn", .unit = "plans",
     .meaning = DOC("Ranked plans to return."), .default_text = "5", .scope = kQuestion},
};
// clang-format on

#undef REF
#undef ENUM_REF
#undef DOC

// Whole numbers in full ("1000000"), others in the shortest text that reads back as exactly
// `v` ("0.8", "1e+16"), as the parser's messages write them.
std::string num(double v) {
  char buf[48];
  if (std::fabs(v) < 1e15 && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Lookup and values
//-----------------------------------------------------------------------------

std::span<const FieldSpec> all_fields() { return kFields; }

const FieldSpec* find_field(std::string_view path) {
  for (const FieldSpec& f : kFields)
    if (path == f.path) return &f;
  return nullptr;
}

const FieldSpec& field(std::string_view path) {
  if (const FieldSpec* f = find_field(path)) return *f;
  std::fprintf(stderr, "llmplan: no field \"%.*s\" in the field table\n", static_cast<int>(path.size()), path.data());
  std::abort();
}

// The table is fixed, and the link decoder and every document check ask for the same few lists
// many times a decode (a scan of the table each was 23 % of a link decode): built once, for every
// prefix ending at a '.' (and the empty one) in table order.
const std::vector<std::string>& field_children(std::string_view prefix, FieldScope scope) {
  using Key = std::pair<std::string, FieldScope>;
  static const std::map<Key, std::vector<std::string>> children = [] {
    std::map<Key, std::vector<std::string>> m;
    for (const FieldSpec& f : kFields) {
      const std::string_view path = f.path;
      for (size_t start = 0;;) {
        const size_t dot = path.find('.', start);
        const std::string name(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
        std::vector<std::string>& names = m[{std::string(path.substr(0, start)), f.scope}];
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
      }
    }
    return m;
  }();
  static const std::vector<std::string> none;
  const auto it = children.find({std::string(prefix), scope});
  return it == children.end() ? none : it->second;
}

const std::vector<std::string>& question_keys() { return field_children("", FieldScope::question); }

std::string field_range_text(const FieldSpec& f) {
  switch (f.type) {
    case FieldType::integer:
    case FieldType::number:
    case FieldType::number_or_auto: return num(f.lo) + ".." + num(f.hi);
    default: return "";
  }
}

std::string field_value_json(const FieldSpec& f, const Scenario& s) {
  if (!f.ref) return "";
  // parallel.etp left out is 0, "as tp": the value in effect is tp.
  if (std::string_view(f.path) == "parallel.etp") return num(s.parallel.expert_tp());
  const FieldRef ref = f.ref(const_cast<Scenario&>(s));  // read only
  if (const auto* i = std::get_if<int*>(&ref)) return num(**i * f.scale);
  if (const auto* d = std::get_if<double*>(&ref)) return num(**d * f.scale);
  if (const auto* b = std::get_if<bool*>(&ref)) return **b ? "true" : "false";
  // Built by appending: "\"" + std::string trips GCC 12's -Wrestrict (bug 105651).
  std::string quoted = "\"";
  if (const auto* str = std::get_if<std::string*>(&ref))
    quoted += **str;
  else if (const EnumRef* e = std::get_if<EnumRef>(&ref))
    quoted += f.choices[e->get(e->p)];
  else
    return "";
  return quoted + '"';
}

namespace {

// The value of the field at `path` in `s`, as text comparable with a condition's value.
std::string condition_value(std::string_view path, const Scenario& s) {
  const FieldSpec* f = find_field(path);
  if (!f) return "";
  std::string v = field_value_json(*f, s);
  if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

namespace {

// One condition: "path" (set: non-empty, non-zero, true), "!path" (not set), "path=a|b" (one of
// the names), "path>0".
bool condition_holds(std::string_view c, const std::function<std::string(std::string_view)>& value_of) {
  const bool negate = !c.empty() && c.front() == '!';
  if (negate) c.remove_prefix(1);
  const size_t op = c.find_first_of("=>");
  std::string value = value_of(c.substr(0, op));
  if (value == "false" || value == "0") value.clear();
  bool holds = !value.empty();
  if (op != std::string_view::npos && c[op] == '>') {
    holds = !value.empty() &&
            std::strtod(value.c_str(), nullptr) > std::strtod(std::string(c.substr(op + 1)).c_str(), nullptr);
  } else if (op != std::string_view::npos) {
    holds = false;
    std::string_view names = c.substr(op + 1);
    while (!names.empty()) {
      const size_t bar = names.find('|');
      holds = holds || names.substr(0, bar) == value;
      names = bar == std::string_view::npos ? std::string_view{} : names.substr(bar + 1);
    }
  }
  return holds != negate;
}

}  // namespace

// Conditions joined by '&' all hold.
bool field_applies(const FieldSpec& f, const std::function<std::string(std::string_view)>& value_of) {
  std::string_view c = f.applies;
  while (!c.empty()) {
    const size_t amp = c.find('&');
    if (!condition_holds(c.substr(0, amp), value_of)) return false;
    c = amp == std::string_view::npos ? std::string_view{} : c.substr(amp + 1);
  }
  return true;
}

bool field_applies(const FieldSpec& f, const Scenario& s) {
  return field_applies(f, [&s](std::string_view path) { return condition_value(path, s); });
}

int field_choice_index(const FieldSpec& f, std::string_view name) {
  for (size_t i = 0; i < f.choices.size(); ++i)
    if (name == f.choices[i]) return static_cast<int>(i);
  return -1;
}

namespace {

// The enum value a choice field's name stands for; the enum's first for an unknown name.
template <typename Enum>
Enum choice_value(std::string_view path, const std::string& name) {
  return static_cast<Enum>(std::max(0, field_choice_index(field(path), name)));
}

}  // namespace

std::optional<std::string> derived_default(std::string_view path,
                                           const std::function<std::string(std::string_view)>& value_of) {
  if (path != "framework" && path != "techniques.fused_kernels" && path != "techniques.kbit_fp32_cast" &&
      path != "parallel.recompute")
    return std::nullopt;
  Scenario s;
  s.method = choice_value<Method>("method", value_of("method"));
  const std::string framework = path == "framework" ? std::string() : value_of("framework");
  s.framework = framework.empty() ? default_framework(s.method) : choice_value<FrameworkKind>("framework", framework);
  const std::string compile = value_of("techniques.compile");  // "", "false" or "0" when off
  s.techniques.compile = !compile.empty() && compile != "false" && compile != "0";
  s.techniques.fused_loss = choice_value<FusedLoss>("techniques.fused_loss", value_of("techniques.fused_loss"));
  apply_framework_defaults(s);
  const std::string v = condition_value(path, s);
  return v == "false" ? std::string() : v;
}

std::string field_default_text(const FieldSpec& f) {
  if (*f.default_text) return f.default_text;
  const Scenario defaults;
  std::string v = field_value_json(f, defaults);
  if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

//-----------------------------------------------------------------------------
// [SECTION] Generated reference
//-----------------------------------------------------------------------------

namespace {

// "method=lora|qlora" as prose.
std::string condition_text(std::string_view c) {
  const bool negate = c.front() == '!';
  if (negate) c.remove_prefix(1);
  const size_t op = c.find_first_of("=>");
  const std::string path(c.substr(0, op));
  if (op == std::string_view::npos) {
    const FieldSpec* f = find_field(path);
    if (f && f->type == FieldType::boolean) return "when " + path + (negate ? " is false" : " is true");
    return negate ? "without " + path : "with " + path;
  }
  if (c[op] == '>') return "when " + path + " > " + std::string(c.substr(op + 1));
  std::string names;
  std::string_view rest = c.substr(op + 1);
  while (!rest.empty()) {
    const size_t bar = rest.find('|');
    names += (names.empty() ? "" : " or ") + std::string("\"") + std::string(rest.substr(0, bar)) + "\"";
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
  }
  return "when " + path + " is " + names;
}

std::string allowed_text(const FieldSpec& f) {
  if (f.type == FieldType::choice) {
    std::string s;
    for (const char* n : f.choices) s += (s.empty() ? "" : ", ") + std::string("`") + n + "`";
    return s;
  }
  if (f.type == FieldType::id || f.type == FieldType::list) {
    if (*f.catalog) return std::string("ids from `llmplan catalog list ") + f.catalog + "`";
    return "names";
  }
  if (f.type == FieldType::boolean) return "`true`, `false`";
  std::string r = field_range_text(f);
  if (f.type == FieldType::number_or_auto) r = "`\"auto\"` or " + r;
  return r;
}

struct Group {
  const char* title;
  FieldScope scope;
};

}  // namespace

std::string field_applies_text(const FieldSpec& f) {
  std::string out;
  std::string_view c = f.applies;
  while (!c.empty()) {
    const size_t amp = c.find('&');
    out += (out.empty() ? "" : " and ") + condition_text(c.substr(0, amp));
    c = amp == std::string_view::npos ? std::string_view{} : c.substr(amp + 1);
  }
  return out;
}

std::string fields_markdown() {
  std::string out =
      "# Scenario and question fields\n\n"
      "Every field a scenario or a planner question takes, with its type, allowed values, default, unit, link "
      "code and meaning. A scenario is the JSON that `llmplan estimate` and links take; a planner question is a "
      "scenario without `cluster`, `network` and `parallel`, plus the question fields. Every field is optional "
      "unless its default says it is required. Unknown fields are refused, and a value out of its range is "
      "refused with a message that names the field and the range. A field whose meaning says when it "
      "applies is refused when it is set where it does not apply (e.g. `parallel.attention_kernel` with "
      "FlashAttention off), unless it is given at its default, which changes nothing; a link that carries one "
      "opens without it, with a notice.\n\n"
      "Generated from the field table in `core/src/fields.cpp` by `llmplan fields --format md`; do not edit by "
      "hand.\n\n"
      "Link codes are a public contract: a code is never renamed or reused. `v`, `c`, `mv` and `u` are reserved.\n";
  for (const Group& g :
       {Group{"Scenario fields", FieldScope::scenario}, Group{"Planner question fields", FieldScope::question}}) {
    out += std::string("\n## ") + g.title + "\n\n";
    out += "| field | type | allowed | default | unit | link | meaning |\n|---|---|---|---|---|---|---|\n";
    for (const FieldSpec& f : kFields) {
      if (f.scope != g.scope) continue;
      std::string meaning = f.meaning;
      const std::string applies = field_applies_text(f);
      if (!applies.empty()) meaning += " Applies " + applies + ".";
      out += std::string("| `") + f.path + "` | " + kFieldTypeNames[static_cast<int>(f.type)] + " | " +
             allowed_text(f) + " | " + field_default_text(f) + " | " + f.unit + " | `" + f.code + "` | " + meaning +
             " |\n";
    }
  }
  return out;
}

}  // namespace llmplan
