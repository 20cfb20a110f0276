// layouts.cpp: the layout search space (planner and validation) and the framework rule the
// planner and the launch artefacts share.
//
// [SECTION] Which framework runs a layout
// [SECTION] The search space
#include "llmplan/layouts.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace llmplan {

Layout layout_of(const Scenario& s) {
  const Parallel& x = s.parallel;
  return {x.tp,
          x.pp,
          x.zero,
          s.micro_batch,
          x.recompute,
          x.offload,
          x.cp,
          x.ep,
          x.vp,
          s.techniques.activation_offload,
          x.recompute_layers};
}

std::string recompute_text(const Layout& l) {
  std::string out = to_string(l.recompute);
  if (l.recompute_layers > 0) out += " (" + std::to_string(l.recompute_layers) + " blocks of each chunk)";
  return out;
}

std::string layout_extra_text(const Layout& l) {
  std::string out;
  if (l.cp > 1) out += " x CP " + std::to_string(l.cp);
  if (l.ep > 1) out += ", EP " + std::to_string(l.ep);
  if (l.vp > 1) out += ", VP " + std::to_string(l.vp);
  return out;
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
  x.recompute_layers = l.recompute == Recompute::full ? l.recompute_layers : 0;
  s.recompute_given = true;  // the layout's, whatever the framework's default
  x.sequence_parallel = l.tp > 1;
  x.cp = l.cp;
  x.ep = l.ep;
  x.vp = l.vp;
  // A planned layout runs the step's micro-batches in one pipeline schedule, as its torchtitan job
  // config sets (local_batch_size = global / data-parallel size): flushes are a recipe's choice.
  x.pp_flushes = 1;
  s.micro_batch = l.micro_batch;
  // Recomputing the first N blocks of a chunk of fewer recomputes them all.
  x.recompute_layers = std::min(x.recompute_layers, most_chunk_layers(s));
  // A scenario that names no framework is estimated in the one its launch artefacts run where that
  // is Megatron-LM (launch.cpp: pretrain_gpt.py for TP, PP, CP, EP and virtual stages), else in its
  // method's default (Hugging Face Trainer for the fine-tunes, whose train.py the others launch).
  if (!s.framework_given) {
    s.framework = framework_for(l, s.model, s.method).framework == Framework::megatron ? FrameworkKind::megatron
                                                                                       : default_framework(s.method);
    apply_framework_defaults(s);
  }
  // Megatron-LM's --recompute-method block, which freeze-tuning's frozen first blocks would waste.
  if (s.framework != FrameworkKind::megatron || s.method == Method::freeze) x.recompute_layers = 0;
}

//-----------------------------------------------------------------------------
// [SECTION] Which framework runs a layout
//-----------------------------------------------------------------------------

namespace {

bool model_parallel(const Layout& l) { return l.tp > 1 || l.pp > 1 || l.cp > 1 || l.ep > 1 || l.vp > 1; }

bool peft_or_freeze(Method m) { return m == Method::lora || m == Method::qlora || m == Method::freeze; }

int kv_heads_of(const ModelArch& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }

// Why Megatron-LM does not run the layout; nullptr when it does.
const char* megatron_refusal(const Layout& l, const ModelArch& m, Method method) {
  if (peft_or_freeze(method)) return kMegatronRefusals[0];
  if (kv_heads_of(m) % l.tp != 0) return kMegatronRefusals[1];
  if (l.offload != Offload::none) return kMegatronRefusals[2];
  if (l.recompute == Recompute::selective_op) return kMegatronRefusals[3];
  // DeepSpeed refuses ZeRO-2/3 with pipeline parallelism too (deepspeed/runtime/pipe/engine.py,
  // PipelineEngine: "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism").
  if (l.zero == 2 || (l.zero == 3 && l.pp > 1)) return kMegatronRefusals[4];
  // megatron/training/arguments.py: "--use-torch-fsdp2 is not supported with expert parallelism".
  if (l.zero == 3 && l.ep > 1) return kMegatronRefusals[5];
  // megatron/core/transformer/transformer_config.py (TransformerConfig.__post_init__): "Currently
  // there is no support for Pipeline parallelism with CPU offloading", and "CPU offloading does not
  // work when activation recomputation is enabled".
  if (l.activation_offload && l.pp > 1) return kMegatronRefusals[6];
  if (l.activation_offload && l.recompute != Recompute::none) return kMegatronRefusals[7];
  return nullptr;
}

}  // namespace

const char* to_string(Framework f) {
  static const char* names[] = {"none", "deepspeed", "fsdp", "megatron"};
  return names[static_cast<int>(f)];
}

const char* layout_rule_id(const char* rule) {
  // By text, not by address: a string literal's address differs between translation units when
  // the compiler does not merge them (AddressSanitizer gives each its own redzoned copy).
  for (size_t i = 0; i < std::size(kMegatronRefusals); ++i)
    if (std::strcmp(rule, kMegatronRefusals[i]) == 0) return kMegatronRefusalIds[i];
  if (std::strcmp(rule, kQloraVendorRule) == 0) return kQloraVendorRuleId;
  return "";
}

bool megatron_runs(const Layout& l, const ModelArch& m, Method method) {
  return megatron_refusal(l, m, method) == nullptr;
}

// Whether torchtitan runs the layout: full training without offload; expert parallelism only
// over FSDP-sharded data parallelism with cp <= ep, borrowing the TP ranks too when experts are
// not tensor-parallel (torchtitan/config/job_config.py, Parallelism: expert_parallel_degree
// borrows from dp_shard x cp, and from tp when expert_tensor_parallel_degree is 1, the only
// other value being tp).
bool torchtitan_runs(const Scenario& s) {
  const Parallel& x = s.parallel;
  if (s.is_peft() || s.method == Method::freeze || x.offload != Offload::none) return false;
  // Its only offload is FSDP's of parameters, gradients and optimizer states (Training.enable_cpu_offload):
  // it has no activation offload.
  if (s.techniques.activation_offload) return false;
  const int etp = x.expert_tp();
  const int borrowed = s.dp() * x.cp * (etp == 1 ? x.tp : 1);
  if (x.ep > 1 && (x.zero == 0 || x.ep < x.cp || (etp != 1 && etp != x.tp) || x.ep > borrowed)) return false;
  return true;
}

FrameworkChoice framework_for(const Layout& l, const ModelArch& m, Method method) {
  if (!model_parallel(l)) {
    if (l.zero == 3 && l.offload == Offload::none)
      return {Framework::fsdp, "data parallel with ZeRO-3 sharding: torch FSDP (FULL_SHARD)"};
    return {Framework::deepspeed, "data parallel without model parallelism: DeepSpeed ZeRO (stages 0-3, CPU offload)"};
  }
  if (const char* why = megatron_refusal(l, m, method)) return {Framework::none, why};
  return {Framework::megatron, "tensor, pipeline, context or expert parallelism: Megatron-LM"};
}

//-----------------------------------------------------------------------------
// [SECTION] The search space
//-----------------------------------------------------------------------------

LayoutSpace layout_space(const Scenario& s) {
  LayoutSpace sp{&s.model, s.method, s.cluster.gpus, s.cluster.gpus_per_node, s.effective_global_batch(), s.seq_len};
  sp.activation_offload = s.techniques.activation_offload;
  if (s.seq_len >= kContextParallelMinSeqLen) sp.max_cp = s.cluster.gpus;
  return sp;
}

bool same_but_recompute(const Layout& a, const Layout& b) {
  return a.tp == b.tp && a.pp == b.pp && a.zero == b.zero && a.offload == b.offload && a.cp == b.cp && a.ep == b.ep &&
         a.vp == b.vp;
}

bool same_but_micro_batch(const Layout& a, const Layout& b) {
  return same_but_recompute(a, b) && a.recompute == b.recompute && a.recompute_layers == b.recompute_layers;
}

namespace {

constexpr std::uint64_t kRecomputeCount = std::size(kRecomputes);
constexpr std::uint64_t kMicroBatchCount = std::size(kMicroBatches);

// The recompute x micro-batch layouts of one (TP, CP, PP, VP, EP, ZeRO, offload) that keep the
// global batch; the interleaved schedule also needs the micro-batches per step to be a multiple of PP.
void add_batches(Layout l, int dp, const LayoutSpace& sp, LayoutEnumeration& out) {
  for (Recompute rc : kRecomputes) {
    l.recompute = rc;
    // Recompute is the one rule (with activation offload) that the sharding loop cannot test.
    if (rc != Recompute::none && l.activation_offload &&
        framework_for(l, *sp.model, sp.method).framework == Framework::none) {
      out.software += kMicroBatchCount;
      continue;
    }
    for (int mb : kMicroBatches) {
      if (sp.global_batch % (mb * dp) != 0 || (l.vp > 1 && (sp.global_batch / (mb * dp)) % l.pp != 0)) {
        ++out.batch;
        continue;
      }
      l.micro_batch = mb;
      out.layouts.push_back(l);
    }
  }
}

// ZeRO shards over data parallelism (with CP, over DP x CP as Megatron-LM's distributed
// optimizer does): with DP x CP 1 there is nothing to shard, so only ZeRO-0.
void add_sharding(Layout base, const LayoutSpace& sp, LayoutEnumeration& out) {
  const int dp = sp.gpus / (base.tp * base.cp * base.pp);
  for (int zero = 0; zero <= kMaxZeroStage; ++zero) {
    if (dp * base.cp == 1 && zero > 0) continue;
    for (Offload off : kOffloads) {
      if (off != Offload::none && zero == 0) continue;
      Layout l = base;
      l.zero = zero;
      l.offload = off;
      if (framework_for(l, *sp.model, sp.method).framework == Framework::none) {
        out.software += kRecomputeCount * kMicroBatchCount;
        continue;
      }
      add_batches(l, dp, sp, out);
    }
  }
}

}  // namespace

bool layout_fits(const Scenario& s, const EstimateResult& r) { return memory_fits(s, r.memory); }

bool memory_fits(const Scenario& s, const MemoryResult& m) {
  if (!m.fits) return false;
  if (s.parallel.offload != Offload::cpu) return true;
  const double host_bytes = s.cluster.node_ram_gb * 1e9;
  return host_bytes > 0 && m.cpu_offload_bytes_per_node <= 0.8 * host_bytes;
}

LayoutEnumeration enumerate_layouts(const LayoutSpace& sp) {
  LayoutEnumeration out;
  const ModelArch& m = *sp.model;
  for (int tp = 1; tp <= std::min(sp.gpus, sp.gpus_per_node); ++tp) {
    if (m.heads % tp != 0) continue;  // not a layout: TP splits the heads
    for (int cp = 1; cp <= sp.max_cp && tp * cp <= sp.gpus; cp *= 2) {
      // Not a layout: load-balanced ring attention gives each CP rank 2 of 2 cp equal chunks.
      if (cp < sp.min_cp || (cp > 1 && sp.seq_len % (2 * cp) != 0)) continue;
      for (int pp = 1; pp <= m.layers && tp * cp * pp <= sp.gpus; ++pp) {
        // Uneven stages are layouts too (Megatron-LM's first and last stages take the remainder), as
        // long as no stage is left empty.
        const PipelineSplit split = pipeline_split(m.layers, pp);
        if (!split.ok) continue;
        if (sp.gpus % (tp * cp * pp) != 0) {
          ++out.divisibility;
          continue;
        }
        const int dp = sp.gpus / (tp * cp * pp);
        for (int vp = 1; vp <= (pp > 1 ? split.middle : 1); ++vp) {
          // The search keeps to chunks of equal length (vp_divides_stages); a scenario may give any VP up
          // to the smallest stage's layers, its bubble then following the longest chunk.
          if (vp > 1 && !vp_divides_stages(split, pp, vp)) continue;
          for (int ep = 1; ep <= (m.is_moe() ? std::min(dp, m.experts) : 1); ++ep) {
            if (m.experts % ep != 0 || dp % ep != 0) continue;  // not a layout: EP splits experts and DP
            Layout l;
            l.tp = tp;
            l.pp = pp;
            l.cp = cp;
            l.vp = vp;
            l.ep = ep;
            l.activation_offload = sp.activation_offload;
            add_sharding(l, sp, out);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace llmplan
