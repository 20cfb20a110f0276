// catalog.hpp: the versioned catalog (accelerators, interconnects, storage, providers, cloud
// instances, models, currency), parsed and validated strictly from JSON text the caller gives.
// Field meanings and units: catalog/SCHEMA.md. Core does no file I/O.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llmplan/model.hpp"

namespace llmplan {

using Opt = std::optional<double>;  // null in the catalog: not published / not applicable

struct EntryInfo {
  std::string id;  // stable, lowercase; links and scripts use it; never renamed
  std::string name;
  std::string source;  // where the entry's figures come from
  std::string as_of;
  std::string notes;
  std::vector<std::string> aliases;  // former ids that still resolve to this entry (find_*)
};

struct Accelerator : EntryInfo {
  std::string vendor;
  std::string form_factor;
  double memory_gb = 0;
  double memory_bw_gb_per_s = 0;
  Opt fp32_tflops;
  Opt tf32_dense_tflops, bf16_dense_tflops, fp16_dense_tflops, fp8_dense_tflops, fp4_dense_tflops;
  std::string intra_node_link;  // interconnect id, empty when none is published
  Opt intra_node_gb_per_s;      // per GPU, one direction
  int pcie_gen = 0;             // 0 when not published
  // Device-host copies per GPU, one direction, with every GPU of the node copying at once (activation
  // and ZeRO offload); null: the PCIe generation's x16 rate.
  Opt host_link_gb_per_s;
  // Streaming multiprocessors the part enables: a communication kernel that holds some of them
  // (DeepEP) slows the computation it overlaps by their share. Null when not published.
  Opt sm_count;
  // NVIDIA's compute capability (9.0 for Hopper, 10.0 for the B200): which GEMM layouts its FP8
  // tensor cores take, and so whether Transformer Engine keeps an FP8 transpose of each FP8 weight.
  // Null when not published (every other vendor's part).
  Opt compute_capability;
  // The most GPUs one node's scale-up link joins in any system the part is sold in (8 on an HGX
  // board, 72 in an NVL72 rack); 0: not bounded by the catalog (PCIe cards: the chassis decides).
  int max_gpus_per_node = 0;
  Opt tdp_w;
  Opt gemm_bf16_efficiency;  // measured large-GEMM / peak
  Opt gemm_fp8_efficiency;   // measured large FP8 GEMM / FP8 dense peak
  // Fused attention forward + backward / 16-bit dense peak, per kernel (index AttentionKernel; the
  // auto slot is unused), in the kernels' own FLOP count; and the kernel frameworks use by default.
  std::array<Opt, kAttentionKernels> attention_efficiency{};
  std::array<AttentionLengthScale, kAttentionKernels> attention_length_scale{};  // per kernel; empty: flat
  // The same for the head dimension: (head dim, rate / the rate at the measured head dim) points.
  std::array<AttentionLengthScale, kAttentionKernels> attention_head_dim_scale{};
  AttentionKernel attention_kernel = AttentionKernel::flash2;
  // The kernel PyTorch's scaled_dot_product_attention runs here when it is not attention_kernel
  // (ROCm: AOTriton, where Transformer Engine runs AITER's kernels); auto_: the same.
  AttentionKernel attention_kernel_pytorch = AttentionKernel::auto_;
  // Training precisions the chip's tensor cores lack ("bf16" on Volta); FP8 follows fp8_dense_tflops.
  std::vector<std::string> unsupported_precisions;

  // The 16-bit tensor peak training runs at: BF16, else FP16 (Volta, Turing). Always set.
  double half_dense_tflops() const { return bf16_dense_tflops ? *bf16_dense_tflops : *fp16_dense_tflops; }
};

// Whether `gpus` GPUs fit in one node of a part whose largest scale-up domain is `bound`
// (Accelerator::max_gpus_per_node; 0: no bound).
inline bool within_node_bound(int bound, int gpus) { return bound == 0 || gpus <= bound; }

enum class LinkScope { intra_node, inter_node };

struct Interconnect : EntryInfo {
  LinkScope scope = LinkScope::intra_node;
  std::string technology;
  bool rdma = false;
  Opt line_rate_gbps;
  double bandwidth_gb_per_s = 0;  // one direction, per GPU (intra) or per port (inter)
  Opt nccl_busbw_gb_per_s;
  Opt latency_us;
};

struct StorageTier : EntryInfo {
  std::string provider;
  std::string kind;  // block | local_nvme | parallel_fs | file | object
  Opt read_mb_per_s, write_mb_per_s, read_mb_per_s_per_tib, single_stream_mb_per_s, parallel_client_mb_per_s, iops,
      usd_per_tb_month;
};

// The kinds of provider the current catalog uses. Releases before 2026.12.4 also have "cn_cloud"
// (Chinese clouds, now hyperscaler, gpu_cloud or marketplace), which the loader still reads.
inline constexpr const char* kProviderKinds[] = {"hyperscaler", "gpu_cloud", "marketplace", "compute_centre"};
inline constexpr const char* kBillingGranularities[] = {"second", "minute", "hour", "day", "month"};

struct Provider : EntryInfo {
  std::string kind;  // one of kProviderKinds, or "cn_cloud" in releases before 2026.12.4
  std::string country;
  std::string url;
  // What a training job needs besides GPUs (catalog/SCHEMA.md), each with its source in `sources`;
  // empty / unset where the catalog has null (not found, the notes say what was searched). Releases
  // before 2026.12.4 have none of them.
  std::optional<bool> rdma_multi_node;  // several nodes over an RDMA fabric
  std::string rdma_fabric;
  std::string parallel_fs;           // name of the parallel file system offered
  Opt parallel_fs_mb_per_s_per_tib;  // its fastest published read tier, per TiB provisioned
  std::string object_storage;
  std::string images;               // ready-made training images / stacks
  std::string managed_training;     // the managed training or cluster service
  std::string billing_granularity;  // one of kBillingGranularities
  std::string billing_minimum;
  std::optional<bool> spot;  // sells interruptible capacity
  Opt lead_time_days;        // typical days from sign-up to running; 0: self-serve
};

enum class CurrencyCode { usd, cny };

struct Instance : EntryInfo {
  std::string provider;  // provider id
  std::string instance_type;
  std::string accelerator;  // accelerator id
  int gpus = 1;
  Opt vcpus, ram_gb, local_nvme_tb, network_gbps;
  std::string inter_node_link;  // interconnect id, or empty
  std::string region;
  CurrencyCode currency = CurrencyCode::usd;
  Opt on_demand_per_hour, spot_per_hour, reserved_1yr_per_hour, reserved_3yr_per_hour;  // per instance-hour
  Opt min_billing_hours;  // on-demand sold only in blocks this long (monthly rent: 730)
  // Rented by the card: one host gives 1..gpus_per_host_max cards at the per-card price (AutoDL,
  // RunPod); 0 for a fixed shape. The cards share the host's scale-up link.
  int gpus_per_host_max = 0;
  std::string intra_host_link;  // intra_node interconnect id; empty: the accelerator's own link
  bool per_card() const { return gpus_per_host_max > gpus; }
};

struct ModelPreset : EntryInfo {
  ModelArch arch;
  int max_context = 0;
  double published_params = 0;
  Opt published_active_params;
};

// A whole server one can buy (catalog/servers.json): the figures an own-vs-rent calculation
// starts from when the user gives none.
struct Server : EntryInfo {
  std::string accelerator;  // accelerator id
  int gpus = 8;
  Opt price_usd, price_cny;  // exactly one is set: the currency it was published in
  double power_kw = 0;       // the server's maximum power draw (datasheet)
};

// One default of the own-vs-rent calculation (catalog/ownership.json): PUE, electricity price,
// server life... Its id is the TCO input field it stands in for; null value: no usable public
// figure was found (the notes say what was searched), and the calculation says it left it out.
struct OwnershipDefault : EntryInfo {
  Opt value;
  std::string unit;
};

struct CurrencyRate {
  double usd_to_cny = 0;
  std::string source;
  std::string as_of;
};

struct Catalog {
  int schema_version = 0;
  std::string catalog_version;
  std::string as_of;
  std::vector<Accelerator> accelerators;
  std::vector<Interconnect> interconnects;
  std::vector<StorageTier> storage;
  std::vector<Provider> providers;
  std::vector<Instance> instances;
  std::vector<ModelPreset> models;
  CurrencyRate currency;
  std::vector<Server> servers;              // empty in releases before 2026.12.4
  std::vector<OwnershipDefault> ownership;  // empty in releases before 2026.12.4

  // Lookups by id; an entry's `aliases` (ids it had before a rename) resolve to it too.
  const ModelPreset* find_model(std::string_view id) const;
  const Accelerator* find_accelerator(std::string_view id) const;
  const Interconnect* find_interconnect(std::string_view id) const;
  const Instance* find_instance(std::string_view id) const;
  const Provider* find_provider(std::string_view id) const;
  const OwnershipDefault* find_ownership_default(std::string_view id) const;
};

// The accelerators a provider's offerings list (catalog instances), sorted, each once: the
// scorecard's "GPUs listed" is derived, never stored.
std::vector<std::string> provider_accelerators(const Catalog& catalog, std::string_view provider);

// The provider scorecard of `llmplan catalog list providers`: a header and one line per provider
// with its kind, multi-node RDMA, billing granularity, spot, lead time in days ("?" where the
// catalog has null), then the GPUs its offerings list, its parallel file system and its platform.
std::string provider_scorecard_header();
std::string provider_scorecard_line(const Catalog& catalog, const Provider& p);

// Section names in document order, written once: each is also a file catalog/NAME.json that the
// build embeds (CMakeLists.txt lists the same names; a missing one fails to link).
#define LLMPLAN_CATALOG_SECTIONS(X) \
  X(accelerators) X(interconnects) X(storage) X(providers) X(instances) X(models) X(currency) X(servers) X(ownership)
#define LLMPLAN_CATALOG_SECTION_NAME(name) #name,
inline constexpr const char* kCatalogSections[] = {LLMPLAN_CATALOG_SECTIONS(LLMPLAN_CATALOG_SECTION_NAME)};
#undef LLMPLAN_CATALOG_SECTION_NAME
// "accelerators, interconnects, ...": the section names for messages.
std::string catalog_sections_text();

struct CatalogLoad {
  std::optional<Catalog> catalog;        // empty when any diagnostic was reported
  std::vector<std::string> diagnostics;  // "/accelerators/3/memory_gb: must be > 0, got -80"
  std::string merged_json;               // load_catalog_files(): the merged document
  std::string error() const;             // the diagnostics joined by newlines
};

struct CatalogFile {
  std::string name;  // shown before its diagnostics, e.g. "catalog/models.json"
  std::string_view text;
};

inline constexpr int kCatalogSchemaVersion = 1;
inline constexpr size_t kMaxDiagnostics = 50;

// One merged document (the header and every section).
CatalogLoad load_catalog(std::string_view json_text);
// Several files that each carry the header and some sections (catalog/*.json), merged then
// validated as one; the same catalog_version everywhere, no section twice.
CatalogLoad load_catalog_files(const std::vector<CatalogFile>& files);

// The catalog compiled into this binary (catalog/*.json merged at build time), loaded once.
const Catalog& builtin_catalog();
// Its JSON text, for `catalog list --json` and the site's catalog.json.
std::string_view builtin_catalog_json();

// JSON text from outside the program (a picked file, localStorage, the clipboard, a link) parsed
// without ever throwing: a discarded value (is_discarded()) on any error, including a number
// out of double's range such as 1E978 (out_of_range 406 from a throwing json::parse).
nlohmann::json parse_json_untrusted(std::string_view text);

}  // namespace llmplan
