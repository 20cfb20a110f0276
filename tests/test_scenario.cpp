// Scenario parsing: defaults, and every rejection names its field and the allowed range.
#include <doctest/doctest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/scenario.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {
ScenarioParse parse(const std::string& text) { return parse_scenario(text, builtin_catalog()); }

void check_rejects(const std::string& text, const std::string& field, const std::string& needle) {
  CAPTURE(text);
  const ScenarioParse p = parse(text);
  CHECK_FALSE(p.scenario.has_value());
  CHECK(p.error.field == field);
  CHECK(p.error.message.rfind(field + ": ", 0) == 0);  // message starts with the field
  CHECK_MESSAGE(p.error.message.find(needle) != std::string::npos, p.error.message);
}
}  // namespace

TEST_CASE("a preset with defaults") {
  const ScenarioParse p = parse(R"({"model": {"preset": "llama-2-7b"}})");
  REQUIRE(p.scenario.has_value());
  const Scenario& s = *p.scenario;
  CHECK(s.model.layers == 32);
  CHECK(s.method == Method::pretrain);
  CHECK(s.precision == Precision::bf16);
  CHECK(s.seq_len == 4096);
  CHECK(s.cluster.gpus == 8);
  CHECK(s.cluster.gpus_per_node == 8);
  CHECK(s.parallel.flash_attention);
  CHECK(s.dp() == 8);
  CHECK(s.effective_global_batch() == 8);
}

TEST_CASE("an architecture instead of a preset, kv_heads defaults to heads") {
  const ScenarioParse p = parse(
      R"({"model": {"layers": 32, "hidden": 4096, "heads": 32, "ffn": 11008, "vocab": 32000},
          "cluster": {"gpus": 2}, "parallel": {"tp": 2, "recompute": "selective"}})");
  REQUIRE(p.scenario.has_value());
  CHECK(p.scenario->model.kv_heads == 32);
  CHECK(p.scenario->cluster.gpus_per_node == 2);  // a single node of 2 when not given
  CHECK(p.scenario->parallel.recompute == Recompute::selective);
}

TEST_CASE("rejections name the field and the allowed values") {
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"tpp": 2}})", "parallel.tpp", "unknown field");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "seq_len": 0})", "seq_len", "1..1048576");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "seq_len": 4096.5})", "seq_len", "integer");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "micro_batch": "4"})", "micro_batch", "got \"4\"");
  check_rejects(R"({"model": {"preset": "llama-9"}})", "model.preset", "unknown id");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "method": "dpo"})", "method",
                "\"pretrain\", \"continued\", \"full\", \"lora\", \"qlora\", \"freeze\"");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"zero": 4}})", "parallel.zero", "0..3");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"tp": 3}, "cluster": {"gpus": 3}})", "parallel.tp",
                "must divide the model's heads (32)");
  check_rejects(
      R"({"model": {"preset": "llama-2-7b"}, "parallel": {"pp": 40}, "cluster": {"gpus": 40, "gpus_per_node": 8}})",
      "parallel.pp", "32 layers into stages");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"tp": 8}, "cluster": {"gpus": 12}})",
                "cluster.gpus", "multiple of parallel.tp x parallel.pp (8)");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "global_batch": 12, "micro_batch": 1})", "global_batch",
                "(1 x 8 = 8)");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "cluster": {"gpu_memory_gb": -1}})", "cluster.gpu_memory_gb",
                "1..1000");
  check_rejects(R"({"model": {"preset": "llama-2-7b", "layers": 4}})", "model.layers", "either \"preset\"");
  check_rejects(R"({"model": {"layers": 4, "hidden": 64, "heads": 8, "kv_heads": 3, "ffn": 1, "vocab": 1}})",
                "model.kv_heads", "must divide heads (8)");
  check_rejects(R"({"model": {"layers": 4, "hidden": 64, "heads": 8, "ffn": 1}})", "model.vocab", "required");
  check_rejects(R"({"method": "full"})", "model", "required");
  check_rejects(R"([1, 2])", "(scenario)", "object");
  check_rejects(R"({"model": )", "(scenario)", "not valid JSON");
}

TEST_CASE("a field set where it does not apply is refused with its condition, at its default it passes") {
  // Each would otherwise be ignored without a word: the estimate would not use what the user asked for.
  const std::string m = R"("model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8})";
  check_rejects("{" + m + R"(, "parallel": {"flash_attention": false, "attention_kernel": "flash3"}})",
                "parallel.attention_kernel", "applies only when parallel.flash_attention is true");
  check_rejects("{" + m + R"(, "techniques": {"kbit_fp32_cast": true}})", "techniques.kbit_fp32_cast",
                "applies only when method is \"qlora\"");
  check_rejects("{" + m + R"(, "parallel": {"ep_dispatcher": "deepep"}})", "parallel.ep_dispatcher",
                "applies only when parallel.ep > 1");
  check_rejects("{" + m + R"(, "parallel": {"ep_comm_overlap": true}})", "parallel.ep_comm_overlap",
                "applies only when parallel.ep > 1");
  check_rejects("{" + m + R"(, "parallel": {"pp": 2, "pp_comm_overlap": true}})", "parallel.pp_comm_overlap",
                "applies only when parallel.vp > 1");
  // Pipeline flushes: torchtitan's pipeline schedules, one per accumulation step; Megatron-LM runs
  // every micro-batch of a step in one.
  check_rejects("{" + m + R"(, "framework": "megatron", "parallel": {"pp": 2, "pp_flushes": 2}})",
                "parallel.pp_flushes", "applies only when parallel.pp > 1 and when framework is \"torchtitan\"");
  check_rejects("{" + m + R"(, "framework": "torchtitan", "parallel": {"pp_flushes": 2}})", "parallel.pp_flushes",
                "applies only when parallel.pp > 1");
  // 8 GPUs, PP 2: DP 4, global batch 24 of micro-batch 1 is 6 micro-batches a step, which 4 schedules
  // cannot share evenly; 3 can, 2 each, but the interleaved schedule wants a multiple of pp in each.
  const std::string tt = R"("model": {"preset": "llama-3.1-8b"}, "framework": "torchtitan", "global_batch": 24,
      "cluster": {"gpus": 8}, "parallel": {"pp": 2, "zero": 3)";
  check_rejects(
      "{" + tt + R"(, "pp_flushes": 4}})", "parallel.pp_flushes",
      "must divide the step's 6 micro-batches per data-parallel rank (global_batch / (micro_batch x dp)) into "
      "equal pipeline schedules; allowed a divisor of 6 from 1 to 6, got 4");
  CHECK(parse("{" + tt + R"(, "pp_flushes": 3}})").scenario.has_value());
  // 6 schedules of one micro-batch: fewer than the 2 stages, which PyTorch's Schedule1F1B refuses.
  check_rejects("{" + tt + R"(, "pp_flushes": 6}})", "parallel.pp_flushes",
                "leaves each pipeline schedule 1 micro-batches, fewer than the parallel.pp 2 stages, which PyTorch's "
                "1F1B schedule refuses (the micro-batches must be at least the stages); allowed a divisor of 6 up to "
                "3, got 6");
  check_rejects("{" + tt + R"(, "pp_flushes": 0}})", "parallel.pp_flushes", "1..4096");
  check_rejects("{" + tt + R"(, "vp": 2, "pp_flushes": 2}})", "parallel.vp",
                "needs the micro-batches of each pipeline schedule (global_batch / (micro_batch x dp x "
                "parallel.pp_flushes) = 3) to be a multiple of parallel.pp (2)");
  CHECK(parse("{" + tt + R"(, "vp": 2, "pp_flushes": 3}})").scenario.has_value());
  // The dispatcher's SMs matter only while its all-to-alls overlap computation.
  const std::string moe = R"("model": {"preset": "qwen3-30b-a3b"}, "cluster": {"gpus": 16})";
  check_rejects("{" + moe + R"(, "parallel": {"ep": 16, "ep_dispatcher": "hybridep", "ep_comm_sms": 32}})",
                "parallel.ep_comm_sms", "applies only when parallel.ep > 1 and when parallel.ep_dispatcher is");
  check_rejects("{" + moe + R"(, "parallel": {"ep": 16, "ep_comm_overlap": true, "ep_comm_sms": 32}})",
                "parallel.ep_comm_sms", "applies only when parallel.ep > 1 and when parallel.ep_dispatcher is");
  const std::string mha = R"("model": {"layers": 2, "hidden": 256, "heads": 4, "ffn": 512, "vocab": 1000)";
  check_rejects("{" + mha + R"(, "kv_lora_rank": 64}})", "model.kv_lora_rank",
                "applies only without model.preset and when model.attention is \"mla\"");
  // The explicit refusals keep their own words.
  check_rejects("{" + m + R"(, "lora": {"rank": 8}})", "lora", "applies only to method");
  // At its default a field changes nothing: parallel.ep 1 and the all-to-all dispatcher on a dense
  // model, a QLoRA cast switched off for full fine-tuning, a trial's ep equal to parallel.ep.
  for (const char* ok : {R"(, "parallel": {"ep": 1, "ep_dispatcher": "alltoall", "ep_comm_overlap": false}})",
                         R"(, "method": "full", "techniques": {"kbit_fp32_cast": false}})",
                         R"(, "calibration": {"tokens_per_s_per_gpu": 9000, "measured_on": {"gpus": 8, "ep": 1}}})"}) {
    const ScenarioParse p = parse("{" + m + ok);
    CHECK_MESSAGE(p.scenario.has_value(), ok, " -> ", p.error.message);
  }
}

TEST_CASE("estimate_json: result keys of the CLI contract and the error body") {
  const JsonResponse ok = estimate_json(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"zero": 3}})",
                                        builtin_catalog(), default_calibration());
  REQUIRE(ok.ok);
  const auto r = nlohmann::json::parse(ok.body);
  for (const char* k : {"weights", "gradients", "optimizer", "activations", "other", "total"})
    CHECK(r["memory"]["per_gpu_bytes"].contains(k));
  CHECK(r["memory"]["fits"].get<bool>());
  CHECK(r["model"]["params"]["total"].get<double>() == 6738415616.0);
  CHECK(r["warnings"].is_array());

  const JsonResponse bad =
      estimate_json(R"({"model": {"preset": "llama-2-7b"}, "seq_len": -5})", builtin_catalog(), default_calibration());
  CHECK_FALSE(bad.ok);
  const auto e = nlohmann::json::parse(bad.body);
  CHECK(e["error"]["field"] == "seq_len");
}

TEST_CASE("a custom model's learned positions are its context: a longer sequence is warned of") {
  // GPT-style learned position embeddings have one row per position (GPT-2: 1,024): 2,048 rows
  // cannot take an 8,192-token sequence.
  const char* gpt = R"({"model": {"layers": 24, "hidden": 2048, "heads": 16, "ffn": 8192, "vocab": 50257,
      "learned_positions": 2048}, "seq_len": %d})";
  for (int seq : {2048, 8192}) {
    char text[512];
    std::snprintf(text, sizeof text, gpt, seq);
    const JsonResponse r = estimate_json(text, builtin_catalog(), default_calibration());
    REQUIRE_MESSAGE(r.ok, r.error.message);
    const auto j = nlohmann::json::parse(r.body);
    const nlohmann::json* found = nullptr;
    for (const auto& w : j["warnings"])
      if (w["code"] == "seq_exceeds_context") found = &w;
    CAPTURE(seq);
    CHECK((found != nullptr) == (seq > 2048));
    if (found) CHECK((*found)["limit"].get<double>() == 2048.0);
  }
}

TEST_CASE("warnings carry their numbers") {
  const JsonResponse r = estimate_json(
      R"({"model": {"preset": "llama-2-70b"}, "seq_len": 8192, "cluster": {"gpus": 16, "gpus_per_node": 8, "gpu_memory_gb": 1000},
          "parallel": {"tp": 16}, "network": {"inter_node_link": "roce-100g"},
          "storage": {"data_tier": "fsx-lustre-p2-1000"}})",
      builtin_catalog(), default_calibration());
  REQUIRE(r.ok);
  const auto j = nlohmann::json::parse(r.body);
  std::string codes;
  for (const auto& w : j["warnings"]) codes += w["code"].get<std::string>() + " ";
  // TP 16 does not divide Llama 2 70B's 8 KV heads: no framework the planner targets runs it.
  CHECK(codes == "tp_crosses_nodes seq_exceeds_context comm_dominates unsupported_layout ");
  CHECK(j["warnings"][0]["value"].get<double>() == 16.0);
  CHECK(j["warnings"][1]["limit"].get<double>() == 4096.0);
  // The refusing rule in English and by its id, which a page words in its own language.
  CHECK(j["warnings"][3]["rule"] == "Megatron-LM splits the KV heads over TP: TP must divide them");
  CHECK(j["warnings"][3]["rule_id"] == "tp_divides_kv_heads");
}

TEST_CASE("context, expert and virtual pipeline parallelism: invalid combinations name the field and the range") {
  // CP: 2 x cp must divide seq_len (Megatron-Core's load-balanced causal ring: 2 cp chunks).
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4096, "cluster": {"gpus": 24},
      "parallel": {"cp": 3}})",
                "parallel.cp", "2 x cp must divide seq_len; allowed 1..1024, got 3");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 4100, "parallel": {"cp": 4}})", "parallel.cp",
                "load-balanced causal ring attention");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"cp": 2048}})", "parallel.cp", "1..1024");
  // TP x CP x PP must divide the GPUs.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}, "parallel": {"tp": 8, "cp": 2}})",
                "cluster.gpus", "multiple of parallel.tp x parallel.cp x parallel.pp (16)");
  // EP: MoE models only, dividing the experts and the data-parallel size.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"ep": 2}})", "parallel.ep",
                "applies only to mixture-of-experts models");
  check_rejects(R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"gpus": 24}, "parallel": {"ep": 3}})",
                "parallel.ep", "must divide the model's routed experts (8); allowed 1..4096, got 3");
  // EP x ETP must divide a stage's tp x cp x dp ranks (MoE parallel folding); ETP defaults to TP.
  check_rejects(R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"gpus": 16}, "parallel": {"tp": 4, "ep": 8}})",
                "parallel.ep", "ep x etp (8 x 4) must divide the GPUs of a pipeline stage (tp x cp x dp = 16)");
  check_rejects(R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"gpus": 16}, "parallel": {"tp": 4, "etp": 3}})",
                "parallel.etp", "must divide parallel.tp (4)");
  // ...so ETP 1 lets the same EP 8 run across the TP ranks.
  CHECK(parse(R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"gpus": 16},
      "parallel": {"tp": 4, "ep": 8, "etp": 1, "sequence_parallel": true}})")
            .scenario.has_value());
  check_rejects(R"({"model": {"preset": "mixtral-8x7b"}, "parallel": {"ep": 5000}})", "parallel.ep", "1..4096");
  // The dispatcher cannot hold more SMs than the GPU has: 132 on an H100 SXM (NVIDIA H100 whitepaper).
  const char* sms = R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"ep": 8, "ep_dispatcher": "deepep", "ep_comm_overlap": true, "ep_comm_sms": %d}})";
  char over[512], all[512];
  std::snprintf(over, sizeof over, sms, 133);
  std::snprintf(all, sizeof all, sms, 132);
  check_rejects(over, "parallel.ep_comm_sms", "must be at most the 132 SMs of h100-sxm5-80gb");
  check_rejects(over, "parallel.ep_comm_sms", "allowed 0..132, got 133");
  CHECK(parse(all).scenario.has_value());
  // Without the overlap the field does not apply, and that is what the refusal says, whatever the value.
  check_rejects(R"({"model": {"preset": "mixtral-8x7b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"ep": 8, "ep_dispatcher": "deepep", "ep_comm_sms": 200}})",
                "parallel.ep_comm_sms", "applies only when");
  // VP: needs PP, at least one layer in every virtual stage, and whole rounds of PP micro-batches.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"vp": 2}})", "parallel.vp",
                "needs parallel.pp > 1");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "global_batch": 16, "parallel": {"pp": 4, "vp": 9}})",
                "parallel.vp",
                "stages of 8, 8, 8 of the model's 32 layers on 4 stages allow at most 8; allowed 1..8, got 9");
  // Chunks of unequal length run (torch.distributed.pipelining, Megatron-Core's pipeline layout):
  // VP 3 on 8 layers a stage gives chunks of 3, 3 and 2.
  CHECK(parse(R"({"model": {"preset": "llama-3.1-8b"}, "global_batch": 16, "parallel": {"pp": 4, "vp": 3}})")
            .scenario.has_value());
  // Llama 3 405B on 16 stages: 7 + 8 x 14 + 7 blocks. VP 8 runs, the embedding and the loss taking a
  // block's slot on the end stages (--account-for-*-in-pipeline-split); VP 9 leaves a chunk empty.
  check_rejects(R"({"model": {"preset": "llama-3.1-405b"}, "cluster": {"gpus": 128}, "global_batch": 64,
      "parallel": {"tp": 8, "pp": 16, "vp": 9}})",
                "parallel.vp",
                "stages of 7, 8, 7 of the model's 126 layers on 16 stages allow at most 8; allowed 1..8, got 9");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "global_batch": 6, "parallel": {"pp": 4, "vp": 2}})",
                "parallel.vp", "(global_batch / (micro_batch x dp) = 3) to be a multiple of parallel.pp (4)");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"pp": 2, "vp": 200}})", "parallel.vp", "1..128");
  // Valid: the Llama 3 long-context layout and DeepSeek-V3's.
  CHECK(parse(R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 131072, "global_batch": 128,
      "cluster": {"gpus": 16384}, "parallel": {"tp": 8, "cp": 16, "pp": 16}})")
            .scenario.has_value());
  CHECK(parse(R"({"model": {"preset": "deepseek-v3"}, "global_batch": 15360, "cluster": {"accelerator":
      "h800-sxm5-80gb", "gpus": 2048}, "parallel": {"pp": 16, "ep": 64, "zero": 1}})")
            .scenario.has_value());
}

TEST_CASE(
    "JSON a person did not mean is refused with the reason: a key written twice, 1e999, bytes that are not UTF-8") {
  auto error = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    CHECK_FALSE(p.scenario.has_value());
    return p.error.message;
  };
  // JSON parsers keep the last of two equal keys; the first value the user typed would vanish.
  // Each names the value at fault as the error's field (the app marks that input) and where it is.
  CHECK(error(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 2048, "seq_len": 4096})") ==
        "seq_len: not valid JSON: the key \"seq_len\" is written twice (JSON keeps only the last)");
  CHECK(error(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"tp": 1, "tp": 2}})")
            .rfind("parallel.tp: not valid JSON: the key \"parallel.tp\"", 0) == 0);
  // 1e999 starts at byte 49 (from 0): {"model": {"preset": "llama-3.1-8b"}, "seq_len": is 49 bytes.
  CHECK(error(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": 1e999})") ==
        "seq_len: not valid JSON: number overflow parsing '1e999' (byte 49)");
  CHECK(error(R"({"model": {"preset": "llama-3.1-8b"}, "parallel": {"zero": 1, "tp": -1e999}})")
            .rfind("parallel.tp: not valid JSON: number overflow parsing '-1e999'", 0) == 0);
  CHECK(error("{\"model\": {\"preset\": \"ll\xff\"}}") == "model.preset: not valid JSON: byte 24 is not UTF-8 text");
  // A bad byte in a key names the object holding it (here the top level: the document itself).
  CHECK(error("{\"tokens\": 1e9, \"na\xffme\": 1}") == "(scenario): not valid JSON: byte 19 is not UTF-8 text");
  CHECK(error("{\"model\": {\"preset\": \"llama-3.1-8b\", \"la\xffyers\": 1}}") ==
        "model: not valid JSON: byte 40 is not UTF-8 text");
  CHECK(error(R"({"model": )").find("(scenario): not valid JSON: parse error at line 1, column 11: syntax error") == 0);
  // Nesting beyond 64 levels is refused before parsing (the parser recurses per level: 100,000
  // levels overflowed the stack). {"seq_len": is 11 bytes, so the 65th "[" is byte 11 + 64 = 75.
  const std::string deep = R"({"seq_len": )" + std::string(65, '[') + std::string(65, ']') + "}";
  CHECK(error(deep.c_str()) ==
        "(scenario): not valid JSON: byte 75 opens an array or object nested more than 64 levels deep (allowed: up "
        "to 64)");
  const std::string hostile = "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(error(hostile.c_str()).find("nested more than 64 levels") != std::string::npos);
  // 63 levels inside the document's own object parse (and fail on the field's type instead);
  // brackets inside strings do not count.
  const std::string ok_depth = R"({"seq_len": )" + std::string(63, '[') + std::string(63, ']') + "}";
  CHECK(error(ok_depth.c_str()).rfind("seq_len: ", 0) == 0);
  const std::string in_string = R"({"model": {"preset": ")" + std::string(100, '[') + R"("}})";
  CHECK(error(in_string.c_str()).rfind("model.preset: ", 0) == 0);
  // The same key in two objects is no duplicate, and UTF-8 text is fine where text is allowed.
  const ScenarioParse ok = parse_scenario(
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}, "parallel": {"zero": 3}, "storage": {"data_tier": "local-nvme-gen4-980pro"}})",
      builtin_catalog());
  CHECK(ok.scenario.has_value());
}

TEST_CASE("an invalid value is echoed cut to 80 characters with its length, whole when short") {
  // A 1,000,000-character string where a number belongs, and a long unknown id: the message names
  // the field and the allowed range, and shows the start of the value and how long it was.
  const std::string huge(1000000, '9');
  const ScenarioParse a =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": ")" + huge + "\"}", builtin_catalog());
  REQUIRE_FALSE(a.scenario.has_value());
  CHECK(a.error.field == "seq_len");
  CHECK(a.error.message ==
        "seq_len: must be an integer in 1..1048576; got \"" + std::string(80, '9') + "\"... (1000000 characters)");
  const ScenarioParse b =
      parse_scenario(R"({"model": {"preset": ")" + std::string(200, 'x') + "\"}}", builtin_catalog());
  REQUIRE_FALSE(b.scenario.has_value());
  CHECK(b.error.message.find("\"... (200 characters)") != std::string::npos);
  CHECK(b.error.message.size() < 250);
  // Short values are shown as they are.
  const ScenarioParse c =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "seq_len": "long"})", builtin_catalog());
  CHECK(c.error.message == "seq_len: must be an integer in 1..1048576; got \"long\"");
}

TEST_CASE("an offering rented by the card takes cluster.cards: 1 to its host's cards, at the per-card price") {
  // AutoDL's A800 is sold per card, up to 8 on one host (catalog instances.json), on PCIe 4.0
  // (its intra_host_link: 31 GB/s one direction, catalog interconnects.json "pcie4").
  const ScenarioParse p = parse(R"({"model": {"preset": "qwen2.5-7b"}, "method": "full",
    "cluster": {"instance": "autodl-1x-a800-80gb", "cards": 4}})");
  REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
  const Scenario& s = *p.scenario;
  CHECK(s.cluster.cards == 4);
  CHECK(s.cluster.gpus == 4);
  CHECK(s.cluster.gpus_per_node == 4);
  CHECK(s.cluster.nodes() == 1);
  CHECK(s.cluster.intra_node_gb_per_s == doctest::Approx(31));
  // 5.88 CNY per card-hour, converted at the catalog's dated rate.
  CHECK(s.pricing.usd_per_gpu_hour == doctest::Approx(5.88 / builtin_catalog().currency.usd_to_cny));
  // Without cards it is the offering's one card, as before.
  const ScenarioParse one =
      parse(R"({"model": {"preset": "qwen2.5-7b"}, "cluster": {"instance": "autodl-1x-a800-80gb"}})");
  REQUIRE(one.scenario.has_value());
  CHECK(one.scenario->cluster.gpus == 1);
  check_rejects(R"({"model": {"preset": "qwen2.5-7b"}, "cluster": {"instance": "autodl-1x-a800-80gb", "cards": 9}})",
                "cluster.cards", "must be 1..8");
  check_rejects(
      R"({"model": {"preset": "qwen2.5-7b"}, "cluster": {"instance": "aws-p5.48xlarge-us-east-1", "cards": 4}})",
      "cluster.cards", "fixed shape of 8 GPU(s)");
  check_rejects(R"({"model": {"preset": "qwen2.5-7b"}, "cluster": {"instance": "autodl-1x-a800-80gb", "cards": 0}})",
                "cluster.cards", "1..");
}

TEST_CASE("a precision the tensor cores lack is refused through the catalog: bf16 on a V100 as fp8 on an A100") {
  // V100 (Volta) tensor cores run FP16 only: the catalog lists bf16 as unsupported; A100 has no FP8
  // peak. Each refusal names the precision field and a format the GPU does run.
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "cluster": {"accelerator": "v100-sxm2-32gb", "gpus": 8}})",
                "precision", "\"bf16\" needs BF16 tensor cores, which v100-sxm2-32gb does not have");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "precision": "fp8",
    "cluster": {"accelerator": "v100-sxm2-32gb", "gpus": 8}})",
                "precision", "use \"fp16\"");
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "precision": "fp8",
    "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 8}})",
                "precision", "\"fp8\" needs FP8 tensor cores, which a100-sxm4-80gb does not have; use \"bf16\"");
  // FP16 runs on the V100 at its 125 TFLOP/s FP16 tensor peak.
  const ScenarioParse fp16 = parse(R"({"model": {"preset": "llama-2-7b"}, "precision": "fp16",
    "cluster": {"accelerator": "v100-sxm2-32gb", "gpus": 8}, "parallel": {"zero": 3}})");
  REQUIRE_MESSAGE(fp16.scenario.has_value(), fp16.error.message);
  CHECK(fp16.scenario->cluster.peak_16bit_tflops == doctest::Approx(125));
}

TEST_CASE("the first view (the app's scenario without a link, index.html's static summary) parses and fits") {
  const ScenarioParse p = parse(std::string(first_view_scenario_json()));
  REQUIRE_MESSAGE(p.scenario.has_value(), p.error.message);
  CHECK(p.scenario->model_preset == "llama-3.1-8b");
  CHECK(estimate(*p.scenario, default_calibration()).memory.fits);
}

TEST_CASE("offloaded layers: only with activation offload, at most the layers of the smallest stage") {
  const std::string m = R"("model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8})";
  check_rejects("{" + m + R"(, "techniques": {"activation_offload_layers": 4}})",
                "techniques.activation_offload_layers", "applies only when techniques.activation_offload is true");
  // Llama 3.1 8B's 32 layers on 3 stages: ceil(32 / 3) = 11 a stage, the first and last 10 and 11.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 3}, "parallel": {"pp": 3},
      "techniques": {"activation_offload": true, "activation_offload_layers": 11}})",
                "techniques.activation_offload_layers",
                "must be at most the layers of the smallest pipeline stage (10 of the model's 32 on 3 stages); 0 "
                "offloads every layer; got 11");
  check_rejects("{" + m + R"(, "techniques": {"activation_offload": true, "activation_offload_layers": -1}})",
                "techniques.activation_offload_layers", "0..1000");
  const ScenarioParse ok =
      parse("{" + m + R"(, "techniques": {"activation_offload": true, "activation_offload_layers": 32}})");
  CHECK_MESSAGE(ok.scenario.has_value(), ok.error.message);
}

TEST_CASE("recomputed layers: only with full recompute under Megatron, at most a chunk's blocks") {
  const std::string m = R"("model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}, "framework": "megatron")";
  check_rejects("{" + m + R"(, "parallel": {"recompute": "selective", "recompute_layers": 4}})",
                "parallel.recompute_layers", "applies only when parallel.recompute is \"full\"");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "framework": "hf",
      "parallel": {"recompute": "full", "recompute_layers": 4}})",
                "parallel.recompute_layers", "and when framework is \"megatron\"");
  // Megatron's block method recomputes the first blocks, which freeze-tuning freezes.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "method": "freeze", "framework": "megatron",
      "parallel": {"recompute": "full", "recompute_layers": 4}})",
                "parallel.recompute_layers", "and when method is \"pretrain\" or \"continued\"");
  // 32 blocks on 2 stages x 2 virtual stages: chunks of 8.
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}, "framework": "megatron",
      "global_batch": 8, "parallel": {"pp": 2, "vp": 2, "recompute": "full", "recompute_layers": 9}})",
                "parallel.recompute_layers",
                "must be at most the blocks of the largest pipeline chunk (8: the model's 32 on 2 stages x 2 virtual "
                "stages); 0 recomputes every block; got 9");
  check_rejects("{" + m + R"(, "parallel": {"recompute": "full", "recompute_layers": -1}})",
                "parallel.recompute_layers", "0..1000");
  const ScenarioParse ok = parse("{" + m + R"(, "parallel": {"recompute": "full", "recompute_layers": 32}})");
  CHECK_MESSAGE(ok.scenario.has_value(), ok.error.message);
}

TEST_CASE("multi-token prediction modules: Megatron only, for full training, 0..8") {
  const std::string m =
      R"("model": {"preset": "deepseek-v3"}, "cluster": {"gpus": 1024}, "parallel": {"pp": 16, "ep": 64})";
  // Pretraining defaults to Megatron; Hugging Face, torchtitan and the rest train no MTP module.
  const ScenarioParse ok = parse("{" + m + R"(, "techniques": {"mtp_layers": 1}})");
  REQUIRE_MESSAGE(ok.scenario.has_value(), ok.error.message);
  CHECK(ok.scenario->techniques.mtp_layers == 1);
  check_rejects("{" + m + R"(, "framework": "torchtitan", "techniques": {"mtp_layers": 1}})", "techniques.mtp_layers",
                "needs framework \"megatron\": Megatron-Core trains multi-token prediction modules "
                "(--mtp-num-layers), framework \"torchtitan\" has none; got 1");
  check_rejects(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "techniques": {"mtp_layers": 1}})",
                "techniques.mtp_layers", "applies only");
  check_rejects("{" + m + R"(, "techniques": {"mtp_layers": 9}})", "techniques.mtp_layers", "0..8");
}

TEST_CASE("QLoRA with Hugging Face recomputes every block unless the scenario says otherwise") {
  // PEFT's prepare_model_for_kbit_training(model, use_gradient_checkpointing=True) turns gradient
  // checkpointing on by default (peft/utils/other.py); torchtune, LoRA and an explicit choice do not
  // follow it.
  const auto recompute = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    return p.scenario->parallel.recompute;
  };
  CHECK(recompute(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora"})") == Recompute::full);
  CHECK(recompute(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "parallel": {"recompute": "none"}})") ==
        Recompute::none);
  CHECK(recompute(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "framework": "torchtune"})") ==
        Recompute::none);
  CHECK(recompute(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora"})") == Recompute::none);
  // Written back, an explicit "none" stays (else the default would turn it into full), and the
  // default is left out.
  const ScenarioParse none =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "parallel": {"recompute": "none"}})",
                     builtin_catalog());
  REQUIRE(none.scenario);
  const json written = json::parse(write_scenario_input(*none.scenario, builtin_catalog()));
  CHECK(written["parallel"]["recompute"] == "none");
  const ScenarioParse dflt =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora"})", builtin_catalog());
  REQUIRE(dflt.scenario);
  const json plain = json::parse(write_scenario_input(*dflt.scenario, builtin_catalog()));
  CHECK_FALSE(plain.contains("parallel"));
}

TEST_CASE("a node larger than any system the accelerator is sold in is refused, naming the catalog's bound") {
  // HGX H100 boards join at most 8 GPUs by NVLink (NVIDIA H100 datasheet: HGX systems with 4 or 8
  // GPUs): 16 H100s "a node" would spread NVLink bandwidth over ranks no NVSwitch joins.
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16,
    "gpus_per_node": 16}})",
                "cluster.gpus_per_node", "must be 1..8 for h100-sxm5-80gb");
  const ScenarioParse h100 = parse(R"({"model": {"preset": "llama-2-7b"},
    "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16, "gpus_per_node": 16}})");
  CHECK(h100.error.code == "gpus_per_node_domain");
  CHECK(h100.error.args == std::vector<std::string>{"8", "h100-sxm5-80gb", "16"});
  // Two HGX A100 boards back to back through NVSwitch join 16 (NVIDIA, "Introducing NVIDIA HGX A100").
  for (const char* ok : {R"("a100-sxm4-80gb", "gpus": 16, "gpus_per_node": 16)",
                         R"("gb200-186gb", "gpus": 72, "gpus_per_node": 72)",  // one NVL72 rack
                         R"("l40s", "gpus": 10, "gpus_per_node": 10)"}) {      // PCIe: the chassis decides
    const ScenarioParse p = parse(std::string(R"({"model": {"preset": "llama-2-7b"}, "parallel": {"zero": 3},
      "cluster": {"accelerator": )") +
                                  ok + "}}");
    CHECK_MESSAGE(p.scenario.has_value(), ok << ": " << p.error.message);
  }
  check_rejects(R"({"model": {"preset": "llama-2-7b"}, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 17,
    "gpus_per_node": 17}})",
                "cluster.gpus_per_node", "must be 1..16 for a100-sxm4-80gb");
  // The default node, min(gpus, 8), always fits.
  const ScenarioParse many = parse(R"({"model": {"preset": "llama-2-7b"}, "cluster": {"accelerator": "mi300x",
    "gpus": 64}, "parallel": {"zero": 3}})");
  REQUIRE_MESSAGE(many.scenario.has_value(), many.error.message);
  CHECK(many.scenario->cluster.gpus_per_node == 8);
}
