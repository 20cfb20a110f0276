// layouts.hpp: the parallel layouts a search tries, with one set of ranges for the planner and
// the validation, and the framework that runs a layout (the one the launch artefacts target).
#pragma once
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "llmplan/estimate.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Layout {
  int tp = 1, pp = 1, zero = 0, micro_batch = 1;
  Recompute recompute = Recompute::none;
  Offload offload = Offload::none;
  int cp = 1, ep = 1, vp = 1;  // context parallel, expert parallel (inside DP), virtual stages per rank
  // The scenario's techniques.activation_offload: not searched, but Megatron-LM refuses it with
  // pipeline parallelism or activation recompute, so it decides which framework runs a layout.
  bool activation_offload = false;
  // With full recompute under Megatron-LM, the blocks of each chunk that recompute (the scenario's
  // parallel.recompute_layers; 0 every block). The planner tries fewer where every block fits.
  int recompute_layers = 0;
};

// The scenario's own TP, PP, ZeRO, micro-batch, recompute, offload, CP, EP, VP and activation offload.
Layout layout_of(const Scenario& s);
// Sets them but activation offload, a technique the search does not change (and sequence
// parallelism whenever TP > 1).
void apply_layout(const Layout& l, Scenario& s);
// What CP, EP and VP add to "TP t x PP p x DP d": " x CP c" when cp > 1, then ", EP e" and ", VP v"
// when above 1; "" for a layout without them (the planner's reasons and the app's labels).
std::string layout_extra_text(const Layout& l);
// The layout's recompute in a layout line: "full", and with partial recompute "full (25 blocks of
// each chunk)".
std::string recompute_text(const Layout& l);

//-----------------------------------------------------------------------------
// Which framework runs a layout
//-----------------------------------------------------------------------------

// none: no framework of the launch artefacts runs the layout (the planner rejects it as "software").
enum class Framework { none, deepspeed, fsdp, megatron };
const char* to_string(Framework f);  // "none" | "deepspeed" | "fsdp" | "megatron"

struct FrameworkChoice {
  Framework framework = Framework::none;
  const char* reason = "";  // one sentence: why this framework, or why none runs the layout
};

// Without model parallelism: torch FSDP for ZeRO-3 without offload, else DeepSpeed (ZeRO 0-3,
// CPU offload). With TP, PP, CP, EP or VP: Megatron-LM, or none (see megatron_runs).
FrameworkChoice framework_for(const Layout& layout, const ModelArch& model, Method method);
// Whether Megatron-LM runs the layout: full training only (PEFT and freeze-tuning run in
// Hugging Face PEFT / Trainer), TP dividing the KV heads, no offload, ZeRO-1 (distributed
// optimizer) or ZeRO-3 without PP or EP (torch FSDP2; Megatron-LM's arguments.py refuses
// --use-torch-fsdp2 with pipeline or expert parallelism), and activation offload only without PP
// and without recompute (TransformerConfig refuses --cpu-offloading with either). Also true of some layouts
// framework_for gives to DeepSpeed or FSDP: the launch artefacts then add Megatron arguments as an alternative.
bool megatron_runs(const Layout& layout, const ModelArch& model, Method method);
// The rules by which Megatron-LM refuses a layout, in the order they are tested. A refused
// layout's FrameworkChoice::reason (and so the unsupported_layout warning's rule) is one of these
// texts, which lets the app show each rule in its own language (match them by text: a literal's
// address may differ between translation units).
inline constexpr const char* kMegatronRefusals[] = {
    "PEFT and freeze-tuning run in Hugging Face PEFT / Trainer, which has no tensor or pipeline parallelism",
    "Megatron-LM splits the KV heads over TP: TP must divide them",
    "Megatron-LM has no CPU offload of optimizer states",
    "Megatron-LM has no per-operator checkpointing (torchtitan's selective_ac_option \"op\")",
    "Megatron-LM shards with ZeRO-1 (distributed optimizer) or ZeRO-3 without PP (torch FSDP2) only",
    "Megatron-LM runs torch FSDP2 (ZeRO-3) without expert parallelism only",
    "Megatron-LM offloads activations (--cpu-offloading) without pipeline parallelism only",
    "Megatron-LM offloads activations (--cpu-offloading) without activation recompute only",
};
// Each rule's id, in the same order: the unsupported_layout warning's JSON `rule_id` (a public
// contract, like the warning codes), by which a page words the rule in its own language.
inline constexpr const char* kMegatronRefusalIds[] = {
    "peft_without_model_parallel",
    "tp_divides_kv_heads",
    "no_optimizer_offload",
    "no_per_op_checkpointing",
    "zero_stage",
    "fsdp_without_ep",
    "activation_offload_without_pp",
    "activation_offload_without_recompute",
};
static_assert(std::size(kMegatronRefusalIds) == std::size(kMegatronRefusals));
// No framework runs QLoRA where bitsandbytes has no NF4 kernels (runs_qlora): the planner leaves such
// offerings out ("software") and the estimate warns unsupported_layout with this rule.
inline constexpr const char* kQloraVendorRule = "QLoRA's NF4 kernels (bitsandbytes) run on NVIDIA and AMD GPUs only";
inline constexpr const char* kQloraVendorRuleId = "qlora_on_nvidia_or_amd";
// The id of the rule whose text is `rule` (kMegatronRefusals, kQloraVendorRule); "" for any other text.
const char* layout_rule_id(const char* rule);
// Whether torchtitan runs the scenario's layout (its job config can say so): full training without
// offload (of optimizer states or of activations), expert parallelism over FSDP-sharded data
// parallelism (launch.cpp writes the config).
bool torchtitan_runs(const Scenario& s);

//-----------------------------------------------------------------------------
// The search space
//-----------------------------------------------------------------------------

// The ranges every layout search uses. TP: divisors of the heads up to the GPUs of one node;
// CP: powers of two whose 2 x cp divides the sequence, for long sequences (kContextParallelMinSeqLen)
// or when nothing fits without it; PP: divisors of the layers; VP: divisors of the layers per
// stage when PP > 1; EP: divisors of the experts that divide DP, for MoE models; ZeRO 0-3 (0 only
// without data parallelism: nothing to shard).
inline constexpr int kMaxZeroStage = 3;
// Sequences from this length are searched with context parallelism too (Llama 3 trains its 128K
// stage with CP 16 and its 8K stage without; Llama 3 paper §3.3.2).
inline constexpr int kContextParallelMinSeqLen = 16384;
inline constexpr Offload kOffloads[] = {Offload::none, Offload::cpu};  // CPU offload needs ZeRO >= 1
inline constexpr Recompute kRecomputes[] = {Recompute::none, Recompute::selective, Recompute::full};
inline constexpr int kMicroBatches[] = {1, 2, 4, 8, 16, 32};

// What the layouts depend on: the model, the method, the cluster's size and the global batch.
struct LayoutSpace {
  const ModelArch* model = nullptr;
  Method method = Method::pretrain;
  int gpus = 1;
  int gpus_per_node = 1;
  int global_batch = 1;  // sequences per step; every layout keeps it
  int seq_len = 4096;
  // Context-parallel sizes searched: cp in [min_cp, max_cp] (powers of two). layout_space gives
  // 1..gpus from kContextParallelMinSeqLen tokens, else 1..1; the planner asks for 2..gpus when
  // no layout without CP fits.
  int min_cp = 1, max_cp = 1;
  bool activation_offload = false;  // the scenario's: every layout carries it (Layout::activation_offload)
};
LayoutSpace layout_space(const Scenario& s);  // of the scenario's model, method, cluster and global batch

struct LayoutEnumeration {
  // Layouts that divide evenly and that a framework runs, in a fixed order: TP, CP, PP, VP, EP,
  // ZeRO, offload, recompute, micro-batch, each ascending (the order above). Micro-batch is the
  // innermost range, so a caller can skip larger micro-batches once one runs out of memory.
  std::vector<Layout> layouts;
  // Rejected before estimating (the planner's counted reasons):
  std::uint64_t divisibility = 0;  // (TP, CP, PP) triples whose product does not divide the GPUs
  std::uint64_t software = 0;      // layouts no framework runs (framework_for: none)
  std::uint64_t batch = 0;         // micro-batch x DP does not divide the global batch, or with VP > 1
                                   // the micro-batches per step are not a multiple of PP (Megatron-LM)
};
LayoutEnumeration enumerate_layouts(const LayoutSpace& space);

// Same TP, CP, PP, VP, EP, ZeRO and offload: the layouts differ only in recompute and micro-batch.
bool same_but_recompute(const Layout& a, const Layout& b);
// ... and the same recompute: they differ only in the micro-batch.
bool same_but_micro_batch(const Layout& a, const Layout& b);

// Whether an estimated layout fits: in GPU memory and, with CPU offload, in host RAM (what moved
// there within 80 % of the node's RAM; an unknown RAM is not assumed to suffice).
bool layout_fits(const Scenario& s, const EstimateResult& r);
// The same from the memory estimate alone.
bool memory_fits(const Scenario& s, const MemoryResult& m);

}  // namespace llmplan
