// Parameter counts derived from architectures, checked against hand sums of each term
// (the 12 l h^2 count of Narayanan et al. 2021 §5.1, generalised term by term) and the authors' published totals.
#include <doctest/doctest.h>

#include "llmplan/catalog.hpp"
#include "llmplan/model.hpp"

using namespace llmplan;

namespace {
ModelArch preset(const char* id) {
  const ModelPreset* p = builtin_catalog().find_model(id);
  REQUIRE_MESSAGE(p != nullptr, id);
  return p->arch;
}
}  // namespace

TEST_CASE("Llama-2-7B: 6,738,415,616 parameters") {
  // per layer: attention 4h² = 67,108,864; MLP 3hf = 3·4096·11008 = 135,266,304; norms 2h = 8,192
  // 32 layers = 6,476,267,520; embedding + untied head 2·32000·4096 = 262,144,000; final norm 4,096
  const ParamCount p = count_params(preset("llama-2-7b"));
  CHECK(p.attention_per_layer == 67108864.0);
  CHECK(p.mlp_per_layer == 135266304.0);
  CHECK(p.per_layer() == 202383360.0);
  CHECK(p.total == 6738415616.0);
}

TEST_CASE("Llama-3-8B with GQA: 8,030,261,248 parameters") {
  // GQA 32/8 heads of 128: Q,O 4096² each; K,V 4096·1024 each -> 41,943,040 per layer
  // MLP 3·4096·14336 = 176,160,768; 32 layers + 2·128256·4096 embeddings + 4096
  const ParamCount p = count_params(preset("llama-3-8b"));
  CHECK(p.attention_per_layer == 41943040.0);
  CHECK(p.total == 8030261248.0);
}

TEST_CASE("Qwen2.5-7B with QKV biases: 7,615,616,512 (model card: 7.61B, 6.53B non-embedding)") {
  // attention 2·3584² + 2·3584·512 + biases 3584 + 2·512 = 29,364,736; MLP 3·3584·18944 = 203,685,888
  const ParamCount p = count_params(preset("qwen2.5-7b"));
  CHECK(p.attention_per_layer == 29364736.0);
  CHECK(p.total == 7615616512.0);
  CHECK(p.total - p.embedding - p.head == doctest::Approx(6.53e9).epsilon(0.001));
}

TEST_CASE("GPT-3 175B: LayerNorm, biases, learned positions, tied head") {
  // per layer: attention 4h² + 4h = 604,028,928; MLP 2·h·4h + 4h + h = 1,208,020,992; 2 LayerNorms 4h
  // 96 layers = 173,961,510,912; token embedding 50257·12288; positions 2048·12288; final LN 2h
  const ParamCount p = count_params(preset("gpt3-175b"));
  CHECK(p.per_layer() == 1812099072.0);
  CHECK(p.head == 0.0);
  CHECK(p.total == 174604259328.0);
}

TEST_CASE("Mixtral-style MoE: total counts every expert, active only top_k") {
  // 2 layers, h = 64, 8 experts of width 32, top-2, no shared expert, vocab 100, untied.
  // attention 4·64² = 16,384; one expert 3·64·32 = 6,144; router 64·8 = 512; norms 2·64 = 128
  // MoE layer = 16,384 + 8·6,144 + 512 + 128 = 66,176; active layer = 16,384 + 2·6,144 + 512 + 128 = 29,312
  // total = 2·66,176 + 2·100·64 + 64 = 145,216; active = 2·29,312 + 12,800 + 64 = 71,488
  ModelArch m;
  m.layers = 2;
  m.hidden = 64;
  m.heads = 8;
  m.kv_heads = 8;
  m.ffn = 1;
  m.vocab = 100;
  m.experts = 8;
  m.top_k = 2;
  m.expert_ffn = 32;
  const ParamCount p = count_params(m);
  CHECK(p.mlp_moe == 8 * 6144.0 + 512.0);
  CHECK(p.total == 145216.0);
  CHECK(p.active == 71488.0);
  CHECK(m.active_mlp_width() == 64.0);
}

TEST_CASE("MLA attention (DeepSeek-V2 §2.1.2) and leading dense layers") {
  // h = 64, 4 heads, q_lora 16, kv_lora 8, nope 8, rope 4, v 8:
  // q: 64·16 + 16 + 16·4·12 = 1,808; kv: 64·(8+4) + 8 + 8·4·(8+8) = 1,288; o: 4·8·64 = 2,048 -> 5,144
  ModelArch m;
  m.layers = 3;
  m.hidden = 64;
  m.heads = 4;
  m.kv_heads = 4;
  m.ffn = 128;
  m.vocab = 10;
  m.attention = AttentionKind::mla;
  m.q_lora_rank = 16;
  m.kv_lora_rank = 8;
  m.qk_nope_head_dim = 8;
  m.qk_rope_head_dim = 4;
  m.v_head_dim = 8;
  m.experts = 4;
  m.top_k = 1;
  m.shared_experts = 1;
  m.expert_ffn = 16;
  m.dense_layers = 1;
  const ParamCount p = count_params(m);
  CHECK(p.attention_per_layer == 5144.0);
  // dense layer: 5,144 + 3·64·128 + 128 = 29,848; MoE layer: 5,144 + (4+1)·3·64·16 + 64·4 + 128 = 20,888
  // total = 29,848 + 2·20,888 + 2·10·64 + 64 = 72,968
  CHECK(p.total == 72968.0);
  CHECK(m.q_width() == 48.0);
  CHECK(m.v_width() == 32.0);
}

TEST_CASE("multi-token prediction modules: DeepSeek-V3's one, 11.61B trained parameters") {
  // DeepSeek-V3 report §2.2: the module holds two RMSNorms, a projection M of 2h x h, one transformer
  // block and shares the embedding and head. The block is an MoE block (layer 61 of the released
  // checkpoint): MLA 187,107,328 (q 7,168 x 1,536 + 1,536 + 1,536 x 128 x 192 = 48,760,320; kv
  // 7,168 x 576 + 512 + 512 x 128 x 256 = 20,906,496; o 128 x 128 x 7,168 = 117,440,512), 256 + 1
  // experts of 3 x 7,168 x 2,048 = 44,040,192, router 256 x 7,168 = 1,835,008, two norms 14,336:
  // 11,507,286,016. Projection 2 x 7,168^2 = 102,760,448; enorm, hnorm and the final norm 3 x 7,168.
  // 11,610,067,968 in all. The model card's "14B of MTP module weights" also counts the copies of the
  // embedding and the head the checkpoint stores with it, 2 x 129,280 x 7,168 = 1,853,358,080:
  // 13.46B, which training shares with the model's.
  const ModelArch m = preset("deepseek-v3");
  const ParamCount none = count_params(m, 0);
  CHECK(none.total == count_params(m).total);
  CHECK(none.mtp == 0);
  const ParamCount one = count_params(m, 1);
  CHECK(one.attention_per_layer == 187107328.0);
  CHECK(one.mtp == 11610067968.0);
  CHECK(one.total == none.total + 11610067968.0);
  CHECK(one.active == none.active);  // the model's own parameters per token; MTP's are counted apart
  // A token passes through the block's active linears (MLA + 8 routed + 1 shared expert + router:
  // 187,107,328 + 9 x 44,040,192 + 1,835,008 = 585,304,064), the projection and the head again
  // (926,679,040): 1,614,743,552 matmul weights a module.
  CHECK(one.mtp_matmul == 1614743552.0);
  CHECK(count_params(m, 2).mtp_matmul == 2 * 1614743552.0);
}
