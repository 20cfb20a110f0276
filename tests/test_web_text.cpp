// The app words the plan's advice in its own language from the advice's figures (web/i18n.cpp);
// its English must say what the core's English says (the CLI and the planner's JSON), and its
// Chinese must carry the same figures.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "i18n.hpp"
#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/layouts.hpp"
#include "llmplan/link.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/ranges.hpp"
#include "llmplan/units.hpp"
#include "source_files.hpp"

using namespace llmplan;

namespace {
struct Advised {
  Scenario scenario;
  PlanAdvice advice;
};

Advised advise_text(const char* text) {
  const ScenarioParse p = parse_scenario(text, builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  const EstimateResult r = estimate(*p.scenario, default_calibration());
  return {*p.scenario, advise(*p.scenario, r, builtin_catalog(), default_calibration())};
}

std::string rdma_text(const Advised& a) {
  const Cluster& c = a.scenario.cluster;
  return web::rdma_reason_text(a.advice.rdma, c.nodes(), c.intra_node_gb_per_s, a.scenario.network.rdma);
}
}  // namespace

TEST_CASE("the app's advice says in English what the core says, and carries the same figures in Chinese") {
  // One node (data and checkpoints on local NVMe, no RDMA), 8 nodes on an accelerator whose
  // offering publishes no NVMe size (a parallel file system), and 8 nodes over 25 Gb/s Ethernet.
  const Advised cases[] = {
      advise_text(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "tokens": 1e8,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}})"),
      advise_text(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 8192, "tokens": 1e11,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64}, "parallel": {"tp": 8, "pp": 2}})"),
      advise_text(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 8192, "tokens": 1e11,
          "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64}, "parallel": {"tp": 8, "pp": 2},
          "network": {"inter_node_link": "ethernet-25g"}})"),
      advise_text(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 8192, "tokens": 1e11,
          "cluster": {"instance": "aws-p5.48xlarge-us-east-1", "nodes": 8}, "parallel": {"tp": 8, "pp": 2}})"),
  };
  CHECK(cases[0].advice.data.local_nvme);
  // 8 AWS nodes checkpoint to local NVMe in the figures; the advised FSx for Lustre (scratch 2,
  // 200 MB/s per TiB, sized 10 TiB by the catalog's rule: 2,000 MB/s for the job) writes one in
  // bytes / 2e9 s (70.6 B parameters x 14 B, about 988 GB: about 494 s), and the run takes longer.
  const CheckpointPlacement& fsx = cases[3].advice.checkpoints;
  CHECK(fsx.parallel_fs == "fsx-lustre-scratch2");
  CHECK(fsx.fs_write_s == doctest::Approx(fsx.bytes / 2000e6));
  CHECK(fsx.fs_write_s > 5 * fsx.write_s);  // 8 nodes of local NVMe write about 8x faster
  CHECK(fsx.fs_total_hours > fsx.total_hours);
  CHECK(cases[3].advice.checkpoint_location.find(" the run " + format_duration(fsx.fs_total_hours * 3600)) !=
        std::string::npos);
  CHECK_FALSE(cases[1].advice.data.local_nvme);
  CHECK(cases[2].advice.rdma.needed);
  for (const Advised& a : cases) {
    web::set_language(web::Lang::en);
    CHECK(web::data_placement_text(a.advice.data) == a.advice.data_location);
    CHECK(web::checkpoint_placement_text(a.advice.checkpoints) == a.advice.checkpoint_location);
    CHECK(rdma_text(a) == a.advice.rdma_reason);
    web::set_language(web::Lang::zh);
    const std::string data = web::data_placement_text(a.advice.data);
    CHECK(data != a.advice.data_location);
    CHECK(data.find(format_bytes(a.advice.data.dataset_bytes)) != std::string::npos);
    const std::string ckpt = web::checkpoint_placement_text(a.advice.checkpoints);
    CHECK(ckpt.find(format_bytes(a.advice.checkpoints.bytes)) != std::string::npos);
    if (a.advice.checkpoints.fs_write_s > 0)
      CHECK(ckpt.find(format_duration(a.advice.checkpoints.fs_write_s)) != std::string::npos);
    CHECK(rdma_text(a) != a.advice.rdma_reason);
  }
  web::set_language(web::Lang::en);
}

TEST_CASE("the app words every rule that refuses a layout in English as the core does, and in Chinese") {
  // Qwen3-30B-A3B on 8 GPUs with EP 8 under ZeRO-3: Megatron-LM refuses torch FSDP2 with expert
  // parallelism (the last rule), so the estimate warns unsupported_layout with that rule.
  const ScenarioParse p = parse_scenario(R"({"model": {"preset": "qwen3-30b-a3b"}, "seq_len": 4096,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"ep": 8, "zero": 3}})",
                                         builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  const EstimateResult r = estimate(*p.scenario, default_calibration());
  const char* rule = nullptr;
  for (int i = 0; i < r.warnings.count; ++i)
    if (r.warnings.items[static_cast<size_t>(i)].code == WarningCode::unsupported_layout)
      rule = r.warnings.items[static_cast<size_t>(i)].rule;
  REQUIRE(rule != nullptr);
  CHECK(std::string(layout_rule_id(rule)) == "fsdp_without_ep");
  std::vector<const char*> rules(std::begin(kMegatronRefusals), std::end(kMegatronRefusals));
  rules.push_back(kQloraVendorRule);
  for (const char* refusal : rules) {
    CAPTURE(refusal);
    web::set_language(web::Lang::en);
    CHECK(std::string(web::layout_rule_text(refusal)) == refusal);
    web::set_language(web::Lang::zh);
    const std::string zh = web::layout_rule_text(refusal);
    CHECK(zh != refusal);
    CHECK(zh.find("\xE3\x80\x82") == std::string::npos);  // no full stop: the warning's sentence adds it
  }
  web::set_language(web::Lang::zh);
  CHECK(std::string(web::layout_rule_text("a rule this build does not know")) == "a rule this build does not know");
  web::set_language(web::Lang::en);
}

TEST_CASE("the app words every memory remedy in English as the core does, and lists them in Chinese") {
  for (int i = 0; i < static_cast<int>(MemoryRemedy::count); ++i) {
    const unsigned one = 1u << i;
    web::set_language(web::Lang::en);
    CHECK(web::memory_remedy_list(one) == memory_remedy_words(static_cast<MemoryRemedy>(i)));
    web::set_language(web::Lang::zh);
    CHECK(web::memory_remedy_list(one) != memory_remedy_words(static_cast<MemoryRemedy>(i)));
  }
  // The core's message is the app's English sentence: a full fine-tune of Llama 3.1 8B on one 40 GB A100.
  const ScenarioParse p = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full",
      "cluster": {"accelerator": "a100-sxm4-40gb", "gpus": 1}})",
                                         builtin_catalog());
  REQUIRE_MESSAGE(p.scenario, p.error.message);
  const Warning w = estimate(*p.scenario, default_calibration()).warnings.items[0];
  REQUIRE(w.code == WarningCode::memory_exceeds);
  web::set_language(web::Lang::en);
  CHECK(warning_message(w) == "Needs " + format_bytes(w.value) + " but the GPU has " + format_bytes(w.limit) + ": " +
                                  web::memory_remedy_list(w.remedies) + ".");
  // Chinese: enumeration comma between items, "，或" before the last.
  web::set_language(web::Lang::zh);
  const unsigned two =
      (1u << static_cast<int>(MemoryRemedy::recompute)) | (1u << static_cast<int>(MemoryRemedy::bigger_gpu));
  CHECK(web::memory_remedy_list(two) == "开启激活重计算，或换显存更大的显卡");
  const unsigned three = two | (1u << static_cast<int>(MemoryRemedy::lower_micro_batch));
  CHECK(web::memory_remedy_list(three) == "开启激活重计算、减小微批，或换显存更大的显卡");
  web::set_language(web::Lang::en);
  CHECK(web::memory_remedy_list(three) ==
        "recompute activations, lower the micro-batch, or take a GPU with more memory");
}

TEST_CASE("the app words the post-provisioning checklist in English as the core does, and in Chinese") {
  // Every wording the core has is worded in Chinese too.
  for (size_t i = 0; i < kCheckWordingCount; ++i) {
    CAPTURE(kCheckWordings[i].key);
    CHECK(web::has_check_wording(kCheckWordings[i].key));
  }
  // One GPU; 16 H100s in two nodes over InfiniBand, TP 8 with ZeRO-1 (sharded over both replicas) and
  // TP 8 x PP 2 (one replica of 16); AWS EFA; TCP; an AMD, a
  // Huawei and a PCIe-only (L40S) node: every check id and wording.
  const char* scenarios[] = {
      R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "cluster": {"accelerator": "rtx-4090", "gpus": 1}})",
      R"({"model": {"preset": "llama-3.1-70b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
          "parallel": {"tp": 8, "zero": 1}})",
      R"({"model": {"preset": "llama-3.1-70b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
          "parallel": {"tp": 8, "pp": 2, "zero": 0}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16},
          "network": {"inter_node_link": "aws-efa-v2"}, "parallel": {"zero": 3}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "a100-sxm4-80gb", "gpus": 16},
          "network": {"inter_node_link": "ethernet-25g"}, "parallel": {"zero": 3}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "mi300x", "gpus": 8}, "parallel": {"zero": 3}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "ascend-910b", "gpus": 8},
          "parallel": {"zero": 3}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "ascend-910b", "gpus": 16},
          "parallel": {"zero": 3}})",
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "l40s", "gpus": 4}, "parallel": {"zero": 3}})",
  };
  std::set<std::string> wordings;
  for (const char* text : scenarios) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    const EstimateResult r = estimate(*p.scenario, default_calibration());
    for (const Check& c : checklist(*p.scenario, r, builtin_catalog(), default_calibration())) {
      CAPTURE(c.id);
      wordings.insert(c.wording);
      web::set_language(web::Lang::en);
      CHECK(web::check_title_text(c) == c.title);
      CHECK(web::check_command_text(c) == c.command);
      CHECK(web::check_expect_text(c) == c.expect);
      web::set_language(web::Lang::zh);
      const std::string title = web::check_title_text(c), expect = web::check_expect_text(c);
      const std::string all = title + web::check_command_text(c) + expect;
      CHECK(title != c.title);
      CHECK(expect != c.expect);
      CHECK(all.find('{') == std::string::npos);  // every placeholder filled
      for (const auto& arg : c.args) {
        CAPTURE(arg.first);
        CHECK(all.find(arg.second) != std::string::npos);  // the same figures
      }
    }
  }
  web::set_language(web::Lang::en);
  CHECK(wordings.size() == kCheckWordingCount);
  // One pass: a value holding a placeholder's text stays as it is.
  CHECK(fill_template("{a} and {b} {c}", {{"a", "{b}"}, {"b", "x"}}) == "{b} and x {c}");
}

TEST_CASE("a plan's 'why' reads in English as the core's and carries the same figures in Chinese") {
  // Every reason, both paces and both money directions, and every note: the app's English is the
  // core's sentence; the Chinese fills every figure and keeps no English word of the template.
  const auto tag = [](int i) { return std::string(1, '<').append(std::to_string(i)).append(1, '>'); };
  for (int r = 0; r < static_cast<int>(WhyReason::count); ++r)
    for (int n = 0; n < static_cast<int>(WhyNote::count); ++n)
      for (int faster = 0; faster < 2; ++faster)
        for (int cheaper = 0; cheaper < 2; ++cheaper) {
          PlanWhy w;
          w.reason = static_cast<WhyReason>(r);
          w.faster = faster;
          w.cheaper = cheaper;
          for (int i = 0; i < 8; ++i) w.args.push_back(tag(i));
          w.layout = "TP 2 x PP 1, ZeRO-1, micro-batch 4, recompute none";
          w.note = static_cast<WhyNote>(n);
          w.note_args = {"<d0>", "<d1>", "<d2>"};
          CAPTURE(r);
          CAPTURE(n);
          web::set_language(web::Lang::en);
          CHECK(web::plan_why_text(w, "unused in English") == why_english(w));
          web::set_language(web::Lang::zh);
          const std::string zh = web::plan_why_text(w, "TP 2 x PP 1 x DP 4，ZeRO-1");
          CHECK(zh.find('{') == std::string::npos);
          for (const char* english : {" than ", " GPUs ", " of its step", " billed ", " instead of ", "feasible"})
            CHECK(zh.find(english) == std::string::npos);
          // The figures the English shows, the Chinese shows too.
          const std::string en = why_english(w);
          for (int i = 0; i < 8; ++i) {
            const std::string arg = tag(i);
            CHECK((en.find(arg) == std::string::npos) == (zh.find(arg) == std::string::npos));
          }
          for (const char* d : {"<d0>", "<d1>", "<d2>"})
            CHECK((en.find(d) == std::string::npos) == (zh.find(d) == std::string::npos));
        }
  web::set_language(web::Lang::en);
  // A real search: every row's English in the app is the planner's `why`.
  const QuestionParse q = parse_question(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
      "global_batch": 256, "tokens": 2e9, "objective": "min_cost", "top_n": 20, "constraints": {"max_gpus": 64}})",
                                         builtin_catalog());
  REQUIRE_MESSAGE(q.question, q.error.message);
  const PlanResult res = plan(*q.question, builtin_catalog(), default_calibration());
  REQUIRE(res.plans.size() > 5);
  REQUIRE(res.why_data.size() == res.why.size());
  for (size_t i = 0; i < res.why.size(); ++i) CHECK(web::plan_why_text(res.why_data[i], "") == res.why[i]);
}

TEST_CASE("the app words every input error code in Chinese with the same values, and in English as the core") {
  const auto placeholders = [](std::string_view text) {
    std::set<std::string> out;
    for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1))
      out.insert(std::string(text.substr(open, text.find('}', open) - open + 1)));
    return out;
  };
  const auto has_cjk = [](std::string_view text) {
    for (const char c : text)
      if (static_cast<unsigned char>(c) >= 0xE4) return true;  // lead byte of a 3-byte UTF-8 CJK character
    return false;
  };
  for (const InputErrorWording& w : kInputErrorWordings) {
    CAPTURE(w.code);
    const char* zh = web::input_error_chinese(w.code);
    REQUIRE(zh != nullptr);
    CHECK(placeholders(zh) == placeholders(w.english));
    CHECK(has_cjk(zh));
  }
  // 12 H100 GPUs are neither one node of 8 nor a whole number of nodes: the core's English, and the
  // same field and values (8 a node, 12 given) in Chinese.
  const ScenarioParse p = parse_scenario(
      R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 12}})",
      builtin_catalog());
  REQUIRE_FALSE(p.scenario);
  CHECK(p.error.code == "whole_nodes");
  CHECK(p.error.args == std::vector<std::string>{"8", "12"});
  web::set_language(web::Lang::en);
  CHECK(web::input_error_text(p.error) == p.error.message);
  CHECK(p.error.message == "cluster.gpus: must be at most one node or a whole number of nodes of 8 GPUs; got 12");
  web::set_language(web::Lang::zh);
  CHECK(web::input_error_text(p.error) == "cluster.gpus：须不超过一个节点，或为整数个节点（每节点 8 卡）；输入为 12");
  // A range error of the field table: the range and the value as typed.
  const ScenarioParse big =
      parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 5000000000}})", builtin_catalog());
  REQUIRE_FALSE(big.scenario);
  CHECK(web::input_error_text(big.error) == "cluster.gpus：须为 1..1000000 之间的整数；输入为 5000000000");
  // The planner form points the error at its widget's id; the words name the field the core read.
  const InputError widget("planner.budget_usd",
                          "constraints.budget_usd: is required by objective \"min_time_under_budget\"",
                          "required_by_objective", {"min_time_under_budget"});
  CHECK(web::input_error_text(widget) == "constraints.budget_usd：目标 \"min_time_under_budget\" 需要此项");
  // An error without a code keeps its English in Chinese.
  CHECK(web::input_error_text(InputError{"model.preset", "model.preset: unknown"}) == "model.preset: unknown");
  web::set_language(web::Lang::en);
}

TEST_CASE("every field's unit reads in Chinese") {
  // The app shows a field's unit through web::unit_text (the string u_<unit>): each unit of words
  // needs its Chinese; SI symbols stay as they are.
  const std::set<std::string> symbols = {"h", "s", "GB", "GiB"};
  web::set_language(web::Lang::zh);
  for (const FieldSpec& f : all_fields()) {
    if (!*f.unit || !*f.section) continue;
    const std::string unit = f.unit;
    const bool word =
        std::all_of(unit.begin(), unit.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
    CAPTURE(std::string(f.path));
    if (word && !symbols.count(unit)) CHECK(std::string(web::unit_text(f.unit)) != unit);
  }
  web::set_language(web::Lang::en);
}

TEST_CASE("a link notice whose reason is an input error words that reason in Chinese") {
  // 12 GPUs of 8 a node: the link falls back to the default count, and says why in the app's language.
  const LinkDecode d = decode_link("v=1&m=llama-3.1-8b&n=12", builtin_catalog());
  REQUIRE(d.notices.size() == 1);
  const LinkNotice& n = d.notices[0];
  CHECK(n.code == "invalid_default");
  CHECK(n.reason_code == "whole_nodes");
  web::set_language(web::Lang::en);
  CHECK(web::link_notice_text(n) ==
        "must be at most one node or a whole number of nodes of 8 GPUs; got 12; the default is used");
  web::set_language(web::Lang::zh);
  const std::string zh = web::link_notice_text(n);
  CHECK(zh.find("须不超过一个节点，或为整数个节点（每节点 8 卡）；输入为 12") == 0);
  CHECK(zh.find("must") == std::string::npos);
  web::set_language(web::Lang::en);
}

TEST_CASE(
    "every formula behind a figure reads in Chinese: the validation scenarios and the pricing and calibration paths") {
  // The scenarios of tests/validation/cases.json (every method, framework, layout and accelerator the
  // estimator is checked on) and the paths they do not take: a priced instance, an accelerator no
  // offering prices, freeze-tuning, a measured run and a run calibrated on another GPU count.
  std::vector<std::string> scenarios;
  const nlohmann::json cases = nlohmann::json::parse(test::read_source_file("tests/validation/cases.json"));
  for (const nlohmann::json& c : cases["cases"])
    if (c.contains("scenario")) scenarios.push_back(c["scenario"].dump());
  REQUIRE(scenarios.size() > 300);
  for (
      const char* extra :
      {R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"instance": "aws-p5.48xlarge-us-east-1", "nodes": 2}})",
       R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "gb200-186gb", "gpus": 8}})",
       R"({"model": {"preset": "llama-3.1-8b"}, "method": "freeze", "cluster": {"gpus": 8}})",
       R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 8}, "calibration": {"tokens_per_s_per_gpu": 9000}})",
       R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"gpus": 16},
               "calibration": {"tokens_per_s_per_gpu": 9000, "measured_on": {"gpus": 8}}})"})
    scenarios.push_back(extra);
  std::set<std::string> english, untranslated;
  for (const std::string& text : scenarios) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    if (!p.scenario) continue;
    Explainer ex;
    const EstimateResult r = estimate(*p.scenario, default_calibration(), &ex);
    figure_ranges(*p.scenario, r, builtin_residuals(), &ex);
    for (const Explanation& e : ex.items()) english.insert(e.formula);
  }
  // Worded: a Chinese that differs, or an entry whose Chinese is the same symbols ("tp x cp x pp x dp").
  std::set<std::string> same;
  for (const web::FormulaWording& w : web::formula_wordings())
    if (std::string_view(w.en) == w.zh) same.insert(w.en);
  web::set_language(web::Lang::zh);
  for (const std::string& f : english)
    if (web::formula_text(f) == f && !same.count(f)) untranslated.insert(f);
  web::set_language(web::Lang::en);
  CHECK(english.size() > 150);
  for (const std::string& f : untranslated) CHECK_MESSAGE(false, "no Chinese for the formula: " << f);
  // English reads as the core wrote it.
  for (const std::string& f : english) CHECK(web::formula_text(f) == f);
}

TEST_CASE("the Chinese formulas keep the English's symbols, field paths, constants, numbers and placeholders") {
  // Dotted paths (memory.per_gpu_bytes), calibration constants (kGemmHalfSize), numbers, {0} ...
  const std::regex kept(R"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+|\bk[A-Z][A-Za-z0-9]+\b|\d+(?:\.\d+)?|\{\d\})");
  const std::vector<web::FormulaWording> table = web::formula_wordings();
  REQUIRE(table.size() > 130);
  for (const web::FormulaWording& w : table) {
    const std::string en = w.en, zh = w.zh;
    for (auto it = std::sregex_iterator(en.begin(), en.end(), kept); it != std::sregex_iterator(); ++it)
      CHECK_MESSAGE(zh.find(it->str()) != std::string::npos, it->str() << " missing from the Chinese of: " << en);
  }
  web::set_language(web::Lang::zh);
  // A formula the core assembles around counts and names: the pieces move into the Chinese sentence.
  CHECK(web::formula_text("median on_demand price per GPU of the 18 catalog instances with h100-sxm5-80gb") ==
        "目录中 18 个 h100-sxm5-80gb 实例的 on_demand 单卡价格中位数");
  const std::string range = web::formula_text(
      "80 % interval: the 10th and 90th percentiles of published / estimated over 16 published runs of 3 families "
      "(megatron-bridge-perf, mlperf-training, nemo-long-seq) sharing: framework, accelerator class; families weigh "
      "equally (validation residuals of tests/validation/cases.json)");
  CHECK(range ==
        "80 % 区间：16 个已发表运行（3 个来源系列：megatron-bridge-perf, mlperf-training, nemo-long-seq）的“发表值 / "
        "估计值”的第 10 与第 90 百分位，这些运行共有：训练框架、加速卡档次；各来源系列权重相同（tests/validation/"
        "cases.json 的验证残差）");
  // A formula the app has no wording for stays in English.
  CHECK(web::formula_text("a formula of a later core") == "a formula of a later core");
  web::set_language(web::Lang::en);
}

TEST_CASE("a link with a node larger than its accelerator is sold in falls back to the default node, and says why") {
  // 16 H100s a node: HGX boards join at most 8 (catalog 2026.12.16, max_gpus_per_node). The link
  // keeps its 16 GPUs on the default node, min(16, 8) = 8.
  const LinkDecode d = decode_link("v=1&c=2026.12.16&m=llama-3.1-8b&g=h100-sxm5-80gb&n=16&gn=16", builtin_catalog());
  REQUIRE(d.notices.size() == 1);
  const LinkNotice& n = d.notices[0];
  CHECK(n.field == "cluster.gpus_per_node");
  CHECK(n.code == "invalid_default");
  CHECK(n.reason_code == "gpus_per_node_domain");
  const ScenarioParse p = parse_scenario(d.input_json, builtin_catalog());
  REQUIRE(p.scenario);
  CHECK(p.scenario->cluster.gpus == 16);
  CHECK(p.scenario->cluster.gpus_per_node == 8);
  web::set_language(web::Lang::zh);
  CHECK(web::link_notice_text(n).find("用 h100-sxm5-80gb 时须为 1..8") == 0);
  web::set_language(web::Lang::en);
}
