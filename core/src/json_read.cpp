// json_read.cpp: strict, non-throwing JSON field readers shared by the scenario and catalog.
#include "json_read.hpp"

#include <cmath>
#include <cstdio>

#include "llmplan/catalog.hpp"

namespace llmplan {

nlohmann::json parse_json_untrusted(std::string_view text) { return detail::parse_untrusted(text); }

}  // namespace llmplan

namespace llmplan::detail {

bool Reader::fail(const std::string& field, const std::string& message) {
  if (ok()) err_ = {field, field + ": " + message};
  return false;
}

std::string Reader::join(const std::string& path, const std::string& key) const {
  if (style_ == PathStyle::pointer) return path + "/" + key;
  return path.empty() ? key : path + "." + key;
}

std::string Reader::index(const std::string& path, size_t i) const {
  return style_ == PathStyle::pointer ? path + "/" + std::to_string(i) : path + "[" + std::to_string(i) + "]";
}

std::string Reader::list(std::initializer_list<const char*> names) {
  std::string s;
  for (const char* n : names) s += (s.empty() ? "" : ", ") + std::string("\"") + n + "\"";
  return s;
}

std::string Reader::num(double v) {
  char buf[48];
  if (std::fabs(v) < 1e15 && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v);
  }
  return buf;
}

bool Reader::object(const json& v, const std::string& path) {
  if (v.is_object()) return true;
  return fail(path.empty() ? (style_ == PathStyle::pointer ? "/" : "(scenario)") : path, "must be a JSON object");
}

bool Reader::keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed) {
  for (const auto& [k, v] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || k == a;
    if (!known) return fail(join(path, k), "unknown field; allowed here: " + list(allowed));
  }
  return true;
}

bool Reader::required(const json& obj, const std::string& path, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (!obj.contains(n)) return fail(join(path, n), "is required");
  return true;
}

bool Reader::integer(const json& obj, const char* key, const std::string& path, long long lo, long long hi,
                     int& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  const std::string f = join(path, key);
  const std::string range = "must be an integer in " + num(static_cast<double>(lo)) + ".." +
                            num(static_cast<double>(hi));
  if (!v.is_number()) return fail(f, range + "; got " + v.dump());
  const double d = v.get<double>();
  if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    return fail(f, range + "; got " + v.dump());
  out = static_cast<int>(d);
  return true;
}

bool Reader::number(const json& obj, const char* key, const std::string& path, double lo, double hi, double& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  const std::string f = join(path, key);
  const std::string range = "must be a number in " + num(lo) + ".." + num(hi);
  if (!v.is_number()) return fail(f, range + "; got " + v.dump());
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi) return fail(f, range + "; got " + v.dump());
  out = d;
  return true;
}

bool Reader::positive(const json& obj, const char* key, const std::string& path, std::optional<double>& out,
                      bool nullable) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  if (v.is_null() && nullable) {
    out.reset();
    return true;
  }
  const std::string expect = nullable ? "must be > 0 or null" : "must be > 0";
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
    return fail(join(path, key), expect + ", got " + v.dump());
  out = v.get<double>();
  return true;
}

bool Reader::boolean(const json& obj, const char* key, const std::string& path, bool& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  if (!v.is_boolean()) return fail(join(path, key), "must be true or false; got " + v.dump());
  out = v.get<bool>();
  return true;
}

bool Reader::string(const json& obj, const char* key, const std::string& path, std::string& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  if (!v.is_string()) return fail(join(path, key), "must be a string; got " + v.dump());
  out = v.get<std::string>();
  return true;
}

bool read_arch_fields(Reader& r, const json& o, const std::string& p, ModelArch& a) {
  return r.integer(o, "layers", p, 1, 1000, a.layers) && r.integer(o, "hidden", p, 1, 1000000, a.hidden) &&
         r.integer(o, "heads", p, 1, 4096, a.heads) && r.integer(o, "kv_heads", p, 1, 4096, a.kv_heads) &&
         r.integer(o, "head_dim", p, 0, 65536, a.head_dim) && r.integer(o, "ffn", p, 1, 10000000, a.ffn) &&
         r.integer(o, "vocab", p, 1, 10000000, a.vocab) && r.boolean(o, "gated_mlp", p, a.gated_mlp) &&
         r.boolean(o, "tied_embeddings", p, a.tied_embeddings) && r.boolean(o, "qkv_bias", p, a.qkv_bias) &&
         r.boolean(o, "linear_bias", p, a.linear_bias) &&
         r.choice(o, "norm", p, {"rmsnorm", "layernorm"}, a.norm) &&
         r.integer(o, "learned_positions", p, 0, 10000000, a.learned_positions) &&
         r.integer(o, "experts", p, 0, 4096, a.experts) && r.integer(o, "top_k", p, 0, 4096, a.top_k) &&
         r.integer(o, "shared_experts", p, 0, 64, a.shared_experts) &&
         r.integer(o, "expert_ffn", p, 0, 10000000, a.expert_ffn) &&
         r.integer(o, "shared_expert_ffn", p, 0, 10000000, a.shared_expert_ffn) &&
         r.integer(o, "dense_layers", p, 0, 1000, a.dense_layers) &&
         r.choice(o, "attention", p, {"mha", "mla"}, a.attention) &&
         r.integer(o, "q_lora_rank", p, 0, 1000000, a.q_lora_rank) &&
         r.integer(o, "kv_lora_rank", p, 0, 1000000, a.kv_lora_rank) &&
         r.integer(o, "qk_nope_head_dim", p, 0, 65536, a.qk_nope_head_dim) &&
         r.integer(o, "qk_rope_head_dim", p, 0, 65536, a.qk_rope_head_dim) &&
         r.integer(o, "v_head_dim", p, 0, 65536, a.v_head_dim) && check_arch(r, a, p);
}

bool check_arch(Reader& r, const ModelArch& a, const std::string& p) {
  if (a.kv_heads > a.heads || a.heads % a.kv_heads != 0)
    return r.fail(r.join(p, "kv_heads"), "must divide heads (" + Reader::num(a.heads) + ") and be at most heads; got " +
                                             Reader::num(a.kv_heads));
  if (a.head_dim == 0 && a.attention == AttentionKind::mha && a.hidden % a.heads != 0)
    return r.fail(r.join(p, "heads"), "must divide hidden (" + Reader::num(a.hidden) +
                                          ") unless head_dim is given; got " + Reader::num(a.heads));
  if (a.experts > 0 && (a.top_k < 1 || a.top_k > a.experts))
    return r.fail(r.join(p, "top_k"), "must be in 1..experts (" + Reader::num(a.experts) + ") for an MoE model; got " +
                                          Reader::num(a.top_k));
  if (a.experts > 0 && a.expert_ffn < 1)
    return r.fail(r.join(p, "expert_ffn"), "must be at least 1 for an MoE model; got " + Reader::num(a.expert_ffn));
  if (a.experts == 0 && (a.top_k > 0 || a.shared_experts > 0 || a.expert_ffn > 0 || a.dense_layers > 0))
    return r.fail(r.join(p, "experts"), "must be at least 1 when top_k, shared_experts, expert_ffn or dense_layers is given");
  if (a.dense_layers > a.layers)
    return r.fail(r.join(p, "dense_layers"), "must be at most layers (" + Reader::num(a.layers) + "); got " +
                                                 Reader::num(a.dense_layers));
  if (a.attention == AttentionKind::mla &&
      (a.kv_lora_rank < 1 || a.qk_nope_head_dim + a.qk_rope_head_dim < 1 || a.v_head_dim < 1))
    return r.fail(r.join(p, "attention"), "\"mla\" needs kv_lora_rank, qk_nope_head_dim or qk_rope_head_dim, and v_head_dim >= 1");
  return true;
}

}  // namespace llmplan::detail
