// Time, communication, checkpoint and cost formulas against hand calculations and papers.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/performance.hpp"
#include "llmplan/ranges.hpp"

using namespace llmplan;

namespace {
Scenario parse(const char* text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
  return *p.scenario;
}
// The estimate's warning with this code, or null.
const Warning* warning_of(const EstimateResult& r, WarningCode code) {
  for (int i = 0; i < r.warnings.count; ++i)
    if (r.warnings.items[static_cast<size_t>(i)].code == code) return &r.warnings.items[static_cast<size_t>(i)];
  return nullptr;
}
// Llama 3.1 8B, one sequence of 8,192 tokens with fused attention on one GPU of `accelerator`.
Scenario one_sequence_on(const char* accelerator, const char* precision = "bf16") {
  const std::string json = std::string(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 1,
      "precision": ")") + precision +
                           R"(", "cluster": {"accelerator": ")" + accelerator +
                           R"(", "gpus": 1}, "parallel": {"flash_attention": true}})";
  return parse(json.c_str());
}
}  // namespace

TEST_CASE("ring all-reduce: 2 (n-1)/n S / busbw (nccl-tests PERFORMANCE.md)") {
  // 1 GB over 8 ranks at 100 GB/s bus bandwidth: 2 x 7/8 x 1e9 / 1e11 = 17.5 ms
  CHECK(allreduce_s(1e9, 8, 100e9, 0) == doctest::Approx(0.0175));
  CHECK(allreduce_s(1e9, 1, 100e9, 0) == 0.0);
  // latency adds 2 (n-1) alpha: 14 x 5 us = 70 us
  CHECK(allreduce_s(1e9, 8, 100e9, 5e-6) == doctest::Approx(0.0175 + 70e-6));
}

TEST_CASE("FLOPs per step equal Megatron's formula for GPT-3 175B (Narayanan et al. 2021 §5.1)") {
  // 72 B s L h^2 (1 + s/(6h) + V/(12 h L)) with B = 1536, s = 2048, L = 96, h = 12288, V = 51200
  const Scenario s = parse(R"({"model": {"layers": 96, "hidden": 12288, "heads": 96, "ffn": 49152, "vocab": 51200,
      "gated_mlp": false, "tied_embeddings": true}, "seq_len": 2048, "global_batch": 1536,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1536}})");
  const double B = 1536, sl = 2048, L = 96, h = 12288, V = 51200;
  const double megatron = 72 * B * sl * L * h * h * (1 + sl / (6 * h) + V / (12 * h * L));
  const Flops f = training_flops(s, count_params(s.model), nullptr);
  CHECK(f.model_per_step == doctest::Approx(megatron).epsilon(1e-6));
  // full recompute adds one forward: 96 B s L h^2 (1 + s/(6h) + V/(16 h L)) minus the logit layer's extra pass
  Scenario r = s;
  r.parallel.recompute = Recompute::full;
  const double megatron_full = 96 * B * sl * L * h * h * (1 + sl / (6 * h) + V / (16 * h * L));
  CHECK(training_flops(r, count_params(r.model), nullptr).hardware_per_token * B * sl ==
        doctest::Approx(megatron_full).epsilon(1e-6));
}

TEST_CASE("GQA attention FLOPs count every query head: Llama 3.1 8B at 32K tokens") {
  // Llama 3.1 8B: 32 layers, 32 query heads of 128 (q width 4096), 8 key/value heads. Per token and
  // layer, forward: Q K^T 2 s q and scores x V 2 s o (o = 32 x 128 = 4096, every query head):
  // 2 x 32768 x (4096 + 4096) x 32 layers = 17,179,869,184 FLOP. Training counts it 3 times.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 32768, "cluster": {"gpus": 8},
                               "parallel": {"zero": 3, "recompute": "full"}})");
  const ParamCount p = count_params(s.model);
  const Flops f = training_flops(s, p, nullptr);
  const double attention = 2.0 * 32768 * (4096 + 4096) * 32;
  CHECK(attention == 17179869184.0);
  // P: the 8,030,261,248 parameters less the input embedding (128256 x 4096 = 525,336,576) and the
  // norms (32 x 2 x 4096 + 4096), which are no GEMMs: 7,504,658,432.
  CHECK(f.model_per_token == doctest::Approx(6 * 7504658432.0 + 3 * attention));
  // Fewer key/value heads shrink only the K and V projections (6 x 2 x h x (32 - k) x 128 per layer):
  // the attention term stays, so 1 KV head saves about 2 % here, not the 31 % of counting s x v.
  Scenario mqa = s;
  mqa.model.kv_heads = 1;
  const Flops g = training_flops(mqa, count_params(mqa.model), nullptr);
  const double kv_saved = 6.0 * 2 * 4096 * (8 - 1) * 128 * 32;  // from 8 KV heads to 1, 32 layers
  CHECK(f.model_per_token - g.model_per_token == doctest::Approx(kv_saved));
}

TEST_CASE("sliding-window attention counts the keys in the window: Mistral 7B v0.1 at 32K tokens") {
  // Mistral 7B v0.1 (Jiang et al. 2023, Table 1 and §2): 32 layers, 32 query heads of 128, a window of
  // 4,096 tokens in every layer. Per token forward, Megatron's count (no causal halving) takes the
  // window's keys instead of the sequence's: 2 x 4096 x (4096 + 4096) x 32 = 2,147,483,648 FLOP,
  // against 2 x 32768 x 8192 x 32 = 17,179,869,184 without the window.
  const Scenario s = parse(R"({"model": {"preset": "mistral-7b"}, "seq_len": 32768, "cluster": {"gpus": 8},
                               "parallel": {"zero": 3, "flash_attention": true}})");
  REQUIRE(s.model.sliding_window == 4096);
  const ParamCount p = count_params(s.model);
  const Flops f = training_flops(s, p, nullptr);
  Scenario full = s;
  full.model.sliding_window = 0;
  const Flops g = training_flops(full, p, nullptr);
  CHECK(g.model_per_token - f.model_per_token == doctest::Approx(3 * (17179869184.0 - 2147483648.0)));
  // The causal kernel: query i attends min(i, 4096) keys, on average 4096 - 4096^2 / (2 x 32768) = 3,840
  // against 16,384 (half the sequence) without the window; forward + 2.5 x forward backward.
  CHECK(f.attention_kernel_per_token == doctest::Approx(3.5 * 2 * 8192.0 * 32 * 3840));
  CHECK(g.attention_kernel_per_token == doctest::Approx(3.5 * 2 * 8192.0 * 32 * 16384));
  // At or below the window nothing changes.
  Scenario short_seq = s;
  short_seq.seq_len = 4096;
  Scenario short_full = short_seq;
  short_full.model.sliding_window = 0;
  CHECK(training_flops(short_seq, p, nullptr).attention_kernel_per_token ==
        doctest::Approx(training_flops(short_full, p, nullptr).attention_kernel_per_token));
  // Without a fused kernel the eager scores are computed whole and masked: the hardware runs the full
  // count while the model's count (MFU) keeps the window.
  Scenario eager = s;
  eager.parallel.flash_attention = false;
  const Flops e = training_flops(eager, p, nullptr);
  CHECK(e.model_per_token == doctest::Approx(f.model_per_token));
  CHECK(e.hardware_per_token == doctest::Approx(g.hardware_per_token));
  // Half the layers windowed (Gemma 2, GPT-OSS): half the saving.
  Scenario half = s;
  half.model.sliding_layers = 16;
  CHECK(g.model_per_token - training_flops(half, p, nullptr).model_per_token ==
        doctest::Approx(1.5 * (17179869184.0 - 2147483648.0)));
}

TEST_CASE("partial recompute reruns the forward of the blocks it names: Llama 3.1 8B, Megatron block method") {
  // Full recompute runs every block's forward again: its matmuls, 2 x 32 x 4096 x (4096 + 1024 +
  // 1024 + 4096 + 3 x 14336) = 13,958,643,712 FLOP per token, and its attention scores, 2 x 8192 x
  // (4096 + 4096) x 32 = 4,294,967,296: 18,253,611,008. --recompute-num-layers 8 of 32 (one stage,
  // one chunk): a quarter of that, 4,563,402,752.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "micro_batch": 1,
      "global_batch": 4, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "framework": "megatron",
      "parallel": {"tp": 2, "zero": 1, "recompute": "full", "recompute_layers": 8, "flash_attention": true}})");
  const ParamCount p = count_params(s.model);
  const Flops part = training_flops(s, p, nullptr);
  CHECK(part.hardware_per_token - part.model_per_token == doctest::Approx(4563402752.0));
  Scenario all = s;
  all.parallel.recompute_layers = 0;
  const Flops every = training_flops(all, p, nullptr);
  CHECK(every.hardware_per_token - every.model_per_token == doctest::Approx(18253611008.0));
  // The recomputed forward's all-reduce pair runs in a quarter of the blocks: 4 + 2 x 0.25.
  CHECK(tp_collectives_per_block(s) == doctest::Approx(4.5));
  CHECK(tp_collectives_per_block(all) == doctest::Approx(6.0));
  // The step is slower than without recompute and faster than with every block recomputed.
  Scenario none = s;
  none.parallel.recompute = Recompute::none;
  none.parallel.recompute_layers = 0;
  const double t_part = estimate(s, default_calibration()).time.step_s;
  CHECK(t_part > estimate(none, default_calibration()).time.step_s);
  CHECK(t_part < estimate(all, default_calibration()).time.step_s);
}

TEST_CASE("partial recompute counts the first N blocks of each chunk of a stage") {
  // Llama 3 405B's 126 blocks on 16 stages: 7 on the first and last, 8 on the others. With 2
  // virtual stages a middle stage holds chunks of 4 and 4, the first 4 and 3.
  Scenario s = parse(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 8192, "micro_batch": 1,
      "global_batch": 512, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 2048, "gpus_per_node": 8},
      "framework": "megatron", "parallel": {"tp": 8, "pp": 16, "vp": 2, "zero": 1, "recompute": "full",
      "recompute_layers": 3}})");
  CHECK(recomputed_layers(s, 8) == 6);  // 3 + 3
  CHECK(recomputed_layers(s, 7) == 6);  // min(3, 4) + min(3, 3)
  CHECK(full_recompute_share(s) == doctest::Approx(6.0 / 8));
  CHECK(most_chunk_layers(s) == 4);
  s.parallel.recompute_layers = 4;
  CHECK(recomputed_layers(s, 7) == 7);  // 4 + 3: the whole stage
  s.parallel.recompute_layers = 0;
  CHECK(recomputed_layers(s, 7) == 7);
  s.parallel.recompute = Recompute::selective;
  CHECK(recomputed_layers(s, 8) == 0);
  CHECK(full_recompute_share(s) == 0);
}

TEST_CASE("torchtitan per-operator checkpointing recomputes every second matmul: Llama 3.1 8B") {
  // selective_ac_option "op" saves aten.mm outputs "except every second mm" and the SDPA output: the
  // forward of wk (h x 1024), wo (h x h) and w3 (h x f) runs again, 2 x 32 x 4096 x (1024 + 4096 +
  // 14336) = 5,100,273,664 FLOP per token; the fused attention kernel does not.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "micro_batch": 2,
      "global_batch": 16, "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 8}, "framework": "torchtitan",
      "parallel": {"zero": 3, "recompute": "selective_op", "flash_attention": true}})");
  const ParamCount p = count_params(s.model);
  const Flops op = training_flops(s, p, nullptr);
  CHECK(op.hardware_per_token - op.model_per_token == doctest::Approx(5100273664.0));
  Scenario none = s;
  none.parallel.recompute = Recompute::none;
  CHECK(op.attention_kernel_per_token == doctest::Approx(training_flops(none, p, nullptr).attention_kernel_per_token));
  // torchtitan's A100 table (docs/performance.md @0413364, Llama 2 13B, 64 A100s, local batch 2): 2,162
  // tokens/s per GPU without checkpointing, 1,904 with "selective op", 13.6 % more time per token. The
  // recomputed matmuls and elementwise passes should cost that, within 3 %.
  const Scenario l13 = parse(R"({"model": {"preset": "llama-2-13b"}, "seq_len": 4096, "micro_batch": 2,
      "global_batch": 128, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 64, "gpus_per_node": 8},
      "framework": "torchtitan", "network": {"inter_node_link": "infiniband-hdr"},
      "parallel": {"zero": 3, "recompute": "selective_op", "flash_attention": true}})");
  Scenario l13_none = l13;
  l13_none.parallel.recompute = Recompute::none;
  const double ratio =
      estimate(l13, default_calibration()).time.step_s / estimate(l13_none, default_calibration()).time.step_s;
  CHECK(ratio == doctest::Approx(2162.0 / 1904.0).epsilon(0.03));
}

TEST_CASE("eager PyTorch norms, RoPE and SwiGLU move more bytes than fused kernels: torchtitan's compile gain") {
  // torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Table 1 (Llama 3.1 8B, FSDP on 8 of Meta's
  // 500 W H100s, local batch 2, selective op checkpointing): 5,762 tokens/s per GPU eager, 6,667 with
  // torch.compile of each block, 15.7 % more. Eager bytes beyond a fused kernel, per token and layer,
  // forward: RMSNorm 2 x (4 e + 28 - 2 e) h = 2 x 32 x 4096 = 262,144; RoPE 16 (q + k) = 16 x 5120 =
  // 81,920; SwiGLU 2 e f = 4 x 14336 = 57,344; 401,408 B. Four passes (forward, backward 2x, the
  // checkpointed forward again), 32 layers, 16,384 tokens: 841,813,590,016 B more HBM traffic per step.
  const Scenario eager = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "micro_batch": 2,
      "global_batch": 16, "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 8}, "framework": "torchtitan",
      "network": {"inter_node_link": "roce-400g"}, "parallel": {"zero": 3, "recompute": "selective_op"}})");
  CHECK_FALSE(eager.techniques.fused_kernels);  // torchtitan without compile runs eager ops
  Scenario fused = eager;
  fused.techniques.fused_kernels = true;
  const Calibration& cal = default_calibration();
  const double extra_s = estimate(eager, cal).time.compute_s - estimate(fused, cal).time.compute_s;
  const double bytes = 401408.0 * 4 * 32 * 16384;
  CHECK(bytes == 841813590016.0);
  CHECK(extra_s == doctest::Approx(bytes / (2400e9 * cal.mem_bw_efficiency.value)));
  const double gain = estimate(eager, cal).time.step_s / estimate(fused, cal).time.step_s;
  CHECK(gain == doctest::Approx(6667.0 / 5762.0).epsilon(0.03));
  // Megatron-LM, torch.compile and a fused loss (Liger, Unsloth, which bring their own kernels) are fused;
  // LayerNorm, GeLU and learned positions (GPT, MPT) have nothing to fuse.
  CHECK(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "pretrain"})").techniques.fused_kernels);
  CHECK(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "techniques": {"compile": true}})")
            .techniques.fused_kernels);
  CHECK(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "techniques": {"fused_loss": "liger"}})")
            .techniques.fused_kernels);
  CHECK_FALSE(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora"})").techniques.fused_kernels);
  Scenario gpt = parse(R"({"model": {"preset": "gpt3-175b"}, "framework": "fsdp", "cluster": {"gpus": 64}})");
  CHECK_FALSE(gpt.techniques.fused_kernels);
  const double gpt_eager = estimate(gpt, cal).time.compute_s;
  gpt.techniques.fused_kernels = true;
  CHECK(estimate(gpt, cal).time.compute_s == doctest::Approx(gpt_eager));
}

TEST_CASE("a gated MLP moves gate and up through the memory-bound passes: h + 2 f vectors where GeLU moves h + f") {
  // Two blocks, hidden 1,024, ffn 4,096, bf16 (e = 2), fused kernels (no eager extra), no recompute
  // (3 passes: forward, backward 2x), one H100 SXM (3,350 GB/s at kMemBwEfficiency 0.9), 8 sequences
  // of 2,048 = 16,384 tokens a step. kElementwisePasses 12 (docs/calibration.md):
  //   GeLU:   16,384 x 2 x 3 x 12 x (1,024 + 4,096) x 2 B = 12,079,595,520 B -> 4.0065 ms
  //   SwiGLU: 16,384 x 2 x 3 x 12 x (1,024 + 2 x 4,096) x 2 B = 21,743,271,936 B -> 7.2117 ms
  const char* text = R"({"model": {"layers": 2, "hidden": 1024, "heads": 8, "ffn": 4096, "vocab": 32000,
      "gated_mlp": GATED, "norm": "rmsnorm"}, "precision": "bf16", "seq_len": 2048, "micro_batch": 8,
      "global_batch": 8, "framework": "megatron", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1},
      "parallel": {"recompute": "none"}})";
  // memory_bound_s: the blocks' elementwise passes (the loss's passes over the vocabulary are loss_s).
  auto memory_bound_s = [&](bool gated) {
    std::string json = text;
    json.replace(json.find("GATED"), 5, gated ? "true" : "false");
    const Scenario sc = parse(json.c_str());
    REQUIRE(sc.techniques.fused_kernels);
    Explainer ex;
    estimate(sc, default_calibration(), &ex);
    for (const Explanation& e : ex.items())
      if (e.key == "time.compute_s")
        for (const auto& [name, value] : e.inputs)
          if (name == "memory_bound_s") return value;
    return -1.0;
  };
  REQUIRE(default_calibration().elementwise_passes.value == 12.0);
  const double bw = 3350e9 * default_calibration().mem_bw_efficiency.value;
  CHECK(16384.0 * 2 * 3 * 12 * (1024 + 4096) * 2 == 12079595520.0);
  CHECK(memory_bound_s(false) == doctest::Approx(12079595520.0 / bw));
  CHECK(memory_bound_s(true) == doctest::Approx(21743271936.0 / bw));
  CHECK(memory_bound_s(true) / memory_bound_s(false) == doctest::Approx((1024.0 + 8192) / (1024 + 4096)));
}

TEST_CASE("the loss moves the logits through HBM: bytes per vocabulary entry by the code that runs it") {
  // 16,384 tokens a step on one H100 SXM (3,350 GB/s at kMemBwEfficiency 0.9), vocabulary 32,000.
  // Megatron-Core's vocab-parallel cross-entropy (tensor_parallel/cross_entropy.py), op by op, bytes
  // per logit: .float() 2 + 4, max 4, subtract 8, exp 8, sum 4, divide 8; backward scale 8, cast 6:
  // 52. 16,384 x 32,000 x 52 = 27,262,976,000 B -> 9.0424 ms. PyTorch's cross_entropy on upcast
  // logits (Hugging Face): 48. flash-attn's fused kernel (fused_ce): 8. Cut Cross-Entropy: 0.
  // With two pipeline stages on two GPUs the last one runs the whole batch's loss beside its blocks.
  auto scenario = [](const char* framework, const char* extra, int pp = 1) {
    const std::string n = std::to_string(pp);
    const std::string text = std::string(R"({"model": {"layers": 2, "hidden": 1024, "heads": 8, "ffn": 4096,
        "vocab": 32000}, "precision": "bf16", "seq_len": 2048, "micro_batch": 8, "global_batch": 8, "framework": ")") +
                             framework + R"(", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": )" + n +
                             R"(}, "parallel": {"recompute": "none", "pp": )" + n + extra + "}}";
    return parse(text.c_str());
  };
  auto loss_s = [&](const char* framework, const char* extra, int pp = 1) {
    Explainer ex;
    estimate(scenario(framework, extra, pp), default_calibration(), &ex);
    for (const Explanation& e : ex.items())
      if (e.key == "time.compute_s")
        for (const auto& [name, value] : e.inputs)
          if (name == "loss_s") return value;
    return -1.0;
  };
  const double bw = 3350e9 * default_calibration().mem_bw_efficiency.value;
  CHECK(16384.0 * 32000 * 52 == 27262976000.0);
  CHECK(loss_s("megatron", "") == doctest::Approx(27262976000.0 / bw));
  CHECK(loss_s("hf", "") == doctest::Approx(16384.0 * 32000 * 48 / bw));
  CHECK(loss_s("hf", R"(}, "techniques": {"fused_loss": "fused_ce")") == doctest::Approx(16384.0 * 32000 * 8 / bw));
  CHECK(loss_s("hf", R"(}, "techniques": {"fused_loss": "cce")") == 0.0);
  // PP 2: the same loss, on the last stage; its other work is half the one-stage step's times the
  // stage imbalance (the last stage's share, with the logit layer).
  const double loss = loss_s("megatron", "", 2);
  CHECK(loss == doctest::Approx(27262976000.0 / bw));
  const EstimateResult one = estimate(scenario("megatron", ""), default_calibration());
  const EstimateResult two = estimate(scenario("megatron", "", 2), default_calibration());
  REQUIRE(two.time.stage_imbalance > 1.0);
  CHECK(two.time.compute_s == doctest::Approx((one.time.compute_s - loss) / 2 * two.time.stage_imbalance + loss));
}

TEST_CASE("LoRA FLOPs: 4 P + 6 P_adapter + attention, a third less than full training") {
  const Scenario full = parse(R"({"model": {"preset": "llama-2-7b"}, "method": "full", "cluster": {"gpus": 1}})");
  const Scenario lora =
      parse(R"({"model": {"preset": "llama-2-7b"}, "method": "lora", "lora": {"rank": 8, "targets": "attention"},
      "cluster": {"gpus": 1}})");
  const ParamCount p = count_params(full.model);
  const double P = training_flops(full, p, nullptr).model_per_token;
  // attention adapters: 32 layers x 8 x 4 x (4096 + 4096) = 8,388,608 parameters
  CHECK(lora_params_per_layer(lora.model, lora.lora) * 32 == 8388608.0);
  const double attn = 3.0 * 2.0 * 4096 * (4096 + 4096) * 32;  // 3 x forward scores
  const double matmul = (P - attn) / 6.0;
  CHECK(training_flops(lora, p, nullptr).model_per_token == doctest::Approx(4 * matmul + 6 * 8388608.0 + attn));
}

TEST_CASE("pipeline bubble (p-1)/m of the step and Young's checkpoint interval") {
  Scenario s = parse(R"({"model": {"preset": "llama-2-13b"}, "seq_len": 4096, "global_batch": 64, "tokens": 1e9,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"pp": 4, "zero": 1},
      "pricing": {"failures_per_gpu_hour": 0.01, "usd_per_gpu_hour": 2.5}})");
  const EstimateResult r = estimate(s, default_calibration());
  // dp = 2, m = 64 / 2 = 32 micro-batches; bubble = 3/32 of (compute + TP time)
  CHECK(r.grad_accum == 32);
  CHECK(r.time.bubble_s == doctest::Approx(3.0 / 32.0 * r.time.compute_s));
  // Young: tau = sqrt(2 C M), M = 1 / (0.01 x 8) = 12.5 h
  const ReliabilityResult& rel = r.reliability;
  const double c_h = rel.checkpoint_write_s / 3600.0;
  CHECK(rel.mtbi_h == doctest::Approx(12.5));
  CHECK(rel.checkpoint_interval_h == doctest::Approx(std::sqrt(2 * c_h * 12.5)));
  CHECK(rel.overhead_fraction ==
        doctest::Approx(c_h / rel.checkpoint_interval_h + (rel.checkpoint_interval_h / 2 + 0.25) / 12.5));
  // checkpoint = 14 B per parameter for AdamW (2 weights + 4 master + 8 moments)
  CHECK(rel.checkpoint_bytes == doctest::Approx(14.0 * r.params.total));
  // cost = GPU-hours x overhead (1.3 default) x price; CNY at the catalog rate
  CHECK(r.cost.compute_usd == doctest::Approx(rel.gpu_hours * 1.3 * 2.5));
  CHECK(r.cost.total_cny == doctest::Approx(r.cost.total_usd * builtin_catalog().currency.usd_to_cny));
  CHECK(r.time.steps == std::ceil(1e9 / (64.0 * 4096)));
}

TEST_CASE("optimizers, pure bf16 and QLoRA change the bytes per parameter") {
  CHECK(state_bytes_per_param(Precision::bf16, Optimizer::adamw).optimizer == 12);       // 4 master + 8
  CHECK(state_bytes_per_param(Precision::bf16, Optimizer::adamw8bit).optimizer == 6);    // 4 master + 2
  CHECK(state_bytes_per_param(Precision::bf16, Optimizer::sgd).optimizer == 8);          // 4 master + 4 momentum
  CHECK(state_bytes_per_param(Precision::bf16, Optimizer::adafactor).optimizer == 4);    // master only
  CHECK(state_bytes_per_param(Precision::bf16, Optimizer::adamw, true).optimizer == 4);  // bf16 m and v
  // QLoRA anchor (Dettmers et al. 2023, abstract): a 65B model fine-tunes on one 48 GB GPU.
  const Scenario q = parse(R"({"model": {"layers": 80, "hidden": 8192, "heads": 64, "ffn": 22016, "vocab": 32000},
      "method": "qlora", "lora": {"rank": 64, "targets": "all_linear"}, "seq_len": 512, "micro_batch": 1,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1, "gpu_memory_gb": 48}, "parallel": {"recompute": "full"}})");
  const EstimateResult r = estimate(q, default_calibration());
  // block linears 80 x (4 x 8192^2 + 3 x 8192 x 22016) = 64,760,053,760 at 0.5 + 0.127/8 B;
  // embedding + head + norms 525,606,912 at 4 B (the paper's qlora.py runs PEFT's
  // prepare_model_for_kbit_training, which casts them to fp32); adapters 80 x 64 x (4 x 16384 +
  // 3 x 30208) = 799,539,200 at 2 B
  CHECK(r.memory.per_gpu.weights ==
        doctest::Approx(64760053760.0 * (0.5 + 0.127 / 8) + 525606912.0 * 4 + 799539200.0 * 2));
  CHECK(r.memory.per_gpu.optimizer == doctest::Approx(799539200.0 * 12));
  // The paper pages optimizer states to CPU RAM when memory runs short: without them it fits.
  CHECK(r.memory.per_gpu.total() - r.memory.per_gpu.optimizer < 48e9);
}

TEST_CASE("warnings follow the planning rules of thumb with their numbers") {
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-70b"}, "seq_len": 4096, "global_batch": 64,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "network": {"inter_node_link": "ethernet-25g"},
      "parallel": {"tp": 8, "zero": 3}, "storage": {"data_tier": "aws-ebs-gp3", "checkpoint_tier": "aws-ebs-gp3"}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(warning_of(r, WarningCode::multinode_without_rdma) != nullptr);
  CHECK(warning_of(r, WarningCode::data_on_block_disk) != nullptr);
  CHECK(r.tier == Tier::l3);
}

TEST_CASE("a full fine-tune of the 70B class on one node is tier L2, a larger model L3") {
  // Llama 3.1 70B counts 70.6 B parameters; results.md's L2 is "13-70B full fine-tuning in one 8-GPU node".
  const EstimateResult r70 = estimate(parse(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 3}})"),
                                      default_calibration());
  CHECK(r70.params.total > 70e9);
  CHECK(r70.tier == Tier::l2);
  const EstimateResult r405 = estimate(parse(R"({"model": {"preset": "llama-3.1-405b"}, "method": "qlora",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})"),
                                       default_calibration());
  CHECK(r405.tier == Tier::l3);
}

TEST_CASE("explanations cover the headline figures and equal them") {
  const Scenario s = parse(
      R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 3}})");
  Explainer ex;
  const EstimateResult r = estimate(s, default_calibration(), &ex);
  auto find = [&](const char* key) -> const Explanation* {
    for (const Explanation& e : ex.items())
      if (e.key == key) return &e;
    return nullptr;
  };
  for (const char* key :
       {"time.step_s", "time.mfu", "time.tokens_per_s", "time.total_hours", "gpu_hours", "cost.compute_usd",
        "checkpoint.size_bytes", "memory.per_gpu_bytes.total", "model.params.total", "comm.dp.s"})
    CHECK_MESSAGE(find(key) != nullptr, key);
  CHECK(find("time.step_s")->value == r.time.step_s);
  CHECK(find("memory.per_gpu_bytes.total")->value == r.memory.per_gpu.total());
  CHECK_FALSE(find("time.mfu")->formula.empty());
}

namespace {
// Every number (and boolean) of the result JSON, as its dot-joined path; warnings[] carry their
// own message, value and limit, so arrays are not walked.
void numeric_leaves(const nlohmann::json& j, const std::string& path, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) numeric_leaves(v, path.empty() ? k : path + "." + k, out);
  } else if (j.is_number() || j.is_boolean()) {
    out.push_back(path);
  }
}
}  // namespace

TEST_CASE("explanations: every numeric figure of the result JSON has one, under its own path, with its value") {
  // Scenarios that switch on each branch: pretraining across nodes with TP, PP and DP, with and
  // without TP comm overlap (split GEMMs); ZeRO-3 with CPU offload on spot; QLoRA on one GPU;
  // freeze-tuning; activation offload of some layers.
  const char* scenarios[] = {
      R"({"model": {"preset": "llama-3.1-70b"}, "seq_len": 4096, "global_batch": 512, "tokens": 1e11,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64}, "parallel": {"tp": 4, "pp": 2, "zero": 1,
          "sequence_parallel": true, "recompute": "selective"}})",
      R"({"model": {"preset": "llama-3.1-70b"}, "seq_len": 8192, "global_batch": 512, "tokens": 1e11,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64}, "parallel": {"tp": 8, "pp": 2, "zero": 1,
          "sequence_parallel": true, "tp_comm_overlap": true}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "tokens": 1e9, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 16},
          "parallel": {"zero": 3, "offload": "cpu"}, "pricing": {"mode": "spot", "spot_interruptions_per_hour": 0.05}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "micro_batch": 4, "tokens": 1e8,
          "cluster": {"accelerator": "rtx-4090", "gpus": 1}})",
      R"({"model": {"preset": "qwen2.5-7b"}, "method": "freeze", "tokens": 1e8, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 4, "tokens": 1e8,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"flash_attention": true},
          "techniques": {"activation_offload": true, "activation_offload_layers": 12}})",
  };
  for (const char* text : scenarios) {
    const JsonResponse resp = estimate_json(text, builtin_catalog(), default_calibration(), true);
    REQUIRE_MESSAGE(resp.ok, resp.error.message);
    nlohmann::json doc = nlohmann::json::parse(resp.body);
    const nlohmann::json explain = doc["explain"];
    doc.erase("explain");
    std::vector<std::string> leaves;
    numeric_leaves(doc, "", leaves);
    // The result JSON has the same 148 figures for every scenario (counted from its sections):
    // "ranges" holds low, high, level and cases of 7 figures.
    std::map<std::string, int> per_section;
    for (const std::string& path : leaves) ++per_section[path.substr(0, path.find('.'))];
    const std::map<std::string, int> expected = {{"model", 7},      {"cluster", 3},   {"layout", 12}, {"memory", 18},
                                                 {"time", 29},      {"gpu_hours", 1}, {"comm", 17},   {"io", 6},
                                                 {"checkpoint", 8}, {"cost", 10},     {"ranges", 28}, {"scaling", 9}};
    CHECK(per_section == expected);
    CHECK(leaves.size() == 148);
    for (const std::string& path : leaves) {
      CHECK_MESSAGE(explain.contains(path), "no explanation for " << path << " in " << std::string(text));
      if (!explain.contains(path)) continue;
      const nlohmann::json& e = explain[path];
      CHECK_MESSAGE(!e["formula"].get<std::string>().empty(), path);
      // The explained value is the figure itself (JSON writes no infinity: both are finite here).
      // A key may itself hold dots ("ranges" maps result paths): take the longest that exists.
      const nlohmann::json* leaf = &doc;
      for (size_t from = 0; from <= path.size();) {
        size_t dot = path.size();
        while (!leaf->contains(path.substr(from, dot - from))) dot = path.rfind('.', dot - 1);
        leaf = &leaf->at(path.substr(from, dot - from));
        from = dot + 1;
      }
      const double v = leaf->is_boolean() ? (leaf->get<bool>() ? 1.0 : 0.0) : leaf->get<double>();
      CHECK_MESSAGE(e["value"].get<double>() == doctest::Approx(v).epsilon(1e-9), path);
    }
    // ... and no explanation names a path the result does not have.
    for (const auto& item : explain.items()) {  // no structured binding: clang 14 (em++) cannot capture one
      const std::string key = item.key();
      CHECK_MESSAGE(std::find(leaves.begin(), leaves.end(), key) != leaves.end(),
                    "explanation " << key << " is not a result path");
    }
  }
}

TEST_CASE("a capped scale-up link reaches the share of its rate nccl-tests measured on the full one") {
  // Catalog interconnects: NVLink 4 reaches 367.61 of 450 GB/s (H100 SXM), NVLink 3 234.89 of 300
  // (A100 SXM). The H800 and the A800 cap it at 200 GB/s a direction: 0.8169 x 200 = 163.38 and
  // 0.7830 x 200 = 156.59 GB/s, not the measured figure cut to 200 (100 % of the link).
  const auto busbw = [](const char* accel, const char* network) {
    std::string text = std::string(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": ")") + accel +
                       R"(", "gpus": 8}, "network": {)" + network + "}}";
    return link_bandwidth(parse(text.c_str())).intra_busbw / 1e9;
  };
  CHECK(busbw("h100-sxm5-80gb", "") == doctest::Approx(367.61));
  CHECK(busbw("a100-sxm4-80gb", "") == doctest::Approx(234.89));
  CHECK(busbw("h800-sxm5-80gb", "") == doctest::Approx(367.61 / 450 * 200));
  CHECK(busbw("a800-sxm4-80gb", "") == doctest::Approx(234.89 / 300 * 200));
  // The user's rate for the link: the same share of it, on a part the catalog has a measurement for.
  CHECK(busbw("h100-sxm5-80gb", R"("intra_node_gb_per_s": 100)") == doctest::Approx(367.61 / 450 * 100));
  // A link without a measurement: 0.8 of its rate (RTX 4090, PCIe 4 at 31 GB/s).
  CHECK(busbw("rtx-4090", "") == doctest::Approx(0.8 * 31));
}

TEST_CASE("collective bandwidth follows the ranks per node: 4 nodes x 8 GPUs, one 400 Gb/s NIC per GPU") {
  // Published: all-reduce busbw 377-382 GB/s at 4-16 GiB on 4 nodes of 8 x B200 with 8 x 400 Gb/s
  // EFA v4 per node, against 740 GB/s inside one node (stas00/ml-engineering, network chapter,
  // "Inter-node speed depends on intra-node speed"). A group of whole nodes drives all 8 NICs:
  // busbw = min(NVLink 5 busbw 740.64, 8 x 47.17 GB/s measured per EFA v4 NIC) = 377.36 GB/s.
  const Scenario b200 = parse(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "b200-sxm-180gb",
      "gpus": 32, "gpus_per_node": 8}, "network": {"inter_node_link": "aws-efa-v4"}})");
  const GroupLink whole = group_link(b200, 32, 1);
  CHECK(whole.ranks_per_node == 8);
  CHECK(whole.nodes == 4);
  CHECK(whole.inter_node);
  CHECK(whole.busbw / 1e9 == doctest::Approx(8 * 47.17).epsilon(1e-3));
  CHECK(whole.busbw / 1e9 >= 377.0 * 0.98);
  CHECK(whole.busbw / 1e9 <= 382.0 * 1.02);
  CHECK(link_bandwidth(b200).node_busbw == doctest::Approx(whole.busbw));
  // The data-parallel group of TP-8 replicas holds one rank per node: one NIC, 47.17 GB/s.
  const GroupLink one = group_link(b200, 4, 8);
  CHECK(one.ranks_per_node == 1);
  CHECK(one.nodes == 4);
  CHECK(one.busbw / 1e9 == doctest::Approx(47.17).epsilon(1e-3));
  // TP 2 leaves 4 ranks of each DP group on a node: 4 NICs.
  CHECK(group_link(b200, 16, 2).busbw / 1e9 == doctest::Approx(4 * 47.17).epsilon(1e-3));
  // A group inside one node runs at the scale-up busbw.
  CHECK(group_link(b200, 8, 1).busbw / 1e9 == doctest::Approx(740.64).epsilon(1e-3));
  CHECK_FALSE(group_link(b200, 8, 1).inter_node);

  // H100 derived the same way: 8 x 400 Gb/s InfiniBand NDR at 48 GB/s measured per NIC = 384 GB/s,
  // above NVLink 4's measured 367.61 GB/s all-reduce busbw, so the scale-up link caps a whole-node group.
  const Scenario h100 = parse(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "h100-sxm5-80gb",
      "gpus": 32, "gpus_per_node": 8}, "network": {"inter_node_link": "infiniband-ndr"}})");
  CHECK(group_link(h100, 32, 1).busbw / 1e9 == doctest::Approx(367.61).epsilon(1e-3));
  CHECK(group_link(h100, 4, 8).busbw / 1e9 == doctest::Approx(48.0).epsilon(1e-3));
  // Hierarchical ring latency: 2 (r - 1) steps inside the nodes + 2 (nodes - 1) across them.
  GroupLink g = group_link(h100, 32, 1);
  const double t = group_allreduce_s(1e9, g);
  CHECK(t == doctest::Approx(2.0 * 31 / 32 * 1e9 / g.busbw + 14 * g.intra_latency_s + 6 * g.inter_latency_s));
}

//-----------------------------------------------------------------------------
// Context, expert and virtual pipeline parallelism
//-----------------------------------------------------------------------------

TEST_CASE("interleaved 1F1B: the bubble is (p - 1) / (v m) of the ideal step (Narayanan et al. 2021 §2.2.2)") {
  // 1F1B: (p - 1) / m; v model chunks per device divide it by v. p = 4, m = 8: 3 / 8 = 0.375;
  // v = 2: 3 / 16 = 0.1875.
  CHECK(pipeline_bubble_fraction(4, 1, 8) == 0.375);
  CHECK(pipeline_bubble_fraction(4, 2, 8) == 0.1875);
  CHECK(pipeline_bubble_fraction(1, 1, 8) == 0.0);
  // GPT-3 175B on 1024 A100s, TP 8 x PP 8 (12 blocks a stage), DP 16, global batch 1536: m = 1536
  // / 16 = 96 micro-batches. The bubble is 7 / (v 96) of compute + exposed TP time; the
  // point-to-point bytes grow v-fold, 2 m b s h e / tp x v = 2 x 96 x 2048 x 12288 x 2 / 8 x v
  // = 1,207,959,552 v.
  const char* base = R"({"model": {"preset": "gpt3-175b"}, "seq_len": 2048, "global_batch": 1536, "tokens": 3e11,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1024}, "parallel": {"tp": 8, "pp": 8, "vp": %d,
      "zero": 1, "sequence_parallel": true, "recompute": "selective"}})";
  for (int vp : {1, 2, 4}) {
    char text[512];
    std::snprintf(text, sizeof text, base, vp);
    const EstimateResult r = estimate(parse(text), default_calibration());
    CAPTURE(vp);
    CHECK(r.grad_accum == 96);
    CHECK(r.time.bubble_s == doctest::Approx(7.0 / (vp * 96) * (r.time.compute_s + r.time.comm.tp_exposed_s)));
    CHECK(r.time.comm.pp_bytes == doctest::Approx(1207959552.0 * vp));
  }
}

TEST_CASE("interleaved 1F1B with p2p overlap exposes the warm-up and flush transfers and the steady state's excess") {
  // Megatron-LM's --overlap-p2p-communication (on by default with virtual stages, off without them:
  // megatron/training/arguments.py): in the steady state a forward chunk's activation transfer runs
  // during the backward chunk after it, a backward chunk's gradient transfer during the forward
  // chunk after it; warm-up and flush stay synchronous (megatron/core/pipeline_parallel/schedules.py).
  // GPT-3 175B on 1024 A100s, TP 8 x PP 8 x VP 4, m = 96: 384 chunks a rank, rank 0 warms up on
  // W = 2 (8 - 1) + (4 - 1) 8 = 38 of them, each of the 2 x 384 transfers takes t = pp.s / 768, and
  // with selective recompute a chunk's forward is 1/3 of its compute, its backward 2/3.
  const char* base = R"({"model": {"preset": "gpt3-175b"}, "seq_len": 2048, "global_batch": 1536, "tokens": 3e11,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1024}, "network": {%s},
      "parallel": {"tp": 8, "pp": 8, "vp": 4, "zero": 1, "sequence_parallel": true, "recompute": "selective",
      "pp_comm_overlap": %s}})";
  auto run = [&](const char* network, const char* overlap) {
    char text[640];
    std::snprintf(text, sizeof text, base, network, overlap);
    return estimate(parse(text), default_calibration());
  };
  // HDR InfiniBand: a transfer (~0.3 ms) hides behind either chunk (14 and 27 ms), so only the
  // warm-up's 38 forward and the flush's 38 backward transfers show: 76 / 768 = 0.0989583 of pp.s.
  const EstimateResult off = run(R"("inter_node_link": "infiniband-hdr")", "false");
  const EstimateResult on = run(R"("inter_node_link": "infiniband-hdr")", "true");
  CHECK(off.time.comm.pp_exposed_s == doctest::Approx(off.time.comm.pp_s));
  CHECK(on.time.comm.pp_s == doctest::Approx(off.time.comm.pp_s));
  CHECK(on.time.comm.pp_exposed_s == doctest::Approx(76.0 / 768.0 * on.time.comm.pp_s));
  CHECK(on.time.step_s < off.time.step_s);
  // 20 Gb/s: a transfer (~21 ms) hides behind a backward chunk (~27 ms) but not a forward one
  // (~14 ms), so each of the 384 - 38 = 346 steady-state steps exposes t - forward.
  const EstimateResult mid = run(R"("inter_node_gbps": 20)", "true");
  const double t = mid.time.comm.pp_s / 768.0;
  const double forward_s = mid.time.compute_s / 384.0 / 3.0;
  REQUIRE(t > forward_s);
  REQUIRE(t < 2.0 * forward_s);
  CHECK(mid.time.comm.pp_exposed_s == doctest::Approx(76.0 * t + 346.0 * (t - forward_s)));
  // 1 GbE: a transfer (~0.1 s) outlasts both chunks, so each steady-state step hides only its
  // chunk: pp.s - 346 x compute / 384.
  const EstimateResult slow = run(R"("inter_node_link": "ethernet-1g")", "true");
  const double chunk_s = slow.time.compute_s / 384.0;
  REQUIRE(slow.time.comm.pp_s / 768.0 > 2.0 / 3.0 * chunk_s);
  CHECK(slow.time.comm.pp_exposed_s == doctest::Approx(slow.time.comm.pp_s - 346.0 * chunk_s));
}

TEST_CASE("interleaved 1F1B with chunks of unequal length: the bubble follows the longest chunk") {
  // DeepSeek-V3's 61 blocks on PP 4: 15 + 16 + 16 + 14 (pipeline_split). NeMo AutoModel's H100 run
  // takes VP 8 (two layers a virtual stage): the 16-block stages deal 2 blocks to each chunk, so
  // the longest chunk is 2 blocks and v = 16 / 2 = 8, the VP itself. VP 5 gives chunks of 4, 3, 3,
  // 3, 3 on those stages: v = 16 / ceil(16 / 5) = 4, no better than VP 4. m = 512 / (1 x 64) = 8.
  const char* base = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256}, "parallel": {"pp": 4, "vp": %d, "ep": 64,
      "zero": 2, "recompute": "full"}})";
  const double want_v[] = {8.0, 4.0, 4.0};
  const int vps[] = {8, 5, 4};
  for (int i = 0; i < 3; ++i) {
    char text[512];
    std::snprintf(text, sizeof text, base, vps[i]);
    const Scenario s = parse(text);
    CAPTURE(vps[i]);
    CHECK(bubble_virtual_stages(s) == want_v[i]);
    const EstimateResult r = estimate(s, default_calibration());
    CHECK(r.grad_accum == 8);
    CHECK(r.time.bubble_s == doctest::Approx(3.0 / (want_v[i] * 8) *
                                             (r.time.compute_s + r.time.comm.tp_exposed_s + r.time.comm.cp_exposed_s +
                                              r.time.comm.ep_exposed_s)));
  }
  // Without VP, or when VP divides every stage, v is the VP: Llama 3.1 8B's 32 blocks on PP 4, VP 2.
  CHECK(bubble_virtual_stages(parse(R"({"model": {"preset": "llama-3.1-8b"}, "global_batch": 16,
      "parallel": {"pp": 4, "vp": 2}})")) == 2.0);
  CHECK(bubble_virtual_stages(parse(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"pp": 4}})")) == 1.0);
}

TEST_CASE("context parallelism: Llama 3 405B at 131072 tokens, TP 8 x CP 16 x PP 16 x DP 8 on 16,384 H100s") {
  // The layout of the Llama 3 paper's long-context stage (Table 4): 128 sequences of 131072
  // tokens a step (16 per DP replica), so m = 16 micro-batches of one sequence.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072, "global_batch": 128,
      "tokens": 8e11, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384},
      "parallel": {"tp": 8, "cp": 16, "pp": 16, "zero": 1, "sequence_parallel": true}})");
  CHECK(s.dp() == 8);
  CHECK(s.grad_accum() == 16);
  // Ring attention passes a chunk of s / cp = 8192 tokens of K and V (8 KV heads x 128 = 1024
  // wide each, split over TP 8) cp - 1 = 15 times a layer forward:
  // 15 x 8192 x (1024 + 1024) / 8 x 2 B = 62,914,560 B.
  CHECK(cp_kv_bytes_per_layer(s) == 62914560.0);
  const EstimateResult r = estimate(s, default_calibration());
  const Comm& c = r.time.comm;
  // Backward passes K, V and their gradients (2x): 3 x 62,914,560 x 8 blocks of the busiest
  // (middle) stage (126 on 16: 7 + 14 x 8 + 7) x 16 micro-batches = 24,159,191,040 B.
  CHECK(c.cp_bytes == 24159191040.0);
  // The CP group is 16 ranks 8 apart: one GPU a node, each through its own 400 Gb/s NIC (48 GB/s
  // measured busbw); 3 x 15 x 8 x 16 = 5760 ring steps of 5 us each.
  CHECK(c.cp_inter_node);
  CHECK(c.cp_s == doctest::Approx(24159191040.0 / 48e9 + 5760 * 5e-6));
  // Each transfer hides behind the attention of the chunk before it: at 131072 tokens the
  // attention dwarfs it (Megatron-Core's P2P ring overlaps them).
  CHECK(c.cp_exposed_s == 0.0);
  // Gradients are reduced over DP x CP = 128 ranks (Megatron-LM's data-parallel group with context
  // parallelism): 2 x 127 / 128 x 405,853,388,800 / (8 x 16) x 2 B = 12,583,833,100 B.
  CHECK(c.dp_bytes == doctest::Approx(12583833100.0));
  // TP collectives move this GPU's 8192 tokens: b (s / cp) h x 2 B = 268,435,456 B each.
  CHECK(c.tp_bytes == doctest::Approx(4 * 8 * 16 * 2.0 * 7 / 8 * 8192 * 16384 * 2));
}

TEST_CASE("context parallelism under torchtitan: PyTorch's ring gathers the expanded keys and values once a pass") {
  // The Llama 3 long-context layout above (TP 8 x CP 16 x PP 16 x DP 8, 16 micro-batches of one
  // 131072-token sequence, full recompute) run by torchtitan: torch.distributed.tensor.experimental
  // context parallelism with its default rotate method, "allgather".
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072, "global_batch": 128,
      "framework": "torchtitan", "tokens": 8e11, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384},
      "parallel": {"tp": 8, "cp": 16, "pp": 16, "zero": 3, "sequence_parallel": true, "recompute": "full"}})");
  CHECK(cp_runs_pytorch_ring(s));
  // torchtitan repeats the 8 key/value heads to all 128 query heads before SDPA: (1024 + 1024) x
  // 128 / 8 = 32768 wide; a gather brings 15 chunks of 8192 tokens, / TP 8, in 16 bits:
  // 15 x 8192 x 32768 / 8 x 2 B = 1,006,632,960 B (16x Megatron-Core's 62,914,560).
  CHECK(cp_kv_width(s) == 32768.0);
  CHECK(cp_kv_bytes_per_layer(s) == 1006632960.0);
  const EstimateResult r = estimate(s, default_calibration());
  const Comm& c = r.time.comm;
  // Per block and micro-batch: a gather in the forward, again in the recomputed forward and in the
  // backward, and 16 fp32 gradient hops of one chunk, 8192 x 32768 / 8 x 4 B = 134,217,728 B; 8
  // blocks on the busiest stage x 16 micro-batches: (3 x 1,006,632,960 + 16 x 134,217,728) x 128
  // = 661,424,963,584 B.
  CHECK(c.cp_bytes == 661424963584.0);
  // One GPU a node: each GPU's NIC, 48 GB/s busbw, 5 us a step. Gather 1,006,632,960 / 48e9 +
  // 15 x 5 us = 21.047 ms; hop 134,217,728 / 48e9 + 5 us = 2.801 ms; (3 x 21.047 + 16 x 2.801) x 128.
  const double gather = 1006632960.0 / 48e9 + 15 * 5e-6;
  const double hop = 134217728.0 / 48e9 + 5e-6;
  CHECK(c.cp_s == doctest::Approx((3 * gather + 16 * hop) * 128));
  // The busiest stage's attention time A (paced by its imbalance) splits into a forward pass of
  // A / 4.5 (full recompute: forward 1, recomputed forward 1, backward 2.5) per 128 block-micro-
  // batches, fwd = 13.2 ms, and a backward of 2.5 A / 4.5, bwd = 33.1 ms (FlashAttention-2 on
  // 131,072 / 16 = 8,192 tokens: 0.9908 of its 16K rate, catalog 2026.12.17). Only the first ring
  // step, 1/16 of a pass, runs while a gather arrives; each gradient hop runs behind 1/16 of the
  // backward and the last one after it: 2 (gather - fwd/16) + (gather - bwd/16) + 15 (hop - bwd/16)
  // + hop, 73.2 ms x 128 = 9.37 s on the critical path. Megatron-Core's P2P ring hides all of its 1.5 s.
  const double a = r.time.attention_s * r.time.stage_imbalance;
  const double fwd = a / 4.5 / 128, bwd = 2.5 * a / 4.5 / 128;
  CHECK(fwd == doctest::Approx(0.013248).epsilon(1e-3));
  CHECK(bwd == doctest::Approx(0.033120).epsilon(1e-3));
  const double exposed = 2 * (gather - fwd / 16) + (gather - bwd / 16) + 15 * (hop - bwd / 16) + hop;
  CHECK(c.cp_exposed_s == doctest::Approx(exposed * 128));
  CHECK(c.cp_exposed_s == doctest::Approx(9.367).epsilon(1e-3));
  // Per-operator checkpointing keeps the fused kernel's output: one forward ring a step fewer,
  // (2 x 1,006,632,960 + 16 x 134,217,728) x 128 = 532,575,944,704 B.
  const EstimateResult op = estimate(parse(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072,
      "global_batch": 128, "framework": "torchtitan", "tokens": 8e11,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16384},
      "parallel": {"tp": 8, "cp": 16, "pp": 16, "zero": 3, "sequence_parallel": true, "recompute": "selective_op"}})"),
                                     default_calibration());
  CHECK(op.time.comm.cp_bytes == 532575944704.0);
  // Multi-head attention has nothing to expand; Megatron-Core keeps the key/value heads.
  CHECK(cp_kv_width(parse(R"({"model": {"preset": "llama-2-7b"}, "framework": "torchtitan",
      "parallel": {"cp": 2}})")) == 8192.0);
  CHECK(!cp_runs_pytorch_ring(parse(R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron"})")));
}

TEST_CASE("expert parallelism: DeepSeek-V3's all-to-alls with EP 64 (DeepSeek-V3 technical report §3.2)") {
  // 61 blocks (3 dense), 256 routed experts, top-8, hidden 7168; the report's layout: PP 16, EP 64
  // over 8 nodes, ZeRO-1, 2048 H800s, so DP 128 and 15,360 sequences of 4096 tokens: m = 120.
  const Scenario s = parse(R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 15360,
      "tokens": 1.48e13, "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 2048},
      "parallel": {"pp": 16, "ep": 64, "zero": 1}})");
  CHECK(s.dp() == 128);
  CHECK(s.grad_accum() == 120);
  // One all-to-all moves b s top_k h x 2 B = 4096 x 8 x 7168 x 2 = 469,762,048 B of routed
  // tokens, 63 / 64 of it to other GPUs, and the busiest rank gets kMoeCapacityFactor (1.25) x the
  // mean: 469,762,048 x 63 / 64 x 1.25 = 578,027,520 B.
  const Calibration& cal = default_calibration();
  CHECK(cal.moe_capacity_factor.value == 1.25);
  CHECK(ep_alltoall_bytes(s, cal) == 578027520.0);
  const EstimateResult r = estimate(s, cal);
  const Comm& c = r.time.comm;
  // 61 blocks on 16 stages: 3 + 4 x 14 + 2; the middle stages hold 4 MoE blocks. Dispatch and
  // combine forward and backward: 4 x 4 x 120 = 1920 all-to-alls a step.
  CHECK(c.ep_bytes == doctest::Approx(1920 * 578027520.0));
  // EP 64 spans 8 nodes of 8: 7 of the 63 peers share the node (NVLink), 56 are behind the GPU's
  // own NIC: 578,027,520 x 56 / 63 = 513,802,240 B per all-to-all cross nodes.
  CHECK(c.ep_inter_node);
  CHECK(c.ep_inter_node_bytes == doctest::Approx(1920 * 513802240.0));
  CHECK(c.ep_exposed_s == c.ep_s);
  // The busiest experts' rank computes 0.25 x the mean routed-expert GEMMs more.
  CHECK(r.time.expert_imbalance_s > 0);
  // Without EP nothing of it: no all-to-all, no imbalance.
  const EstimateResult plain = estimate(parse(R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096,
      "global_batch": 15360, "tokens": 1.48e13, "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 2048},
      "parallel": {"pp": 16, "zero": 1}})"),
                                        cal);
  CHECK(plain.time.comm.ep_bytes == 0.0);
  CHECK(plain.time.expert_imbalance_s == 0.0);
}

TEST_CASE("expert-parallel all-to-alls overlapped with another micro-batch hide behind its computation") {
  // DeepSeek-V3's layout (report §3.2: PP 16, EP 64, ZeRO-1 DP on 2,048 H800s). Overlapped (DualPipe,
  // Megatron-Core --overlap-moe-expert-parallel-comm) a micro-batch's forward runs beside another's
  // backward: rank 0's pp - 1 = 15 warm-up forwards have no backward beside them, its 15 flush
  // backwards no forward. DP = 2,048 / 16 = 128 ranks, 15,360 / 128 = 120 micro-batches a step, so
  // 15 / 120 of the all-to-alls wait whole; of the other 105 / 120 only what exceeds the computation
  // beside them waits (NCCL's all-to-all holds no SMs the model counts).
  const char* text = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 15360, "tokens": 1e12,
      "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 2048}, "precision": "fp8",
      "parallel": {"pp": 16, "ep": 64, "zero": 1, "recompute": "selective"%s}})";
  char plain[1024], overlapped[1024];
  std::snprintf(plain, sizeof plain, text, "");
  std::snprintf(overlapped, sizeof overlapped, text, ", \"ep_comm_overlap\": true");
  const EstimateResult a = estimate(parse(plain), default_calibration());
  const EstimateResult b = estimate(parse(overlapped), default_calibration());
  REQUIRE(a.time.comm.ep_s > 0);
  CHECK(a.time.comm.ep_exposed_s == doctest::Approx(a.time.comm.ep_s));
  CHECK(b.time.comm.ep_s == doctest::Approx(a.time.comm.ep_s));
  const double ep = a.time.comm.ep_s, compute = a.time.compute_s;
  CHECK(b.time.comm.ep_exposed_s == doctest::Approx(ep * 15 / 120 + std::max(0.0, (ep - compute) * 105 / 120)));
  CHECK(b.time.comm.ep_exposed_s > ep * 15 / 120 * 0.999);
  CHECK(b.time.step_s < a.time.step_s);
}

TEST_CASE("a Megatron-Core MoE block's routed experts move their rows over the expert-TP group, not TP") {
  // Qwen3-30B-A3B (48 MoE blocks, no shared expert, top 8, hidden 2,048) on 8 GPUs, TP 2 with
  // sequence parallelism, EP 4, 16 sequences of 4,096 over DP 4: 4 micro-batches. A dense block's
  // collectives per micro-batch: 2 forward and 2 backward all-reduce equivalents, half the
  // attention's, half the MLP's, each of b s h = 4,096 x 2,048 x 2 B = 16,777,216 B, a TP 2 ring
  // sending 2 (2 - 1) / 2 of it. Megatron-Core's MoE layer routes each rank's own sequence shard, so
  // with etp 1 the MLP half moves nothing across TP: 2 x 48 x 4 = 384 collectives, 384 x 16,777,216 B.
  // With etp 2 the all-to-all dispatcher gathers the received rows over the expert-TP group and
  // reduce-scatters them after the experts (token_dispatcher.py): 8 rows a token, 384 more
  // collectives of 8 x 16,777,216 B: 384 x 16,777,216 x 9 B in all.
  const char* text = R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "micro_batch": 1, "global_batch": 16,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "framework": "%s",
      "parallel": {"tp": 2, "sequence_parallel": true, "ep": 4, "etp": %d, "zero": 1}})";
  auto run = [&](const char* framework, int etp) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, text, framework, etp);
    return estimate(parse(buf), default_calibration());
  };
  constexpr double act = 4096.0 * 2048 * 2;
  CHECK(run("megatron", 1).time.comm.tp_bytes == doctest::Approx(384 * act));
  CHECK(run("megatron", 2).time.comm.tp_bytes == doctest::Approx(384 * act * 9));
  // torchtitan's MoE is not Megatron-Core's: its blocks keep a dense block's count, 4 x 48 x 4.
  CHECK(run("torchtitan", 1).time.comm.tp_bytes == doctest::Approx(768 * act));
  // DeepSeek-V3's shared expert is a dense MLP under TP: its blocks keep the MLP's half.
  const char* dsv3 = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1024}, "framework": "megatron",
      "parallel": {"tp": 2, "sequence_parallel": true, "pp": 8, "ep": 64, "etp": 1, "zero": 1}})";
  const Scenario d = parse(dsv3);
  const EstimateResult rd = estimate(d, default_calibration());
  const double per_mb = 4.0 * busiest_stage_layers(d) * 2 * (2 - 1) / 2.0 * 4096 * 7168 * 2;
  CHECK(rd.time.comm.tp_bytes == doctest::Approx(per_mb * d.grad_accum()));
}

TEST_CASE("DeepSpeed's pipeline engine receives and sends a stage's tensors one blocking call at a time") {
  // MT-NLG's engine (DeepSpeed runtime/pipe/schedule.py TrainSchedule, pipe/p2p.py): a middle stage
  // receives its input, sends its output, receives the gradient and sends it on, four blocking calls
  // a micro-batch, where Megatron batches each exchange (batch_isend_irecv) and counts two. Under TP
  // the engine moves a 1/tp partition and all-gathers it over the TP group three times a micro-batch
  // (the received activation, the received gradient, the saved output before its backward). GPT-3
  // 175B on 64 GPUs, TP 8 x PP 8, 16 micro-batches of 2,048 tokens: b s h = 2,048 x 12,288 x 2 B.
  const char* text = R"({"model": {"preset": "gpt3-175b"}, "seq_len": 2048, "micro_batch": 1, "global_batch": 16,
      "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 64}, "framework": "%s",
      "parallel": {"tp": 8, "pp": 8, "zero": 1, "sequence_parallel": false, "recompute": "full"}})";
  char ds_text[1024], mg_text[1024];
  std::snprintf(ds_text, sizeof ds_text, text, "deepspeed");
  std::snprintf(mg_text, sizeof mg_text, text, "megatron");
  const Scenario ds = parse(ds_text);
  const EstimateResult a = estimate(ds, default_calibration()), b = estimate(parse(mg_text), default_calibration());
  constexpr double act = 2048.0 * 12288 * 2;
  CHECK(a.time.comm.pp_bytes == doctest::Approx(b.time.comm.pp_bytes));
  CHECK(b.time.comm.pp_bytes == doctest::Approx(2 * 16 * act / 8));  // 16 micro-batches, there and back, 1/tp
  const double gather = 0.5 * group_allreduce_s(act, group_link(ds, 8, 1));
  CHECK(a.time.comm.pp_s == doctest::Approx(2 * b.time.comm.pp_s + 3 * 16 * gather));
  CHECK(a.time.comm.pp_exposed_s == doctest::Approx(a.time.comm.pp_s));  // nothing overlaps
}

TEST_CASE("the expert-parallel overlap needs a forward and a backward beside each other") {
  // Without a pipeline Megatron-Core's combined 1F1B runs micro-batch i's forward beside i - 1's
  // backward: the first forward and the last backward are alone, 1 of m; with one micro-batch a
  // step nothing overlaps. With virtual stages rank 0's warm-up holds 2 (pp - 1) + (vp - 1) pp
  // chunks (Megatron-LM schedules.py, forward_backward_pipelining_with_interleaving): PP 4, VP 2,
  // 8 micro-batches (64 over DP 32 / 4 = 8): 2 x 3 + 1 x 4 = 10 of their 16 chunks wait whole.
  const char* text = R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "micro_batch": 1,
      "global_batch": %d, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": %d}, "framework": "megatron",
      "parallel": {"pp": %d, "vp": %d, "ep": 8, "zero": 1, "ep_comm_overlap": %s}})";
  auto run = [&](int batch, int gpus, int pp, int vp, bool overlap) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, text, batch, gpus, pp, vp, overlap ? "true" : "false");
    return estimate(parse(buf), default_calibration());
  };
  const EstimateResult one = run(8, 8, 1, 1, true);
  REQUIRE(one.time.comm.ep_s > 0);
  CHECK(one.time.comm.ep_exposed_s == doctest::Approx(one.time.comm.ep_s));  // 1 micro-batch: alone
  const EstimateResult m64 = run(512, 8, 1, 1, true);
  const double ep64 = m64.time.comm.ep_s;
  CHECK(m64.time.comm.ep_exposed_s ==
        doctest::Approx(ep64 / 64 + std::max(0.0, (ep64 - m64.time.compute_s) * 63 / 64)));
  const EstimateResult plain = run(64, 32, 4, 2, false), inter = run(64, 32, 4, 2, true);
  const double ep = plain.time.comm.ep_s;
  REQUIRE(ep > 0);
  CHECK(inter.time.comm.ep_exposed_s ==
        doctest::Approx(ep * 10 / 16 + std::max(0.0, (ep - plain.time.compute_s) * 6 / 16)));
  CHECK(inter.time.comm.ep_exposed_s < ep);
}

TEST_CASE("DeepEP sends a token across the network once per destination node, not once per routed expert") {
  // DeepSeek-V3 (256 experts, top 8) with EP 64 over 8 nodes of 8 H100s: 32 experts a node. The
  // all-to-all dispatcher sends a copy to every routed expert on another node, 8 x 56 / 64 = 7 a
  // token. DeepEP sends one to each other node holding at least one of the 8: a node misses all 8
  // with probability C(224, 8) / C(256, 8) = (224 x 223 x ... x 217) / (256 x 255 x ... x 249)
  // = 0.338168, so 7 x (1 - 0.338168) = 4.632821 copies (DeepSeek-V3 report §3.2.2).
  const char* text = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256},
      "parallel": {"pp": 4, "ep": 64, "zero": 2, "recompute": "full", "ep_dispatcher": "%s"}})";
  char a2a_text[1024], deepep_text[1024];
  std::snprintf(a2a_text, sizeof a2a_text, text, "alltoall");
  std::snprintf(deepep_text, sizeof deepep_text, text, "deepep");
  const Scenario a2a = parse(a2a_text), deepep = parse(deepep_text);
  const GroupLink eight_nodes = group_link(a2a, 64, 1), one_node = group_link(a2a, 8, 1);
  REQUIRE(eight_nodes.nodes == 8);
  CHECK(ep_network_copies_per_token(a2a, eight_nodes) == doctest::Approx(7.0));
  CHECK(ep_network_copies_per_token(deepep, eight_nodes) == doctest::Approx(4.632821).epsilon(1e-6));
  CHECK(ep_network_copies_per_token(deepep, one_node) == 0.0);  // one node: nothing crosses the network
  const EstimateResult ra = estimate(a2a, default_calibration());
  const EstimateResult rd = estimate(deepep, default_calibration());
  REQUIRE(ra.time.comm.ep_inter_node_bytes > 0);
  CHECK(rd.time.comm.ep_inter_node_bytes / ra.time.comm.ep_inter_node_bytes == doctest::Approx(4.632821 / 7.0));
  // Over NVLink DeepEP sends one copy to each rank holding one of the 8 experts (4 a rank): a rank
  // misses all 8 with probability C(252, 8) / C(256, 8) = 0.880066, and the rank of the sender's
  // own in-node index needs no NVLink hop: 64 x (1 - 0.880066) x 7 / 8 = 6.716281 copies, against
  // the all-to-all's 8 x 7 / 64 = 0.875 routed experts on the node's other ranks.
  CHECK(ep_scale_up_copies_per_token(deepep, eight_nodes) == doctest::Approx(6.716281).epsilon(1e-6));
  CHECK(ep_scale_up_copies_per_token(a2a, eight_nodes) == doctest::Approx(0.875));
  CHECK(rd.time.comm.ep_s < ra.time.comm.ep_s);
  // Nodes of 6 GPUs under EP 32 (GPT-OSS 20B: 32 experts, top 4): a full node holds 6 ranks' 6
  // experts, and a token reaches each of the 5 other nodes with 1 - C(26, 4) / C(32, 4) = 1 -
  // 14,950 / 35,960 = 0.584260: 2.921301 copies (model 23; 32 / 6 rounded down to 5 experts before).
  const Scenario six = parse(R"({"model": {"preset": "gpt-oss-20b"}, "seq_len": 4096, "global_batch": 96,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 96, "gpus_per_node": 6},
      "parallel": {"ep": 32, "ep_dispatcher": "deepep"}})");
  const GroupLink six_nodes = group_link(six, 32, 1);
  REQUIRE(six_nodes.ranks_per_node == 6);
  REQUIRE(six_nodes.nodes == 6);
  CHECK(ep_network_copies_per_token(six, six_nodes) == doctest::Approx(2.921301).epsilon(1e-6));
}

TEST_CASE("A fake balanced gate sends a token to k consecutive experts, with no busiest rank") {
  // NeMo AutoModel's FakeBalancedGate (nemo_automodel/components/moe/layers.py): token i routes to
  // experts i k, ..., i k + k - 1 (mod E); rank r holds experts r E / ep to (r + 1) E / ep - 1.
  // DeepSeek-V3 (E 256, k 8) with EP 64 over 8 nodes: a token's first expert is a multiple of 8,
  // so its 8 experts are the 4 of one rank and the 4 of the next, inside one node (32 experts a
  // node). DeepEP: 1 destination node, another node with probability 7 / 8 -> 0.875 network
  // copies (uniform routing: 4.632821); 2 destination ranks x (1 - 1 / 8) = 1.75 NVLink copies
  // (uniform: 6.716281).
  const char* text = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256},
      "parallel": {"pp": 4, "ep": 64, "zero": 2, "recompute": "full", "ep_dispatcher": "%s", "moe_routing": "%s"}})";
  char buf[1024];
  auto scenario = [&](const char* dispatcher, const char* routing) {
    std::snprintf(buf, sizeof buf, text, dispatcher, routing);
    return parse(buf);
  };
  const Scenario learned = scenario("deepep", "learned"), fake = scenario("deepep", "fake_balanced");
  const GroupLink eight_nodes = group_link(fake, 64, 1);
  REQUIRE(eight_nodes.nodes == 8);
  CHECK(ep_network_copies_per_token(fake, eight_nodes) == doctest::Approx(0.875));
  CHECK(ep_scale_up_copies_per_token(fake, eight_nodes) == doctest::Approx(1.75));
  CHECK(ep_network_copies_per_token(learned, eight_nodes) == doctest::Approx(4.632821).epsilon(1e-6));
  // The all-to-all dispatcher sends a copy per routed expert whatever the routing: 8 x 56 / 64 = 7.
  CHECK(ep_network_copies_per_token(scenario("alltoall", "fake_balanced"), eight_nodes) == doctest::Approx(7.0));
  // Every expert gets the same tokens: no rank waits for a busier one, and the all-to-all carries
  // the mean load, not kMoeCapacityFactor (1.25) x it.
  const EstimateResult rl = estimate(scenario("alltoall", "learned"), default_calibration());
  const EstimateResult rf = estimate(scenario("alltoall", "fake_balanced"), default_calibration());
  REQUIRE(rl.time.expert_imbalance_s > 0);
  CHECK(rf.time.expert_imbalance_s == 0.0);
  CHECK(rl.time.comm.ep_bytes / rf.time.comm.ep_bytes == doctest::Approx(1.25));
}

TEST_CASE("A fake balanced gate's experts can straddle nodes: the reach is averaged over the starting points") {
  // 12 experts, top 4, EP 4 over 2 nodes of 2 GPUs: 3 experts a rank, 6 a node. The first expert
  // steps through 0, 4, 8 (multiples of gcd(4, 12) = 4): experts 0-3 reach ranks {0, 1} and node
  // {0}; 4-7 ranks {1, 2} and nodes {0, 1}; 8-11 ranks {2, 3} and node {1}. DeepEP: (2 + 2 + 2) / 3
  // = 2 ranks x (1 - 1 / 2) = 1 NVLink copy; (1 + 2 + 1) / 3 = 4/3 nodes x (2 - 1) / 2 = 2/3
  // network copies. Uniform routing: 1 - C(6, 4) / C(12, 4) = 1 - 15 / 495 = 0.969697 network
  // copies and 4 (1 - C(9, 4) / C(12, 4)) / 2 = 2 (1 - 126 / 495) = 1.490909 NVLink copies.
  const char* text = R"({"model": {"layers": 4, "hidden": 1024, "heads": 8, "ffn": 4096, "vocab": 32000,
      "experts": 12, "top_k": 4, "expert_ffn": 512}, "seq_len": 2048, "global_batch": 64,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 4, "gpus_per_node": 2},
      "parallel": {"ep": 4, "ep_dispatcher": "deepep", "moe_routing": "%s"}})";
  char buf[1024];
  std::snprintf(buf, sizeof buf, text, "fake_balanced");
  const Scenario fake = parse(buf);
  std::snprintf(buf, sizeof buf, text, "learned");
  const Scenario learned = parse(buf);
  const GroupLink two_nodes = group_link(fake, 4, 1);
  REQUIRE(two_nodes.nodes == 2);
  REQUIRE(two_nodes.ranks_per_node == 2);
  CHECK(ep_network_copies_per_token(fake, two_nodes) == doctest::Approx(2.0 / 3.0));
  CHECK(ep_scale_up_copies_per_token(fake, two_nodes) == doctest::Approx(1.0));
  CHECK(ep_network_copies_per_token(learned, two_nodes) == doctest::Approx(0.969697).epsilon(1e-6));
  CHECK(ep_scale_up_copies_per_token(learned, two_nodes) == doctest::Approx(1.490909).epsilon(1e-6));
}

TEST_CASE("Random router logits leave the busiest rank above the mean by chance only") {
  // Megatron-Core --moe-router-force-load-balancing (moe_utils.py, RandomSTE): fresh normal logits,
  // so a token's 8 experts are a uniform random set of Qwen3-235B-A22B's 128. EP 32, TP 2 with
  // sequence parallelism, 1 x 4,096 tokens: a rank dispatches 2,048 tokens, the group 65,536. A rank
  // holds 4 experts and receives X of a token's 8, hypergeometric: mean 8 / 32 = 0.25, variance
  // 8 (1/32)(31/32)(120/127) = 0.228839. The busiest of 32 ranks: sqrt(2 ln 32) = 2.632769 standard
  // deviations, 2.632769 x sqrt(0.228839 / 65,536) / 0.25 = 0.019679 above the mean: load factor
  // 1.019679, against a learned router's kMoeCapacityFactor 1.25.
  const char* text = R"({"model": {"preset": "qwen3-235b-a22b"}, "seq_len": 4096, "global_batch": 1024,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256},
      "parallel": {"tp": 2, "sequence_parallel": true, "pp": 8, "ep": 32, "etp": 1, "moe_routing": "%s"}})";
  char buf[1024];
  auto run = [&](const char* routing) {
    std::snprintf(buf, sizeof buf, text, routing);
    return estimate(parse(buf), default_calibration());
  };
  const EstimateResult learned = run("learned"), random = run("random");
  REQUIRE(learned.time.expert_imbalance_s > 0);
  // The rank's extra expert work is (factor - 1) x its mean; the all-to-alls carry factor x the mean.
  CHECK(random.time.expert_imbalance_s / learned.time.expert_imbalance_s ==
        doctest::Approx(0.019679 / 0.25).epsilon(1e-4));
  CHECK(random.time.comm.ep_bytes / learned.time.comm.ep_bytes == doctest::Approx(1.019679 / 1.25).epsilon(1e-5));
}

TEST_CASE("Token dropping with padding: every rank runs and exchanges the capacity factor x the mean rows") {
  // Mixtral 8x7B (8 experts of width 14,336, top 2), EP 8 on 64 B200s, micro-batch 2 x 4,096
  // tokens (NeMo 25.02's layout). With --moe-expert-capacity-factor c and
  // --moe-pad-expert-input-to-capacity every expert takes exactly c x its mean share: no rank waits
  // for a busier one (expert imbalance 0, where a learned router's busiest rank is charged
  // kMoeCapacityFactor), every rank runs the padded rows, and the all-to-alls carry c x the mean.
  const char* text = R"({"model": {"preset": "mixtral-8x7b"}, "seq_len": 4096, "micro_batch": 2,
      "global_batch": 256, "framework": "megatron",
      "cluster": {"accelerator": "b200-sxm-180gb", "gpus": 64},
      "parallel": {"ep": 8, "moe_capacity_factor": %s}})";
  char buf[1024];
  auto parse_cf = [&](const char* cf) {
    std::snprintf(buf, sizeof buf, text, cf);
    return parse(buf);
  };
  auto run = [&](const char* cf) { return estimate(parse_cf(cf), default_calibration()); };
  const EstimateResult learned = run("0"), one = run("1"), two = run("2");
  REQUIRE(learned.time.expert_imbalance_s > 0);
  CHECK(one.time.expert_imbalance_s == 0.0);
  CHECK(two.time.expert_imbalance_s == 0.0);
  const double load = default_calibration().moe_capacity_factor.value;
  CHECK(one.time.comm.ep_bytes / learned.time.comm.ep_bytes == doctest::Approx(1.0 / load));
  CHECK(two.time.comm.ep_bytes / learned.time.comm.ep_bytes == doctest::Approx(2.0 / load));
  // The padded rows are executed, not modelled, FLOPs: a token's 2 experts hold 2 x 3 x 4,096 x
  // 14,336 = 352,321,536 parameters a block; 6 FLOPs each (no recompute), 32 blocks, 256 x 4,096 /
  // 64 = 16,384 tokens a GPU: 1,108,307,720,798,208 FLOPs a GPU and step for each c above 1.
  CHECK(two.time.flops.model_per_step == one.time.flops.model_per_step);
  CHECK(two.time.flops.hardware_per_gpu_step - one.time.flops.hardware_per_gpu_step ==
        doctest::Approx(1108307720798208.0).epsilon(1e-12));
  CHECK(one.time.flops.hardware_per_gpu_step == doctest::Approx(learned.time.flops.hardware_per_gpu_step));
  CHECK(two.time.step_s > one.time.step_s);
  // Padding sizes every all-to-all in advance, so the dropless dispatcher's wait for the GPU's token
  // counts (known_slow_path dropless_moe_small_batch, 8,192 tokens a GPU) does not apply.
  CHECK(slow_path_of(parse_cf("0")) == SlowPath::dropless_moe_small_batch);
  CHECK(slow_path_of(parse_cf("1")) == SlowPath::none);
  // The padded rows are kept for the backward pass like the routed ones: FP8 off, BF16, no recompute,
  // a fused SwiGLU keeps gate, up (2 x 2 bytes) and the down projection's input (2 bytes) per expert
  // width, 6 bytes. c = 2 adds a second top_k x 14,336 = 28,672 of it a token and block: 172,032
  // bytes x 8,192 tokens x 32 blocks = 45,097,156,608 bytes.
  CHECK(two.memory.per_gpu.activations - one.memory.per_gpu.activations ==
        doctest::Approx(45097156608.0).epsilon(1e-9));
}

TEST_CASE("A capacity factor is 0 (dropless) or from 1 to experts / top_k, under Megatron's all-to-all dispatcher") {
  // Mixtral's 8 experts, top 2: at c = 4 an expert's capacity is every token of its rank.
  const char* text = R"({"model": {"preset": "mixtral-8x7b"}, "seq_len": 4096, "global_batch": 64,
      "framework": "%s", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"ep": 8, "ep_dispatcher": "%s", "moe_capacity_factor": %s}})";
  char buf[1024];
  auto error = [&](const char* framework, const char* dispatcher, const char* cf) {
    std::snprintf(buf, sizeof buf, text, framework, dispatcher, cf);
    const ScenarioParse r = parse_scenario(buf, builtin_catalog());
    return r.scenario ? std::string() : r.error.message;
  };
  CHECK(error("megatron", "alltoall", "4").empty());
  CHECK(error("megatron", "alltoall", "1").empty());
  CHECK(error("megatron", "alltoall", "0.5") ==
        "parallel.moe_capacity_factor: must be 0 (dropless) or from 1 to experts / top_k = 4 (8 experts, top 2), "
        "where an expert takes every token of its rank; allowed 0 or 1..4, got 0.5");
  CHECK(error("megatron", "alltoall", "4.5").find("allowed 0 or 1..4, got 4.5") != std::string::npos);
  // DeepEP and HybridEP do not pad (Megatron-Core refuses it); torchtitan has no capacity factor.
  CHECK(error("megatron", "deepep", "1").find("applies only when") != std::string::npos);
  CHECK(error("torchtitan", "alltoall", "1").find("applies only when") != std::string::npos);
}

namespace {
const Explanation* explained(const Explainer& ex, const char* key) {
  for (const Explanation& e : ex.items())
    if (e.key == key) return &e;
  return nullptr;
}
double explained_input(const Explanation& e, const char* name) {
  for (const auto& [n, v] : e.inputs)
    if (n == name) return v;
  FAIL("no input " << name << " in " << e.key);
  return 0;
}
}  // namespace

TEST_CASE("a kernel without a rate of its own explains the FlashAttention-2 ratios it runs at") {
  // The Triton FlashAttention on an H100 at 8,192 tokens: kTritonAttentionRatio x FlashAttention-2's
  // 0.338 x 0.9908 (its length ratio there, catalog 2026.12.17); the explanation shows that 0.9908,
  // not the 1 of the Triton kernel's own (absent) sweep.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 8,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 3, "recompute": "full", "attention_kernel": "flash_triton"}})");
  Explainer ex;
  const EstimateResult r = estimate(s, default_calibration(), &ex);
  const Explanation* e = explained(ex, "time.attention_efficiency");
  REQUIRE(e != nullptr);
  CHECK(explained_input(*e, "length_scale") == doctest::Approx(0.9908));
  CHECK(explained_input(*e, "measured") == 0.0);
  CHECK(r.time.attention_efficiency == doctest::Approx(0.56 * 0.338 * 0.9908));
}

TEST_CASE("A routed expert's GEMMs run on the rows that reach it") {
  // Qwen3-30B-A3B (hidden 2048, 128 experts of width 768, top 8) with EP 8, 1 x 4,096 tokens a
  // micro-batch: an expert receives 4,096 x 8 x 8 / 128 = 2,048 rows, so its GEMMs' smallest
  // dimension is its width, 768: e_max x 768 / (768 + 256) = 0.75 e_max, where the attention and
  // dense GEMMs keep min(4,096, 2,048) = 2,048: 2,048 / 2,304 = 0.888889 e_max (kGemmHalfSize 256).
  const Scenario s = parse(R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "parallel": {"ep": 8}})");
  Explainer ex;
  const EstimateResult r = estimate(s, default_calibration(), &ex);
  const Explanation* e = explained(ex, "time.gemm_efficiency");
  REQUIRE(e != nullptr);
  const double e_max = explained_input(*e, "e_max");
  CHECK(explained_input(*e, "d_routed") == 768.0);
  CHECK(explained_input(*e, "gemm_efficiency_routed") == doctest::Approx(0.75 * e_max));
  CHECK(explained_input(*e, "gemm_efficiency_whole") == doctest::Approx(2048.0 / 2304.0 * e_max));
  // The same FLOPs over their rates: 1 / e = (1 - r) / e_whole + r / e_routed.
  const double share = explained_input(*e, "routed_share");
  CHECK(share > 0.5);
  CHECK(r.time.gemm_efficiency ==
        doctest::Approx(1.0 / ((1 - share) / (2048.0 / 2304.0 * e_max) + share / (0.75 * e_max))));
  // Mixtral 8x7B without EP: every GPU runs all 8 experts on its own tokens, 4,096 x 2 / 8 = 1,024 rows
  // an expert, fewer than its width (14,336) or the hidden size (4,096).
  const Scenario mixtral = parse(R"({"model": {"preset": "mixtral-8x7b"}, "seq_len": 4096, "global_batch": 64,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 3}})");
  Explainer mx;
  estimate(mixtral, default_calibration(), &mx);
  const Explanation* me = explained(mx, "time.gemm_efficiency");
  REQUIRE(me != nullptr);
  CHECK(explained_input(*me, "d_routed") == 1024.0);
}

TEST_CASE("Ring attention's merges of partial outputs and gradients: Transformer Engine and PyTorch") {
  // Llama 3.1 8B (output and Q 4,096 wide, K and V 1,024 each, 32 heads over 8 key/value heads, 32
  // blocks), one 262,144-token sequence on 8 H100s (3,350 GB/s), CP 8, ZeRO-3, full recompute (two
  // forward passes). A GPU holds 32,768 tokens. Counted for the last CP rank, per token and block, bf16:
  // - Transformer Engine (AttnFuncWithCPAndKVP2P): output corrected after the loop, a copy then 7
  //   read-add-writes, (2 + 3 x 7) x 2 = 46 B an output element: forward 46 x 4,096 = 188,416;
  //   backward dq the same, 188,416, and dKV half width after the first step, (2 + 1.5 x 7) x 2 = 25 B
  //   on 2,048: 51,200; 2 x 188,416 + 188,416 + 51,200 = 616,448 B.
  // - PyTorch (_SDPAMerger, fp32; torchtitan expands K and V to 32 heads: 8,192 a token): forward
  //   (8 + 4 + 7 x 38) x 4,096 + 2 x 2 x 7 x 8,192 = 1,138,688 + 229,376 = 1,368,064 B; backward
  //   (8 + 2 + 10 x 8) x 4,096 + (16 + 4 + 7 x 25) x 8,192 = 368,640 + 1,597,440 = 1,966,080 B;
  //   2 x 1,368,064 + 1,966,080 = 4,702,208 B.
  // Time = bytes x 32,768 tokens x 32 blocks / (3,350 GB/s x kMemBwEfficiency).
  const Calibration cal = default_calibration();
  const double bw = 3350e9 * cal.mem_bw_efficiency.value;
  const char* layout = R"(, "seq_len": 262144, "global_batch": 1, "micro_batch": 1, "precision": "bf16",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"cp": 8, "zero": 3, "recompute": "full", "flash_attention": true}})";
  const std::string te_text = std::string(R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron")") + layout;
  const std::string pt_text =
      std::string(R"({"model": {"preset": "llama-3.1-8b"}, "framework": "torchtitan")") + layout;
  const Scenario te = parse(te_text.c_str());
  const Scenario pt = parse(pt_text.c_str());
  Explainer tex, pex;
  const EstimateResult rt = estimate(te, cal, &tex);
  const EstimateResult rp = estimate(pt, cal, &pex);
  CHECK(rt.time.cp_merge_s == doctest::Approx(616448.0 * 32768 * 32 / bw).epsilon(1e-12));
  CHECK(rp.time.cp_merge_s == doctest::Approx(4702208.0 * 32768 * 32 / bw).epsilon(1e-12));
  REQUIRE(explained(tex, "time.cp_merge_s") != nullptr);
  CHECK(explained_input(*explained(pex, "time.cp_merge_s"), "fwd_bytes_per_token_layer") == 1368064.0);
  CHECK(explained_input(*explained(pex, "time.cp_merge_s"), "bwd_bytes_per_token_layer") == 1966080.0);
  // Without context parallelism there is nothing to merge.
  const Scenario one = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})");
  CHECK(estimate(one, cal, nullptr).time.cp_merge_s == 0.0);
}

TEST_CASE("Unmerged LoRA adapters add their rows to the memory-bound time") {
  // Llama 3.1 8B (h 4,096, Q 4,096, K and V 1,024 each, SwiGLU 14,336, 32 blocks), LoRA rank 16 on
  // every linear layer, one sequence of 4,096 tokens on one H100 (989 TFLOP/s, 3,350 GB/s), eager
  // torchtune, no recompute. Inputs a token passes through the adapted layers of a block: Q, K, V,
  // gate and up read h, the output projection 4,096, down 14,336: 3 x 4,096 + 4,096 + 2 x 4,096 +
  // 14,336 = 38,912; outputs 4,096 + 2 x 1,024 + 4,096 + 2 x 14,336 + 4,096 = 43,008.
  // Adapter GEMM rows (forward 1 in + 1 out, backward 2 in + 2 out): 3 x 81,920 = 245,760 a token
  // and block, 4,096 x 32 x 245,760 x 2 B = 6.4424509e10 B; their FLOPs, 2 x 16 a row
  // (1.0307922e12, the 6 x 16 x 81,920 x 32 x 4,096 of training_flops), are in gemm_s, so only the
  // rows' time beyond them counts. Eager pointwise rows: forward 5 x 43,008, backward 3 x 38,912 +
  // 2 x 43,008 = 417,792, 4,096 x 32 x 417,792 x 2 B = 1.0952167e11 B.
  const Calibration cal = default_calibration();
  const double bw = 3350e9 * cal.mem_bw_efficiency.value;
  const Scenario eager = parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora",
      "lora": {"rank": 16, "targets": "all_linear"}, "seq_len": 4096, "global_batch": 1, "micro_batch": 1,
      "framework": "torchtune", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1},
      "parallel": {"recompute": "none"}})");
  Explainer ex;
  const EstimateResult r = estimate(eager, cal, &ex);
  const Explanation* e = explained(ex, "time.lora_adapter_s");
  REQUIRE(e != nullptr);
  CHECK(explained_input(*e, "inputs_per_token_layer") == 38912.0);
  CHECK(explained_input(*e, "outputs_per_token_layer") == 43008.0);
  CHECK(explained_input(*e, "gemm_rows") == 245760.0);
  CHECK(explained_input(*e, "pointwise_rows") == 417792.0);
  const double gemm_rate = 989e12 * r.time.gemm_efficiency;
  CHECK(explained_input(*e, "gemm_flops_s") == doctest::Approx(1.0307922e12 / gemm_rate).epsilon(1e-7).scale(0));
  const double excess = 6.4424509e10 / bw - 1.0307922e12 / gemm_rate;
  CHECK(excess > 0);  // rank 16: 16 FLOPs a byte, far below the H100's ridge point
  CHECK(e->value == doctest::Approx(excess + 1.0952167e11 / bw).epsilon(1e-6).scale(0));
  CHECK(r.time.lora_adapter_s == e->value);
  const Explanation* c = explained(ex, "time.compute_s");
  REQUIRE(c != nullptr);
  CHECK(explained_input(*c, "lora_adapter_s") == e->value);
  // torch.compile fuses the scale and the adds: forward 1 out, backward 1 in + 1 out (the scaled
  // gradient); a full recompute runs the forward again: GEMM rows 4 x 81,920, pointwise 2 x 43,008 +
  // 38,912 + 43,008 = 167,936.
  Scenario compiled = eager;
  compiled.techniques.compile = true;
  compiled.parallel.recompute = Recompute::full;
  Explainer cx;
  estimate(compiled, cal, &cx);
  const Explanation* ce = explained(cx, "time.lora_adapter_s");
  REQUIRE(ce != nullptr);
  CHECK(explained_input(*ce, "gemm_rows") == 327680.0);
  CHECK(explained_input(*ce, "pointwise_rows") == 167936.0);
  // Hugging Face PEFT keeps the adapters in fp32 and casts x to fp32 and back: 6 in more a forward and
  // 6 in backward, 417,792 + 12 x 38,912 = 884,736.
  Scenario peft = eager;
  peft.framework = FrameworkKind::hf;
  Explainer px;
  estimate(peft, cal, &px);
  REQUIRE(explained(px, "time.lora_adapter_s") != nullptr);
  CHECK(explained_input(*explained(px, "time.lora_adapter_s"), "pointwise_rows") == 884736.0);
  // TP 2 with sequence parallelism: column-parallel layers read the gathered row and write half,
  // row-parallel ones read half and write h / 2 reduce-scattered: inputs 3 x 4,096 + 2,048 + 2 x
  // 4,096 + 7,168 = 29,696, outputs 3,072 + 2,048 + 14,336 + 2,048 = 21,504.
  Scenario tp = eager;
  tp.cluster.gpus = 2;
  tp.parallel.tp = 2;
  tp.parallel.sequence_parallel = true;
  Explainer tx;
  estimate(tp, cal, &tx);
  REQUIRE(explained(tx, "time.lora_adapter_s") != nullptr);
  CHECK(explained_input(*explained(tx, "time.lora_adapter_s"), "inputs_per_token_layer") == 29696.0);
  CHECK(explained_input(*explained(tx, "time.lora_adapter_s"), "outputs_per_token_layer") == 21504.0);
  // At rank 512 the adapter GEMMs do 512 FLOPs a byte, above the ridge point: their FLOPs pace them,
  // and at TP 1 those are exactly the adapter FLOPs gemm_s holds.
  Scenario wide = eager;
  wide.lora.rank = 512;
  Explainer wx;
  estimate(wide, cal, &wx);
  const Explanation* we = explained(wx, "time.lora_adapter_s");
  REQUIRE(we != nullptr);
  CHECK(we->value == doctest::Approx(1.0952167e11 / bw).epsilon(1e-6).scale(0));
  // Full training has no adapters.
  Explainer fx;
  estimate(parse(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}})"), cal, &fx);
  REQUIRE(explained(fx, "time.lora_adapter_s") != nullptr);
  CHECK(explained(fx, "time.lora_adapter_s")->value == 0.0);
}

TEST_CASE("LoRA on an MoE model: every expert holds adapters, a token runs through top_k of them") {
  // Mixtral 8x7B (h 4,096, Q 4,096, K and V 1,024 each, 8 experts of SwiGLU 14,336, top 2), rank 16
  // on every linear layer. Held per block: attention 16 x ((4,096 + 4,096) + 2 x (4,096 + 1,024) +
  // (4,096 + 4,096)) = 425,984, experts 16 x 8 x 3 x (4,096 + 14,336) = 7,077,888: 7,503,872.
  // Run per token and block: attention in 4 x 4,096, out 10,240; two experts' MLPs in 2 x 2 x 4,096 +
  // 2 x 14,336 = 45,056, out 2 x 2 x 14,336 + 2 x 4,096 = 65,536: 16 x 137,216 = 2,195,456.
  const Scenario s = parse(R"({"model": {"preset": "mixtral-8x7b"}, "method": "lora",
      "lora": {"rank": 16, "targets": "all_linear"}})");
  CHECK(lora_params_per_layer(s.model, s.lora) == 7503872.0);
  CHECK(lora_active_params_per_layer(s.model, s.lora) == 2195456.0);
}

TEST_CASE("LoRA adapters under expert tensor parallelism, selective_op recompute, and dense and MoE blocks") {
  const Calibration cal = default_calibration();
  // Mixtral 8x7B (h 4,096, Q 4,096, K and V 1,024, 8 experts of SwiGLU 14,336, top 2) with TP 2 and
  // sequence parallelism. Attention: inputs 3 x 4,096 + 4,096 / 2 = 14,336, outputs 6,144 / 2 +
  // 4,096 / 2 = 5,120. ETP 2: the experts see every token of the shard pair, inputs 2 x 2 x 4,096 +
  // 28,672 / 2 = 30,720, outputs 2 x 28,672 / 2 + 2 x 4,096 / 2 = 32,768. ETP 1: each GPU runs the
  // experts at full width on its own sequence shard, half the tokens: inputs (16,384 + 28,672) / 2 =
  // 22,528, outputs (57,344 + 8,192) / 2 = 32,768.
  auto widths = [&](int etp) {
    Scenario s = parse(R"({"model": {"preset": "mixtral-8x7b"}, "method": "lora", "framework": "torchtune",
        "lora": {"rank": 16, "targets": "all_linear"}, "seq_len": 4096, "global_batch": 1,
        "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 2}, "parallel": {"tp": 2, "sequence_parallel": true}})");
    s.parallel.etp = etp;
    Explainer ex;
    estimate(s, cal, &ex);
    const Explanation* e = explained(ex, "time.lora_adapter_s");
    REQUIRE(e != nullptr);
    return std::pair{explained_input(*e, "inputs_per_token_layer"), explained_input(*e, "outputs_per_token_layer")};
  };
  CHECK(widths(2) == std::pair{14336.0 + 30720.0, 5120.0 + 32768.0});
  CHECK(widths(1) == std::pair{14336.0 + 22528.0, 5120.0 + 32768.0});
  // selective_op reruns the adapters' forward: their rows (4 x 81,920 GEMM rows for Llama 3.1 8B) and
  // their FLOPs in gemm_s (8 a parameter), which at TP 1 are exactly the GEMMs' own.
  const Scenario op = parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "framework": "torchtune",
      "lora": {"rank": 16, "targets": "all_linear"}, "seq_len": 4096, "global_batch": 1,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"recompute": "selective_op"}})");
  Explainer ox;
  estimate(op, cal, &ox);
  const Explanation* oe = explained(ox, "time.lora_adapter_s");
  REQUIRE(oe != nullptr);
  CHECK(explained_input(*oe, "gemm_rows") == 327680.0);
  CHECK(explained_input(*oe, "adapter_flops_in_gemm_s") ==
        doctest::Approx(explained_input(*oe, "gemm_flops_s")).epsilon(1e-12).scale(0));
  // One dense block and three MoE blocks (h 64, ffn 256; 4 experts of 32 and one shared expert of 64,
  // SwiGLU), rank 2 on every linear layer: attention 2 x 4 x (64 + 64) = 1,024 a block, x 4 = 4,096;
  // the dense MLP 3 x 2 x (64 + 256) = 1,920; an MoE block 3 x 2 x (4 x (64 + 32) + (64 + 64)) = 3,072,
  // x 3 = 9,216: 15,232 trained parameters.
  const Scenario mixed = parse(R"({"model": {"layers": 4, "hidden": 64, "heads": 4, "ffn": 256, "vocab": 1000,
      "experts": 4, "top_k": 2, "shared_experts": 1, "expert_ffn": 32, "shared_expert_ffn": 64, "dense_layers": 1},
      "method": "lora", "lora": {"rank": 2, "targets": "all_linear"}, "cluster": {"gpus": 1}})");
  CHECK(lora_params_total(mixed.model, mixed.lora) == 15232.0);
  CHECK(estimate(mixed, cal).memory.trainable_params == 15232.0);
}

TEST_CASE("Routing tokens to experts and back copies hidden-wide rows through HBM") {
  // Qwen3-30B-A3B (48 MoE blocks, hidden 2048, 128 experts, top 8) with EP 8 on 16 H100s, BF16, no
  // recompute, 512 x 4,096 tokens over DP 16: 131,072 tokens a GPU. Megatron-Core's all-to-all
  // dispatcher, 16 experts a rank: permute 2 x 8 rows, unpermute 8 + 1, sort and unsort 2 x 8
  // each = 57 rows of 2,048 a token and block; forward and backward: 131,072 x 48 x 2 x 57 x
  // 2,048 x 2 B = 2.9377574e12 B over 3,350 GB/s x kMemBwEfficiency.
  const Calibration cal = default_calibration();
  const double bw = 3350e9 * cal.mem_bw_efficiency.value;
  const Scenario a2a = parse(R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "parallel": {"ep": 8, "ep_dispatcher": "alltoall"}})");
  Explainer ex;
  estimate(a2a, cal, &ex);
  const Explanation* e = explained(ex, "time.moe_permute_s");
  REQUIRE(e != nullptr);
  CHECK(explained_input(*e, "rows_per_token") == 57.0);
  CHECK(e->value == doctest::Approx(2.9377574e12 / bw).epsilon(1e-6));
  // The compute time's memory-bound part holds them.
  const Explanation* c = explained(ex, "time.compute_s");
  REQUIRE(c != nullptr);
  CHECK(explained_input(*c, "moe_permute_s") == e->value);
  CHECK(explained_input(*c, "memory_bound_s") > e->value);
  // DeepEP receives a token once per rank holding one of its 8 experts, 8 x (1 - C(112, 8) / C(128, 8))
  // = 8 x 0.667420 = 5.339361 ranks, and permutes the received rows: 24 + 5.339361 rows; a full
  // recompute repeats the forward's copies: 3 passes.
  const Scenario deepep = parse(R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
      "parallel": {"ep": 8, "ep_dispatcher": "deepep", "recompute": "full"}})");
  Explainer dx;
  estimate(deepep, cal, &dx);
  const Explanation* d = explained(dx, "time.moe_permute_s");
  REQUIRE(d != nullptr);
  CHECK(explained_input(*d, "rows_per_token") == doctest::Approx(29.339361).epsilon(1e-6));
  CHECK(d->value == doctest::Approx(2.9377574e12 * 29.339361 / 57.0 * 3.0 / 2.0 / bw).epsilon(1e-6));
  // HybridEP sends DeepEP's copies, but its kernels place the rows in expert order: no copies on the
  // compute stream.
  Scenario hybridep = deepep;
  hybridep.parallel.ep_dispatcher = EpDispatcher::hybridep;
  Explainer hx;
  const EstimateResult rh = estimate(hybridep, cal, &hx);
  const Explanation* hp = explained(hx, "time.moe_permute_s");
  REQUIRE(hp != nullptr);
  CHECK(hp->value == 0.0);
  CHECK(rh.time.comm.ep_s == doctest::Approx(estimate(deepep, cal).time.comm.ep_s));
  // Mixtral 8x7B (top 2) with TP 8, sequence parallelism and no EP: Megatron's allgather dispatcher
  // gathers the 8 ranks' tokens and every rank permutes them all, (3 x 2 + 1) x 8 = 56 rows of
  // 4,096 / 8 = 512 a token.
  const Scenario mixtral = parse(R"({"model": {"preset": "mixtral-8x7b"}, "seq_len": 4096, "global_batch": 64,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "parallel": {"tp": 8, "sequence_parallel": true}})");
  Explainer mx;
  estimate(mixtral, cal, &mx);
  const Explanation* mp = explained(mx, "time.moe_permute_s");
  REQUIRE(mp != nullptr);
  CHECK(explained_input(*mp, "rows_per_token") == 56.0);
  // A dense model has none.
  Explainer lx;
  estimate(parse(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}})"), cal, &lx);
  REQUIRE(explained(lx, "time.moe_permute_s") != nullptr);
  CHECK(explained(lx, "time.moe_permute_s")->value == 0.0);
}

TEST_CASE("An MoE model whose blocks are all dense runs no routed GEMMs and waits for no busier rank") {
  // 8 experts declared, but dense_layers = layers: no block routes, so no expert GEMM rate exists and
  // the expert imbalance is 0 (it divided by that missing rate once).
  const Scenario s = parse(R"({"model": {"layers": 4, "hidden": 1024, "heads": 8, "ffn": 4096, "vocab": 32000,
      "experts": 8, "top_k": 2, "expert_ffn": 1024, "dense_layers": 4}, "seq_len": 2048, "global_batch": 64,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"ep": 8, "moe_routing": "random"}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(r.time.expert_imbalance_s == 0.0);
  CHECK(std::isfinite(r.time.step_s));
  CHECK(r.time.step_s > 0);
}

TEST_CASE("Inside one node DeepEP sends a token once per destination rank, the all-to-all once per routed expert") {
  // Qwen3-30B-A3B (128 experts, top 8) with EP 8 on one node of 8 H100s: 16 experts a rank. The
  // all-to-all dispatcher sends a copy to every routed expert on another rank, 8 x 7 / 8 = 7 a
  // token. DeepEP's dispatch layout (get_dispatch_layout: tokens per rank, is_token_in_rank) sends
  // one to each other rank holding at least one of the 8: a rank misses all 8 with probability
  // C(112, 8) / C(128, 8) = 0.332580, so 8 x (1 - 0.332580) x 7 / 8 = 4.671937 copies.
  const char* text = R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "micro_batch": 4, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"ep": 8, "zero": 3, "recompute": "full", "ep_dispatcher": "%s"}})";
  char a2a_text[1024], deepep_text[1024];
  std::snprintf(a2a_text, sizeof a2a_text, text, "alltoall");
  std::snprintf(deepep_text, sizeof deepep_text, text, "deepep");
  const Scenario a2a = parse(a2a_text), deepep = parse(deepep_text);
  const GroupLink one_node = group_link(a2a, 8, 1);
  REQUIRE(one_node.nodes == 1);
  CHECK(ep_scale_up_copies_per_token(a2a, one_node) == doctest::Approx(7.0));
  CHECK(ep_scale_up_copies_per_token(deepep, one_node) == doctest::Approx(4.671937).epsilon(1e-6));
  const Comm ca = estimate(a2a, default_calibration()).time.comm;
  const Comm cd = estimate(deepep, default_calibration()).time.comm;
  REQUIRE(ca.ep_bytes > 0);
  CHECK(ca.ep_inter_node_bytes == 0.0);
  CHECK(cd.ep_bytes / ca.ep_bytes == doctest::Approx(4.671937 / 7.0).epsilon(1e-6));
  CHECK(cd.ep_s / ca.ep_s == doctest::Approx(4.671937 / 7.0).epsilon(1e-3));  // bandwidth-bound: latency aside
}

TEST_CASE("PyTorch async TP hides the forward's two TP collectives per layer, Megatron's overlap all of them") {
  // torchtitan's Llama 3.1 70B layout of the June 2025 async-TP benchmark: FSDP 32 x TP 8, full AC,
  // local batch 16. Per layer and micro-batch 6 collectives of all-reduce volume (2 forward, 2 in
  // the recompute, 2 backward); async TP pipelines the forward pair with its matmuls, so 2 / 6 of
  // the TP time can hide (PyTorch's post: ~20 % forward but ~8 % end-to-end speedup for 70B).
  const char* text = R"({"model": {"preset": "llama-3.1-70b"}, "seq_len": 8192, "micro_batch": 16,
      "global_batch": 512, "tokens": 1e9, "framework": "%s",
      "cluster": {"accelerator": "h100-sxm5-96gb-500w", "gpus": 256},
      "parallel": {"tp": 8, "zero": 3, "sequence_parallel": true, "recompute": "full", "tp_comm_overlap": %s}})";
  char buf[1024];
  auto run = [&](const char* framework, const char* overlap) {
    std::snprintf(buf, sizeof buf, text, framework, overlap);
    return estimate(parse(buf), default_calibration()).time.comm;
  };
  const Comm plain = run("torchtitan", "false");
  const Comm async_tp = run("torchtitan", "true");
  const Comm megatron = run("megatron", "true");
  REQUIRE(plain.tp_s > 0);
  CHECK(plain.tp_exposed_s == doctest::Approx(plain.tp_s));
  CHECK(async_tp.tp_exposed_s == doctest::Approx(plain.tp_s * 4.0 / 6.0));
  // Megatron-Core's userbuffers overlap forward and backward: nothing of the TP time stays exposed
  // while kTpCommOverlap x compute (the compute is about 5x the TP time here) covers it.
  CHECK(megatron.tp_exposed_s == doctest::Approx(0.0));
  CHECK(tp_collectives_per_layer(Recompute::full, 1.0) == 6.0);
}

TEST_CASE("TP comm overlap runs its GEMMs on chunks of the tokens: Transformer Engine's default methods") {
  // A GPT block without biases, h 16384, f 4h = 65536, MHA, 8 layers, vocab 32768, TP 8, one
  // sequence of 4096 tokens: the GEMMs' width is h / tp = 2048 and their rows the 4096 tokens.
  const char* text = R"({"model": {"layers": 8, "hidden": 16384, "heads": 128, "ffn": 65536, "vocab": 32768,
      "gated_mlp": false, "tied_embeddings": false, "norm": "layernorm"}, "seq_len": 4096, "global_batch": 8,
      "framework": "%s", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64},
      "parallel": {"tp": 8, "zero": 1, "sequence_parallel": true, "recompute": "%s", "tp_comm_overlap": %s}})";
  char buf[1024];
  auto scenario = [&](const char* framework, const char* recompute, const char* overlap) {
    std::snprintf(buf, sizeof buf, text, framework, recompute, overlap);
    return parse(buf);
  };
  const double h = 16384, f = 65536, layers = 8, vocab = 32768;
  // Per token: gathered-input weights (Q, K, V: 3 h^2; FC1: h f) and reduce-scattered-output
  // weights (output projection h^2; FC2 f h), and every linear weight with the logit layer.
  const double gathered = layers * (3 * h * h + h * f);
  const double scattered = layers * (h * h + f * h);
  const double linear = gathered + scattered + vocab * h;
  const Scenario te = scenario("megatron", "none", "true");
  const SplitGemms split = tp_overlap_split_gemms(te, count_params(te.model));
  // Forward, data gradient, weight gradient: 3 passes. Ring exchange (tp chunks): forward QKV and
  // FC1, data gradients of the projection and FC2; pipeline (4 chunks): forward projection and FC2.
  CHECK(split.share_by_tp == doctest::Approx((gathered + scattered) / (3 * linear)));
  CHECK(split.share_by_4 == doctest::Approx(scattered / (3 * linear)));
  CHECK(split.share_by_tp == doctest::Approx(0.32653).epsilon(1e-4));  // 12 h^2 L / 3 (12 h^2 L + V h)
  // Full recompute runs the forward twice: 4 passes, the forward's splits twice.
  const Scenario te_full = scenario("megatron", "full", "true");
  const SplitGemms full = tp_overlap_split_gemms(te_full, count_params(te_full.model));
  CHECK(full.share_by_tp == doctest::Approx((2 * gathered + scattered) / (4 * linear)));
  CHECK(full.share_by_4 == doctest::Approx(2 * scattered / (4 * linear)));
  // PyTorch async TP splits the forward's four matmuls by tp, nothing by 4.
  const Scenario async_tp = scenario("torchtitan", "none", "true");
  const SplitGemms a = tp_overlap_split_gemms(async_tp, count_params(async_tp.model));
  CHECK(a.share_by_tp == doctest::Approx((gathered + scattered) / (3 * linear)));
  CHECK(a.share_by_4 == 0.0);
  // Without the overlap nothing is split and the efficiency is the whole GEMM's.
  const Scenario plain = scenario("megatron", "none", "false");
  const SplitGemms none = tp_overlap_split_gemms(plain, count_params(plain.model));
  CHECK(none.share_by_tp == 0.0);
  CHECK(none.share_by_4 == 0.0);
  // The split GEMMs run at the efficiency of their own rows, e_max d / (d + kGemmHalfSize) with
  // d = min(rows, 2048): 4096 / 8 = 512 rows (ring exchange), 4096 / 4 = 1024 (pipeline).
  const Calibration cal = default_calibration();
  const double e_max = te.cluster.gemm_efficiency, half = cal.gemm_half_size.value;
  auto e = [&](double d) { return e_max * d / (d + half); };
  const double whole = gemm_efficiency(te, cal, nullptr);
  CHECK(whole == doctest::Approx(e(2048)));
  const double expected = 1 / ((1 - split.share_by_tp - split.share_by_4) / e(2048) + split.share_by_tp / e(512) +
                               split.share_by_4 / e(1024));
  CHECK(split_gemm_efficiency(te, cal, whole, split, nullptr) == doctest::Approx(expected));
  CHECK(estimate(te, cal).time.gemm_efficiency == doctest::Approx(expected));
  CHECK(estimate(plain, cal).time.gemm_efficiency == doctest::Approx(whole));
  CHECK(expected < whole);
}

TEST_CASE("attention runs as its own kernel at the accelerator's measured rate, FP8 only in the linear GEMMs") {
  // Llama 3.1 8B, one sequence of 8,192 tokens on one H100 SXM (989 TFLOP/s dense BF16), no recompute.
  // Attention forward per token A = 2 s (q + o) L = 2 x 8,192 x (4,096 + 4,096) x 32 = 4,294,967,296.
  // FlashAttention-2 skips the masked half and recomputes the scores in backward: kernel FLOPs per
  // token A / 2 x (1 + 2.5) = 7,516,192,768; at the catalog's 0.338 of 989 TFLOP/s (FlashAttention-3
  // paper, 16K tokens) x 0.9908 at 8,192 tokens (the same paper's bars, 331.3 over 334.4 TFLOP/s;
  // catalog 2026.12.17) the step's 8,192 tokens take 8,192 x 7,516,192,768 / (989e12 x 0.338 x
  // 0.9908) = 0.18590 s.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 1,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"flash_attention": true}})");
  const EstimateResult r = estimate(s, default_calibration());
  const double kernel_per_token = 4294967296.0 / 2 * 3.5;
  CHECK(r.time.flops.attention_kernel_per_token == doctest::Approx(kernel_per_token));
  const double flash2 = 0.338 * 0.9908;
  CHECK(r.time.attention_efficiency == doctest::Approx(flash2));
  CHECK(r.time.attention_s == doctest::Approx(8192 * kernel_per_token / (989e12 * flash2)));
  CHECK(r.time.attention_s == doctest::Approx(0.18590).epsilon(1e-4));
  // FlashAttention-3 on the same part runs at 0.590, x 0.9966 at 8,192 tokens (581.4 over 583.4
  // TFLOP/s) (parallel.attention_kernel).
  Scenario fa3 = s;
  fa3.parallel.attention_kernel = AttentionKernel::flash3;
  CHECK(estimate(fa3, default_calibration()).time.attention_s ==
        doctest::Approx(8192 * kernel_per_token / (989e12 * 0.590 * 0.9966)));
  // FP8: the linear GEMMs run at the FP8 peak x the sustained FP8 ratio (0.6842: 1354 / 1979, the
  // GH100's MSMF), attention keeps its 16-bit kernel time.
  Scenario fp8 = s;
  fp8.precision = Precision::fp8;
  const EstimateResult q = estimate(fp8, default_calibration());
  CHECK(q.time.attention_s == doctest::Approx(r.time.attention_s));
  // Same GEMM shapes: the efficiency curve scales with the ratio, 0.6842 / 0.7634 of the BF16 one
  // (BF16: 755 / 989, the GH100's MSMF).
  CHECK(q.time.gemm_efficiency == doctest::Approx(r.time.gemm_efficiency * 0.6842 / 0.7634));
  // The Triton FlashAttention has no published rate on the H100: it runs at kTritonAttentionRatio (0.56,
  // fitted on the llm-foundry A100 and H100 rows that ran it) of FlashAttention-2's rate there at this
  // length, 0.338 x 0.9908, so 0.1875, not at the 0.7634 large-GEMM ratio. FlashAttention-1 has none either
  // and keeps FlashAttention-2's rate, a floor of its class (the FlashAttention-2 paper: about half
  // FlashAttention-2's speed), and so does a newer kernel without a rate here, FlashAttention-4 (a
  // Blackwell kernel).
  Scenario triton = s;
  triton.parallel.attention_kernel = AttentionKernel::flash_triton;
  CHECK(estimate(triton, default_calibration()).time.attention_efficiency == doctest::Approx(0.56 * flash2));
  Scenario fa1 = s;
  fa1.parallel.attention_kernel = AttentionKernel::flash1;
  CHECK(estimate(fa1, default_calibration()).time.attention_efficiency == doctest::Approx(flash2));
  Scenario fa4 = s;
  fa4.parallel.attention_kernel = AttentionKernel::flash4;
  REQUIRE(fa4.cluster.attention_efficiency[static_cast<int>(AttentionKernel::flash4)] == 0.0);
  CHECK(estimate(fa4, default_calibration()).time.attention_efficiency == doctest::Approx(flash2));
  // An accelerator with no published attention rate at all keeps its large-GEMM ratio.
  const Scenario rtx = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 1,
      "method": "qlora", "cluster": {"accelerator": "rtx-4090", "gpus": 1}, "parallel": {"flash_attention": true}})");
  CHECK(rtx.cluster.attention_efficiency[static_cast<int>(AttentionKernel::flash2)] == 0.0);
  CHECK(estimate(rtx, default_calibration()).time.attention_efficiency ==
        doctest::Approx(rtx.cluster.gemm_efficiency > 0 ? rtx.cluster.gemm_efficiency
                                                        : default_calibration().default_gemm_efficiency.value));
}

TEST_CASE("on ROCm PyTorch attends through AOTriton and Megatron through AITER, each at its measured rate") {
  // Llama 3.1 8B, one sequence of 8,192 tokens on one MI300X (1,307.4 TFLOP/s dense BF16). Kernel FLOPs
  // per token as on the H100: 4,294,967,296 / 2 x 3.5 = 7,516,192,768. Catalog 2026.12.20:
  // - PyTorch's scaled_dot_product_attention runs AOTriton (attention_kernel_pytorch): forward 289.5
  //   TFLOP/s measured, backward assumed at 0.355 of it, 3.5 / (1 / 289.5 + 2.5 / 102.8) = 126.0, 0.0964;
  // - Transformer Engine (Megatron) runs AITER's v3 kernels (attention_kernel): forward 550.67 and
  //   backward 432.715 TFLOP/s at 8,192 tokens, 460.9, 0.3526 (its length scale is 1 there);
  // - flash-attn 2's ROCm build (Composable Kernel): 228.36 TFLOP/s, 0.1747.
  const char* text = R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 1,
      "framework": "torchtitan", "cluster": {"accelerator": "mi300x", "gpus": 1}, "parallel": {"flash_attention": true}})";
  const Scenario pytorch = parse(text);
  const double kernel_per_token = 4294967296.0 / 2 * 3.5;
  const EstimateResult r = estimate(pytorch, default_calibration());
  CHECK(r.time.attention_efficiency == doctest::Approx(0.0964));
  CHECK(r.time.attention_s == doctest::Approx(8192 * kernel_per_token / (1307.4e12 * 0.0964)));
  CHECK(r.time.attention_s == doctest::Approx(0.48855).epsilon(1e-4));
  Scenario megatron = pytorch;
  megatron.framework = FrameworkKind::megatron;
  CHECK(estimate(megatron, default_calibration()).time.attention_efficiency == doctest::Approx(0.3526));
  Scenario flash2 = pytorch;
  flash2.parallel.attention_kernel = AttentionKernel::flash2;
  CHECK(estimate(flash2, default_calibration()).time.attention_efficiency == doctest::Approx(0.1747));
  // Named, AITER runs under any framework, at its measured change with length: 4,096 tokens
  // 427.9 / 460.9 = 0.9283 of the 8,192-token rate.
  Scenario aiter = pytorch;
  aiter.parallel.attention_kernel = AttentionKernel::aiter;
  aiter.seq_len = 4096;
  CHECK(estimate(aiter, default_calibration()).time.attention_efficiency == doctest::Approx(0.3526 * 0.9283));
  // The MI325X shares the MI300X's compute die and peak: the same rates, assumed.
  const std::string on = text;
  Scenario mi325x = parse(std::string(on).replace(on.find("mi300x"), 6, "mi325x").c_str());
  CHECK(estimate(mi325x, default_calibration()).time.attention_efficiency == doctest::Approx(0.0964));
  // An NVIDIA part names no PyTorch kernel of its own: PyTorch runs its usual FlashAttention-2 (0.338,
  // x 0.9908 at 8,192 tokens), and a ROCm kernel named there runs at that rate too.
  Scenario h100 = parse(std::string(on).replace(on.find("mi300x"), 6, "h100-sxm5-80gb").c_str());
  CHECK(estimate(h100, default_calibration()).time.attention_efficiency == doctest::Approx(0.338 * 0.9908));
  h100.parallel.attention_kernel = AttentionKernel::aiter;
  CHECK(estimate(h100, default_calibration()).time.attention_efficiency == doctest::Approx(0.338 * 0.9908));
}

TEST_CASE("Hopper and Blackwell parts without their own attention benchmark use their architecture's measured rate") {
  // Catalog 2026.12.5: before it, the H100 PCIe and NVL cards, the GH200 and the GB200 had no
  // attention rate and ran attention at their large-GEMM ratio, which no attention kernel reaches.
  // The same 8 B model and 8,192-token sequence as above: kernel FLOPs per token
  // A / 2 x 3.5 = 7,516,192,768 (A = 2 x 8,192 x 8,192 x 32).
  const double kernel_per_token = 4294967296.0 / 2 * 3.5;
  auto attention = [](const char* accelerator) {
    return estimate(one_sequence_on(accelerator), default_calibration()).time;
  };
  // Hopper: the H100 SXM5's FlashAttention-2 fraction, 0.338 of each part's own dense peak
  // (756 TFLOP/s PCIe, 835.5 NVL, 990 GH200), at 8,192 tokens x 0.9908 of it (catalog 2026.12.17, the
  // H100's length scale: FlashAttention-3 paper, Figs. 5b/6b, 331.3 over 334.4 TFLOP/s):
  // 8,192 x 7,516,192,768 / (756e12 x 0.338 x 0.9908) = 0.24320 s on the PCIe card, where the GEMM
  // fallback (0.75) gave 0.10859 s.
  for (const std::pair<const char*, double>& part :
       {std::pair{"h100-pcie-80gb", 756.0}, {"h100-nvl-94gb", 835.5}, {"gh200-96gb", 990.0}}) {
    CAPTURE(part.first);
    const TimeResult t = attention(part.first);
    CHECK(t.attention_efficiency == doctest::Approx(0.338 * 0.9908));
    CHECK(t.attention_s == doctest::Approx(8192 * kernel_per_token / (part.second * 1e12 * 0.338 * 0.9908)));
  }
  CHECK(attention("h100-pcie-80gb").attention_s == doctest::Approx(0.24320).epsilon(1e-4));
  // Blackwell: the GB200 runs FlashAttention-4 at the B200's measured 0.561 of its 2,500 TFLOP/s
  // peak: 8,192 x 7,516,192,768 / (2,500e12 x 0.561) = 0.043901 s (the GEMM ratio, 0.7288, gave
  // 0.033793 s).
  const TimeResult gb200 = attention("gb200-186gb");
  CHECK(gb200.attention_efficiency == doctest::Approx(0.561));
  CHECK(gb200.attention_s == doctest::Approx(0.043901).epsilon(1e-4));
  CHECK(attention("b200-sxm-180gb").attention_efficiency == doctest::Approx(gb200.attention_efficiency));
  // B300 (catalog 2026.12.5): FlashAttention-4 at the B200's 0.561 of the same 2,250 TFLOP/s peak:
  // 8,192 x 7,516,192,768 / (2,250e12 x 0.561) = 0.048780 s.
  const TimeResult b300 = attention("b300-sxm-288gb");
  CHECK(b300.attention_s == doctest::Approx(8192 * kernel_per_token / (2250e12 * 0.561)));
  CHECK(b300.attention_s == doctest::Approx(0.048780).epsilon(1e-4));
  // GB300: the same 0.561 of its 2,500 TFLOP/s peak, as the GB200: 0.043901 s.
  CHECK(attention("gb300-288gb").attention_s == doctest::Approx(gb200.attention_s));
}

TEST_CASE("Blackwell parts run cuDNN and FlashAttention-2 at their measured rates, not the GEMM ratio") {
  // Catalog 2026.12.6: NVIDIA's cuDNN frontend SDPA training benchmark (Llama 3.1 405B attention,
  // head dim 128, causal, 16,384 tokens): on the B200 cuDNN 9.10.2 takes 6.517 ms forward and
  // 20.498 ms backward, flash-attn 2.7.4 20.553 and 62.037 ms, for 3.5 x 8.796e12 kernel FLOPs:
  // 1,139.6 and 372.8 TFLOP/s, 0.5065 and 0.1657 of 2,250. Before it both kernels fell back to the
  // B200's GEMM ratio, 0.7756. Same model and sequence as above: 8,192 x 7,516,192,768 FLOPs.
  // Catalog 2026.12.8: at 8,192 tokens the same sweep's cuDNN runs 1,001.5 TFLOP/s, 0.879 of its
  // 16,384-token figure (attention_length_scale); catalog 2026.12.9: its FlashAttention-2 351.3,
  // 0.942 of 372.8.
  const double kernel_flops = 8192 * (4294967296.0 / 2 * 3.5);
  auto attention = [](const char* accelerator, AttentionKernel kernel) {
    Scenario s = one_sequence_on(accelerator);
    s.parallel.attention_kernel = kernel;
    return estimate(s, default_calibration()).time;
  };
  const AttentionKernel k_cudnn = AttentionKernel::cudnn, k_flash2 = AttentionKernel::flash2;
  const TimeResult cudnn = attention("b200-sxm-180gb", k_cudnn);
  CHECK(cudnn.attention_efficiency == doctest::Approx(0.5065 * 0.879));
  CHECK(cudnn.attention_s == doctest::Approx(kernel_flops / (2250e12 * 0.5065 * 0.879)));
  CHECK(cudnn.attention_s == doctest::Approx(0.061466).epsilon(1e-4));
  const TimeResult flash2 = attention("b200-sxm-180gb", k_flash2);
  CHECK(flash2.attention_efficiency == doctest::Approx(0.1657 * 0.942));
  CHECK(flash2.attention_s == doctest::Approx(0.175320).epsilon(1e-4));
  // FlashAttention-2 has no Blackwell kernels: over twice cuDNN's time on the same part.
  CHECK(flash2.attention_s / cudnn.attention_s == doctest::Approx(0.5065 * 0.879 / (0.1657 * 0.942)));
  // The GB200 and GB300 were measured themselves (0.5563 / 0.1487 and 0.5470 / 0.1568 of 2,500
  // TFLOP/s), at 8,192 tokens 0.934 and 0.888 of that for cuDNN, 0.961 and 0.952 for
  // FlashAttention-2; the B300 takes the GB300's fractions of its own 2,250.
  CHECK(attention("gb200-186gb", k_cudnn).attention_efficiency == doctest::Approx(0.5563 * 0.934));
  CHECK(attention("gb200-186gb", k_flash2).attention_efficiency == doctest::Approx(0.1487 * 0.961));
  CHECK(attention("gb300-288gb", k_cudnn).attention_efficiency == doctest::Approx(0.5470 * 0.888));
  CHECK(attention("b300-sxm-288gb", k_flash2).attention_s ==
        doctest::Approx(kernel_flops / (2250e12 * 0.1568 * 0.952)));
  // A scenario that names no kernel keeps the part's usual one, FlashAttention-4.
  CHECK(estimate(one_sequence_on("b200-sxm-180gb"), default_calibration()).time.attention_efficiency ==
        doctest::Approx(0.561));
}

namespace {
// A fused attention kernel's forward and backward rates as one: the backward does 2.5x the
// forward's FLOPs, so total FLOPs / total time = 3.5 / (1/fwd + 2.5/bwd).
double combined(double fwd, double bwd) { return 3.5 / (1 / fwd + 2.5 / bwd); }
}  // namespace

TEST_CASE("fused attention's rate follows the kernel's length where the catalog has a measured sweep") {
  // Catalog 2026.12.8, GB200 cuDNN (cudnn-frontend SDPA training benchmark, cudnn_fe): 3.5 / (1/fwd +
  // 2.5/bwd) over the 16,384-token figure, 1,391 TFLOP/s: 512 348 (0.25), 4K 1,131 (0.814), 8K 1,299
  // (0.934). Between points the ratio is linear in log2 length: at 6,000 tokens 0.814 + (0.934 -
  // 0.814) x log2(6,000 / 4,096) = 0.88009; beyond the ends the end's ratio.
  const Catalog& c = builtin_catalog();
  const Accelerator* gb200 = c.find_accelerator("gb200-186gb");
  REQUIRE(gb200 != nullptr);
  const AttentionLengthScale& curve = gb200->attention_length_scale[static_cast<int>(AttentionKernel::cudnn)];
  CHECK(scale_at(curve, 6000) == doctest::Approx(0.88009).epsilon(1e-4));
  CHECK(scale_at(curve, 8192) == doctest::Approx(0.934));
  CHECK(scale_at(curve, 256) == doctest::Approx(0.25));
  CHECK(scale_at(curve, 131072) == doctest::Approx(1.0));
  CHECK(scale_at({}, 512) == 1.0);
  auto rate = [](const char* accelerator, int seq_len, int cp) {
    Scenario s = one_sequence_on(accelerator);
    s.parallel.attention_kernel = AttentionKernel::cudnn;
    s.seq_len = seq_len;
    s.parallel.cp = cp;
    s.cluster.gpus = cp;
    return estimate(s, default_calibration()).time.attention_efficiency;
  };
  CHECK(rate("gb200-186gb", 4096, 1) == doctest::Approx(0.5563 * 0.814));
  // Context parallelism runs the kernel on seq_len / cp tokens: 32,768 over CP 4 is the 8K rate.
  CHECK(rate("gb200-186gb", 32768, 4) == doctest::Approx(0.5563 * 0.934));
  CHECK(rate("gb200-186gb", 32768, 1) == doctest::Approx(0.5563));
  // The B200's own sweep from 4,096 tokens (shorter ones time the PyTorch call more than the kernel):
  // 738 / 1,139.6 = 0.648 there and below.
  CHECK(rate("b200-sxm-180gb", 4096, 1) == doctest::Approx(0.5065 * 0.648));
  CHECK(rate("b200-sxm-180gb", 2048, 1) == doctest::Approx(0.5065 * 0.648));
  // The H100's sweep (catalog 2026.12.17) from the FlashAttention-3 paper's figures its rates come
  // from (Shah et al. 2024, Figs. 5b/6b: head dim 128, no causal mask, TFLOP/s forward / backward),
  // combined as 3.5 / (1/fwd + 2.5/bwd) over the 16K figure: cuDNN 2K 617 / 465 -> 500.2 over
  // 595 / 516 -> 536.3 = 0.9326; FlashAttention-2 512 309 / 214 -> 234.6 over 370 / 322 -> 334.4 = 0.7016.
  CHECK(combined(617, 465) / combined(595, 516) == doctest::Approx(0.9326).epsilon(1e-4));
  CHECK(combined(309, 214) / combined(370, 322) == doctest::Approx(0.7016).epsilon(1e-4));
  CHECK(rate("h100-sxm5-80gb", 2048, 1) == doctest::Approx(0.542 * 0.9326));
  CHECK(rate("h100-sxm5-80gb", 16384, 1) == doctest::Approx(0.542));
  // cuDNN's and FlashAttention-3's 512-token forward bars read 497 and 467 or the other way round:
  // each curve takes its lower reading, cuDNN 467 / 305 -> 338.6, 0.6312 of 536.3 (0.6392 the other way).
  CHECK(combined(467, 305) / combined(595, 516) == doctest::Approx(0.6312).epsilon(1e-4));
  CHECK(rate("h100-sxm5-80gb", 512, 1) == doctest::Approx(0.542 * 0.6312));
  CHECK(rate("h100-sxm5-80gb", 256, 1) == doctest::Approx(0.542 * 0.6312));
  Scenario fa2 = one_sequence_on("h100-sxm5-80gb");
  fa2.parallel.attention_kernel = AttentionKernel::flash2;
  fa2.seq_len = 512;
  CHECK(estimate(fa2, default_calibration()).time.attention_efficiency == doctest::Approx(0.338 * 0.7016));
  // A kernel with no rate of its own there runs at FlashAttention-2's at the same length: FlashAttention-3
  // on the B200 at 2,048 tokens, 0.1657 x 0.574 (catalog 2026.12.9), not FlashAttention-2's 16K figure.
  Scenario fa3 = one_sequence_on("b200-sxm-180gb");
  fa3.parallel.attention_kernel = AttentionKernel::flash3;
  fa3.seq_len = 2048;
  CHECK(estimate(fa3, default_calibration()).time.attention_efficiency == doctest::Approx(0.1657 * 0.574));
}

TEST_CASE("fused attention's rate follows the model's head dimension where the catalog measures two") {
  // FlashAttention-3 paper (Shah et al. 2024, arXiv:2407.08608), H100 80GB SXM5, 16K tokens, no causal
  // mask, TFLOP/s forward / backward: head dim 64 (Figs. 5a, 6a) FlashAttention-2 324 / 291, cuDNN
  // 413 / 433, FlashAttention-3 497 / 474; head dim 128 (Figs. 5b, 6b) 370 / 322, 595 / 516, 648 / 561.
  // Forward and backward combined as 3.5 / (1/fwd + 2.5/bwd) (the backward does 2.5x the forward's
  // FLOPs): FlashAttention-2 299.7 over 334.4 = 0.8963, cuDNN 427.1 / 536.3 = 0.7963, FlashAttention-3
  // 480.4 / 583.4 = 0.8234 (catalog 2026.12.12, attention_head_dim_scale).
  const double flash2_64 = combined(324, 291) / combined(370, 322);
  const double cudnn_64 = combined(413, 433) / combined(595, 516);
  const double flash3_64 = combined(497, 474) / combined(648, 561);
  CHECK(flash2_64 == doctest::Approx(0.8963).epsilon(1e-4));
  CHECK(cudnn_64 == doctest::Approx(0.7963).epsilon(1e-4));
  CHECK(flash3_64 == doctest::Approx(0.8234).epsilon(1e-4));
  auto rate = [](const char* accelerator, AttentionKernel kernel, int heads, int head_dim) {
    Scenario s = one_sequence_on(accelerator);
    s.parallel.attention_kernel = kernel;
    s.model.heads = heads;
    s.model.kv_heads = 8;
    s.model.head_dim = head_dim;
    s.seq_len = 16384;  // the length the head dims were measured at: no length scale
    return estimate(s, default_calibration()).time.attention_efficiency;
  };
  const AttentionKernel k_flash2 = AttentionKernel::flash2, k_cudnn = AttentionKernel::cudnn;
  // Llama 3.1 8B's own heads (32 x 128): the measured 128 rate.
  CHECK(rate("h100-sxm5-80gb", k_flash2, 32, 128) == doctest::Approx(0.338));
  // The same width in 64 heads of 64: 0.338 x 0.8963 = 0.30295; cuDNN 0.542 x 0.7963 = 0.43159.
  CHECK(rate("h100-sxm5-80gb", k_flash2, 64, 64) == doctest::Approx(0.338 * flash2_64).epsilon(1e-4));
  CHECK(rate("h100-sxm5-80gb", k_cudnn, 64, 64) == doctest::Approx(0.542 * cudnn_64).epsilon(1e-4));
  CHECK(rate("h100-sxm5-80gb", AttentionKernel::flash3, 64, 64) == doctest::Approx(0.590 * flash3_64).epsilon(1e-4));
  // Head dim 96 (Phi-3 mini) lies between, linear in log2: 0.8963 + (1 - 0.8963) x log2(96 / 64) =
  // 0.95696 of 0.338.
  CHECK(rate("h100-sxm5-80gb", k_flash2, 32, 96) == doctest::Approx(0.338 * 0.95696).epsilon(1e-4));
  // Beyond the points the end's ratio: 256 keeps the 128 rate, 32 the 64 one.
  CHECK(rate("h100-sxm5-80gb", k_flash2, 16, 256) == doctest::Approx(0.338));
  CHECK(rate("h100-sxm5-80gb", k_flash2, 64, 32) == doctest::Approx(0.338 * 0.8963));
  // The H200 takes the H100's ratios (same SMs); the B200 and A100 have no head-dim figures: one rate.
  CHECK(rate("h200-sxm-141gb", k_flash2, 64, 64) == doctest::Approx(0.338 * 0.8963));
  CHECK(rate("b200-sxm-180gb", k_cudnn, 64, 64) == doctest::Approx(0.5065));
  CHECK(rate("a100-sxm4-80gb", k_flash2, 64, 64) == doctest::Approx(0.548));
  // The length and head-dimension ratios multiply: head dim 64 at 8,192 tokens on the H100,
  // FlashAttention-2 0.338 x 0.8963 x 0.9908 (331.3 over 334.4 TFLOP/s at 8K, catalog 2026.12.17).
  Scenario both = one_sequence_on("h100-sxm5-80gb");
  both.parallel.attention_kernel = AttentionKernel::flash2;
  both.model.heads = 64;
  both.model.kv_heads = 8;
  both.model.head_dim = 64;
  both.seq_len = 8192;
  CHECK(estimate(both, default_calibration()).time.attention_efficiency == doctest::Approx(0.338 * 0.8963 * 0.9908));
  // MLA runs its kernel at the query/key head dimension, nope + rope = 128 + 64 = 192 for
  // DeepSeek-V3: the 128 rate holds.
  Scenario mla = one_sequence_on("h100-sxm5-80gb");
  mla.model = builtin_catalog().find_model("deepseek-v3")->arch;
  CHECK(attention_kernel_head_dim(mla.model) == 192);
  CHECK(attention_kernel_head_dim(one_sequence_on("h100-sxm5-80gb").model) == 128);
}

TEST_CASE("multi-token prediction adds a block, a projection and a head pass a token, on the last stage") {
  // DeepSeek-V3 at 4,096 tokens on 16 stages (3 + 14 x 4 + 2 blocks). One MTP module (report §2.2)
  // adds per token 1,614,743,552 matmul weights (its MoE block's active linears 585,304,064, the
  // 2 x 7,168^2 projection 102,760,448, the shared head 926,679,040; test_model) and one block's
  // attention, 2 (q + o) s = 2 x (24,576 + 16,384) x 4,096 = 335,544,320 FLOPs forward: model
  // FLOPs per token + 6 x 1,614,743,552 + 3 x 335,544,320 = 10,695,094,272.
  auto run = [](int mtp) {
    const std::string json =
        R"({"model": {"preset": "deepseek-v3"}, "precision": "bf16", "seq_len": 4096, "micro_batch": 1,
          "global_batch": 1024, "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 1024, "gpus_per_node": 8},
          "parallel": {"tp": 1, "pp": 16, "ep": 64, "zero": 1, "recompute": "full"}, "framework": "megatron",
          "techniques": {"mtp_layers": )" +
        std::to_string(mtp) + "}}";
    return estimate(parse(json.c_str()), default_calibration());
  };
  const EstimateResult without = run(0), with = run(1);
  CHECK(with.time.flops.model_per_token - without.time.flops.model_per_token == doctest::Approx(10695094272.0));
  // In blocks of 585,213,817.7 matmul weights (35,698,042,880 over 61) + 167,772,160 attention FLOPs / 2
  // = 752,985,977.7: the head is 1.23067 blocks and the module 2.36725. The last stage's 2 + 1.23067
  // blocks stay under the middle stages' 4 without it (imbalance 4 x 16 / 62.23067 = 1.02843); with
  // it 5.59792 blocks pace the pipeline: 5.59792 x 16 / 64.59792 = 1.38653.
  CHECK(without.time.stage_imbalance == doctest::Approx(1.02843).epsilon(1e-4));
  CHECK(with.time.stage_imbalance == doctest::Approx(1.38653).epsilon(1e-4));
  CHECK(with.params.mtp == 11610067968.0);
  // The module's block is one more block with its collectives on the last stage: 2 + 1 < 4 there,
  // so the middle stages still set the pace of tensor-parallel and context-parallel traffic; on one
  // stage it is the 62nd block.
  Scenario one_stage = parse(R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 1024,
      "cluster": {"accelerator": "h800-sxm5-80gb", "gpus": 1024}, "parallel": {"ep": 64, "zero": 1},
      "framework": "megatron", "techniques": {"mtp_layers": 1}})");
  CHECK(busiest_stage_layers(one_stage) == 62);
  one_stage.parallel.pp = 16;
  CHECK(busiest_stage_layers(one_stage) == 4);
  one_stage.techniques.mtp_layers = 3;
  CHECK(busiest_stage_layers(one_stage) == 5);
}

TEST_CASE("slow_attention_kernel: a named kernel that another measured kernel runs twice as fast") {
  auto run = [](const char* accelerator, AttentionKernel kernel) {
    Scenario s = one_sequence_on(accelerator);
    s.parallel.attention_kernel = kernel;
    return estimate(s, default_calibration());
  };
  // Llama 3.1 8B, one 8,192-token sequence on a B200 with FlashAttention-2 named: attention takes
  // 0.175320 s (above), a tenth of the step or more. The fastest kernel measured there at 8,192
  // tokens is FlashAttention-4, 0.561 / (0.1657 x 0.942) = 3.59x its rate (cuDNN 2.85x), so it names
  // that one: 0.175320 x 0.1657 x 0.942 / 0.561 = 0.048780 s.
  const EstimateResult b200 = run("b200-sxm-180gb", AttentionKernel::flash2);
  REQUIRE(b200.time.attention_s >= b200.time.step_s / 10);
  const Warning* w = warning_of(b200, WarningCode::slow_attention_kernel);
  REQUIRE(w != nullptr);
  CHECK(std::string(w->rule) == "flash4");
  CHECK(w->value == doctest::Approx(0.175320).epsilon(1e-4));
  CHECK(w->limit == doctest::Approx(0.048780).epsilon(1e-4));
  CHECK(warning_message(*w).find("\"flash4\"") != std::string::npos);
  // FlashAttention 1 on an A100 (0.311) against FlashAttention-2 (0.548): 1.76x, under twice.
  CHECK(warning_of(run("a100-sxm4-80gb", AttentionKernel::flash1), WarningCode::slow_attention_kernel) == nullptr);
  // The Triton kernel there has no rate of its own: kTritonAttentionRatio (0.56) of FlashAttention-2's,
  // 1.79x under it, no warning. On an H100 FlashAttention-3 at 8,192 tokens (0.590 x 0.9966) runs
  // 3.1x the Triton kernel's 0.56 x 0.338 x 0.9908: the warning names it.
  CHECK(warning_of(run("a100-sxm4-80gb", AttentionKernel::flash_triton), WarningCode::slow_attention_kernel) ==
        nullptr);
  const EstimateResult triton = run("h100-sxm5-80gb", AttentionKernel::flash_triton);
  const Warning* t = warning_of(triton, WarningCode::slow_attention_kernel);
  REQUIRE(t != nullptr);
  CHECK(std::string(t->rule) == "flash3");
  CHECK(t->limit == doctest::Approx(t->value * 0.56 * 0.338 * 0.9908 / (0.590 * 0.9966)));
  // A named kernel without a rate of its own there runs at FlashAttention-2's, and is judged by it:
  // FlashAttention-3 named on a B200 (a Hopper kernel) is warned about like FlashAttention-2.
  const EstimateResult b200_fa3 = run("b200-sxm-180gb", AttentionKernel::flash3);
  const Warning* fa3 = warning_of(b200_fa3, WarningCode::slow_attention_kernel);
  REQUIRE(fa3 != nullptr);
  CHECK(fa3->limit == doctest::Approx(0.048780).epsilon(1e-4));
  // Nothing named (the part's usual kernel), or the fastest named: no warning.
  CHECK(warning_of(estimate(one_sequence_on("b200-sxm-180gb"), default_calibration()),
                   WarningCode::slow_attention_kernel) == nullptr);
  CHECK(warning_of(run("b200-sxm-180gb", AttentionKernel::flash4), WarningCode::slow_attention_kernel) == nullptr);
  // FlashAttention-2 on an H100 (0.338) against FlashAttention-3 (0.590): 1.75x, under twice.
  CHECK(warning_of(run("h100-sxm5-80gb", AttentionKernel::flash2), WarningCode::slow_attention_kernel) == nullptr);
}

TEST_CASE("the GH200 and B300 GEMMs run at their own measured large-GEMM ratios") {
  // e = e_max x d / (d + kGemmHalfSize), d = min(tokens, hidden / tp) = 4,096 here: the same curve
  // scaled by each part's ratio (stas00/ml-engineering's matmul table): the sustained rate (MSMF)
  // where one is measured, H100 SXM BF16 0.7634 (the GH100's 755 / 989), B300 1519 / 2250 = 0.6751
  // BF16 and 2969 / 4500 = 0.6598 FP8; the GH200 has the burst only (MAMF), 828.6 / 989 = 0.8378 BF16
  // and 1535.0 / 1979 = 0.7756 FP8.
  auto gemm = [](const char* accelerator, const char* precision) {
    return estimate(one_sequence_on(accelerator, precision), default_calibration()).time.gemm_efficiency;
  };
  const double h100 = gemm("h100-sxm5-80gb", "bf16");
  CHECK(gemm("gh200-96gb", "bf16") == doctest::Approx(h100 * 0.8378 / 0.7634));
  CHECK(gemm("gh200-96gb", "fp8") == doctest::Approx(h100 * 0.7756 / 0.7634));
  CHECK(gemm("b300-sxm-288gb", "bf16") == doctest::Approx(h100 * 0.6751 / 0.7634));
  CHECK(gemm("b300-sxm-288gb", "fp8") == doctest::Approx(h100 * 0.6598 / 0.7634));
  // No matmul rate of the GB300 is published: kDefaultGemmEfficiency (0.75) applies.
  CHECK(gemm("gb300-288gb", "bf16") ==
        doctest::Approx(h100 * default_calibration().default_gemm_efficiency.value / 0.7634));
}

TEST_CASE("interruptions that cost more than the training carry the warning failures_dominate") {
  // 100,000 GPUs x 1e-4 failures per GPU-hour = 10 an hour: one every 0.1 h = 360 s. Each costs its
  // 1 h restart plus half a checkpoint interval (Daly 2006): at least 1 h / 0.1 h = 10x the training.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e10, "cluster": {"gpus": 100000},
      "pricing": {"failures_per_gpu_hour": 0.0001, "restart_h": 1}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(r.reliability.mtbi_h == doctest::Approx(0.1));
  CHECK(r.reliability.overhead_fraction >= 10.0);
  const Warning* w = warning_of(r, WarningCode::failures_dominate);
  REQUIRE(w != nullptr);
  CHECK(w->value == doctest::Approx(r.reliability.overhead_fraction));
  CHECK(w->limit == doctest::Approx(360.0));
  // Llama 3's rate (the default, 466 interruptions in 54 days on 16,384 GPUs) on 1,024 GPUs costs a
  // few per cent: no warning.
  Scenario usual = s;
  usual.cluster.gpus = 1024;
  usual.pricing.failures_per_gpu_hour = kDefaultFailuresPerGpuHour;
  const EstimateResult u = estimate(usual, default_calibration());
  CHECK(u.reliability.overhead_fraction < 0.2);
  CHECK(warning_of(u, WarningCode::failures_dominate) == nullptr);
}

TEST_CASE("an MFU above 1 (the convention's non-causal attention) carries the warning mfu_above_one") {
  // Llama 3.1 8B at 131,072 tokens: model FLOPs per token 6 x 7.5e9 matmul parameters + 3 A with
  // A = 2 x 131,072 x 8,192 x 32 = 6.87e10 attention FLOPs forward, counted without causal masking
  // (Megatron): the causal kernels run about half of that, so a fast kernel puts MFU above 1 while
  // the share of peak the GPU runs (executed_fraction) stays below it.
  // (The run does not fit in the card's memory; the rate is what the warning is about.)
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 131072, "global_batch": 1,
      "cluster": {"accelerator": "rtx-4090", "gpus": 1}, "parallel": {"flash_attention": true}})");
  const EstimateResult r = estimate(s, default_calibration());
  REQUIRE(r.time.mfu > 1.0);
  CHECK(r.time.executed_fraction < 1.0);
  const Warning* w = warning_of(r, WarningCode::mfu_above_one);
  REQUIRE(w != nullptr);
  CHECK(w->value == doctest::Approx(r.time.mfu));
  CHECK(w->limit == doctest::Approx(r.time.executed_fraction));
  // At 8K tokens the same run is far below 1 and says nothing.
  Scenario short_seq = s;
  short_seq.seq_len = 8192;
  const EstimateResult q = estimate(short_seq, default_calibration());
  CHECK(q.time.mfu < 1.0);
  CHECK(warning_of(q, WarningCode::mfu_above_one) == nullptr);
}

TEST_CASE("ZeRO-1/2 gather the updated weights after the optimizer step, not during the backward") {
  // A GPT of 48 blocks, hidden 7,168, on 384 H100s, TP 8 x DP 48, 4 micro-batches a step (the
  // Megatron-Core README's 32B row). d = ZeRO-0's all-reduce of the bf16 gradients (a reduce-scatter
  // and an all-gather of the same bytes), c = compute of one micro-batch; backward 2/3 c, forward
  // 1/3 c, kDpOverlap 0.8. Here d = 0.3218 s and c = 0.2057 s (backward 0.1371, forward 0.0686); under
  // DeepSpeed and Hugging Face c = 0.2056 s, their loss moving 48 B a vocabulary entry to Megatron's 52.
  //   ZeRO-0: the all-reduce hides behind the last backward:           d - 0.8 x 2/3 c
  //   Megatron ZeRO-1: the reduce-scatter behind that backward, the gather (--overlap-param-gather)
  //   behind the next step's first forward: (d/2 - 0.8 x 2/3 c) + (d/2 - 0.8 x 1/3 c) = d - 0.8 c
  //   = 0.3218 - 0.1645 = 0.1573 s
  //   DeepSpeed ZeRO-1: its gather runs at the end of step(), exposed: (d/2 - 0.8 x 2/3 c) + d/2
  //   DeepSpeed ZeRO-2 (and Hugging Face, which shards with it): a reduce-scatter every micro-batch:
  //   4 (d/2 - 0.8 x 2/3 c) + d/2 = 4 x 0.0513 + 0.1609 = 0.3659 s
  //   DeepSpeed with pipeline stages: reduced after the flush, all of it exposed
  Scenario s = parse(R"({"model": {"layers": 48, "hidden": 7168, "heads": 56, "ffn": 28672, "vocab": 131072,
      "gated_mlp": false, "tied_embeddings": false, "norm": "layernorm", "linear_bias": true,
      "learned_positions": 4096}, "precision": "bf16", "seq_len": 4096, "global_batch": 192,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 384, "gpus_per_node": 8},
      "parallel": {"tp": 8, "pp": 1, "zero": 1, "sequence_parallel": true, "tp_comm_overlap": true},
      "framework": "megatron"})");
  auto run = [&s](int zero, FrameworkKind framework) {
    Scenario t = s;
    t.parallel.zero = zero;
    t.framework = framework;
    return estimate(t, default_calibration()).time;
  };
  const TimeResult ddp = run(0, FrameworkKind::megatron);
  const double d = ddp.comm.dp_s, c = ddp.compute_s / 4;
  REQUIRE(d == doctest::Approx(0.3218).epsilon(0.01));
  REQUIRE(c == doctest::Approx(0.2057).epsilon(0.01));
  CHECK(ddp.comm.dp_exposed_s == doctest::Approx(d - 0.8 * 2.0 / 3.0 * c));
  const TimeResult megatron = run(1, FrameworkKind::megatron);
  CHECK(megatron.comm.dp_s == doctest::Approx(d));  // bf16 gradients and weights: the same bytes
  CHECK(megatron.comm.dp_exposed_s == doctest::Approx(d - 0.8 * c));
  CHECK(megatron.comm.dp_exposed_s == doctest::Approx(0.1573).epsilon(0.01));
  const TimeResult deepspeed = run(1, FrameworkKind::deepspeed);
  const double c_ds = deepspeed.compute_s / 4;
  CHECK(c_ds == doctest::Approx(0.2056).epsilon(0.01));
  CHECK(deepspeed.comm.dp_exposed_s == doctest::Approx(d / 2 - 0.8 * 2.0 / 3.0 * c_ds + d / 2));
  for (FrameworkKind f : {FrameworkKind::deepspeed, FrameworkKind::hf}) {
    const TimeResult zero2 = run(2, f);
    CHECK(zero2.comm.dp_s == doctest::Approx(4 * d / 2 + d / 2));
    CHECK(zero2.compute_s / 4 == doctest::Approx(c_ds));
    CHECK(zero2.comm.dp_exposed_s == doctest::Approx(4 * (d / 2 - 0.8 * 2.0 / 3.0 * c_ds) + d / 2));
    CHECK(zero2.comm.dp_exposed_s == doctest::Approx(0.3659).epsilon(0.01));
  }
  // Gradients reduced in fp32 (4 B) and weights gathered in bf16 (2 B): the reduce-scatter is half of
  // the fp32 all-reduce, the gather half of the bf16 one, (d_fp32 + d_bf16) / 2 in all.
  s.techniques.fp32_grad_reduce = true;
  const double d32 = run(0, FrameworkKind::megatron).comm.dp_s;
  CHECK(d32 > 1.9 * d);
  CHECK(run(1, FrameworkKind::megatron).comm.dp_s == doctest::Approx((d32 + d) / 2));
  s.techniques.fp32_grad_reduce = false;
  // DeepSpeed's pipeline engine reduces after the flush: with pipeline stages nothing hides.
  s.parallel.pp = 2;
  const TimeResult piped = run(1, FrameworkKind::deepspeed);
  REQUIRE(piped.comm.dp_s > 0);
  CHECK(piped.comm.dp_exposed_s == doctest::Approx(piped.comm.dp_s));
}

TEST_CASE("FSDP with pipeline stages gathers the weights and reduces the gradients once per step") {
  // 16-bit weights w and gradients g of a rank's stage: per micro-batch FSDP moves (w + w + g) / 2 in
  // all-reduce terms; with pipeline stages it keeps the gathered weights and reduces at the last
  // micro-batch (torchtitan, torch.distributed.pipelining): (w + g) / 2 once per step. torchtitan
  // reduces the gradients in fp32 (mixed_precision_reduce): 4 B each.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-405b"}, "framework": "torchtitan", "seq_len": 8192,
      "micro_batch": 4, "global_batch": 256, "cluster": {"gpus": 512, "gpu_memory_gb": 1000},
      "parallel": {"tp": 8, "pp": 8, "zero": 3, "sequence_parallel": true, "recompute": "full"}})");
  const EstimateResult r = estimate(s, default_calibration());
  const double per_rank = r.memory.trainable_params / (8.0 * 8.0);  // trainable parameters of one TP x PP rank
  const double bytes = 2.0 * 7.0 / 8.0 * (2.0 * per_rank + 4.0 * per_rank) / 2.0;  // ring over FSDP 8, once
  CHECK(r.time.comm.dp_bytes == doctest::Approx(bytes));
}

TEST_CASE("torchtitan's pipeline flushes: each accumulation step fills and drains the pipeline and reduces once") {
  // torchtitan calls its pipeline schedule once per gradient-accumulation step (train.py; each
  // torch.distributed.pipelining schedule step() fills and drains the pipeline, and FSDP reduces the
  // gradients and reshards at the schedule's last backward: stage.py, backward_maybe_with_nosync).
  // Llama 3.1 405B, TP 8 x PP 8 x FSDP 8 on 512 GPUs, micro-batch 4, global batch 512: m = 512 / (4
  // x 8) = 16 micro-batches a step. In one schedule the 1F1B bubble is (8 - 1) / 16 of the ideal
  // step (compute + exposed TP time; no CP or EP); in 2 schedules of 8 each (local_batch_size 32)
  // two bubbles of (8 - 1) / 8 of half the step: 7 / 8 of it. The gathered weights and gradients
  // move once per schedule: (w + g) / 2 in all-reduce terms, 16-bit weights and fp32 gradients over
  // the ring of FSDP 8, 2 x 7 / 8 x (2 + 4) B / 2 a parameter of the rank, twice.
  const char* base = R"({"model": {"preset": "llama-3.1-405b"}, "framework": "torchtitan", "seq_len": 8192,
      "micro_batch": 4, "global_batch": 512, "cluster": {"gpus": 512, "gpu_memory_gb": 1000},
      "parallel": {"tp": 8, "pp": 8, "zero": %d, "sequence_parallel": true, "recompute": "full", "pp_flushes": %d}})";
  auto run = [&](int zero, int flushes) {
    char text[640];
    std::snprintf(text, sizeof text, base, zero, flushes);
    return estimate(parse(text), default_calibration());
  };
  const EstimateResult one = run(3, 1), two = run(3, 2);
  REQUIRE(one.grad_accum == 16);
  auto ideal = [](const EstimateResult& r) { return r.time.compute_s + r.time.comm.tp_exposed_s; };
  CHECK(one.time.bubble_s == doctest::Approx(7.0 / 16.0 * ideal(one)));
  CHECK(two.time.bubble_s == doctest::Approx(7.0 / 8.0 * ideal(two)));
  const double per_rank = one.memory.trainable_params / (8.0 * 8.0);
  const double once = 2.0 * 7.0 / 8.0 * (2.0 * per_rank + 4.0 * per_rank) / 2.0;
  CHECK(one.time.comm.dp_bytes == doctest::Approx(once));
  CHECK(two.time.comm.dp_bytes == doctest::Approx(2.0 * once));
  // Without ZeRO-3 the data-parallel exchange is one reduce-scatter and one all-gather a schedule
  // (FSDP with reshard_after_forward never, zero 2), and DDP's all-reduce one a schedule (zero 0):
  // twice the bytes and the time with 2 schedules.
  for (int zero : {0, 2}) {
    CAPTURE(zero);
    const EstimateResult a = run(zero, 1), b = run(zero, 2);
    CHECK(b.time.comm.dp_bytes == doctest::Approx(2.0 * a.time.comm.dp_bytes));
    CHECK(b.time.comm.dp_s == doctest::Approx(2.0 * a.time.comm.dp_s));
  }
}

TEST_CASE("FSDP under PyTorch's pipelining reduces after the schedule's last backward: the reduce-scatter is exposed") {
  // torch.distributed.pipelining calls FSDP's post_backward by hand once a schedule's last backward
  // has run, and the compute stream waits for the reduce-scatters (stage.py,
  // backward_maybe_with_nosync): nothing hides them. Llama 3.1 405B on TP 8 x PP 8 x FSDP 8 under
  // torchtitan: each GPU reduces the fp32 gradients of its TP x PP share, 4 B x trainable / 64, over
  // FSDP 8 with one rank a node, through its own NIC: (8 - 1) / 8 x bytes / busbw plus 2 x 7
  // latencies (a reduce-scatter, half the ring all-reduce's 2 (n - 1) steps each way): about
  // 0.46 s a schedule, where the model before counted every exchange hidden behind compute. The
  // weights' gathers still hide behind kZero3Overlap of a micro-batch's compute.
  char text[640];
  for (int flushes : {1, 2}) {
    std::snprintf(text, sizeof text, R"({"model": {"preset": "llama-3.1-405b"}, "framework": "torchtitan",
        "seq_len": 8192, "micro_batch": 4, "global_batch": 512, "cluster": {"gpus": 512, "gpu_memory_gb": 1000},
        "parallel": {"tp": 8, "pp": 8, "zero": 3, "sequence_parallel": true, "recompute": "full",
        "pp_flushes": %d}})",
                  flushes);
    const Scenario s = parse(text);
    const EstimateResult r = estimate(s, default_calibration());
    const LinkBandwidth l = link_bandwidth(s);
    const double bytes = 4.0 * r.memory.trainable_params / 64.0;
    const double reduce_s = flushes * (7.0 / 8.0 * bytes / l.nic_busbw + 14.0 * l.inter_latency_s);
    const double compute_per_mb = r.time.compute_s / 16.0;
    CAPTURE(flushes);
    // The gathers (the rest of dp.s) fit in kZero3Overlap 0.3 of a schedule's micro-batch: hidden.
    REQUIRE(r.time.comm.dp_s > reduce_s);
    REQUIRE(r.time.comm.dp_s - reduce_s < 0.3 * flushes * compute_per_mb);
    CHECK(r.time.comm.dp_exposed_s == doctest::Approx(reduce_s));
  }
}

TEST_CASE("pipeline flushes with the interleaved schedule: each schedule warms up, holds and exposes its own") {
  // Llama 3.1 70B (80 blocks) on 32 GPUs, TP 8 x PP 4 x VP 2 x FSDP 1, micro-batch 1, global batch
  // 16: m = 16 micro-batches a step. Rank 0 warms up on W = 2 (4 - 1) + (2 - 1) 4 = 10 chunks and
  // holds W + 1 = 11 of its 2 x 10-block chunks, 5.5 micro-batches' worth; in 4 schedules of 4 a
  // schedule has only m vp = 8 chunks, so it holds 8 / 2 = 4.
  const char* base = R"({"model": {"preset": "llama-3.1-70b"}, "framework": "torchtitan", "seq_len": 4096,
      "micro_batch": 1, "global_batch": 16, "cluster": {"gpus": 32},
      "network": {"inter_node_gbps": %d},
      "parallel": {"tp": 8, "pp": 4, "vp": 2, "zero": 0, "sequence_parallel": true, "recompute": "full",
      "pp_comm_overlap": true, "pp_flushes": %d}})";
  auto scenario = [&](int gbps, int flushes) {
    char text[700];
    std::snprintf(text, sizeof text, base, gbps, flushes);
    return parse(text);
  };
  CHECK(in_flight_micro_batches(scenario(400, 1), 0) == 5.5);
  CHECK(in_flight_micro_batches(scenario(400, 4), 0) == 4.0);
  // Overlapped transfers: every chunk's activation or gradient takes t = pp.s / (2 x 16 x 2); on
  // 400 Gb/s each hides behind the chunk beside it, so only the warm-up's forward and the flush's
  // backward transfers show, 2 W t a schedule. One schedule: W = 10, 20 t; four schedules of m 4
  // (8 chunks, W = min(8, 10) = 8): 4 x 2 x 8 t = 64 t.
  const EstimateResult one = estimate(scenario(400, 1), default_calibration());
  const EstimateResult four = estimate(scenario(400, 4), default_calibration());
  const double t1 = one.time.comm.pp_s / 64.0, t4 = four.time.comm.pp_s / 64.0;
  // Shorter than a chunk's forward, a quarter of its compute with full recompute (4 linear passes).
  REQUIRE(t1 < one.time.compute_s / 32.0 / 4.0);
  REQUIRE(t4 < four.time.compute_s / 32.0 / 4.0);
  CHECK(one.time.comm.pp_exposed_s == doctest::Approx(20.0 * t1));
  CHECK(four.time.comm.pp_exposed_s == doctest::Approx(64.0 * t4));
}

TEST_CASE("FSDP2 copies gathered weights out and gradients in on the compute stream, FSDP1 gathers in place") {
  // Llama 3.1 8B, 8,030,261,248 parameters, on 8 H100 SXM (3,350 GB/s), ZeRO-3 in bf16 with the
  // gradients reduced in fp32 (torchtitan's mixed_precision_reduce default), one micro-batch:
  // 2 gathers (forward, backward) x 8,030,261,248 x (2 B read + 2 B written) = 64,242,089,984 B and
  // 1 reduction x 8,030,261,248 x (2 B read + 4 B written) = 48,181,567,488 B; 112,423,657,472 B /
  // (3,350 GB/s x kMemBwEfficiency 0.9) = 37.288 ms. Two micro-batches gather and reduce twice as
  // often. Pipeline stages (2, 4,015,130,624 parameters a GPU on average) keep the weights gathered,
  // one gather (2 + 2 B), and accumulate the 2 micro-batches' gradients unsharded in fp32: the first
  // upcast (2 + 4 B), the second cast and added (2 + 4 + 4 + 4 + 4 B), then copied into the
  // reduce-scatter buffer (4 + 4 B): 36 B x 4,015,130,624 = 144,544,702,464 B. The accumulated
  // gradients take 4 B a parameter of the stage where a bf16 reduction would keep 2 B: the first
  // stage holds the embedding and 16 blocks, 525,336,576 + 16 x 218,112,000 = 4,015,128,576.
  const Calibration cal = default_calibration();
  auto run = [&cal](const char* framework, int global_batch, int pp, bool fp32_reduce = true) {
    char text[1024];
    std::snprintf(text, sizeof text, R"({"model": {"preset": "llama-3.1-8b"}, "framework": "%s", "precision": "bf16",
        "seq_len": 8192, "micro_batch": 1, "global_batch": %d, "cluster": {"accelerator": "h100-sxm5-80gb",
        "gpus": 8}, "parallel": {"zero": 3, "pp": %d, "recompute": "full"},
        "techniques": {"fp32_grad_reduce": %s}})",
                  framework, global_batch, pp, fp32_reduce ? "true" : "false");
    const Scenario s = parse(text);
    const ParamCount p = count_params(s.model);
    const MemoryResult mem = estimate_memory(s, p, cal);
    return std::make_pair(mem, estimate_compute(s, p, mem, cal, nullptr));
  };
  auto copy_s = [&run](const char* framework, int global_batch, int pp) {
    return run(framework, global_batch, pp).second.framework_copy_s;
  };
  CHECK(copy_s("torchtitan", 8, 1) == doctest::Approx(112423657472.0 / (3350e9 * 0.9)));
  CHECK(copy_s("torchtune", 16, 1) == doctest::Approx(2.0 * 112423657472.0 / (3350e9 * 0.9)));
  CHECK(copy_s("torchtitan", 8, 2) == doctest::Approx(144544702464.0 / (3350e9 * 0.9)));
  CHECK(copy_s("fsdp", 8, 1) == 0);
  CHECK(copy_s("hf", 8, 1) == 0);
  // Adapters: QLoRA gathers the frozen weights in NF4 (kNf4BytesPerParam a parameter), LoRA in
  // bf16; the adapters' copy-in is the same, so the difference is the copy-out, 2 gathers x
  // 8,030,261,248 x 2 x (2 - kNf4BytesPerParam) B.
  auto method_s = [&cal](const char* method) {
    const bool freeze = std::string(method) == "freeze";
    char text[1024];
    std::snprintf(text, sizeof text, R"({"model": {"preset": "llama-3.1-8b"}, "framework": "torchtune",
        "method": "%s", %s "precision": "bf16", "seq_len": 8192, "micro_batch": 1, "global_batch": 8,
        "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 3, "recompute": "full"},
        "techniques": {"fp32_grad_reduce": true}})",
                  method, freeze ? R"("trainable_layers": 8,)" : "");
    const Scenario s = parse(text);
    const ParamCount p = count_params(s.model);
    return estimate_compute(s, p, estimate_memory(s, p, cal), cal, nullptr).framework_copy_s;
  };
  CHECK(method_s("lora") - method_s("qlora") ==
        doctest::Approx(2.0 * 8030261248.0 * 2.0 * (2.0 - kNf4BytesPerParam) / (3350e9 * 0.9)));
  // Freeze-tuning the top 8 of 32 blocks (8 x 218,112,000 = 1,744,896,000 trained parameters):
  // forward gathers every weight, backward only the trained blocks', (8,030,261,248 + 1,744,896,000)
  // x (2 + 2) B, and the copy-in 1,744,896,000 x (2 + 4) B: 49,570,004,992 B.
  CHECK(method_s("freeze") == doctest::Approx(49570004992.0 / (3350e9 * 0.9)));
  const double fp32_grads = run("torchtitan", 8, 2).first.per_gpu.gradients;
  const double bf16_grads = run("torchtune", 8, 2, false).first.per_gpu.gradients;
  CHECK(fp32_grads - bf16_grads == doctest::Approx(2.0 * 4015128576.0));
}

TEST_CASE("DeepSpeed's BF16_Optimizer accumulates every micro-batch's gradients in fp32, keeps and reduces them") {
  // DeepSpeed trains bf16 with ZeRO-1 through its BF16_Optimizer when data_types.grad_accum_dtype
  // is fp32 (techniques.fp32_grad_reduce). Llama 2 7B (6,738,415,616 parameters) on 8 A100s
  // (2,039 GB/s), 2 micro-batches a step: per micro-batch update_hp_grads reads 2 B and writes 4 B
  // (the fp32 cast), then reads 4 + 4 B and writes 4 B (the add), 18 B a parameter: 2 x 18 x
  // 6,738,415,616 B / (2,039 GB/s x kMemBwEfficiency 0.9) = 132.2 ms. The fp32 gradients add 4 B a
  // parameter, 26,953,662,464 B.
  const Calibration cal = default_calibration();
  auto run = [&cal](int zero, bool fp32_grads) {
    char text[1024];
    std::snprintf(text, sizeof text, R"({"model": {"preset": "llama-2-7b"}, "framework": "deepspeed",
        "precision": "bf16", "seq_len": 4096, "micro_batch": 1, "global_batch": 16,
        "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}, "parallel": {"zero": %d, "recompute": "full"},
        "techniques": {"fp32_grad_reduce": %s}})",
                  zero, fp32_grads ? "true" : "false");
    const Scenario s = parse(text);
    const ParamCount p = count_params(s.model);
    const MemoryResult mem = estimate_memory(s, p, cal);
    return std::make_pair(mem, estimate_compute(s, p, mem, cal, nullptr));
  };
  const double params = 6738415616.0;
  const auto [fp32_mem, fp32] = run(1, true);
  const auto [bf16_mem, bf16] = run(1, false);
  CHECK(fp32_mem.trainable_params == doctest::Approx(params));
  CHECK(fp32.framework_copy_s == doctest::Approx(2.0 * 18.0 * params / (2039e9 * 0.9)));
  CHECK(bf16.framework_copy_s == 0);
  CHECK(fp32_mem.per_gpu.gradients - bf16_mem.per_gpu.gradients == doctest::Approx(4.0 * params));
  // ZeRO-2 and ZeRO-3 run DeepSpeed's ZeRO optimizer, not the BF16_Optimizer.
  CHECK(run(2, true).second.framework_copy_s == 0);
  CHECK(run(3, true).second.framework_copy_s == 0);
}

TEST_CASE("a minimum billing block sets the cost: warned, billed beside used hours, and the range held at the block") {
  // omniyq-8x-h100-bare-metal rents by the month (min_billing_hours 730): a short run bills the
  // whole month, 8 GPUs x 730 h x the per-GPU price.
  const Scenario s = parse(R"({"model": {"preset": "qwen2.5-0.5b"}, "method": "full", "tokens": 2e8,
      "cluster": {"instance": "omniyq-8x-h100-bare-metal"}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(s.pricing.min_billing_hours == 730);
  CHECK(r.cost.used_hours == doctest::Approx(r.reliability.total_hours * 1.3));
  CHECK(r.cost.billed_hours == 730);
  CHECK(r.cost.compute_usd == doctest::Approx(8 * 730 * s.pricing.usd_per_gpu_hour));
  const Warning* w = warning_of(r, WarningCode::minimum_billing);
  REQUIRE(w != nullptr);
  CHECK(w->value == doctest::Approx(730 * 3600.0));
  CHECK(warning_message(*w).find("30.4 d billed") != std::string::npos);
  // However much faster or slower the run, the month is billed: the cost's range is the block.
  const auto ranges = figure_ranges(s, r, builtin_residuals());
  const FigureRange* cost = find_range(ranges, "cost.total_usd");
  REQUIRE(cost);
  CHECK(cost->low == doctest::Approx(r.cost.total_usd));
  CHECK(cost->high == doctest::Approx(r.cost.total_usd));
  // Without a block nothing is said.
  const EstimateResult plain = estimate(parse(R"({"model": {"preset": "qwen2.5-0.5b"}, "method": "full", "tokens": 2e8,
      "cluster": {"gpus": 8}})"),
                                        default_calibration());
  CHECK(plain.cost.billed_hours == doctest::Approx(plain.cost.used_hours));
  CHECK(warning_of(plain, WarningCode::minimum_billing) == nullptr);
}

TEST_CASE("cost per billion tokens comes from the step when no training tokens are given") {
  // 1e9 tokens / tokens per second / 3600 x (1 + reliability overhead) x overhead factor x GPUs x price.
  const Scenario s = parse(R"({"model": {"preset": "qwen2.5-0.5b"}, "method": "full", "cluster": {"gpus": 8}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(s.training_tokens() == 0);
  const double hours = 1e9 / r.time.tokens_per_s / 3600 * (1 + r.reliability.overhead_fraction) * 1.3;
  CHECK(r.cost.usd_per_billion_tokens == doctest::Approx(hours * 8 * s.pricing.usd_per_gpu_hour));
  CHECK(r.cost.usd_per_billion_tokens > 0);
}

TEST_CASE("a reservation priced for a run shorter than its term says the term is billed whole") {
  // 1e8 tokens of a Llama 3.1 8B LoRA on 8 H100s take well under an hour: a fraction of the
  // 8,760-hour term of a 1-year reservation (26,280 h for 3 years).
  const char* run = R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "tokens": 1e8, "seq_len": 4096,
      "global_batch": 64, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "pricing": {"mode": "%s"}})";
  char text[512];
  std::snprintf(text, sizeof text, run, "reserved_1yr");
  const EstimateResult one = estimate(parse(text), default_calibration());
  const Warning* w = warning_of(one, WarningCode::reserved_term);
  REQUIRE(w != nullptr);
  CHECK(w->value == doctest::Approx(8760 * 3600.0));
  CHECK(w->limit == doctest::Approx(one.cost.used_hours * 3600));
  CHECK(warning_message(*w).find("365 d term") != std::string::npos);
  // The cost is still the hours used, not the term.
  CHECK(one.cost.billed_hours == doctest::Approx(one.cost.used_hours));
  std::snprintf(text, sizeof text, run, "reserved_3yr");
  const EstimateResult three = estimate(parse(text), default_calibration());
  REQUIRE(warning_of(three, WarningCode::reserved_term) != nullptr);
  CHECK(warning_of(three, WarningCode::reserved_term)->value == doctest::Approx(3 * 8760 * 3600.0));
  // Billed by use: nothing to say.
  std::snprintf(text, sizeof text, run, "on_demand");
  CHECK(warning_of(estimate(parse(text), default_calibration()), WarningCode::reserved_term) == nullptr);
}

TEST_CASE("a run shorter than a step pays for the whole step and spreads it over the step's tokens") {
  // 1,000 tokens on a 64 x 4,096-token batch: one step of 262,144 tokens is trained and paid for,
  // so the cost per billion tokens is total USD / (262,144 / 1e9), not total USD / (1,000 / 1e9).
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "tokens": 1000,
      "seq_len": 4096, "global_batch": 64, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})");
  const EstimateResult r = estimate(s, default_calibration());
  CHECK(r.time.steps == 1);
  CHECK(r.time.tokens_per_step == 64 * 4096);
  CHECK(r.cost.usd_per_billion_tokens == doctest::Approx(r.cost.total_usd / (64 * 4096 / 1e9)));
  // Whole runs: the same division over the steps' tokens (1e8 tokens = 382 steps of 262,144).
  const EstimateResult whole =
      estimate(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "tokens": 1e8, "seq_len": 4096,
      "global_batch": 64, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})"),
               default_calibration());
  CHECK(whole.time.steps == 382);
  CHECK(whole.cost.usd_per_billion_tokens == doctest::Approx(whole.cost.total_usd / (382 * 262144 / 1e9)));
}

TEST_CASE("memory_exceeds on one GPU advises what one GPU can do, not ZeRO, TP or PP") {
  const EstimateResult one = estimate(parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full",
      "cluster": {"accelerator": "a100-sxm4-40gb", "gpus": 1}})"),
                                      default_calibration());
  REQUIRE(one.warnings.count > 0);
  const Warning& w = one.warnings.items[0];
  REQUIRE(w.code == WarningCode::memory_exceeds);
  CHECK(w.one_gpu);
  const std::string m = warning_message(w);
  CHECK(m.find("LoRA/QLoRA") != std::string::npos);
  CHECK(m.find("ZeRO") == std::string::npos);
  const EstimateResult many = estimate(parse(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full",
      "cluster": {"accelerator": "a100-sxm4-40gb", "gpus": 8}})"),
                                       default_calibration());
  REQUIRE(many.warnings.count > 0);
  CHECK_FALSE(many.warnings.items[0].one_gpu);
  CHECK(warning_message(many.warnings.items[0]).find("raise the ZeRO stage") != std::string::npos);
}

TEST_CASE("memory_exceeds advises only what the scenario has left to do") {
  auto remedies = [](const char* text) {
    const EstimateResult r = estimate(parse(text), default_calibration());
    REQUIRE(r.warnings.count > 0);
    const Warning& w = r.warnings.items[0];
    REQUIRE(w.code == WarningCode::memory_exceeds);
    std::vector<std::string> ids;
    for (int i = 0; i < static_cast<int>(MemoryRemedy::count); ++i)
      if (w.has(static_cast<MemoryRemedy>(i))) ids.emplace_back(kMemoryRemedyIds[i]);
    return ids;
  };
  using V = std::vector<std::string>;
  // A LoRA of a 70B model on one 80 GB GPU: its base weights alone are 141 GB in bf16 (70.6 B x 2 B),
  // so QLoRA is the adapter remedy left; the optimizer holds only the adapters' state, so neither an
  // 8-bit nor an offloaded optimizer is advised, nor full-weight adapters it already trains.
  CHECK(remedies(R"({"model": {"preset": "llama-3.1-70b"}, "method": "lora", "seq_len": 4096, "micro_batch": 2,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}})") ==
        V{"recompute", "lower_micro_batch", "qlora", "bigger_gpu"});
  // QLoRA with full recomputation at micro-batch 1: only a bigger GPU is left.
  CHECK(remedies(R"({"model": {"preset": "llama-3.1-70b"}, "method": "qlora", "seq_len": 4096,
      "cluster": {"accelerator": "rtx-4090", "gpus": 1}, "parallel": {"recompute": "full"}})") == V{"bigger_gpu"});
  // A full fine-tune on 8 GPUs already at ZeRO-3 with an 8-bit optimizer: not the ZeRO stage or the
  // optimizer type again; model parallelism, recomputation, adapters and offload remain.
  CHECK(remedies(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "optimizer": "adamw8bit",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 3}})") ==
        V{"model_parallel", "recompute", "adapters", "offload_optimizer", "bigger_gpu"});
  // Llama 3.1 8B LoRA at 4 x 8,192 tokens on a 24 GB GPU with full recomputation: Hugging Face's loss keeps
  // fp32 logits of 4 x 8,192 x 128,256 (16.8 GB for one fp32 copy alone), over a tenth of the peak, so a
  // fused or chunked cross-entropy is advised.
  const V lora8b =
      remedies(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 8192, "micro_batch": 4,
      "cluster": {"accelerator": "rtx-4090", "gpus": 1}, "parallel": {"recompute": "full"}})");
  CHECK(lora8b == V{"lower_micro_batch", "chunked_loss", "qlora", "bigger_gpu"});
  // The message lists them in that order, the last after "or".
  const EstimateResult r = estimate(parse(R"({"model": {"preset": "llama-3.1-70b"}, "method": "qlora", "seq_len": 4096,
      "cluster": {"accelerator": "rtx-4090", "gpus": 1}, "parallel": {"recompute": "full"}})"),
                                    default_calibration());
  CHECK(warning_message(r.warnings.items[0]).find(": take a GPU with more memory.") != std::string::npos);
}

TEST_CASE("estimate warns of a layout no target framework runs, naming the rule, and passes torchtitan's own") {
  auto rule_of = [](const char* text) -> std::string {
    const EstimateResult r = estimate(parse(text), default_calibration());
    const Warning* w = warning_of(r, WarningCode::unsupported_layout);
    return w ? warning_message(*w) : "";
  };
  // LoRA with TP: PEFT runs in Hugging Face PEFT, which has no tensor parallelism.
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "cluster": {"gpus": 8},
      "parallel": {"tp": 2}})")
            .find("PEFT and freeze-tuning run in Hugging Face PEFT") != std::string::npos);
  // ZeRO-3 with PP under Megatron-LM (the default for full pretraining) ...
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-70b"}, "global_batch": 64, "cluster": {"gpus": 64},
      "parallel": {"pp": 4, "zero": 3}})")
            .find("ZeRO-3 without PP") != std::string::npos);
  // ... which torchtitan runs (FSDP2 with pipeline stages): no warning then.
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-70b"}, "framework": "torchtitan", "global_batch": 64,
      "cluster": {"gpus": 64}, "parallel": {"pp": 4, "zero": 3}})")
            .empty());
  // A runnable layout: nothing.
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-70b"}, "global_batch": 64, "cluster": {"gpus": 64},
      "parallel": {"tp": 8, "pp": 2, "zero": 1}})")
            .empty());
  // QLoRA off NVIDIA and AMD: bitsandbytes has no NF4 kernels there, the rule the planner rejects
  // such offerings by ("software").
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "tokens": 1e8,
      "cluster": {"accelerator": "ascend-910b", "gpus": 1}})")
            .find("NF4 kernels (bitsandbytes) run on NVIDIA and AMD GPUs only") != std::string::npos);
  CHECK(std::string(layout_rule_id(kQloraVendorRule)) == "qlora_on_nvidia_or_amd");
  CHECK(rule_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "tokens": 1e8,
      "cluster": {"accelerator": "mi300x", "gpus": 1}})")
            .empty());
}

TEST_CASE("a high MFU at long sequence is physics, not a bug: the kernels run below their measured rates") {
  // Llama-2-13B at 8,192 tokens with ZeRO-3 and no recompute on 64 x A100 80GB reads MFU ~0.75. Two
  // checks that bound it by what the hardware does:
  // 1. llm-foundry measured this model size at this sequence on 8 x A100 80GB (13B, s8192, mb 5,
  //    FSDP, full recompute): MFU 56.07 %, HFU 74.76 % (published_runs.json
  //    B-foundry-a100-80-13b-s8192-g8-mb5). HFU is the rate the hardware sustains; without
  //    recompute every FLOP counted is a model FLOP, so MFU may reach that rate and no further.
  // 2. What the kernels execute (GEMMs with recompute, FlashAttention's own causal count) is at most
  //    the measured GEMM and attention rates: MFU exceeds it only because Megatron's count takes
  //    the attention scores without causal masking (s / 6h = 0.27 of the 6N FLOPs here).
  auto time_of = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
    return estimate(*p.scenario, default_calibration()).time;
  };
  const TimeResult published = time_of(R"({"model": {"preset": "llama-2-13b"}, "seq_len": 8192, "micro_batch": 5,
    "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}, "parallel": {"zero": 3, "recompute": "full"}})");
  CHECK(published.mfu == doctest::Approx(0.5607).epsilon(0.05));
  CHECK(published.hfu == doctest::Approx(0.7476).epsilon(0.05));
  const TimeResult wide = time_of(R"({"model": {"preset": "llama-2-13b"}, "seq_len": 8192,
    "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 64}, "parallel": {"zero": 3}})");
  CHECK(wide.mfu <= 0.7476 * 1.05);  // no faster than the hardware rate measured for this model and sequence
  CHECK(wide.mfu == doctest::Approx(wide.hfu));  // nothing recomputed
  CHECK(wide.executed_fraction < wide.mfu);      // causal attention runs half the counted score FLOPs
  CHECK(wide.executed_fraction <= std::max(wide.gemm_efficiency, wide.attention_efficiency));
  // Across sequence lengths, recompute and GPUs the executed fraction never passes the kernels' rates.
  for (int seq : {2048, 8192, 32768})
    for (const char* rc : {"none", "full"})
      for (int gpus : {8, 64}) {
        char text[320];
        std::snprintf(
            text, sizeof text,
            R"({"model": {"preset": "llama-2-13b"}, "seq_len": %d, "cluster": {"accelerator": "a100-sxm4-80gb",
                      "gpus": %d}, "parallel": {"zero": 3, "recompute": "%s"}})",
            seq, gpus, rc);
        CAPTURE(text);
        const TimeResult t = time_of(text);
        CHECK(t.executed_fraction > 0);
        CHECK(t.executed_fraction <= std::max(t.gemm_efficiency, t.attention_efficiency) + 1e-12);
      }
}

TEST_CASE("offloaded activations cost the host copy that outlasts the next layer's compute") {
  // Llama 3.1 8B on one H100 SXM (PCIe Gen5 x16: 64 GB/s a direction), 4 micro-batches of 8,192
  // tokens, the first 12 of 32 layers offloaded. Megatron-LM's double-buffered offload
  // (megatron/core/cpu_offload.py) copies a layer's saved tensors while the next layer runs: per
  // offloaded layer and micro-batch max(0, copy - forward) + max(0, copy - backward), a layer's
  // forward a third of the stage's compute over 4 x 32 layer passes (no recompute).
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 4,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"flash_attention": true},
      "techniques": )";
  auto run = [&](const char* techniques) {
    return estimate(parse((std::string(base) + techniques + "}").c_str()), default_calibration());
  };
  const EstimateResult off = run(R"({"activation_offload": false})");
  const EstimateResult some = run(R"({"activation_offload": true, "activation_offload_layers": 12})");
  CHECK(off.time.activation_offload_s == 0);
  CHECK(some.time.compute_s == doctest::Approx(off.time.compute_s));
  const Scenario s = parse((std::string(base) + R"({"activation_offload": true}})").c_str());
  const double copy = activation_bytes_per_layer(s.model, activation_shape(s)) / 64e9;
  const double forward = off.time.compute_s / (4.0 * 32.0) / 3.0;
  const double exposed = 4.0 * 12.0 * (std::max(0.0, copy - forward) + std::max(0.0, copy - 2.0 * forward));
  CHECK(copy > forward);  // 1.25 GB of a layer's saved tensors outlast its 9.5 ms forward at 64 GB/s
  CHECK(some.time.activation_offload_s == doctest::Approx(exposed));
  CHECK(some.time.offload_s == doctest::Approx(exposed));
  CHECK(some.time.step_s == doctest::Approx(off.time.step_s + exposed));
  // With full recompute a layer saves only its input (2 x 8,192 x 4,096 B = 64 MiB, 1 ms at 64 GB/s):
  // hidden behind every layer's compute.
  const EstimateResult ckpt =
      estimate(parse(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 8192, "global_batch": 4,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1}, "parallel": {"flash_attention": true, "recompute": "full"},
      "techniques": {"activation_offload": true}})"),
               default_calibration());
  CHECK(ckpt.time.activation_offload_s == 0);
  // The GH200's GPU copies to its Grace CPU over NVLink-C2C at about 300 GB/s a direction (catalog
  // host_link_gb_per_s, NVIDIA/nvbandwidth issue #23), not PCIe's 64: the same 1.25 GB take 4.2 ms,
  // under a layer's forward, and the twelve offloaded layers cost nothing.
  std::string gh_text = std::string(base) + R"({"activation_offload": true, "activation_offload_layers": 12}})";
  gh_text.replace(gh_text.find("h100-sxm5-80gb"), std::strlen("h100-sxm5-80gb"), "gh200-96gb");
  const Scenario gh = parse(gh_text.c_str());
  CHECK(gh.cluster.pcie_gb_per_s == 300);
  const EstimateResult on_gh = estimate(gh, default_calibration());
  CHECK(activation_bytes_per_layer(gh.model, activation_shape(gh)) / 300e9 < on_gh.time.compute_s / (4.0 * 32.0) / 3.0);
  CHECK(on_gh.time.activation_offload_s == 0);
}

TEST_CASE("QLoRA dequantises each NF4 block linear to a 16-bit copy before every GEMM that reads it") {
  // Llama 3.1 8B on one A100 SXM4 80GB (HBM 2,039 GB/s), 4 micro-batches of 2,048 tokens. Block
  // linears by hand: attention 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040 and SwiGLU 3 x 4096 x
  // 14336 = 176,160,768 a layer, x 32 = 6,979,321,856 parameters. Per micro-batch and pass each is
  // read as NF4 (0.5 B + 0.127 bit of double-quantised constants, QLoRA §3) and written as a bf16
  // copy (2 B); the passes: forward and backward, + the recomputed forward with full recompute.
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "lora": {"rank": 16, "targets": "all_linear"},
      "seq_len": 2048, "micro_batch": 1, "global_batch": 4, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 1},
      "parallel": {"flash_attention": true, "recompute": ")";
  auto run = [&](const char* method, const char* recompute) {
    const std::string text = std::string(base) + recompute + R"("}, "method": ")" + method + "\"}";
    return estimate(parse(text.c_str()), default_calibration());
  };
  const double params = 32.0 * (41943040.0 + 176160768.0);
  const double per_pass = params * (0.5 + 0.127 / 8.0 + 2.0) / (2039e9 * default_calibration().mem_bw_efficiency.value);
  const EstimateResult qlora = run("qlora", "none");
  CHECK(qlora.time.qlora_dequant_s == doctest::Approx(4.0 * 2.0 * per_pass));
  CHECK(run("qlora", "full").time.qlora_dequant_s == doctest::Approx(4.0 * 3.0 * per_pass));
  // 17.6 GB a pass: 9.6 ms at 90 % of 2,039 GB/s, 77 ms a step of 4 micro-batches without recompute.
  CHECK(qlora.time.qlora_dequant_s == doctest::Approx(0.0765).epsilon(0.01));
  // Everything else is LoRA's but PEFT's 4-bit layer cloning each frozen output (framework hf, the
  // default): 2 rows of the 43,008 outputs a token and block a forward, 8,192 x 32 x 2 x 43,008 x 2 B
  // = 4.5097156e10 B. The step differs by the copies alone.
  const EstimateResult lora = run("lora", "none");
  CHECK(lora.time.qlora_dequant_s == 0);
  const double clone_s = 4.5097156e10 / (2039e9 * default_calibration().mem_bw_efficiency.value);
  CHECK(qlora.time.lora_adapter_s - lora.time.lora_adapter_s == doctest::Approx(clone_s).epsilon(1e-6).scale(0));
  CHECK(qlora.time.compute_s == doctest::Approx(lora.time.compute_s + qlora.time.qlora_dequant_s + clone_s));
}

TEST_CASE("freeze-tuning recomputes and runs the CP ring backward only for its trained blocks") {
  // Llama 2 7B at 4,096 tokens, the top 8 of 32 blocks trained (share t = 1/4), full recompute.
  // Frozen bottom blocks run outside autograd (their input needs no gradient): nothing of theirs is
  // saved, so nothing is recomputed and no gradient flows through their attention.
  const char* base = R"({"model": {"preset": "llama-2-7b"}, "seq_len": 4096, "micro_batch": 1, "global_batch": 2,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 2}, "parallel": {"cp": 2, "recompute": "full"})";
  const Scenario full = parse((std::string(base) + "}").c_str());
  const Scenario freeze =
      parse((std::string(base) + R"(, "method": "freeze", "trainable_layers": 8, "framework": "megatron"})").c_str());
  const ParamCount p = count_params(full.model);
  // Forward attention scores a = 2 x s x (q + o width) x layers = 2 x 4096 x 8192 x 32; matmul
  // parameters P from full training's 6 P + 3 a; blocks = P - the head, 32,000 x 4,096.
  const double a = 2.0 * 4096 * 8192 * 32;
  const double P = (training_flops(full, p, nullptr).model_per_token - 3 * a) / 6;
  const double blocks = P - 32000.0 * 4096, head = 32000.0 * 4096, t = 0.25;
  // Without recompute: frozen blocks forward (1 - t)(2 blocks + a), trained blocks 6 t blocks + 3 t a,
  // the head 6 x head. Full recompute adds one forward of the trained blocks only, t (2 blocks + a),
  // not 2 blocks + a, four times as much.
  const double no_recompute = (1 - t) * (2 * blocks + a) + 6 * t * blocks + 3 * t * a + 6 * head;
  CHECK(training_flops(freeze, p, nullptr).model_per_token == doctest::Approx(no_recompute).epsilon(1e-12));
  CHECK(training_flops(freeze, p, nullptr).hardware_per_token ==
        doctest::Approx(no_recompute + t * (2 * blocks + a)).epsilon(1e-12));
  // Megatron-Core's ring: a forward pass through every block, and keys, values and their
  // gradients backward plus the recomputed forward through the trained ones: 1 + 3 t passes of
  // (cp - 1) x 2,048 tokens x 8,192 x 2 B = 33,554,432 B, x 32 blocks x 2 micro-batches.
  CHECK(cp_kv_bytes_per_layer(freeze) == 33554432.0);
  CHECK(estimate(freeze, default_calibration()).time.comm.cp_bytes == doctest::Approx(1.75 * 33554432.0 * 32 * 2));
  // PyTorch's ring (torchtitan): gathers in 1 + t forward passes and t backward ones, t x cp fp32
  // gradient hops of 2,048 x 8,192 x 4 B = 67,108,864 B: (1.5 x 33,554,432 + 0.5 x 67,108,864) x 64
  // = 5,368,709,120 B.
  Scenario titan = freeze;
  titan.framework = FrameworkKind::torchtitan;
  CHECK(estimate(titan, default_calibration()).time.comm.cp_bytes == doctest::Approx(5368709120.0));
}

TEST_CASE("DeepEP's all-to-alls hold 20 SMs: the computation they overlap runs on the rest") {
  // DeepSeek-V3's layout on 2,048 H800s, dispatched by DeepEP and overlapped (DualPipe). The report
  // (§3.2.2) gives its all-to-all kernels 20 of the H800's 132 SMs; the step's computation C runs
  // beside all-to-alls of ep_s on the other 112, so the steady state exposes max(ep_s - C, 20/132 ep_s)
  // of its share, where an all-to-all free of SMs would expose max(0, ep_s - C). The 15 warm-up and 15
  // flush micro-batches of PP 16 (15 / 120 of the step's 120) have no partner and wait whole.
  const char* text = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 15360, "tokens": 1e12,
      "cluster": {"accelerator": "%s", "gpus": 2048}, "precision": "fp8",
      "parallel": {"pp": 16, "ep": 64, "zero": 1, "recompute": "selective", "ep_dispatcher": "deepep",
      "ep_comm_overlap": true}})";
  char h800[1024], b300[1024];
  std::snprintf(h800, sizeof h800, text, "h800-sxm5-80gb");
  std::snprintf(b300, sizeof b300, text, "b300-sxm-288gb");
  const Scenario s = parse(h800);
  CHECK(s.cluster.sm_count == 132);
  const EstimateResult r = estimate(s, default_calibration());
  const double ep = r.time.comm.ep_s, c = r.time.compute_s;
  REQUIRE(ep > 0);
  const double steady = 105.0 / 120.0;
  CHECK(r.time.comm.ep_exposed_s == doctest::Approx(ep / 8 + std::max(ep - c, 20.0 / 132.0 * ep) * steady));
  // Here the SMs cost more than the transfers outlast the computation: 15 % of ep_s against ep_s - C.
  CHECK(20.0 / 132.0 * ep > ep - c);
  CHECK(r.time.comm.ep_exposed_s > ep / 8 + std::max(0.0, ep - c) * steady);
  // The catalog has no SM count for the B300 (public figures disagree): no share is counted there.
  const EstimateResult u = estimate(parse(b300), default_calibration());
  const double ub = u.time.comm.ep_s;
  CHECK(u.time.comm.ep_exposed_s == doctest::Approx(ub / 8 + std::max(0.0, ub - u.time.compute_s) * steady));
}

TEST_CASE("parallel.ep_comm_sms sets the SMs the dispatcher holds: HybridEP at 32 of an H100's 132") {
  // Qwen3-30B-A3B on 16 H100s, EP 16 with HybridEP overlapped, as Megatron-Bridge's performance
  // recipes run it: _benchmark_common sets moe_hybridep_num_sms = 32 (perf_recipes/_common.py), and
  // the model verification card says "HybridEP permute fusion uses 32 SMs". The computation then runs
  // on 100 SMs while the all-to-alls run: exposed max(ep_s - C, 32/132 ep_s). Unset, the 20 of
  // kDeepEpSms: max(ep_s - C, 20/132 ep_s). The transfers are the same either way. Without a
  // pipeline the first forward and the last backward of the 64 micro-batches (1,024 over DP 16) have
  // no partner: 1 / 64 of the all-to-alls waits whole, the rest as above.
  const std::string base = R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096, "global_batch": 1024,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "network": {"inter_node_link": "infiniband-ndr"},
      "framework": "megatron", "parallel": {"ep": 16, "zero": 1, "ep_dispatcher": "hybridep", "ep_comm_overlap": true,
      "moe_routing": "random")";
  const EstimateResult d = estimate(parse((base + "}}").c_str()), default_calibration());
  const EstimateResult h = estimate(parse((base + R"(, "ep_comm_sms": 32}})").c_str()), default_calibration());
  const double ep = h.time.comm.ep_s, c = h.time.compute_s;
  REQUIRE(ep > 0);
  CHECK(d.time.comm.ep_s == doctest::Approx(ep));
  CHECK(32.0 / 132.0 * ep > ep - c);  // the SMs, not the transfers, set what shows
  CHECK(h.time.comm.ep_exposed_s == doctest::Approx(ep / 64 + 32.0 / 132.0 * ep * 63 / 64));
  CHECK(d.time.comm.ep_exposed_s == doctest::Approx(ep / 64 + 20.0 / 132.0 * ep * 63 / 64));
  CHECK(h.time.step_s - d.time.step_s == doctest::Approx(12.0 / 132.0 * ep * 63 / 64));
  // Below the 20 SMs that fill IB and NVLink (DeepSeek-V3 report §3.2.2: 10 channels on 20 SMs) the
  // transfers take 20 / SMs of their time: at 10 SMs twice as long, the per-all-to-all latency as it
  // was. All-to-alls: dispatch and combine forward and backward, 4 x 48 MoE blocks x 64 micro-batches
  // (global batch 1,024 over DP 16) = 12,288, each paying the inter-node latency (EP 16 spans 2 nodes).
  const Scenario ten = parse((base + R"(, "ep_comm_sms": 10}})").c_str());
  const double latency = 12288 * link_bandwidth(ten).inter_latency_s;
  const EstimateResult t10 = estimate(ten, default_calibration());
  CHECK(d.time.comm.ep_s > latency);
  CHECK(t10.time.comm.ep_s - d.time.comm.ep_s == doctest::Approx(d.time.comm.ep_s - latency));
  // The Megatron-LM command carries it; unset, Megatron-Core's own default stays.
  const Scenario hs = parse((base + R"(, "ep_comm_sms": 32}})").c_str()), ds = parse((base + "}}").c_str());
  CHECK(launch_artifacts(hs, h, default_calibration()).megatron_args.find("--moe-flex-dispatcher-num-sms 32") !=
        std::string::npos);
  CHECK(launch_artifacts(ds, d, default_calibration()).megatron_args.find("--moe-flex-dispatcher-num-sms") ==
        std::string::npos);
  std::string deepep = base + R"(, "ep_comm_sms": 24}})";
  deepep.replace(deepep.find("hybridep"), 8, "deepep");
  const Scenario de = parse(deepep.c_str());
  CHECK(launch_artifacts(de, estimate(de, default_calibration()), default_calibration())
            .megatron_args.find("--moe-flex-dispatcher-backend deepep\n--moe-flex-dispatcher-num-sms 24\n") !=
        std::string::npos);
}

TEST_CASE("techniques.eager_activation moves the gated activation's intermediates: 2 e f a token, layer and pass") {
  // nanotron's Llama MLP runs act(gate) * up as eager ops (GLUActivation) beside fused RMSNorm and RoPE:
  // SiLU reads and writes f, the product reads 2 f and writes f, 5 e f where a fused kernel moves 3 e f.
  // The Ultra-Scale Playbook's 1B (16 layers, f 8,192) on 8 H100s, DP 8, 256 sequences of 4,096: 131,072
  // tokens a GPU, 3 passes without recomputation: 131,072 x 16 x 3 x 2 x 2 B x 8,192 = 206,158,430,208 B
  // more, at 3,350 GB/s x kMemBwEfficiency.
  const std::string base = R"({"model": {"layers": 16, "hidden": 2048, "heads": 32, "ffn": 8192, "vocab": 131072,
      "gated_mlp": true, "tied_embeddings": true, "norm": "rmsnorm"}, "framework": "megatron", "seq_len": 4096,
      "micro_batch": 2, "global_batch": 256, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 0, "recompute": "none"}, "techniques": {"fused_kernels": true)";
  const Calibration& cal = default_calibration();
  const EstimateResult fused = estimate(parse((base + "}}").c_str()), cal);
  const EstimateResult eager = estimate(parse((base + R"(, "eager_activation": true}})").c_str()), cal);
  const double extra = 206158430208.0 / (3350e9 * cal.mem_bw_efficiency.value);
  CHECK(eager.time.compute_s - fused.time.compute_s == doctest::Approx(extra));
  // Where the activation is not gated, or the kernels are not fused, the field does not apply.
  const ScenarioParse gelu = parse_scenario(
      R"({"model": {"preset": "gpt3-175b"}, "framework": "megatron", "techniques": {"eager_activation": true}})",
      builtin_catalog());
  CHECK_FALSE(gelu.scenario.has_value());
  CHECK(gelu.error.field == "techniques.eager_activation");
  const ScenarioParse hf = parse_scenario(
      R"({"model": {"preset": "llama-3.1-8b"}, "framework": "hf", "techniques": {"eager_activation": true}})",
      builtin_catalog());
  CHECK_FALSE(hf.scenario.has_value());
  CHECK(hf.error.message.find("applies only when techniques.fused_kernels is true") != std::string::npos);
  // torch.compile fuses the activation with the rest.
  const ScenarioParse compiled = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "framework": "hf",
      "techniques": {"compile": true, "eager_activation": true}})",
                                                builtin_catalog());
  CHECK(compiled.error.field == "techniques.eager_activation");
  // The Megatron-LM command leaves the activation unfused as counted.
  const Scenario nano = parse((base + R"(, "eager_activation": true}})").c_str());
  CHECK(launch_artifacts(nano, eager, cal).megatron_args.find("--no-bias-swiglu-fusion\n") != std::string::npos);
  CHECK(launch_artifacts(parse((base + "}}").c_str()), fused, cal).megatron_args.find("--no-bias-swiglu-fusion") ==
        std::string::npos);
}

TEST_CASE("freeze-tuning's frozen blocks run their forward collectives only: TP pairs and MoE all-to-alls") {
  // Llama 2 7B, top 8 of 32 blocks trained (t = 1/4), TP 2, full recompute, 2 micro-batches of
  // 4,096 tokens. A trained block runs 6 TP collectives (forward, backward, recomputed forward
  // pairs), a frozen one its forward pair: 2 x 3/4 + 6 x 1/4 = 3 a block. Each moves
  // 2 (tp - 1) / tp x 4,096 x 4,096 x 2 B = 33,554,432 B: 3 x 32 blocks x 2 micro-batches x
  // 33,554,432 = 6,442,450,944 B (12,884,901,888 if every block trained).
  const Scenario s = parse(R"({"model": {"preset": "llama-2-7b"}, "seq_len": 4096, "micro_batch": 1,
      "global_batch": 2, "method": "freeze", "trainable_layers": 8, "framework": "megatron",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 2}, "parallel": {"tp": 2, "recompute": "full"}})");
  CHECK(s.trained_share() == 0.25);
  CHECK(tp_collectives_per_block(s) == 3.0);
  CHECK(estimate(s, default_calibration()).time.comm.tp_bytes == doctest::Approx(6442450944.0));
  // Mixtral 8x7B with EP 2: a trained MoE block runs 4 all-to-alls without recompute (dispatch and
  // combine, forward and backward), a frozen one 2, so the step's all-to-all bytes scale by
  // (2 + 2 t) / 4 = 5/8 against full training of the same layout.
  const char* moe = R"({"model": {"preset": "mixtral-8x7b"}, "seq_len": 4096, "micro_batch": 1, "global_batch": 2,
      "framework": "megatron", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 2},
      "parallel": {"ep": 2, "zero": 1, "recompute": "none"}%s})";
  char full[1024], frozen[1024];
  std::snprintf(full, sizeof full, moe, "");
  std::snprintf(frozen, sizeof frozen, moe, R"(, "method": "freeze", "trainable_layers": 8)");
  const double all = estimate(parse(full), default_calibration()).time.comm.ep_bytes;
  REQUIRE(all > 0);
  CHECK(estimate(parse(frozen), default_calibration()).time.comm.ep_bytes == doctest::Approx(all * 5.0 / 8.0));
}

TEST_CASE("fp8_params gathers FP8 weights: the distributed optimizer's all-gather and the launch flags") {
  // Llama 2 7B, full training on 8 H100s, ZeRO-1 (Megatron-LM's distributed optimizer): its
  // all-gather moves every GPU's 16-bit weights, ring (d - 1) / d; with --fp8-param-gather the
  // 6,476,005,376 block-linear weights (32 x (4 x 4096^2 + 3 x 4096 x 11008)) move 1 B instead of 2:
  // 7 / 8 x 6,476,005,376 = 5,666,504,704 B fewer. The gradients' reduce-scatter does not change.
  const char* text = R"({"model": {"preset": "llama-2-7b"}, "precision": "fp8", %s "seq_len": 4096,
      "framework": "megatron", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1}})";
  char buf[1024];
  std::snprintf(buf, sizeof buf, text, "");
  const Scenario sixteen = parse(buf);
  std::snprintf(buf, sizeof buf, text, R"("fp8_params": true,)");
  const Scenario fp8 = parse(buf);
  const EstimateResult a = estimate(sixteen, default_calibration()), b = estimate(fp8, default_calibration());
  CHECK(a.time.comm.dp_bytes - b.time.comm.dp_bytes == doctest::Approx(5666504704.0));
  // The launch artefacts carry it: Megatron-LM's --fp8-param-gather, torchtitan's float8 all-gather.
  const LaunchArtifacts l = launch_artifacts(fp8, b, default_calibration());
  CHECK(l.megatron_args.find("--fp8-param-gather\n") != std::string::npos);
  CHECK(l.torchtitan_toml.find("[float8]\nenable_fsdp_float8_all_gather = true\n") != std::string::npos);
  CHECK(launch_artifacts(sixteen, a, default_calibration()).megatron_args.find("--fp8-param-gather") ==
        std::string::npos);
  // LoRA launches PEFT, which has no FP8 weights: its script says what the estimate assumed.
  const char* lora_text = R"({"model": {"preset": "llama-2-7b"}, "method": "lora", "precision": "fp8", %s
      "framework": "megatron", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1}})";
  std::snprintf(buf, sizeof buf, lora_text, R"("fp8_params": true,)");
  const Scenario lora = parse(buf);
  const EstimateResult lora_fp8 = estimate(lora, default_calibration());
  CHECK(launch_artifacts(lora, lora_fp8, default_calibration())
            .peft_python.find("# the estimate holds the frozen block linears in FP8") != std::string::npos);
  // Its trained weights are the 16-bit adapters: their all-gather does not change.
  std::snprintf(buf, sizeof buf, lora_text, "");
  CHECK(lora_fp8.time.comm.dp_bytes == doctest::Approx(estimate(parse(buf), default_calibration()).time.comm.dp_bytes));
  // torchao converts nn.Linear layers, not the routed experts' grouped weights: under torchtitan an
  // MoE model gathers only its attention and router weights in FP8. Mixtral 8x7B, FSDP over 8 GPUs,
  // one micro-batch: 32 x (2 x 4096^2 + 2 x 4096 x 1024 + 4096 x 8) = 1,343,225,856 such weights,
  // gathered forward and backward, 1 B less each: 2 x 7/8 x 1,343,225,856 = 2,350,645,248 B.
  const char* moe_text = R"({"model": {"preset": "mixtral-8x7b"}, "precision": "fp8", %s "seq_len": 4096,
      "global_batch": 8, "framework": "torchtitan", "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 3}})";
  std::snprintf(buf, sizeof buf, moe_text, "");
  const double moe16 = estimate(parse(buf), default_calibration()).time.comm.dp_bytes;
  std::snprintf(buf, sizeof buf, moe_text, R"("fp8_params": true,)");
  CHECK(moe16 - estimate(parse(buf), default_calibration()).time.comm.dp_bytes == doctest::Approx(2350645248.0));
}
