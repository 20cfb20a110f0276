// advice.hpp: what a chosen plan needs around its GPUs: per-node CPU, RAM and NVMe sizing,
// whether RDMA is needed and why, where data and checkpoints should live, the launch artefacts
// for the frameworks that run the layout, and the post-provisioning checklist with the figures
// this plan expects.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "llmplan/estimate.hpp"
#include "llmplan/scenario.hpp"
#include "llmplan/wording.hpp"

namespace llmplan {

struct Catalog;

// Planning rules of thumb for a training node (no single public source): at least 16 vCPUs
// for data loading and the launcher, host RAM at least twice the node's GPU memory (model loading,
// pinned data-loader buffers and checkpoint saves pass through it), and a local NVMe of at least 1 TB for the staged
// data set.
inline constexpr double kMinNodeVcpus = 16;
inline constexpr double kHostRamPerGpuMemory = 2.0;
inline constexpr double kMinLocalNvmeTb = 1.0;

struct NodeSizing {
  double vcpus_needed = 0, vcpus = 0;  // per node; `vcpus` 0 when the offering does not say
  double ram_gb_needed = 0, ram_gb = 0;
  double nvme_tb_needed = 0, nvme_tb = 0;
};

struct RdmaAdvice {
  bool needed = false;          // several nodes whose traffic a 25 Gb/s TCP network would expose
  double inter_node_bytes = 0;  // per GPU per step across nodes (this plan)
  double step_s = 0;            // this plan's step
  double tcp_step_s = 0;        // the same plan over 25 Gb/s Ethernet (kernel TCP)
};

// Where the training data should sit: staged on each node's local NVMe, or on a parallel file
// system when it does not fit there (or the offering does not publish its NVMe size).
struct DataPlacement {
  bool local_nvme = true;
  bool nvme_size_known = true;
  double dataset_bytes = 0;
  double staging_h = 0;         // copying it from object storage before the first step
  double read_bytes_per_s = 0;  // what the job reads, all GPUs together
  std::string parallel_fs;      // the provider's parallel file system in the catalog, or empty
};

// Where checkpoints should go: one node keeps them on local NVMe with copies in object storage;
// several nodes need a shared parallel file system.
struct CheckpointPlacement {
  bool local_nvme = true;
  double bytes = 0;
  double interval_h = 0;
  double write_s = 0;
  int kept = 0;
  std::string parallel_fs;
  // Where the scenario writes checkpoints to another tier than parallel_fs (local NVMe by default):
  // that tier, and on parallel_fs as the catalog sizes it the write, the interval and the run's
  // hours (0: not estimated), beside the run's hours as estimated.
  std::string tier;
  double fs_write_s = 0, fs_interval_h = 0, fs_total_hours = 0, total_hours = 0;
};

struct PlanAdvice {
  Tier tier = Tier::l1;
  Warnings warnings;
  NodeSizing node;
  RdmaAdvice rdma;
  DataPlacement data;
  CheckpointPlacement checkpoints;
  // The same advice in English sentences with the numbers (the CLI, the planner's JSON); the app
  // words them from the fields above in its language.
  std::string rdma_reason;
  std::string data_location;
  std::string checkpoint_location;
};

// `cal` re-estimates the plan over kernel TCP (RdmaAdvice::tcp_step_s).
PlanAdvice advise(const Scenario& s, const EstimateResult& r, const Catalog& catalog, const Calibration& cal);

// One post-provisioning check: the command to run and the figure this plan expects.
struct Check {
  std::string id;  // stable: topology, nccl_intra, nccl_inter, ib_write_bw, fio_data_read, ...
  std::string title;
  std::string command;
  std::string expect;   // what to see, with the pass threshold
  double expected = 0;  // the figure, in `unit`
  std::string unit;
  // How the texts above were worded: a key of kCheckWordings and the {name} values filled into its
  // templates, so that the app can word the same figures in its own language.
  std::string wording;
  std::vector<std::pair<std::string, std::string>> args;
};

// The English templates of the checklist's texts; {name} is a value of Check::args.
struct CheckWording {
  const char* key;
  const char* title;
  const char* command;
  const char* expect;
};
extern const CheckWording kCheckWordings[];
extern const size_t kCheckWordingCount;

// A planning rule of thumb: a link or disk passes at 80 % of what the plan expects; below that,
// look for a misconfiguration (wrong NIC, PCIe link width, disk type) before training.
inline constexpr double kCheckPassFraction = 0.8;

std::vector<Check> checklist(const Scenario& s, const EstimateResult& r, const Catalog& catalog,
                             const Calibration& cal);

// Launch artefacts for the plan (text a user copies); empty when they do not apply.
struct LaunchArtifacts {
  std::string framework;  // deepspeed | fsdp | megatron | torchtitan: the one the scenario names where it runs the
                          // layout (torchtitan, megatron), else the planner's rule (layouts.hpp); none if none does
  std::string torchrun;   // the command on each node
  std::string deepspeed_json;   // ZeRO stage, offload, precision, micro/global batch, accumulation
  std::string accelerate_yaml;  // accelerate config with FSDP (or DeepSpeed) settings
  std::string megatron_args;    // Megatron-LM pretrain_gpt.py arguments
  std::string torchtitan_toml;  // torchtitan job config (FSDP2, TP, PP, CP, EP) when torchtitan runs the layout
  std::string peft_python;      // LoRA / QLoRA setup (PEFT and bitsandbytes) for PEFT methods
};

// `cal` gives the bucket sizes the memory estimate assumed, so the configs match it.
LaunchArtifacts launch_artifacts(const Scenario& s, const EstimateResult& r, const Calibration& cal);

// Megatron-Core's --pipeline-model-parallel-layout of pp x vp virtual stages over `split` with `mtp`
// multi-token prediction modules on the last: what the launch artefacts write, and import reads back.
std::string megatron_pipeline_layout(const PipelineSplit& split, int pp, int vp, int mtp);

}  // namespace llmplan
