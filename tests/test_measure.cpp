// Logs -> calibration block (llmplan/measure.hpp). Each sample follows the format its tool prints
// (the format strings of transformers' Trainer, torchtune's StdoutLogger and log_memory_stats,
// Megatron-LM's training_log and report_memory, DeepSpeed's engine and see_memory_usage,
// torchtitan's metrics logger, nccl-tests and fio); the expected figures are read off by hand.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "llmplan/catalog.hpp"
#include "llmplan/measure.hpp"
#include "llmplan/units.hpp"

using namespace llmplan;
using json = nlohmann::json;

namespace {

json block_of(const char* log, const Scenario* context = nullptr) {
  const LogParse p = parse_log(log, context);
  REQUIRE_MESSAGE(p.ok, p.error);
  return json::parse(calibration_block(p).dump());
}

}  // namespace

TEST_SUITE("logs to measurements") {
  TEST_CASE("Hugging Face Trainer: the step time is 1 / train_steps_per_second") {
    const char* log = R"({'loss': 1.4123, 'grad_norm': 0.8123, 'learning_rate': 1.8e-05, 'epoch': 0.1}
{'loss': 1.2011, 'grad_norm': 0.7011, 'learning_rate': 1.2e-05, 'epoch': 0.5}
{'train_runtime': 3601.2, 'train_samples_per_second': 35.54, 'train_steps_per_second': 0.25, 'train_loss': 1.0921, 'epoch': 1.0}
)";
    CHECK(block_of(log)["step_s"].get<double>() == doctest::Approx(4.0));  // 1 / 0.25
  }

  TEST_CASE("torchtune: tokens per second per GPU after the first step, and the allocated peak in GiB") {
    const char* log = R"(INFO:torchtune.utils._logging:Memory stats after model init:
	GPU peak memory allocation: 16.54 GiB
	GPU peak memory reserved: 16.62 GiB
	GPU peak memory active: 16.54 GiB
Step 1 | loss:2.1011 lr:2e-05 tokens_per_second_per_gpu:812.3 peak_memory_active:22.10 peak_memory_alloc:22.10 peak_memory_reserved:24.00
Step 2 | loss:1.9011 lr:2e-05 tokens_per_second_per_gpu:2610.0 peak_memory_active:23.40 peak_memory_alloc:23.40 peak_memory_reserved:25.10
Step 3 | loss:1.8011 lr:2e-05 tokens_per_second_per_gpu:2650.0 peak_memory_active:23.41 peak_memory_alloc:23.41 peak_memory_reserved:25.10
Step 4 | loss:1.7011 lr:2e-05 tokens_per_second_per_gpu:2630.0 peak_memory_active:23.40 peak_memory_alloc:23.40 peak_memory_reserved:25.10
)";
    const json b = block_of(log);
    CHECK(b["tokens_per_s_per_gpu"].get<double>() == doctest::Approx(2630.0));  // median of 2610, 2650, 2630
    CHECK(b["peak_memory_gib"].get<double>() == doctest::Approx(23.41));
    CHECK_FALSE(b.contains("peak_memory_from"));  // allocated, the default
  }

  TEST_CASE("a figure outside its calibration field's range is refused, naming the field and the range") {
    // calibration.tokens_per_s_per_gpu takes 0.001..1e7 and calibration.peak_memory_gib 0.001..1e5
    // (docs/scenario.md): a log that reads 0 or 1e308 is no measurement a scenario would take.
    LogParse p = parse_log("Step 2 | loss:1.9 tokens_per_second_per_gpu:1e308 peak_memory_alloc:20\n", nullptr);
    CHECK_FALSE(p.ok);
    CHECK(p.error.find("calibration.tokens_per_s_per_gpu") != std::string::npos);
    CHECK(p.error.find("0.001..10000000") != std::string::npos);
    p = parse_log("Step 2 | loss:1.9 tokens_per_second_per_gpu:2600 peak_memory_alloc:0\n", nullptr);
    CHECK_FALSE(p.ok);
    CHECK(p.error.find("calibration.peak_memory_gib") != std::string::npos);
  }

  TEST_CASE("Megatron-LM: elapsed time per iteration and the max allocated memory in MB") {
    const char* log =
        R"( [2025-01-01 12:00:00] iteration       10/   10000 | consumed samples:         1280 | elapsed time per iteration (ms): 9105.3 | throughput per GPU (TFLOP/s/GPU): 181.0 | learning rate: 1.500000E-04 | global batch size:   128 | lm loss: 8.812E+00 | loss scale: 1.0 | grad norm: 2.234 | number of skipped iterations:   0 | number of nan iterations:   0 |
[Rank 0] (after 10 iterations) memory (MB) | allocated: 18012.6 | max allocated: 52874.3 | reserved: 60030.0 | max reserved: 60030.0
 [2025-01-01 12:01:32] iteration       20/   10000 | consumed samples:         2560 | elapsed time per iteration (ms): 4105.3 | throughput per GPU (TFLOP/s/GPU): 402.1 | learning rate: 1.500000E-04 | global batch size:   128 | lm loss: 7.812E+00 | loss scale: 1.0 | grad norm: 1.234 | number of skipped iterations:   0 | number of nan iterations:   0 |
 [2025-01-01 12:02:13] iteration       30/   10000 | consumed samples:         3840 | elapsed time per iteration (ms): 4095.1 | throughput per GPU (TFLOP/s/GPU): 403.1 | learning rate: 1.500000E-04 | global batch size:   128 | lm loss: 7.512E+00 | loss scale: 1.0 | grad norm: 1.034 | number of skipped iterations:   0 | number of nan iterations:   0 |
)";
    const json b = block_of(log);
    CHECK(b["step_s"].get<double>() == doctest::Approx(4.1002));                   // median of 4105.3 and 4095.1 ms
    CHECK(b["peak_memory_gib"].get<double>() == doctest::Approx(52874.3 / 1024));  // MB = 2^20 B
  }

  TEST_CASE("DeepSpeed: MaxMemAllocated (GiB), and samples/sec only with the scenario") {
    const char* log =
        R"([2025-01-01 12:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=0, lr=[2e-05], mom=[(0.9, 0.999)]
[2025-01-01 12:00:00,001] [INFO] [timer.py:260:stop] epoch=0/micro_step=40/global_step=10, RunningAvgSamplesPerSec=31.2, CurrSamplesPerSec=31.9, MemAllocated=18.1GB, MaxMemAllocated=41.3GB
 iteration 10 | samples/sec: 30.0 | TFLOPs: 150.3 |
 iteration 20 | samples/sec: 32.0 | TFLOPs: 160.3 |
 iteration 30 | samples/sec: 34.0 | TFLOPs: 170.3 |
)";
    const json b = block_of(log);
    CHECK(b["peak_memory_gib"].get<double>() == doctest::Approx(41.3));
    CHECK_FALSE(b.contains("tokens_per_s_per_gpu"));
    // With 8 GPUs at 4096 tokens: median(32, 34) = 33 samples/s x 4096 / 8 = 16,896 tokens/s per GPU.
    Scenario s;
    s.seq_len = 4096;
    s.cluster.gpus = 8;
    CHECK(block_of(log, &s)["tokens_per_s_per_gpu"].get<double>() == doctest::Approx(16896));
    // DeepSpeed alone prints only its ThroughputTimer line; CurrSamplesPerSec counts the global batch.
    const char* timer =
        R"(epoch=0/micro_step=40/global_step=10, RunningAvgSamplesPerSec=31.2, CurrSamplesPerSec=31.9, MaxMemAllocated=41.3GB
epoch=0/micro_step=80/global_step=20, RunningAvgSamplesPerSec=31.5, CurrSamplesPerSec=32.0, MaxMemAllocated=41.3GB
epoch=0/micro_step=120/global_step=30, RunningAvgSamplesPerSec=31.8, CurrSamplesPerSec=34.0, MaxMemAllocated=41.3GB
)";
    // median(32.0, 34.0) = 33 samples/s x 4096 / 8 = 16,896 tokens/s per GPU.
    CHECK(block_of(timer, &s)["tokens_per_s_per_gpu"].get<double>() == doctest::Approx(16896));
    CHECK(parse_log("epoch=0/micro_step=4/global_step=1, CurrSamplesPerSec=31.9\n").error.find("give the scenario") !=
          std::string::npos);
  }

  TEST_CASE("torchtitan: tps and mfu per step, memory as the reserved peak") {
    const char* log =
        R"([rank0]:[titan] 2025-06-13 10:00:01,001 - root - INFO - step:  1  loss: 12.2512  grad_norm:  9.1234  memory: 48.10GiB(50.60%)  tps: 1,173  tflops: 67.94  mfu: 6.87%
[rank0]:[titan] 2025-06-13 10:00:03,123 - root - INFO - step:  2  loss: 11.9822  grad_norm:  4.1234  memory: 55.34GiB(58.22%)  tps: 6,412  tflops: 371.36  mfu: 37.55%
[rank0]:[titan] 2025-06-13 10:00:05,123 - root - INFO - step:  3  loss: 10.9822  grad_norm:  3.1234  memory: 55.34GiB(58.22%)  tps: 6,520  tflops: 377.61  mfu: 38.18%
[rank0]:[titan] 2025-06-13 10:00:07,123 - root - INFO - step:  4  loss: 10.1822  grad_norm:  2.1234  memory: 55.36GiB(58.24%)  tps: 6,498  tflops: 376.34  mfu: 38.05%
)";
    const json b = block_of(log);
    CHECK(b["tokens_per_s_per_gpu"].get<double>() == doctest::Approx(6498));  // median of 6412, 6520, 6498
    CHECK_FALSE(b.contains("mfu"));                                           // one throughput: tokens/s first
    CHECK(b["peak_memory_gib"].get<double>() == doctest::Approx(55.36));
    CHECK(b["peak_memory_from"] == "reserved");
    const LogParse p = parse_log(log);
    bool mfu = false;
    for (const LogFinding& f : p.found) mfu |= f.field == "calibration.mfu" && std::abs(f.value - 0.3805) < 1e-9;
    CHECK(mfu);
  }

  TEST_CASE("nccl-tests all_reduce_perf: busbw at the largest size, intra- or inter-node by the hosts") {
    const char* one_node =
        R"(# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  12345 on     node-a device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  12345 on     node-a device  1 [0x2a] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           8             2     float     sum      -1    18.32    0.00    0.00      0    17.91    0.00    0.00      0
  4294967296    1073741824     float     sum      -1  18712.3  229.53  401.67      0  18650.1  230.29  403.01      0
  8589934592    2147483648     float     sum      -1  37250.1  230.59  403.53      0  37120.3  231.40  404.95      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 189.123
#
)";
    CHECK(block_of(one_node)["busbw_gb_per_s"]["intra"].get<double>() == doctest::Approx(403.53));
    std::string two_nodes = one_node;
    two_nodes.replace(two_nodes.find("on     node-a device  1"), 23, "on     node-b device  1");
    const json b = block_of(two_nodes.c_str());
    CHECK(b["busbw_gb_per_s"]["inter"].get<double>() == doctest::Approx(403.53));
    CHECK_FALSE(b["busbw_gb_per_s"].contains("intra"));
  }

  TEST_CASE("fio: the READ summary's bandwidth in GB/s") {
    const char* log = R"(seqread: (groupid=0, jobs=4): err= 0: pid=4242: Mon Jan  1 12:00:00 2025
  read: IOPS=16.4k, BW=2048MiB/s (2147MB/s)(20.0GiB/10001msec)
Run status group 0 (all jobs):
   READ: bw=2048MiB/s (2147MB/s), 2048MiB/s-2048MiB/s (2147MB/s-2147MB/s), io=20.0GiB (21.5GB), run=10001-10001msec
)";
    CHECK(block_of(log)["data_read_gb_per_s"].get<double>() == doctest::Approx(2048.0 * 1048576 / 1e9));
  }

  TEST_CASE("a printed torch.cuda.max_memory_allocated(): bytes when bare, else its unit") {
    CHECK(block_of("torch.cuda.max_memory_allocated(): 44291850240\n")["peak_memory_gib"].get<double>() ==
          doctest::Approx(44291850240.0 / kGiB));
    CHECK(block_of("max_memory_allocated = 41.25 GiB\n")["peak_memory_gib"].get<double>() == doctest::Approx(41.25));
  }

  TEST_CASE("an unrecognised log is an error listing what was looked for, and the JSON says so") {
    const LogParse p = parse_log("hello\nepoch 1 done\n");
    CHECK_FALSE(p.ok);
    CHECK(p.error.find("no measurement recognised; looked for Hugging Face Trainer") != std::string::npos);
    CHECK(p.error.find("nccl-tests all_reduce_perf") != std::string::npos);
    const json e = json::parse(parse_log_json("hello"));
    CHECK(e["error"]["field"] == "log");
    // samples/s alone needs the scenario.
    CHECK(parse_log(" iteration 10 | samples/sec: 30.0 |\n").error.find("give the scenario") != std::string::npos);
  }

  TEST_CASE("the block a log gives calibrates a scenario") {
    const char* log =
        "[rank0]:[titan] step:  1  loss: 12.2  memory: 40.00GiB(50%)  tps: 900  mfu: 5%\n"
        "[rank0]:[titan] step:  2  loss: 11.2  memory: 41.00GiB(51%)  tps: 4,000  mfu: 25%\n";
    json doc = json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "method": "full", "framework": "torchtitan",
        "seq_len": 8192, "micro_batch": 1, "cluster": {"accelerator": "h100-sxm5-80gb", "gpus": 8},
        "parallel": {"zero": 3, "recompute": "full"}})");
    doc["calibration"] = block_of(log);
    const ScenarioParse p = parse_scenario(doc.dump(), builtin_catalog());
    REQUIRE_MESSAGE(p.scenario, p.error.message);
    CHECK(p.scenario->factors.throughput);
    CHECK(p.scenario->factors.memory_measured);
  }
}
