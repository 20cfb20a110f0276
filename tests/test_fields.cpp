// The field table: every field's default and range ends are accepted and the values just beyond
// refused by the parser (naming the field), and every field survives the writer and a link.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/link.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/units.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {

// A custom architecture roomy enough for every range end: 1000 layers (pp up to 1000,
// trainable_layers up to 1000), 4096 heads (tp up to 1024 divides them), an explicit head_dim
// (so any hidden size is valid).
json base_document() {
  return {{"model", {{"layers", 1000}, {"hidden", 4096}, {"heads", 4096}, {"ffn", 11008}, {"vocab", 32000}}}};
}

// Makes the field apply (its `applies` condition) and meets the cross-field rules the value
// brings with it (divisibility of GPUs, MoE and MLA companions, offload needs ZeRO).
// An offering rented by the card (cluster.cards applies to these only).
const Instance& per_card_offering() {
  for (const Instance& in : builtin_catalog().instances)
    if (in.per_card()) return in;
  FAIL("the catalog has no offering rented by the card");
  return builtin_catalog().instances.front();
}

void give_context(json& doc, const FieldSpec& f) {
  const std::string applies = f.applies;
  const std::string path = f.path;
  if (path == "model.preset") doc["model"] = json::object();
  if (applies.find("method=lora") != std::string::npos) doc["method"] = "lora";
  if (applies.find("method=freeze") != std::string::npos) doc["method"] = "freeze";
  if (applies == "method=qlora") doc["method"] = "qlora";
  if (applies == "precision=fp8") {  // FP8 weights: FP8 tensor cores and a framework that shards them
    doc.update({{"precision", "fp8"}, {"framework", "megatron"}});
    json_set(doc, "cluster.accelerator", "h100-sxm5-80gb");
    json_set(doc, "parallel.zero", 1);
  }
  if (applies.rfind("parallel.ep>1", 0) == 0) {
    doc["model"].update({{"experts", 4096}, {"top_k", 1}, {"expert_ffn", 1408}});
    json_set(doc, "parallel.ep", 2);
  }
  if (applies.find("parallel.ep_dispatcher=deepep") != std::string::npos)
    json_set(doc, "parallel.ep_dispatcher", "deepep");
  if (applies.find("&parallel.ep_comm_overlap") != std::string::npos) json_set(doc, "parallel.ep_comm_overlap", true);
  if (applies == "parallel.vp>1") json_set(doc, "parallel.vp", 2);  // meet_rules gives it its pipeline
  if (applies == "framework=torchtitan") doc["framework"] = "torchtitan";
  if (applies == "parallel.pp>1&framework=torchtitan") {  // meet_rules gives it its micro-batches
    json_set(doc, "parallel.pp", 2);
    doc["framework"] = "torchtitan";
  }
  if (applies == "cluster.instance") doc["cluster"] = {{"instance", builtin_catalog().instances.front().id}};
  if (path == "cluster.cards") doc["cluster"] = {{"instance", per_card_offering().id}};
  if (applies.find("model.experts>0") != std::string::npos || path == "model.experts" || path == "model.dense_layers")
    doc["model"].update({{"experts", 4096}, {"top_k", 1}, {"expert_ffn", 1408}});
  if (applies.find("model.sliding_window>0") != std::string::npos) doc["model"]["sliding_window"] = 4096;
  if (applies == "techniques.activation_offload") json_set(doc, "techniques.activation_offload", true);
  if (applies.rfind("parallel.recompute=full", 0) == 0) {
    json_set(doc, "parallel.recompute", "full");
    doc["framework"] = "megatron";
  }
  if (applies.find("model.attention=mla") != std::string::npos)
    doc["model"].update({{"attention", "mla"}, {"kv_lora_rank", 512}, {"qk_rope_head_dim", 64}, {"v_head_dim", 128}});
  if (path == "model.hidden" || path == "model.heads") doc["model"]["head_dim"] = 128;
  // A measurement needs a model whose states fit the trial's GPU.
  if (path.rfind("calibration.", 0) == 0 && f.type == FieldType::number) doc["model"] = {{"preset", "qwen2.5-0.5b"}};
  if (path == "model.heads") doc["model"].erase("kv_heads");
}

void meet_rules(json& doc) {
  // More than 8 GPUs a node need a part sold in a larger scale-up domain (the catalog's
  // max_gpus_per_node): the GB200 in its NVL72 rack.
  if (const json* gpn = json_at(doc, "cluster.gpus_per_node"); gpn && gpn->get<int>() > 8)
    json_set(doc, "cluster.accelerator", "gb200-186gb");
  const json* offload = json_at(doc, "parallel.offload");
  if (offload && *offload != "none") json_set(doc, "parallel.zero", 1);
  // Virtual stages need a pipeline whose stages' layers they divide, and whole rounds of PP
  // micro-batches: 2 stages of vp layers each, global batch 2 x DP.
  const json* vp = json_at(doc, "parallel.vp");
  const long long vps = vp ? vp->get<long long>() : 1;
  if (vps > 1) {
    json_set(doc, "parallel.pp", 2);
    doc["model"]["layers"] = 2 * vps;
  }
  // An expert's tensor-parallel group is part of a TP group: tp = etp.
  if (const json* etp = json_at(doc, "parallel.etp"); etp && !json_at(doc, "parallel.tp"))
    json_set(doc, "parallel.tp", etp->get<long long>());
  const json* tp = json_at(doc, "parallel.tp");
  const json* pp = json_at(doc, "parallel.pp");
  const json* cp = json_at(doc, "parallel.cp");
  const json* ep = json_at(doc, "parallel.ep");
  const long long model_parallel =
      (tp ? tp->get<long long>() : 1) * (pp ? pp->get<long long>() : 1) * (cp ? cp->get<long long>() : 1);
  // EP is carved out of DP: ep data-parallel replicas at least.
  const long long gpus = model_parallel * (ep ? ep->get<long long>() : 1);
  if (gpus > 1) json_set(doc, "cluster.gpus", std::lcm(gpus, 8LL));
  if (vps > 1) json_set(doc, "global_batch", 2 * std::lcm(gpus, 8LL) / model_parallel);
  // Pipeline flushes split a step's micro-batches evenly, each schedule at least one per stage
  // (PyTorch's 1F1B): flushes x pp x DP sequences of one micro-batch.
  if (const json* pf = json_at(doc, "parallel.pp_flushes"); pf && pf->is_number_integer() && pf->get<long long>() > 0)
    json_set(doc, "global_batch",
             pf->get<long long>() * (pp ? pp->get<long long>() : 1) * std::lcm(gpus, 8LL) / model_parallel);
  const json* experts = json_at(doc, "model.experts");
  if (experts && experts->get<int>() == 0)
    for (const char* k : {"top_k", "expert_ffn", "shared_experts", "shared_expert_ffn", "dense_layers"})
      doc["model"].erase(k);
  const json* window = json_at(doc, "model.sliding_window");
  if (window && window->get<int>() == 0) doc["model"].erase("sliding_layers");
  // Windowed layers are some of the model's layers.
  if (const json* sl = json_at(doc, "model.sliding_layers"); sl && sl->get<int>() > doc["model"].value("layers", 32))
    doc["model"]["layers"] = *sl;
  const json* attention = json_at(doc, "model.attention");
  if (attention && *attention == "mla") {
    json& m = doc["model"];
    for (const char* k : {"kv_lora_rank", "v_head_dim"})
      if (!m.contains(k)) m[k] = 128;
    if (m.value("qk_nope_head_dim", 0) + m.value("qk_rope_head_dim", 0) == 0)
      m[m.contains("qk_rope_head_dim") ? "qk_nope_head_dim" : "qk_rope_head_dim"] = 64;
  }
  const json* objective = json_at(doc, "objective");
  if (objective && *objective == "min_cost_under_deadline") json_set(doc, "constraints.deadline_days", 30);
  if (objective && *objective == "min_time_under_budget") json_set(doc, "constraints.budget_usd", 1e6);
  const json* top_k = json_at(doc, "model.top_k");
  if (top_k && experts && top_k->get<int>() > experts->get<int>()) doc["model"]["experts"] = *top_k;
}

// The values a field must accept: its default where that is a value, its range ends, each name.
std::vector<json> accepted(const FieldSpec& f) {
  switch (f.type) {
    case FieldType::integer: return {static_cast<long long>(f.lo), static_cast<long long>(f.hi)};
    case FieldType::number: return {f.lo, f.hi};
    case FieldType::number_or_auto: return {"auto", f.lo, f.hi};
    case FieldType::boolean: return {true, false};
    case FieldType::choice: {
      std::vector<json> out;
      for (const char* n : f.choices) out.push_back(n);
      return out;
    }
    case FieldType::list: return {json::array()};
    case FieldType::id: break;
  }
  const std::string catalog = f.catalog;
  const Catalog& c = builtin_catalog();
  if (catalog == "models") return {c.models.front().id};
  if (catalog == "accelerators") return {"h100-sxm5-80gb", "a100-sxm4-80gb"};
  if (catalog == "instances") return {c.instances.front().id};
  if (catalog == "storage") return {"local-nvme-gen4-980pro", "aws-ebs-gp3"};
  if (catalog == "interconnects") return {"infiniband-ndr", "roce-400g"};
  return {};
}

// A trial's measured figure is valid only against its model and hardware (calibrate.hpp): its
// accepted value is the estimate's own figure for the document (a factor of 1).
bool is_measurement(const FieldSpec& f) {
  return std::string_view(f.path).rfind("calibration.", 0) == 0 && f.type == FieldType::number;
}

std::vector<json> accepted_in(const FieldSpec& f, const json& doc) {
  // Cards run from 1 to what the offering's host gives (the table's 64 bounds every host).
  if (std::string_view(f.path) == "cluster.cards") return {1, per_card_offering().gpus_per_host_max};
  const bool sms = std::string_view(f.path) == "parallel.ep_comm_sms";
  if (!is_measurement(f) && !sms) return accepted(f);
  const ScenarioParse p = parse_scenario(doc.dump(), builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  const Scenario& s = *p.scenario;
  // A dispatcher holds from none (the default's 0) to every SM of the accelerator.
  if (sms) return {0, s.cluster.sm_count};
  const EstimateResult r = estimate(s, default_calibration());
  const std::string path = f.path;
  const LinkBandwidth l = link_bandwidth(s);
  if (path == "calibration.tokens_per_s_per_gpu") return {r.time.tokens_per_s / s.cluster.gpus};
  if (path == "calibration.step_s") return {r.time.step_s};
  if (path == "calibration.mfu") return {r.time.mfu};
  if (path == "calibration.peak_memory_gib") return {(r.memory.per_gpu.total() - r.memory.per_gpu.runtime) / kGiB};
  if (path == "calibration.busbw_gb_per_s.intra") return {l.intra_busbw / 1e9};
  if (path == "calibration.busbw_gb_per_s.inter") return {s.network.node_gb_per_s * 0.5};
  return {1.0};  // data read, GB/s per node
}

// Values just beyond the range, of the wrong type, or an unknown name: each must be refused.
std::vector<json> refused(const FieldSpec& f) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (f.type) {
    case FieldType::integer:
      return {static_cast<long long>(f.lo) - 1, static_cast<long long>(f.hi) + 1, f.lo + 0.5, "1"};
    case FieldType::number: return {std::nextafter(f.lo, -inf), std::nextafter(f.hi, inf), "1"};
    case FieldType::number_or_auto: return {std::nextafter(f.lo, -inf), std::nextafter(f.hi, inf), "never"};
    case FieldType::boolean: return {1, "true"};
    case FieldType::choice: return {"no-such-name", 0};
    case FieldType::list: return {"h100", json::array({1})};
    case FieldType::id: return {"no-such-id", 1};
  }
  return {};
}

std::string parse_error(const json& doc, FieldScope scope, std::string& written) {
  if (scope == FieldScope::question) {
    const QuestionParse q = parse_question(doc.dump(), builtin_catalog());
    return q.question ? "" : q.error.field + " | " + q.error.message;
  }
  const ScenarioParse p = parse_scenario(doc.dump(), builtin_catalog());
  if (p.scenario) written = write_scenario_input(*p.scenario, builtin_catalog());
  return p.scenario ? "" : p.error.field + " | " + p.error.message;
}

json question_base() { return {{"model", {{"preset", "llama-3.1-8b"}}}, {"tokens", 1e9}, {"objective", "min_cost"}}; }

}  // namespace

TEST_SUITE("field table") {
  TEST_CASE("paths and link codes are unique, reserved codes unused, and every field is documented") {
    std::set<std::string> paths, codes;
    for (const FieldSpec& f : all_fields()) {
      CHECK_MESSAGE(paths.insert(f.path).second, f.path);
      CHECK_MESSAGE(codes.insert(f.code).second, f.code);
      for (const char* reserved : {"v", "c", "mv", "u", ""}) CHECK_MESSAGE(std::string(f.code) != reserved, f.path);
      CHECK_MESSAGE(std::string(f.meaning).size() > 10, f.path);
      CHECK_MESSAGE(!field_default_text(f).empty(), f.path);
      CHECK_MESSAGE((f.type != FieldType::choice) == f.choices.empty(), f.path);
      if (f.stage != FieldStage::resolved) CHECK_MESSAGE(static_cast<bool>(f.ref), f.path);
      if (*f.section) CHECK_MESSAGE(*f.label, f.path);  // the app needs a label and a tooltip
      if (*f.section) CHECK_MESSAGE(*f.help, f.path);
    }
    // One link code per field: the link table is the field table, then the 26 fields of the
    // ownership question (docs/tco.md); no code twice, none reserved.
    CHECK(kLinkFields.size() == all_fields().size() + 26);
    std::set<std::string> all;
    for (const LinkField& f : kLinkFields) {
      CHECK_MESSAGE(all.insert(f.code).second, f.code);
      for (const char* reserved : {"v", "c", "mv", "u", ""}) CHECK_MESSAGE(std::string(f.code) != reserved, f.field);
    }
  }

  TEST_CASE("the parser accepts every field's range ends and names, and refuses what lies beyond") {
    for (const FieldSpec& f : all_fields()) {
      const json base = f.scope == FieldScope::question ? question_base() : base_document();
      json context = base;
      give_context(context, f);
      meet_rules(context);
      for (const json& value : accepted_in(f, context)) {
        json doc = base;
        give_context(doc, f);
        json_set(doc, f.path, value);
        meet_rules(doc);
        std::string written;
        CHECK_MESSAGE(parse_error(doc, f.scope, written).empty(),
                      std::string(f.path) << " = " << value.dump() << ": " << parse_error(doc, f.scope, written));
      }
      for (const json& value : refused(f)) {
        json doc = base;
        give_context(doc, f);
        json_set(doc, f.path, value);
        std::string written;
        const std::string err = parse_error(doc, f.scope, written);
        CHECK_MESSAGE(err.rfind(std::string(f.path) + " | " + f.path + ": ", 0) == 0,
                      std::string(f.path) << " = " << value.dump() << " gave: " << err);
      }
    }
  }

  TEST_CASE("derived_default: the defaults that follow other fields, as the parser derives them") {
    // An input document read field by field (the app's view before it parses): unset fields read "".
    auto reader = [](std::map<std::string, std::string> doc) {
      return [doc](std::string_view path) {
        const auto it = doc.find(std::string(path));
        return it == doc.end() ? std::string() : it->second;
      };
    };
    // Pretraining runs Megatron-LM, whose kernels are fused; full fine-tuning Hugging Face's eager code.
    CHECK(derived_default("framework", reader({{"method", "pretrain"}})) == "megatron");
    CHECK(derived_default("framework", reader({{"method", "full"}})) == "hf");
    CHECK(derived_default("techniques.fused_kernels", reader({{"method", "pretrain"}})) == "true");
    CHECK(derived_default("techniques.fused_kernels", reader({{"method", "full"}})) == "");
    CHECK(derived_default("techniques.fused_kernels",
                          reader({{"method", "full"}, {"techniques.fused_loss", "liger"}})) == "true");
    CHECK(derived_default("techniques.fused_kernels", reader({{"method", "full"}, {"techniques.compile", "true"}})) ==
          "true");
    // A reader may give an unset boolean as "false" (the app reads the default scenario's value).
    CHECK(derived_default("techniques.fused_kernels", reader({{"method", "full"}, {"techniques.compile", "false"}})) ==
          "");
    // PEFT's QLoRA preparation under Hugging Face: fp32 casts and full recomputation.
    CHECK(derived_default("parallel.recompute", reader({{"method", "qlora"}})) == "full");
    CHECK(derived_default("techniques.kbit_fp32_cast", reader({{"method", "qlora"}, {"framework", "megatron"}})) == "");
    CHECK_FALSE(derived_default("seq_len", reader({})).has_value());
    // The same answer as the parser for the documents it accepts.
    const ScenarioParse p =
        parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full"})", builtin_catalog());
    REQUIRE(p.scenario);
    CHECK_FALSE(p.scenario->techniques.fused_kernels);
  }

  TEST_CASE("range errors state the table's range") {
    std::string written;
    json doc = base_document();
    doc["pricing"] = {{"spot_interruptions_per_hour", 2}};
    CHECK(parse_error(doc, FieldScope::scenario, written) ==
          "pricing.spot_interruptions_per_hour | pricing.spot_interruptions_per_hour: must be a number in 0..1; got 2");
    doc = base_document();
    doc["network"] = {{"inter_node_gbps", 0.05}};
    CHECK(parse_error(doc, FieldScope::scenario, written) ==
          "network.inter_node_gbps | network.inter_node_gbps: must be a number in 0.1..1000000; got 0.05");
  }

  TEST_CASE("every scenario field survives the writer and a link") {
    const Catalog& catalog = builtin_catalog();
    for (const FieldSpec& f : all_fields()) {
      if (f.scope != FieldScope::scenario) continue;
      json context = base_document();
      give_context(context, f);
      meet_rules(context);
      for (const json& value : accepted_in(f, context)) {
        json doc = base_document();
        give_context(doc, f);
        json_set(doc, f.path, value);
        meet_rules(doc);
        const ScenarioParse first = parse_scenario(doc.dump(), catalog);
        REQUIRE_MESSAGE(first.scenario, std::string(f.path) << ": " << first.error.message);
        const std::string written = write_scenario_input(*first.scenario, catalog);
        const ScenarioParse again = parse_scenario(written, catalog);
        REQUIRE_MESSAGE(again.scenario, std::string(f.path) << ": " << again.error.message << " in " << written);
        // The writer reproduces the scenario: the same document again, and the same member.
        CHECK_MESSAGE(write_scenario_input(*again.scenario, catalog) == written, std::string(f.path)
                                                                                     << " = " << value.dump());
        CHECK_MESSAGE(field_value_json(f, *again.scenario) == field_value_json(f, *first.scenario),
                      std::string(f.path) << " = " << value.dump() << " wrote " << written);
        // A value other than the default is written out (resolved fields by their own code).
        const json out = json::parse(written);
        if (f.ref &&
            field_value_json(f, *first.scenario) !=
                field_value_json(f, parse_scenario(base_document().dump(), catalog).scenario.value()) &&
            field_applies(f, *first.scenario) && f.stage == FieldStage::input)
          CHECK_MESSAGE(json_at(out, f.path) != nullptr, std::string(f.path)
                                                             << " = " << value.dump() << " not written: " << written);
        // The link of the document opens as the same scenario, with no notice.
        const LinkEncode e = encode_link(doc.dump(), catalog);
        REQUIRE_MESSAGE(e.ok, std::string(f.path) << ": " << e.error.message);
        const LinkDecode d = decode_link(e.fragment, catalog);
        CHECK_MESSAGE(d.notices.empty(), std::string(f.path) << " = " << value.dump());
        const ScenarioParse linked = parse_scenario(d.input_json, catalog);
        REQUIRE_MESSAGE(linked.scenario, std::string(f.path) << ": " << linked.error.message);
        CHECK_MESSAGE(write_scenario_input(*linked.scenario, catalog) == written, std::string(f.path)
                                                                                      << " = " << value.dump());
      }
    }
  }

  TEST_CASE("docs/scenario.md is the generated reference (run `llmplan fields --format md > docs/scenario.md`)") {
    std::ifstream in(std::string(LLMPLAN_SOURCE_DIR) + "/docs/scenario.md");
    if (!in) in.open("docs/scenario.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == fields_markdown());
  }
}

TEST_CASE("an override field replaces the catalog's figure: network.latency_us") {
  const Catalog& catalog = builtin_catalog();
  const ScenarioParse plain = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}})", catalog);
  const ScenarioParse given =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "network": {"latency_us": 30}})", catalog);
  REQUIRE(plain.scenario);
  REQUIRE(given.scenario);
  CHECK(plain.scenario->network.latency_us != doctest::Approx(30));  // InfiniBand NDR's, from the catalog
  CHECK(given.scenario->network.latency_us == doctest::Approx(30));
  CHECK(write_scenario_input(*given.scenario, catalog).find(R"("latency_us":30)") != std::string::npos);
}
