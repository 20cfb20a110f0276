// layouts.cpp: the layout search space (planner and validation) and the framework rule the
// planner and the launch artefacts share.
//
// [SECTION] Which framework runs a layout
// [SECTION] The search space
#include "llmplan/layouts.hpp"

#include <algorithm>
#include <iterator>

namespace llmplan {

Layout layout_of(const Scenario& s) {
  const Parallel& x = s.parallel;
  return {x.tp, x.pp, x.zero, s.micro_batch, x.recompute, x.offload};
}

// Sequence parallelism comes with TP: it shards the activations TP leaves replicated, and its
// reduce-scatter + all-gather move what TP's all-reduce moved (Korthikanti et al. 2022,
// arXiv 2205.05198, §4.2.2).
void apply_layout(const Layout& l, Scenario& s) {
  Parallel& x = s.parallel;
  x.tp = l.tp;
  x.pp = l.pp;
  x.zero = l.zero;
  x.offload = l.offload;
  x.recompute = l.recompute;
  x.sequence_parallel = l.tp > 1;
  s.micro_batch = l.micro_batch;
}

//-----------------------------------------------------------------------------
// [SECTION] Which framework runs a layout
//-----------------------------------------------------------------------------

namespace {

bool model_parallel(const Layout& l) { return l.tp > 1 || l.pp > 1; }

bool peft_or_freeze(Method m) { return m == Method::lora || m == Method::qlora || m == Method::freeze; }

int kv_heads_of(const ModelArch& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }

// Why Megatron-LM does not run the layout; nullptr when it does.
const char* megatron_refusal(const Layout& l, const ModelArch& m, Method method) {
  if (peft_or_freeze(method))
    return "PEFT and freeze-tuning run in Hugging Face PEFT / Trainer, which has no tensor or pipeline parallelism";
  if (kv_heads_of(m) % l.tp != 0) return "Megatron-LM splits the KV heads over TP: TP must divide them";
  if (l.offload != Offload::none) return "Megatron-LM has no CPU offload of optimizer states";
  // DeepSpeed refuses ZeRO-2/3 with pipeline parallelism too (deepspeed/runtime/pipe/engine.py,
  // PipelineEngine: "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism").
  if (l.zero == 2 || (l.zero == 3 && l.pp > 1))
    return "Megatron-LM shards with ZeRO-1 (distributed optimizer) or ZeRO-3 without PP (torch FSDP2) only";
  return nullptr;
}

}  // namespace

const char* to_string(Framework f) {
  static const char* names[] = {"none", "deepspeed", "fsdp", "megatron"};
  return names[static_cast<int>(f)];
}

bool megatron_runs(const Layout& l, const ModelArch& m, Method method) {
  return megatron_refusal(l, m, method) == nullptr;
}

FrameworkChoice framework_for(const Layout& l, const ModelArch& m, Method method) {
  if (!model_parallel(l)) {
    if (l.zero == 3 && l.offload == Offload::none)
      return {Framework::fsdp, "data parallel with ZeRO-3 sharding: torch FSDP (FULL_SHARD)"};
    return {Framework::deepspeed, "data parallel without model parallelism: DeepSpeed ZeRO (stages 0-3, CPU offload)"};
  }
  if (const char* why = megatron_refusal(l, m, method)) return {Framework::none, why};
  return {Framework::megatron, "tensor or pipeline parallelism: Megatron-LM"};
}

//-----------------------------------------------------------------------------
// [SECTION] The search space
//-----------------------------------------------------------------------------

LayoutSpace layout_space(const Scenario& s) {
  return {&s.model, s.method, s.cluster.gpus, s.cluster.gpus_per_node, s.effective_global_batch()};
}

bool same_but_micro_batch(const Layout& a, const Layout& b) {
  return a.tp == b.tp && a.pp == b.pp && a.zero == b.zero && a.offload == b.offload && a.recompute == b.recompute;
}

namespace {

constexpr std::uint64_t kRecomputeCount = std::size(kRecomputes);
constexpr std::uint64_t kMicroBatchCount = std::size(kMicroBatches);

// The recompute x micro-batch layouts of one (TP, PP, ZeRO, offload) that keep the global batch.
void add_batches(Layout l, int dp, int global_batch, LayoutEnumeration& out) {
  for (Recompute rc : kRecomputes) {
    for (int mb : kMicroBatches) {
      if (global_batch % (mb * dp) != 0) {
        ++out.batch;
        continue;
      }
      l.recompute = rc;
      l.micro_batch = mb;
      out.layouts.push_back(l);
    }
  }
}

// ZeRO shards over data parallelism: with DP 1 there is nothing to shard, so only ZeRO-0.
void add_sharding(int tp, int pp, const LayoutSpace& sp, LayoutEnumeration& out) {
  const int dp = sp.gpus / (tp * pp);
  for (int zero = 0; zero <= kMaxZeroStage; ++zero) {
    if (dp == 1 && zero > 0) continue;
    for (Offload off : kOffloads) {
      if (off != Offload::none && zero == 0) continue;
      const Layout l{tp, pp, zero, 1, Recompute::none, off};
      if (framework_for(l, *sp.model, sp.method).framework == Framework::none) {
        out.software += kRecomputeCount * kMicroBatchCount;
        continue;
      }
      add_batches(l, dp, sp.global_batch, out);
    }
  }
}

}  // namespace

bool layout_fits(const Scenario& s, const EstimateResult& r) {
  if (!r.memory.fits) return false;
  if (s.parallel.offload != Offload::cpu) return true;
  const double host_bytes = s.cluster.node_ram_gb * 1e9;
  return host_bytes > 0 && r.memory.cpu_offload_bytes_per_node <= 0.8 * host_bytes;
}

LayoutEnumeration enumerate_layouts(const LayoutSpace& sp) {
  LayoutEnumeration out;
  const ModelArch& m = *sp.model;
  for (int tp = 1; tp <= std::min(sp.gpus, sp.gpus_per_node); ++tp) {
    if (m.heads % tp != 0) continue;  // not a layout: TP splits the heads
    for (int pp = 1; pp <= m.layers && tp * pp <= sp.gpus; ++pp) {
      // Uneven stages are layouts too (Megatron-LM's first and last stages take the remainder), as
      // long as no stage is left empty.
      if (!pipeline_split(m.layers, pp).ok) continue;
      if (sp.gpus % (tp * pp) != 0) {
        ++out.divisibility;
        continue;
      }
      add_sharding(tp, pp, sp, out);
    }
  }
  return out;
}

}  // namespace llmplan
