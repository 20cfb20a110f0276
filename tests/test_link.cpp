// Links: the field-code table, round trips, the length target, robust decoding with notices, old
// catalog releases, and the golden links of tests/golden/links.json (same numbers forever).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/catalog_releases.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/link.hpp"
#include "llmplan/model_version.hpp"
#include "llmplan/planner.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {

std::string encode(const std::string& input) {
  const LinkEncode e = encode_link(input, builtin_catalog());
  REQUIRE_MESSAGE(e.ok, e.error.message);
  return e.fragment;
}

LinkDecode decode(const std::string& link) { return decode_link(link, builtin_catalog()); }

bool has_notice(const LinkDecode& d, const std::string& field) {
  for (const LinkNotice& n : d.notices)
    if (n.field == field) return true;
  return false;
}

// The golden links file of this source tree (LLMPLAN_SOURCE_DIR: tests/CMakeLists.txt), whatever
// folder ctest or Node runs the tests from.
json golden_links() {
  for (const std::string& path :
       {std::string(LLMPLAN_SOURCE_DIR) + "/tests/golden/links.json", std::string("tests/golden/links.json")}) {
    std::ifstream in(path);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
  }
  return json();
}

const json* at(const json& doc, const std::string& dotted) {
  const json* v = &doc;
  std::stringstream ss(dotted);
  std::string key;
  while (std::getline(ss, key, '.')) {
    if (v->is_array()) {
      const size_t i = static_cast<size_t>(std::stoul(key));
      if (i >= v->size()) return nullptr;
      v = &(*v)[i];
    } else if (v->is_object() && v->contains(key)) {
      v = &(*v)[key];
    } else {
      return nullptr;
    }
  }
  return v;
}

}  // namespace

TEST_SUITE("links") {
  TEST_CASE("field codes and paths are unique and reserved codes are not used") {
    std::set<std::string> codes, fields;
    for (const LinkField& f : kLinkFields) {
      CHECK_MESSAGE(codes.insert(f.code).second, f.code);
      CHECK_MESSAGE(fields.insert(f.field).second, f.field);
      CHECK(std::string(f.code) != "v");
      CHECK(std::string(f.code) != "c");
      CHECK(std::string(f.code) != "mv");
      CHECK(std::string(f.code) != "u");
    }
    CHECK(kLinkFields.size() >= 80);
  }

  TEST_CASE("a scenario using every section round-trips exactly") {
    const std::string input =
        R"({"model": {"layers": 24, "hidden": 2048, "heads": 16, "kv_heads": 8, "head_dim": 128, "ffn": 8192,
      "vocab": 102400, "gated_mlp": true, "tied_embeddings": false, "qkv_bias": true, "norm": "rmsnorm", "experts": 64,
      "top_k": 6, "shared_experts": 2, "expert_ffn": 1408, "shared_expert_ffn": 2816, "dense_layers": 1},
      "method": "lora", "lora": {"rank": 32, "targets": "attention"}, "precision": "bf16", "optimizer": "adamw8bit",
      "seq_len": 4096, "micro_batch": 2, "global_batch": 64, "tokens": 1.5e9, "epochs": 1.5, "dropout": false,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16, "gpus_per_node": 8, "gpu_memory_gb": 79.5},
      "network": {"inter_node_link": "roce-400g", "inter_node_gbps": 3200, "intra_node_gb_per_s": 400, "busbw_fraction": 0.75},
      "parallel": {"tp": 1, "pp": 1, "zero": 2, "sequence_parallel": false, "recompute": "selective", "offload": "cpu",
                   "flash_attention": true, "tp_comm_overlap": false},
      "techniques": {"loss_chunks": 8, "activation_offload": false, "optimizer_in_backward": false, "fp32_norm_inputs": true},
      "storage": {"data_tier": "aws-ebs-gp3", "checkpoint_tier": "local-nvme-gen4-980pro", "checkpoint_interval_h": "auto",
                  "bytes_per_token": 2, "dataset_tokens": 3e9, "retention_months": 2, "checkpoints_kept": 4},
      "pricing": {"mode": "spot", "usd_per_gpu_hour": 2.49, "overhead_factor": 1.4, "currency": "cny",
                  "spot_interruptions_per_hour": 0.02, "failures_per_gpu_hour": 2e-5, "restart_h": 0.3}})";
    const std::string fragment = encode(input);
    const LinkDecode d = decode("https://example.org/tools/llmplan/#" + fragment);
    CHECK(d.notices.empty());
    CHECK(d.valid);
    CHECK(d.version == 1);
    CHECK(d.catalog_version == builtin_catalog().catalog_version);
    CHECK(json::parse(d.input_json) == json::parse(input));
    // ... and the estimate is the same one: the link reproduces the scenario exactly.
    const Calibration& cal = default_calibration();
    CHECK(estimate_json(d.input_json, builtin_catalog(), cal).body ==
          estimate_json(input, builtin_catalog(), cal).body);
  }

  TEST_CASE("cards of an offering rented by the card round-trip under nc") {
    const std::string input = R"({"model": {"preset": "qwen2.5-7b"}, "method": "full", "seq_len": 2048,
      "cluster": {"instance": "autodl-1x-a800-80gb", "nodes": 1, "cards": 4}})";
    const std::string fragment = encode(input);
    CHECK(fragment.find("&nc=4") != std::string::npos);
    const LinkDecode d = decode(fragment);
    CHECK(d.notices.empty());
    REQUIRE(d.valid);
    CHECK(json::parse(d.input_json)["cluster"]["cards"] == 4);
    const Calibration& cal = default_calibration();
    CHECK(estimate_json(d.input_json, builtin_catalog(), cal).body ==
          estimate_json(input, builtin_catalog(), cal).body);
  }

  TEST_CASE("context, expert and virtual pipeline parallelism round-trip under cp, xp and vp") {
    // Mixtral 8x7B on 64 GPUs: TP 2 x CP 2 x PP 2 (VP 2), DP 8 with EP 4 inside it.
    const std::string input =
        R"({"model": {"preset": "mixtral-8x7b"}, "method": "full", "seq_len": 8192, "global_batch": 64,
      "tokens": 1e9, "epochs": 2, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64},
      "parallel": {"tp": 2, "cp": 2, "pp": 2, "vp": 2, "ep": 4, "zero": 1, "sequence_parallel": true}})";
    const std::string fragment = encode(input);
    // "ep" has meant epochs since the first links: expert parallelism is "xp".
    CHECK(fragment.find("&cp=2&") != std::string::npos);
    CHECK(fragment.find("&xp=4&") != std::string::npos);
    CHECK(fragment.find("&vp=2") != std::string::npos);
    CHECK(fragment.find("&ep=2&") != std::string::npos);  // epochs
    const LinkDecode d = decode(fragment);
    CHECK(d.notices.empty());
    REQUIRE(d.valid);
    const json in = json::parse(d.input_json);
    CHECK(in == json::parse(input));
    CHECK(in["epochs"] == 2);
    CHECK(in["parallel"]["ep"] == 4);
    const Calibration& cal = default_calibration();
    CHECK(estimate_json(d.input_json, builtin_catalog(), cal).body ==
          estimate_json(input, builtin_catalog(), cal).body);
    // A field the link sets where it does not apply (hand-made, or from before it was refused) is
    // dropped with a notice that names it; the rest of the link opens.
    const LinkDecode kernel = decode("v=1&m=llama-2-7b&fa=0&ka=flash3");
    CHECK(kernel.valid);
    CHECK(has_notice(kernel, "parallel.attention_kernel"));
    CHECK(json::parse(kernel.input_json)["parallel"]["flash_attention"] == false);
    CHECK_FALSE(json::parse(kernel.input_json)["parallel"].contains("attention_kernel"));
    // An old link's "ep" still decodes to epochs; "xp" on a dense model is dropped with a notice.
    const LinkDecode old = decode("v=1&m=llama-2-7b&ep=3");
    CHECK(json::parse(old.input_json)["epochs"] == 3);
    CHECK_FALSE(json::parse(old.input_json).contains("parallel"));
    // The token dispatcher travels under xd.
    const std::string deepep =
        R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256}, "parallel": {"pp": 4, "ep": 64, "ep_dispatcher": "deepep"}})";
    const std::string deepep_fragment = encode(deepep);
    CHECK(deepep_fragment.find("&xd=deepep") != std::string::npos);
    CHECK(json::parse(decode(deepep_fragment).input_json) == json::parse(deepep));
    const LinkDecode dense = decode("v=1&m=llama-2-7b&n=16&xp=2&cp=2");
    CHECK(dense.valid);
    CHECK(has_notice(dense, "parallel.ep"));
    CHECK(json::parse(dense.input_json)["parallel"]["cp"] == 2);
    // Multi-token prediction modules travel under mtp; on a LoRA link they are dropped with a notice.
    const std::string mtp = R"({"model": {"preset": "deepseek-v3"}, "seq_len": 4096, "global_batch": 512,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 256}, "parallel": {"pp": 4, "ep": 64},
      "techniques": {"mtp_layers": 1}})";
    const std::string mtp_fragment = encode(mtp);
    CHECK(mtp_fragment.find("&mtp=1") != std::string::npos);
    CHECK(json::parse(decode(mtp_fragment).input_json) == json::parse(mtp));
    const LinkDecode lora = decode("v=1&m=llama-2-7b&me=lora&mtp=1");
    CHECK(lora.valid);
    CHECK(has_notice(lora, "techniques.mtp_layers"));
  }

  TEST_CASE("a planner question round-trips, lists included") {
    const std::string input =
        R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "tokens": 2e9, "objective": "min_time_under_budget",
      "constraints": {"budget_usd": 5000, "max_gpus": 64, "providers": ["aws", "lambda"], "accelerators": ["h100-sxm5-80gb"],
      "spot": true, "deadline_days": 9.5}, "top_n": 3})";
    const LinkDecode d = decode(encode(input));
    CHECK(d.notices.empty());
    CHECK(d.is_question);
    CHECK(json::parse(d.input_json) == json::parse(input));
  }

  TEST_CASE("typical scenarios encode in at most 200 characters") {
    const json links = golden_links();
    REQUIRE(links.is_object());
    int n = 0;
    for (const json& l : links["links"]) {
      const std::string fragment = l["link"].get<std::string>().substr(1);
      CHECK_MESSAGE(fragment.size() <= 200, l["name"].get<std::string>());  // bench/link-lengths.sh prints them
      ++n;
    }
    CHECK(n >= 20);
  }

  TEST_CASE("numbers are written in their shortest exact form") {
    const std::string f =
        encode(R"({"model": {"preset": "llama-2-7b"}, "tokens": 2e12, "pricing": {"overhead_factor": 1.3,
      "failures_per_gpu_hour": 1.97e-05}})");
    CHECK(f.find("&t=2e12") != std::string::npos);
    CHECK(f.find("&ov=1.3") != std::string::npos);
    CHECK(f.find("&fr=1.97e-5") != std::string::npos);
  }

  TEST_CASE("a bad field falls back to its default with a notice naming it, every other field is kept") {
    const LinkDecode d =
        decode("#v=1&c=2026.12.0&m=llama-3.1-70b&s=abc&tp=3&gb=256&n=16&g=h100-sxm5-80gb&z=3&zz=9&sp=maybe");
    CHECK(d.valid);
    CHECK(has_notice(d, "seq_len"));                     // not a number
    CHECK(has_notice(d, "parallel.tp"));                 // does not divide the 64 heads
    CHECK(has_notice(d, "zz"));                          // unknown code
    CHECK(has_notice(d, "parallel.sequence_parallel"));  // not 1/0
    const json in = json::parse(d.input_json);
    CHECK(in["global_batch"] == 256);
    CHECK(in["cluster"]["gpus"] == 16);
    CHECK(in["parallel"]["zero"] == 3);
    CHECK_FALSE(in["parallel"].contains("tp"));
    CHECK_FALSE(in.contains("seq_len"));
  }

  TEST_CASE("cross-field rules drop the field that breaks them, not the rest") {
    // 1024 is not a multiple of micro-batch 3 x DP 16: the global batch is the field at fault.
    const LinkDecode d = decode("v=1&m=llama-2-7b&n=16&mb=3&gb=1024");
    CHECK(d.valid);
    CHECK(has_notice(d, "global_batch"));
    CHECK(json::parse(d.input_json)["micro_batch"] == 3);
    // An instance and an accelerator together: the field the rule names goes, the other stays.
    const LinkDecode both = decode("v=1&m=llama-2-7b&i=lambda-8x-b200-sxm&g=h100-sxm5-80gb");
    CHECK(both.valid);
    CHECK(has_notice(both, "cluster.instance"));
    CHECK(json::parse(both.input_json)["cluster"]["accelerator"] == "h100-sxm5-80gb");
    // A planner question without tokens: dropping its constraint mends it, once. (Dropping the
    // model only swaps the default one back in: the repair used to cycle between the two, 64 times.)
    const LinkDecode question = decode("v=1&m=llama-3.1-8b&qg=8");
    CHECK(question.valid);
    REQUIRE(question.notices.size() == 1);
    CHECK(question.notices[0].field == "constraints.max_gpus");
    CHECK(json::parse(question.input_json)["model"]["preset"] == "llama-3.1-8b");
    // An unknown preset falls back to the default model.
    const LinkDecode model = decode("v=1&m=no-such-model&s=2048");
    CHECK(model.valid);
    CHECK(has_notice(model, "model.preset"));
    CHECK(json::parse(model.input_json)["seq_len"] == 2048);
  }

  TEST_CASE("missing, newer and garbage links still decode to a valid scenario") {
    CHECK(decode("").valid);
    CHECK(decode("").notices.empty());
    const LinkDecode bare = decode("https://example.org/llmplan/");
    CHECK(bare.valid);
    const LinkDecode newer = decode("#v=7&m=llama-2-7b&xq=1");
    CHECK(newer.valid);
    CHECK(has_notice(newer, "v"));
    CHECK(has_notice(newer, "xq"));
    const LinkDecode junk = decode(std::string("#\x01\xff%zz=&&&==&m=%41%4&v=x&", 24));
    CHECK(junk.valid);
    const LinkDecode longer = decode("#v=1&m=llama-2-7b&" + std::string(20000, 'a'));
    CHECK(longer.valid);
    CHECK(has_notice(longer, "(link)"));
    const LinkDecode twice = decode("#v=1&s=2048&s=4096");
    CHECK(json::parse(twice.input_json)["seq_len"] == 2048);
    CHECK(has_notice(twice, "seq_len"));
  }

  TEST_CASE("every notice carries a listed code and the values its message names, for other languages") {
    // One link per kind of notice the decoder gives; each notice's code must be in kLinkNoticeCodes,
    // its args exactly that code's names, and every arg value must appear in the English message
    // (a translation built from code and args then says the same thing).
    const std::vector<std::pair<std::string, std::string>> links = {
        {"#v=1&m=llama-2-7b&" + std::string(20000, 'a'), "link_too_long"},
        {"#v=7&m=llama-2-7b", "newer_format"},
        {"#v=x&m=llama-2-7b", "bad_format_version"},
        {"#m=llama-2-7b", "missing_format_version"},
        {"#v=1&c=a%20b&m=llama-2-7b", "bad_catalog_version"},
        {"#v=1&mv=99&m=llama-2-7b", "newer_model"},
        {"#v=1&mv=x&m=llama-2-7b", "bad_model_version"},
        {"#v=1&mv=1&mv=2&m=llama-2-7b", "duplicate"},
        {"#v=1&m=llama-2-7b&zz=9", "unknown_code"},
        {"#v=1&m=llama-2-7b&s=abc", "invalid_default"},
        {"#v=1&m=llama-2-7b&pp=3", "invalid_dropped"},
        {"#v=1&m=no-such-model&s=2048", "invalid_model"},
        {"#v=1&s=2048", "missing_model"},
    };
    for (const auto& entry : links) {
      const std::string& code = entry.second;
      CAPTURE(code);
      const LinkDecode d = decode(entry.first);
      bool found = false;
      for (const LinkNotice& n : d.notices) {
        CAPTURE(n.message);
        const LinkNoticeCode* listed = nullptr;
        for (const LinkNoticeCode& c : kLinkNoticeCodes)
          if (n.code == c.code) listed = &c;
        REQUIRE(listed != nullptr);
        std::string names;
        for (const auto& [name, value] : n.args) {
          names += (names.empty() ? "" : " ") + name;
          CHECK(n.message.find(value) != std::string::npos);
        }
        CHECK(names == listed->args);
        found |= n.code == code;
      }
      CHECK(found);
    }
    const json opened =
        json::parse(opened_link_json(open_link("#v=1&m=llama-2-7b&zz=9", builtin_catalog(), "", nullptr, "")));
    CHECK(opened["notices"][0]["code"] == "unknown_code");
    CHECK(opened["notices"][0]["args"]["code"] == "zz");
  }

  TEST_CASE("every archived catalog release loads, and a link made with one opens with it") {
    for (const CatalogRelease& r : catalog_releases()) {
      const CatalogLoad load = load_catalog(r.json);
      CHECK_MESSAGE(load.catalog.has_value(), r.version << ": " << load.error());
      CHECK(load.catalog->catalog_version == r.version);
      CHECK(catalog_for_version(r.version) != nullptr);
    }
    const std::string link =
        "#v=1&c=2026.11.0&m=llama-3.1-70b&me=full&s=4096&gb=256&t=2e9&i=aws-p4de.24xlarge-us-east-1&nn=4&tp=8&z=1&sp=1";
    const OpenedLink opened = open_link(link, builtin_catalog(), builtin_catalog_json(),
                                        catalog_for_version("2026.11.0"), catalog_json_for_version("2026.11.0"));
    CHECK(opened.catalog_used == "2026.11.0");
    // 2026.12.0 added p4de's EFA fabric: the change is listed...
    bool fabric = false;
    for (const std::string& c : opened.changes)
      fabric |= c.find("aws-p4de.24xlarge-us-east-1 inter_node_link") != std::string::npos;
    CHECK(fabric);
    // ... and it matters: the same link opened with today's catalog gives other numbers.
    const json old_r = json::parse(
        estimate_json(opened.link.input_json, *catalog_for_version("2026.11.0"), default_calibration()).body);
    const json new_r =
        json::parse(estimate_json(opened.link.input_json, builtin_catalog(), default_calibration()).body);
    CHECK(old_r["time"]["step_s"].get<double>() > 1.5 * new_r["time"]["step_s"].get<double>());
    // Without the release, the link opens with the current catalog and says so.
    const OpenedLink fallback = open_link(link, builtin_catalog(), builtin_catalog_json(), nullptr, "");
    CHECK(fallback.catalog_used == builtin_catalog().catalog_version);
    bool said = false;
    for (const LinkNotice& n : fallback.link.notices) said |= n.field == "c";
    CHECK(said);
  }

  TEST_CASE("a link records the estimator model version, an older one lists the model changes since") {
    // Encoding writes the current model right after the catalog.
    const std::string fragment = encode(R"({"model": {"preset": "llama-2-7b"}, "seq_len": 2048})");
    CHECK(fragment.rfind("v=1&c=" + builtin_catalog().catalog_version + "&mv=" + std::to_string(kModelVersion) + "&m=",
                         0) == 0);
    CHECK(kModelVersion == 46);
    const LinkDecode current = decode(fragment);
    CHECK(current.notices.empty());
    CHECK(current.model_version == kModelVersion);
    CHECK(current.model_changes.empty());

    // A link without `mv` was made before links recorded it: model 1, with every change of models 2
    // to 7 as "model N (DATE): CHANGE — EFFECT", and no notice (its fields are all fine).
    const LinkDecode old = decode("#v=1&c=2026.12.0&m=llama-2-7b&s=2048");
    CHECK(old.valid);
    CHECK(old.notices.empty());
    CHECK(old.model_version == 1);
    // Each model version's number of changes, date and a phrase of its first change, written out:
    // a new model adds one row.
    struct Expected {
      int version, changes;
      const char* date;
      const char* first;
    };
    const Expected expected[] = {
        {2, 6, "2026-12-01", "Collective bandwidth follows the topology"},
        {3, 3, "2026-12-01", "Eager PyTorch"},
        {4, 4, "2026-12-02", "async TP"},
        {5, 2, "2026-12-02", "root unit"},
        {6, 1, "2026-12-02", "FSDP2"},
        {7, 2, "2026-12-02", "gradient bucket"},
        {8, 1, "2026-12-03", "DeepEP"},
        {9, 1, "2026-12-03", "TP comm overlap"},
        {10, 1, "2026-12-04", "Sliding-window"},
        {11, 1, "2026-12-04", "sequence length"},
        {12, 1, "2026-12-04", "Offloaded activations"},
        {13, 1, "2026-12-04", "QLoRA's dequantisation"},
        {14, 1, "2026-12-04", "Frozen layers keep no GEMM inputs"},
        {15, 1, "2026-12-04", "head dimension"},
        {16, 1, "2026-12-05", "PyTorch's ring"},
        {17, 2, "2026-12-05", "holds its buffers in memory"},
        {18, 1, "2026-12-05", "recomputes only its trained blocks"},
        {19, 1, "2026-12-05", "hold SMs"},
        {20, 1, "2026-12-05", "forward collectives only"},
        {21, 1, "2026-12-05", "fake balanced gate"},
        {22, 2, "2026-12-05", "random router logits"},
        {23, 3, "2026-12-05", "Routing tokens to experts"},
        {24, 1, "2026-12-05", "Pipeline sends and receives overlapped"},
        {25, 1, "2026-12-05", "ZeRO-1/2's data-parallel exchange as the frameworks run it"},
        {26, 3, "2026-12-05", "scale-up link's all-reduce bus bandwidth"},
        {27, 1, "2026-12-06", "usd_per_billion_tokens divides"},
        {28, 1, "2026-12-06", "QLoRA with framework hf recomputes"},
        {29, 1, "2026-12-06", "A gated MLP (SwiGLU, GeGLU) moves two f-wide"},
        {30, 1, "2026-12-06", "The loss's passes over the vocabulary are timed"},
        {31, 1, "2026-12-06", "parallel.attention_kernel flash_triton is flash-attn's Triton"},
        {32, 1, "2026-12-06", "LoRA and QLoRA count what unmerged adapters move"},
        {33, 1, "2026-12-06", "A fused gated activation (techniques.fused_kernels"},
        {34, 1, "2026-12-06", "Ring attention's merges are timed"},
        {35, 1, "2026-12-06", "parallel.ep_comm_sms states the SMs"},
        {36, 1, "2026-12-06", "techniques.eager_activation"},
        {37, 1, "2026-12-07", "Under tensor parallelism with sequence parallelism"},
        {38, 1, "2026-12-07", "Precision fp8 under framework megatron counts"},
        {39, 1, "2026-12-07", "techniques.fused_loss fused_ce under framework megatron"},
        {40, 1, "2026-12-07", "parallel.attention_kernel auto follows the framework"},
        {41, 1, "2026-12-07", "Partial recompute: new field parallel.recompute_layers"},
        {42, 1, "2026-12-07", "FSDP under PyTorch's pipelining (framework torchtitan with pipeline stages"},
        {43, 1, "2026-12-07", "The largest micro-batch that fits (memory.max_micro_batch) of a scenario"},
        {44, 1, "2026-12-07", "The expert-parallel overlap (parallel.ep_comm_overlap"},
        {45, 1, "2026-12-07", "Tensor parallelism in Megatron-Core MoE blocks"},
        {46, 1, "2026-12-07", "DeepSpeed's pipeline engine (framework deepspeed with pipeline stages)"},
    };
    REQUIRE(std::size(expected) == static_cast<size_t>(kModelVersion - 1));
    size_t total = 0;
    for (const Expected& e : expected) {
      CAPTURE(e.version);
      int n = 0;
      for (const ModelChange& c : model_changes()) n += c.version == e.version;
      CHECK(n == e.changes);
      total += static_cast<size_t>(e.changes);
    }
    REQUIRE(old.model_changes.size() == total);
    CHECK(old.model_changes == model_changes_since(1));
    size_t line = 0;
    for (const Expected& e : expected) {
      const std::string prefix = "model " + std::to_string(e.version) + " (" + e.date + "): ";
      CAPTURE(prefix);
      CHECK(old.model_changes[line].find(e.first) != std::string::npos);
      for (int i = 0; i < e.changes; ++i, ++line) {
        CHECK(old.model_changes[line].rfind(prefix, 0) == 0);
        CHECK(old.model_changes[line].find(" \u2014 ") != std::string::npos);
      }
    }
    CHECK(old.model_changes[static_cast<size_t>(expected[0].changes) - 1].find("refitted on the fit families") !=
          std::string::npos);
    // A model-2 link lists only what models 3 and later changed.
    const LinkDecode two = decode("#v=1&c=2026.12.1&mv=2&m=llama-2-7b&s=2048");
    CHECK(two.notices.empty());
    CHECK(two.model_changes.size() == total - static_cast<size_t>(expected[0].changes));
    CHECK(two.model_changes == model_changes_since(2));
    // The scenario is the same one a current link of it opens: only the estimator moved.
    CHECK(old.input_json == decode("#v=1&c=2026.12.0&mv=2&m=llama-2-7b&s=2048").input_json);

    // mv=1 is the same as none.
    CHECK(decode("#v=1&mv=1&m=llama-2-7b").model_changes == old.model_changes);
    CHECK(decode("#v=1&mv=1&m=llama-2-7b").notices.empty());

    // A newer estimator: a notice, the model as written, nothing listed.
    const LinkDecode newer = decode("#v=1&c=2026.12.0&mv=99&m=llama-2-7b");
    CHECK(newer.valid);
    CHECK(newer.model_version == 99);
    CHECK(newer.model_changes.empty());
    REQUIRE(newer.notices.size() == 1);
    CHECK(newer.notices[0].field == "mv");
    CHECK(newer.notices[0].message == "made with a newer estimator (model 99); figures may differ");

    // Not a model version: a notice, read as model 1; the other fields are kept.
    for (const char* bad : {"x", "0", "-3", "1.5", "", "1e99"}) {
      CAPTURE(bad);
      const LinkDecode d = decode(std::string("#v=1&mv=") + bad + "&m=llama-2-7b&s=2048");
      CHECK(d.valid);
      CHECK(d.model_version == 1);
      CHECK(d.model_changes == old.model_changes);
      CHECK(has_notice(d, "mv"));
      CHECK(json::parse(d.input_json)["seq_len"] == 2048);
    }
    const LinkDecode twice = decode("#v=1&mv=2&mv=1&m=llama-2-7b");
    CHECK(twice.model_version == 2);
    CHECK(has_notice(twice, "mv"));

    // No link at all is today's defaults: nothing changed.
    CHECK(decode("").model_changes.empty());
    CHECK(decode("https://example.org/llmplan/").model_changes.empty());

    // `llmplan link decode` / window.llmplan.decode: the new keys beside every existing one.
    const OpenedLink opened = open_link("#v=1&c=2026.12.0&m=llama-2-7b", builtin_catalog(), builtin_catalog_json(),
                                        catalog_for_version("2026.12.0"), catalog_json_for_version("2026.12.0"));
    const json j = json::parse(opened_link_json(opened));
    for (const char* key : {"kind", "valid", "input", "catalog_version", "catalog_used", "notices", "changes", "ui",
                            "model_version", "model_version_current", "model_changes"})
      CHECK_MESSAGE(j.contains(key), key);
    CHECK(j.size() == 11);
    CHECK(j["model_version"] == 1);
    CHECK(j["model_version_current"] == kModelVersion);
    CHECK(j["model_changes"] == json(old.model_changes));
  }

  TEST_CASE("the model change log runs from version 1 to kModelVersion, oldest first, every entry filled in") {
    // core/data/model_changes.json, embedded packed: read back whole, in order, nothing empty.
    const std::vector<ModelChange>& log = model_changes();
    REQUIRE_FALSE(log.empty());
    CHECK(log.front().version == 1);
    CHECK(log.back().version == kModelVersion);
    int last = 1;
    for (const ModelChange& c : log) {
      CAPTURE(c.version);
      CHECK(c.version >= last);
      CHECK(c.version <= kModelVersion);
      last = c.version;
      CHECK(c.date.size() == 10);
      CHECK_FALSE(c.change.empty());
      CHECK_FALSE(c.effect.empty());
    }
  }

  TEST_CASE(
      "docs/links.md lists the model changes of core/data/model_changes.json (`llmplan link model-changes "
      "--update-md docs/links.md`)") {
    std::ifstream in(std::string(LLMPLAN_SOURCE_DIR) + "/docs/links.md");
    if (!in) in.open("docs/links.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::optional<std::string> generated = with_model_changes_markdown(text.str());
    REQUIRE_MESSAGE(generated.has_value(), "docs/links.md has no model-changes markers");
    CHECK(*generated == text.str());
    // Every entry is in the table, one row each.
    for (const ModelChange& c : model_changes()) CHECK(text.str().find(c.effect) != std::string::npos);
  }

  TEST_CASE("golden links decode, with the release they name, to the same numbers forever") {
    const json links = golden_links();
    REQUIRE(links.is_object());
    for (const json& l : links["links"]) {
      const std::string name = l["name"].get<std::string>();
      CAPTURE(name);
      const Catalog* catalog = catalog_for_version(l["catalog"].get<std::string>());
      REQUIRE(catalog != nullptr);
      const LinkDecode d = decode_link(l["link"].get<std::string>(), *catalog);
      CHECK(d.notices.empty());
      REQUIRE(d.valid);
      const Calibration& cal = default_calibration();
      const json r = json::parse(d.is_question ? plan_json(d.input_json, *catalog, cal).body
                                               : estimate_json(d.input_json, *catalog, cal).body);
      for (const auto& item : l["expected"].items()) {
        const std::string key = item.key();
        CAPTURE(key);
        const json* got = at(r, key);
        REQUIRE(got != nullptr);
        if (item.value().is_number_float()) {
          CHECK(got->get<double>() == doctest::Approx(item.value().get<double>()).epsilon(1e-9));
        } else {
          CHECK(*got == item.value());
        }
      }
    }
  }
}

TEST_CASE("a parsed scenario writes back to an input that gives the same estimate (the app's links)") {
  const json links = golden_links();
  REQUIRE(links.is_object());
  int checked = 0;
  for (const json& l : links["links"]) {
    const Catalog* catalog = catalog_for_version(l["catalog"].get<std::string>());
    const LinkDecode d = decode_link(l["link"].get<std::string>(), *catalog);
    if (d.is_question || json::parse(d.input_json).contains("network")) continue;  // network overrides are not written
    const ScenarioParse p = parse_scenario(d.input_json, *catalog);
    REQUIRE(p.scenario);
    const std::string written = write_scenario_input(*p.scenario, *catalog);
    CAPTURE(written);
    const Calibration& cal = default_calibration();
    CHECK(estimate_json(written, *catalog, cal).body == estimate_json(d.input_json, *catalog, cal).body);
    // ... and a link made from it is no longer than the original.
    const LinkEncode e = encode_link(written, *catalog);
    REQUIRE(e.ok);
    CHECK(e.fragment.size() <= l["link"].get<std::string>().size() + 40);
    ++checked;
  }
  CHECK(checked >= 15);
}
