// catalog_diff.cpp: entry- and field-level differences between two catalog documents.
#include "llmplan/catalog_diff.hpp"

#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "llmplan/catalog.hpp"

namespace llmplan {
namespace {

using nlohmann::json;

const json* find_entry(const json& arr, const std::string& id) {
  for (const json& e : arr)
    if (e.value("id", "") == id) return &e;
  return nullptr;
}

void diff_fields(const std::string& prefix, const json& a, const json& b, std::vector<std::string>& out) {
  for (const auto& [key, value] : b.items()) {
    if (!a.contains(key)) {
      out.push_back(prefix + key + ": (none) -> " + value.dump());
    } else if (a[key] != value) {
      out.push_back(prefix + key + ": " + a[key].dump() + " -> " + value.dump());
    }
  }
  for (const auto& [key, value] : a.items())
    if (!b.contains(key)) out.push_back(prefix + key + ": " + value.dump() + " -> (none)");
}

}  // namespace

std::vector<std::string> diff_catalogs(std::string_view old_json, std::string_view new_json) {
  const json a = detail::parse_untrusted(old_json);
  const json b = detail::parse_untrusted(new_json);
  std::vector<std::string> out;
  if (!a.is_object() || !b.is_object()) return {"(not catalog documents)"};
  for (const char* key : {"schema_version", "catalog_version", "as_of"})
    if (a.value(key, json()) != b.value(key, json()))
      out.push_back(std::string(key) + ": " + a.value(key, json()).dump() + " -> " + b.value(key, json()).dump());
  for (const char* section : kCatalogSections) {
    const json& sa = a.contains(section) ? a[section] : json();
    const json& sb = b.contains(section) ? b[section] : json();
    const std::string name = section;
    if (!sa.is_array() || !sb.is_array()) {  // the currency object
      if (sa.is_object() && sb.is_object()) diff_fields(name + ": ", sa, sb, out);
      continue;
    }
    for (const json& e : sb) {
      const std::string id = e.value("id", "");
      const json* old = find_entry(sa, id);
      if (!old) {
        out.push_back(name + ": + " + id);
      } else {
        diff_fields(name + ": ~ " + id + " ", *old, e, out);
      }
    }
    for (const json& e : sa) {
      const std::string id = e.value("id", "");
      if (!find_entry(sb, id)) out.push_back(name + ": - " + id);
    }
  }
  return out;
}

}  // namespace llmplan
