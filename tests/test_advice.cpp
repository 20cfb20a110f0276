// Advice, launch artefacts and checklist of planned layouts: every value is the plan's own.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/estimate.hpp"
#include "llmplan/import.hpp"
#include "llmplan/performance.hpp"
#include "llmplan/planner.hpp"
#include "plan_questions.hpp"

using namespace llmplan;
using namespace plan_questions;
using nlohmann::json;

namespace {
const char* k70bOnH100 =
    R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096, "global_batch": 256,
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

TEST_CASE("Megatron's gradient buffer is what the launched job keeps: bf16 with --grad-reduce-in-bf16, else fp32") {
  // Megatron-LM (arguments.py) accumulates and reduces bf16 gradients in fp32 unless
  // --grad-reduce-in-bf16, and Megatron-Core's buffer takes the reduce dtype
  // (distributed_data_parallel.py: grad_dtype = torch.float if grad_reduce_in_fp32 else param.dtype).
  // Llama 3.1 8B, ZeRO-1 over 8 GPUs: bf16 weights 2 B, gradients 2 or 4 B, the distributed
  // optimizer's fp32 master and Adam moments 12 B / 8, the "6 + 12/d" of its docs with fp32 gradients.
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron", "seq_len": 4096,
      "global_batch": 64, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 1, "recompute": "full"}})";
  const ScenarioParse p = parse_scenario(base, builtin_catalog());
  REQUIRE(p.scenario);
  Scenario bf16 = *p.scenario;
  Scenario fp32 = bf16;
  fp32.techniques.fp32_grad_reduce = true;
  const EstimateResult rb = estimate(bf16, default_calibration());
  const EstimateResult rf = estimate(fp32, default_calibration());
  const double params = rb.memory.trainable_params;
  CHECK(rb.memory.per_gpu.gradients == doctest::Approx(2 * params));
  CHECK(rf.memory.per_gpu.gradients == doctest::Approx(4 * params));
  CHECK(rf.memory.per_gpu.weights + rf.memory.per_gpu.gradients + rf.memory.per_gpu.optimizer ==
        doctest::Approx((6 + 12.0 / 8) * params));
  CHECK(
      megatron_flags(launch_artifacts(bf16, rb, default_calibration()).megatron_args).count("--grad-reduce-in-bf16") ==
      1);
  CHECK(
      megatron_flags(launch_artifacts(fp32, rf, default_calibration()).megatron_args).count("--grad-reduce-in-bf16") ==
      0);
}

TEST_CASE("a fused cross-entropy kernel (fused_ce) is what the launched Megatron job runs, and it is timed as one") {
  // Megatron-LM runs its vocab-parallel cross-entropy op by op unless --cross-entropy-loss-fusion;
  // --cross-entropy-fusion-impl te picks Transformer Engine's single kernel, the 8 bytes a vocabulary
  // entry the estimate counts for fused_ce against 52 op by op: (52 - 8) x 128,256 entries x 16,384
  // tokens a GPU a step (Llama 3.1 8B, 32 sequences of 4,096 on 8 GPUs) less HBM traffic.
  const char* base = R"({"model": {"preset": "llama-3.1-8b"}, "framework": "megatron", "seq_len": 4096,
      "global_batch": 32, "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
      "parallel": {"zero": 1}})";
  const ScenarioParse p = parse_scenario(base, builtin_catalog());
  REQUIRE(p.scenario);
  Scenario plain = *p.scenario;
  Scenario fused = plain;
  fused.techniques.fused_loss = FusedLoss::fused_ce;
  const EstimateResult rp = estimate(plain, default_calibration());
  const EstimateResult rf = estimate(fused, default_calibration());
  const double saved = 44.0 * 128256 * 16384 / (3350e9 * default_calibration().mem_bw_efficiency.value);
  CHECK(rp.time.compute_s - rf.time.compute_s == doctest::Approx(saved));
  const auto flags = megatron_flags(launch_artifacts(fused, rf, default_calibration()).megatron_args);
  CHECK(flags.count("--cross-entropy-loss-fusion") == 1);
  CHECK(flags.at("--cross-entropy-fusion-impl") == "te");
  CHECK(megatron_flags(launch_artifacts(plain, rp, default_calibration()).megatron_args)
            .count("--cross-entropy-loss-fusion") == 0);
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

TEST_CASE("context, expert and virtual pipeline parallelism reach Megatron-LM's arguments and torchtitan's config") {
  // Mixtral 8x7B on 64 H100s: TP 2 x CP 2 x PP 2 with 2 virtual stages a rank, DP 8 with EP 4.
  const ScenarioParse parse = parse_scenario(
      R"({"model": {"preset": "mixtral-8x7b"}, "method": "full", "seq_len": 8192, "global_batch": 64,
      "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 64},
      "parallel": {"tp": 2, "cp": 2, "pp": 2, "vp": 2, "ep": 4, "zero": 1, "sequence_parallel": true}})",
      builtin_catalog());
  REQUIRE(parse.scenario);
  const Scenario& s = *parse.scenario;
  const EstimateResult r = estimate(s, default_calibration());
  const LaunchArtifacts a = launch_artifacts(s, r, default_calibration());
  CHECK(a.framework == "megatron");
  // megatron/training/arguments.py: --context-parallel-size, --expert-model-parallel-size and, for
  // even or uneven stages alike, --num-virtual-stages-per-pipeline-rank.
  const auto f = megatron_flags(a.megatron_args);
  CHECK(f.at("--context-parallel-size") == "2");
  CHECK(f.at("--expert-model-parallel-size") == "4");
  CHECK(f.at("--num-virtual-stages-per-pipeline-rank") == "2");
  CHECK(f.count("--num-layers-per-virtual-pipeline-stage") == 0);
  // Megatron-LM overlaps the interleaved schedule's pipeline transfers by default: a scenario that
  // counts them exposed (parallel.pp_comm_overlap off) turns it off, one that overlaps them says nothing.
  CHECK(f.count("--no-overlap-p2p-communication") == 1);
  Scenario overlapped = s;
  overlapped.parallel.pp_comm_overlap = true;
  const LaunchArtifacts o =
      launch_artifacts(overlapped, estimate(overlapped, default_calibration()), default_calibration());
  CHECK(megatron_flags(o.megatron_args).count("--no-overlap-p2p-communication") == 0);
  // Experts tensor-parallel like the rest (Megatron-Core's default ETP = TP): no flag for Megatron,
  // but torchtitan's default is 1, so its config names it.
  CHECK(f.count("--expert-tensor-parallel-size") == 0);
  CHECK(a.torchtitan_toml.find("expert_tensor_parallel_degree = 2\n") != std::string::npos);
  Scenario whole = s;
  whole.parallel.etp = 1;
  const LaunchArtifacts w = launch_artifacts(whole, estimate(whole, default_calibration()), default_calibration());
  CHECK(megatron_flags(w.megatron_args).at("--expert-tensor-parallel-size") == "1");
  CHECK(w.torchtitan_toml.find("expert_tensor_parallel_degree = 1\n") != std::string::npos);
  // The token dispatcher: Megatron-Core's default is allgather, so the all-to-all the model counts
  // is named; DeepEP runs through the flex dispatcher (Megatron-Core MoE README) and torchtitan's
  // expert_parallel_comm_backend (its default "standard" is the all-to-all).
  CHECK(f.at("--moe-token-dispatcher-type") == "alltoall");
  CHECK(f.count("--moe-flex-dispatcher-backend") == 0);
  CHECK(a.torchtitan_toml.find("expert_parallel_comm_backend") == std::string::npos);
  Scenario deepep = s;
  deepep.parallel.ep_dispatcher = EpDispatcher::deepep;
  const LaunchArtifacts d = launch_artifacts(deepep, estimate(deepep, default_calibration()), default_calibration());
  CHECK(megatron_flags(d.megatron_args).at("--moe-token-dispatcher-type") == "flex");
  CHECK(megatron_flags(d.megatron_args).at("--moe-flex-dispatcher-backend") == "deepep");
  CHECK(d.torchtitan_toml.find("expert_parallel_comm_backend = \"deepep\"\n") != std::string::npos);
  // HybridEP is the flex dispatcher's other backend (--moe-flex-dispatcher-backend hybridep) and a
  // torchtitan expert_parallel_comm_backend of its own.
  Scenario hybridep = s;
  hybridep.parallel.ep_dispatcher = EpDispatcher::hybridep;
  const LaunchArtifacts hy =
      launch_artifacts(hybridep, estimate(hybridep, default_calibration()), default_calibration());
  CHECK(megatron_flags(hy.megatron_args).at("--moe-token-dispatcher-type") == "flex");
  CHECK(megatron_flags(hy.megatron_args).at("--moe-flex-dispatcher-backend") == "hybridep");
  CHECK(hy.torchtitan_toml.find("expert_parallel_comm_backend = \"hybridep\"\n") != std::string::npos);
  // Random router logits are Megatron-LM's --moe-router-force-load-balancing (a benchmark setting);
  // a learned router (the default) and NeMo AutoModel's fake balanced gate carry no flag there.
  CHECK(f.count("--moe-router-force-load-balancing") == 0);
  Scenario random = s;
  random.parallel.moe_routing = MoeRouting::random;
  const LaunchArtifacts ra = launch_artifacts(random, estimate(random, default_calibration()), default_calibration());
  CHECK(megatron_flags(ra.megatron_args).count("--moe-router-force-load-balancing") == 1);
  Scenario fake = s;
  fake.parallel.moe_routing = MoeRouting::fake_balanced;
  const LaunchArtifacts fb = launch_artifacts(fake, estimate(fake, default_calibration()), default_calibration());
  CHECK(megatron_flags(fb.megatron_args).count("--moe-router-force-load-balancing") == 0);
  // Token dropping with padding (parallel.moe_capacity_factor): --moe-expert-capacity-factor c and
  // --moe-pad-expert-input-to-capacity, beside the alltoall dispatcher Megatron-Core requires for it.
  CHECK(f.count("--moe-expert-capacity-factor") == 0);
  Scenario dropping = s;
  dropping.parallel.moe_capacity_factor = 1.25;
  const auto cf = megatron_flags(
      launch_artifacts(dropping, estimate(dropping, default_calibration()), default_calibration()).megatron_args);
  CHECK(cf.at("--moe-expert-capacity-factor") == "1.25");
  CHECK(cf.count("--moe-pad-expert-input-to-capacity") == 1);
  CHECK(cf.at("--moe-token-dispatcher-type") == "alltoall");
  // Full recompute of every block: --recompute-method uniform with 1 block a group; of the first N of
  // each chunk (parallel.recompute_layers): --recompute-method block --recompute-num-layers N.
  Scenario recompute = s;
  recompute.parallel.recompute = Recompute::full;
  const auto rc = megatron_flags(
      launch_artifacts(recompute, estimate(recompute, default_calibration()), default_calibration()).megatron_args);
  CHECK(rc.at("--recompute-granularity") == "full");
  CHECK(rc.at("--recompute-method") == "uniform");
  CHECK(rc.at("--recompute-num-layers") == "1");
  recompute.parallel.recompute_layers = 3;
  const auto block = megatron_flags(
      launch_artifacts(recompute, estimate(recompute, default_calibration()), default_calibration()).megatron_args);
  CHECK(block.at("--recompute-method") == "block");
  CHECK(block.at("--recompute-num-layers") == "3");
  // Activation offload: Megatron-LM's --cpu-offloading with --cpu-offloading-num-layers, which must
  // be fewer than the model's layers (TransformerConfig), so "every layer" of Mixtral's 32 is 31.
  // Megatron-LM refuses it with pipeline parallelism and with recompute: no arguments then, and the
  // estimate names the rule.
  CHECK(f.count("--cpu-offloading") == 0);
  Scenario offload = s;
  offload.techniques.activation_offload = true;
  const auto refusal = [](const Scenario& x) {
    const EstimateResult e = estimate(x, default_calibration());
    for (int i = 0; i < e.warnings.count; ++i)
      if (e.warnings.items[static_cast<size_t>(i)].code == WarningCode::unsupported_layout)
        return std::string(layout_rule_id(e.warnings.items[static_cast<size_t>(i)].rule));
    return std::string();
  };
  CHECK(
      launch_artifacts(offload, estimate(offload, default_calibration()), default_calibration()).megatron_args.empty());
  CHECK(refusal(offload) == "activation_offload_without_pp");
  offload.parallel.pp = 1;
  offload.parallel.vp = 1;
  CHECK(refusal(offload).empty());
  const auto every = megatron_flags(
      launch_artifacts(offload, estimate(offload, default_calibration()), default_calibration()).megatron_args);
  CHECK(every.count("--cpu-offloading") == 1);
  CHECK(every.at("--cpu-offloading-num-layers") == "31");
  offload.techniques.activation_offload_layers = 6;
  CHECK(megatron_flags(
            launch_artifacts(offload, estimate(offload, default_calibration()), default_calibration()).megatron_args)
            .at("--cpu-offloading-num-layers") == "6");
  offload.parallel.recompute = Recompute::selective;
  CHECK(refusal(offload) == "activation_offload_without_recompute");
  // torchtitan's job config offloads only FSDP's parameters, gradients and optimizer states
  // (job_config.py, Training.enable_cpu_offload): naming it as the framework silences no rule, and
  // it gets no config.
  offload.framework = FrameworkKind::torchtitan;
  CHECK(refusal(offload) == "activation_offload_without_recompute");
  CHECK(launch_artifacts(offload, estimate(offload, default_calibration()), default_calibration())
            .torchtitan_toml.empty());
  // Context parallelism alone is model parallelism too: Megatron-LM runs it, and refuses recompute there.
  Scenario cp_only = offload;
  cp_only.framework = FrameworkKind::megatron;
  cp_only.parallel.tp = 1;
  cp_only.parallel.ep = 1;
  cp_only.parallel.etp = 0;
  cp_only.parallel.sequence_parallel = false;
  CHECK(refusal(cp_only) == "activation_offload_without_recompute");
  cp_only.parallel.recompute = Recompute::none;
  CHECK(refusal(cp_only).empty());
  CHECK(
      launch_artifacts(offload, estimate(offload, default_calibration()), default_calibration()).megatron_args.empty());
  // torchtitan/config/job_config.py [parallelism]: DP 8 FSDP-sharded (ZeRO-1 keeps the gathered
  // weights: reshard never), the interleaved schedule, and 32 blocks + embedding + output over 4
  // virtual stages: ceil(34 / 9) = 4 at 9 per stage.
  const std::string& t = a.torchtitan_toml;
  for (const char* line :
       {"data_parallel_shard_degree = 8\n", "fsdp_reshard_after_forward = \"never\"\n", "tensor_parallel_degree = 2\n",
        "context_parallel_degree = 2\n", "expert_parallel_degree = 4\n", "pipeline_parallel_degree = 2\n",
        "pipeline_parallel_schedule = \"Interleaved1F1B\"\n", "pipeline_parallel_layers_per_stage = 9 ",
        "local_batch_size = 8\n", "global_batch_size = 64\n", "seq_len = 8192\n"})
    CHECK_MESSAGE(t.find(line) != std::string::npos, line << " in " << t);
  // With pipeline flushes torchtitan accumulates schedules of local_batch_size sequences: DP 8 and 8
  // micro-batches of 1 a step (64 = 1 x 8 x 8) in 2 schedules of 4 each, local_batch_size 4 of the
  // same global 64 (torchtitan accumulates 64 / (4 x 8) = 2).
  {
    Scenario flushed = s;
    flushed.framework = FrameworkKind::torchtitan;
    flushed.parallel.pp_flushes = 2;
    const std::string& ft =
        launch_artifacts(flushed, estimate(flushed, default_calibration()), default_calibration()).torchtitan_toml;
    CHECK_MESSAGE(ft.find("local_batch_size = 4\n") != std::string::npos, ft);
    CHECK_MESSAGE(ft.find("global_batch_size = 64\n") != std::string::npos, ft);
  }
  // Without them, neither appears: 1 is Megatron-LM's default, and torchtitan's schedule is 1F1B.
  const ScenarioParse plain = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full",
      "global_batch": 64, "tokens": 1e9, "cluster": {"gpus": 16}, "parallel": {"tp": 2, "pp": 2, "zero": 1}})",
                                             builtin_catalog());
  REQUIRE(plain.scenario);
  const LaunchArtifacts b =
      launch_artifacts(*plain.scenario, estimate(*plain.scenario, default_calibration()), default_calibration());
  CHECK(b.megatron_args.find("context-parallel") == std::string::npos);
  CHECK(b.megatron_args.find("virtual") == std::string::npos);
  CHECK(b.torchtitan_toml.find("pipeline_parallel_schedule = \"1F1B\"") != std::string::npos);
  // torchtitan needs FSDP sharding and cp <= ep for expert parallelism; PEFT runs elsewhere.
  Scenario odd = s;
  odd.parallel.ep = 2;
  odd.parallel.cp = 4;
  CHECK(launch_artifacts(odd, r, default_calibration()).torchtitan_toml.empty());
}

TEST_CASE("per-operator checkpointing is torchtitan's selective_ac_option op, which Megatron-LM has not") {
  // torchtitan/config/job_config.py [activation_checkpoint]: mode "selective" with selective_ac_option "op"
  // (the default option "2" would checkpoint every second block instead).
  const ScenarioParse parse = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "pretrain",
      "global_batch": 64, "tokens": 1e9, "cluster": {"gpus": 16}, "framework": "torchtitan",
      "parallel": {"tp": 2, "zero": 1, "recompute": "selective_op"}})",
                                             builtin_catalog());
  REQUIRE(parse.scenario);
  const Scenario& s = *parse.scenario;
  const LaunchArtifacts a = launch_artifacts(s, estimate(s, default_calibration()), default_calibration());
  CHECK(a.torchtitan_toml.find("mode = \"selective\"\nselective_ac_option = \"op\"\n") != std::string::npos);
  // torchtitan without compile runs eager kernels; with fused kernels its [compile] section compiles the blocks.
  CHECK(a.torchtitan_toml.find("[compile]") == std::string::npos);
  Scenario compiled = s;
  compiled.techniques.fused_kernels = true;
  CHECK(launch_artifacts(compiled, estimate(compiled, default_calibration()), default_calibration())
            .torchtitan_toml.find("[compile]\nenable = true\ncomponents = [\"model\"]\n") != std::string::npos);
  // torchtitan has no switch for the loss kernels techniques.fused_loss names: the config says so, and
  // the nearest, a compiled loss, is techniques.compile (estimated apart). Liger read from a scenario
  // turns on the fused blocks too (scenario.cpp), so its config compiles the model and not the loss.
  auto toml = [](const Scenario& x) {
    return launch_artifacts(x, estimate(x, default_calibration()), default_calibration()).torchtitan_toml;
  };
  Scenario fused = s;
  fused.techniques.fused_loss = FusedLoss::fused_ce;
  CHECK(toml(fused).find("# techniques.fused_loss fused_ce: torchtitan has no switch for this loss kernel") !=
        std::string::npos);
  CHECK(toml(fused).find("[compile]") == std::string::npos);
  const ScenarioParse liger = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "pretrain",
      "global_batch": 64, "tokens": 1e9, "cluster": {"gpus": 16}, "framework": "torchtitan",
      "parallel": {"tp": 2, "zero": 1}, "techniques": {"fused_loss": "liger"}})",
                                             builtin_catalog());
  REQUIRE(liger.scenario);
  CHECK(toml(*liger.scenario).find("# techniques.fused_loss liger: torchtitan has no switch") != std::string::npos);
  Scenario compiled_loss = fused;
  compiled_loss.techniques.compile = true;
  CHECK(toml(compiled_loss).find("techniques.fused_loss") == std::string::npos);
  CHECK(toml(compiled_loss).find("components = [\"model\", \"loss\"]\n") != std::string::npos);
  CHECK(a.megatron_args.empty());
  CHECK(std::string(framework_for(layout_of(s), s.model, s.method).reason).find("per-operator") != std::string::npos);
  // Megatron's selective recompute (the attention core) is none in torchtitan when the kernel is fused.
  Scenario m = s;
  m.parallel.recompute = Recompute::selective;
  const LaunchArtifacts b = launch_artifacts(m, estimate(m, default_calibration()), default_calibration());
  CHECK(b.torchtitan_toml.find("mode = \"none\"") != std::string::npos);
  CHECK(b.megatron_args.find("--recompute-activations") != std::string::npos);
}

TEST_CASE("TP communication overlap reaches Megatron-LM's --tp-comm-overlap and torchtitan's async TP") {
  // megatron/training/arguments.py --tp-comm-overlap; torchtitan/config/job_config.py [parallelism]
  // enable_async_tensor_parallel, which needs the compiled blocks.
  const ScenarioParse parse = parse_scenario(R"({"model": {"preset": "llama-3.1-70b"}, "method": "pretrain",
      "global_batch": 64, "tokens": 1e9, "cluster": {"gpus": 64}, "framework": "torchtitan",
      "parallel": {"tp": 8, "zero": 1, "sequence_parallel": true, "tp_comm_overlap": true}})",
                                             builtin_catalog());
  REQUIRE(parse.scenario);
  Scenario s = *parse.scenario;
  const LaunchArtifacts a = launch_artifacts(s, estimate(s, default_calibration()), default_calibration());
  CHECK(megatron_flags(a.megatron_args).count("--tp-comm-overlap") == 1);
  CHECK(a.torchtitan_toml.find("enable_async_tensor_parallel = true   # needs \"model\" in [compile] components\n") !=
        std::string::npos);
  s.techniques.fused_kernels = true;
  const LaunchArtifacts compiled = launch_artifacts(s, estimate(s, default_calibration()), default_calibration());
  CHECK(compiled.torchtitan_toml.find("enable_async_tensor_parallel = true\n") != std::string::npos);
  s.parallel.tp_comm_overlap = false;
  const LaunchArtifacts plain = launch_artifacts(s, estimate(s, default_calibration()), default_calibration());
  CHECK(plain.megatron_args.find("--tp-comm-overlap") == std::string::npos);
  CHECK(plain.torchtitan_toml.find("async_tensor_parallel") == std::string::npos);
}

TEST_CASE("the PEFT snippet is QLoRA's NF4 with the plan's rank and batch") {
  const json p = plan_of(k7bQlora)["plans"][0];
  const std::string py = p["artifacts"]["peft_python"].get<std::string>();
  CHECK(py.find("bnb_4bit_quant_type=\"nf4\"") != std::string::npos);
  CHECK(py.find("bnb_4bit_use_double_quant=True") != std::string::npos);
  CHECK(py.find("LoraConfig(r=16, lora_alpha=32") != std::string::npos);
  // Dropout in the adapters would keep a copy of each adapted layer's input that the estimate lacks.
  CHECK(py.find("lora_dropout=0.0,") != std::string::npos);
  CHECK(py.find("target_modules=\"all-linear\"") != std::string::npos);
  CHECK(py.find("per_device_train_batch_size=" + std::to_string(p["layout"]["micro_batch"].get<int>()) + ",") !=
        std::string::npos);
  CHECK(py.find("gradient_accumulation_steps=" + std::to_string(p["layout"]["grad_accum"].get<int>()) + ",") !=
        std::string::npos);
  CHECK(p["artifacts"]["megatron_args"].is_null());
}

TEST_CASE("activation offload reaches the Hugging Face artefacts through TRL's SFTConfig") {
  // transformers' TrainingArguments, accelerate's FSDP plugin and a DeepSpeed config for a Hugging
  // Face script cannot offload activations; TRL's SFTConfig.activation_offloading can (its
  // SFTTrainer runs torchtune's OffloadActivations hooks). A data-parallel layout therefore carries
  // the flag on its command lines, and the PEFT snippet builds SFTConfig with the plan's length,
  // since its max_length (1,024 by default) truncates the sequences.
  const auto artefacts = [](const char* text) {
    const ScenarioParse parse = parse_scenario(text, builtin_catalog());
    REQUIRE(parse.scenario);
    const Scenario& s = *parse.scenario;
    return launch_artifacts(s, estimate(s, default_calibration()), default_calibration());
  };
  const char* full = R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 8192, "global_batch": 64,
    "tokens": 1e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
    "parallel": {"zero": 3, "recompute": "full"}, "techniques": {"activation_offload": true}})";
  const LaunchArtifacts f = artefacts(full);
  REQUIRE(f.framework == "fsdp");
  CHECK(f.torchrun.find("train.py --fsdp \"full_shard auto_wrap\" --activation_offloading true --max_length 8192   "
                        "# TRL SFTTrainer") != std::string::npos);
  CHECK(f.accelerate_yaml.find("train.py --activation_offloading true --max_length 8192   (machine_rank") !=
        std::string::npos);
  // The command line imports back to the scenario's sharding and offload (docs/import.md).
  const json back = json::parse(import_config(f.torchrun, builtin_catalog()));
  CHECK(back["scenario"]["parallel"]["zero"] == 3);
  CHECK(back["scenario"]["techniques"]["activation_offload"] == true);
  CHECK(back["scenario"]["seq_len"] == 8192);
  // TRL's offload fails in backward under DeepSpeed (huggingface/trl issue #4280): the command says so.
  std::string ds_text = full;
  ds_text.replace(ds_text.find("\"zero\": 3"), 9, "\"zero\": 2");
  const LaunchArtifacts ds = artefacts(ds_text.c_str());
  REQUIRE(ds.framework == "deepspeed");
  CHECK(ds.torchrun.find("huggingface/trl issue #4280") != std::string::npos);
  std::string plain_text = full;
  plain_text.replace(plain_text.find("true}}"), 4, "false");
  const LaunchArtifacts plain = artefacts(plain_text.c_str());
  CHECK(plain.torchrun.find("activation_offloading") == std::string::npos);
  CHECK(plain.torchrun.find("# Hugging Face Trainer") != std::string::npos);
  CHECK(plain.accelerate_yaml.find("activation_offloading") == std::string::npos);

  const char* qlora = R"({"model": {"preset": "llama-3.1-8b"}, "method": "qlora", "seq_len": 16384,
    "global_batch": 16, "micro_batch": 2, "tokens": 1e8, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1},
    "parallel": {"recompute": "full"}, "techniques": {"activation_offload": true}})";
  const std::string py = artefacts(qlora).peft_python;
  CHECK(py.find("from trl import SFTConfig\n") != std::string::npos);
  CHECK(py.find("TrainingArguments") == std::string::npos);
  CHECK(py.find("args = SFTConfig(output_dir=\"out\", per_device_train_batch_size=2, gradient_accumulation_steps=8,") !=
        std::string::npos);
  CHECK(py.find("max_length=16384, activation_offloading=True,") != std::string::npos);
  CHECK(py.find("gradient_checkpointing=True") != std::string::npos);
  std::string without = qlora;
  without.replace(without.find("true}}"), 4, "false");
  const std::string py_plain = artefacts(without.c_str()).peft_python;
  CHECK(py_plain.find("args = TrainingArguments(") != std::string::npos);
  CHECK(py_plain.find("SFTConfig") == std::string::npos);
  CHECK(py_plain.find("activation_offloading") == std::string::npos);
  CHECK(py_plain.find("use_liger_kernel") == std::string::npos);
  // The loss and kernels the estimate counts reach the Trainer where it has a switch for them.
  auto peft_with = [&without, &artefacts](const std::string& techniques) {
    std::string text = without;
    text.replace(text.find("\"techniques\": {"), 15, "\"techniques\": {" + techniques + ", ");
    return artefacts(text.c_str()).peft_python;
  };
  const std::string py_liger = peft_with("\"fused_loss\": \"liger\", \"compile\": true");
  CHECK(py_liger.find("use_liger_kernel=True,\n") != std::string::npos);
  CHECK(py_liger.find("torch_compile=True,\n") != std::string::npos);
  CHECK(py_liger.find("liger_kernel_config") == std::string::npos);
  // Liger without its SwiGLU kernel (techniques.eager_activation): transformers passes the dict to Liger.
  const std::string py_no_swiglu = peft_with("\"fused_loss\": \"liger\", \"eager_activation\": true");
  CHECK(py_no_swiglu.find("use_liger_kernel=True,\n") != std::string::npos);
  CHECK(py_no_swiglu.find("liger_kernel_config={\"swiglu\": False},\n") != std::string::npos);
  const std::string py_fused = peft_with("\"fused_loss\": \"fused_ce\"");
  CHECK(py_fused.find("# the estimate assumes a fused cross-entropy kernel") != std::string::npos);
  CHECK(py_fused.find("use_liger_kernel") == std::string::npos);
}

TEST_CASE("advice: node sizing, RDMA and placement follow the planning rules with the plan's numbers") {
  const json single = plan_of(k7bQlora)["plans"][0]["advice"];
  CHECK(single["rdma"]["needed"] == false);
  CHECK(single["tier"] == "L1");
  CHECK(single["node"]["vcpus_needed"].get<double>() == 16);  // kMinNodeVcpus: at least 16 vCPUs a node
  CHECK(single["checkpoints"].get<std::string>().find("local NVMe") != std::string::npos);

  const json big = plan_of(k405bPretrain)["plans"][0];
  const json& a = big["advice"];
  CHECK(a["tier"] == "L3");
  CHECK(a["rdma"]["needed"] == true);
  CHECK(a["rdma"]["tcp_step_s"].get<double>() > 1.1 * a["rdma"]["step_s"].get<double>());
  CHECK(a["rdma"]["step_s"].get<double>() == doctest::Approx(big["time"]["step_s"].get<double>()));
  CHECK(a["checkpoints"].get<std::string>().find("shared parallel file system") != std::string::npos);
  // Host RAM >= 2x the node's GPU memory (kHostRamPerGpuMemory): 8 GPUs x memory_gb x 2.
  const Accelerator* g = builtin_catalog().find_accelerator(big["accelerator"].get<std::string>());
  CHECK(a["node"]["ram_gb_needed"].get<double>() == doctest::Approx(2 * 8 * g->memory_gb));
}

TEST_CASE("the checklist expects this plan's topology, bus bandwidths, disks and throughput") {
  const json p = plan_of(k70bOnH100)["plans"][0];
  REQUIRE(p["accelerator"] == "h100-sxm5-80gb");
  // The first check runs the smallest slice that holds the layout: one replica, not one GPU, and
  // with ZeRO over data-parallel ranks as many replicas as it takes to fit (tested on its own below).
  const json* tiny = check_of(p, "tiny_run");
  REQUIRE(tiny != nullptr);
  const json& l = p["layout"];
  const int slice = l["tp"].get<int>() * l["cp"].get<int>() * l["pp"].get<int>();
  const std::string replica =
      "TP " + std::to_string(l["tp"].get<int>()) + " x PP " + std::to_string(l["pp"].get<int>());
  if ((*tiny)["title"].get<std::string>().find("data-parallel ranks") != std::string::npos) {
    CHECK(l["zero"].get<int>() > 0);
    CHECK((*tiny)["title"].get<std::string>().find(" data-parallel ranks of " + replica + ": ZeRO-") !=
          std::string::npos);
    CHECK((*tiny)["expected"].get<double>() * 1024 * 1024 * 1024 <= p["memory"]["capacity_bytes"].get<double>());
  } else {
    CHECK((*tiny)["title"].get<std::string>() ==
          (slice == 1 ? std::string("A few steps on one GPU")
                      : "A few steps on " + std::to_string(slice) + " GPUs (one replica: " + replica + ")"));
  }
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

TEST_CASE("the checklist names the vendor's tools: ROCm on AMD, CANN and HCCL Test's algorithm bandwidth on Ascend") {
  const auto checks = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    const EstimateResult r = estimate(*p.scenario, default_calibration());
    std::map<std::string, Check> out;
    for (const Check& c : checklist(*p.scenario, r, builtin_catalog(), default_calibration())) out[c.id] = c;
    return std::pair{out, link_bandwidth(*p.scenario)};
  };
  // MI300X: PyTorch's ROCm build keeps torch.cuda; rocm-smi and rccl-tests, which prints busbw as nccl-tests.
  const auto [amd, amd_bw] = checks(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "mi300x",
      "gpus": 8}, "parallel": {"zero": 3}})");
  CHECK(amd.at("tiny_run").command.find("torch.cuda.max_memory_reserved()") != std::string::npos);
  CHECK(amd.at("tiny_run").expect.find("rocm-smi shows about 0.5-1 GiB more (HIP context)") != std::string::npos);
  CHECK(amd.at("nccl_intra").title == "RCCL all-reduce inside a node");
  CHECK(amd.at("nccl_intra").command.find("# rccl-tests") != std::string::npos);
  CHECK(amd.at("nccl_intra").expected == doctest::Approx(amd_bw.intra_busbw / 1e9));
  CHECK(amd.at("first_steps").command.find("rocm-smi --showuse") != std::string::npos);
  for (const auto& [id, c] : amd) CHECK(c.command.find("nvidia-smi") == std::string::npos);
  // Ascend 910B on 2 nodes of 8: torch_npu's torch.npu, npu-smi, and HCCL Test, which prints the
  // algorithm bandwidth: busbw x n / (2 (n - 1)), 8 / 14 of busbw in a node, 16 / 30 across both.
  const auto [npu, npu_bw] = checks(R"({"model": {"preset": "llama-3.1-8b"}, "cluster": {"accelerator": "ascend-910b",
      "gpus": 16}, "parallel": {"zero": 3}})");
  CHECK(npu.at("tiny_run").command.find("torch.npu.max_memory_reserved()") != std::string::npos);
  CHECK(npu.at("tiny_run").expect.find("npu-smi info shows") != std::string::npos);
  CHECK(npu.at("nccl_intra").wording == "hccl_intra");
  CHECK(npu.at("nccl_intra").command == "mpirun -n 8 ./bin/all_reduce_test -p 8 -b 1G -e 4G -f 2   # HCCL Test (CANN)");
  CHECK(npu.at("nccl_intra").expected == doctest::Approx(npu_bw.intra_busbw / 1e9 * 8 / 14));
  CHECK(npu.at("nccl_inter").wording == "hccl_inter");
  CHECK(npu.at("nccl_inter").expected == doctest::Approx(npu_bw.node_busbw / 1e9 * 16 / 30));
  for (const auto& [id, c] : npu) CHECK(c.command.find("nvidia-smi") == std::string::npos);
}

TEST_CASE("launch artefacts on Ascend set up HCCL, import torch_npu and run Megatron-LM through MindSpeed") {
  const auto artefacts = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    return launch_artifacts(*p.scenario, estimate(*p.scenario, default_calibration()), default_calibration());
  };
  // LoRA on 2 nodes of 8 Ascend 910B: HCCL's variables (CANN environment variable reference), none
  // of NCCL's; torch_npu registers the device that transformers' flash_attention_2 runs on.
  const LaunchArtifacts lora = artefacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora",
      "cluster": {"accelerator": "ascend-910b", "gpus": 16}, "parallel": {"zero": 2}})");
  CHECK(lora.torchrun.rfind("export HCCL_SOCKET_IFNAME=eth0 HCCL_CONNECT_TIMEOUT=1200", 0) == 0);
  CHECK(lora.torchrun.find("NCCL_") == std::string::npos);
  CHECK(lora.peft_python.find("import torch\nimport torch_npu  #") != std::string::npos);
  CHECK(lora.peft_python.find("attn_implementation=\"flash_attention_2\"") != std::string::npos);
  // One node: no collective variables at all.
  CHECK(artefacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora", "cluster": {"accelerator":
      "ascend-910b", "gpus": 8}})")
            .torchrun.rfind("torchrun --standalone", 0) == 0);
  // Pretraining with TP 8 x PP 2 on 32 NPUs: Megatron-LM's arguments, launched through MindSpeed's
  // adaptor (Ascend/MindSpeed, docs/user-guide/getting_started.md).
  const LaunchArtifacts pretrain = artefacts(R"({"model": {"preset": "llama-3.1-70b"}, "seq_len": 4096,
      "global_batch": 64, "cluster": {"accelerator": "ascend-910b", "gpus": 32},
      "parallel": {"tp": 8, "pp": 2, "zero": 1, "sequence_parallel": true}})");
  REQUIRE(pretrain.framework == "megatron");
  CHECK(pretrain.torchrun.find(
            "pretrain_gpt.py   # Megatron-LM with MindSpeed: add 'import mindspeed.megatron_adaptor'") !=
        std::string::npos);
  // The same plans on NVIDIA keep NCCL and plain Megatron-LM.
  const LaunchArtifacts h100 = artefacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "lora",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}, "parallel": {"zero": 2},
      "network": {"inter_node_link": "infiniband-ndr"}})");
  CHECK(h100.torchrun.rfind("export NCCL_IB_HCA=mlx5", 0) == 0);
  CHECK(h100.peft_python.find("torch_npu") == std::string::npos);
}

TEST_CASE(
    "virtual stages with uneven pipelines: the embedding and loss take a block's slot (Llama 3.1 405B, PP 8 x VP 8)") {
  // 126 blocks on 8 stages: 15 + 6 x 16 + 15. With 8 virtual stages a rank, Megatron-LM counts the
  // input embedding and the loss as a block each (--account-for-embedding-in-pipeline-split,
  // --account-for-loss-in-pipeline-split): 128 slots, 2 per virtual stage (Megatron-Bridge's 405B
  // recipe on H100: TP 8, PP 8, VP 8).
  const ScenarioParse parse = parse_scenario(
      R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 8192, "global_batch": 512, "tokens": 1e9,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1024},
      "parallel": {"tp": 8, "pp": 8, "vp": 8, "zero": 1, "sequence_parallel": true, "recompute": "full"}})",
      builtin_catalog());
  REQUIRE_MESSAGE(parse.scenario, parse.error.message);
  const LaunchArtifacts a =
      launch_artifacts(*parse.scenario, estimate(*parse.scenario, default_calibration()), default_calibration());
  const auto f = megatron_flags(a.megatron_args);
  CHECK(f.count("--account-for-embedding-in-pipeline-split") == 1);
  CHECK(f.count("--account-for-loss-in-pipeline-split") == 1);
  CHECK(f.count("--decoder-first-pipeline-num-layers") == 0);
  CHECK(f.at("--num-virtual-stages-per-pipeline-rank") == "8");
  // VP 3 divides neither 16 nor 15 + 1: chunks of unequal length, which Megatron-Core takes as a
  // --pipeline-model-parallel-layout (and then no --num-virtual-stages-per-pipeline-rank, nor the
  // first/last stage flags). The 24 virtual stages in schedule order: rank 0's first chunk (the
  // embedding and 5 of its 15 blocks), ranks 1-6's first chunks (6 of their 16), rank 7's (5 of
  // 15), then the 16 second and third chunks of 5 blocks each, the last with the loss.
  const ScenarioParse uneven = parse_scenario(
      R"({"model": {"preset": "llama-3.1-405b"}, "seq_len": 8192, "global_batch": 512, "tokens": 1e9,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 1024}, "parallel": {"tp": 8, "pp": 8, "vp": 3}})",
      builtin_catalog());
  REQUIRE_MESSAGE(uneven.scenario, uneven.error.message);
  const LaunchArtifacts u =
      launch_artifacts(*uneven.scenario, estimate(*uneven.scenario, default_calibration()), default_calibration());
  const auto g = megatron_flags(u.megatron_args);
  std::string want = "Ettttt";
  for (int i = 0; i < 6; ++i) want += "|tttttt";
  for (int i = 0; i < 16; ++i) want += "|ttttt";
  want += "|tttttL";
  // Quoted: xargs takes the quotes off, and a shell the arguments are pasted into reads no pipes.
  const auto quoted = [](const std::string& text) { return std::string(1, '"').append(text).append(1, '"'); };
  CHECK(g.at("--pipeline-model-parallel-layout") == quoted(want));
  CHECK(std::count(want.begin(), want.end(), 't') == 126);
  // A multi-token prediction module sits on the last stage, before the loss ('m', Megatron-Core's
  // PipelineParallelLayerLayout), and --mtp-num-layers trains it (DeepSeek-V3 report §2.2: one).
  Scenario mtp = *uneven.scenario;
  mtp.framework = FrameworkKind::megatron;
  mtp.techniques.mtp_layers = 1;
  const auto h =
      megatron_flags(launch_artifacts(mtp, estimate(mtp, default_calibration()), default_calibration()).megatron_args);
  CHECK(h.at("--mtp-num-layers") == "1");
  const std::string with_mtp = want.substr(0, want.size() - 1) + std::string("mL");
  CHECK(h.at("--pipeline-model-parallel-layout") == quoted(with_mtp));
  CHECK(g.count("--mtp-num-layers") == 0);
  CHECK(g.count("--num-virtual-stages-per-pipeline-rank") == 0);
  CHECK(g.count("--decoder-first-pipeline-num-layers") == 0);
  CHECK(g.count("--account-for-embedding-in-pipeline-split") == 0);
}

TEST_CASE("multi-node data advice says when the nodes' NVMe size is unknown instead of 'does not fit'") {
  // A bare accelerator cluster publishes no local NVMe size: an 8 GB dataset may well fit.
  const ScenarioParse parse = parse_scenario(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full",
      "tokens": 2e9, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 16}})",
                                             builtin_catalog());
  REQUIRE(parse.scenario);
  const Scenario& s = *parse.scenario;
  REQUIRE(s.cluster.node_nvme_tb == 0);
  const PlanAdvice a = advise(s, estimate(s, default_calibration()), builtin_catalog(), default_calibration());
  CHECK(a.data_location.find("whose size the offering does not publish") != std::string::npos);
  CHECK(a.data_location.find("does not fit") == std::string::npos);
}

TEST_CASE("the first checklist run shards ZeRO over enough ranks to fit, and quotes that slice's peak") {
  auto parse = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    return *p.scenario;
  };
  // Llama 3.1 70B full fine-tune, TP 4 x DP 2 with ZeRO-3 on 8 B200s (the README's plan). One replica (4 GPUs) shards
  // nothing: its weights, gradients and Adam state are 70.6 B x 16 B / 4 = 282 GB a GPU, above 180 GB;
  // the whole node (2 ranks) halves them and fits, so the run takes all 8 GPUs and quotes the plan's peak.
  const Scenario s = parse(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
      "global_batch": 256, "framework": "megatron", "cluster": {"accelerator": "b200-sxm-180gb", "gpus": 8},
      "parallel": {"tp": 4, "zero": 3, "recompute": "none", "sequence_parallel": true}})");
  const EstimateResult r = estimate(s, default_calibration());
  REQUIRE(r.memory.fits);
  const Check c = checklist(s, r, builtin_catalog(), default_calibration()).front();
  CHECK(c.id == "tiny_run");
  CHECK(c.wording == "tiny_run_sharded");
  CHECK(c.title == "A few steps on 8 GPUs (2 data-parallel ranks of TP 4 x PP 1: ZeRO-3 shards over them)");
  CHECK(c.expected == doctest::Approx(r.memory.per_gpu.total() / (1024.0 * 1024 * 1024)));
  // A full fine-tune of Llama 3.1 8B with ZeRO-1 over 8 single-GPU replicas: one GPU alone holds
  // 8.03 B x (2 + 2 + 12) B = 128 GB of weights, gradients and Adam state, above an H100's 80 GB;
  // the Adam state sharded over 8 ranks leaves 8.03 B x (4 + 12/8) = 44 GB: the run takes the node.
  const Scenario z1 = parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "seq_len": 2048,
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1, "recompute": "full"}})");
  const EstimateResult rz = estimate(z1, default_calibration());
  REQUIRE(rz.memory.fits);
  CHECK(checklist(z1, rz, builtin_catalog(), default_calibration()).front().wording == "tiny_run_sharded");
  // Without ZeRO a replica holds what every GPU holds: one replica, the plan's own peak.
  const Scenario z0 = parse(R"({"model": {"preset": "llama-3.1-70b"}, "method": "full", "seq_len": 4096,
      "cluster": {"accelerator": "b200-sxm-180gb", "gpus": 16}, "parallel": {"tp": 8, "pp": 2, "zero": 0}})");
  const EstimateResult r0 = estimate(z0, default_calibration());
  const Check c0 = checklist(z0, r0, builtin_catalog(), default_calibration()).front();
  CHECK(c0.wording == "tiny_run_replica");
  CHECK(c0.title == "A few steps on 16 GPUs (one replica: TP 8 x PP 2)");
}

TEST_CASE("a scenario that names torchtitan is launched as torchtitan where torchtitan runs its layout") {
  auto artifacts = [](const char* text) {
    const ScenarioParse p = parse_scenario(text, builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    return launch_artifacts(*p.scenario, estimate(*p.scenario, default_calibration()), default_calibration());
  };
  // ZeRO-2 data parallelism: the planner's rule gives DeepSpeed, but the estimate counted torchtitan's
  // FSDP2 buffers, so the artefacts launch torchtitan and leave the DeepSpeed config out.
  const LaunchArtifacts t =
      artifacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "framework": "torchtitan",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 2}})");
  CHECK(t.framework == "torchtitan");
  CHECK(t.torchrun.find("-m torchtitan.train --job.config_file torchtitan.toml") != std::string::npos);
  CHECK(t.deepspeed_json.empty());
  CHECK_FALSE(t.torchtitan_toml.empty());
  // Unnamed, the same layout keeps the planner's rule.
  const LaunchArtifacts d = artifacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 2}})");
  CHECK(d.framework == "deepspeed");
  CHECK_FALSE(d.deepspeed_json.empty());
  // Named Megatron on a data-parallel layout Megatron-LM runs (ZeRO-1: its distributed optimizer).
  const LaunchArtifacts m =
      artifacts(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "framework": "megatron",
      "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8}, "parallel": {"zero": 1}})");
  CHECK(m.framework == "megatron");
  CHECK(m.torchrun.find("pretrain_gpt.py") != std::string::npos);
  CHECK(m.deepspeed_json.empty());
}
