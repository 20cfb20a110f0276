// json_read.cpp: strict, non-throwing JSON field readers shared by the scenario and catalog.
#include "json_read.hpp"

#include "llmplan/wording.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "llmplan/catalog.hpp"

namespace llmplan {

nlohmann::json parse_json_untrusted(std::string_view text) { return detail::parse_untrusted(text); }

}  // namespace llmplan

namespace llmplan::detail {

namespace {

// The offset of the first byte that is not well-formed UTF-8 (RFC 3629), or npos.
size_t first_bad_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80                        ? 1
                     : (c >> 5) == 0x6 && c >= 0xC2  ? 2
                     : (c >> 4) == 0xE               ? 3
                     : (c >> 3) == 0x1E && c <= 0xF4 ? 4
                                                     : 0;
    if (n == 0 || i + n > s.size()) return i;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
    i += n;
  }
  return std::string_view::npos;
}

}  // namespace

size_t too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

namespace {

// Parses with a watch on the keys: `at` is the dotted path of the key whose value is being read
// (where a failure happened), `duplicate` the first key written twice in one object. Throws the
// parser's exception.
json parse_watching(std::string_view text, std::string& at, std::string& duplicate) {
  std::vector<std::pair<std::string, std::vector<std::string>>> open;  // per object: its path and keys
  std::string last_key;
  const auto path_of_key = [&]() {
    return open.empty() ? std::string() : (open.back().first.empty() ? "" : open.back().first + ".") + last_key;
  };
  const json::parser_callback_t watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open.push_back({path_of_key(), {}});
      last_key.clear();
    } else if (event == json::parse_event_t::object_end && !open.empty()) {
      open.pop_back();
    } else if (event == json::parse_event_t::key && !open.empty()) {
      last_key = parsed.get<std::string>();
      auto& keys = open.back().second;
      if (duplicate.empty() && std::find(keys.begin(), keys.end(), last_key) != keys.end()) duplicate = path_of_key();
      keys.push_back(last_key);
    } else if (event == json::parse_event_t::array_start) {
      last_key = "[]";  // keys inside arrays are reported under their array's path
    }
    at = last_key.empty() ? (open.empty() ? "" : open.back().first) : path_of_key();
    return true;
  };
  return json::parse(text.begin(), text.end(), watch, true);
}

// Whether byte `pos` sits in an object key rather than a value: the string around it opens after
// '{' or ',' (a value's opens after ':' or in an array).
bool bad_byte_in_key(std::string_view text, size_t pos) {
  size_t open = pos;
  while (open > 0 && !(text[open - 1] == '"' && (open < 2 || text[open - 2] != '\\'))) --open;
  if (open == 0) return false;
  size_t before = open - 1;
  while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
  return before > 0 && (text[before - 1] == '{' || text[before - 1] == ',') &&
         text.substr(0, before).rfind(':') != std::string_view::npos;
}

std::string parent_path(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string reason_of(const json::exception& e) {
  std::string why = e.what();
  const size_t cut = why.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " tag
  if (cut != std::string::npos) why = why.substr(cut + 2);
  return why.size() > 200 ? why.substr(0, 200) + "..." : why;
}

}  // namespace

json parse_checked(std::string_view text, std::string& problem, std::string* field) {
  problem.clear();
  std::string at, duplicate;
  if (field) field->clear();
  if (const size_t bad = first_bad_utf8(text); bad != std::string_view::npos) {
    problem = "byte " + std::to_string(bad) + " is not UTF-8 text";
    try {  // the key being read where the bad byte sits: parse the text before it
      parse_watching(text.substr(0, bad), at, duplicate);
    } catch (const json::exception&) {}
    if (field) *field = bad_byte_in_key(text, bad) ? parent_path(at) : at;
    return json(json::value_t::discarded);
  }
  if (const size_t deep = too_deep_at(text); deep != std::string_view::npos) {
    problem = "byte " + std::to_string(deep) + " opens an array or object nested more than " +
              std::to_string(kMaxJsonDepth) + " levels deep (allowed: up to " + std::to_string(kMaxJsonDepth) + ")";
    return json(json::value_t::discarded);
  }
  json doc;
  try {
    doc = parse_watching(text, at, duplicate);
  } catch (const json::out_of_range& e) {
    // A number beyond double ("1e999"): nlohmann names the token but not where it is.
    problem = reason_of(e);
    const size_t q = problem.find('\'');
    const size_t token = q == std::string::npos ? std::string::npos
                                                : text.find(problem.substr(q + 1, problem.find('\'', q + 1) - q - 1));
    if (token != std::string::npos) problem += " (byte " + std::to_string(token) + ")";
    if (field) *field = at;
    return json(json::value_t::discarded);
  } catch (const json::exception& e) {
    problem = reason_of(e);  // a syntax error: the parser gives the line and column
    return json(json::value_t::discarded);
  }
  if (duplicate.empty()) return doc;
  problem = "the key \"" + duplicate + "\" is written twice (JSON keeps only the last)";
  if (field) *field = duplicate;
  return json(json::value_t::discarded);
}

bool Reader::fail(const std::string& field, const std::string& message) {
  if (ok()) err_ = {field, field + ": " + message};
  return false;
}

bool Reader::fail(const std::string& field, InputErrorCode code, std::initializer_list<std::string_view> args) {
  if (!ok()) return false;
  std::vector<std::string> values(args.begin(), args.end());
  std::string message = field + ": " + fill_positional(input_error_english(code.code), values);
  err_ = {field, std::move(message), code.code, std::move(values)};
  return false;
}

bool Reader::fail_inside(const std::string& prefix, const InputError& inner) {
  if (ok()) err_ = {prefix + inner.field, prefix + inner.message, inner.code, inner.args};
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

std::string Reader::echo_value(const json& v) {
  if (v.is_string()) return echo(std::string_view(v.get_ref<const std::string&>()));
  const std::string text = v.dump();
  if (text.size() <= kEchoChars) return text;
  return text.substr(0, kEchoChars) + "... (" + std::to_string(text.size()) + " characters)";
}

std::string Reader::echo(std::string_view s) {
  if (s.size() <= kEchoChars) return json(std::string(s)).dump();
  // Cut on a character boundary: never inside a UTF-8 sequence (the message must stay valid UTF-8).
  size_t cut = kEchoChars;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return json(std::string(s.substr(0, cut))).dump() + "... (" + std::to_string(s.size()) + " characters)";
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
  return fail(path.empty() ? (style_ == PathStyle::pointer ? "/" : "(scenario)") : path, "object", {});
}

bool Reader::keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed) {
  for (const auto& [k, v] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || k == a;
    if (!known) return fail(join(path, k), "unknown_field", {list(allowed)});
  }
  return true;
}

bool Reader::required(const json& obj, const std::string& path, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (!obj.contains(n)) return fail(join(path, n), "required", {});
  return true;
}

bool Reader::integer(const json& obj, const char* key, const std::string& path, long long lo, long long hi, int& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  const std::string f = join(path, key);
  const std::string range = num(static_cast<double>(lo)) + ".." + num(static_cast<double>(hi));
  if (!v.is_number()) return fail(f, "integer_range", {range, Reader::echo_value(v)});
  const double d = v.get<double>();
  if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    return fail(f, "integer_range", {range, Reader::echo_value(v)});
  out = static_cast<int>(d);
  return true;
}

bool Reader::number(const json& obj, const char* key, const std::string& path, double lo, double hi, double& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  const std::string f = join(path, key);
  const std::string range = num(lo) + ".." + num(hi);
  if (!v.is_number()) return fail(f, "number_range", {range, Reader::echo_value(v)});
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi) return fail(f, "number_range", {range, Reader::echo_value(v)});
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
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
    return fail(join(path, key), nullable ? InputErrorCode("positive_or_null") : InputErrorCode("positive"),
                {Reader::echo_value(v)});
  out = v.get<double>();
  return true;
}

bool Reader::boolean(const json& obj, const char* key, const std::string& path, bool& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  if (!v.is_boolean()) return fail(join(path, key), "boolean", {Reader::echo_value(v)});
  out = v.get<bool>();
  return true;
}

bool Reader::string(const json& obj, const char* key, const std::string& path, std::string& out) {
  if (!obj.contains(key)) return ok();
  const json& v = obj[key];
  if (!v.is_string()) return fail(join(path, key), "string", {Reader::echo_value(v)});
  out = v.get<std::string>();
  return true;
}

bool Reader::keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) {
  for (const auto& [k, v] : obj.items()) {
    bool known = false;
    for (const std::string& a : allowed) known = known || k == a;
    if (known) continue;
    std::string names;
    for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + std::string("\"") + a + "\"";
    return fail(join(path, k), "unknown_field", {names});
  }
  return true;
}

namespace {

std::string names_text(std::span<const char* const> names) {
  std::string s;
  for (const char* n : names) s += (s.empty() ? "" : ", ") + std::string("\"") + n + "\"";
  return s;
}

bool in_range(const json& v, const FieldSpec& f, bool integral) {
  if (!v.is_number()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && (!integral || d == std::floor(d)) && d >= f.lo && d <= f.hi;
}

bool check_object(Reader& r, const json& obj, const std::string& prefix, FieldScope scope) {
  const std::string path = prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1);
  if (!r.object(obj, path) || !r.keys(obj, path, field_children(prefix, scope))) return false;
  for (const auto& [k, v] : obj.items()) {
    const std::string full = prefix + k;
    if (const FieldSpec* f = find_field(full); f && f->scope == scope) {
      if (!check_field(r, *f, v, full)) return false;
    } else if (!check_object(r, v, full + ".", scope)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool check_field(Reader& r, const FieldSpec& f, const json& v, const std::string& shown) {
  const std::string range = field_range_text(f);
  switch (f.type) {
    case FieldType::integer:
      return in_range(v, f, true) || r.fail(shown, "integer_range", {range, Reader::echo_value(v)});
    case FieldType::number:
      return in_range(v, f, false) || r.fail(shown, "number_range", {range, Reader::echo_value(v)});
    case FieldType::number_or_auto:
      return (v.is_string() && v.get<std::string>() == "auto") || in_range(v, f, false) ||
             r.fail(shown, "auto_or_range", {range, Reader::echo_value(v)});
    case FieldType::boolean: return v.is_boolean() || r.fail(shown, "boolean", {Reader::echo_value(v)});
    case FieldType::id: return v.is_string() || r.fail(shown, "string", {Reader::echo_value(v)});
    case FieldType::choice:
      if (!v.is_string()) return r.fail(shown, "string", {Reader::echo_value(v)});
      return field_choice_index(f, v.get<std::string>()) >= 0 ||
             r.fail(shown, "one_of", {names_text(f.choices), Reader::echo_value(v)});
    case FieldType::list:
      if (!v.is_array()) return r.fail(shown, "must be an array of catalog ids");
      for (const json& x : v)
        if (!x.is_string()) return r.fail(shown, "must be an array of catalog ids; got " + Reader::echo_value(x));
      return true;
  }
  return false;
}

void apply_field(const FieldSpec& f, const json& v, Scenario& s) {
  if (!f.ref) return;
  const FieldRef ref = f.ref(s);
  if (int* const* i = std::get_if<int*>(&ref))
    **i = static_cast<int>(v.get<double>() / f.scale);
  else if (double* const* d = std::get_if<double*>(&ref)) {
    if (v.is_number()) **d = v.get<double>() / f.scale;  // "auto" keeps the default
  } else if (bool* const* b = std::get_if<bool*>(&ref))
    **b = v.get<bool>();
  else if (std::string* const* str = std::get_if<std::string*>(&ref))
    **str = v.get<std::string>();
  else if (const EnumRef* e = std::get_if<EnumRef>(&ref))
    e->set(e->p, field_choice_index(f, v.get<std::string>()));
}

bool check_fields(Reader& r, const json& root, FieldScope scope) { return check_object(r, root, "", scope); }

std::vector<std::string> arch_keys() {
  std::vector<std::string> out;
  for (const std::string& k : field_children("model.", FieldScope::scenario))
    if (k != "preset") out.push_back(k);
  return out;
}

bool read_arch_fields(Reader& r, const json& o, const std::string& p, ModelArch& a) {
  Scenario s;
  s.model = a;
  for (const std::string& key : arch_keys()) {
    if (!o.contains(key)) continue;
    const FieldSpec& f = field("model." + key);
    if (!check_field(r, f, o[key], r.join(p, key))) return false;
    apply_field(f, o[key], s);
  }
  a = s.model;
  return check_arch(r, a, p);
}

bool check_arch(Reader& r, const ModelArch& a, const std::string& p) {
  if (a.kv_heads > a.heads || a.heads % a.kv_heads != 0)
    return r.fail(r.join(p, "kv_heads"), "kv_heads_heads", {Reader::num(a.heads), Reader::num(a.kv_heads)});
  if (a.head_dim == 0 && a.attention == AttentionKind::mha && a.hidden % a.heads != 0)
    return r.fail(r.join(p, "heads"), "heads_hidden", {Reader::num(a.hidden), Reader::num(a.heads)});
  if (a.experts > 0 && (a.top_k < 1 || a.top_k > a.experts))
    return r.fail(r.join(p, "top_k"), "top_k_experts", {Reader::num(a.experts), Reader::num(a.top_k)});
  if (a.experts > 0 && a.expert_ffn < 1)
    return r.fail(r.join(p, "expert_ffn"), "moe_expert_ffn", {Reader::num(a.expert_ffn)});
  if (a.experts == 0 && (a.top_k > 0 || a.shared_experts > 0 || a.expert_ffn > 0 || a.dense_layers > 0))
    return r.fail(r.join(p, "experts"), "experts_needed", {});
  if (a.dense_layers > a.layers)
    return r.fail(r.join(p, "dense_layers"), "at_most_layers", {Reader::num(a.layers), Reader::num(a.dense_layers)});
  if (a.sliding_layers > a.layers)
    return r.fail(r.join(p, "sliding_layers"), "at_most_layers",
                  {Reader::num(a.layers), Reader::num(a.sliding_layers)});
  if (a.attention == AttentionKind::mla &&
      (a.kv_lora_rank < 1 || a.qk_nope_head_dim + a.qk_rope_head_dim < 1 || a.v_head_dim < 1))
    return r.fail(r.join(p, "attention"), "mla_dims", {});
  return true;
}

namespace {
// Edit distance (Levenshtein), for suggesting the id a typo meant.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closest_ids(const std::string& name, const std::set<std::string>& known) {
  std::string low = name;
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  std::vector<std::pair<size_t, std::string>> near;
  for (const std::string& k : known)
    near.emplace_back(std::min(edit_distance(low, k), edit_distance(low, k.substr(0, low.size())) + 1), k);
  std::sort(near.begin(), near.end());
  std::string hint;
  for (size_t i = 0; i < std::min<size_t>(3, near.size()); ++i) hint += (i ? ", \"" : "\"") + near[i].second + "\"";
  return hint;
}

}  // namespace llmplan::detail
