// The planner: the sanity the seeds and the model imply, determinism, constraints and the JSON contract.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <sstream>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/planner.hpp"

using namespace llmplan;
using nlohmann::json;

namespace {
json plan_of(const std::string& question) {
  const PlanJsonResponse r = plan_json(question, builtin_catalog(), default_calibration());
  REQUIRE_MESSAGE(r.ok, r.error.message);
  return json::parse(r.body);
}
const char* k7bQlora = R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
  "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8}})";
const char* k70bFull = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
  "tokens": 2e9, "objective": "min_cost", "constraints": {"max_gpus": 64}})";
}  // namespace

TEST_CASE("7B QLoRA picks a single GPU") {
  const json r = plan_of(k7bQlora);
  REQUIRE(r["plans"].size() >= 1);
  CHECK(r["plans"][0]["gpus"] == 1);
}

TEST_CASE("70B full fine-tune fits in one or two 8-GPU nodes with ZeRO-3/FSDP or TP x PP") {
  const json r = plan_of(k70bFull);
  const json& best = r["plans"][0];
  CHECK(best["gpus"].get<int>() <= 16);
  CHECK(best["nodes"].get<int>() <= 2);
  const json& l = best["layout"];
  CHECK((l["zero"] == 3 || l["tp"].get<int>() * l["pp"].get<int>() > 1));
}

TEST_CASE("TP never crosses a node in any plan, and plans are deterministic") {
  const json a = plan_of(k70bFull), b = plan_of(k70bFull);
  CHECK(a == b);
  for (const json& p : a["plans"]) {
    const Instance* in = builtin_catalog().find_instance(p["instance"].get<std::string>());
    REQUIRE(in != nullptr);
    CHECK(p["layout"]["tp"].get<int>() <= in->gpus);
  }
}

TEST_CASE("multi-node plans use a published fabric; an RDMA offering beats TCP for the same GPU") {
  const json r = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain", "seq_len": 4096, "tokens": 2e10,
    "objective": "min_time", "constraints": {"max_gpus": 64, "accelerators": ["h100-sxm5-80gb"]}})");
  for (const json& p : r["plans"]) {
    if (p["nodes"].get<int>() == 1) continue;
    const Instance* in = builtin_catalog().find_instance(p["instance"].get<std::string>());
    CHECK_FALSE(in->inter_node_link.empty());
  }
  CHECK(r["rejected"]["network"].get<int>() > 0);
  const Instance* top = builtin_catalog().find_instance(r["plans"][0]["instance"].get<std::string>());
  const Interconnect* link = builtin_catalog().find_interconnect(top->inter_node_link);
  if (r["plans"][0]["nodes"].get<int>() > 1) CHECK(link->rdma);
}

TEST_CASE("constraints: deadline and budget reject with counted reasons; providers filter") {
  const json tight = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
    "tokens": 2e9, "objective": "min_cost_under_deadline", "constraints": {"max_gpus": 64, "deadline_days": 0.5}})");
  CHECK(tight["rejected"]["deadline"].get<double>() > 0);
  for (const json& p : tight["plans"]) CHECK(p["time"]["total_hours"].get<double>() * 1.3 <= 12.0 + 1e-6);
  const json aws = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048, "tokens": 1e8,
    "objective": "min_time", "constraints": {"providers": ["aws"], "max_gpus": 8}})");
  for (const json& p : aws["plans"]) CHECK(p["provider"] == "aws");
  const json none = plan_of(R"({"model": {"preset": "llama-3.1-405b"}, "method": "full", "seq_len": 4096, "tokens": 1e9,
    "objective": "min_cost", "constraints": {"max_gpus": 1}})");
  CHECK(none["plans"].empty());
  CHECK(none.contains("message"));
}

TEST_CASE("the question is validated like a scenario, and cluster/layout are refused") {
  const PlanJsonResponse a = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "parallel": {"tp": 2}})",
                                       builtin_catalog(), default_calibration());
  CHECK_FALSE(a.ok);
  CHECK(a.error.field == "parallel");
  const PlanJsonResponse b = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "cheapest"})",
                                       builtin_catalog(), default_calibration());
  CHECK(b.error.field == "objective");
  const PlanJsonResponse c = plan_json(R"({"model": {"preset": "llama-3.1-8b"}})", builtin_catalog(), default_calibration());
  CHECK(c.error.field == "tokens");
  const PlanJsonResponse d = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "objective": "min_time_under_budget"})",
                                       builtin_catalog(), default_calibration());
  CHECK(d.error.field == "constraints.budget_usd");
}

TEST_CASE("the Pareto front is non-dominated and the searched space is stated") {
  const json r = plan_of(k70bFull);
  const json& front = r["pareto"];
  REQUIRE(front.size() >= 1);
  for (size_t i = 1; i < front.size(); ++i) {
    CHECK(front[i]["total_hours"].get<double>() >= front[i - 1]["total_hours"].get<double>());
    CHECK(front[i]["cost_usd"].get<double>() < front[i - 1]["cost_usd"].get<double>());
  }
  CHECK(r["searched"]["layouts"].get<double>() >= r["searched"]["evaluated"].get<double>());
  CHECK(r["searched"]["offerings"].get<int>() > 50);
  CHECK_FALSE(r["plans"][0]["why"].get<std::string>().empty());
}

// ---------------------------------------------------------------------------------------------
// Advice, launch artefacts and checklist: every value is the plan's own.

namespace {
const char* k405bPretrain = R"({"model": {"preset": "llama-3.1-405b"}, "method": "pretrain", "seq_len": 8192,
  "global_batch": 2048, "tokens": 15e12, "objective": "min_time", "constraints": {"max_gpus": 16384}})";
const char* k70bOnH100 = R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
  "tokens": 2e9, "objective": "min_cost", "constraints": {"max_gpus": 16, "accelerators": ["h100-sxm5-80gb"]}})";

// "--flag value" lines of the Megatron arguments; "" for a flag without a value, absent: not there.
std::map<std::string, std::string> megatron_flags(const std::string& args) {
  std::map<std::string, std::string> out;
  std::istringstream in(args);
  std::string line;
  while (std::getline(in, line)) {
    const size_t sp = line.find(' ');
    out[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1, line.find(' ', sp + 1) - sp - 1);
  }
  return out;
}

const json* check_of(const json& plan, const std::string& id) {
  for (const json& c : plan["checklist"])
    if (c["id"] == id) return &c;
  return nullptr;
}
}  // namespace

TEST_CASE("each plan's scenario reproduces its figures through llmplan estimate") {
  for (const char* q : {k7bQlora, k70bFull, k405bPretrain}) {
    const json r = plan_of(q);
    REQUIRE(r["plans"].size() >= 1);
    for (const json& p : r["plans"]) {
      const JsonResponse e = estimate_json(p["scenario"].dump(), builtin_catalog(), default_calibration());
      REQUIRE_MESSAGE(e.ok, e.error.message);
      const json est = json::parse(e.body);
      CHECK(est["time"]["total_hours"].get<double>() == doctest::Approx(p["time"]["total_hours"].get<double>()).epsilon(1e-9));
      CHECK(est["cost"]["total_usd"].get<double>() == doctest::Approx(p["cost"]["total_usd"].get<double>()).epsilon(1e-9));
      CHECK(est["memory"]["per_gpu_bytes"]["total"].get<double>() ==
            doctest::Approx(p["memory"]["per_gpu_bytes"].get<double>()).epsilon(1e-9));
      CHECK(est["layout"]["grad_accum"] == p["layout"]["grad_accum"]);
    }
  }
}

TEST_CASE("the DeepSpeed JSON parses and carries the plan's batch, accumulation and ZeRO stage") {
  for (const char* q : {k7bQlora, k70bFull}) {
    const json answer = plan_of(q);  // kept alive: a range-for over a temporary's member dangles
    for (const json& p : answer["plans"]) {
      const json& a = p["artifacts"];
      if (a["deepspeed_json"].is_null()) {
        CHECK(p["layout"]["tp"].get<int>() * p["layout"]["pp"].get<int>() > 1);  // only model-parallel plans have none
        continue;
      }
      const json ds = json::parse(a["deepspeed_json"].get<std::string>());
      const json& l = p["layout"];
      CHECK(ds["train_batch_size"] == l["global_batch"]);
      CHECK(ds["train_micro_batch_size_per_gpu"] == l["micro_batch"]);
      CHECK(ds["gradient_accumulation_steps"] == l["grad_accum"]);
      CHECK(ds["train_batch_size"].get<int>() ==
            l["micro_batch"].get<int>() * l["grad_accum"].get<int>() * l["dp"].get<int>());  // DeepSpeed's own check
      CHECK(ds["zero_optimization"]["stage"] == l["zero"]);
      CHECK(ds["bf16"]["enabled"] == true);
      CHECK(ds["zero_optimization"].contains("offload_optimizer") == (l["offload"] == "cpu"));
      const std::string yaml = a["accelerate_yaml"].get<std::string>();
      CHECK(yaml.find("num_processes: " + std::to_string(p["gpus"].get<int>()) + "\n") != std::string::npos);
      CHECK(yaml.find("num_machines: " + std::to_string(p["nodes"].get<int>()) + "\n") != std::string::npos);
    }
  }
}

TEST_CASE("Megatron-LM arguments carry the plan's layout, batch and the model's architecture") {
  const json r = plan_of(k405bPretrain);
  const json& p = r["plans"][0];
  REQUIRE(p["artifacts"]["framework"] == "megatron");
  const auto f = megatron_flags(p["artifacts"]["megatron_args"].get<std::string>());
  const json& l = p["layout"];
  CHECK(f.at("--tensor-model-parallel-size") == std::to_string(l["tp"].get<int>()));
  CHECK(f.at("--pipeline-model-parallel-size") == std::to_string(l["pp"].get<int>()));
  CHECK(f.at("--micro-batch-size") == std::to_string(l["micro_batch"].get<int>()));
  CHECK(f.at("--global-batch-size") == "2048");
  CHECK(f.at("--seq-length") == "8192");
  CHECK(f.count("--use-distributed-optimizer") == (l["zero"] == 1 ? 1u : 0u));
  CHECK(f.count("--sequence-parallel") == (l["tp"].get<int>() > 1 ? 1u : 0u));
  // Llama 3.1 405B (Meta's config): 126 layers, h 16384, FFN 53248, 128 heads, 8 KV heads.
  CHECK(f.at("--num-layers") == "126");
  CHECK(f.at("--hidden-size") == "16384");
  CHECK(f.at("--ffn-hidden-size") == "53248");
  CHECK(f.at("--num-attention-heads") == "128");
  CHECK(f.at("--num-query-groups") == "8");
  // 15e12 tokens / (2048 x 8192 tokens per step) = 894,070.0 steps, rounded up.
  CHECK(f.at("--train-iters") == "894070");
  const std::string cmd = p["artifacts"]["torchrun"].get<std::string>();
  CHECK(cmd.find("--nnodes=" + std::to_string(p["nodes"].get<int>()) + " --nproc_per_node=8") != std::string::npos);
}

TEST_CASE("the PEFT snippet is QLoRA's NF4 with the plan's rank and batch") {
  const json p = plan_of(k7bQlora)["plans"][0];
  const std::string py = p["artifacts"]["peft_python"].get<std::string>();
  CHECK(py.find("bnb_4bit_quant_type=\"nf4\"") != std::string::npos);
  CHECK(py.find("bnb_4bit_use_double_quant=True") != std::string::npos);
  CHECK(py.find("LoraConfig(r=16, lora_alpha=32") != std::string::npos);
  CHECK(py.find("target_modules=\"all-linear\"") != std::string::npos);
  CHECK(py.find("per_device_train_batch_size=" + std::to_string(p["layout"]["micro_batch"].get<int>()) + ",") != std::string::npos);
  CHECK(py.find("gradient_accumulation_steps=" + std::to_string(p["layout"]["grad_accum"].get<int>()) + ",") != std::string::npos);
  CHECK(p["artifacts"]["megatron_args"].is_null());
}

TEST_CASE("layouts are ones the frameworks run: PEFT without model parallelism, TP dividing the KV heads") {
  const json lora = plan_of(R"({"model": {"preset": "llama-3.1-70b"}, "method": "lora", "seq_len": 4096, "global_batch": 64,
    "tokens": 1e8, "objective": "min_time", "constraints": {"max_gpus": 16}})");
  for (const json& p : lora["plans"]) CHECK(p["layout"]["tp"].get<int>() * p["layout"]["pp"].get<int>() == 1);
  const json qwen = plan_of(R"({"model": {"preset": "qwen2.5-7b"}, "method": "full", "seq_len": 4096, "global_batch": 64,
    "tokens": 1e9, "objective": "min_time", "constraints": {"max_gpus": 16}})");
  for (const json& p : qwen["plans"]) {
    CHECK(4 % p["layout"]["tp"].get<int>() == 0);  // Qwen2.5-7B: 4 KV heads
    const json& l = p["layout"];
    if (l["tp"].get<int>() * l["pp"].get<int>() > 1) {
      CHECK(l["offload"] == "none");
      CHECK(l["zero"] != 2);
    }
  }
  CHECK(qwen["rejected"]["software"].get<double>() > 0);
}

TEST_CASE("advice: node sizing, RDMA and placement follow the seeds' rules with the plan's numbers") {
  const json single = plan_of(k7bQlora)["plans"][0]["advice"];
  CHECK(single["rdma"]["needed"] == false);
  CHECK(single["tier"] == "L1");
  CHECK(single["node"]["vcpus_needed"].get<double>() == 16);  // seed 000 §2.2: at least 16 vCPUs
  CHECK(single["checkpoints"].get<std::string>().find("local NVMe") != std::string::npos);

  const json big = plan_of(k405bPretrain)["plans"][0];
  const json& a = big["advice"];
  CHECK(a["tier"] == "L3");
  CHECK(a["rdma"]["needed"] == true);
  CHECK(a["rdma"]["tcp_step_s"].get<double>() > 1.1 * a["rdma"]["step_s"].get<double>());
  CHECK(a["rdma"]["step_s"].get<double>() == doctest::Approx(big["time"]["step_s"].get<double>()));
  CHECK(a["checkpoints"].get<std::string>().find("shared parallel file system") != std::string::npos);
  // Host RAM >= 2x the node's GPU memory (seed 000 §2.2): 8 GPUs x memory_gb x 2.
  const Accelerator* g = builtin_catalog().find_accelerator(big["accelerator"].get<std::string>());
  CHECK(a["node"]["ram_gb_needed"].get<double>() == doctest::Approx(2 * 8 * g->memory_gb));
}

TEST_CASE("the checklist expects this plan's topology, bus bandwidths, disks and throughput") {
  const json p = plan_of(k70bOnH100)["plans"][0];
  REQUIRE(p["accelerator"] == "h100-sxm5-80gb");
  // H100 SXM: NVLink 4 at 450 GB/s per direction / 25 GB/s per link = 18 links, "NV18" in nvidia-smi topo -m.
  const json* topo = check_of(p, "topology");
  REQUIRE(topo != nullptr);
  CHECK((*topo)["expected"].get<double>() == 18);
  CHECK((*topo)["expect"].get<std::string>().find("NV18") != std::string::npos);
  // Intra-node busbw: the catalog's measured NVLink 4 all-reduce busbw (nccl-tests on H100 HGX).
  const json* nccl = check_of(p, "nccl_intra");
  REQUIRE(nccl != nullptr);
  const Interconnect* nv4 = builtin_catalog().find_interconnect("nvlink4");
  REQUIRE(nv4->nccl_busbw_gb_per_s.has_value());
  CHECK((*nccl)["expected"].get<double>() == doctest::Approx(*nv4->nccl_busbw_gb_per_s));
  const json* first = check_of(p, "first_steps");
  REQUIRE(first != nullptr);
  const JsonResponse e = estimate_json(p["scenario"].dump(), builtin_catalog(), default_calibration());
  const json est = json::parse(e.body);
  CHECK((*first)["expected"].get<double>() ==
        doctest::Approx(est["time"]["tokens_per_s"].get<double>() / p["gpus"].get<int>()));
  CHECK(check_of(p, "fio_data_read") != nullptr);
  CHECK(check_of(p, "checkpoint_roundtrip") != nullptr);
  if (p["nodes"].get<int>() == 1) CHECK(check_of(p, "nccl_inter") == nullptr);

  const json big = plan_of(k405bPretrain)["plans"][0];
  CHECK(check_of(big, "nccl_inter") != nullptr);
  CHECK((check_of(big, "ib_write_bw") != nullptr || check_of(big, "iperf3") != nullptr ||
         big["scenario"]["cluster"]["instance"].get<std::string>().find("aws") == 0));
  const json single = plan_of(k7bQlora)["plans"][0];
  CHECK(check_of(single, "nccl_intra") == nullptr);
  CHECK(check_of(single, "topology") == nullptr);
}

TEST_CASE("the search runs in slices with monotonic progress and the same answer as one call") {
  const PlanJsonResponse parsed = plan_json(k70bFull, builtin_catalog(), default_calibration());
  REQUIRE(parsed.ok);
  Question q;
  ScenarioParse s = parse_scenario(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
    "global_batch": 256, "tokens": 2e9})", builtin_catalog());
  REQUIRE(s.scenario);
  q.base = *s.scenario;
  q.constraints.max_gpus = 64;
  Planner sliced(q, builtin_catalog(), default_calibration());
  double last = -1;
  int slices = 0;
  while (!sliced.step(500)) {
    CHECK(sliced.progress() >= last);
    CHECK(sliced.progress() < 1.0);
    last = sliced.progress();
    ++slices;
  }
  CHECK(sliced.progress() == 1.0);
  CHECK(slices > 10);  // 500 layouts a slice: the UI gets many frames
  const PlanResult a = sliced.result(), b = plan(q, builtin_catalog(), default_calibration());
  REQUIRE(a.plans.size() == b.plans.size());
  for (size_t i = 0; i < a.plans.size(); ++i) {
    CHECK(a.plans[i].instance == b.plans[i].instance);
    CHECK(a.plans[i].nodes == b.plans[i].nodes);
    CHECK(a.plans[i].cost_usd == b.plans[i].cost_usd);
  }
  CHECK(a.evaluated == b.evaluated);
  // The same plan as the JSON call, which fills the same question from the same fields.
  CHECK(json::parse(parsed.body)["plans"][0]["instance"] == a.plans[0].instance->id);
}

TEST_CASE("region and currency constraints narrow the offerings; CSV lists the ranked plans") {
  const json cny = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 2048, "global_batch": 32,
    "tokens": 2e8, "objective": "min_cost", "constraints": {"max_gpus": 8, "currency": "cny"}})");
  REQUIRE(cny["plans"].size() >= 1);
  for (const json& p : cny["plans"])
    CHECK(builtin_catalog().find_instance(p["instance"].get<std::string>())->currency == CurrencyCode::cny);
  const json east = plan_of(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "seq_len": 2048, "tokens": 1e8,
    "objective": "min_cost", "constraints": {"max_gpus": 8, "regions": ["us-east-1"]}})");
  for (const json& p : east["plans"]) {
    const std::string region = builtin_catalog().find_instance(p["instance"].get<std::string>())->region;
    CHECK((region == "us-east-1" || region.rfind("all", 0) == 0 || region == "global"));
  }
  const PlanJsonResponse bad = plan_json(R"({"model": {"preset": "llama-3.1-8b"}, "tokens": 1e9, "constraints": {"currency": "eur"}})",
                                         builtin_catalog(), default_calibration());
  CHECK(bad.error.field == "constraints.currency");

  const QuestionParse q = parse_question(k70bFull, builtin_catalog());
  REQUIRE(q.question);
  const PlanResult r = plan(*q.question, builtin_catalog(), default_calibration());
  const std::string csv = plans_csv(r);
  size_t lines = 0;
  for (char ch : csv) lines += ch == '\n';
  CHECK(lines == r.plans.size() + 1);
  CHECK(csv.find("\r\n1," + r.plans[0].instance->id + ",") != std::string::npos);
  CHECK(csv.find("\"" + r.why[0] + "\"") != std::string::npos);
}

TEST_CASE("one offering filter serves the planner and the design space") {
  const Catalog& c = builtin_catalog();
  const Instance* aws = c.find_instance("aws-p5.48xlarge-us-east-1");
  const Instance* autodl = c.find_instance("autodl-1x-rtx-4090");
  REQUIRE(aws);
  REQUIRE(autodl);
  Constraints k;
  CHECK(offering_allowed(k, *aws));
  k.currency = "cny";
  CHECK_FALSE(offering_allowed(k, *aws));
  CHECK(offering_allowed(k, *autodl));
  k = Constraints{};
  k.regions = {"eu-west-1"};
  CHECK_FALSE(offering_allowed(k, *aws));
  k.regions = {"us-east-1"};
  CHECK(offering_allowed(k, *aws));
  k.providers = {"gcp"};
  CHECK_FALSE(offering_allowed(k, *aws));
}
