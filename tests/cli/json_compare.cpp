// json_compare: compares the JSON a CLI command printed with its golden file. Keys and their
// order, strings, booleans, nulls, array lengths and integers must be equal; floating-point
// numbers may differ by a relative tolerance, so a recalibration that moves a figure by less
// than it does not force every golden to be regenerated, and one that moves it by more fails.
// Usage: json_compare GOLDEN ACTUAL REL_TOLERANCE
// Exit status 0: they match; 1: one line per difference (JSON Pointer, golden, actual); 2: bad input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using json = nlohmann::ordered_json;

struct Comparison {
  double rel_tolerance = 0;
  std::vector<std::string> differences;
  void differ(const std::string& where, const json& want, const json& got, const std::string& why = "") {
    differences.push_back((where.empty() ? "/" : where) + ": golden " + want.dump() + ", got " + got.dump() +
                          (why.empty() ? "" : " (" + why + ")"));
  }
};

// A key as a JSON Pointer token (RFC 6901): "~" is "~0", "/" is "~1".
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char ch : key) out += ch == '~' ? std::string("~0") : ch == '/' ? std::string("~1") : std::string(1, ch);
  return out;
}

bool is_integer(const json& j) { return j.is_number_integer() || j.is_number_unsigned(); }

// Relative to the larger magnitude, so the test is symmetric; zero matches only zero.
void compare_numbers(const json& want, const json& got, const std::string& where, Comparison& c) {
  if (is_integer(want) && is_integer(got)) {
    if (want != got) c.differ(where, want, got, "integers are compared exactly");
    return;
  }
  const double a = want.get<double>(), b = got.get<double>();
  if (a == b) return;
  const double rel = std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
  if (rel > c.rel_tolerance) {
    char why[96];
    std::snprintf(why, sizeof why, "relative difference %.3g > tolerance %.3g", rel, c.rel_tolerance);
    c.differ(where, want, got, why);
  }
}

void compare(const json& want, const json& got, const std::string& where, Comparison& c);

void compare_objects(const json& want, const json& got, const std::string& where, Comparison& c) {
  std::vector<std::string> want_keys, got_keys;
  for (const auto& item : want.items()) want_keys.push_back(item.key());
  for (const auto& item : got.items()) got_keys.push_back(item.key());
  if (want_keys != got_keys) {
    json w = want_keys, g = got_keys;
    c.differ(where, w, g, "keys differ");
    return;
  }
  for (const std::string& k : want_keys) compare(want[k], got[k], where + "/" + pointer_token(k), c);
}

void compare(const json& want, const json& got, const std::string& where, Comparison& c) {
  if (want.is_number() && got.is_number()) return compare_numbers(want, got, where, c);
  if (want.type() != got.type()) return c.differ(where, want, got, "types differ");
  if (want.is_object()) return compare_objects(want, got, where, c);
  if (want.is_array()) {
    if (want.size() != got.size()) return c.differ(where, want.size(), got.size(), "array lengths differ");
    for (size_t i = 0; i < want.size(); ++i) compare(want[i], got[i], where + "/" + std::to_string(i), c);
    return;
  }
  if (want != got) c.differ(where, want, got);
}

bool read_json(const char* path, json& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "json_compare: cannot read %s\n", path);
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  out = json::parse(text.str(), nullptr, false);
  if (out.is_discarded()) std::fprintf(stderr, "json_compare: %s is not valid JSON\n", path);
  return !out.is_discarded();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: json_compare GOLDEN ACTUAL REL_TOLERANCE\n");
    return 2;
  }
  Comparison c;
  c.rel_tolerance = std::strtod(argv[3], nullptr);
  json want, got;
  if (!(c.rel_tolerance >= 0) || !read_json(argv[1], want) || !read_json(argv[2], got)) return 2;
  compare(want, got, "", c);
  for (const std::string& d : c.differences) std::printf("%s\n", d.c_str());
  if (!c.differences.empty())
    std::printf("%zu differences from %s (floating-point numbers within %g relative)\n", c.differences.size(), argv[1],
                c.rel_tolerance);
  return c.differences.empty() ? 0 : 1;
}
