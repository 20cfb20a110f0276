// scenario.cpp: strict parsing of a scenario and resolution of its catalog references
// (accelerator, instance, links, storage tiers, prices) into numbers. The field table
// (fields.cpp) checks every value's type and range and copies the plain inputs; this file holds
// what the table cannot: which fields go together, and what the catalog makes of them.
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
#include "llmplan/calibrate.hpp"
#include "llmplan/catalog.hpp"

namespace llmplan {

using detail::json;
using detail::Reader;

//-----------------------------------------------------------------------------
// [SECTION] Named defaults
//-----------------------------------------------------------------------------

// NCCL all-reduce bus bandwidth as a fraction of the line rate when no measurement is in the
// catalog: RDMA fabrics reach ~80 % (nccl-tests all_reduce_perf on HDR/NDR InfiniBand); NCCL's
// socket transport over kernel TCP reaches far less, and half the line rate is the cautious figure.
const double kDefaultRdmaBusbwFraction = 0.8;
const double kDefaultTcpBusbwFraction = 0.5;
// ... and over a scale-up link without one: the catalog's NVLink measurements reach 0.78 (NVLink 3,
// A100 SXM) and 0.82 (NVLink 4, H100 SXM) of the link's rate.
const double kDefaultIntraBusbwFraction = 0.8;

namespace {

std::string n(double v) { return Reader::num(v); }

bool has(const json& root, std::string_view path) { return json_at(root, path) != nullptr; }

template <class V>
V value_at(const json& root, std::string_view path, V fallback) {
  const json* v = json_at(root, path);
  return v ? v->get<V>() : fallback;
}

// Copies every present field of `stage` into the scenario (the table checked them already).
void apply_stage(const json& root, FieldStage stage, Scenario& s) {
  for (const FieldSpec& f : all_fields())
    if (f.scope == FieldScope::scenario && f.stage == stage)
      if (const json* v = json_at(root, f.path)) detail::apply_field(f, *v, s);
}

//-----------------------------------------------------------------------------
// [SECTION] Model and method
//-----------------------------------------------------------------------------

// The architecture fields were copied into s.model; a preset replaces them.
bool read_model(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  if (!root.contains("model"))
    return r.fail("model", "is required: {\"preset\": \"<catalog id>\"} or the architecture fields");
  const json& o = root["model"];
  if (o.contains("preset")) {
    for (const auto& [k, v] : o.items())
      if (k != "preset") return r.fail("model." + k, "give either \"preset\" or the architecture fields, not both");
    s.model_preset = o["preset"].get<std::string>();
    const ModelPreset* preset = catalog.find_model(s.model_preset);
    if (!preset)
      return r.fail("model.preset",
                    "unknown id " + Reader::echo(s.model_preset) + "; `llmplan catalog list models` prints the ids");
    s.model = preset->arch;
    s.max_context = preset->max_context;
    return true;
  }
  for (const FieldSpec& f : all_fields())
    if (f.required && !has(root, f.path)) return r.fail(f.path, "is required when no preset is given");
  if (!o.contains("kv_heads")) s.model.kv_heads = s.model.heads;  // multi-head attention unless kv_heads says otherwise
  // A learned position embedding has a row per position it was trained for, and no more.
  s.max_context = s.model.learned_positions;
  return detail::check_arch(r, s.model, "model");
}

// A field the document sets where it does not apply would be ignored without a word: refused, as
// the table's `applies` condition says (the app drops such fields before it parses). One given
// at its default changes nothing and passes (parallel.ep 1 on a dense model; a trial's
// measured_on.ep equal to parallel.ep, which it defaults to).
bool check_fields_apply(Reader& r, const json& root, const Scenario& s) {
  static const Scenario defaults;
  for (const FieldSpec& f : all_fields()) {
    if (f.scope != FieldScope::scenario || !*f.applies || !has(root, f.path) || field_applies(f, s)) continue;
    const FieldSpec* same_as = find_field(f.default_text);
    const std::string neutral = same_as ? field_value_json(*same_as, s) : field_value_json(f, defaults);
    if (field_value_json(f, s) != neutral)
      return r.fail(f.path, "applies only " + field_applies_text(f) + "; remove it or change what it depends on");
  }
  return true;
}

bool check_method(Reader& r, const json& root, const Scenario& s) {
  if (root.contains("lora") && !s.is_peft()) return r.fail("lora", "applies only to method \"lora\" or \"qlora\"");
  if (root.contains("trainable_layers") && s.method != Method::freeze)
    return r.fail("trainable_layers", "applies only to method \"freeze\"");
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Cluster and network (catalog resolution)
//-----------------------------------------------------------------------------

void apply_accelerator(const Accelerator& a, Cluster& c) {
  c.accelerator = a.id;
  c.vendor = a.vendor;
  c.gpu_memory_gb = a.memory_gb;
  c.memory_bw_gb_per_s = a.memory_bw_gb_per_s;
  c.peak_16bit_tflops = a.half_dense_tflops();
  c.peak_fp8_tflops = a.fp8_dense_tflops.value_or(0);
  c.bf16 = std::find(a.unsupported_precisions.begin(), a.unsupported_precisions.end(), "bf16") ==
           a.unsupported_precisions.end();
  c.peak_fp32_tflops = a.fp32_tflops.value_or(a.half_dense_tflops() / 8);  // never used unpublished: fp32 is rare
  c.gemm_efficiency = a.gemm_bf16_efficiency.value_or(0);
  c.fp8_gemm_efficiency = a.gemm_fp8_efficiency.value_or(0);
  for (int k = 0; k < kAttentionKernels; ++k) c.attention_efficiency[k] = a.attention_efficiency[k].value_or(0);
  c.attention_length_scale = a.attention_length_scale;
  c.attention_head_dim_scale = a.attention_head_dim_scale;
  c.attention_kernel = a.attention_kernel;
  c.attention_kernel_pytorch = a.attention_kernel_pytorch;
  c.intra_node_gb_per_s = a.intra_node_gb_per_s.value_or(16);      // no published link: PCIe 3 x16 at worst
  static const double pcie_by_gen[] = {0, 0, 0, 16, 32, 64, 128};  // GB/s one direction, x16
  c.pcie_gb_per_s = a.host_link_gb_per_s.value_or(a.pcie_gen > 0 ? pcie_by_gen[a.pcie_gen] : 16);
  c.sm_count = a.sm_count.value_or(0);
  c.compute_capability = a.compute_capability.value_or(0);
  c.max_gpus_per_node = a.max_gpus_per_node;
}

void apply_link(const Interconnect& l, double ports, Network& net) {
  net.inter_node_link = l.id;
  net.node_gb_per_s = l.bandwidth_gb_per_s * ports;
  net.rdma = l.rdma;
  net.busbw_fraction = l.nccl_busbw_gb_per_s ? std::min(1.0, *l.nccl_busbw_gb_per_s / l.bandwidth_gb_per_s)
                                             : (l.rdma ? kDefaultRdmaBusbwFraction : kDefaultTcpBusbwFraction);
  net.latency_us = l.latency_us.value_or(l.rdma ? 5.0 : 50.0);
}

// An instance's scale-out network: its published fabric, else plain TCP at its published rate
// (25 GbE, the common cloud default, when none is published): the cautious assumption.
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

// The share of a scale-up link's rate NCCL's all-reduce reaches on it (nccl-tests busbw over the
// link's rate, measured on the link's reference part), 0.8 where none is published. A part whose
// link is capped (the H800's and the A800's NVLink at 200 GB/s) reaches that share of its own rate.
double link_busbw_fraction(const Interconnect* l) {
  if (!l || !l->nccl_busbw_gb_per_s || l->bandwidth_gb_per_s <= 0) return kDefaultIntraBusbwFraction;
  return std::min(1.0, *l->nccl_busbw_gb_per_s / l->bandwidth_gb_per_s);
}

void apply_intra_link(const Catalog& catalog, Cluster& c) {
  const Accelerator* a = catalog.find_accelerator(c.accelerator);
  c.intra_busbw_fraction = link_busbw_fraction(a ? catalog.find_interconnect(a->intra_node_link) : nullptr);
  c.intra_busbw_gb_per_s = 0;
}

// A host whose cards are wired differently from the accelerator's usual board (PCIe cards of a
// chip that also comes as SXM): the host's own link and its measured bus bandwidth.
void apply_host_link(const Interconnect& l, Cluster& c) {
  c.intra_node_gb_per_s = l.bandwidth_gb_per_s;
  c.intra_busbw_fraction = link_busbw_fraction(&l);
  c.intra_busbw_gb_per_s = 0;
}

// The one place an instance becomes hardware: `nodes` of it, with its accelerator, host and
// scale-out network (the parser and the planner's retargeting both use it). `cards` is the
// number rented on each host of an offering sold by the card (0: the instance's own shape).
void resolve_instance(const Catalog& catalog, const Instance& in, const Accelerator& accel, int nodes, int cards,
                      Scenario& s) {
  Cluster& c = s.cluster;
  c.instance = in.id;
  c.cards = in.per_card() && cards != in.gpus ? cards : 0;  // one card is the offering's own shape
  apply_accelerator(accel, c);
  c.gpus_per_node = c.cards > 0 ? c.cards : in.gpus;
  c.gpus = c.gpus_per_node * nodes;
  c.node_ram_gb = in.ram_gb.value_or(0);
  c.node_vcpus = in.vcpus.value_or(0);
  c.node_nvme_tb = in.local_nvme_tb.value_or(0);
  apply_intra_link(catalog, c);
  if (const Interconnect* host = catalog.find_interconnect(in.intra_host_link)) apply_host_link(*host, c);
  apply_instance_network(catalog, in, s.network);
}

// cluster.cards: how many cards of one host an offering sold by the card gives.
bool read_cards(Reader& r, const json& root, const Instance& in, int& cards) {
  cards = 0;
  if (!has(root, "cluster.cards")) return true;
  cards = value_at<int>(root, "cluster.cards", 0);
  if (!in.per_card())
    return r.fail("cluster.cards",
                  "instance \"" + in.id + "\" is a fixed shape of " + std::to_string(in.gpus) +
                      " GPU(s); cards applies only to offerings rented by the card, several cards of one host");
  if (cards < 1 || cards > in.gpus_per_host_max)
    return r.fail("cluster.cards", "must be 1.." + std::to_string(in.gpus_per_host_max) + " (cards one host of \"" +
                                       in.id + "\" gives); got " + std::to_string(cards));
  return true;
}

bool read_cluster(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  Cluster& c = s.cluster;
  if (has(root, "cluster.instance")) {
    for (const char* other : {"cluster.accelerator", "cluster.gpus", "cluster.gpus_per_node"})
      if (has(root, other))
        return r.fail("cluster.instance",
                      "give either an instance (with nodes) or accelerator/gpus/gpus_per_node, not both");
    const std::string id = value_at<std::string>(root, "cluster.instance", "");
    const Instance* in = catalog.find_instance(id);
    if (!in)
      return r.fail("cluster.instance",
                    "unknown id " + Reader::echo(id) + "; `llmplan catalog list instances` prints the ids");
    const Accelerator* accel = catalog.find_accelerator(in->accelerator);
    if (!accel) return r.fail("cluster.instance", "instance \"" + id + "\" names an accelerator the catalog lacks");
    int cards = 0;
    if (!read_cards(r, root, *in, cards)) return false;
    resolve_instance(catalog, *in, *accel, value_at<int>(root, "cluster.nodes", 1), cards, s);
    return true;
  }
  if (has(root, "cluster.nodes"))
    return r.fail("cluster.nodes", "applies only with cluster.instance; give cluster.gpus instead");
  c.accelerator = value_at<std::string>(root, "cluster.accelerator", c.accelerator);
  const Accelerator* accel = catalog.find_accelerator(c.accelerator);
  if (!accel)
    return r.fail("cluster.accelerator",
                  "unknown id " + Reader::echo(c.accelerator) + "; `llmplan catalog list accelerators` prints the ids");
  apply_accelerator(*accel, c);
  c.gpus = value_at<int>(root, "cluster.gpus", c.gpus);
  c.gpus_per_node =
      value_at<int>(root, "cluster.gpus_per_node", has(root, "cluster") ? std::min(c.gpus, 8) : c.gpus_per_node);
  apply_intra_link(catalog, c);
  // One NIC per GPU, as HGX/DGX nodes are built.
  if (const Interconnect* l = catalog.find_interconnect(s.network.inter_node_link))
    apply_link(*l, c.gpus_per_node, s.network);
  return true;
}

bool read_network_link(Reader& r, const json& root, const Catalog& catalog, Scenario& s) {
  if (!has(root, "network.inter_node_link")) return true;
  const std::string link = value_at<std::string>(root, "network.inter_node_link", "");
  const Interconnect* l = catalog.find_interconnect(link);
  if (!l || l->scope != LinkScope::inter_node)
    return r.fail("network.inter_node_link", "unknown inter-node interconnect id " + Reader::echo(link) +
                                                 "; `llmplan catalog list interconnects` prints the ids");
  apply_link(*l, s.cluster.gpus_per_node, s.network);
  return true;
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
      set_checkpoint_tier(s, *t);
    } else {
      st.data_read_mb_per_s = mb;
      st.data_kind = t->kind;
    }
  }
  // Staging: datasets usually sit in object storage and are copied to the data tier first with a
  // parallel client (s5cmd, rclone). The fastest published parallel client in the catalog sets
  // the per-node rate, capped by what the data tier can absorb.
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

std::string mode_name(PricingMode m) { return kPricingModeNames[static_cast<int>(m)]; }

// The one place a price is chosen: the user's, the instance's in this mode, or the catalog
// median for the accelerator. False (with `why`) when the instance has no price in this mode.
bool resolve_price(const Catalog& catalog, bool user_price, Scenario& s, std::string& why) {
  Pricing& pr = s.pricing;
  const std::string mode = mode_name(pr.mode);
  pr.min_billing_hours = 0;
  pr.price_offerings = 0;
  if (user_price) {
    pr.source = PriceSource::user;
    pr.price_source = kPriceOverrideSource;
    return true;
  }
  if (!s.cluster.instance.empty()) {
    const Instance& in = *catalog.find_instance(s.cluster.instance);
    if (!mode_price(in, pr.mode)) {
      why = "instance \"" + in.id + "\" has no published " + mode +
            " price; choose another mode or give pricing.usd_per_gpu_hour";
      return false;
    }
    pr.usd_per_gpu_hour = usd_per_gpu_hour(in, *mode_price(in, pr.mode), pr.usd_to_cny);
    pr.source = PriceSource::instance;
    pr.price_source = "catalog instance " + in.id + " (" + mode + ", " + in.source + ", as of " + in.as_of + ")";
    if (pr.mode == PricingMode::on_demand) pr.min_billing_hours = in.min_billing_hours.value_or(0);
    return true;
  }
  int count = 0;
  pr.usd_per_gpu_hour = catalog_median_price(catalog, s.cluster.accelerator, pr.mode, count);
  pr.source = count ? PriceSource::catalog_median : PriceSource::none;
  pr.price_offerings = count;
  pr.price_source = count ? "median " + mode + " price per GPU of the " + std::to_string(count) +
                                " catalog instances with " + s.cluster.accelerator
                          : "";
  return true;
}

}  // namespace

std::optional<double> offering_usd_per_gpu_hour(const Instance& in, PricingMode mode, double usd_to_cny) {
  const Opt& price = mode_price(in, mode);
  if (!price) return std::nullopt;
  return usd_per_gpu_hour(in, *price, usd_to_cny);
}

//-----------------------------------------------------------------------------
// [SECTION] Parse and validate
//-----------------------------------------------------------------------------

ScenarioParse parse_scenario(std::string_view text, const Catalog& catalog) {
  ScenarioParse out;
  std::string problem, at;
  const json root = detail::parse_checked(text, problem, &at);
  if (root.is_discarded()) {
    const std::string field = at.empty() ? "(scenario)" : at;  // the value at fault, when known
    out.error = {field, field + ": not valid JSON: " + (problem.empty() ? "unreadable" : problem)};
    return out;
  }
  Reader r(out.error);
  Scenario s;
  s.pricing.usd_to_cny = catalog.currency.usd_to_cny;
  if (!detail::check_fields(r, root, FieldScope::scenario)) return out;
  apply_stage(root, FieldStage::input, s);
  s.framework_given = has(root, "framework");
  s.fused_kernels_given = has(root, "techniques.fused_kernels");
  s.kbit_fp32_cast_given = has(root, "techniques.kbit_fp32_cast");
  s.recompute_given = has(root, "parallel.recompute");
  if (!s.framework_given) s.framework = default_framework(s.method);
  apply_framework_defaults(s);
  std::string why;
  const bool ok = read_model(r, root, catalog, s) && check_method(r, root, s) && read_cluster(r, root, catalog, s) &&
                  read_network_link(r, root, catalog, s);
  if (!ok) return out;
  apply_stage(root, FieldStage::override_, s);  // the user's figures replace the catalog's
  s.storage.data_tier = value_at<std::string>(root, "storage.data_tier", "");
  s.storage.checkpoint_tier = value_at<std::string>(root, "storage.checkpoint_tier", "");
  if (!resolve_storage(r, catalog, s)) return out;
  if (!resolve_price(catalog, has(root, "pricing.usd_per_gpu_hour"), s, why)) {
    r.fail("pricing.mode", why);
    return out;
  }
  out.error = validate_scenario(s);
  if (out.error.field.empty() && !check_fields_apply(r, root, s)) return out;
  // A trial's measurements become factors on the model, or the reason they cannot (calibrate.hpp).
  if (out.error.field.empty() && !calibrate_from_trial(s, catalog, default_calibration(), out.error)) return out;
  if (out.error.field.empty()) out.scenario = std::move(s);
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] Context, expert and virtual pipeline parallelism (validate_scenario's checks)
//-----------------------------------------------------------------------------

namespace {

// Megatron-Core's context parallelism splits each sequence into 2 x cp chunks and gives rank i
// chunks i and 2 cp - 1 - i, so the causal ring attention is load-balanced (Megatron-Core
// context parallel docs; TransformerEngine's attention with CP): seq_len must divide by 2 x cp.
bool check_context_parallel(Reader& r, const Scenario& s) {
  const int cp = s.parallel.cp;
  if (cp <= 1) return true;
  if (s.seq_len % (2 * cp) != 0) return r.fail("parallel.cp", "cp_chunks", {n(s.seq_len), n(cp)});
  return true;
}

// Expert parallelism splits the routed experts over ep ranks and expert tensor parallelism each
// expert over etp; Megatron-Core folds both into the tp x cp x dp ranks of a pipeline stage, which
// then hold tp x cp x dp / (ep x etp) copies of each expert (MoE parallel folding: Liu et al. 2025,
// arXiv:2504.14960; megatron/core/parallel_state.py, the expert rank generator "tp-ep-dp-pp").
bool check_expert_parallel(Reader& r, const Scenario& s) {
  const int ep = s.parallel.ep;
  const int etp = s.parallel.expert_tp();
  if (s.parallel.tp % etp != 0) return r.fail("parallel.etp", "etp_tp", {n(s.parallel.tp), n(etp)});
  if (ep <= 1) return true;
  const ModelArch& m = s.model;
  if (!m.is_moe()) return r.fail("parallel.ep", "ep_dense", {n(ep)});
  if (m.experts % ep != 0) return r.fail("parallel.ep", "ep_experts", {n(m.experts), n(ep)});
  const int stage_ranks = s.parallel.tp * s.parallel.cp * s.dp();
  if (stage_ranks % (ep * etp) != 0) return r.fail("parallel.ep", "ep_stage", {n(ep), n(etp), n(stage_ranks)});
  return true;
}

// Interleaved 1F1B: every pipeline rank holds vp model chunks of its stage's blocks (Narayanan et
// al. 2021 §2.2), each chunk at least one block. Chunks need not be equal: torch.distributed.pipelining
// splits by layers per stage (torchtitan, NeMo AutoModel) and Megatron-Core takes any split as a
// --pipeline-model-parallel-layout; the bubble follows the longest chunk (performance.cpp). The
// micro-batches of a step must be a multiple of pp (Megatron-Core's interleaved schedule,
// megatron/core/pipeline_parallel/schedules.py).
int fewest_stage_layers(const Scenario& s) {
  const PipelineSplit split = pipeline_split(s.model.layers, s.parallel.pp);
  return std::min(split.first, split.last);
}

// A step split over more than one pipeline schedule (parallel.pp_flushes where it applies; where it
// does not, check_fields_apply refuses a value other than 1).
bool runs_several_schedules(const Scenario& s) {
  return s.parallel.pp_flushes > 1 && field_applies(field("parallel.pp_flushes"), s);
}

// The rule of parallel.pp_flushes a scenario breaks, in the order validate_scenario reports them:
// the flushes divide the micro-batches a rank runs a step, each schedule gives every stage one,
// and with virtual stages a multiple of pp (Megatron-LM's interleaved schedule).
enum class FlushFault { none, accumulation, stages, virtual_stages };

FlushFault flush_fault(const Scenario& s) {
  const Parallel& x = s.parallel;
  if (!runs_several_schedules(s)) return FlushFault::none;
  if (s.grad_accum() % x.pp_flushes != 0) return FlushFault::accumulation;
  const int per_schedule = s.schedule_micro_batches();
  if (per_schedule < x.pp) return FlushFault::stages;
  if (x.vp > 1 && per_schedule % x.pp != 0) return FlushFault::virtual_stages;
  return FlushFault::none;
}

bool check_virtual_pipeline(Reader& r, const Scenario& s) {
  const int vp = s.parallel.vp, pp = s.parallel.pp;
  if (vp <= 1) return true;
  if (pp <= 1) return r.fail("parallel.vp", "vp_needs_pp", {});
  const PipelineSplit split = pipeline_split(s.model.layers, pp);
  const int fewest = std::min(split.first, split.last);  // a middle stage has the most
  // A first or last stage one block short may count the embedding or the loss as its missing block
  // (vp_divides_stages: scenario.hpp).
  const int most = vp_divides_stages(split, pp, fewest + 1) ? fewest + 1 : fewest;
  if (vp > most)
    return r.fail("parallel.vp", "vp_layers",
                  {n(split.first) + (pp > 2 ? ", " + n(split.middle) : std::string()) + ", " + n(split.last),
                   n(s.model.layers), n(pp), n(most), n(std::min(most, 128)), n(vp)});
  // With pipeline flushes each schedule interleaves its own share of the micro-batches.
  if (runs_several_schedules(s)) {
    if (flush_fault(s) == FlushFault::virtual_stages)
      return r.fail("parallel.vp", "vp_schedule_micro_batches", {n(s.schedule_micro_batches()), n(pp), n(vp)});
    return true;
  }
  const int m = s.grad_accum();
  if (m % pp != 0) return r.fail("parallel.vp", "vp_micro_batches", {n(m), n(pp), n(vp)});
  return true;
}

}  // namespace

bool pp_flushes_divide(const Scenario& s) {
  const Parallel& x = s.parallel;
  if (x.pp_flushes == 1) return true;
  if (!runs_several_schedules(s) || s.dp() < 1 || s.micro_batch < 1) return false;  // no accumulation to divide
  return flush_fault(s) == FlushFault::none;
}

bool runs_qlora(const Cluster& c) { return c.vendor == "nvidia" || c.vendor == "amd"; }

bool runs_precision(const Cluster& c, Precision p) {
  if (p == Precision::fp8) return c.peak_fp8_tflops > 0;
  return p != Precision::bf16 || c.bf16;
}

// FP8 weights exist where a framework keeps them (fields.cpp, fp8_params): Transformer Engine's
// fp8_model_init in Megatron-Core and NeMo, whose trained weights Megatron-LM gathers in FP8 only
// through its distributed optimizer or FSDP (megatron/training/arguments.py: "--fp8-param-gather
// only supported with distributed optimizer, torch fsdp2, megatron fsdp, or inference mode"), and
// torchao's float8 all-gather, an FSDP2 feature (torchtitan's enable_fsdp_float8_all_gather).
namespace {
bool check_fp8_params(Reader& r, const Scenario& s) {
  if (s.precision != Precision::fp8) return r.fail("fp8_params", "fp8_params_precision", {to_string(s.precision)});
  if (s.method == Method::qlora) return r.fail("fp8_params", "fp8_params_qlora", {});
  const bool megatron = s.framework == FrameworkKind::megatron, torchtitan = s.framework == FrameworkKind::torchtitan;
  if (!megatron && !torchtitan) return r.fail("fp8_params", "fp8_params_framework", {to_string(s.framework)});
  const int zero = s.parallel.zero;
  const bool frozen = s.is_peft() || s.method == Method::freeze;
  if (torchtitan && frozen) return r.fail("fp8_params", "fp8_params_torchtitan_method", {to_string(s.method)});
  if (torchtitan && zero < 1) return r.fail("fp8_params", "fp8_params_torchtitan_sharding", {});
  // A frozen base (NeMo's LoRA) is cast once and needs no gather.
  if (megatron && !s.is_peft() && zero != 1 && zero != 3)
    return r.fail("fp8_params", "fp8_params_megatron_sharding", {std::to_string(zero)});
  return true;
}
}  // namespace

InputError validate_scenario(const Scenario& s) {
  InputError err;
  Reader r(err);
  const ModelArch& m = s.model;
  const Parallel& x = s.parallel;
  const Cluster& c = s.cluster;
  if (!detail::check_arch(r, m, "model")) return err;
  if (m.heads % x.tp != 0)
    r.fail("parallel.tp", "tp_heads", {n(m.heads), n(x.tp)});
  else if (!pipeline_split(m.layers, x.pp).ok)
    r.fail("parallel.pp", "pp_split", {n(m.layers), n(x.pp)});
  else if (!check_context_parallel(r, s))
    return err;  // the message names parallel.cp
  else if (c.gpus % (x.tp * x.cp * x.pp) != 0)
    r.fail("cluster.gpus", x.cp > 1 ? InputErrorCode("gpus_tp_cp_pp") : InputErrorCode("gpus_tp_pp"),
           {n(x.tp * x.cp * x.pp), n(c.gpus)});
  else if (!check_expert_parallel(r, s))
    return err;  // the message names parallel.ep
  else if (!within_node_bound(c.max_gpus_per_node, c.gpus_per_node))
    r.fail("cluster.gpus_per_node", "gpus_per_node_domain",
           {n(c.max_gpus_per_node), c.accelerator, n(c.gpus_per_node)});
  else if (c.gpus > c.gpus_per_node && c.gpus % c.gpus_per_node != 0)
    r.fail("cluster.gpus", "whole_nodes", {n(c.gpus_per_node), n(c.gpus)});
  else if (s.global_batch > 0 && s.global_batch % (s.micro_batch * s.dp()) != 0)
    r.fail("global_batch", "global_batch_multiple",
           {n(s.micro_batch), n(s.dp()), n(s.micro_batch * s.dp()), n(s.global_batch)});
  else if (flush_fault(s) == FlushFault::accumulation)
    r.fail("parallel.pp_flushes", "pp_flushes", {n(s.grad_accum()), n(x.pp_flushes)});
  else if (flush_fault(s) == FlushFault::stages)
    r.fail("parallel.pp_flushes", "pp_flushes_stages",
           {n(s.schedule_micro_batches()), n(x.pp), n(s.grad_accum()), n(s.grad_accum() / x.pp), n(x.pp_flushes)});
  else if (!check_virtual_pipeline(r, s))
    return err;  // the message names parallel.vp
  else if (!runs_precision(c, s.precision))
    r.fail("precision",
           s.precision == Precision::fp8 ? InputErrorCode("fp8_unsupported") : InputErrorCode("bf16_unsupported"),
           {c.accelerator, c.bf16 ? "\"bf16\"" : "\"fp16\""});
  else if (s.pure_bf16 && s.precision != Precision::bf16)
    r.fail("pure_bf16", "pure_bf16_precision", {to_string(s.precision)});
  else if (s.fp8_params && !check_fp8_params(r, s))
    return err;  // the message names fp8_params
  else if (x.offload != Offload::none && x.zero < 1)
    r.fail("parallel.offload", "offload_needs_zero", {});
  else if (s.method == Method::freeze && s.trainable_layers > m.layers)
    r.fail("trainable_layers", "trainable_layers", {n(m.layers), n(s.trainable_layers)});
  else if (s.techniques.mtp_layers > 0 && field_applies(field("techniques.mtp_layers"), s) &&
           s.framework != FrameworkKind::megatron)  // where it does not apply, check_fields_apply refuses it
    r.fail("techniques.mtp_layers", "mtp_framework", {to_string(s.framework), n(s.techniques.mtp_layers)});
  else if (c.sm_count > 0 && x.ep_comm_sms > c.sm_count &&
           field_applies(field("parallel.ep_comm_sms"), s))  // where it does not apply, check_fields_apply refuses it
    r.fail("parallel.ep_comm_sms", "ep_comm_sms", {n(c.sm_count), c.accelerator, n(x.ep_comm_sms)});
  else if (x.moe_capacity_factor > 0 && m.is_moe() &&
           (x.moe_capacity_factor < 1 || x.moe_capacity_factor > static_cast<double>(m.experts) / m.top_k) &&
           field_applies(field("parallel.moe_capacity_factor"),
                         s))  // where it does not apply, check_fields_apply refuses it
    r.fail("parallel.moe_capacity_factor", "moe_capacity_factor",
           {n(static_cast<double>(m.experts) / m.top_k), n(m.experts), n(m.top_k), n(x.moe_capacity_factor)});
  else if (x.recompute_layers > most_chunk_layers(s))
    r.fail("parallel.recompute_layers", "recompute_layers",
           {n(most_chunk_layers(s)), n(m.layers), n(x.pp), n(x.vp), n(x.recompute_layers)});
  else if (s.techniques.activation_offload_layers > fewest_stage_layers(s))
    r.fail("techniques.activation_offload_layers", "activation_offload_layers",
           {n(fewest_stage_layers(s)), n(m.layers), n(x.pp), n(s.techniques.activation_offload_layers)});
  return err;
}

int recomputed_layers(const Scenario& s, int stage_layers) {
  if (s.parallel.recompute != Recompute::full || stage_layers <= 0) return 0;
  const int n = s.parallel.recompute_layers;
  if (n <= 0) return stage_layers;
  // The stage's blocks over its chunks as evenly as they go: `rem` chunks hold one block more.
  const int vp = std::max(1, s.parallel.vp);
  const int base = stage_layers / vp, rem = stage_layers % vp;
  return rem * std::min(n, base + 1) + (vp - rem) * std::min(n, base);
}

int most_stage_layers(const Scenario& s) {
  return std::max(1, pipeline_split(s.model.layers, std::max(1, s.parallel.pp)).middle);
}

double full_recompute_share(const Scenario& s) {
  const int most = most_stage_layers(s);
  return static_cast<double>(recomputed_layers(s, most)) / most;
}

int most_chunk_layers(const Scenario& s) {
  const int vp = std::max(1, s.parallel.vp);
  return (most_stage_layers(s) + vp - 1) / vp;
}

PipelineSplit pipeline_split(int layers, int pp) {
  PipelineSplit out;
  if (pp < 1 || layers < pp) return out;
  out.middle = (layers + pp - 1) / pp;
  const int deficit = out.middle * pp - layers;
  if (pp == 1) {
    out.first = out.last = layers;
  } else {
    out.first = out.middle - deficit / 2;
    out.last = out.middle - (deficit - deficit / 2);
  }
  out.ok = out.first >= 1 && out.last >= 1;
  return out;
}

void set_inter_node_link(const Interconnect& link, double ports_per_node, Network& network) {
  apply_link(link, ports_per_node, network);
}

bool retarget_scenario(Scenario& s, const Catalog& catalog, const Instance& in, int nodes, int cards, PricingMode mode,
                       InputError& error) {
  Reader r(error);
  const Accelerator* accel = catalog.find_accelerator(in.accelerator);
  if (!accel || !mode_price(in, mode))
    return r.fail("cluster.instance", "instance \"" + in.id + "\" has no accelerator or no price in this mode");
  resolve_instance(catalog, in, *accel, nodes, cards, s);
  // A trial's factors hold on its own accelerator (Scenario::calibrated), and so does the scale-up
  // bus bandwidth it measured; the offering's network is its own.
  s.factors.same_layout = false;
  if (s.calibrated() && s.measured.intra_busbw_gb_per_s > 0)
    s.cluster.intra_busbw_gb_per_s = s.measured.intra_busbw_gb_per_s;
  s.pricing.mode = mode;
  std::string why;
  if (!resolve_price(catalog, false, s, why)) return r.fail("pricing.mode", why);
  return resolve_storage(r, catalog, s);
}

bool set_accelerator(const Catalog& catalog, const std::string& id, Cluster& c) {
  const Accelerator* a = catalog.find_accelerator(id);
  if (!a) return false;
  apply_accelerator(*a, c);
  apply_intra_link(catalog, c);
  return true;
}

bool embedding_counts_as_block(const PipelineSplit& split, int pp, int vp) {
  return pp > 2 && vp > 1 && split.first + 1 == split.middle && split.last + 1 == split.middle &&
         split.middle % vp == 0;
}

const char* to_string(Method m) { return kMethodNames[static_cast<int>(m)]; }
const char* to_string(Precision p) { return kPrecisionNames[static_cast<int>(p)]; }
const char* to_string(Optimizer o) { return kOptimizerNames[static_cast<int>(o)]; }
const char* to_string(Recompute r) { return kRecomputeNames[static_cast<int>(r)]; }
const char* to_string(Offload o) { return kOffloadNames[static_cast<int>(o)]; }
const char* to_string(PricingMode m) { return kPricingModeNames[static_cast<int>(m)]; }
const char* to_string(FrameworkKind f) { return kFrameworkNames[static_cast<int>(f)]; }
const char* to_string(EpDispatcher d) { return kEpDispatcherNames[static_cast<int>(d)]; }

void apply_framework_defaults(Scenario& s) {
  // PEFT's prepare_model_for_kbit_training casts them; Unsloth's own preparation does not.
  if (!s.kbit_fp32_cast_given)
    s.techniques.kbit_fp32_cast = s.method == Method::qlora && s.framework == FrameworkKind::hf;
  // ... and turns gradient checkpointing on unless told not to (use_gradient_checkpointing=True, its
  // default: peft/utils/other.py), which Hugging Face runs as full recomputation of every block.
  if (!s.recompute_given && s.method == Method::qlora && s.framework == FrameworkKind::hf)
    s.parallel.recompute = Recompute::full;
  // Megatron-LM runs fused kernels; Hugging Face, torchtune, torchtitan and plain PyTorch loops run the
  // model's own eager code unless torch.compile or Liger / Unsloth (a fused linear loss comes with
  // their RMSNorm, RoPE and SwiGLU kernels) replace it.
  if (!s.fused_kernels_given)
    s.techniques.fused_kernels =
        s.framework == FrameworkKind::megatron || s.techniques.compile || fuses_output_layer(s.techniques.fused_loss);
}

void set_checkpoint_tier(Scenario& s, const StorageTier& t) {
  StorageChoice& st = s.storage;
  st.checkpoint_tier = t.id;
  st.checkpoint_write_mb_per_s = tier_job_mb_per_s(t, s.cluster.nodes(), true);
  st.checkpoint_kind = t.kind;
  st.usd_per_tb_month = t.usd_per_tb_month.value_or(0);
}

FrameworkKind default_framework(Method m) {
  return m == Method::pretrain || m == Method::continued ? FrameworkKind::megatron : FrameworkKind::hf;
}

}  // namespace llmplan
