// scenario.cpp: strict parsing of a scenario (field list and defaults in README) and resolution of
// its catalog references (accelerator, instance, links, storage tiers, prices) into numbers.
//
// [SECTION] Named defaults
// [SECTION] Model and method
// [SECTION] Cluster and network (catalog resolution)
// [SECTION] Storage and pricing
// [SECTION] Parse and validate
#include "llmplan/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "json_read.hpp"
#include "llmplan/catalog.hpp"

namespace llmplan {

using detail::json;
using detail::Reader;

//-----------------------------------------------------------------------------
// [SECTION] Named defaults
//-----------------------------------------------------------------------------

// NCCL all-reduce bus bandwidth as a fraction of the line rate when no measurement is in the
// catalog: RDMA fabrics reach ~80 % (nccl-tests on NDR/HDR); kernel TCP far less (seed 000).
const double kDefaultRdmaBusbwFraction = 0.8;
const double kDefaultTcpBusbwFraction = 0.5;

namespace {

std::string n(double v) { return Reader::num(v); }

//-----------------------------------------------------------------------------
// [SECTION] Model and method
//-----------------------------------------------------------------------------

bool read_model(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  if (!root.contains("model")) return r.fail("model", "is required: {\"preset\": \"<catalog id>\"} or the architecture fields");
  const json& o = root["model"];
  if (!r.object(o, "model")) return false;
  if (o.contains("preset")) {
    for (const auto& [k, v] : o.items())
      if (k != "preset") return r.fail("model." + k, "give either \"preset\" or the architecture fields, not both");
    if (!r.string(o, "preset", "model", s.model_preset)) return false;
    const ModelPreset* preset = catalog.find_model(s.model_preset);
    if (!preset)
      return r.fail("model.preset", "unknown id \"" + s.model_preset + "\"; `llmplan catalog list models` prints the ids");
    s.model = preset->arch;
    s.max_context = preset->max_context;
    return true;
  }
  for (const char* required : {"layers", "hidden", "heads", "ffn", "vocab"})
    if (!o.contains(required)) return r.fail(std::string("model.") + required, "is required when no preset is given");
  s.model = ModelArch{};
  if (!r.keys(o, "model", detail::kArchKeys)) return false;
  ModelArch& a = s.model;
  if (!r.integer(o, "heads", "model", 1, 4096, a.heads)) return false;
  a.kv_heads = a.heads;  // multi-head attention unless kv_heads says otherwise
  return detail::read_arch_fields(r, o, "model", a);
}

bool read_method(Reader& r, const json& root, Scenario& s) {
  if (!r.choice(root, "method", "", {"pretrain", "continued", "full", "lora", "qlora", "freeze"}, s.method) ||
      !r.integer(root, "trainable_layers", "", 0, 1000, s.trainable_layers))
    return false;
  if (root.contains("lora")) {
    if (!s.is_peft()) return r.fail("lora", "applies only to method \"lora\" or \"qlora\"");
    const json& o = root["lora"];
    if (!r.object(o, "lora") || !r.keys(o, "lora", {"rank", "targets"}) || !r.integer(o, "rank", "lora", 1, 4096, s.lora.rank) ||
        !r.choice(o, "targets", "lora", {"attention", "all_linear"}, s.lora.targets))
      return false;
  }
  if (root.contains("trainable_layers") && s.method != Method::freeze)
    return r.fail("trainable_layers", "applies only to method \"freeze\"");
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Cluster and network (catalog resolution)
//-----------------------------------------------------------------------------

void apply_accelerator(const Accelerator& a, Cluster& c) {
  c.accelerator = a.id;
  c.gpu_memory_gb = a.memory_gb;
  c.memory_bw_gb_per_s = a.memory_bw_gb_per_s;
  c.peak_16bit_tflops = a.half_dense_tflops();
  c.peak_fp8_tflops = a.fp8_dense_tflops.value_or(0);
  c.peak_fp32_tflops = a.fp32_tflops.value_or(a.half_dense_tflops() / 8);  // never used unpublished: fp32 is rare
  c.gemm_efficiency = a.gemm_bf16_efficiency.value_or(0);
  c.intra_node_gb_per_s = a.intra_node_gb_per_s.value_or(16);  // no published link: PCIe 3 x16 at worst
  static const double pcie_by_gen[] = {0, 0, 0, 16, 32, 64, 128};  // GB/s one direction, x16
  c.pcie_gb_per_s = a.pcie_gen > 0 ? pcie_by_gen[a.pcie_gen] : 16;
}

bool read_cluster_fields(Reader& r, const json& root, const Catalog& catalog, Scenario& s);

void apply_link(const Interconnect& l, double ports, Network& net) {
  net.inter_node_link = l.id;
  net.node_gb_per_s = l.bandwidth_gb_per_s * ports;
  net.rdma = l.rdma;
  net.busbw_fraction = l.nccl_busbw_gb_per_s ? std::min(1.0, *l.nccl_busbw_gb_per_s / l.bandwidth_gb_per_s)
                                             : (l.rdma ? kDefaultRdmaBusbwFraction : kDefaultTcpBusbwFraction);
  net.latency_us = l.latency_us.value_or(l.rdma ? 5.0 : 50.0);
}

// An instance's scale-out network: its published fabric, else plain TCP at its published rate
// (25 GbE, the common cloud default, when none is published): the seeds' cautious default.
void apply_instance_network(const Catalog& catalog, const Instance& in, Network& net) {
  net = Network{};
  net.inter_node_link.clear();
  net.node_gb_per_s = 0;
  if (const Interconnect* l = catalog.find_interconnect(in.inter_node_link)) {
    apply_link(*l, 1, net);
  } else {
    net.rdma = false;
    net.busbw_fraction = kDefaultTcpBusbwFraction;
    net.latency_us = 50;
  }
  if (in.network_gbps) net.node_gb_per_s = *in.network_gbps / 8.0;
  if (net.node_gb_per_s <= 0) net.node_gb_per_s = 25.0 / 8.0;
}

// The measured NCCL bus bandwidth of the accelerator's scale-up link, when the catalog has one.
void apply_intra_link(const Catalog& catalog, Cluster& c) {
  const Accelerator* a = catalog.find_accelerator(c.accelerator);
  const Interconnect* l = a ? catalog.find_interconnect(a->intra_node_link) : nullptr;
  c.intra_busbw_gb_per_s = l && l->nccl_busbw_gb_per_s ? std::min(*l->nccl_busbw_gb_per_s, c.intra_node_gb_per_s) : 0.0;
}

bool read_cluster(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  const bool ok = read_cluster_fields(r, root, catalog, s);
  if (ok) apply_intra_link(catalog, s.cluster);
  return ok;
}

bool read_cluster_fields(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  Cluster& c = s.cluster;
  const Accelerator* accel = catalog.find_accelerator(c.accelerator);
  if (accel) apply_accelerator(*accel, c);
  if (const Interconnect* l = catalog.find_interconnect(s.network.inter_node_link)) apply_link(*l, c.gpus_per_node, s.network);
  if (!root.contains("cluster")) return true;
  const json& o = root["cluster"];
  const std::string p = "cluster";
  if (!r.object(o, p) || !r.keys(o, p, {"accelerator", "instance", "nodes", "gpus", "gpus_per_node", "gpu_memory_gb"}))
    return false;
  if (o.contains("instance")) {
    if (o.contains("accelerator") || o.contains("gpus") || o.contains("gpus_per_node"))
      return r.fail("cluster.instance", "give either an instance (with nodes) or accelerator/gpus/gpus_per_node, not both");
    int nodes = 1;
    if (!r.string(o, "instance", p, c.instance) || !r.integer(o, "nodes", p, 1, 100000, nodes)) return false;
    const Instance* in = catalog.find_instance(c.instance);
    if (!in) return r.fail("cluster.instance", "unknown id \"" + c.instance + "\"; `llmplan catalog list instances` prints the ids");
    accel = catalog.find_accelerator(in->accelerator);
    apply_accelerator(*accel, c);
    c.gpus_per_node = in->gpus;
    c.gpus = in->gpus * nodes;
    c.node_ram_gb = in->ram_gb.value_or(0);
    c.node_vcpus = in->vcpus.value_or(0);
    c.node_nvme_tb = in->local_nvme_tb.value_or(0);
    apply_instance_network(catalog, *in, s.network);
  } else {
    if (o.contains("nodes")) return r.fail("cluster.nodes", "applies only with cluster.instance; give cluster.gpus instead");
    if (!r.string(o, "accelerator", p, c.accelerator)) return false;
    accel = catalog.find_accelerator(c.accelerator);
    if (!accel)
      return r.fail("cluster.accelerator", "unknown id \"" + c.accelerator + "\"; `llmplan catalog list accelerators` prints the ids");
    apply_accelerator(*accel, c);
    if (!r.integer(o, "gpus", p, 1, 1000000, c.gpus)) return false;
    c.gpus_per_node = std::min(c.gpus, 8);
    if (!r.integer(o, "gpus_per_node", p, 1, 72, c.gpus_per_node)) return false;
    if (const Interconnect* l = catalog.find_interconnect(s.network.inter_node_link))
      apply_link(*l, c.gpus_per_node, s.network);  // one NIC per GPU, as HGX/DGX nodes are built
  }
  return r.number(o, "gpu_memory_gb", p, 1, 1000, c.gpu_memory_gb);
}

bool read_network(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  if (!root.contains("network")) return true;
  const json& o = root["network"];
  const std::string p = "network";
  std::string link;
  double gbps = 0;
  if (!r.object(o, p) || !r.keys(o, p, {"inter_node_link", "inter_node_gbps", "intra_node_gb_per_s", "busbw_fraction"}) ||
      !r.string(o, "inter_node_link", p, link) || !r.number(o, "inter_node_gbps", p, 0.1, 1e6, gbps))
    return false;
  if (!link.empty()) {
    const Interconnect* l = catalog.find_interconnect(link);
    if (!l || l->scope != LinkScope::inter_node)
      return r.fail("network.inter_node_link", "unknown inter-node interconnect id \"" + link +
                                                   "\"; `llmplan catalog list interconnects` prints the ids");
    apply_link(*l, s.cluster.gpus_per_node, s.network);
  }
  if (gbps > 0) s.network.node_gb_per_s = gbps / 8.0;
  return r.number(o, "intra_node_gb_per_s", p, 0.1, 10000, s.cluster.intra_node_gb_per_s) &&
         r.number(o, "busbw_fraction", p, 0.01, 1.0, s.network.busbw_fraction);
}

bool read_parallel_fields(Reader& r, const json& root, Scenario& s) {
  if (!root.contains("parallel")) return true;
  const json& o = root["parallel"];
  const std::string p = "parallel";
  Parallel& x = s.parallel;
  return r.object(o, p) &&
         r.keys(o, p, {"tp", "pp", "zero", "sequence_parallel", "recompute", "offload", "flash_attention", "tp_comm_overlap"}) &&
         r.integer(o, "tp", p, 1, 1024, x.tp) && r.integer(o, "pp", p, 1, 1000, x.pp) &&
         r.integer(o, "zero", p, 0, 3, x.zero) && r.boolean(o, "sequence_parallel", p, x.sequence_parallel) &&
         r.choice(o, "recompute", p, {"none", "selective", "full"}, x.recompute) &&
         r.choice(o, "offload", p, {"none", "cpu", "nvme"}, x.offload) &&
         r.boolean(o, "flash_attention", p, x.flash_attention) && r.boolean(o, "tp_comm_overlap", p, x.tp_comm_overlap);
}

bool read_techniques(Reader& r, const json& root, Scenario& s) {
  if (!root.contains("techniques")) return true;
  const json& o = root["techniques"];
  const std::string p = "techniques";
  Techniques& t = s.techniques;
  return r.object(o, p) && r.keys(o, p, {"loss_chunks", "activation_offload", "optimizer_in_backward", "fp32_norm_inputs"}) &&
         r.boolean(o, "fp32_norm_inputs", p, t.fp32_norm_inputs) &&
         r.integer(o, "loss_chunks", p, 1, 1024, t.loss_chunks) && r.boolean(o, "activation_offload", p, t.activation_offload) &&
         r.boolean(o, "optimizer_in_backward", p, t.optimizer_in_backward);
}

//-----------------------------------------------------------------------------
// [SECTION] Storage and pricing
//-----------------------------------------------------------------------------

// Aggregate throughput of a tier for the whole job: per-node tiers (local NVMe, a block volume
// per node, object-store clients) scale with the nodes; shared tiers give their total.
double tier_job_mb_per_s(const StorageTier& t, int nodes, bool write) {
  const Opt& per_device = write && t.write_mb_per_s ? t.write_mb_per_s : t.read_mb_per_s;
  if (t.kind == "object") {
    const double client = t.parallel_client_mb_per_s.value_or(t.single_stream_mb_per_s.value_or(0));
    return client * nodes;
  }
  if (t.kind == "parallel_fs" || t.kind == "file") {
    if (per_device) return *per_device;
    return t.read_mb_per_s_per_tib.value_or(0) * 10.0;  // a 10 TiB file system when only per-TiB is published
  }
  return per_device.value_or(0) * nodes;  // local_nvme, block
}

// Turns the storage tier ids into job-wide throughputs for this cluster size.
bool resolve_storage(Reader& r, const Catalog& catalog, Scenario& s) {
  StorageChoice& st = s.storage;
  if (st.data_tier.empty()) st.data_tier = kDefaultDataTier;
  if (st.checkpoint_tier.empty()) st.checkpoint_tier = st.data_tier;
  const int nodes = s.cluster.nodes();
  for (const auto& [id, field, write] : {std::tuple{st.data_tier, "storage.data_tier", false},
                                         std::tuple{st.checkpoint_tier, "storage.checkpoint_tier", true}}) {
    const StorageTier* t = nullptr;
    for (const StorageTier& x : catalog.storage)
      if (x.id == id) t = &x;
    if (!t) return r.fail(field, "unknown storage id \"" + id + "\"; `llmplan catalog list storage` prints the ids");
    const double mb = tier_job_mb_per_s(*t, nodes, write);
    if (mb <= 0) return r.fail(field, "\"" + id + "\" publishes no throughput llmplan can use");
    if (write) {
      st.checkpoint_write_mb_per_s = mb;
      st.checkpoint_kind = t->kind;
      st.usd_per_tb_month = t->usd_per_tb_month.value_or(0);
    } else {
      st.data_read_mb_per_s = mb;
      st.data_kind = t->kind;
    }
  }
  // Staging: datasets usually sit in object storage and are copied to the data tier first
  // (seed 000: s5cmd moves 10 TB in ~30 min on one node). The fastest published parallel
  // client in the catalog sets the per-node rate, capped by what the data tier can absorb.
  if (st.data_kind != "object") {
    double best = 0;
    for (const StorageTier& x : catalog.storage)
      if (x.kind == "object" && x.parallel_client_mb_per_s && *x.parallel_client_mb_per_s > best) {
        best = *x.parallel_client_mb_per_s;
        st.staging_source = x.id;
      }
    const StorageTier* data = nullptr;
    for (const StorageTier& x : catalog.storage)
      if (x.id == st.data_tier) data = &x;
    const double absorb = data ? tier_job_mb_per_s(*data, nodes, true) : 0;
    st.staging_mb_per_s = std::min(best * nodes, absorb > 0 ? absorb : best * nodes);
  }
  return true;
}

bool read_storage(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  StorageChoice& st = s.storage;
  if (root.contains("storage")) {
    const json& o = root["storage"];
    const std::string p = "storage";
    std::string interval;
    if (!r.object(o, p) ||
        !r.keys(o, p, {"data_tier", "checkpoint_tier", "checkpoint_interval_h", "bytes_per_token", "dataset_tokens",
                       "retention_months", "checkpoints_kept"}) ||
        !r.string(o, "data_tier", p, st.data_tier) || !r.string(o, "checkpoint_tier", p, st.checkpoint_tier) ||
        !r.number(o, "bytes_per_token", p, 0.5, 10000, st.bytes_per_token) ||
        !r.number(o, "dataset_tokens", p, 0, 1e16, st.dataset_tokens) ||
        !r.number(o, "retention_months", p, 0, 120, st.retention_months) ||
        !r.integer(o, "checkpoints_kept", p, 1, 1000, st.checkpoints_kept))
      return false;
    if (o.contains("checkpoint_interval_h")) {
      const json& v = o["checkpoint_interval_h"];
      if (!(v.is_string() && v.get<std::string>() == "auto") &&
          !r.number(o, "checkpoint_interval_h", p, 0.01, 10000, st.checkpoint_interval_h))
        return r.fail("storage.checkpoint_interval_h", "must be \"auto\" (Young/Daly) or hours in 0.01..10000; got " + v.dump());
    }
  }
  return resolve_storage(r, catalog, s);
}

const Opt& mode_price(const Instance& in, PricingMode m) {
  switch (m) {
    case PricingMode::spot: return in.spot_per_hour;
    case PricingMode::reserved_1yr: return in.reserved_1yr_per_hour;
    case PricingMode::reserved_3yr: return in.reserved_3yr_per_hour;
    case PricingMode::on_demand: break;
  }
  return in.on_demand_per_hour;
}

double usd_per_gpu_hour(const Instance& in, double price, double usd_to_cny) {
  const double usd = in.currency == CurrencyCode::usd ? price : price / usd_to_cny;
  return usd / in.gpus;
}

// The median per-GPU price of the catalog's instances with this accelerator, in this mode.
double catalog_median_price(const Catalog& catalog, const std::string& accel, PricingMode mode, int& count) {
  std::vector<double> prices;
  for (const Instance& in : catalog.instances)
    if (in.accelerator == accel && mode_price(in, mode))
      prices.push_back(usd_per_gpu_hour(in, *mode_price(in, mode), catalog.currency.usd_to_cny));
  count = static_cast<int>(prices.size());
  if (prices.empty()) return 0;
  std::sort(prices.begin(), prices.end());
  const size_t m = prices.size() / 2;
  return prices.size() % 2 ? prices[m] : (prices[m - 1] + prices[m]) / 2;
}

const char* kModeNames[] = {"on_demand", "spot", "reserved_1yr", "reserved_3yr"};

bool read_pricing(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  Pricing& pr = s.pricing;
  pr.usd_to_cny = catalog.currency.usd_to_cny;
  pr.failures_per_gpu_hour = kDefaultFailuresPerGpuHour;
  double override_price = 0;
  if (root.contains("pricing")) {
    const json& o = root["pricing"];
    const std::string p = "pricing";
    if (!r.object(o, p) ||
        !r.keys(o, p, {"mode", "usd_per_gpu_hour", "overhead_factor", "currency", "spot_interruptions_per_hour",
                       "failures_per_gpu_hour", "restart_h"}) ||
        !r.choice(o, "mode", p, {"on_demand", "spot", "reserved_1yr", "reserved_3yr"}, pr.mode) ||
        !r.number(o, "usd_per_gpu_hour", p, 0.001, 1000, override_price) ||
        !r.number(o, "overhead_factor", p, 1, 10, pr.overhead_factor) || !r.choice(o, "currency", p, {"usd", "cny"}, pr.currency) ||
        !r.number(o, "spot_interruptions_per_hour", p, 0, 1, pr.spot_interruptions_per_hour) ||
        !r.number(o, "failures_per_gpu_hour", p, 0, 0.01, pr.failures_per_gpu_hour) || !r.number(o, "restart_h", p, 0, 100, pr.restart_h))
      return false;
  }
  const std::string mode = kModeNames[static_cast<int>(pr.mode)];
  if (override_price > 0) {
    pr.usd_per_gpu_hour = override_price;
    pr.price_source = kPriceOverrideSource;
  } else if (!s.cluster.instance.empty()) {
    const Instance& in = *catalog.find_instance(s.cluster.instance);
    if (!mode_price(in, pr.mode))
      return r.fail("pricing.mode", "instance \"" + in.id + "\" has no published " + mode +
                                        " price; choose another mode or give pricing.usd_per_gpu_hour");
    pr.usd_per_gpu_hour = usd_per_gpu_hour(in, *mode_price(in, pr.mode), pr.usd_to_cny);
    pr.price_source = "catalog instance " + in.id + " (" + mode + ", " + in.source + ", as of " + in.as_of + ")";
    if (pr.mode == PricingMode::on_demand) pr.min_billing_hours = in.min_billing_hours.value_or(0);
  } else {
    int count = 0;
    pr.usd_per_gpu_hour = catalog_median_price(catalog, s.cluster.accelerator, pr.mode, count);
    pr.price_source = count ? "median " + mode + " price per GPU of the " + std::to_string(count) + " catalog instances with " +
                                  s.cluster.accelerator
                            : "";
  }
  return true;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Parse and validate
//-----------------------------------------------------------------------------

ScenarioParse parse_scenario(std::string_view text, const Catalog& catalog) {
  ScenarioParse out;
  const json root = detail::parse_untrusted(text);
  if (root.is_discarded()) {
    out.error = {"(scenario)", "(scenario): not valid JSON"};
    return out;
  }
  Reader r(out.error);
  Scenario s;
  const bool ok =
      r.object(root, "") &&
      r.keys(root, "", {"model", "method", "lora", "trainable_layers", "precision", "optimizer", "pure_bf16", "seq_len", "micro_batch",
                        "global_batch", "tokens", "epochs", "dropout", "cluster", "network", "parallel", "techniques", "storage",
                        "pricing"}) &&
      read_model(r, root, catalog, s) && read_method(r, root, s) &&
      r.choice(root, "precision", "", {"bf16", "fp16", "fp32", "fp8"}, s.precision) &&
      r.choice(root, "optimizer", "", {"adamw", "adamw8bit", "sgd", "adafactor"}, s.optimizer) &&
      r.boolean(root, "pure_bf16", "", s.pure_bf16) &&
      r.integer(root, "seq_len", "", 1, 1048576, s.seq_len) &&
      r.integer(root, "micro_batch", "", 1, 65536, s.micro_batch) &&
      r.integer(root, "global_batch", "", 0, 100000000, s.global_batch) &&
      r.number(root, "tokens", "", 0, 1e16, s.tokens) && r.number(root, "epochs", "", 0.001, 10000, s.epochs) &&
      r.boolean(root, "dropout", "", s.dropout) && read_cluster(r, root, catalog, s) &&
      read_network(r, root, catalog, s) && read_parallel_fields(r, root, s) && read_techniques(r, root, s) && read_storage(r, root, catalog, s) &&
      read_pricing(r, root, catalog, s);
  if (!ok) return out;
  out.error = validate_scenario(s);
  if (out.error.field.empty()) out.scenario = std::move(s);
  return out;
}

InputError validate_scenario(const Scenario& s) {
  InputError err;
  Reader r(err);
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const Cluster& c = s.cluster;
  if (!detail::check_arch(r, m, "model")) return err;
  if (m.heads % x.tp != 0)
    r.fail("parallel.tp", "must divide the model's heads (" + n(m.heads) + "); got " + n(x.tp));
  else if (m.layers % x.pp != 0)
    r.fail("parallel.pp", "must divide the model's layers (" + n(m.layers) + "); got " + n(x.pp));
  else if (c.gpus % (x.tp * x.pp) != 0)
    r.fail("cluster.gpus", "must be a multiple of parallel.tp x parallel.pp (" + n(x.tp * x.pp) + "); got " + n(c.gpus));
  else if (c.gpus > c.gpus_per_node && c.gpus % c.gpus_per_node != 0)
    r.fail("cluster.gpus", "must be at most one node or a whole number of nodes of " + n(c.gpus_per_node) +
                               " GPUs; got " + n(c.gpus));
  else if (s.global_batch > 0 && s.global_batch % (s.micro_batch * s.dp()) != 0)
    r.fail("global_batch", "must be a multiple of micro_batch x data-parallel size (" + n(s.micro_batch) + " x " +
                               n(s.dp()) + " = " + n(s.micro_batch * s.dp()) + "); got " + n(s.global_batch));
  else if (s.precision == Precision::fp8 && c.peak_fp8_tflops <= 0)
    r.fail("precision", "\"fp8\" needs FP8 tensor cores, which " + c.accelerator + " does not have; use \"bf16\"");
  else if (s.pure_bf16 && s.precision != Precision::bf16)
    r.fail("pure_bf16", "applies only to precision \"bf16\"; got precision \"" + std::string(to_string(s.precision)) + "\"");
  else if (x.offload != Offload::none && x.zero < 1)
    r.fail("parallel.offload", "needs parallel.zero >= 1 (ZeRO-Offload moves the sharded optimizer states); got zero 0");
  else if (s.method == Method::freeze && s.trainable_layers > m.layers)
    r.fail("trainable_layers", "must be at most the model's layers (" + n(m.layers) + "); got " + n(s.trainable_layers));
  return err;
}

void set_inter_node_link(const Interconnect& link, double ports_per_node, Network& network) {
  apply_link(link, ports_per_node, network);
}

bool retarget_scenario(Scenario& s, const Catalog& catalog, const Instance& in, int nodes, PricingMode mode,
                       InputError& error) {
  Reader r(error);
  const Accelerator* accel = catalog.find_accelerator(in.accelerator);
  const Opt& price = mode_price(in, mode);
  if (!accel || !price) return r.fail("cluster.instance", "instance \"" + in.id + "\" has no accelerator or no price in this mode");
  Cluster& c = s.cluster;
  c.instance = in.id;
  apply_accelerator(*accel, c);
  c.gpus_per_node = in.gpus;
  c.gpus = in.gpus * nodes;
  c.node_ram_gb = in.ram_gb.value_or(0);
  c.node_vcpus = in.vcpus.value_or(0);
  c.node_nvme_tb = in.local_nvme_tb.value_or(0);
  apply_intra_link(catalog, c);
  apply_instance_network(catalog, in, s.network);
  s.pricing.mode = mode;
  s.pricing.usd_per_gpu_hour = usd_per_gpu_hour(in, *price, s.pricing.usd_to_cny);
  s.pricing.price_source = "catalog instance " + in.id + " (" + kModeNames[static_cast<int>(mode)] + ")";
  s.pricing.min_billing_hours = mode == PricingMode::on_demand ? in.min_billing_hours.value_or(0) : 0.0;
  return resolve_storage(r, catalog, s);
}

const char* to_string(Method m) {
  static const char* names[] = {"pretrain", "continued", "full", "lora", "qlora", "freeze"};
  return names[static_cast<int>(m)];
}
const char* to_string(Precision p) {
  static const char* names[] = {"bf16", "fp16", "fp32", "fp8"};
  return names[static_cast<int>(p)];
}
const char* to_string(Optimizer o) {
  static const char* names[] = {"adamw", "adamw8bit", "sgd", "adafactor"};
  return names[static_cast<int>(o)];
}
const char* to_string(Recompute r) {
  static const char* names[] = {"none", "selective", "full"};
  return names[static_cast<int>(r)];
}
const char* to_string(Offload o) {
  static const char* names[] = {"none", "cpu", "nvme"};
  return names[static_cast<int>(o)];
}
const char* to_string(PricingMode m) { return kModeNames[static_cast<int>(m)]; }

}  // namespace llmplan
