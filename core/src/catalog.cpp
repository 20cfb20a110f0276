// catalog.cpp: strict loader for the versioned catalog (catalog/SCHEMA.md). Every problem becomes
// a diagnostic with a JSON-pointer path; a catalog with any diagnostic is rejected whole, since
// silently skipping an entry would change users' numbers.
//
// [SECTION] Lookups
// [SECTION] Field checks shared by all sections
// [SECTION] One reader per section
// [SECTION] References between sections
// [SECTION] Documents: one merged file or several section files
#include "llmplan/catalog.hpp"
#include "llmplan/tco.hpp"
#include "llmplan/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <set>

#include "json_read.hpp"

namespace llmplan {

using detail::json;
using detail::PathStyle;
using detail::Reader;

//-----------------------------------------------------------------------------
// [SECTION] Lookups
//-----------------------------------------------------------------------------

namespace {
// The id first, then the aliases: the loader guarantees an alias never equals an id or another
// alias of the same section, so at most one entry matches either way.
template <class T>
const T* find_by_id(const std::vector<T>& items, std::string_view id) {
  for (const T& item : items)
    if (item.id == id) return &item;
  for (const T& item : items)
    for (const std::string& alias : item.aliases)
      if (alias == id) return &item;
  return nullptr;
}
}  // namespace

const ModelPreset* Catalog::find_model(std::string_view id) const { return find_by_id(models, id); }
const Accelerator* Catalog::find_accelerator(std::string_view id) const { return find_by_id(accelerators, id); }
const Interconnect* Catalog::find_interconnect(std::string_view id) const { return find_by_id(interconnects, id); }
const Instance* Catalog::find_instance(std::string_view id) const { return find_by_id(instances, id); }
const Provider* Catalog::find_provider(std::string_view id) const { return find_by_id(providers, id); }
std::vector<std::string> provider_accelerators(const Catalog& catalog, std::string_view provider) {
  std::set<std::string> ids;
  for (const Instance& in : catalog.instances)
    if (in.provider == provider) ids.insert(in.accelerator);
  return {ids.begin(), ids.end()};
}

namespace {
std::string yes_no(const std::optional<bool>& b) { return !b ? "?" : *b ? "yes" : "no"; }
std::string padded(std::string s, size_t width) {
  return s.size() < width ? s + std::string(width - s.size(), ' ') : s;
}
std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

std::string provider_scorecard_header() {
  return padded("id", 12) + padded("kind", 15) + padded("rdma", 6) + padded("billing", 9) + padded("spot", 6) +
         padded("lead_d", 7) + "| GPUs listed | parallel FS | platform";
}

std::string provider_scorecard_line(const Catalog& catalog, const Provider& p) {
  std::string line = padded(p.id, 12) + padded(p.kind, 15) + padded(yes_no(p.rdma_multi_node), 6) +
                     padded(p.billing_granularity.empty() ? "?" : p.billing_granularity, 9) +
                     padded(yes_no(p.spot), 6) + padded(p.lead_time_days ? number_text(*p.lead_time_days) : "?", 7);
  const std::vector<std::string> gpus = provider_accelerators(catalog, p.id);
  line += "| " + std::to_string(gpus.size()) + (gpus.empty() ? "" : ":");
  for (size_t i = 0; i < gpus.size(); ++i) line += (i ? "," : " ") + gpus[i];
  line += " | " + (p.parallel_fs.empty() ? std::string("?") : p.parallel_fs);
  if (p.parallel_fs_mb_per_s_per_tib) line += ", " + number_text(*p.parallel_fs_mb_per_s_per_tib) + " MB/s/TiB";
  std::string platform = p.managed_training;
  if (!p.images.empty()) platform += (platform.empty() ? "images: " : "; images: ") + p.images;
  line += " | " + (platform.empty() ? std::string("?") : platform);
  return line;
}

const OwnershipDefault* Catalog::find_ownership_default(std::string_view id) const { return find_by_id(ownership, id); }

std::string CatalogLoad::error() const {
  std::string s;
  for (const std::string& d : diagnostics) s += (s.empty() ? "" : "\n") + d;
  return s;
}

//-----------------------------------------------------------------------------
// [SECTION] Field checks shared by all sections
//-----------------------------------------------------------------------------

namespace {

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
          c == '.'))
      return false;
  return true;
}

// YYYY, YYYY-MM or YYYY-MM-DD (entries); the file header must be a full date.
bool valid_date(const std::string& s, bool full) {
  const size_t n = s.size();
  if (n != 10 && (full || (n != 4 && n != 7))) return false;
  for (size_t i = 0; i < n; ++i) {
    const bool dash = i == 4 || i == 7;
    if (dash ? s[i] != '-' : !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool valid_catalog_version(const std::string& s) {  // YYYY.MM.N
  if (s.size() < 9 || s[4] != '.' || s[7] != '.') return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// id, name, source, as_of, notes and sources: present in every entry of every section.
// The keys every entry may have besides its section's own (`fields`), which come after them.
bool entry_info(Reader& r, const json& o, const std::string& p, EntryInfo& e, const std::vector<std::string>& fields) {
  std::vector<std::string> allowed = {"id", "name", "source", "as_of", "notes", "sources", "aliases"};
  allowed.insert(allowed.end(), fields.begin(), fields.end());
  if (!r.object(o, p) || !r.keys(o, p, allowed) || !r.required(o, p, {"id", "name", "source", "as_of"}) ||
      !r.string(o, "id", p, e.id) || !r.string(o, "name", p, e.name) || !r.string(o, "source", p, e.source) ||
      !r.string(o, "as_of", p, e.as_of) || !r.string(o, "notes", p, e.notes))
    return false;
  if (!valid_id(e.id))
    return r.fail(r.join(p, "id"), "must be 1-64 characters of a-z, 0-9, '-' and '.'; got \"" + e.id + "\"");
  if (e.source.empty()) return r.fail(r.join(p, "source"), "must name where the figures come from");
  if (!valid_date(e.as_of, false))
    return r.fail(r.join(p, "as_of"), "must be a date YYYY, YYYY-MM or YYYY-MM-DD; got \"" + e.as_of + "\"");
  if (o.contains("aliases")) {
    const json& a = o["aliases"];
    const std::string ap = r.join(p, "aliases");
    if (!a.is_array()) return r.fail(ap, "must be an array of former ids");
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string ip = r.index(ap, i);
      if (!a[i].is_string()) return r.fail(ip, "must be a string");
      const std::string alias = a[i].get<std::string>();
      if (!valid_id(alias))
        return r.fail(ip, "must be 1-64 characters of a-z, 0-9, '-' and '.'; got \"" + alias + "\"");
      if (alias == e.id) return r.fail(ip, "repeats the entry's own id \"" + alias + "\"");
      e.aliases.push_back(alias);
    }
  }
  if (o.contains("sources")) {
    const json& s = o["sources"];
    const std::string sp = r.join(p, "sources");
    if (!r.object(s, sp)) return false;
    for (const auto& [field, text] : s.items()) {
      bool known = false;
      // "field.key" names one key of an object field (attention_efficiency.flash2).
      const std::string base = field.substr(0, field.find('.'));
      for (const std::string& a : allowed) known = known || field == a || (base != field && base == a);
      if (!known) return r.fail(r.join(sp, field), "names no field of this entry");
      if (!text.is_string() || text.get<std::string>().empty())
        return r.fail(r.join(sp, field), "must be a non-empty string");
    }
  }
  return true;
}

// No catalog figure comes near it (the largest, a model's published parameters, is below 1e13);
// a hand-edited 1E300 would make infinities of the capacities and rates computed from it.
constexpr double kCatalogMaxFigure = 1e15;

bool at_most(Reader& r, const std::string& p, const char* key, const Opt& v) {
  if (!v || *v <= kCatalogMaxFigure) return true;
  return r.fail(r.join(p, key), "must be > 0 and at most 1e15; got " + format_significant(*v, 6));
}

bool opt(Reader& r, const json& o, const char* key, const std::string& p, Opt& out) {
  return r.positive(o, key, p, out, true) && at_most(r, p, key, out);
}

bool req(Reader& r, const json& o, const char* key, const std::string& p, double& out) {
  Opt v;
  if (!r.required(o, p, {key}) || !r.positive(o, key, p, v, false) || !at_most(r, p, key, v)) return false;
  out = *v;
  return true;
}

// A fraction in (0, 1], or null.
bool fraction(Reader& r, const json& o, const char* key, const std::string& p, Opt& out) {
  if (!o.contains(key) || o[key].is_null()) return r.ok();
  double v = 0;
  if (!r.number(o, key, p, 0.0, 1.0, v)) return false;
  if (v <= 0) return r.fail(r.join(p, key), "must be > 0 and at most 1, or null; got 0");
  out = v;
  return true;
}

bool one_of(Reader& r, const json& o, const char* key, const std::string& p, std::initializer_list<const char*> names,
            std::string& out) {
  if (!r.required(o, p, {key}) || !r.string(o, key, p, out)) return false;
  for (const char* n : names)
    if (out == n) return true;
  return r.fail(r.join(p, key), "must be one of " + Reader::list(names) + "; got \"" + out + "\"");
}

//-----------------------------------------------------------------------------
// [SECTION] One reader per section
//-----------------------------------------------------------------------------

constexpr const char* kKernelList = "flash1, flash_triton, flash2, flash3, flash4, cudnn, aotriton, aiter";

int attention_kernel_index(const std::string& name) {
  for (int k = 1; k < kAttentionKernels; ++k)
    if (name == kAttentionKernelNames[k]) return k;
  return -1;
}

// The kernel a key of the object at `at` names, or -1 after reporting the key.
int kernel_key(Reader& r, const std::string& at, const std::string& key) {
  const int k = attention_kernel_index(key);
  if (k < 0) r.fail(r.join(at, key), std::string("is not a kernel; expected one of ") + kKernelList);
  return k;
}

// What a kernel's rate is scaled along: the sequence length it runs on, or the head dimension.
struct ScaleAxis {
  const char* key;     // the catalog field
  const char* pair;    // how a point reads in the array's message
  const char* point;   // how a point reads in its own message
  const char* x;       // the quantity
  const char* whole;   // its allowed values
  double hi;           // its largest value
  const char* plural;  // the quantity, plural
};
constexpr ScaleAxis kLengthAxis{"attention_length_scale",
                                "[length, ratio]",
                                "[length in tokens, ratio]",
                                "length",
                                "a whole number of tokens from 1 to 10000000",
                                1e7,
                                "lengths"};
constexpr ScaleAxis kHeadDimAxis{"attention_head_dim_scale",
                                 "[head dim, ratio]",
                                 "[head dim, ratio]",
                                 "head dim",
                                 "a whole number from 1 to 1024",
                                 1024,
                                 "head dims"};

// One kernel's scale: 2 to 16 [x, ratio] points, x whole numbers from 1 to the axis' largest in
// ascending order, ratios in (0, 2], one of them exactly 1 (the x the kernel's
// attention_efficiency figure was measured at, which the kernel must have).
bool read_scale_points(Reader& r, const json& list, const std::string& lp, const Opt& efficiency, const ScaleAxis& axis,
                       AttentionLengthScale& out) {
  if (!list.is_array() || list.size() < 2 || list.size() > AttentionLengthScale::kMaxPoints)
    return r.fail(lp, std::string("must be an array of 2 to 16 ") + axis.pair + " points");
  if (!efficiency) return r.fail(lp, "scales attention_efficiency of the same kernel, which this entry lacks");
  bool reference = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string ip = r.index(lp, i);
    const json& point = list[i];
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number())
      return r.fail(ip, std::string("must be ") + axis.point + "; got " + point.dump());
    const double x = point[0].get<double>(), ratio = point[1].get<double>();
    if (!(x >= 1 && x <= axis.hi) || x != std::floor(x))
      return r.fail(ip, std::string(axis.x) + " must be " + axis.whole + "; got " + point[0].dump());
    if (!out.empty() && x <= out.back()[0])
      return r.fail(ip, std::string(axis.plural) + " must ascend; got " + point[0].dump() + " after " +
                            format_significant(out.back()[0], 9));
    if (!(ratio > 0 && ratio <= 2)) return r.fail(ip, "ratio must be > 0 and at most 2; got " + point[1].dump());
    reference = reference || ratio == 1.0;
    out.push_back({x, ratio});
  }
  if (!reference)
    return r.fail(lp,
                  std::string("needs the point of ratio 1: the ") + axis.x + " attention_efficiency was measured at");
  return true;
}

// attention_length_scale or attention_head_dim_scale: {kernel: [[x, ratio], ...]}.
bool read_attention_scale(Reader& r, const json& o, const std::string& p, const ScaleAxis& axis, Accelerator& a,
                          std::array<AttentionLengthScale, kAttentionKernels>& out) {
  if (!o.contains(axis.key) || o[axis.key].is_null()) return true;
  const json& m = o[axis.key];
  const std::string at = r.join(p, axis.key);
  if (!m.is_object()) return r.fail(at, std::string("must be an object of kernel: [") + axis.pair + ", ...]");
  for (const auto& item : m.items()) {
    const int k = kernel_key(r, at, item.key());
    if (k < 0) return false;
    if (!read_scale_points(r, item.value(), r.join(at, item.key()), a.attention_efficiency[k], axis, out[k]))
      return false;
  }
  return true;
}

// A kernel named by `key`, when present and not null.
bool read_kernel_name(Reader& r, const json& o, const std::string& p, const char* key, AttentionKernel& out) {
  if (!o.contains(key) || o[key].is_null()) return true;
  std::string name;
  if (!r.string(o, key, p, name)) return false;
  const int k = attention_kernel_index(name);
  if (k < 0) return r.fail(r.join(p, key), std::string("must be one of ") + kKernelList + "; got \"" + name + "\"");
  out = static_cast<AttentionKernel>(k);
  return true;
}

// attention_efficiency: {kernel: fraction}; attention_kernel: the kernel used by default;
// attention_kernel_pytorch: PyTorch's, where it differs.
bool read_attention(Reader& r, const json& o, const std::string& p, Accelerator& a) {
  if (o.contains("attention_efficiency") && !o["attention_efficiency"].is_null()) {
    const json& m = o["attention_efficiency"];
    const std::string at = r.join(p, "attention_efficiency");
    if (!m.is_object()) return r.fail(at, "must be an object of kernel: fraction");
    for (const auto& item : m.items()) {
      const int k = kernel_key(r, at, item.key());
      if (k < 0) return false;
      if (!fraction(r, m, item.key().c_str(), at, a.attention_efficiency[k])) return false;
    }
  }
  if (!read_attention_scale(r, o, p, kLengthAxis, a, a.attention_length_scale) ||
      !read_attention_scale(r, o, p, kHeadDimAxis, a, a.attention_head_dim_scale))
    return false;
  return read_kernel_name(r, o, p, "attention_kernel", a.attention_kernel) &&
         read_kernel_name(r, o, p, "attention_kernel_pytorch", a.attention_kernel_pytorch);
}

// "unsupported_precisions": ["bf16"]: the 16-bit formats the tensor cores lack (FP8 has its peak).
bool read_unsupported_precisions(Reader& r, const json& o, const std::string& p, Accelerator& a) {
  if (!o.contains("unsupported_precisions") || o["unsupported_precisions"].is_null()) return true;
  const json& list = o["unsupported_precisions"];
  const std::string lp = r.join(p, "unsupported_precisions");
  if (!list.is_array()) return r.fail(lp, "must be an array of precision names");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].is_string() ? list[i].get<std::string>() : "";
    if (name != "bf16" && name != "fp16")
      return r.fail(r.index(lp, i),
                    "must be \"bf16\" or \"fp16\" (FP8 support is fp8_dense_tflops); got " + list[i].dump());
    a.unsupported_precisions.push_back(name);
  }
  return true;
}

bool read_accelerator(Reader& r, const json& o, const std::string& p, Accelerator& a) {
  if (!entry_info(r, o, p, a,
                  {"vendor",
                   "form_factor",
                   "memory_gb",
                   "memory_bw_gb_per_s",
                   "fp32_tflops",
                   "tf32_dense_tflops",
                   "bf16_dense_tflops",
                   "fp16_dense_tflops",
                   "fp8_dense_tflops",
                   "fp4_dense_tflops",
                   "intra_node_link",
                   "intra_node_gb_per_s",
                   "pcie_gen",
                   "host_link_gb_per_s",
                   "sm_count",
                   "compute_capability",
                   "max_gpus_per_node",
                   "tdp_w",
                   "gemm_bf16_efficiency",
                   "gemm_fp8_efficiency",
                   "attention_efficiency",
                   "attention_length_scale",
                   "attention_head_dim_scale",
                   "attention_kernel",
                   "attention_kernel_pytorch",
                   "unsupported_precisions"}) ||
      !one_of(r, o, "vendor", p, {"nvidia", "amd", "huawei", "intel", "google"}, a.vendor) ||
      !r.required(o, p, {"form_factor"}) || !r.string(o, "form_factor", p, a.form_factor) ||
      !req(r, o, "memory_gb", p, a.memory_gb) || !req(r, o, "memory_bw_gb_per_s", p, a.memory_bw_gb_per_s) ||
      !opt(r, o, "fp32_tflops", p, a.fp32_tflops) || !opt(r, o, "tf32_dense_tflops", p, a.tf32_dense_tflops) ||
      !opt(r, o, "bf16_dense_tflops", p, a.bf16_dense_tflops) ||
      !opt(r, o, "fp16_dense_tflops", p, a.fp16_dense_tflops) ||
      !opt(r, o, "fp8_dense_tflops", p, a.fp8_dense_tflops) || !opt(r, o, "fp4_dense_tflops", p, a.fp4_dense_tflops) ||
      !opt(r, o, "intra_node_gb_per_s", p, a.intra_node_gb_per_s) || !opt(r, o, "tdp_w", p, a.tdp_w) ||
      !opt(r, o, "host_link_gb_per_s", p, a.host_link_gb_per_s) ||
      !fraction(r, o, "gemm_bf16_efficiency", p, a.gemm_bf16_efficiency) ||
      !fraction(r, o, "gemm_fp8_efficiency", p, a.gemm_fp8_efficiency) || !read_attention(r, o, p, a))
    return false;
  if (o.contains("intra_node_link") && !o["intra_node_link"].is_null() &&
      !r.string(o, "intra_node_link", p, a.intra_node_link))
    return false;
  if (o.contains("pcie_gen") && !o["pcie_gen"].is_null() && !r.integer(o, "pcie_gen", p, 3, 6, a.pcie_gen))
    return false;
  if (o.contains("sm_count") && !o["sm_count"].is_null()) {
    int sms = 0;
    if (!r.integer(o, "sm_count", p, 1, 1024, sms)) return false;
    a.sm_count = sms;
  }
  if (o.contains("compute_capability") && !o["compute_capability"].is_null()) {
    double cc = 0;
    if (!r.number(o, "compute_capability", p, 1.0, 20.0, cc)) return false;
    a.compute_capability = cc;
  }
  if (o.contains("max_gpus_per_node") && !o["max_gpus_per_node"].is_null() &&
      !r.integer(o, "max_gpus_per_node", p, 1, 1024, a.max_gpus_per_node))
    return false;
  if (!read_unsupported_precisions(r, o, p, a)) return false;
  // The time model needs a 16-bit tensor peak; Volta and Turing have FP16 but no BF16.
  if (!a.bf16_dense_tflops && !a.fp16_dense_tflops)
    return r.fail(r.join(p, "bf16_dense_tflops"), "or fp16_dense_tflops must be given (> 0)");
  if (a.intra_node_link.empty() != !a.intra_node_gb_per_s)
    return r.fail(r.join(p, "intra_node_gb_per_s"), "and intra_node_link must be given together, or both null");
  return true;
}

bool read_interconnect(Reader& r, const json& o, const std::string& p, Interconnect& c) {
  std::string scope;
  if (!entry_info(r, o, p, c,
                  {"scope", "technology", "rdma", "line_rate_gbps", "bandwidth_gb_per_s", "nccl_busbw_gb_per_s",
                   "latency_us"}) ||
      !one_of(r, o, "scope", p, {"intra_node", "inter_node"}, scope) ||
      !one_of(r, o, "technology", p, {"nvlink", "pcie", "infinity_fabric", "hccs", "infiniband", "roce", "ethernet"},
              c.technology) ||
      !r.required(o, p, {"rdma"}) || !r.boolean(o, "rdma", p, c.rdma) ||
      !opt(r, o, "line_rate_gbps", p, c.line_rate_gbps) || !req(r, o, "bandwidth_gb_per_s", p, c.bandwidth_gb_per_s) ||
      !opt(r, o, "nccl_busbw_gb_per_s", p, c.nccl_busbw_gb_per_s) || !opt(r, o, "latency_us", p, c.latency_us))
    return false;
  c.scope = scope == "intra_node" ? LinkScope::intra_node : LinkScope::inter_node;
  if (c.nccl_busbw_gb_per_s && *c.nccl_busbw_gb_per_s > c.bandwidth_gb_per_s * 2.0)
    return r.fail(r.join(p, "nccl_busbw_gb_per_s"), "must not exceed twice bandwidth_gb_per_s (" +
                                                        Reader::num(c.bandwidth_gb_per_s) + "); got " +
                                                        Reader::num(*c.nccl_busbw_gb_per_s));
  return true;
}

bool read_storage(Reader& r, const json& o, const std::string& p, StorageTier& s) {
  return entry_info(r, o, p, s,
                    {"provider", "kind", "read_mb_per_s", "write_mb_per_s", "read_mb_per_s_per_tib",
                     "single_stream_mb_per_s", "parallel_client_mb_per_s", "iops", "usd_per_tb_month"}) &&
         r.required(o, p, {"provider"}) && r.string(o, "provider", p, s.provider) &&
         one_of(r, o, "kind", p, {"block", "local_nvme", "parallel_fs", "file", "object"}, s.kind) &&
         opt(r, o, "read_mb_per_s", p, s.read_mb_per_s) && opt(r, o, "write_mb_per_s", p, s.write_mb_per_s) &&
         opt(r, o, "read_mb_per_s_per_tib", p, s.read_mb_per_s_per_tib) &&
         opt(r, o, "single_stream_mb_per_s", p, s.single_stream_mb_per_s) &&
         opt(r, o, "parallel_client_mb_per_s", p, s.parallel_client_mb_per_s) && opt(r, o, "iops", p, s.iops) &&
         opt(r, o, "usd_per_tb_month", p, s.usd_per_tb_month);
}

// A string or a boolean that may be null (not found: the notes say what was searched).
bool nullable_text(Reader& r, const json& o, const char* key, const std::string& p, std::string& out) {
  if (!o.contains(key) || o[key].is_null()) return r.ok();
  if (!o[key].is_string() || o[key].get<std::string>().empty())
    return r.fail(r.join(p, key), "must be a non-empty string or null; got " + Reader::echo_value(o[key]));
  out = o[key].get<std::string>();
  return true;
}

bool nullable_bool(Reader& r, const json& o, const char* key, const std::string& p, std::optional<bool>& out) {
  if (!o.contains(key) || o[key].is_null()) return r.ok();
  if (!o[key].is_boolean())
    return r.fail(r.join(p, key), "must be true, false or null; got " + Reader::echo_value(o[key]));
  out = o[key].get<bool>();
  return true;
}

// The provider indicators (SCHEMA.md), in file order; optional keys (releases before 2026.12.4 lack them).
constexpr const char* kProviderIndicators[] = {
    "rdma_multi_node", "rdma_fabric", "parallel_fs",      "parallel_fs_mb_per_s_per_tib",
    "object_storage",  "images",      "managed_training", "billing_granularity",
    "billing_minimum", "spot",        "lead_time_days"};

// A source names a date ("read 2026-12-02", "published 2024-12-30", "@commit (2026-10-04)"): YYYY-MM somewhere.
bool names_a_date(const std::string& s) {
  for (size_t i = 0; i + 7 <= s.size(); ++i) {
    bool ok = s[i] == '1' || s[i] == '2';
    for (size_t k = 1; ok && k < 7; ++k)
      ok = k == 4 ? s[i + k] == '-' : std::isdigit(static_cast<unsigned char>(s[i + k])) != 0;
    if (ok) return true;
  }
  return false;
}

bool read_provider(Reader& r, const json& o, const std::string& p, Provider& v) {
  std::vector<std::string> fields = {"kind", "country", "url"};
  fields.insert(fields.end(), std::begin(kProviderIndicators), std::end(kProviderIndicators));
  // "cn_cloud" is retired (2026.12.4) but archived releases carry it, and they must keep loading.
  if (!entry_info(r, o, p, v, fields) ||
      !one_of(r, o, "kind", p, {"hyperscaler", "gpu_cloud", "marketplace", "compute_centre", "cn_cloud"}, v.kind) ||
      !r.required(o, p, {"country", "url"}) || !r.string(o, "country", p, v.country) || !r.string(o, "url", p, v.url))
    return false;
  if (v.country.size() != 2 || !std::isupper(static_cast<unsigned char>(v.country[0])) ||
      !std::isupper(static_cast<unsigned char>(v.country[1])))
    return r.fail(r.join(p, "country"), "must be an ISO 3166 alpha-2 code such as \"US\"; got \"" + v.country + "\"");
  if (!nullable_bool(r, o, "rdma_multi_node", p, v.rdma_multi_node) ||
      !nullable_text(r, o, "rdma_fabric", p, v.rdma_fabric) || !nullable_text(r, o, "parallel_fs", p, v.parallel_fs) ||
      !opt(r, o, "parallel_fs_mb_per_s_per_tib", p, v.parallel_fs_mb_per_s_per_tib) ||
      !nullable_text(r, o, "object_storage", p, v.object_storage) || !nullable_text(r, o, "images", p, v.images) ||
      !nullable_text(r, o, "managed_training", p, v.managed_training) ||
      !nullable_text(r, o, "billing_minimum", p, v.billing_minimum) || !nullable_bool(r, o, "spot", p, v.spot))
    return false;
  if (o.contains("billing_granularity") && !o["billing_granularity"].is_null() &&
      !one_of(r, o, "billing_granularity", p, {"second", "minute", "hour", "day", "month"}, v.billing_granularity))
    return false;
  if (o.contains("lead_time_days") && !o["lead_time_days"].is_null()) {
    double days = 0;
    if (!r.number(o, "lead_time_days", p, 0, 3650, days)) return false;
    v.lead_time_days = days;
  }
  if (v.parallel_fs_mb_per_s_per_tib && v.parallel_fs.empty())
    return r.fail(r.join(p, "parallel_fs"), "must name the file system whose parallel_fs_mb_per_s_per_tib is given");
  // Every indicator given names its own source with a date; a null one is explained in notes.
  bool any_null = false;
  for (const char* key : kProviderIndicators) {
    if (!o.contains(key)) continue;
    if (o[key].is_null()) {
      any_null = true;
      continue;
    }
    const json* src = o.contains("sources") && o["sources"].contains(key) ? &o["sources"][key] : nullptr;
    if (!src)
      return r.fail(r.join(r.join(p, "sources"), key),
                    "is required: every provider indicator that is not null names its source (URL, or repository, "
                    "path and commit) and date");
    if (!names_a_date(src->get<std::string>()))
      return r.fail(r.join(r.join(p, "sources"), key),
                    "must give a date (\"read YYYY-MM-DD\" or \"published YYYY-MM-DD\") with the source");
  }
  if (any_null && v.notes.empty())
    return r.fail(r.join(p, "notes"), "must say what was searched for the provider indicators that are null");
  return true;
}

bool read_instance(Reader& r, const json& o, const std::string& p, Instance& i) {
  std::string currency, link;
  if (!entry_info(
          r, o, p, i,
          {"provider", "instance_type", "accelerator", "gpus", "vcpus", "ram_gb", "local_nvme_tb", "network_gbps",
           "inter_node_link", "region", "currency", "on_demand_per_hour", "spot_per_hour", "reserved_1yr_per_hour",
           "reserved_3yr_per_hour", "min_billing_hours", "gpus_per_host_max", "intra_host_link"}) ||
      !r.required(o, p, {"provider", "instance_type", "accelerator", "gpus", "region"}) ||
      !r.string(o, "provider", p, i.provider) || !r.string(o, "instance_type", p, i.instance_type) ||
      !r.string(o, "accelerator", p, i.accelerator) || !r.integer(o, "gpus", p, 1, 1024, i.gpus) ||
      !opt(r, o, "vcpus", p, i.vcpus) || !opt(r, o, "ram_gb", p, i.ram_gb) ||
      !opt(r, o, "network_gbps", p, i.network_gbps) || !r.string(o, "region", p, i.region) ||
      !one_of(r, o, "currency", p, {"usd", "cny"}, currency) ||
      !opt(r, o, "on_demand_per_hour", p, i.on_demand_per_hour) || !opt(r, o, "spot_per_hour", p, i.spot_per_hour) ||
      !opt(r, o, "reserved_1yr_per_hour", p, i.reserved_1yr_per_hour) ||
      !opt(r, o, "reserved_3yr_per_hour", p, i.reserved_3yr_per_hour) ||
      !opt(r, o, "min_billing_hours", p, i.min_billing_hours))
    return false;
  // Local NVMe may be 0 (none); every other figure is > 0 or null.
  if (o.contains("local_nvme_tb") && !o["local_nvme_tb"].is_null()) {
    double tb = 0;
    if (!r.number(o, "local_nvme_tb", p, 0, 1e6, tb)) return false;
    i.local_nvme_tb = tb;
  }
  if (o.contains("inter_node_link") && !o["inter_node_link"].is_null() &&
      !r.string(o, "inter_node_link", p, i.inter_node_link))
    return false;
  if (o.contains("gpus_per_host_max") && !o["gpus_per_host_max"].is_null()) {
    if (!r.integer(o, "gpus_per_host_max", p, 1, 64, i.gpus_per_host_max)) return false;
    // Cards of one host are sold one at a time, so the offering itself is one card.
    if (i.gpus != 1)
      return r.fail(r.join(p, "gpus_per_host_max"),
                    "applies to offerings rented by the card: gpus must be 1, got " + std::to_string(i.gpus));
  }
  if (o.contains("intra_host_link") && !o["intra_host_link"].is_null() &&
      !r.string(o, "intra_host_link", p, i.intra_host_link))
    return false;
  i.currency = currency == "usd" ? CurrencyCode::usd : CurrencyCode::cny;
  const bool priced = i.on_demand_per_hour || i.spot_per_hour || i.reserved_1yr_per_hour || i.reserved_3yr_per_hour;
  if (!priced && i.notes.empty())
    return r.fail(r.join(p, "on_demand_per_hour"), "no price is given: give one, or say in notes why none was found");
  return true;
}

bool read_model(Reader& r, const json& o, const std::string& p, ModelPreset& m) {
  std::vector<std::string> allowed = {"max_context", "published_params", "published_active_params"};
  for (std::string& k : detail::arch_keys()) allowed.push_back(std::move(k));
  if (!entry_info(r, o, p, m, allowed) ||
      !r.required(o, p, {"layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "max_context", "published_params"}) ||
      !r.integer(o, "max_context", p, 1, 100000000, m.max_context) ||
      !req(r, o, "published_params", p, m.published_params) ||
      !opt(r, o, "published_active_params", p, m.published_active_params))
    return false;
  return detail::read_arch_fields(r, o, p, m.arch);
}

bool read_server(Reader& r, const json& o, const std::string& p, Server& v) {
  if (!entry_info(r, o, p, v, {"accelerator", "gpus", "price_usd", "price_cny", "power_kw"}) ||
      !r.required(o, p, {"accelerator", "gpus", "power_kw"}) || !r.string(o, "accelerator", p, v.accelerator) ||
      !r.integer(o, "gpus", p, 1, 64, v.gpus) || !opt(r, o, "price_usd", p, v.price_usd) ||
      !opt(r, o, "price_cny", p, v.price_cny) || !req(r, o, "power_kw", p, v.power_kw))
    return false;
  if (v.price_usd.has_value() == v.price_cny.has_value())
    return r.fail(r.join(p, "price_usd"),
                  "give exactly one of price_usd and price_cny: the currency it was published in");
  return true;
}

// Each default's id is an input field of the TCO question and its value is checked against that
// field's range (tco.hpp), so a catalog default is always a value the user could have typed.
bool read_ownership_default(Reader& r, const json& o, const std::string& p, OwnershipDefault& v) {
  if (!entry_info(r, o, p, v, {"value", "unit"}) || !r.required(o, p, {"value", "unit"}) ||
      !r.string(o, "unit", p, v.unit))
    return false;
  const OwnershipField* f = find_ownership_field(v.id);
  if (!f) {
    std::string ids;
    for (const OwnershipField& k : kOwnershipFields) ids += (ids.empty() ? "" : ", ") + std::string(k.id);
    return r.fail(r.join(p, "id"), "must be one of " + ids + "; got \"" + v.id + "\"");
  }
  if (o["value"].is_null()) {
    if (!f->nullable) return r.fail(r.join(p, "value"), "must be a number: the calculation needs this default");
    if (v.notes.empty()) return r.fail(r.join(p, "notes"), "must say what was searched when value is null");
    return true;
  }
  double x = 0;
  if (!r.number(o, "value", p, f->lo, f->hi, x)) return false;
  v.value = x;
  return true;
}

// Reads one array section; each entry gets its own Reader so one bad entry does not hide others.
template <class T>
void read_section(const json& doc, const char* name, std::vector<T>& out,
                  const std::function<bool(Reader&, const json&, const std::string&, T&)>& read,
                  std::vector<std::string>& diags, bool required = true) {
  const std::string path = std::string("/") + name;
  if (!doc.contains(name)) {
    if (required) diags.push_back(path + ": is required");
    return;
  }
  const json& arr = doc[name];
  if (!arr.is_array()) {
    diags.push_back(path + ": must be an array");
    return;
  }
  std::set<std::string> ids;
  for (size_t i = 0; i < arr.size() && diags.size() < kMaxDiagnostics; ++i) {
    InputError err;
    Reader r(err, PathStyle::pointer);
    T item;
    const std::string p = r.index(path, i);
    if (read(r, arr[i], p, item) && !ids.insert(item.id).second) r.fail(p + "/id", "duplicate id \"" + item.id + "\"");
    if (!err.field.empty()) {
      diags.push_back(err.message);
    } else {
      out.push_back(std::move(item));
    }
  }
  // An alias must name one entry only: not an id of the section, not another entry's alias.
  std::set<std::string> aliases;
  for (size_t i = 0; i < out.size() && diags.size() < kMaxDiagnostics; ++i)
    for (size_t k = 0; k < out[i].aliases.size(); ++k) {
      const std::string& a = out[i].aliases[k];
      if (ids.count(a) || !aliases.insert(a).second)
        diags.push_back(path + "/" + std::to_string(i) + "/aliases/" + std::to_string(k) + ": \"" + a +
                        "\" is already an id or alias in " + name);
    }
}

void read_currency(const json& doc, CurrencyRate& c, std::vector<std::string>& diags) {
  InputError err;
  Reader r(err, PathStyle::pointer);
  if (!doc.contains("currency")) {
    diags.push_back("/currency: is required");
    return;
  }
  const json& o = doc["currency"];
  double rate = 0;
  if (r.object(o, "/currency") && r.keys(o, "/currency", {"usd_to_cny", "source", "as_of"}) &&
      r.required(o, "/currency", {"usd_to_cny", "source", "as_of"}) &&
      r.number(o, "usd_to_cny", "/currency", 0.01, 1000, rate) && r.string(o, "source", "/currency", c.source) &&
      r.string(o, "as_of", "/currency", c.as_of)) {
    c.usd_to_cny = rate;
    if (!valid_date(c.as_of, true)) r.fail("/currency/as_of", "must be a date YYYY-MM-DD; got \"" + c.as_of + "\"");
  }
  if (!err.field.empty()) diags.push_back(err.message);
}

//-----------------------------------------------------------------------------
// [SECTION] References between sections
//-----------------------------------------------------------------------------

// With an ownership section, every default the calculation reads is there (null where unsourced).
void check_ownership_complete(const Catalog& c, std::vector<std::string>& diags) {
  for (const OwnershipField& f : kOwnershipFields)
    if (!c.find_ownership_default(f.id)) diags.push_back(std::string("/ownership: has no entry \"") + f.id + "\"");
}

void check_references(const Catalog& c, std::vector<std::string>& diags) {
  auto link_scope_is = [&](const std::string& id, LinkScope scope) {
    const Interconnect* l = c.find_interconnect(id);
    return l && l->scope == scope;
  };
  for (size_t i = 0; i < c.accelerators.size(); ++i) {
    const Accelerator& a = c.accelerators[i];
    if (!a.intra_node_link.empty() && !link_scope_is(a.intra_node_link, LinkScope::intra_node))
      diags.push_back("/accelerators/" + std::to_string(i) + "/intra_node_link: \"" + a.intra_node_link +
                      "\" is not an intra_node interconnect id");
  }
  for (size_t i = 0; i < c.storage.size(); ++i) {
    const StorageTier& s = c.storage[i];
    if (s.provider != "generic" && !c.find_provider(s.provider))
      diags.push_back("/storage/" + std::to_string(i) + "/provider: \"" + s.provider +
                      "\" is not a provider id or \"generic\"");
  }
  for (size_t i = 0; i < c.servers.size(); ++i)
    if (!c.find_accelerator(c.servers[i].accelerator))
      diags.push_back("/servers/" + std::to_string(i) + "/accelerator: \"" + c.servers[i].accelerator +
                      "\" is not an accelerator id");
  for (size_t i = 0; i < c.instances.size(); ++i) {
    const Instance& in = c.instances[i];
    const std::string p = "/instances/" + std::to_string(i);
    if (!c.find_provider(in.provider)) diags.push_back(p + "/provider: \"" + in.provider + "\" is not a provider id");
    if (!c.find_accelerator(in.accelerator))
      diags.push_back(p + "/accelerator: \"" + in.accelerator + "\" is not an accelerator id");
    if (!in.inter_node_link.empty() && !link_scope_is(in.inter_node_link, LinkScope::inter_node))
      diags.push_back(p + "/inter_node_link: \"" + in.inter_node_link + "\" is not an inter_node interconnect id");
    if (!in.intra_host_link.empty() && !link_scope_is(in.intra_host_link, LinkScope::intra_node))
      diags.push_back(p + "/intra_host_link: \"" + in.intra_host_link + "\" is not an intra_node interconnect id");
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Documents: one merged file or several section files
//-----------------------------------------------------------------------------

struct Header {
  int schema_version = 0;
  std::string catalog_version;
  std::string as_of;
};

// The header every catalog file carries; refuses a newer schema before reading anything else.
bool read_header(const json& doc, const std::string& where, Header& h, std::vector<std::string>& diags) {
  InputError err;
  Reader r(err, PathStyle::pointer);
  if (r.object(doc, "") && r.required(doc, "", {"schema_version", "catalog_version", "as_of"}) &&
      r.integer(doc, "schema_version", "", 1, 1000000, h.schema_version)) {
    if (h.schema_version > kCatalogSchemaVersion) {
      r.fail("/schema_version", "the catalog uses schema " + Reader::num(h.schema_version) +
                                    " but this llmplan reads up to " + Reader::num(kCatalogSchemaVersion) +
                                    ": update llmplan to read it");
    } else if (h.schema_version < kCatalogSchemaVersion) {
      r.fail("/schema_version", "schema " + Reader::num(h.schema_version) + " is older than " +
                                    Reader::num(kCatalogSchemaVersion) + " and no longer read");
    } else if (r.string(doc, "catalog_version", "", h.catalog_version) && r.string(doc, "as_of", "", h.as_of)) {
      if (!valid_catalog_version(h.catalog_version))
        r.fail("/catalog_version", "must look like 2026.11.0 (YYYY.MM.N); got \"" + h.catalog_version + "\"");
      else if (!valid_date(h.as_of, true))
        r.fail("/as_of", "must be a date YYYY-MM-DD; got \"" + h.as_of + "\"");
    }
  }
  if (err.field.empty()) return true;
  diags.push_back(where + err.message);
  return false;
}

CatalogLoad load_document(const json& doc) {
  CatalogLoad out;
  Header h;
  if (!read_header(doc, "", h, out.diagnostics)) return out;
  Catalog c;
  c.schema_version = h.schema_version;
  c.catalog_version = h.catalog_version;
  c.as_of = h.as_of;
  for (const auto& [key, value] : doc.items()) {
    bool known = key == "schema_version" || key == "catalog_version" || key == "as_of" || key == "$schema";
    for (const char* s : kCatalogSections) known = known || key == s;
    if (!known) out.diagnostics.push_back("/" + key + ": unknown section; allowed: " + catalog_sections_text());
  }
  auto& d = out.diagnostics;
  read_section<Accelerator>(doc, "accelerators", c.accelerators, read_accelerator, d);
  read_section<Interconnect>(doc, "interconnects", c.interconnects, read_interconnect, d);
  read_section<StorageTier>(doc, "storage", c.storage, read_storage, d);
  read_section<Provider>(doc, "providers", c.providers, read_provider, d);
  read_section<Instance>(doc, "instances", c.instances, read_instance, d);
  read_section<ModelPreset>(doc, "models", c.models, read_model, d);
  read_currency(doc, c.currency, d);
  // Releases before 2026.12.4 have no servers or ownership defaults; they still load.
  read_section<Server>(doc, "servers", c.servers, read_server, d, false);
  read_section<OwnershipDefault>(doc, "ownership", c.ownership, read_ownership_default, d, false);
  if (doc.contains("ownership")) check_ownership_complete(c, d);
  if (d.empty()) check_references(c, d);
  if (d.size() > kMaxDiagnostics) d.resize(kMaxDiagnostics);
  if (d.empty()) out.catalog = std::move(c);
  return out;
}

json parse_or_diagnose(std::string_view text, const std::string& where, std::vector<std::string>& diags) {
  if (const size_t deep = detail::too_deep_at(text); deep != std::string_view::npos) {
    diags.push_back(where + "not valid JSON here: byte " + std::to_string(deep) + " opens an array or object nested " +
                    "more than " + std::to_string(detail::kMaxJsonDepth) + " levels deep");
    return json();
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {  // parse_error, and out_of_range 406 for numbers like 1E978
    diags.push_back(where + "not valid JSON (" + std::string(e.what()) + ")");
    return json();
  }
}

}  // namespace

CatalogLoad load_catalog(std::string_view text) {
  CatalogLoad out;
  const json doc = parse_or_diagnose(text, "", out.diagnostics);
  if (!out.diagnostics.empty()) return out;
  return load_document(doc);
}

CatalogLoad load_catalog_files(const std::vector<CatalogFile>& files) {
  CatalogLoad out;
  json merged = json::object();
  Header first;
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string where = files[f].name + ": ";
    json doc = parse_or_diagnose(files[f].text, where, out.diagnostics);
    Header h;
    if (!out.diagnostics.empty() || !read_header(doc, where, h, out.diagnostics)) return out;
    if (f == 0) first = h;
    if (h.catalog_version != first.catalog_version)
      out.diagnostics.push_back(where + "/catalog_version: \"" + h.catalog_version + "\" differs from \"" +
                                first.catalog_version + "\" in " + files[0].name);
    for (auto& [key, value] : doc.items()) {
      if (key == "schema_version" || key == "catalog_version" || key == "as_of") continue;
      if (merged.contains(key)) out.diagnostics.push_back(where + "/" + key + ": section given by two files");
      merged[key] = std::move(value);
    }
    if (h.as_of > first.as_of) first.as_of = h.as_of;  // the merged catalog is as recent as its newest file
  }
  if (!out.diagnostics.empty()) return out;
  merged["schema_version"] = first.schema_version;
  merged["catalog_version"] = first.catalog_version;
  merged["as_of"] = first.as_of;
  out = load_document(merged);
  if (out.catalog) out.merged_json = merged.dump(1);
  return out;
}

std::string catalog_sections_text() {
  std::string out;
  for (const char* s : kCatalogSections) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

}  // namespace llmplan
