// advice.cpp: node sizing, the RDMA question, data and checkpoint placement, and the
// post-provisioning checklist for a plan (the rules of thumb are stated in advice.hpp).
//
// [SECTION] Node sizing and placement
// [SECTION] RDMA: the same plan over kernel TCP
// [SECTION] Post-provisioning checklist
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <vector>

#include "llmplan/advice.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/memory.hpp"
#include "llmplan/model.hpp"
#include "llmplan/performance.hpp"
#include "llmplan/units.hpp"

namespace llmplan {

namespace {

int gpus_per_node(const Scenario& s) { return std::min(s.cluster.gpus, s.cluster.gpus_per_node); }

// The provider's first parallel file system in the catalog, for "put it here" advice.
const StorageTier* provider_parallel_fs(const Scenario& s, const Catalog& catalog) {
  const Instance* in = catalog.find_instance(s.cluster.instance);
  if (!in) return nullptr;
  for (const StorageTier& t : catalog.storage)
    if (t.kind == "parallel_fs" && t.provider == in->provider) return &t;
  return nullptr;
}

//-----------------------------------------------------------------------------
// [SECTION] Node sizing and placement
//-----------------------------------------------------------------------------

NodeSizing size_node(const Scenario& s, const EstimateResult& r) {
  const Cluster& c = s.cluster;
  NodeSizing n;
  n.vcpus = c.node_vcpus;
  n.ram_gb = c.node_ram_gb;
  n.nvme_tb = c.node_nvme_tb;
  n.vcpus_needed = std::max(kMinNodeVcpus, r.io.input_cores_per_node);
  n.ram_gb_needed =
      kHostRamPerGpuMemory * gpus_per_node(s) * c.gpu_memory_gb + r.memory.cpu_offload_bytes_per_node / kGB;
  // Each node keeps a full copy of the data set, so every read is local (a planning rule of
  // thumb for data sets that fit), and, on one node, the kept checkpoints.
  double local = r.io.dataset_bytes + r.memory.nvme_offload_bytes_per_node;
  if (c.nodes() == 1) local += r.reliability.checkpoint_bytes * s.storage.checkpoints_kept;
  n.nvme_tb_needed = std::max(kMinLocalNvmeTb, local / 1e12);
  return n;
}

DataPlacement place_data(const Scenario& s, const EstimateResult& r, const NodeSizing& n, const Catalog& catalog) {
  DataPlacement d;
  d.dataset_bytes = r.io.dataset_bytes;
  d.staging_h = r.io.staging_h;
  d.read_bytes_per_s = r.io.data_bytes_per_s;
  d.local_nvme = s.cluster.nodes() == 1 || (n.nvme_tb > 0 && r.io.dataset_bytes <= 0.7 * n.nvme_tb * 1e12);
  d.nvme_size_known = n.nvme_tb > 0;
  if (const StorageTier* fs = provider_parallel_fs(s, catalog)) d.parallel_fs = fs->id;
  return d;
}

std::string data_location(const DataPlacement& d) {
  const std::string need = format_number("%.3g MB/s", d.read_bytes_per_s / 1e6);
  const std::string size = format_bytes(d.dataset_bytes);
  if (d.local_nvme) {
    std::string text =
        "Stage the " + size + " data set from object storage (s5cmd, parallel) to each node's local NVMe";
    if (d.staging_h > 0) text += " (" + format_duration(d.staging_h * 3600) + " before the first step)";
    return text + " and read it there: the GPUs read " + need +
           " in all; a cloud block disk gives 100-200 MB/s and random reads stall it.";
  }
  // An unpublished NVMe size says nothing of whether the data fits: say so rather than "does not fit".
  const std::string why = d.nvme_size_known ? "does not fit on the nodes' local NVMe"
                                            : "may not fit on the nodes' local NVMe, whose size the offering does "
                                              "not publish (check it: lsblk)";
  return "The " + size + " data set " + why + ": put it on a parallel file system" +
         (d.parallel_fs.empty() ? std::string(" (Lustre, GPFS, CPFS)") : " (" + d.parallel_fs + ")") +
         ", preloaded from object storage before training; " + "the job reads " + need + ".";
}

CheckpointPlacement place_checkpoints(const Scenario& s, const EstimateResult& r, const Catalog& catalog,
                                      const Calibration& cal) {
  const ReliabilityResult& rel = r.reliability;
  CheckpointPlacement c;
  c.local_nvme = s.cluster.nodes() == 1;
  c.bytes = rel.checkpoint_bytes;
  c.interval_h = rel.checkpoint_interval_h;
  c.write_s = rel.checkpoint_write_s;
  c.kept = s.storage.checkpoints_kept;
  const StorageTier* fs = c.local_nvme ? nullptr : provider_parallel_fs(s, catalog);
  if (!fs) return c;
  c.parallel_fs = fs->id;
  if (s.storage.checkpoint_kind == "parallel_fs" || s.storage.checkpoint_kind == "file") return c;
  // The figures write to the scenario's tier; the advised file system may write far slower (FSx for
  // Lustre: 200 MB/s per TiB), which stretches the interval and the run: say by how much.
  Scenario t = s;
  set_checkpoint_tier(t, *fs);
  const EstimateResult e = estimate(t, cal);
  c.tier = s.storage.checkpoint_tier;
  c.fs_write_s = e.reliability.checkpoint_write_s;
  c.fs_interval_h = e.reliability.checkpoint_interval_h;
  c.fs_total_hours = e.reliability.total_hours;
  c.total_hours = rel.total_hours;
  return c;
}

std::string checkpoint_location(const CheckpointPlacement& c) {
  const std::string each = format_bytes(c.bytes) + " each, every " + format_duration(c.interval_h * 3600) + ", " +
                           format_duration(c.write_s) + " to write";
  if (c.local_nvme)
    return "Write checkpoints (" + each + ") to local NVMe, keep the last " + std::to_string(c.kept) +
           ", and copy each to object storage: a released or failed instance loses its local disk.";
  std::string out = "Write checkpoints (" + each + ") to a shared parallel file system" +
                    (c.parallel_fs.empty() ? std::string() : " (" + c.parallel_fs + ")") +
                    ": after a failure every node must restart from the same checkpoint, so never only to local "
                    "disks; archive to object storage.";
  if (c.fs_write_s <= 0) return out;
  out += " The figures write to " + c.tier + "; on " + c.parallel_fs + " as the catalog sizes it a checkpoint takes " +
         format_duration(c.fs_write_s) + " (every " + format_duration(c.fs_interval_h * 3600) + ")";
  if (c.total_hours > 0)
    out += " and the run " + format_duration(c.fs_total_hours * 3600) + " instead of " +
           format_duration(c.total_hours * 3600);
  return out + ": size it for throughput, or write locally and copy out in the background.";
}

//-----------------------------------------------------------------------------
// [SECTION] RDMA: the same plan over kernel TCP
//-----------------------------------------------------------------------------

// Re-estimates the plan with a 25 Gb/s Ethernet scale-out network (the common cloud default):
// the difference in step time is what RDMA buys.
RdmaAdvice rdma_advice(const Scenario& s, const EstimateResult& r, const Catalog& catalog, const Calibration& cal) {
  RdmaAdvice a;
  a.step_s = r.time.step_s;
  a.inter_node_bytes = r.time.comm.inter_bytes();
  a.tcp_step_s = r.time.step_s;
  const Interconnect* tcp = catalog.find_interconnect("ethernet-25g");
  if (s.cluster.nodes() > 1 && tcp) {
    Scenario t = s;
    set_inter_node_link(*tcp, 1, t.network);
    a.tcp_step_s = estimate(t, cal).time.step_s;
  }
  a.needed = s.cluster.nodes() > 1 && a.tcp_step_s > 1.1 * a.step_s;
  return a;
}

std::string rdma_reason(const Scenario& s, const RdmaAdvice& a) {
  if (s.cluster.nodes() == 1)
    return "One node: tensor, pipeline and data-parallel traffic stays on the node's " +
           format_number("%.0f GB/s per GPU", s.cluster.intra_node_gb_per_s) + " link; no RDMA network is needed.";
  const std::string traffic = "each GPU sends " + format_bytes(a.inter_node_bytes) + " across nodes per step";
  const double slower = a.tcp_step_s / a.step_s;
  if (a.needed)
    return "RDMA is needed: " + traffic + "; over 25 Gb/s kernel TCP a step would take " +
           format_duration(a.tcp_step_s) + " instead of " + format_duration(a.step_s) +
           format_number(" (%.1fx slower).", slower) +
           (s.network.rdma ? "" : " This offering has no RDMA fabric: prefer one that does.");
  return "RDMA is optional: " + traffic + ", which 25 Gb/s TCP would carry in " + format_duration(a.tcp_step_s) +
         " per step instead of " + format_duration(a.step_s) + format_number(" (%.2fx).", slower);
}

}  // namespace

PlanAdvice advise(const Scenario& s, const EstimateResult& r, const Catalog& catalog, const Calibration& cal) {
  PlanAdvice a;
  a.tier = r.tier;
  a.warnings = r.warnings;
  a.node = size_node(s, r);
  a.rdma = rdma_advice(s, r, catalog, cal);
  a.rdma_reason = rdma_reason(s, a.rdma);
  a.data = place_data(s, r, a.node, catalog);
  a.checkpoints = place_checkpoints(s, r, catalog, cal);
  a.data_location = data_location(a.data);
  a.checkpoint_location = checkpoint_location(a.checkpoints);
  return a;
}

//-----------------------------------------------------------------------------
// [SECTION] Post-provisioning checklist
//-----------------------------------------------------------------------------

// The English wording of every check; the app holds the same keys in its other languages
// (web/i18n.cpp). {name} is filled from Check::args.
const CheckWording kCheckWordings[] = {
    {"tiny_run_one", "A few steps on one GPU",
     "run 10 steps at micro-batch {micro_batch} and print {torch}.max_memory_reserved()",
     "peak memory about {peak} per GPU of {capacity}; {smi} shows about 0.5-1 GiB more ({runtime} context)"},
    {"tiny_run_replica", "A few steps on {gpus} GPUs (one replica: {replica})",
     "run 10 steps at micro-batch {micro_batch} and print {torch}.max_memory_reserved()",
     "peak memory about {peak} per GPU of {capacity}; {smi} shows about 0.5-1 GiB more ({runtime} context)"},
    {"tiny_run_sharded",
     "A few steps on {gpus} GPUs ({ranks} data-parallel ranks of {replica}: ZeRO-{zero} shards over them)",
     "run 10 steps at micro-batch {micro_batch} and print {torch}.max_memory_reserved()",
     "peak memory about {peak} per GPU of {capacity} (fewer ranks shard too little to fit); {smi} shows about "
     "0.5-1 GiB more ({runtime} context)"},
    {"topology_amd", "GPU topology", "rocm-smi --showtopo", "XGMI between every pair of the {gpus} GPUs"},
    {"topology_huawei", "NPU topology", "npu-smi info -t topo", "HCCS between every pair of the {gpus} NPUs"},
    {"topology_nvlink", "GPU topology", "nvidia-smi topo -m",
     "NV{links} between every pair of the {gpus} GPUs ({gbps} GB/s per GPU per direction); PIX/PXB/SYS instead "
     "means the NVLink or NVSwitch fabric is down"},
    {"topology_pcie", "GPU topology", "nvidia-smi topo -m",
     "PIX, PXB, NODE or SYS between the GPUs: PCIe only, no NVLink ({gpus} GPUs); GPUs under one PCIe switch (PIX) "
     "talk fastest"},
    {"nccl_intra", "{ccl} all-reduce inside a node",
     "all_reduce_perf -b 1G -e 4G -f 2 -g {gpus}   # {ccl_tests}, one process",
     "busbw at 4 GB about {busbw} GB/s; below {pass} GB/s (80 %) the intra-node estimate is optimistic"},
    {"nccl_inter", "{ccl} all-reduce across nodes",
     "mpirun -np {ranks} -N {gpus} all_reduce_perf -b 1G -e 4G -f 2 -g 1   # {ccl_tests}",
     "busbw at 4 GB about {busbw} GB/s (all NICs of each node, {gbits} Gb/s, capped by the scale-up link); below "
     "{pass} GB/s (80 %) data-parallel sync takes longer than planned"},
    // CANN's HCCL Test reports the algorithm bandwidth (data size / time), busbw x n / (2 (n - 1)).
    {"hccl_intra", "HCCL all-reduce inside a node",
     "mpirun -n {gpus} ./bin/all_reduce_test -p {gpus} -b 1G -e 4G -f 2   # HCCL Test (CANN)",
     "alg_bandwidth at 4 GB about {algbw} GB/s (busbw {busbw} GB/s over {gpus} NPUs); below {pass} GB/s (80 %) the "
     "intra-node estimate is optimistic"},
    {"hccl_inter", "HCCL all-reduce across nodes",
     "mpirun -hostfile hostfile -n {ranks} ./bin/all_reduce_test -p {gpus} -b 1G -e 4G -f 2   # HCCL Test (CANN)",
     "alg_bandwidth at 4 GB about {algbw} GB/s (busbw {busbw} GB/s over {ranks} NPUs: all NICs of each node, {gbits} "
     "Gb/s, capped by the scale-up link); below {pass} GB/s (80 %) data-parallel sync takes longer than planned"},
    {"ib_write_bw", "RDMA bandwidth between two nodes, per NIC",
     "ib_write_bw -d mlx5_0 --report_gbits   # on node A; then: ib_write_bw -d mlx5_0 --report_gbits NODE_A",
     "about {line} Gb/s on every NIC pair (line rate); under {pass} Gb/s (80 %) check PFC/ECN on RoCE, MTU, and "
     "NICs sharing one PCIe switch"},
    {"efa_devices", "EFA adapters on each node", "fi_info -p efa -t FI_EP_RDM | grep -c 'domain:'",
     "{adapters} adapters ({gbits} Gb/s per node at {port} Gb/s each); fewer means NCCL runs on part of the fabric"},
    {"iperf3", "Node-to-node bandwidth", "iperf3 -s   # on node A; then: iperf3 -c NODE_A -P 8 -t 30",
     "about {line} Gb/s per node; under {pass} Gb/s (80 %) the network is slower than planned"},
    {"fio_data_read", "Data tier read ({tier})",
     "fio --name=data --directory=/data --rw=randread --bs=1M --direct=1 --ioengine=libaio --iodepth=32 "
     "--numjobs=8 --size=4G --runtime=60 --time_based --group_reporting",
     "about {read} MB/s per node; the training reads {need} MB/s per node, so under {pass} MB/s (80 %) the tier is "
     "slower than planned"},
    {"fio_checkpoint_write", "Checkpoint tier write ({tier})",
     "fio --name=ckpt --directory=/checkpoints --rw=write --bs=4M --direct=1 --ioengine=libaio --iodepth=16 "
     "--numjobs={gpus} --size=8G --group_reporting",
     "about {write} MB/s per node; under {pass} MB/s (80 %) checkpoints take longer than planned"},
    {"checkpoint_roundtrip", "Save and reload one checkpoint",
     "save a checkpoint at step 10, restart from it, compare the loss at step 11",
     "{size} written in about {time}; the resumed loss matches the uninterrupted one"},
    {"first_steps", "Throughput of the first minutes",
     "train 50 steps on the whole cluster; read tokens/s from the log and GPU utilisation from {util}",
     "about {per_gpu} tokens/s per GPU ({all} in all), {step} s per step, MFU {mfu} %; under 80 % profile data "
     "loading and communication (PyTorch profiler)"},
};
const size_t kCheckWordingCount = std::size(kCheckWordings);

// One pass over the template: a value that itself holds "{name}" (a tier a user named so) stays as it is.
namespace {

using Args = std::vector<std::pair<std::string, std::string>>;

Check make_check(const char* id, const char* key, Args args, double expected = 0, const char* unit = "") {
  for (const CheckWording& w : kCheckWordings) {
    if (std::string_view(w.key) != key) continue;
    return {id,
            fill_template(w.title, args),
            fill_template(w.command, args),
            fill_template(w.expect, args),
            expected,
            unit,
            key,
            std::move(args)};
  }
  return {id, key, "", "", expected, unit, key, std::move(args)};  // unreachable: every key above is in the table
}

std::string whole(double v) { return format_number("%.0f", v); }
std::string count(int v) { return std::to_string(v); }

// NVLink links per GPU as nvidia-smi shows them (NV12, NV18): per-GPU bandwidth over the
// per-link bandwidth of the generation (25 GB/s per direction up to NVLink 4, 50 for NVLink 5).
int nvlink_links(const Accelerator& a) {
  if (a.intra_node_link.rfind("nvlink", 0) != 0 || !a.intra_node_gb_per_s) return 0;
  const double per_link = a.intra_node_link == "nvlink5" ? 50.0 : 25.0;
  return static_cast<int>(std::lround(*a.intra_node_gb_per_s / per_link));
}

// The vendor's tools the checks name: PyTorch's device module, the management tool, its utilisation
// view, the runtime, the collective library and its benchmark. ROCm builds of PyTorch keep the
// torch.cuda API (PyTorch docs, "HIP (ROCm) semantics") and rccl-tests keeps nccl-tests' binaries
// and flags; Ascend's torch_npu adds torch.npu, and CANN's HCCL Test takes mpirun (hiascend.com,
// CANN "HCCL Performance Tester": options, and results in alg_bandwidth).
// algbw: the benchmark prints the algorithm bandwidth, not the bus bandwidth (its wordings differ).
struct VendorTools {
  const char *vendor, *torch, *smi, *util, *runtime, *ccl, *ccl_tests;
  bool algbw;
};
constexpr VendorTools kVendorTools[] = {
    {"nvidia", "torch.cuda", "nvidia-smi", "nvidia-smi dmon -s u", "CUDA", "NCCL", "nccl-tests", false},
    {"amd", "torch.cuda", "rocm-smi", "rocm-smi --showuse", "HIP", "RCCL", "rccl-tests", false},
    {"huawei", "torch.npu", "npu-smi info", "npu-smi info", "CANN", "HCCL", "HCCL Test", true},
};
const VendorTools& tools_of(const Accelerator* a) {
  for (const VendorTools& t : kVendorTools)
    if (a && a->vendor == t.vendor) return t;
  return kVendorTools[0];
}

Check topology_check(const Scenario& s, const Accelerator* a) {
  const std::string n = count(gpus_per_node(s));
  const std::string vendor = a ? a->vendor : "nvidia";
  if (vendor == "amd") return make_check("topology", "topology_amd", {{"gpus", n}});
  if (vendor == "huawei") return make_check("topology", "topology_huawei", {{"gpus", n}});
  const int links = a ? nvlink_links(*a) : 0;
  if (links > 0)
    return make_check("topology", "topology_nvlink",
                      {{"links", count(links)}, {"gpus", n}, {"gbps", whole(*a->intra_node_gb_per_s)}},
                      static_cast<double>(links), "links");
  return make_check("topology", "topology_pcie", {{"gpus", n}});
}

// The peak per GPU of the layout on `gpus` GPUs (fewer data-parallel ranks), the micro-batch kept.
double peak_on(const Scenario& s, int gpus, const Calibration& cal) {
  Scenario t = s;
  t.cluster.gpus = gpus;
  t.global_batch = 0;  // one micro-batch per rank: the peak does not depend on accumulation
  return estimate_memory(t, count_params(t.model, t.techniques.mtp_layers), cal).per_gpu.total();
}

// The smallest slice that runs the layout: one model replica (TP x CP x PP GPUs), or one GPU. With
// ZeRO over data-parallel ranks a replica alone shards nothing, so its peak is above the plan's: the
// slice grows to one node, then the whole cluster, until the peak fits, and quotes that slice's peak.
Check tiny_run_check(const Scenario& s, const EstimateResult& r, const Calibration& cal, const VendorTools& tools) {
  const Parallel& x = s.parallel;
  const int replica_gpus = x.tp * x.cp * x.pp;
  const std::string replica =
      "TP " + count(x.tp) + (x.cp > 1 ? " x CP " + count(x.cp) : std::string()) + " x PP " + count(x.pp);
  int slice = replica_gpus;
  double peak = r.memory.per_gpu.total();
  if (x.zero > 0 && s.dp() > 1) {
    const int node = std::min(s.cluster.gpus, s.cluster.gpus_per_node);
    std::vector<int> sizes = {replica_gpus};
    if (node > replica_gpus && node % replica_gpus == 0) sizes.push_back(node);
    sizes.push_back(s.cluster.gpus);
    for (const int g : sizes) {
      slice = g;
      peak = g == s.cluster.gpus ? r.memory.per_gpu.total() : peak_on(s, g, cal);
      if (peak <= r.memory.capacity_bytes) break;
    }
  }
  Args args = {{"micro_batch", count(s.micro_batch)},
               {"peak", format_bytes(peak, ByteUnit::binary)},
               {"capacity", format_bytes(r.memory.capacity_bytes, ByteUnit::binary)},
               {"torch", tools.torch},
               {"smi", tools.smi},
               {"runtime", tools.runtime}};
  const char* key = slice > replica_gpus ? "tiny_run_sharded" : slice > 1 ? "tiny_run_replica" : "tiny_run_one";
  if (slice > replica_gpus)
    args.insert(args.begin(), {{"gpus", count(slice)},
                               {"ranks", count(slice / replica_gpus)},
                               {"replica", replica},
                               {"zero", count(x.zero)}});
  else if (slice > 1)
    args.insert(args.begin(), {{"gpus", count(slice)}, {"replica", replica}});
  return make_check("tiny_run", key, std::move(args), peak / kGiB, "GiB");
}

// Between nodes: RDMA verbs (InfiniBand, RoCE), AWS EFA (libfabric: nccl-tests measures it, this
// checks every adapter is there) or TCP.
Check network_check(const Scenario& s, const Catalog& catalog) {
  const Interconnect* link = catalog.find_interconnect(s.network.inter_node_link);
  const bool verbs = link && (link->technology == "infiniband" || link->technology == "roce");
  if (verbs) {
    const double line = link->line_rate_gbps.value_or(link->bandwidth_gb_per_s * 8);
    return make_check("ib_write_bw", "ib_write_bw", {{"line", whole(line)}, {"pass", whole(kCheckPassFraction * line)}},
                      line, "Gb/s");
  }
  if (link && link->rdma) {
    const double port = link->line_rate_gbps.value_or(link->bandwidth_gb_per_s * 8);
    const double adapters = std::round(s.network.node_gb_per_s * 8 / port);
    return make_check(
        "efa_devices", "efa_devices",
        {{"adapters", whole(adapters)}, {"gbits", whole(s.network.node_gb_per_s * 8)}, {"port", whole(port)}}, adapters,
        "adapters");
  }
  const double line = s.network.node_gb_per_s * 8;
  return make_check("iperf3", "iperf3", {{"line", whole(line)}, {"pass", whole(kCheckPassFraction * line)}}, line,
                    "Gb/s");
}

}  // namespace

std::vector<Check> checklist(const Scenario& s, const EstimateResult& r, const Catalog& catalog,
                             const Calibration& cal) {
  std::vector<Check> out;
  const Cluster& c = s.cluster;
  const Accelerator* a = catalog.find_accelerator(c.accelerator);
  const int per_node = gpus_per_node(s);
  const int nodes = c.nodes();
  const LinkBandwidth bw = link_bandwidth(s);
  const double pass = kCheckPassFraction;

  const VendorTools& tools = tools_of(a);
  const bool hccl = tools.algbw;  // HCCL Test: its own command and wording
  // HCCL Test prints the algorithm bandwidth of an all-reduce over n ranks: busbw x n / (2 (n - 1)).
  const auto algbw = [](double busbw, int n) { return n > 1 ? busbw * n / (2.0 * (n - 1)) : busbw; };
  out.push_back(tiny_run_check(s, r, cal, tools));
  if (per_node > 1) out.push_back(topology_check(s, a));
  if (per_node > 1) {
    const double gbps = bw.intra_busbw / 1e9;
    const double shown = hccl ? algbw(gbps, per_node) : gbps;
    out.push_back(make_check("nccl_intra", hccl ? "hccl_intra" : "nccl_intra",
                             {{"gpus", count(per_node)},
                              {"busbw", whole(gbps)},
                              {"algbw", whole(shown)},
                              {"pass", whole(pass * shown)},
                              {"ccl", tools.ccl},
                              {"ccl_tests", tools.ccl_tests}},
                             shown, "GB/s"));
  }
  if (nodes > 1) {
    // Every GPU of every node in one all-reduce: NCCL reduces inside the nodes and drives all their
    // NICs at once, so the figure is the node's NIC aggregate (capped by the scale-up link).
    const double gbps = bw.node_busbw / 1e9;
    const double shown = hccl ? algbw(gbps, nodes * per_node) : gbps;
    out.push_back(make_check("nccl_inter", hccl ? "hccl_inter" : "nccl_inter",
                             {{"ranks", count(nodes * per_node)},
                              {"gpus", count(per_node)},
                              {"busbw", format_number("%.1f", gbps)},
                              {"algbw", format_number("%.1f", shown)},
                              {"gbits", whole(s.network.node_gb_per_s * 8)},
                              {"pass", format_number("%.1f", pass * shown)},
                              {"ccl", tools.ccl},
                              {"ccl_tests", tools.ccl_tests}},
                             shown, "GB/s"));
    out.push_back(network_check(s, catalog));
  }
  const double read_mb = s.storage.data_read_mb_per_s / std::max(1, nodes);
  const double need_mb = r.io.data_bytes_per_s / 1e6 / std::max(1, nodes);
  out.push_back(make_check("fio_data_read", "fio_data_read",
                           {{"tier", s.storage.data_tier},
                            {"read", whole(read_mb)},
                            {"need", format_number("%.3g", need_mb)},
                            {"pass", whole(pass * read_mb)}},
                           read_mb, "MB/s"));
  const double write_mb = s.storage.checkpoint_write_mb_per_s / std::max(1, nodes);
  out.push_back(make_check("fio_checkpoint_write", "fio_checkpoint_write",
                           {{"tier", s.storage.checkpoint_tier},
                            {"gpus", count(per_node)},
                            {"write", whole(write_mb)},
                            {"pass", whole(pass * write_mb)}},
                           write_mb, "MB/s"));
  out.push_back(make_check("checkpoint_roundtrip", "checkpoint_roundtrip",
                           {{"size", format_bytes(r.reliability.checkpoint_bytes)},
                            {"time", format_duration(r.reliability.checkpoint_write_s)}},
                           r.reliability.checkpoint_bytes / kGB, "GB"));
  const double tps_gpu = r.time.tokens_per_s / c.gpus;
  out.push_back(make_check("first_steps", "first_steps",
                           {{"per_gpu", whole(tps_gpu)},
                            {"all", whole(r.time.tokens_per_s)},
                            {"step", format_number("%.2f", r.time.step_s)},
                            {"mfu", whole(100 * r.time.mfu)},
                            {"util", tools.util}},
                           tps_gpu, "tokens/s/GPU"));
  return out;
}

}  // namespace llmplan
