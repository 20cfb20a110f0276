// json_read.hpp: strict readers for untrusted JSON. Each reports the first problem as an
// InputError whose message names the field path and the allowed values; none throws.
// Scenario fields are named with dots ("parallel.tp"), catalog fields with JSON pointers
// ("/accelerators/3/memory_gb").
#pragma once
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmplan/fields.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/scenario.hpp"
#include "llmplan/wording.hpp"

namespace llmplan::detail {

using nlohmann::json;

enum class PathStyle { dotted, pointer };

// No document this project reads nests deeper than a dozen levels; the parser recurses once per
// level, so a deeper document is refused before parsing (a hostile 100,000-level one would
// overflow the stack, and the key watch of parse_checked would take time quadratic in the depth).
inline constexpr int kMaxJsonDepth = 64;
// The byte at which `text` opens its (kMaxJsonDepth + 1)-th nested array or object (brackets in
// strings aside), or npos.
size_t too_deep_at(std::string_view text);

// J::parse through one input type, std::string_view: a std::string argument would compile each
// json type's parser a second time for its iterators (about 7 KB each in the embed card's module,
// which has a 1 MB budget). For text the core wrote itself, or with allow_exceptions false.
template <class J = json>
J parse_text(std::string_view text, bool allow_exceptions = true) {
  return J::parse(text.begin(), text.end(), nullptr, allow_exceptions);
}

// json::parse of untrusted text that never throws: a discarded value on any error. With
// allow_exceptions = false nlohmann 3.11.2 reports syntax errors and out-of-range numbers (1E978)
// as discarded; the catch keeps that promise for whatever else a json exception may report.
template <class J = json>
J parse_untrusted(std::string_view text) {
  if (too_deep_at(text) != std::string_view::npos) return J(J::value_t::discarded);
  try {
    return J::parse(text.begin(), text.end(), nullptr, false);
  } catch (const nlohmann::json::exception&) {
    return J(J::value_t::discarded);
  }
}

// parse_untrusted for documents people write (scenarios, questions): the document, or a discarded
// value and, in `problem`, why in words: the parser's reason and position for a syntax error or an
// out-of-range number ("1e999"), the path of a key written twice in one object (JSON parsers
// silently keep the last; a scenario must not), or the first byte that is not UTF-8.
// `field`, when given, receives the dotted path of the value at fault for a bad number, a byte
// that is not UTF-8 or a duplicate key ("" at the top level or for a syntax error).
json parse_checked(std::string_view text, std::string& problem, std::string* field = nullptr);

class Reader {
 public:
  explicit Reader(InputError& err, PathStyle style = PathStyle::dotted) : err_(err), style_(style) {}
  bool ok() const { return err_.field.empty(); }
  bool fail(const std::string& field, const std::string& message);
  // The same worded by `code` (kInputErrorWordings, wording.hpp) with its values.
  bool fail(const std::string& field, InputErrorCode code, std::initializer_list<std::string_view> args);
  // `inner`, an error of a document read inside this one, named under `prefix` ("workload.scenario.").
  bool fail_inside(const std::string& prefix, const InputError& inner);

  std::string join(const std::string& path, const std::string& key) const;
  std::string index(const std::string& path, size_t i) const;

  // Rejects keys not in `allowed` (typos must not be silently ignored).
  bool keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed);
  bool keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed);
  bool required(const json& obj, const std::string& path, std::initializer_list<const char*> names);
  bool object(const json& v, const std::string& path);
  // Each reads obj[key] into out when present; a missing key leaves out (the default) alone.
  bool integer(const json& obj, const char* key, const std::string& path, long long lo, long long hi, int& out);
  bool number(const json& obj, const char* key, const std::string& path, double lo, double hi, double& out);
  // A number > 0 ("must be > 0, got -80"); with `nullable`, JSON null reads as an empty optional.
  bool positive(const json& obj, const char* key, const std::string& path, std::optional<double>& out, bool nullable);
  bool boolean(const json& obj, const char* key, const std::string& path, bool& out);
  bool string(const json& obj, const char* key, const std::string& path, std::string& out);

  // Reads one of the names in `names` (index i maps to enum value i).
  template <class E>
  bool choice(const json& obj, const char* key, const std::string& path, std::initializer_list<const char*> names,
              E& out) {
    std::string s;
    if (!obj.contains(key)) return ok();
    if (!string(obj, key, path, s)) return false;
    int i = 0;
    for (const char* n : names) {
      if (s == n) {
        out = static_cast<E>(i);
        return true;
      }
      ++i;
    }
    return fail(join(path, key), "one_of", {list(names), echo(s)});
  }

  static std::string list(std::initializer_list<const char*> names);
  static std::string num(double v);
  // A value the user gave, as an error message echoes it: its JSON text, or the quoted string, cut
  // to kEchoChars with how long it was (a 10 MB value is not printed back).
  static std::string echo_value(const json& v);
  static std::string echo(std::string_view s);
  static constexpr size_t kEchoChars = 80;

 private:
  InputError& err_;
  PathStyle style_;
};

// The three known ids closest to a mistyped one, quoted and comma-separated, for "closest: ..."
// hints; ids are lowercase, so "H100" is compared as "h100", and a known id that starts like the
// typo ("h100-sxm" -> "h100-sxm5-80gb") counts as one edit away.
std::string closest_ids(const std::string& name, const std::set<std::string>& known);

// The type and range check of one table field's value; `shown` is the path the error names.
bool check_field(Reader& r, const FieldSpec& f, const json& v, const std::string& shown);
// Stores a checked value into the field's Scenario member (fields with a ref only).
void apply_field(const FieldSpec& f, const json& v, Scenario& s);
// Checks every table field of `scope` present in `root`: known keys, objects where the table
// has objects, types and ranges. Nothing is applied.
bool check_fields(Reader& r, const json& root, FieldScope scope);

// The architecture fields shared by a scenario's "model" object and the catalog's presets: the
// table's model.* fields without "preset", as keys of that object.
std::vector<std::string> arch_keys();
// Reads the architecture fields of `obj` (scenario "model" or a catalog preset) into `arch`.
bool read_arch_fields(Reader& r, const json& obj, const std::string& path, ModelArch& arch);
bool check_arch(Reader& r, const ModelArch& arch, const std::string& path);

}  // namespace llmplan::detail
