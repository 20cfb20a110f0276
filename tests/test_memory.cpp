// Per-GPU memory: ZeRO paper Figure 1, Korthikanti et al. 2022 Table 2 terms, and whole-GPU
// cases whose every term is computed by hand next to the assertion.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/performance.hpp"

using namespace llmplan;

TEST_SUITE("ZeRO model states") {
  // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, Nd = 64, K = 12 (mixed-precision Adam).
  const double psi = 7.5e9;
  const StateBytesPerParam adam = state_bytes_per_param(Precision::bf16, Optimizer::adamw);

  TEST_CASE("baseline (2+2+K)Ψ = 120 GB") {
    CHECK(model_state_bytes(psi, adam, 64, 0).total() == doctest::Approx(120e9));
  }
  TEST_CASE("ZeRO-1: 2Ψ + 2Ψ + KΨ/Nd = 31.4 GB") {
    CHECK(model_state_bytes(psi, adam, 64, 1).total() == doctest::Approx(31.40625e9));
  }
  TEST_CASE("ZeRO-2: 2Ψ + (2+K)Ψ/Nd = 16.6 GB") {
    CHECK(model_state_bytes(psi, adam, 64, 2).total() == doctest::Approx(16.640625e9));
  }
  TEST_CASE("ZeRO-3: (2+2+K)Ψ/Nd = 1.9 GB") {
    const ModelStateBytes z3 = model_state_bytes(psi, adam, 64, 3);
    CHECK(z3.total() == doctest::Approx(1.875e9));
    CHECK(z3.weights == doctest::Approx(2 * psi / 64));
  }
  TEST_CASE("fp32 training keeps 4+4+8 bytes") {
    CHECK(model_state_bytes(1e9, state_bytes_per_param(Precision::fp32, Optimizer::adamw), 1, 0).total() ==
          doctest::Approx(16e9));
  }
}

TEST_SUITE("Korthikanti activations") {
  // GPT-3 175B shapes from Korthikanti et al. 2022 Table 3: s = 2048, h = 12288, a = 96, b = 1.
  // sbh = 2048·12288 = 25,165,824; 5as/h = 5·96·2048/12288 = 80.
  ModelArch gpt3() { return builtin_catalog().find_model("gpt3-175b")->arch; }
  ActivationShape shape(int tp, bool sp, Recompute r) {
    ActivationShape a;
    a.seq_len = 2048;
    a.micro_batch = 1;
    a.tp = tp;
    a.sequence_parallel = sp;
    a.recompute = r;
    a.flash_attention = false;
    a.dropout = true;
    a.element_bytes = 2;
    return a;
  }

  TEST_CASE("no parallelism: sbh(34 + 5as/h) = sbh·114") {
    CHECK(activation_bytes_per_layer(gpt3(), shape(1, false, Recompute::none)) == 2868903936.0);
  }
  TEST_CASE("tensor parallel t=8: sbh(10 + 24/t + 5as/(ht)) = sbh·23") {
    CHECK(activation_bytes_per_layer(gpt3(), shape(8, false, Recompute::none)) == 578813952.0);
  }
  TEST_CASE("tensor + sequence parallel t=8: sbh(34/t + 5as/(ht)) = sbh·14.25") {
    CHECK(activation_bytes_per_layer(gpt3(), shape(8, true, Recompute::none)) == 358612992.0);
  }
  TEST_CASE("tensor + sequence parallel + selective recompute: sbh·34/t = sbh·4.25") {
    CHECK(activation_bytes_per_layer(gpt3(), shape(8, true, Recompute::selective)) == 106954752.0);
  }
  TEST_CASE("full recompute keeps the layer input: 2sbh/t with sequence parallelism") {
    CHECK(activation_bytes_per_layer(gpt3(), shape(1, false, Recompute::full)) == 50331648.0);
    CHECK(activation_bytes_per_layer(gpt3(), shape(8, true, Recompute::full)) == 6291456.0);
  }
  // Llama-2-70B's layer at s = 4096 on TP 8 with SP, FlashAttention and no dropout.
  ModelArch llama70b() { return builtin_catalog().find_model("llama-2-70b")->arch; }
  ActivationShape llama70b_tp8_sp() {
    ActivationShape a = shape(8, true, Recompute::none);
    a.seq_len = 4096;
    a.flash_attention = true;
    a.dropout = false;
    return a;
  }

  TEST_CASE("GQA, gated MLP, FlashAttention, no dropout: Llama-2-70B, s=4096, t=8 with SP") {
    // replicated per token 2·2h + 2h + 2h = 8h = 65,536 B, /8 = 8,192
    // sharded per token 2q + 2·2kv + 2q + 4·2f = 16,384 + 4,096 + 16,384 + 229,376 = 266,240 B, /8 = 33,280
    // (8,192 + 33,280) · 4096 tokens = 169,869,312 B
    CHECK(activation_bytes_per_layer(llama70b(), llama70b_tp8_sp()) == 169869312.0);
  }
  TEST_CASE("a fused gated activation keeps its input, not its output: Llama-2-70B, s=4096, t=8 with SP") {
    // Megatron-Core's SwiGLUFunction (megatron/core/fusions/fused_bias_swiglu.py) and Liger's
    // LigerSiLUMulFunction (src/liger_kernel/ops/swiglu.py) save_for_backward their input, gate and
    // up, and recompute SiLU in backward; the down projection keeps its GEMM input. Eager PyTorch's
    // silu keeps its input and mul both factors: gate, SiLU(gate), up and the product, 4 x 2f.
    // Fused: sharded per token 266,240 - 2 x 28,672 = 208,896 B, /8 = 26,112; + 8,192 replicated
    // = 34,304 B x 4096 tokens = 140,509,184 B (the unfused 169,869,312 B above less 2f x 4096 / 8).
    ActivationShape a = llama70b_tp8_sp();
    a.fused_gated_activation = true;
    CHECK(activation_bytes_per_layer(llama70b(), a) == 140509184.0);
    // A plain GeLU MLP keeps the GeLU input and output either way (GPT-3 175B as above).
    ActivationShape g = shape(8, true, Recompute::none);
    g.fused_gated_activation = true;
    CHECK(activation_bytes_per_layer(gpt3(), g) == 358612992.0);
    // The scenario field: framework megatron fuses by default, Hugging Face does not.
    const ScenarioParse fused =
        parse_scenario(R"({"model": {"preset": "llama-2-70b"}, "framework": "megatron"})", builtin_catalog());
    const ScenarioParse eager =
        parse_scenario(R"({"model": {"preset": "llama-2-70b"}, "framework": "hf"})", builtin_catalog());
    REQUIRE(fused.scenario);
    REQUIRE(eager.scenario);
    CHECK(activation_shape(*fused.scenario).fused_gated_activation);
    CHECK_FALSE(activation_shape(*eager.scenario).fused_gated_activation);
    // With the other kernels fused, an eager activation (nanotron's GLUActivation: self.act(gate) * up)
    // keeps what eager PyTorch keeps.
    const ScenarioParse nanotron = parse_scenario(
        R"({"model": {"preset": "llama-2-70b"}, "framework": "megatron", "techniques": {"eager_activation": true}})",
        builtin_catalog());
    REQUIRE(nanotron.scenario);
    CHECK_FALSE(activation_shape(*nanotron.scenario).fused_gated_activation);
  }
  TEST_CASE(
      "torchtitan's tensor parallelism keeps the gathered QKV and MLP inputs whole: Llama-2-70B, s=4096, t=8, SP") {
    // Megatron (Korthikanti et al. 2022 §4.2.2) keeps each input's sequence shard, 2h / 8 a token,
    // and gathers it again in backward: 169,869,312 B above. torchtitan's and torchtune's plans
    // all-gather the input to Replicate() before the QKV projections and before w1/w3, and
    // autograd keeps the whole tensor: + 2 x 2h x (1 - 1/8) = 2 x 16,384 x 7/8 = 28,672 B a token,
    // x 4096 = 117,440,512 B more.
    ActivationShape a = llama70b_tp8_sp();
    a.gathered_gemm_inputs = true;
    CHECK(activation_bytes_per_layer(llama70b(), a) == 169869312.0 + 117440512.0);
    // The scenario: torchtitan and torchtune keep them gathered under TP with SP; Megatron, DeepSpeed's
    // Megatron layers and Hugging Face (whose TP plans have no sequence parallelism to shard them
    // with) do not, and without sequence parallelism nothing is sharded to begin with.
    auto gathered = [](const std::string& framework, bool sp) {
      const std::string json = R"({"model": {"preset": "llama-2-70b"}, "cluster": {"gpus": 8}, "framework": ")" +
                               framework + R"(", "parallel": {"tp": 8, "sequence_parallel": )" +
                               (sp ? "true" : "false") + "}}";
      const ScenarioParse p = parse_scenario(json, builtin_catalog());
      REQUIRE(p.scenario);
      return activation_shape(*p.scenario).gathered_gemm_inputs;
    };
    CHECK(gathered("torchtitan", true));
    CHECK(gathered("torchtune", true));
    CHECK_FALSE(gathered("torchtitan", false));
    CHECK_FALSE(gathered("megatron", true));
    CHECK_FALSE(gathered("deepspeed", true));
    CHECK_FALSE(gathered("hf", true));
  }
  TEST_CASE("with full recompute the gathered inputs live in the recomputed layer: torchtitan's Llama 3.1 70B, TP 8") {
    // torchtitan's Table 4 layout (FSDP 32 x TP 8, Float8, full activation checkpointing, 16 x 8,192
    // tokens a micro-batch): the layer being recomputed holds the two gathered inputs whole in FP8,
    // 131,072 tokens x 2 x 8,192 x 1 B x (1 - 1/8) = 1,879,048,192 B more than Megatron's shards;
    // the layers' kept inputs (the block input, sequence-sharded) are the same in both.
    auto activations = [](const std::string& framework) {
      const std::string json = R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "precision": "fp8",
          "seq_len": 8192, "micro_batch": 16, "global_batch": 512, "dropout": false,
          "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 256, "gpus_per_node": 8},
          "parallel": {"tp": 8, "pp": 1, "zero": 3, "recompute": "full", "flash_attention": true,
                       "sequence_parallel": true},
          "techniques": {"fp32_norm_inputs": true, "fused_kernels": true}, "framework": ")" +
                               framework + "\"}";
      const ScenarioParse p = parse_scenario(json, builtin_catalog());
      REQUIRE(p.scenario);
      return estimate_memory(*p.scenario, count_params(p.scenario->model), default_calibration()).per_gpu.activations;
    };
    CHECK(activations("torchtitan") - activations("megatron") == doctest::Approx(1879048192.0));
  }
  TEST_CASE("torchtitan per-operator checkpointing keeps every other matmul output: Llama 3.1 8B, 2 x 8192 tokens") {
    // torchtitan parallelize_llama.py, selective_ac_option "op": _save_list = {aten.mm, the SDPA kernels,
    // reduce_scatter}, "except every second mm". Matmuls in call order: wq (1, kept), wk (2), wv (3, kept),
    // wo (4), w1 (5, kept), w3 (6), w2 (7, kept). Per token, bf16: block input 2h + q 2 x 4096 + v 2 x 1024
    // + SDPA output 2 x 4096 and its fp32 log-sum-exp 4 x 32 heads + w1 2 x 14336 + w2 2h
    // = 8192 + 8192 + 2048 + 8192 + 128 + 28672 + 8192 = 63,616 B; x 16,384 tokens = 1,042,284,544 B.
    ActivationShape a = shape(1, false, Recompute::selective_op);
    a.seq_len = 8192;
    a.micro_batch = 2;
    a.flash_attention = true;
    a.dropout = false;
    const ModelArch m = builtin_catalog().find_model("llama-3.1-8b")->arch;
    CHECK(activation_bytes_per_layer(m, a) == 63616.0 * 16384);
    // Between the full recompute's block input (2h = 8,192 B) and no recompute's 2h x 4 + Q, K, V, O and
    // 4 f-wide tensors (8 x 4096 + 2 x (4096 + 2 x 1024 + 4096 + 4 x 14336) = 167,936 B), as it should be.
    a.recompute = Recompute::full;
    CHECK(activation_bytes_per_layer(m, a) == 8192.0 * 16384);
    a.recompute = Recompute::none;
    CHECK(activation_bytes_per_layer(m, a) == 167936.0 * 16384);
  }
}

TEST_SUITE("whole GPU") {
  Cluster cluster(int gpus, int per_node, double memory_gb) {
    Cluster c;
    c.gpus = gpus;
    c.gpus_per_node = per_node;
    c.gpu_memory_gb = memory_gb;
    return c;
  }
  Scenario llama7b() {
    Scenario s;
    s.model_preset = "llama-2-7b";
    s.model = builtin_catalog().find_model("llama-2-7b")->arch;
    s.seq_len = 4096;
    return s;
  }
  // Llama-2-7B per layer at s=4096, b=1, t=1, FlashAttention, no dropout, fused kernels (the
  // default framework's): replicated 2·2h + 2h + 2h = 32,768 B/token; sharded 2h + 4h + 2h + 6f
  // (gate, up and the down projection's input) = 98,816 B/token -> 131,584 B/token · 4096 =
  // 538,968,064 B per layer.
  const double kLayerAct = 538968064.0;
  // logits: 4096 · (2·2h + (2+4)·32000) = 4096 · 208,384 = 853,540,864 B
  const double kLogits = 853540864.0;

  TEST_CASE("ZeRO-3 over 8 GPUs shards all 16 bytes per parameter") {
    Scenario s = llama7b();
    s.cluster = cluster(8, 8, 80.0);
    s.parallel.zero = 3;
    const MemoryResult m = estimate_memory(s, count_params(s.model), default_calibration());
    CHECK(m.per_gpu.weights + m.per_gpu.gradients + m.per_gpu.optimizer == doctest::Approx(16.0 * 6738415616.0 / 8));
    CHECK(m.per_gpu.activations == doctest::Approx(32 * kLayerAct));
    CHECK(m.per_gpu.logits == doctest::Approx(kLogits));
    // gather buffer: two layers of 202,383,360 params at 2 B
    CHECK(m.per_gpu.buffers == doctest::Approx(2 * 202383360.0 * 2));
    CHECK(m.fits);
  }

  TEST_CASE("pipeline: the first stage holds p micro-batches in flight and is the most loaded") {
    Scenario s = llama7b();
    s.cluster = cluster(2, 2, 80.0);
    s.parallel.pp = 2;
    s.global_batch = 8;  // 8 micro-batches per step, 2 in flight on stage 0
    const MemoryResult m = estimate_memory(s, count_params(s.model), default_calibration());
    // stage 0: 16 layers · 202,383,360 + embedding 131,072,000 = 3,369,205,760 params · 16 B
    // activations 16 · 2 · 538,968,064; runtime 1e9 + 5 % of activations
    const double states = 3369205760.0 * 16;
    const double acts = 16 * 2 * kLayerAct;
    CHECK(m.stage == Stage::first);
    CHECK(m.per_gpu.activations == doctest::Approx(acts));
    CHECK(m.per_gpu.logits == 0.0);
    CHECK(m.per_gpu.total() == doctest::Approx(states + acts + 1e9 + 0.05 * acts));  // 73.02 GB
    CHECK(m.fits);
  }

  TEST_CASE("largest micro-batch: 14Ψ + 1 GB fixed, 1.05 · 18.10 GB per sequence, 200 GB GPU -> 5") {
    // One GPU without accumulation: its gradients come after the activation peak (off peak), so the
    // fixed part is 2Ψ weights + 12Ψ optimizer = 94,337,818,624 + 1e9; per sequence
    // (32 · 538,968,064 + 853,540,864) · 1.05 = 19,005,544,858 B;
    // (200e9 - 95,337,818,624) / 19,005,544,858 = 5.51 -> 5
    Scenario s = llama7b();
    s.cluster = cluster(1, 1, 200.0);
    const MemoryResult m = estimate_memory(s, count_params(s.model), default_calibration());
    CHECK(m.max_micro_batch == 5);
    s.cluster.gpu_memory_gb = 80.0;  // 16 B/param alone is 107.8 GB
    const MemoryResult small = estimate_memory(s, count_params(s.model), default_calibration());
    CHECK_FALSE(small.fits);
    CHECK(small.max_micro_batch == 0);
    CHECK(small.headroom_bytes == doctest::Approx(80e9 - small.per_gpu.total()));
  }

  TEST_CASE("largest micro-batch: the same 5 from whichever own micro-batch the search starts") {
    // The case above at own sizes that fit (1, 2, 3, 5) and that do not (6, 8). No global batch is
    // given, so none accumulates at any size tried and the gradients stay off the peak: at 4
    // sequences 95.34 + 4 x 19.01 = 171.4 GB fits, at 5 190.4 GB, at 6 209.4 GB does not.
    for (const int own : {1, 2, 3, 5, 6, 8}) {
      CAPTURE(own);
      Scenario s = llama7b();
      s.cluster = cluster(1, 1, 200.0);
      s.micro_batch = own;
      CHECK(estimate_memory(s, count_params(s.model), default_calibration()).max_micro_batch == 5);
    }
  }

  TEST_CASE("largest micro-batch: one GPU without a global batch never answers below a micro-batch that fits") {
    // Qwen2.5 3B full fine-tuning at 512 tokens on 51.5 GB. Below 3 sequences the gradients (6.2 GB,
    // transient without accumulation) outweigh the activations, so 1 and 2 sequences peak alike. When
    // a trial size kept the own size's global batch, 1 sequence from an own 2 accumulated twice, held
    // its gradients beside the activations and did not fit, and the search said 0 for a scenario
    // that fits. Now every own size gives the largest that fits, 3, and 4 does not.
    for (const int own : {1, 2, 3, 4}) {
      CAPTURE(own);
      const std::string json = R"({"model": {"preset": "qwen2.5-3b"}, "seq_len": 512, "micro_batch": )" +
                               std::to_string(own) +
                               R"(, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1, "gpu_memory_gb": 51.5}})";
      const ScenarioParse parsed = parse_scenario(json, builtin_catalog());
      REQUIRE(parsed.scenario);
      Scenario s = *parsed.scenario;
      const ParamCount p = count_params(s.model);
      const MemoryResult m = estimate_memory(s, p, default_calibration());
      CHECK(m.fits == (own <= 3));
      CHECK(m.max_micro_batch == 3);
      for (const int b : {3, 4}) {
        s.micro_batch = b;
        CHECK(estimate_memory(s, p, default_calibration()).fits == (b == 3));
      }
    }
  }

  TEST_CASE("largest micro-batch: a model that fits a million sequences stops at the search's cap, 2^20") {
    // One block of width 64 at one token a sequence: a sequence holds under a kilobyte, so 2^20 of
    // them fit in 80 GB; the search stops there from whichever own micro-batch it starts.
    for (const int own : {1, 3, 5}) {
      CAPTURE(own);
      const std::string json = R"({"model": {"layers": 1, "hidden": 64, "heads": 1, "ffn": 256, "vocab": 128},
          "seq_len": 1, "micro_batch": )" +
                               std::to_string(own) + R"(, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}})";
      const ScenarioParse parsed = parse_scenario(json, builtin_catalog());
      REQUIRE(parsed.scenario);
      const Scenario& s = *parsed.scenario;
      CHECK(estimate_memory(s, count_params(s.model), default_calibration()).max_micro_batch == 1 << 20);
    }
  }

  TEST_CASE("largest micro-batch: the bisection finds what a scan of whole scenarios finds") {
    // The search evaluates trial sizes without building a scenario for each; a scan builds each one
    // (micro_batch b, the global batch kept or raised to b x dp) and asks whether it fits. Cases
    // where the micro-batch reaches every term that depends on it: pipeline micro-batches in flight
    // (a fixed global batch, so fewer of bigger ones), pipeline flushes, PyTorch's ring under CP,
    // Liger's loss chunks, one GPU whose gradients leave the peak without accumulation (global batch
    // 2: from 2 sequences a micro-batch nothing accumulates, and on 75 GB the 6.2 GB of gradients
    // off the peak decide whether 3 fit). Each case was checked to fail when a trial size keeps the
    // own size's micro-batches a step or a schedule.
    const char* cases[] = {
        R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4096, "global_batch": 16,
            "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}, "parallel": {"pp": 4, "zero": 1}})",
        R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 2048, "global_batch": 64, "framework": "torchtitan",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"pp": 2, "zero": 3, "pp_flushes": 2}})",
        R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 32768, "framework": "torchtitan",
            "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"cp": 8, "zero": 3}})",
        R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048, "framework": "hf",
            "techniques": {"fused_loss": "liger"}, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1}})",
        R"({"model": {"preset": "qwen2.5-3b"}, "seq_len": 2048, "global_batch": 2,
            "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1, "gpu_memory_gb": 75}})",
    };
    for (const char* json : cases) {
      CAPTURE(json);
      const ScenarioParse parsed = parse_scenario(json, builtin_catalog());
      REQUIRE(parsed.scenario);
      const Scenario& s = *parsed.scenario;
      const ParamCount p = count_params(s.model, s.techniques.mtp_layers);
      auto fits = [&](int b) {
        Scenario trial = s;
        trial.micro_batch = b;
        // A given global batch is kept (raised to b x dp where smaller); without one none accumulates.
        trial.global_batch = s.global_batch > 0 ? std::max(s.global_batch, b * s.dp()) : 0;
        return estimate_memory(trial, p, default_calibration()).fits;
      };
      int scanned = 0;
      while (scanned < 4096 && fits(scanned + 1)) ++scanned;
      const int found = estimate_memory(s, p, default_calibration()).max_micro_batch;
      CHECK(found == scanned);
      CHECK(found >= 2);  // each case fits more than one sequence: the search has a bracket to bisect
    }
  }
}

TEST_CASE("DeepSeek-V3's first 3 dense blocks hold dense MLPs, not 257 experts: 16 B per parameter") {
  // DeepSeek-V3 technical report §4.2: 61 blocks, the first 3 with a dense MLP (ffn 18432), the
  // other 58 with 1 shared + 256 routed experts of 2048. One rank holding the whole model in mixed
  // precision with AdamW keeps 2 (bf16 weights) + 2 (gradients) + 12 (fp32 master, two moments)
  // bytes per parameter (ZeRO paper §3.1): exactly 16 x the parameter count, as for Mixtral.
  const ScenarioParse parse = parse_scenario(
      R"({"model": {"preset": "deepseek-v3"}, "method": "full", "cluster": {"gpus": 1}})", builtin_catalog());
  REQUIRE(parse.scenario);
  const Scenario& s = *parse.scenario;
  const ParamCount p = count_params(s.model);
  const MemoryResult m = estimate_memory(s, p, default_calibration());
  const MemoryBreakdown& g = m.per_gpu;
  CHECK(g.weights == doctest::Approx(2.0 * p.total));
  CHECK(g.weights + g.gradients + g.optimizer == doctest::Approx(16.0 * p.total));
}

TEST_CASE("uneven pipeline stages: Llama 3 405B on 16 stages, BLOOM on 12, DeepSeek-V3 on 16") {
  // Llama 3 paper §3.3.2: 126 blocks on 16 stages, one block fewer on the first and the last
  // (they hold the embedding and the loss): 7 + 14 x 8 + 7 = 126.
  const PipelineSplit llama = pipeline_split(126, 16);
  CHECK(llama.ok);
  CHECK(llama.first == 7);
  CHECK(llama.middle == 8);
  CHECK(llama.last == 7);
  // BLOOM (70 blocks, PP 12, BigScience): 5 + 10 x 6 + 5; DeepSeek-V3 (61 blocks, PP 16): 3 + 14 x 4 + 2.
  CHECK((pipeline_split(70, 12).first == 5 && pipeline_split(70, 12).middle == 6 && pipeline_split(70, 12).last == 5));
  CHECK((pipeline_split(61, 16).first == 3 && pipeline_split(61, 16).middle == 4 && pipeline_split(61, 16).last == 2));
  CHECK(pipeline_split(32, 8).even());
  CHECK_FALSE(pipeline_split(5, 4).ok);  // 2 + 2 + 2 would leave nothing for the last stage
  CHECK_FALSE(pipeline_split(8, 9).ok);  // more stages than blocks

  const ScenarioParse parse = parse_scenario(
      R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 8192, "global_batch": 2048, "cluster": {"gpus": 16384},
          "parallel": {"tp": 8, "pp": 16, "zero": 1, "sequence_parallel": true, "recompute": "full"}})",
      builtin_catalog());
  REQUIRE_MESSAGE(parse.scenario, parse.error.message);
  const Scenario& s = *parse.scenario;
  const MemoryResult m = estimate_memory(s, count_params(s.model), default_calibration());
  // The second stage holds 8 blocks with 15 micro-batches in flight against the first stage's 7 with
  // 16 (1F1B): 8 x 15 = 120 > 7 x 16 = 112 block-activations, so it is the busiest.
  CHECK(m.stage == Stage::middle);
  // The pipeline moves at the pace of the 8-block stages. The last stage's 7 blocks also run the logit
  // layer: V h = 128,256 x 16,384 = 2,101,346,304 parameters against a block's 3,187,671,040 matmul
  // parameters (q, o 16,384^2 each, k, v 16,384 x 1,024 each, MLP 3 x 16,384 x 53,248) + attention
  // 2 s (q + o) / 2 = 8,192 x 32,768 = 268,435,456: 0.60801 blocks, so 7.608 < 8. Average stage:
  // (126 + 0.60801) / 16 blocks.
  const double logit_blocks = 2101346304.0 / (3187671040.0 + 268435456.0);
  CHECK(logit_layer_equivalents(s, count_params(s.model)) == doctest::Approx(logit_blocks));
  CHECK(stage_imbalance(s, count_params(s.model)) == doctest::Approx(8.0 * 16 / (126 + logit_blocks)));
}

namespace {
// The loss's memory (final norm and head inputs, and what the loss holds) on the scenario's peak stage.
double loss_memory(const Scenario& s) {
  return estimate_memory(s, count_params(s.model), default_calibration()).per_gpu.logits;
}
}  // namespace

TEST_CASE("loss memory by framework: Llama 3.1 8B at 16K tokens") {
  // Llama 3.1 8B: hidden 4096, vocabulary 128,256; one sequence of 16,384 tokens, bf16, TP 1.
  // The final norm's input, 2 B x 4096 = 8,192 B per token; LoRA leaves the head frozen, so autograd
  // keeps no input for it (a full fine-tune would keep it too: 16,384 B).
  // Hugging Face Transformers (ForCausalLMLoss: logits.float(), F.cross_entropy): the saved fp32
  // log-softmax 4 B, and in backward the fp32 gradient from nll_loss 4 B and the fp32 gradient of
  // log-softmax's input 4 B: 12 B per logit (the Trainer has dropped the logits, log-softmax saved
  // its output). 16,384 x (8,192 + 12 x 128,256) = 16,384 x 1,547,264 = 25,350,373,376 B (23.6 GiB).
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 16384,
      "cluster": {"gpus": 1, "gpu_memory_gb": 1000}, "parallel": {"recompute": "full"}})";
  const ScenarioParse hf = parse_scenario(text, builtin_catalog());
  REQUIRE(hf.scenario);
  CHECK(hf.scenario->framework == FrameworkKind::hf);  // fine-tuning defaults to Hugging Face
  CHECK(loss_memory(*hf.scenario) == doctest::Approx(25350373376.0));
  // Megatron's fused vocab-parallel cross-entropy keeps the bf16 logits and one fp32 tensor (exp in
  // place): 16,384 x (8,192 + 6 x 128,256) = 16,384 x 777,728 = 12,742,295,552 B.
  Scenario mg = *hf.scenario;
  mg.framework = FrameworkKind::megatron;
  CHECK(loss_memory(mg) == doctest::Approx(12742295552.0));
  // Fused linear cross-entropy (Liger): ceil(128,256 / 4096) = 32 chunks, chunk_size =
  // next_power_of_2(ceil(16,384 / 32)) = 512 tokens of (2 + 4) B x 128,256 logits = 394,002,432 B,
  // plus both inputs, 16,384 x 16,384 = 268,435,456 B (the fused loss keeps the head's input even
  // frozen: Liger computes its gradient in the forward): 662,437,888 B.
  Scenario liger = *hf.scenario;
  liger.techniques.fused_loss = FusedLoss::liger;
  CHECK(loss_memory(liger) == doctest::Approx(662437888.0));
  // Cut Cross-Entropy (Unsloth) writes no logits, and saves the head's input to recompute them in
  // backward: both inputs, 268,435,456 B.
  Scenario cce = *hf.scenario;
  cce.techniques.fused_loss = FusedLoss::cce;
  CHECK(loss_memory(cce) == doctest::Approx(268435456.0));
  // Full fine-tuning trains the head, which keeps its input: 16,384 x 8,192 B more.
  Scenario full = *hf.scenario;
  full.method = Method::full;
  CHECK(loss_memory(full) == doctest::Approx(25350373376.0 + 134217728.0));
  // Freeze-tuning trains top blocks, not the head: as LoRA.
  Scenario freeze = *hf.scenario;
  freeze.method = Method::freeze;
  CHECK(loss_memory(freeze) == doctest::Approx(25350373376.0));
}

TEST_CASE("fused_ce: flash-attn keeps a gradient beside the logits, Transformer Engine writes it over them") {
  // Qwen3 30B-A3B on the last of 2 pipeline stages (hidden 2048, vocabulary 151,936), 8 sequences of
  // 4,096 tokens a micro-batch, bf16, TP 1, trained head: norm and head inputs 2 x 2 B x 2,048 =
  // 8,192 B a token.
  // flash-attn's CrossEntropyLoss (inplace_backward false by default) saves the 16-bit logits and
  // writes a 16-bit gradient beside them: 4 B a logit. 32,768 x (8,192 + 4 x 151,936) =
  // 32,768 x 615,936 = 20,183,187,456 B.
  const char* text = R"({"model": {"preset": "qwen3-30b-a3b"}, "framework": "fsdp", "seq_len": 4096,
      "micro_batch": 8, "global_batch": 512, "cluster": {"gpus": 16, "gpu_memory_gb": 1000},
      "parallel": {"pp": 2, "ep": 2, "zero": 1, "recompute": "full"},
      "techniques": {"fused_loss": "fused_ce"}})";
  const ScenarioParse flash = parse_scenario(text, builtin_catalog());
  REQUIRE(flash.scenario);
  CHECK(loss_memory(*flash.scenario) == doctest::Approx(20183187456.0));
  // Under Megatron (Megatron-Bridge's performance recipes: cross_entropy_fusion_impl "te") it is
  // Transformer Engine's parallel_cross_entropy: cross_entropy_backward_kernel stores the gradient
  // over the saved logits, so 2 B a logit. 32,768 x (8,192 + 2 x 151,936) = 32,768 x 312,064 =
  // 10,225,713,152 B.
  Scenario te = *flash.scenario;
  te.framework = FrameworkKind::megatron;
  CHECK(loss_memory(te) == doctest::Approx(10225713152.0));
}

TEST_CASE("torchtitan's loss parallelism under TP holds 16 bytes a logit: Llama 3.1 70B on TP 8") {
  // torchtitan's Table 4 layout: 16 sequences of 8,192 tokens a micro-batch, TP 8 with sequence
  // parallelism, loss not compiled. PyTorch's loss_parallel runs cross-entropy on the vocab shard
  // (128,256 / 8 = 16,032 logits a token) as unfused ops; its backward,
  // _nll_loss_and_log_softmax_backward, returns (zeros_like(x) + exp(x)) * grad with x the saved fp32
  // log-softmax: x, the zeros, exp(x) and their sum, 4 x 4 = 16 B a logit, where PyTorch's fused
  // log-softmax backward holds 12. 131,072 tokens x (2 x 2 x 8,192 / 8 of norm and head inputs +
  // 16 x 16,032) = 131,072 x 260,608 = 34,158,411,776 B.
  const char* text = R"({"model": {"preset": "llama-3.1-70b"}, "framework": "torchtitan", "seq_len": 8192,
      "micro_batch": 16, "global_batch": 512, "cluster": {"gpus": 256, "gpu_memory_gb": 1000},
      "parallel": {"tp": 8, "zero": 3, "sequence_parallel": true, "recompute": "full"}})";
  const ScenarioParse tt = parse_scenario(text, builtin_catalog());
  REQUIRE(tt.scenario);
  CHECK(loss_memory(*tt.scenario) == doctest::Approx(34158411776.0));
  // Without TP there is nothing to parallelise: F.cross_entropy's fused kernels, 12 B a logit,
  // 131,072 x (2 x 2 x 8,192 + 12 x 128,256) = 131,072 x 1,571,840 = 206,024,212,480 B.
  Scenario one = *tt.scenario;
  one.parallel.tp = 1;
  one.parallel.sequence_parallel = false;
  CHECK(loss_memory(one) == doctest::Approx(206024212480.0));
  // torch.compile fuses the loss (torchtitan compiles it since 2025): e + 4, 131,072 x (4,096 + 6 x
  // 16,032) = 131,072 x 100,288 = 13,144,948,736 B.
  Scenario compiled = *tt.scenario;
  compiled.techniques.compile = true;
  CHECK(loss_memory(compiled) == doctest::Approx(13144948736.0));
}

TEST_CASE("LoRA on attention only: the frozen MLP keeps no GEMM inputs") {
  // Autograd saves a matmul's input for the weight's gradient only (PyTorch's generated autograd
  // guards that saved tensor on the weight requiring grad; bitsandbytes' MatMul4Bit keeps no input
  // either). With adapters on q, k, v and o the MLP's frozen gate, up and down projections keep
  // neither the MLP's input (h) nor the down projection's (f): Llama 3.1 8B in bf16, 2 B each,
  // 2 x (4,096 + 14,336) = 36,864 B a token and layer; 2,048 tokens x 32 layers without recompute
  // = 2,415,919,104 B. Adapters on every linear layer keep those inputs themselves (lora_A's).
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
      "micro_batch": 1, "cluster": {"gpus": 1, "gpu_memory_gb": 1000}, "parallel": {"recompute": "none"}})";
  const ScenarioParse parse = parse_scenario(text, builtin_catalog());
  REQUIRE(parse.scenario);
  const Calibration cal = default_calibration();
  Scenario all = *parse.scenario;
  REQUIRE(all.lora.targets == LoraTargets::all_linear);
  Scenario attention = all;
  attention.lora.targets = LoraTargets::attention;
  const auto activations = [&cal](const Scenario& s) {
    return estimate_memory(s, count_params(s.model), cal).per_gpu.activations;
  };
  CHECK(activations(all) - activations(attention) == doctest::Approx(2415919104.0));
  // A full fine-tune keeps them as every-linear LoRA does.
  Scenario full = all;
  full.method = Method::full;
  CHECK(activation_bytes_per_layer(full.model, activation_shape(full)) ==
        doctest::Approx(activation_bytes_per_layer(all.model, activation_shape(all))));
  // Under full recompute only the recomputed layer's working set holds them: one layer's share,
  // 2,048 x 36,864 = 75,497,472 B.
  all.parallel.recompute = attention.parallel.recompute = Recompute::full;
  CHECK(activations(all) - activations(attention) == doctest::Approx(75497472.0));
}

TEST_SUITE("context, expert and virtual pipeline parallelism") {
  TEST_CASE("context parallelism divides a layer's activations by cp: Llama 3 405B at 131072 tokens, CP 16") {
    // Per token with TP 8 and sequence parallelism, FlashAttention, no dropout (Korthikanti Table 2
    // per tensor, GQA and SwiGLU): replicated 2 norm inputs + QKV and MLP inputs = 8 h = 131,072 B;
    // sharded Q, K, V 2 (16384 + 1024 + 1024) + O input 2 x 16384 + MLP (3 x 2 + 2) x 53248
    // = 495,616 B; (131,072 + 495,616) / 8 = 78,336 B per token.
    const ModelArch m = builtin_catalog().find_model("llama-3.1-405b")->arch;
    ActivationShape a;
    a.seq_len = 131072;
    a.tp = 8;
    a.sequence_parallel = true;
    a.flash_attention = true;
    a.dropout = false;
    CHECK(activation_bytes_per_layer(m, a) == 78336.0 * 131072);
    // CP 16 keeps 131072 / 16 = 8192 tokens a GPU: 78,336 x 8192 = 641,728,512 B, 1 / 16 of it.
    a.cp = 16;
    CHECK(activation_bytes_per_layer(m, a) == 641728512.0);
    // The Table 4 layout (TP 8, CP 16, PP 16, DP 8, 16 micro-batches): the second stage (8 blocks)
    // keeps min(pp - 1, m) = 15 micro-batches. Megatron's fused SwiGLU keeps gate and up, not its
    // output: 2 x 53,248 / 8 = 13,312 B less a token, 78,336 - 13,312 = 65,024 B, x 8192 tokens =
    // 532,676,608 B a layer;
    // 8 x 15 x 532,676,608 = 63,921,192,960 B.
    const ScenarioParse p = parse_scenario(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072,
        "global_batch": 128, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384},
        "parallel": {"tp": 8, "cp": 16, "pp": 16, "zero": 1, "sequence_parallel": true}})",
                                           builtin_catalog());
    REQUIRE(p.scenario);
    const MemoryResult r = estimate_memory(*p.scenario, count_params(m), default_calibration());
    CHECK(r.stage == Stage::middle);
    CHECK(r.per_gpu.activations == 63921192960.0);
  }

  TEST_CASE("PyTorch's ring holds the gathered keys and values in attention's backward: torchtitan's Table 6") {
    // torchtitan's Llama 3.1 405B layout of its Table 6 (TP 8, CP 8, PP 8, one 262,144-token
    // sequence a micro-batch, full recompute). A GPU's chunk is 262,144 / 8 = 32,768 tokens; torchtitan
    // expands the 8 key/value heads to the 128 query heads before SDPA, 16 a TP rank: keys + values
    // 32,768 x 2 x 16 x 128 = 134,217,728 elements, 268,435,456 B in bf16; the query 67,108,864
    // elements. At the end of _templated_ring_attention_backward: the 8 gathered chunks and the one
    // sent, 9 x 268,435,456 = 2,415,919,104 B; three fp32 key/value gradient chunks, 3 x 536,870,912 =
    // 1,610,612,736 B, and the bf16 copy it returns, 268,435,456 B; the fp32 query gradient and its
    // bf16 copy, 67,108,864 x 6 = 402,653,184 B. Sum 4,697,620,480 B.
    const char* text = R"({"model": {"preset": "llama-3.1-405b"}, "framework": "%s", "seq_len": %d,
        "global_batch": %d, "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 512, "gpu_memory_gb": 1000},
        "parallel": {"tp": 8, "pp": 8, "cp": %d, "zero": 3, "sequence_parallel": true, "recompute": "full"}})";
    // Eight micro-batches a step in either layout: FSDP 1 x 8 sequences, or FSDP 8 x 8.
    auto scenario = [&](const char* framework, int seq, int cp) {
      char buf[640];
      std::snprintf(buf, sizeof buf, text, framework, seq, 64 / cp, cp);
      const ScenarioParse p = parse_scenario(buf, builtin_catalog());
      REQUIRE(p.scenario);
      return *p.scenario;
    };
    const Scenario ring = scenario("torchtitan", 262144, 8);
    CHECK(pytorch_ring_bytes(ring) == 4697620480.0);
    // Megatron-Core's ring holds no such buffers, nor does a GPU without CP.
    CHECK(pytorch_ring_bytes(scenario("megatron", 262144, 8)) == 0.0);
    CHECK(pytorch_ring_bytes(scenario("torchtitan", 32768, 1)) == 0.0);
    // The first stage has no logits, so its activations grow by all of it: against CP 1 at the same
    // 32,768 tokens a GPU, which keeps the same activations otherwise.
    const Calibration cal = default_calibration();
    const ParamCount params = count_params(ring.model);
    const MemoryResult with = estimate_memory(ring, params, cal);
    const MemoryResult without = estimate_memory(scenario("torchtitan", 32768, 1), params, cal);
    REQUIRE(with.stage == Stage::first);
    REQUIRE(without.stage == Stage::first);
    CHECK(with.per_gpu.activations - without.per_gpu.activations == doctest::Approx(4697620480.0));
    // Llama 3.1 8B at 262,144 tokens with CP 8 on one node (torchtitan's Table 2): the ring holds
    // 32,768 x 2 x 32 x 128 x (10 x 2 + 12) + 32,768 x 4,096 x 6 = 9,395,240,960 B, but its logits,
    // 32,768 x (2 x 2 x 4,096 + 12 x 128,256) = 50,969,182,208 B, are larger and gone by then: the
    // peak does not move.
    const char* eight = R"({"model": {"preset": "llama-3.1-8b"}, "framework": "torchtitan", "seq_len": %d,
        "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 8}, "parallel": {"cp": %d, "zero": 3,
        "recompute": "full"}})";
    auto small = [&](int seq, int cp) {
      char buf[512];
      std::snprintf(buf, sizeof buf, eight, seq, cp);
      const ScenarioParse p = parse_scenario(buf, builtin_catalog());
      REQUIRE(p.scenario);
      return estimate_memory(*p.scenario, count_params(p.scenario->model), cal);
    };
    const MemoryResult cp8 = small(262144, 8);
    CHECK(cp8.per_gpu.logits == doctest::Approx(50969182208.0));
    CHECK(cp8.per_gpu.activations == small(32768, 1).per_gpu.activations);
  }

  TEST_CASE("expert parallelism shards the routed experts: DeepSeek-V3 with EP 64, ZeRO-1 (DeepSeek-V3 report)") {
    const char* text = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 15360,
        "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 2048}, "parallel": {"pp": 16, "ep": %d, "zero": 1}})";
    char buf[512];
    std::snprintf(buf, sizeof buf, text, 64);
    const ScenarioParse ep64 = parse_scenario(buf, builtin_catalog());
    std::snprintf(buf, sizeof buf, text, 1);
    const ScenarioParse ep1 = parse_scenario(buf, builtin_catalog());
    REQUIRE(ep64.scenario);
    REQUIRE(ep1.scenario);
    const ParamCount p = count_params(ep64.scenario->model);
    // One MoE block's routed experts: 256 x 3 x 7168 x 2048 = 11,274,289,152 parameters.
    CHECK(p.mlp_routed == 11274289152.0);
    const MemoryResult a = estimate_memory(*ep64.scenario, p, default_calibration());
    const MemoryResult b = estimate_memory(*ep1.scenario, p, default_calibration());
    REQUIRE(a.stage == Stage::middle);  // 4 MoE blocks
    REQUIRE(b.stage == Stage::middle);
    // A GPU keeps 1 / 64 of them: 16-bit weights and gradients drop by
    // 4 x 11,274,289,152 x 63 / 64 x 2 B = 88,785,027,072 B each.
    CHECK(b.per_gpu.weights - a.per_gpu.weights == doctest::Approx(88785027072.0));
    CHECK(b.per_gpu.gradients - a.per_gpu.gradients == doctest::Approx(88785027072.0));
    // ZeRO-1 shards the experts' optimizer states over the expert-data-parallel group, DP / EP =
    // 2: (routed / 64) / 2 = routed / 128, what DP 128 gives each GPU without EP.
    CHECK(a.per_gpu.optimizer == doctest::Approx(b.per_gpu.optimizer));
  }

  TEST_CASE("expert tensor parallelism: Qwen3 235B's published H100 layout, TP 2 x PP 8 x EP 32 with ETP 1") {
    // Megatron-Bridge's H100 preset (qwen3_workload_base_configs.py: expert_tensor_parallel_size 1,
    // TP 2, PP 8, EP 32 on 256 GPUs): EP 32 exceeds DP 16, and runs because Megatron-Core folds EP
    // into the TP x DP = 32 ranks of a stage when experts are not tensor-parallel.
    const char* text = R"({"model": {"preset": "qwen3-235b-a22b"}, "precision": "fp8", "seq_len": 4096,
        "global_batch": 8192, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256},
        "parallel": {"tp": 2, "pp": 8, "ep": %d, "etp": %d, "zero": 1, "sequence_parallel": true}})";
    char buf[512];
    auto parse_layout = [&](int ep, int etp) {
      std::snprintf(buf, sizeof buf, text, ep, etp);
      return parse_scenario(buf, builtin_catalog());
    };
    CHECK(parse_layout(32, 1).scenario.has_value());
    CHECK(parse_layout(32, 2).error.field == "parallel.ep");  // ETP = TP: 32 x 2 > 32 ranks
    // With EP 16, ETP 1 keeps each expert whole where ETP 2 halves it. One MoE block's routed
    // experts: 128 x 3 x 4096 x 1536 = 2,415,919,104; a GPU holds 1 / 16 or 1 / 32 of them, so the
    // first stage's 11 blocks (94 = 11 + 6 x 12 + 11) differ by 11 x 2,415,919,104 / 32 x 4 B =
    // 3,321,888,768 B of weights: the 16-bit copy's 2 B and, in FP8 under Megatron on an H100,
    // Transformer Engine's cached FP8 copy and its transpose, 2 B more (model 38).
    const ScenarioParse whole = parse_layout(16, 1);
    const ScenarioParse split = parse_layout(16, 2);
    REQUIRE(whole.scenario);
    REQUIRE(split.scenario);
    const ParamCount p = count_params(whole.scenario->model);
    CHECK(p.mlp_routed == 2415919104.0);
    const MemoryResult a = estimate_memory(*whole.scenario, p, default_calibration());
    const MemoryResult b = estimate_memory(*split.scenario, p, default_calibration());
    REQUIRE(a.stage == Stage::first);
    REQUIRE(b.stage == Stage::first);
    CHECK(a.per_gpu.weights - b.per_gpu.weights == doctest::Approx(3321888768.0));
    // The expert-data-parallel group: 256 / 8 / (16 x 1) = 2 copies with ETP 1, 1 with ETP 2.
    CHECK(whole.scenario->expert_dp() == 2);
    CHECK(split.scenario->expert_dp() == 1);
  }

  TEST_CASE("interleaved 1F1B keeps pp (1 + (pp - 1) / (pp vp)) micro-batches on the first stage") {
    // Korthikanti et al. 2022 §4.2.3; Megatron-Core's warm-up (pp - rank - 1) x 2 + (vp - 1) x pp
    // chunks plus the one in flight, each 1 / vp of the stage. GPT-3 175B, TP 8 x PP 8, m = 96:
    // vp 2: (14 + 8 + 1) / 2 = 11.5 = 8 x (1 + 7 / 16); vp 4: (14 + 24 + 1) / 4 = 9.75 = 8 x (1 + 7 / 32);
    // the last stage (rank 7): (8 + 1) / 2 = 4.5 with vp 2, 1 without.
    const char* text = R"({"model": {"preset": "gpt3-175b"}, "seq_len": 2048, "global_batch": 1536,
        "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1024},
        "parallel": {"tp": 8, "pp": 8, "vp": %d, "zero": 1, "sequence_parallel": true, "recompute": "selective"}})";
    char buf[512];
    double first_activations[3] = {};
    const int vps[] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
      std::snprintf(buf, sizeof buf, text, vps[i]);
      const ScenarioParse p = parse_scenario(buf, builtin_catalog());
      REQUIRE(p.scenario);
      const Scenario& s = *p.scenario;
      CHECK(in_flight_micro_batches(s, 0) == 8.0 * (1 + (vps[i] > 1 ? 7.0 / (8 * vps[i]) : 0.0)));
      const MemoryResult r = estimate_memory(s, count_params(s.model), default_calibration());
      REQUIRE(r.stage == Stage::first);
      first_activations[i] = r.per_gpu.activations;
    }
    CHECK(first_activations[1] == doctest::Approx(first_activations[0] * 1.4375));
    CHECK(first_activations[2] == doctest::Approx(first_activations[0] * 1.21875));
    std::snprintf(buf, sizeof buf, text, 2);
    Scenario s = parse_scenario(buf, builtin_catalog()).scenario.value();
    CHECK(in_flight_micro_batches(s, 7) == 4.5);
    // With only m = pp = 8 micro-batches a step (global batch 8 x DP 16) the first stage's
    // warm-up would pass the step's 16 chunks: it keeps all of them, 16 / 2 = 8 micro-batches.
    s.global_batch = 128;
    CHECK(s.grad_accum() == 8);
    CHECK(in_flight_micro_batches(s, 0) == 8.0);
  }
}

TEST_CASE("Hugging Face QLoRA keeps the non-4-bit parameters and the hidden states in fp32") {
  // PEFT's prepare_model_for_kbit_training casts every 16-bit parameter that is not 4-bit to fp32:
  // Llama 3.1 8B's embedding and head (2 x 128,256 x 4,096 = 1,050,673,152) and its norms
  // (32 x 2 x 4,096 + 4,096 = 266,240): 1,050,939,392 parameters at 4 B instead of 2.
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048,
      "cluster": {"gpus": 1}, "parallel": {"recompute": "full"}})";
  const ScenarioParse hf = parse_scenario(text, builtin_catalog());
  REQUIRE(hf.scenario);
  Scenario tt = *hf.scenario;
  tt.framework = FrameworkKind::torchtune;
  tt.techniques.kbit_fp32_cast = false;  // torchtune's QLoRA keeps them in bf16
  const Calibration cal = default_calibration();
  const MemoryResult a = estimate_memory(*hf.scenario, count_params(hf.scenario->model), cal);
  const MemoryResult b = estimate_memory(tt, count_params(tt.model), cal);
  CHECK(a.per_gpu.weights - b.per_gpu.weights == doctest::Approx(2.0 * 1050939392.0));
  // Full recompute keeps each block's input, the fp32 residual stream: 2,048 x 4,096 elements x 32
  // blocks at 4 B instead of 2 (+ 536,870,912 B); the recomputed block's norm inputs are fp32 too.
  CHECK(a.per_gpu.activations - b.per_gpu.activations >= 536870912.0);
  // Logits: both keep the loss's 3 fp32 copies (12 B per logit); the final norm's input is fp32
  // (4 B) with the cast and bf16 without, and the frozen head keeps none: 2,048 x (4 x 4,096 + 12 x
  // 128,256) vs 2,048 x (2 x 4,096 + 12 x 128,256).
  CHECK(a.per_gpu.logits == doctest::Approx(2048.0 * (4.0 * 4096 + 12.0 * 128256)));
  CHECK(b.per_gpu.logits == doctest::Approx(2048.0 * (2.0 * 4096 + 12.0 * 128256)));
}

TEST_CASE("FSDP with pipeline stages keeps the stage's gathered weights and accumulates unsharded gradients") {
  // torchtitan apply_fsdp: "For PP, do not reshard after forward to avoid per-microbatch
  // all-gathers"; torch.distributed.pipelining syncs FSDP gradients at the last backward only. So
  // a rank holds its stage's 16-bit weights whole, as without sharding, and the gradients they
  // accumulate, beside the sharded fp32 master and Adam states and the reduced gradients. FSDP2
  // accumulates them in the reduce dtype (FSDPParam.to_accumulated_grad_if_needed), fp32 with
  // torchtitan: 4 B each.
  // Llama 3.1 405B on 512 GPUs, TP 8 x PP 8 x FSDP 8 (torchtitan's Table 5 layout), bf16.
  const char* text = R"({"model": {"preset": "llama-3.1-405b"}, "framework": "torchtitan", "seq_len": 8192,
      "micro_batch": 4, "global_batch": 256, "cluster": {"gpus": 512, "gpu_memory_gb": 1000},
      "parallel": {"tp": 8, "pp": 8, "zero": 3, "sequence_parallel": true, "recompute": "full"}})";
  const ScenarioParse fsdp = parse_scenario(text, builtin_catalog());
  REQUIRE(fsdp.scenario);
  const Calibration cal = default_calibration();
  const ParamCount p = count_params(fsdp.scenario->model);
  const MemoryResult m = estimate_memory(*fsdp.scenario, p, cal);
  // The first stage (15 of the 126 blocks, and the vocab-parallel embedding) is the fullest. Per TP
  // rank: a block's Q, K, V, O and MLP, 16384 x (16384 + 1024 + 1024 + 16384) + 3 x 16384 x 53248
  // = 3,187,671,040, over 8, plus its two norms 32,768 (replicated): 398,491,648; x 15 =
  // 5,977,374,720, + 128,256 x 16,384 / 8 = 262,668,288 of embedding: 6,240,043,008 parameters.
  REQUIRE(m.stage == Stage::first);
  const double stage = 6240043008.0;
  CHECK(m.per_gpu.weights == doctest::Approx(2.0 * stage));                // gathered, 2 B
  CHECK(m.per_gpu.gradients == doctest::Approx(stage * (4.0 + 2.0 / 8)));  // accumulated in fp32 + reduced shard
  CHECK(m.per_gpu.optimizer == doctest::Approx(12.0 * stage / 8));         // fp32 master, m and v, sharded
  CHECK(m.per_gpu.buffers == 0.0);  // no per-block gather buffer: the weights are gathered already
  // Without pipeline stages FSDP shards the weights and gathers one block at a time.
  Scenario flat = *fsdp.scenario;
  flat.parallel.pp = 1;
  flat.cluster.gpus = 64;
  flat.global_batch = 32;
  CHECK_FALSE(keeps_gathered_weights(flat));
  CHECK(keeps_gathered_weights(*fsdp.scenario));
}

TEST_CASE("PyTorch FSDP keeps its root unit gathered from forward to backward: Liger's OOM at 4K tokens") {
  // FSDP1 does not free the root's parameters after forward (_post_forward_reshard) and FSDP2 sets
  // the root's reshard_after_forward to False: the embedding, final norm and head stay gathered
  // beside the block prefetched for backward. Llama 3 8B: a block is 4096 x (4096 + 1024 + 1024 +
  // 4096) + 3 x 4096 x 14336 + 2 x 4096 = 218,112,000 parameters (436,224,000 B in bf16); the root
  // 2 x 128,256 x 4096 + 4096 = 1,050,677,248 (2,101,354,496 B). Buffers: 436,224,000 +
  // 2,101,354,496 = 2,537,578,496 B; DeepSpeed's ZeRO-3 keeps the two blocks, 872,448,000 B.
  // Liger Kernel's README: Hugging Face, batch 8, FSDP1 on 8 A100s, "start to OOM at a 4K context".
  const char* text = R"({"model": {"preset": "llama-3-8b"}, "framework": "%s", "method": "full", "precision": "bf16",
      "pure_bf16": true, "seq_len": 4096, "micro_batch": 8, "global_batch": 64, "dropout": false,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}, "parallel": {"zero": 3, "recompute": "full"},
      "techniques": {"fp32_norm_inputs": true}})";
  char buf[1024];
  auto run = [&](const char* framework) {
    std::snprintf(buf, sizeof buf, text, framework);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration());
  };
  const MemoryResult hf = run("hf");
  const MemoryResult deepspeed = run("deepspeed");
  CHECK(hf.per_gpu.buffers == doctest::Approx(2537578496.0));
  CHECK(deepspeed.per_gpu.buffers == doctest::Approx(872448000.0));
  CHECK_FALSE(hf.fits);
}

TEST_CASE("gradient buckets: DeepSpeed ZeRO-1/2 keeps one, Megatron-LM and the BF16_Optimizer none at the peak") {
  // DeepSpeed ZeRO-1 (DeepSpeedZeroOptimizer): reduce_bucket_size 5e8 elements of bf16 gradients =
  // 1e9 B. The same with bf16 and fp32 gradient accumulation runs the BF16_Optimizer
  // (engine._do_optimizer_sanity_check), which reduces after the backward: 0 at the activation peak.
  // Megatron-LM's buckets are views of its gradient buffer (param_and_grad_buffer.py): 0.
  const char* text = R"({"model": {"preset": "llama-2-7b"}, "framework": "%s", "seq_len": 4096,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}, "parallel": {"zero": 1},
      "techniques": {"fp32_grad_reduce": %s}})";
  char buf[1024];
  auto buffers = [&](const char* framework, const char* fp32_reduce) {
    std::snprintf(buf, sizeof buf, text, framework, fp32_reduce);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration()).per_gpu.buffers;
  };
  CHECK(buffers("deepspeed", "false") == doctest::Approx(5e8 * 2));
  CHECK(buffers("deepspeed", "true") == 0.0);
  CHECK(buffers("megatron", "false") == 0.0);
  CHECK(buffers("megatron", "true") == 0.0);
}

TEST_CASE("one process without accumulation shows the component not at its peak beside it, out of the total") {
  // Llama 3.1 8B LoRA rank 16 on every linear layer: per layer r x (in + out) = 16 x (8,192 q +
  // 5,120 k + 5,120 v + 8,192 o + 18,432 gate + 18,432 up + 18,432 down) = 1,310,720; x 32 layers =
  // 41,943,040 trained parameters, 2 B of bf16 gradient each = 83,886,080 B.
  const Calibration cal = default_calibration();
  auto memory_of = [&cal](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    return estimate_memory(*p.scenario, count_params(p.scenario->model), cal).per_gpu;
  };
  const MemoryBreakdown one = memory_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
      "micro_batch": 4, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1}})");
  CHECK(one.gradients == 0);  // the activations (44 GB) are the peak
  CHECK(one.off_peak_gradients == doctest::Approx(83886080.0));
  CHECK(one.activations > one.off_peak_gradients);
  CHECK(one.total() == doctest::Approx(one.weights + one.optimizer + one.activations + one.logits + one.buffers +
                                       one.runtime));  // the off-peak gradients are not in it
  // DDP on 2 GPUs keeps persistent gradient buckets: both are at the peak, nothing off it.
  const MemoryBreakdown two = memory_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048,
      "micro_batch": 4, "global_batch": 8, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 2}})");
  CHECK(two.gradients == doctest::Approx(83886080.0));
  CHECK(two.off_peak_gradients == 0);
  CHECK(two.off_peak_activations == 0);
  // Full fine-tuning of a small model at a short sequence: the gradients (2 B x every parameter)
  // outweigh the activations, which are then shown off the peak.
  const MemoryBreakdown full = memory_of(R"({"model": {"preset": "qwen2.5-0.5b"}, "method": "full", "seq_len": 256,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1}})");
  CHECK(full.activations == 0);
  CHECK(full.logits == 0);
  CHECK(full.off_peak_activations > 0);
  CHECK(full.off_peak_activations < full.gradients);
}

TEST_CASE("activation offload keeps the layers it does not offload, and two of those it does") {
  // Llama 3.1 8B on one GPU, two micro-batches of 8,192 tokens (accumulated: the activations and
  // gradients are alive together), one in flight. Offloading the first 12 of 32 layers keeps 20
  // layers plus the one in use and the one being copied (22); offloading all keeps 2 (torchtune's
  // OffloadActivations; Megatron-LM --cpu-offloading).
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 2,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"flash_attention": true},
      "techniques": )";
  auto activations = [&](const char* techniques) {
    const ScenarioParse p = parse_scenario(std::string(base) + techniques + "}", builtin_catalog());
    REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
    const double layer = activation_bytes_per_layer(p.scenario->model, activation_shape(*p.scenario));
    return estimate_memory(*p.scenario, count_params(p.scenario->model), default_calibration()).per_gpu.activations /
           layer;
  };
  CHECK(activations(R"({"activation_offload": false})") == doctest::Approx(32));
  CHECK(activations(R"({"activation_offload": true, "activation_offload_layers": 12})") == doctest::Approx(22));
  CHECK(activations(R"({"activation_offload": true})") == doctest::Approx(2));
}

TEST_CASE("partial recompute: the first N blocks keep their input, the others everything (Megatron block method)") {
  // Llama 3.1 8B on one GPU, Megatron, two 8,192-token micro-batches (accumulated: activations and
  // gradients alive together), one in flight. A recomputed block keeps only
  // its bf16 input, 8,192 x 4,096 x 2 = 67,108,864 B; a block that does not recompute keeps what it
  // keeps without recompute ("whole"); during backward the block being recomputed holds a whole
  // working set once more. --recompute-method block --recompute-num-layers 12: 12 inputs + 20 whole
  // blocks + 1 working set; every block (uniform, 1): 32 inputs + 1 working set.
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 2,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "framework": "megatron", "parallel": )";
  auto activations = [&](const char* parallel) {
    const ScenarioParse p = parse_scenario(std::string(base) + parallel + "}", builtin_catalog());
    REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
    return estimate_memory(*p.scenario, count_params(p.scenario->model), default_calibration()).per_gpu.activations;
  };
  const double input = 8192.0 * 4096 * 2;
  const double whole = activations(R"({"recompute": "none"})") / 32;
  CHECK(activations(R"({"recompute": "full"})") == doctest::Approx(32 * input + whole));
  CHECK(activations(R"({"recompute": "full", "recompute_layers": 12})") == doctest::Approx(12 * input + 21 * whole));
  CHECK(activations(R"({"recompute": "full", "recompute_layers": 32})") == doctest::Approx(32 * input + whole));
}

TEST_CASE("multi-token prediction: the last stage holds DeepSeek-V3's module, its embedding copy and a second loss") {
  // DeepSeek-V3 on 16 stages (3 + 14 x 4 + 2 blocks), EP 64, ZeRO-1, BF16, one 4,096-token
  // micro-batch, Megatron. With techniques.mtp_layers 1 the last stage (Megatron-Core builds the
  // module where the loss is) holds per GPU: its 2 MoE blocks, 409,157,632 parameters each (MLA
  // 187,107,328 + shared expert 44,040,192 + router 1,835,008 + 256 / 64 routed experts of
  // 44,040,192 = 176,160,768 + norms 14,336), the head 926,679,040 and the final norm 7,168; then the
  // module: one more such block, the 2 x 7,168^2 = 102,760,448 projection, 3 norms of 7,168 and an
  // embedding of its own, 926,679,040: 3,183,620,096 parameters, 2 B each in BF16.
  const char* json = R"({"model": {"preset": "deepseek-v3"}, "precision": "bf16", "seq_len": 4096, "micro_batch": 1,
      "global_batch": 1024, "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 1024, "gpus_per_node": 8},
      "parallel": {"tp": 1, "pp": 16, "ep": 64, "zero": 1, "recompute": "full"}, "framework": "megatron",
      "techniques": {"mtp_layers": 1}})";
  const ScenarioParse parse = parse_scenario(json, builtin_catalog());
  REQUIRE_MESSAGE(parse.scenario, parse.error.message);
  const Scenario& s = *parse.scenario;
  const MemoryResult m = estimate_memory(s, count_params(s.model, 1), default_calibration());
  CHECK(m.stage == Stage::last);
  CHECK(m.per_gpu.weights == doctest::Approx(2.0 * 3183620096.0));
  // Each module computes logits and a loss of its own (Megatron's fused cross-entropy: 2 B logits +
  // a 4 B fp32 buffer a vocabulary entry, 6 x 129,280 = 775,680 B a token, and the final norm's and
  // head's 2-byte inputs, 4 x 7,168 = 28,672 B): 804,352 B x 4,096 tokens = 3,294,625,792 B, twice.
  CHECK(m.per_gpu.logits == doctest::Approx(2.0 * 3294625792.0));
}

TEST_CASE("fp8_params holds the block linears' weights in FP8: MLPerf's Llama 2 70B LoRA on 8 B200s") {
  // Llama 2 70B's block linears: Q and O 8192 x 8192 each, K and V 8192 x 1024 each, the SwiGLU MLP
  // 3 x 8192 x 28672: 150,994,944 + 704,643,072 = 855,638,016 a block, 68,451,041,280 in 80 blocks.
  // FP8 weights (NeMo's fp8_params, Transformer Engine fp8_model_init) hold 1 B of each; 16-bit ones
  // hold 2 B and Transformer Engine's cached FP8 copy, 1 B more on a B200 (no transpose: any FP8
  // layout; model 38): 2 B a weight apart. The embedding, the norms and the untied head stay 16-bit.
  // MLPerf Training v4.1's B200 LoRA run (TP 1, CP 2, FP8 params) completed on 180 GB GPUs; with
  // 16-bit weights the estimate would not fit.
  const char* text =
      R"({"model": {"preset": "llama-2-70b"}, "method": "lora", "lora": {"rank": 16, "targets": "attention"},
      "precision": "fp8", %s "seq_len": 8192, "micro_batch": 1, "global_batch": 8, "framework": "megatron",
      "cluster": {"accelerator": "b200-sxm-180gb", "gpus": 8}, "parallel": {"cp": 2, "zero": 1, "recompute": "none"}})";
  char buf[1024];
  auto run = [&](const char* fp8) {
    std::snprintf(buf, sizeof buf, text, fp8);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration());
  };
  const MemoryResult sixteen = run(""), fp8 = run(R"("fp8_params": true,)");
  CHECK(sixteen.per_gpu.weights - fp8.per_gpu.weights == doctest::Approx(2.0 * 68451041280.0));
  CHECK(fp8.per_gpu.activations == doctest::Approx(sixteen.per_gpu.activations));
  CHECK_FALSE(sixteen.fits);
  CHECK(fp8.fits);
}

TEST_CASE("fp8_params: 1 B a trained block weight on a B200, with Transformer Engine's transpose 2 B on an H100") {
  // Llama 2 7B, full training on 8 GPUs: 32 blocks of 4 x 4096^2 + 3 x 4096 x 11008 = 67,108,864 +
  // 135,266,304 = 202,375,168 block-linear weights, 6,476,005,376 in all. Gradients and the optimizer's
  // fp32 master and moments do not change.
  const char* text = R"({"model": {"preset": "llama-2-7b"}, "precision": "fp8", %s "seq_len": 4096, "framework": "%s",
      "cluster": {"accelerator": "%s", "gpus": 8}, "parallel": {"zero": %d}})";
  char buf[1024];
  auto run = [&](bool fp8, const char* framework, const char* gpu, int zero) {
    std::snprintf(buf, sizeof buf, text, fp8 ? R"("fp8_params": true,)" : "", framework, gpu, zero);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration());
  };
  auto saved = [&](const char* framework, const char* gpu, int zero) {
    const MemoryResult a = run(false, framework, gpu, zero), b = run(true, framework, gpu, zero);
    CHECK(b.per_gpu.gradients == doctest::Approx(a.per_gpu.gradients));
    CHECK(b.per_gpu.optimizer == doctest::Approx(a.per_gpu.optimizer));
    return std::pair{a.per_gpu.weights - b.per_gpu.weights, a.per_gpu.buffers - b.per_gpu.buffers};
  };
  // B200 (compute capability 10.0) runs FP8 GEMMs in any layout: each held weight is 1 B. Under
  // Megatron's distributed optimizer (ZeRO-1) every GPU holds all of them, where 16-bit weights
  // hold 2 B and Transformer Engine's cached FP8 copy (model 38): 2 B a weight apart. Under its FSDP
  // (ZeRO-3, no cache counted) a shard of 1/8 of them, and the two gathered blocks of the buffer
  // lose 1 B a weight.
  CHECK(saved("megatron", "b200-sxm-180gb", 1).first == doctest::Approx(2.0 * 6476005376.0));
  CHECK(saved("megatron", "b200-sxm-180gb", 3).first == doctest::Approx(6476005376.0 / 8));
  CHECK(saved("megatron", "b200-sxm-180gb", 3).second == doctest::Approx(2.0 * 202375168.0));
  // H100 (9.0) takes FP8 GEMMs only in the TN layout: Transformer Engine keeps a transposed FP8 copy
  // beside each weight it holds whole (post_all_gather_processing), 1 + 1 B, where 16-bit weights
  // hold 2 B and the cached FP8 copy with its transpose 2 B more: 2 B a weight apart. Its FSDP's
  // shards stay 1 B; its gathered blocks, 1 + 1 B, save nothing.
  CHECK(saved("megatron", "h100-sxm5-80gb", 1).first == doctest::Approx(2.0 * 6476005376.0));
  CHECK(saved("megatron", "h100-sxm5-80gb", 3).first == doctest::Approx(6476005376.0 / 8));
  CHECK(saved("megatron", "h100-sxm5-80gb", 3).second == doctest::Approx(0.0));
  // torchao's float8 all-gather (torchtitan) keeps the shards in high precision and casts each at
  // the gather (fsdp_pre_all_gather): only the gathered blocks are FP8, transposed per GEMM. FSDP2's
  // peak holds one gathered block beside the root unit (embedding and head, 16-bit): 1 B less a
  // weight of that block.
  CHECK(saved("torchtitan", "h100-sxm5-80gb", 3).first == doctest::Approx(0.0));
  CHECK(saved("torchtitan", "h100-sxm5-80gb", 3).second == doctest::Approx(202375168.0));
}

TEST_CASE("fp8_params is refused where no framework keeps FP8 weights, naming the field") {
  const char* text = R"({"model": {"preset": "llama-2-7b"}, "method": "%s", "precision": "%s", "fp8_params": true,
      "framework": "%s", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": %d}})";
  char buf[1024];
  auto error = [&](const char* method, const char* precision, const char* framework, int zero) {
    std::snprintf(buf, sizeof buf, text, method, precision, framework, zero);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    return s.scenario ? std::string() : s.error.field + ": " + s.error.message;
  };
  CHECK(error("full", "fp8", "megatron", 1).empty());
  CHECK(error("lora", "fp8", "megatron", 0).empty());  // NeMo's frozen FP8 base needs no sharding
  CHECK(error("full", "fp8", "torchtitan", 3).empty());
  CHECK(error("full", "bf16", "megatron", 1).rfind("fp8_params: ", 0) == 0);
  CHECK(error("full", "fp8", "hf", 1).find("keeps 16-bit weights") != std::string::npos);
  CHECK(error("qlora", "fp8", "megatron", 1).find("NF4") != std::string::npos);
  CHECK(error("full", "fp8", "megatron", 3).empty());
  // Megatron-LM asserts --fp8-param-gather has its distributed optimizer or FSDP: not ZeRO-0 or 2.
  CHECK(error("full", "fp8", "megatron", 0).find("parallel.zero 1 or 3") != std::string::npos);
  CHECK(error("full", "fp8", "megatron", 2).find("got zero 2") != std::string::npos);
  CHECK(error("full", "fp8", "torchtitan", 0).find("parallel.zero >= 1") != std::string::npos);
  CHECK(error("lora", "fp8", "torchtitan", 1).find("full training only") != std::string::npos);
}

TEST_CASE("FP8 under Megatron caches each block linear's FP8 copy: 1 B a weight, 2 B with its transpose on Hopper") {
  // Megatron-Core's TE layers pass is_first_microbatch, so Transformer Engine's Linear keeps the
  // quantized weight in its FP8 workspaces for the step (and beyond): Llama 2 7B's 6,476,005,376
  // block-linear weights (32 x (4 x 4096^2 + 3 x 4096 x 11008)) on every GPU under ZeRO-1 (TP 1).
  // An H100 (compute capability 9.0) also keeps the FP8 transpose, a B200 (10.0) does not need it.
  // torchao (torchtitan) casts each weight per GEMM and keeps nothing; under ZeRO-3 none is counted.
  const char* text = R"({"model": {"preset": "llama-2-7b"}, "precision": "%s", "seq_len": 4096, "framework": "%s",
      "cluster": {"accelerator": "%s", "gpus": 8}, "parallel": {"zero": %d}})";
  char buf[1024];
  auto weights = [&](const char* precision, const char* framework, const char* gpu, int zero) {
    std::snprintf(buf, sizeof buf, text, precision, framework, gpu, zero);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration()).per_gpu.weights;
  };
  auto cache = [&](const char* framework, const char* gpu, int zero) {
    return weights("fp8", framework, gpu, zero) - weights("bf16", framework, gpu, zero);
  };
  CHECK(cache("megatron", "h100-sxm5-80gb", 1) == doctest::Approx(2.0 * 6476005376.0));
  CHECK(cache("megatron", "b200-sxm-180gb", 1) == doctest::Approx(6476005376.0));
  CHECK(cache("megatron", "h100-sxm5-80gb", 3) == doctest::Approx(0.0));
  CHECK(cache("torchtitan", "h100-sxm5-80gb", 1) == doctest::Approx(0.0));
  // ZeRO-3 with pipeline stages keeps the stage's weights whole (keeps_gathered_weights), and so the
  // cache: the first of two stages, 16 blocks x 202,375,168 weights x 2 B on an H100.
  auto whole = [&](const char* precision) {
    std::snprintf(buf, sizeof buf,
                  R"({"model": {"preset": "llama-2-7b"}, "precision": "%s", "seq_len": 4096, "global_batch": 8,
                      "framework": "megatron", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
                      "parallel": {"zero": 3, "pp": 2}})",
                  precision);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    const MemoryResult m = estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration());
    CHECK(m.stage == Stage::first);
    return m.per_gpu.weights;
  };
  CHECK(whole("fp8") - whole("bf16") == doctest::Approx(2.0 * 16 * 202375168.0));
  // A freeze-tune's frozen bottom blocks run no backward, so TE keeps no transpose of theirs: with
  // the top 4 of 32 blocks trained, 6,476,005,376 x 1 B + 4 x 202,375,168 x 1 B = 7,285,506,048.
  auto freeze = [&](const char* precision) {
    std::snprintf(buf, sizeof buf,
                  R"({"model": {"preset": "llama-2-7b"}, "method": "freeze", "trainable_layers": 4,
                      "precision": "%s", "seq_len": 4096, "framework": "megatron",
                      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1}})",
                  precision);
    const ScenarioParse s = parse_scenario(buf, builtin_catalog());
    REQUIRE_MESSAGE(s.scenario, s.error.message);
    return estimate_memory(*s.scenario, count_params(s.scenario->model), default_calibration()).per_gpu.weights;
  };
  CHECK(freeze("fp8") - freeze("bf16") == doctest::Approx(7285506048.0));
}
