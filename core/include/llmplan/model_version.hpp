// model_version.hpp: the estimator's model version and its change log, the one source of both.
// A link records the model version it was made with (`mv`, link.hpp); a link opened by a newer
// build lists the changes since (model_changes_since), and the "Model changes" table of
// docs/links.md is generated from kModelChanges (`llmplan link model-changes --update-md
// docs/links.md`; a test fails while it is stale).
//
// A change that moves the figures of a scenario (a formula, a constant, a default) bumps
// kModelVersion and adds its entries below under the new version. Version 1 stands for every link
// made before links recorded the model version: its entries are the changes listed until then.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

inline constexpr int kModelVersion = 33;

struct ModelChange {
  int version;         // the model version that brought the change
  const char* date;    // YYYY-MM-DD
  const char* change;  // what changed, and its source
  const char* effect;  // what it does to the figures of links made before it (one plain sentence or more)
};

// Oldest first. The effect texts are the ones to edit when the golden links are regenerated.
// clang-format off
inline constexpr ModelChange kModelChanges[] = {
    {.version = 1, .date = "2026-12-01",
     .change = "Attention score FLOPs count every query head: with grouped-query attention the heads share keys and "
               "values, not the work of Q K^T and scores x V (FlashAttention-2, Dao 2023, §3.1).",
     .effect = "step time of GQA models up 1-7 % at 2-8K tokens (Llama 3.1 8B LoRA on an H100 at 4K: 1.006 s to "
               "1.061 s); MHA models unchanged"},
    {.version = 1, .date = "2026-12-01",
     .change = "The first `dense_layers` blocks of an MoE model hold a dense MLP in memory too, not the experts "
               "(DeepSeek-V3 technical report §4.2: 3 of 61).",
     .effect = "per-GPU memory of DeepSeek-style models down: DeepSeek-V3 on 64 pipeline-split H800s -0.4 %, a "
               "4-block custom MoE with 1 dense block -2.8 %; model states of DeepSeek-V3 are 16 B per parameter "
               "instead of 16.78"},
    {.version = 1, .date = "2026-12-01",
     .change = "Pipeline stages may be uneven (layers not divisible by `pp`): links with such a layout, refused "
               "before, now open.",
     .effect = "none: even splits give the same figures; results gain `layout.stage_layers`"},
    // Estimator v2.
    {.version = 2, .date = "2026-12-01",
     .change = "Collective bandwidth follows the topology: a group's ranks per node decide how many NICs it drives "
               "(busbw = min(scale-up busbw, ranks per node x one NIC's busbw); stas00/ml-engineering network "
               "chapter, 4 x 8 B200 all-reduce 377-382 GB/s); FSDP/ZeRO-3 move (w + w + g) / 2 and pay a ring "
               "latency per block.",
     .effect = "Groups spanning nodes with several ranks per node run faster (this change alone: DeepSeek-V3 ZeRO-3 "
               "on 2,048 H800s step 169 s to 41.6 s, Llama 2 13B ZeRO-3 on 16 A100s 18.5 s to 12.5 s); memory "
               "unchanged."},
    {.version = 2, .date = "2026-12-01",
     .change = "Attention runs as its own kernel at the accelerator's measured rate for the kernel that runs "
               "(catalog attention_efficiency, scenario parallel.attention_kernel; FlashAttention-2 and -3 papers), "
               "causal work halved and the backward 2.5x the forward; the last pipeline stage counts the logit layer.",
     .effect = "Step times move with the sequence length and the kernel; pipelines with a large vocabulary slow down "
               "(BLOOM-like last stages)."},
    {.version = 2, .date = "2026-12-01",
     .change = "FP8 runs only the linear GEMMs in FP8 at the measured FP8 GEMM ratio (catalog gemm_fp8_efficiency), "
               "plus the FP8 casts of their inputs and gradients (Transformer Engine).",
     .effect = "FP8 steps are slower than before."},
    {.version = 2, .date = "2026-12-01",
     .change = "Memory by framework (scenario field framework): PyTorch cross-entropy on fp32 logits keeps three fp32 "
               "copies at its peak (plain FSDP/DeepSpeed loops also the fp32 logits), Megatron-LM and torch.compile "
               "one; Hugging Face QLoRA keeps the non-4-bit parameters, the residual stream and the logits in fp32 "
               "(PEFT prepare_model_for_kbit_training, techniques.kbit_fp32_cast); techniques.fused_loss (Liger, "
               "Cut Cross-Entropy) and techniques.compile.",
     .effect = "Hugging Face fine-tuning memory up: Llama 3.1 8B QLoRA on an RTX 4090 at 2K tokens 20.6 to 25.5 GB, "
               "Llama 3.1 8B LoRA on an H100 +11 %, Gemma 2 9B freeze-tuning +32 %; Megatron-LM pretraining "
               "unchanged."},
    {.version = 2, .date = "2026-12-01",
     .change = "Context, expert and virtual-pipeline parallelism (parallel.cp, parallel.ep, parallel.vp; link codes cp, "
               "xp, vp), which the planner also searches, uneven pipelines in the planner's search, and expert all-to-alls "
               "overlapped with computation (parallel.ep_comm_overlap, link code eo).",
     .effect = "Scenario links: none (the new fields default to 1). Planner links may find a faster or cheaper plan."},
    {.version = 2, .date = "2026-12-01",
     .change = "kGemmHalfSize, kElementwisePasses, kSoftmaxPasses and kZero3Overlap refitted on the fit families "
               "(docs/calibration.md).",
     .effect = "With every model-2 change together the 22 golden links' step times moved from -16 % (Llama 2 7B "
               "pretraining on 2,048 A100s) to +12 % (Gemma 2 9B freeze-tuning), most within 7 %."},
    {.version = 3, .date = "2026-12-01",
     .change = "Eager PyTorch (Hugging Face, torchtune, torchtitan and plain FSDP/DeepSpeed loops without "
               "torch.compile, Liger or Unsloth kernels) runs RMSNorm, RoPE and SwiGLU as chains of ops that read and "
               "write whole tensors, the norm and RoPE in fp32: the memory-bound time counts those bytes "
               "(techniques.fused_kernels, link code fk; torchtitan Table 1: compile alone is 15.7 % faster).",
     .effect = "Fine-tuning steps with the default framework (hf) slower: Llama 3.1 8B LoRA on an H100 1.127 s to "
               "1.337 s (+18.6 %), Gemma 2 9B freeze-tuning +23.7 %, Llama 3.1 8B QLoRA on an RTX 4090 +11.5 %, "
               "Qwen2.5 72B LoRA +11.0 %; planner links' costs up with them (Llama 3.1 70B on 8 B200s +7.2 %); "
               "Megatron-LM pretraining, LayerNorm/GeLU models and learned positions unchanged."},
    {.version = 3, .date = "2026-12-01",
     .change = "ZeRO-3 / FSDP with pipeline stages (torchtitan) keeps each stage's gathered 16-bit weights through the "
               "step and accumulates unsharded gradients, gathering and reducing once per step instead of per "
               "micro-batch (torchtitan apply_fsdp: no reshard after forward with PP; torch.distributed.pipelining "
               "syncs gradients at the last backward).",
     .effect = "Memory of such layouts up (Llama 3.1 405B on TP 8 x PP 8 x FSDP 8: 34.6 GB to 56.3 GB per GPU, "
               "torchtitan's published peak 88.6 GB reserved), their steps shorter (its interleaved schedule 28.7 s "
               "to 20.6 s); other layouts unchanged."},
    {.version = 3, .date = "2026-12-01",
     .change = "New recompute value selective_op (torchtitan's per-operator checkpointing: every second matmul and "
               "the elementwise ops run again) and the catalog's h100-sxm5-96gb-500w (catalog 2026.12.2).",
     .effect = "none: new values only"},
    {.version = 4, .date = "2026-12-02",
     .change = "parallel.tp_comm_overlap outside Megatron-LM is PyTorch's async TP (torchtitan): it pipelines only the "
               "forward pass's two TP collectives per layer with their matmuls, the recompute's and the backward's stay "
               "exposed (PyTorch's post: ~20 % forward, ~8 % end-to-end speedup for Llama 3 70B).",
     .effect = "Steps of non-Megatron layouts with tp_comm_overlap longer (torchtitan's Llama 3.1 70B on FSDP 32 x "
               "TP 8 with full AC: 1,078 to 886 tokens/s per GPU predicted, 876 published); Megatron-LM unchanged."},
    {.version = 4, .date = "2026-12-02",
     .change = "New field parallel.etp (link code xt, expert tensor parallelism, default tp): Megatron-Core folds EP x "
               "ETP into a stage's tp x cp x dp ranks (MoE parallel folding), so EP may exceed DP, and an EP group's "
               "ranks sit etp apart (before: tp x cp, EP inside DP).",
     .effect = "Layouts refused before now run (Qwen3 235B on TP 2 x PP 8 x EP 32); MoE layouts with cp > 1 and ep > 1 "
               "move their all-to-alls and expert gradient reductions to the folded groups; others unchanged."},
    {.version = 4, .date = "2026-12-02",
     .change = "New calibration block (link codes k...): a trial run's measured throughput, peak memory, nccl-tests bus "
               "bandwidth and fio read rate become factors on the model, and the ranges narrow to what the measurement "
               "leaves uncertain (ranges gain a basis: published runs, calibrated runs or measured).",
     .effect = "none: new fields only"},
    {.version = 4, .date = "2026-12-02",
     .change = "A minimum billing block (monthly rents) is shown: warning minimum_billing, cost.used_hours and "
               "cost.billed_hours; the cost's 80 % range stays at the block. Without training tokens, "
               "usd_per_billion_tokens comes from the step's rate.",
     .effect = "Costs unchanged; the cost range of runs shorter than a billing block narrows to the block, and "
               "usd_per_billion_tokens of scenarios without tokens is no longer 0."},
    {.version = 5, .date = "2026-12-02",
     .change = "PyTorch FSDP (frameworks hf, fsdp, torchtune and torchtitan) with ZeRO-3 keeps its root unit (the "
               "embedding, final norm and output head) gathered from forward to backward (FSDP1 _post_forward_reshard, "
               "FSDP2 fully_shard): the buffers hold at least one block and that unit, not two blocks.",
     .effect = "Peak memory of such scenarios up where the unit outweighs a block: Llama 3.1 8B full fine-tuning with "
               "ZeRO-3 on 8 GPUs 47.8 to 49.5 GB per GPU; Liger's Hugging Face run of Llama 3 8B at 4K tokens now "
               "runs out of memory, as published. DeepSpeed and Megatron-LM unchanged."},
    {.version = 5, .date = "2026-12-02",
     .change = "Virtual pipeline stages of unequal length (parallel.vp needs one layer per virtual stage, no longer a "
               "divisor of every stage's layers); the interleaved bubble follows the longest chunk, and Megatron-LM "
               "gets --pipeline-model-parallel-layout for them. New field parallel.ep_dispatcher (link code xd): "
               "deepep sends a token over the network once per destination node (DeepEP, HybridEP).",
     .effect = "Layouts refused before now run; the default dispatcher, alltoall, is the earlier count: other "
               "scenarios unchanged."},
    {.version = 6, .date = "2026-12-02",
     .change = "Frameworks' copies on the compute stream, time.framework_copy_s: FSDP2 (torchtune, torchtitan) copies "
               "every gathered weight out of the all-gather buffer at each gather and the gradients into the "
               "reduce-scatter buffer at each reduction (torch/distributed/fsdp/_fully_shard); DeepSpeed's "
               "BF16_Optimizer (bf16, ZeRO-1 with techniques.fp32_grad_reduce: BLOOM's set-up) adds each "
               "micro-batch's gradients into fp32 ones it keeps (4 B a trained parameter) and reduces "
               "(deepspeed/runtime/bf16_optimizer.py). torchtitan reduces gradients in fp32 whatever "
               "techniques.fp32_grad_reduce says (its mixed_precision_reduce accepts only float32), and with "
               "pipeline stages FSDP2 accumulates the unsharded gradients in that dtype over the micro-batches "
               "(FSDPParam.to_accumulated_grad_if_needed): 4 B a parameter, and a cast and an add each micro-batch.",
     .effect = "Step time of torchtune and torchtitan ZeRO-3 scenarios up: Llama 3.1 8B with torchtitan on 8 H100s at "
               "8K tokens 1.279 to 1.316 s (+2.9 %). With pipeline stages and ZeRO-3, torchtitan's gradient memory "
               "doubles (Llama 3.1 405B on TP 8 x PP 8 x FSDP 8: 14.0 to 26.5 GB per GPU) and the step grows by the "
               "copies (52.06 to 52.64 s, +1.1 %, at 8 micro-batches). "
               "DeepSpeed bf16 ZeRO-1 with fp32_grad_reduce: Llama 2 7B on 8 A100s at 4K tokens, 2 micro-batches, "
               "2.515 to 2.647 s (+5.3 %) and gradients 13.5 to 40.4 GB per GPU (2 to 6 B a trained parameter). Other "
               "set-ups and frameworks unchanged; FSDP2 copies QLoRA's frozen weights in NF4 and a freeze-tune's "
               "frozen blocks forward only."},
    {.version = 7, .date = "2026-12-02",
     .change = "No gradient bucket beside the gradients where the framework keeps none at the activation peak: "
               "Megatron-LM's buckets are views of its contiguous gradient buffer, reduced in place "
               "(megatron/core/distributed/param_and_grad_buffer.py), and DeepSpeed's BF16_Optimizer reduces its fp32 "
               "gradients after the backward (engine._exec_reduce_grads). Before, both counted DeepSpeed ZeRO's "
               "5e8-element bucket.",
     .effect = "Peak memory per GPU of Megatron-LM scenarios down by 1.05 GB with 16-bit gradients (Llama 2 7B "
               "pretraining on 2,048 A100s: 8.21 to 7.16 GB; GPT-3 175B on 1,024 A100s: 26.2 to 25.2 GB); DeepSpeed "
               "bf16 ZeRO-1 with fp32_grad_reduce down by 1.05 GB (Llama 2 7B on 8 A100s at 4K tokens: 89.5 to "
               "88.4 GB). Step times unchanged."},
    {.version = 7, .date = "2026-12-02",
     .change = "An attention kernel without a published rate on the accelerator runs at FlashAttention-2's rate there "
               "(older kernels are slower: FlashAttention-2 paper, about 2x FlashAttention-1; vendor fused kernels "
               "are of its class), no longer at the large-GEMM rate, which no attention kernel reaches "
               "(FlashAttention-3 paper: FlashAttention-2 at 35 % of H100 peak). The large-GEMM rate stays for "
               "accelerators with no published attention rate at all.",
     .effect = "Scenarios naming such a kernel run slower: Llama 3.1 8B on an H100 with parallel.attention_kernel "
               "flash1, 8K tokens 0.763 to 0.870 s, 128K tokens 30.8 to 58.1 s. Default kernels unchanged."},
    {.version = 8, .date = "2026-12-03",
     .change = "DeepEP sends a token over NVLink once per destination rank, not once per routed expert: its dispatch "
               "layout counts tokens per rank (get_dispatch_layout: num_tokens_per_rank, is_token_in_rank) and the "
               "receiving rank hands the token to its experts (DeepSeek-V3 report §3.2.2). Before, every routed copy "
               "crossed NVLink.",
     .effect = "Step time of parallel.ep_dispatcher deepep scenarios whose all-to-alls are bound by NVLink down: "
               "Qwen3-30B-A3B with EP 8 on one node of 8 H100s, 4 x 4K tokens a micro-batch: all-to-alls 7.37 to "
               "4.92 s, step 26.92 to 24.47 s. Across nodes the network copies (once per destination node) still "
               "bound them: DeepSeek-V3 with EP 64 on 256 H100s unchanged. The alltoall dispatcher unchanged."},
    {.version = 9, .date = "2026-12-03",
     .change = "TP comm overlap runs its GEMMs on chunks of the tokens, at the efficiency of that size: Transformer "
               "Engine's userbuffers (Megatron-Core --tp-comm-overlap, default methods of initialize_ub) run the "
               "forward of QKV and FC1 and the data gradients of the output projection and FC2 as tp GEMMs, one per "
               "arriving chunk (split_overlap_ag), and the forward of the output projection and FC2 as 4; PyTorch's "
               "async TP splits the forward's four matmuls by tp. Before, every GEMM ran on the whole micro-batch.",
     .effect = "Step time of parallel.tp_comm_overlap scenarios whose chunks fall below hidden / tp rows up: Llama "
               "3.1 405B in FP8 on 1,024 H100s (TP 8, CP 2, PP 8, VP 8, one 8K sequence a micro-batch): GEMM "
               "efficiency 0.630 to 0.561, step 11.97 to 12.98 s. Without the overlap, or with tokens / tp at least "
               "hidden / tp, unchanged."},
    {.version = 10, .date = "2026-12-04",
     .change = "Sliding-window attention (model.sliding_window, model.sliding_layers): a windowed layer's queries attend "
               "the last `window` keys, so its score FLOPs count min(window, s) keys (Megatron's count) and a fused "
               "causal kernel computes w - w^2 / (2 s) keys a query on average (Mistral 7B, Jiang et al. 2023; "
               "Gemma 2, arXiv:2408.00118 §2). The presets mistral-7b (4,096 in every layer) and gemma-2-2b, -9b and "
               "-27b (4,096 in every second layer) carry their windows (catalog 2026.12.7).",
     .effect = "Step time of those presets at sequences beyond 4,096 tokens down, and their MFU with it (fewer model "
               "FLOPs): Mistral 7B at 32K on 8 H100s with ZeRO-3 and full recompute 7.30 to 4.40 s a step. At 4,096 "
               "tokens or fewer, and every other model, unchanged."},
    {.version = 11, .date = "2026-12-04",
     .change = "Fused attention's rate follows the sequence length it runs on (seq_len / cp) where a sweep of the "
               "kernel is measured: catalog attention_length_scale, the cuDNN rates of the B200, GB200, GB300 and "
               "B300 at 512 to 16,384 tokens over their 16,384-token figure (NVIDIA cudnn-frontend SDPA training "
               "benchmark), interpolated in log2 length; a short sequence leaves each query tile few key blocks "
               "to amortise its start and end over.",
     .effect = "Below 16,384 tokens a rank, attention on Blackwell gets slower with the kernels the catalog has "
               "sweeps of (cuDNN from catalog 2026.12.8, FlashAttention-2 from 2026.12.9): cuDNN on the GB200 at "
               "8,192 tokens runs 0.934 of its former rate, at 4,096 0.814; on the B200 at 4,096 0.648. Other "
               "accelerators and 16,384 tokens or more, unchanged."},
    {.version = 12, .date = "2026-12-04",
     .change = "Offloaded activations take time: a layer's saved tensors go to the host while the next layer "
               "computes (Megatron-LM cpu_offload.py's double buffer), so each offloaded layer adds the copy "
               "longer than a layer's forward and the reload longer than its backward, at the accelerator's host "
               "link (catalog host_link_gb_per_s, 2026.12.10: 170 GB/s on the GB200 and GB300, else PCIe). New "
               "field techniques.activation_offload_layers offloads the first N layers of each stage.",
     .effect = "Scenarios with techniques.activation_offload and no full recompute get slower where a layer's "
               "saved tensors outlast its forward on the host link: Phi-3 mini at 4,096 tokens on two RTX 4090s "
               "2.46 to 2.68 s a step. With full recompute (only a layer's input is offloaded) and without "
               "activation offload, unchanged."},
    {.version = 13, .date = "2026-12-04",
     .change = "QLoRA's dequantisation is counted as the copy it is: each NF4 block linear is dequantised to a "
               "16-bit copy before every GEMM that reads it (forward, backward, recomputed forward), reading 0.516 "
               "and writing 2 bytes a parameter at HBM bandwidth (time.qlora_dequant_s; bitsandbytes, torchao; "
               "Dettmers et al. 2023 §3). It replaces the uncalibrated 1.3x slowdown kQloraSlowdown.",
     .effect = "QLoRA step times down where the GEMMs outweigh the copy, and up only where a micro-batch is so small "
               "that the copy outweighs 30 % of the compute: Llama 3.2 3B QLoRA at 2 x 4,096 tokens on one A100 "
               "6,293 to 8,088 tokens/s (published 8,035); Llama 3.1 8B QLoRA at 2,048 tokens on one RTX 4090 35.0 to "
               "28.1 s a step. LoRA, full training and every other method, unchanged."},
    {.version = 14, .date = "2026-12-04",
     .change = "Frozen layers keep no GEMM inputs: autograd saves a matmul's input only for the weight's gradient "
               "(PyTorch's generated autograd guards it on the weight requiring grad; bitsandbytes' MatMul4Bit keeps "
               "none). With LoRA or QLoRA on the attention projections only, the frozen MLP keeps neither its input "
               "nor the down projection's; under PEFT and freeze-tuning the frozen head keeps no input, unless a "
               "fused loss (Liger, Cut Cross-Entropy) keeps it anyway.",
     .effect = "Lower activation memory for LoRA and QLoRA with lora.targets attention, by 2 (h + f) bytes a token "
               "and layer in 16-bit (36,864 B for Llama 3.1 8B; under full recompute only in the recomputed layer): "
               "Llama 3.1 8B LoRA at 4 x 4,096 tokens without recompute 137.0 to 116.6 GB. PEFT and freeze-tuning "
               "logits memory without a fused loss drops by one hidden vector a token (Llama 3.1 8B QLoRA at 2,048 "
               "tokens on one RTX 4090 25.54 to 25.50 GB; Gemma 2 9B freeze-tuning on an L40S 54.31 to 54.25 GB). Step times move only where activation offload copies "
               "those activations (LoRA on attention only, no full recompute): shorter copies. Full training and "
               "every-linear LoRA activations unchanged."},
    {.version = 15, .date = "2026-12-04",
     .change = "Fused attention's rate follows the model's head dimension where the kernel is measured at more than "
               "one: catalog attention_head_dim_scale (2026.12.12), on the H100-class GPUs FlashAttention-2 0.896, "
               "FlashAttention-3 0.823 and cuDNN 0.796 of their head-dim-128 rates at head dim 64 (FlashAttention-3 "
               "paper, Shah et al. 2024, forward and backward at 16K tokens), interpolated in log2 head dim; a "
               "narrow head gives each tile's matmuls a short inner dimension against the same softmax work per "
               "score.",
     .effect = "Attention of models with heads narrower than 128 slower on H100, H200, H800 and GH200: gpt-oss-20b "
               "at 8,192 tokens on 8 H100s with full recompute 14,819 to 14,540 tokens/s per GPU, Qwen2.5 0.5B "
               "55,451 to 53,814, Phi-3 mini (head dim 96) 12,323 to 12,177. Links keep the catalog they were made "
               "with, so their figures move only when re-saved with 2026.12.12. Head dims of 128 or more, and other "
               "accelerators, unchanged."},
    {.version = 16, .date = "2026-12-05",
     .change = "Context parallelism under framework torchtitan runs PyTorch's ring (torch.distributed.tensor."
               "experimental): the keys and values enter SDPA expanded to every query head (torchtitan's "
               "repeat_kv), are all-gathered once a pass and waited for before the second ring step, so only 1/cp "
               "of the pass's attention hides the gather; backward gathers them again and passes their gradients "
               "around the ring in fp32, the last hop waited for. Megatron-Core's P2P ring (every other framework) "
               "unchanged.",
     .effect = "Step time of torchtitan scenarios with parallel.cp > 1 up where the gather outlasts the first ring "
               "step, mostly across nodes: Llama 3.1 405B at 262,144 tokens on 512 H100s (96 GB, 500 W; TP 8, CP 8, "
               "PP 8, full recompute) 156.2 to 177.9 s, at 65,536 tokens (CP 2) 63.8 to 67.0 s; inside one node "
               "little: Llama 3.1 8B at 262,144 tokens with CP 8 on 8 of them 36.05 to 36.14 s. Without CP, and "
               "every other framework, unchanged."},
    {.version = 17, .date = "2026-12-05",
     .change = "PyTorch's ring (framework torchtitan, parallel.cp > 1) holds its buffers in memory: in one layer's "
               "attention backward the keys and values of every CP rank all-gathered and the chunk it sends "
               "(16-bit), an fp32 query gradient and three fp32 key/value gradient chunks (received, sent, "
               "arriving), and at its end the 16-bit copies of both it returns (torch.distributed.tensor."
               "experimental _templated_ring_attention_backward). They live "
               "after the loss has freed the logits, so a stage's activations grow by what they hold beyond its "
               "logits.",
     .effect = "Peak memory of torchtitan scenarios with parallel.cp > 1 up where a stage holds less logits than "
               "the ring: Llama 3.1 405B at 262,144 tokens on 512 H100s (96 GB, 500 W; TP 8, CP 8, PP 8, full "
               "recompute) 68.53 to 73.46 GB on the first stage, at 65,536 tokens (CP 2) 68.53 to 71.77 GB. "
               "Stages with the logits of a long sequence unchanged (Llama 3.1 8B at 262,144 tokens with CP 8 on 8 "
               "GPUs: 87.12 GB). Step times, and every other framework, unchanged."},
    {.version = 17, .date = "2026-12-05",
     .change = "torchtitan with TP > 1 runs its loss through PyTorch's loss parallelism (torch.distributed.tensor."
               "parallel.loss_parallel), unfused ops on the vocabulary shard whose backward "
               "(_nll_loss_and_log_softmax_backward) holds the saved fp32 log-softmax, a zeros_like gradient, its "
               "exp and their sum: 16 bytes a logit instead of the fused kernels' 12.",
     .effect = "Logits memory of torchtitan scenarios with parallel.tp > 1 and no compiled loss up by a third: "
               "Llama 3.1 70B at 16 x 8,192 tokens a micro-batch on TP 8 (torchtitan's Table 4) 25.75 to 34.16 GB, "
               "peak 61.13 to 69.96 GB. TP 1, techniques.compile, fused losses and other frameworks unchanged."},
    {.version = 18, .date = "2026-12-05",
     .change = "Freeze-tuning recomputes only its trained blocks: the frozen bottom blocks run outside autograd (their "
               "input needs no gradient), save nothing and are never recomputed, and with context parallelism "
               "only the trained blocks pass keys, values and their gradients around the ring backward. A frozen "
               "block's forward counts its attention once, (1 - t)(2 P_blocks + A), not twice.",
     .effect = "Step time and model FLOPs of freeze-tuning down: Gemma 2 9B, 8 of 42 blocks trained, full "
               "recompute, 2 x 4,096 tokens on one L40S, 3.55 to 3.04 s a step (MFU 22.1 to 24.1 %). Every other "
               "method unchanged."},
    {.version = 19, .date = "2026-12-05",
     .change = "Expert-parallel all-to-alls that overlap computation hold SMs: DeepEP's kernels take 20 (DeepSeek-V3 "
               "report §3.2.2; Megatron-Core moe_deepep_num_sms), and the computation beside them runs on the rest, "
               "so the step exposes max(all-to-alls - computation, 20 / sm_count x all-to-alls) instead of their "
               "excess alone. New catalog field sm_count (2026.12.13).",
     .effect = "Step time of MoE scenarios with parallel.ep_dispatcher deepep and parallel.ep_comm_overlap up: "
               "DeepSeek-V3's layout on 2,048 H800s (PP 16, EP 64) 15.61 to 15.76 s a step; Qwen3-30B-A3B on 16 "
               "H100s with EP 16, 16.31 to 17.13 s. Links keep the catalog they were made with, so their figures "
               "move only when re-saved with 2026.12.13. The alltoall dispatcher (NCCL, whose SM use is not "
               "published), no overlap, and parts without an SM count, unchanged."},
    {.version = 20, .date = "2026-12-05",
     .change = "Freeze-tuning's frozen blocks run their forward collectives only: a frozen block of a tensor-parallel "
               "layout runs its forward pair of TP collectives (2, not 4 or 6), and of an expert-parallel one its "
               "forward dispatch and combine (2 all-to-alls, not 4 or 6).",
     .effect = "TP and EP traffic of freeze-tuning down: Llama 2 7B, 8 of 32 blocks trained, TP 2, full recompute, "
               "12.88 to 6.44 GB of TP collectives a step of 2 x 4,096 tokens; Mixtral 8x7B with EP 2 and 8 of 32 "
               "blocks trained, all-to-all bytes x 5/8. Freeze-tuning without TP or EP, and every other method, "
               "unchanged."},
    {.version = 21, .date = "2026-12-05",
     .change = "New field parallel.moe_routing (link code mr): learned, the default, as before; fake_balanced, a "
               "benchmark's fake balanced gate (NeMo AutoModel FakeBalancedGate: token i routes to experts i k to "
               "i k + k - 1), gives every expert the same tokens, so no rank waits for a busier one and the "
               "all-to-alls carry the mean load, and with DeepEP a token reaches only the ranks and nodes holding "
               "its k consecutive experts.",
     .effect = "Only scenarios that set fake_balanced move: DeepSeek-V3 with EP 64 over 8 nodes and DeepEP, 4.63 to "
               "0.875 network copies a token and 6.72 to 1.75 NVLink copies, no expert imbalance. Every scenario "
               "and link without the field unchanged."},
    {.version = 22, .date = "2026-12-05",
     .change = "parallel.moe_routing random: random router logits (Megatron-Core --moe-router-force-load-balancing, "
               "moe_utils.py RandomSTE) make a token's experts a uniform random set, so the traffic is a learned "
               "router's but the busiest rank exceeds the mean by chance only: a rank's load is hypergeometric, and "
               "the busiest of ep ranks lies at most sqrt(2 ln ep) standard deviations above the mean.",
     .effect = "Only scenarios that set random move: Qwen3-235B-A22B with EP 32 and 2,048 tokens a rank, load "
               "factor 1.25 to 1.02 (less expert imbalance, all-to-alls x 0.82)."},
    {.version = 22, .date = "2026-12-05",
     .change = "A routed expert's GEMMs run at the efficiency of their own size: their smallest dimension is the "
               "fewest of the rows that reach the expert (tokens its expert-parallel rank draws from x top_k x ep / "
               "experts, the rank's tokens gathered over ETP with sequence parallelism), its width over ETP and the "
               "hidden size, where the model used the micro-batch's tokens and hidden / tp for every linear layer.",
     .effect = "Compute time of MoE moves with its experts' size: Qwen3-30B-A3B (experts of width 768) with EP 8, 1 "
               "x 4,096 tokens a micro-batch, expert GEMMs at 0.75 instead of 0.89 of the large-GEMM rate; golden "
               "links custom-arch-moe-mla (64 experts of 1,408, top 6, no EP: 384 rows an expert) 1.17 to 1.32 s a "
               "step, deepseek-v3-pretrain-h800 (ZeRO-3, no EP: 128 rows an expert) 42.8 to 44.0 s; "
               "mixtral-8x7b-full-16xh100 (TP 8: 1,024 rows an expert, more than the hidden / tp of 512 the "
               "experts were charged at) 8.42 to 7.71 s. Dense models unchanged."},
    {.version = 23, .date = "2026-12-05",
     .change = "Routing tokens to experts and back is memory-bound time: a token's k hidden-wide copies are "
               "permuted into expert order and combined back (3 k + 1 rows; without EP x expert TP with sequence "
               "parallelism, Megatron's allgather dispatcher permuting the gathered tokens), Megatron-Core's "
               "all-to-all dispatcher with several experts a rank sorts them by local expert and back (4 k rows "
               "more, x expert TP with sequence parallelism), and DeepEP permutes the rows it receives (3 k + R, R "
               "the ranks a token reaches), in the forward, the backward and a rerun forward (token_dispatcher.py; "
               "moe_utils.permute, unpermute, sort_chunks_by_idxs).",
     .effect = "Step time of MoE scenarios up: Qwen3-30B-A3B with EP 8 on 16 H100s, the all-to-all dispatcher, "
               "0.97 s of copies a step of 512 x 4,096 tokens; golden links mixtral-8x7b-full-16xh100 (TP 8 with "
               "sequence parallelism) 7.71 to 8.04 s a step, deepseek-v3-pretrain-h800 44.01 to 44.13 s, "
               "custom-arch-moe-mla 1.32 to 1.36 s. Dense models unchanged."},
    {.version = 23, .date = "2026-12-05",
     .change = "DeepEP's network copies count a full node's experts as E / ep x its ranks, where the learned-router "
               "path took E / nodes rounded down.",
     .effect = "Only layouts whose GPUs per node do not divide ep move: GPT-OSS 20B with EP 32 on nodes of 6 GPUs, "
               "2.56 to 2.92 network copies a token. Every stored case and golden link unchanged."},
    {.version = 23, .date = "2026-12-05",
     .change = "New value hybridep of parallel.ep_dispatcher: HybridEP (Megatron-Core --moe-flex-dispatcher-backend "
               "hybridep, torchtitan expert_parallel_comm_backend hybridep) sends DeepEP's copies and holds SMs as "
               "DeepEP does, but its dispatch and combine kernels place the rows in expert order, so no permutation "
               "copies run on the compute stream; deepep now stands for DeepEP alone.",
     .effect = "Only scenarios that choose hybridep differ from deepep: Qwen3-30B-A3B with EP 8 on 16 H100s, no "
               "token copies where DeepEP has 29.3 rows a token and block."},
    {.version = 24, .date = "2026-12-05",
     .change = "Pipeline sends and receives overlapped with computation in the interleaved schedule "
               "(parallel.pp_comm_overlap, link code po; Megatron-LM --overlap-p2p-communication, its default with "
               "virtual stages, and Megatron-Bridge's and NeMo 2.0's whenever pp and vp exceed 1): in the steady "
               "state an activation transfer runs during the backward chunk after it and a gradient transfer "
               "during the forward chunk after it, each exposing only its excess over that chunk; the warm-up's and "
               "the flush's, 2 (pp - 1) + (vp - 1) pp chunks on rank 0, stay exposed "
               "(megatron/core/pipeline_parallel/schedules.py). Off, as before, every transfer is exposed, and the "
               "Megatron-LM command carries --no-overlap-p2p-communication.",
     .effect = "Scenario links: none (the field is off unless set); a link that sets it loses most of its pipeline "
               "transfer time: GPT-3 175B on 1,024 A100s, TP 8 x PP 8 x VP 4 over HDR InfiniBand, 0.225 to 0.022 s "
               "a step."},
    {.version = 25, .date = "2026-12-05",
     .change = "ZeRO-1/2's data-parallel exchange as the frameworks run it: a reduce-scatter of the gradients (in "
               "fp32 where the framework reduces so) and an all-gather of the 16-bit weights, timed apart, where "
               "both were an all-reduce of the gradients. The reduce-scatter overlaps a backward as before; the "
               "all-gather needs the optimizer step first. DeepSpeed (and Hugging Face, which shards below ZeRO-3 "
               "with it) runs the gather at the end of step() (runtime/zero/stage_1_and_2.py: 'ready for next "
               "round forward'), exposed, and with ZeRO-2 reduce-scatters every micro-batch "
               "(partition_gradients); its pipeline engine reduces only after the flush (runtime/pipe/schedule.py), "
               "all of it exposed. Megatron-Core's distributed optimizer with --overlap-param-gather (which the "
               "Megatron-LM command sets) and FSDP's prefetch hide the gather behind up to kDpOverlap x one "
               "micro-batch's forward. ZeRO-0's all-reduce is unchanged.",
     .effect = "Megatron ZeRO-1 steps with a large data-parallel share mostly get faster, DeepSpeed and Hugging Face "
               "ZeRO-1/2 steps slower: the Megatron-Core README's 32B layout (TP 8 x DP 48 on 384 H100s) 1.079 to "
               "1.021 s a step. Golden links: phi-3-mini-techniques (ZeRO-2 on two RTX 4090s) 2.681 to 2.835 s, "
               "qwen2.5-7b-full-autodl-4-cards 8.900 to 9.009 s, custom-arch-moe-mla 1.360 to 1.328 s, "
               "llama-3.1-405b-pretrain-h100 9.670 to 9.601 s, four more by under 0.3 %."},
    {.version = 26, .date = "2026-12-05",
     .change = "The scale-up link's all-reduce bus bandwidth is the share of the link's rate nccl-tests measured on "
               "it (NVLink 3 0.78, NVLink 4 0.82, NVLink 5 0.82, PCIe 5 0.44, else 0.8) times this GPU's own rate, "
               "where it was the measured figure capped at that rate: the H800's and the A800's NVLink, capped at "
               "200 GB/s, reach 163.4 and 156.6 GB/s, not 200 (100 % of the link); and network.intra_node_gb_per_s "
               "now sets the rate of an NVLink or PCIe part the catalog has a measurement for, where it was "
               "ignored (only the pcie_only_gpus warning read it).",
     .effect = "Only H800, A800 and scenarios that give network.intra_node_gb_per_s move: Llama 3.1 70B with TP 8 on "
               "8 H800s 56.3 to 60.5 s a step; golden link deepseek-v3-pretrain-h800 (ZeRO-3 over 2,048 H800s) "
               "44.13 to 53.15 s. The H100, A100, B200 and every validation figure unchanged."},
    {.version = 26, .date = "2026-12-05",
     .change = "Megatron-Core keeps its gradient buffer in the reduce dtype (distributed_data_parallel.py: grad_dtype "
               "= torch.float if grad_reduce_in_fp32 else param.dtype): with techniques.fp32_grad_reduce, which is "
               "Megatron-LM's bf16 default, 4 B a parameter, its distributed optimizer's 6 + 12/d, where the "
               "estimate counted 2. The Megatron-LM command now passes --grad-reduce-in-bf16 when the scenario "
               "reduces in bf16, so the job keeps the 2 B the estimate counts.",
     .effect = "Only Megatron scenarios with techniques.fp32_grad_reduce move: Llama 3.1 8B with ZeRO-1 on 8 H100s "
               "16.06 to 32.12 GB of gradients, 50.4 to 66.5 GB a GPU. Every golden link and validation figure "
               "unchanged (none sets it)."},
    {.version = 26, .date = "2026-12-05",
     .change = "The planner estimates a layout that Megatron-LM launches (TP, PP, CP, EP or virtual stages: its "
               "artefacts run pretrain_gpt.py) in the framework megatron when the question names none, with "
               "Megatron's defaults (fused kernels), where it kept the method's default (Hugging Face for full "
               "fine-tuning) while its artefacts launched Megatron-LM; the plan's scenario names the framework, "
               "so llmplan estimate reproduces it. A question that names a framework is estimated in it.",
     .effect = "Full fine-tuning and freeze-tuning plans with model parallelism move: the Llama 3.1 70B full "
               "fine-tune on 8 B200s (TP 4, ZeRO-3) 32.5 to 30.6 h, golden link plan-70b-deadline 28.26 to "
               "26.35 h. PEFT plans (no model parallelism) and pretraining plans (megatron already) unchanged."},
    {.version = 27, .date = "2026-12-06",
     .change = "cost.usd_per_billion_tokens divides the run's cost by the tokens its whole steps train (steps x "
               "tokens per step), where it divided by the tokens asked for: a run is a whole number of steps, and "
               "one shorter than a step pays for and trains the whole step.",
     .effect = "A run of 1,000 tokens of a Llama 3.1 8B LoRA on 8 H100s (one step of 262,144 tokens) $55,952 to "
               "$213 per 1B tokens; other runs move by at most one step's tokens (under 0.1 % for the golden "
               "links). Times, GPU-hours and costs unchanged."},
    {.version = 28, .date = "2026-12-06",
     .change = "QLoRA with framework hf recomputes every block unless parallel.recompute is given: PEFT's "
               "prepare_model_for_kbit_training turns gradient checkpointing on by default "
               "(use_gradient_checkpointing=True, peft/utils/other.py), and the QLoRA scripts that call it train "
               "with it. The default was no recomputation, which no such script runs.",
     .effect = "QLoRA scenarios without parallel.recompute and with the default framework need less memory and "
               "take longer: golden link llama-3.1-8b-qlora-4090 (2,048 tokens on an RTX 4090) 25.5 GB, does not "
               "fit, to 14.3 GB, fits; step 28.1 s to 40.0 s. Scenarios that give recompute, other methods and "
               "frameworks, and plans (the planner chooses recompute) unchanged."},
    {.version = 29, .date = "2026-12-06",
     .change = "A gated MLP (SwiGLU, GeGLU) moves two f-wide intermediates, gate and up, through the memory-bound "
               "elementwise passes where a plain MLP moves one: (h + 2 f) vectors per pass, (h + f) before. Triton "
               "FlashAttention (flash_triton) runs at kTritonAttentionRatio = 0.51 of FlashAttention-2's rate (fitted "
               "on the llm-foundry H100 rows, which ran it). The grid fit then chooses kElementwisePasses 12 (20) and "
               "kSoftmaxPasses 6 (4): fit families' median 11.6 to 3.5 %, held-out 6.3 to 7.2 %.",
     .effect = "Gated-MLP models (Llama, Qwen, Mistral, Mixtral, Gemma) take a little longer: Llama 3.1 8B LoRA on "
               "one H100 1.336 to 1.362 s a step, Qwen 2.5 7B full fine-tune on one H800 69.4 to 71.2 s. Plain-MLP "
               "models are faster: GPT-3 175B on 1,024 A100s 18.82 to 18.31 s. Memory unchanged."},
    {.version = 30, .date = "2026-12-06",
     .change = "The loss's passes over the vocabulary are timed, on the last pipeline stage, per token and entry of a "
               "GPU's vocabulary share, forward and backward: Megatron-Core's vocab-parallel cross-entropy 52 bytes, "
               "PyTorch's cross_entropy on upcast logits 48 (Hugging Face, torchtune, torchtitan, plain loops), one "
               "fused kernel 8 (torch.compile; techniques.fused_loss fused_ce: flash-attn's or Transformer Engine's), "
               "Liger 6, Cut Cross-Entropy 0. The fitted constants stay.",
     .effect = "Runs with large vocabularies against their model size take longer: Llama 3.1 8B LoRA on one H100 "
               "(Hugging Face, 128,256 entries) 1.362 to 1.396 s a step, Qwen 2.5 7B full fine-tune on one H800 "
               "71.2 to 72.5 s; Llama 3.1 70B and larger move by under 1 %. Memory unchanged, but for scenarios "
               "that set fused_ce."},
    {.version = 31, .date = "2026-12-06",
     .change = "parallel.attention_kernel flash_triton is flash-attn's Triton FlashAttention (flash_attn_triton.py; "
               "MPT's attn_impl triton) on every accelerator, at kTritonAttentionRatio of FlashAttention-2's rate (no "
               "benchmark of it is published), refitted to 0.56 (from 0.51) on the llm-foundry A100 and H100 rows, "
               "which ran it. The A100's former flash_triton rate, 0.215, timed OpenAI Triton's kernel, another one.",
     .effect = "Scenarios that name flash_triton: faster on the A100 and A800 (Llama 3.1 8B, one 8,192-token sequence "
               "a GPU on eight A100s with ZeRO-3 and full recompute, 3.55 to 3.20 s a step) and on other accelerators "
               "by up to a tenth of their attention time (the same on eight H100s 1.440 to 1.398 s). Every other "
               "kernel unchanged."},
    {.version = 32, .date = "2026-12-06",
     .change = "LoRA and QLoRA count what unmerged adapters move through memory (time.lora_adapter_s): result + "
               "lora_B(lora_A(x)) x scale reads each adapted layer's input and writes a row as wide as its output; eager "
               "PyTorch scales and adds it in kernels of their own (torch.compile fuses them); Hugging Face PEFT keeps "
               "fp32 adapters and casts x to fp32 and back, and its 4-bit layers clone the frozen output. Adapter FLOPs "
               "count the experts a token runs through; adapter parameters, dense blocks' MLPs and shared experts at "
               "their own widths.",
     .effect = "LoRA and QLoRA steps slower, most with PEFT at small ranks (golden links llama-3.1-8b-qlora-4090 "
               "40.89 to 49.22 s, llama-3.1-8b-lora-h100 1.396 to 1.527 s, qwen2.5-72b-lora-8xh100 28.18 to 33.93 s); "
               "DeepSeek-V3's rank-16 adapters 7.04 to 6.71 billion. Full training unchanged."},
    {.version = 33, .date = "2026-12-06",
     .change = "A fused gated activation (techniques.fused_kernels) saves its input, gate and up, and recomputes "
               "SiLU in backward (Megatron-Core fused_bias_swiglu.py, Liger swiglu.py): a gated MLP keeps 3 f-wide "
               "tensors a token, not 4.",
     .effect = "Less activation memory for gated-MLP models on fused kernels without full recompute (golden link "
               "llama-3.1-405b-pretrain-h100 101.6 to 87.2 GB a GPU); times move only where memory sets them."},
};
// clang-format on

namespace detail {
constexpr bool model_changes_ordered() {
  int last = 1;
  for (const ModelChange& c : kModelChanges) {
    if (c.version < last || c.version > kModelVersion) return false;
    last = c.version;
  }
  return last == kModelVersion;
}
}  // namespace detail
static_assert(detail::model_changes_ordered(),
              "kModelChanges: versions from 1, oldest first, the last one kModelVersion (bump both together)");

// "model N (DATE): CHANGE — EFFECT" for every change after model `version`, oldest first; none
// when `version` is the current model or newer.
std::vector<std::string> model_changes_since(int version);

// The "Model changes" table of docs/links.md with its BEGIN/END markers.
std::string model_changes_markdown();

// `text` with the block between its model-changes markers replaced by model_changes_markdown(),
// or nullopt when it has no such block.
std::optional<std::string> with_model_changes_markdown(std::string_view text);

}  // namespace llmplan
