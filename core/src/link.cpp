// link.cpp: the URL fragment format of link.hpp: the field-code table, encoding (validated input
// JSON -> "v=1&c=...&m=..."), decoding with per-field fallbacks and notices, and the catalog
// changes a link opened with a newer catalog should mention; the estimator model changes since the
// link's model version come from model_version.hpp.
//
// [SECTION] Field codes (a public contract: add codes, never rename or reuse one)
// [SECTION] Values in the fragment
// [SECTION] Encoding
// [SECTION] Decoding
// [SECTION] Catalog changes since the link was made
#include "llmplan/link.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "llmplan/calibration.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/catalog_diff.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/model_version.hpp"
#include "llmplan/planner.hpp"
#include "llmplan/tco.hpp"

namespace llmplan {

//-----------------------------------------------------------------------------
// [SECTION] Field codes (a public contract: add codes, never rename or reuse one)
//-----------------------------------------------------------------------------

namespace {

LinkType link_type(FieldType t) {
  switch (t) {
    case FieldType::integer: return LinkType::integer;
    case FieldType::number: return LinkType::number;
    case FieldType::boolean: return LinkType::boolean;
    case FieldType::choice: return LinkType::choice;
    case FieldType::id: return LinkType::id;
    case FieldType::list: return LinkType::list;
    case FieldType::number_or_auto: return LinkType::number_or_auto;
  }
  return LinkType::id;
}

// The own-vs-rent question's fields (docs/tco.md), after the field table's: a link that has
// `servers` is an ownership question. Codes start with "w", which no table field uses.
const LinkField kTcoLinkFields[] = {
    {"wa", "servers.accelerator", LinkType::id},
    {"wg", "servers.gpus_per_server", LinkType::integer},
    {"wn", "servers.count", LinkType::integer},
    {"wpu", "servers.price_usd", LinkType::number},
    {"wpc", "servers.price_cny", LinkType::number},
    {"wk", "servers.power_kw", LinkType::number},
    {"wns", "servers.network_share", LinkType::number},
    {"wss", "servers.storage_share", LinkType::number},
    {"wd", "depreciation_years", LinkType::number},
    {"wr", "residual_fraction", LinkType::number},
    {"weu", "power.usd_per_kwh", LinkType::number},
    {"wec", "power.cny_per_kwh", LinkType::number},
    {"wpe", "power.pue", LinkType::number},
    {"wco", "colocation_usd_per_kw_month", LinkType::number},
    {"wst", "staff_usd_per_month", LinkType::number},
    {"wcc", "colocation_cny_per_kw_month", LinkType::number},
    {"wsc", "staff_cny_per_month", LinkType::number},
    {"wl", "lead_time_days", LinkType::number},
    {"wu", "utilisation", LinkType::number},
    {"ww", "workload.gpu_hours_per_month", LinkType::number},
    {"wh", "horizon_months", LinkType::integer},
    {"wcu", "currency", LinkType::choice},
    {"wqd", "rent_usd_per_gpu_hour.on_demand", LinkType::number},
    {"wq1", "rent_usd_per_gpu_hour.reserved_1yr", LinkType::number},
    {"wq3", "rent_usd_per_gpu_hour.reserved_3yr", LinkType::number},
    {"wqs", "rent_usd_per_gpu_hour.spot", LinkType::number},
};

// The codes live in the field table (fields.cpp), with the fields they stand for.
std::vector<LinkField> link_fields_of_table() {
  std::vector<LinkField> out;
  for (const FieldSpec& f : all_fields()) out.push_back({f.code, f.path, link_type(f.type)});
  for (const LinkField& f : kTcoLinkFields) out.push_back(f);
  return out;
}

}  // namespace

const std::vector<LinkField> kLinkFields = link_fields_of_table();

namespace {

using json = nlohmann::json;

// The model a link without one opens with (the app's first view).
constexpr const char* kDefaultLinkModel = "llama-3.1-8b";

const LinkField* field_by_code(std::string_view code) {
  for (const LinkField& f : kLinkFields)
    if (code == f.code) return &f;
  return nullptr;
}

const LinkField* field_by_path(std::string_view path) {
  for (const LinkField& f : kLinkFields)
    if (path == f.field) return &f;
  return nullptr;
}

// Every leaf of an input document as dotted paths, in document order.
void leaves(const json& v, const std::string& path, std::vector<std::string>& out) {
  if (v.is_object() && !v.empty()) {
    for (const auto& item : v.items()) leaves(item.value(), path.empty() ? item.key() : path + "." + item.key(), out);
  } else {
    out.push_back(path);
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Values in the fragment
//-----------------------------------------------------------------------------

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// '+' stays '+' (a fragment is not a form; numbers like 1e+12 keep their sign).
std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// The shortest text that reads back as exactly `v` ("2e12", "0.8", "4096").
std::string shortest_number(double v) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  const char* e = std::strchr(buf, 'e');
  if (!e) return buf;
  std::string s(buf, static_cast<size_t>(e - buf));  // "2e+12" -> "2e12", "1e-05" -> "1e-5"
  s += 'e';
  const char* x = e + 1;
  if (*x == '-') s += '-';
  if (*x == '-' || *x == '+') ++x;
  while (*x == '0' && x[1]) ++x;
  return s + x;
}

std::string format_value(const json& v, LinkType type) {
  switch (type) {
    case LinkType::boolean: return v.get<bool>() ? "1" : "0";
    case LinkType::integer: return std::to_string(v.get<long long>());
    case LinkType::number: return shortest_number(v.get<double>());
    case LinkType::number_or_auto:
      return v.is_string() ? percent_encode(v.get<std::string>()) : shortest_number(v.get<double>());
    case LinkType::list: {
      std::string out;
      for (const json& x : v) {
        if (!out.empty()) out += ',';
        out += percent_encode(x.get<std::string>());
      }
      return out;
    }
    case LinkType::id:
    case LinkType::choice: return percent_encode(v.get<std::string>());
  }
  return "";
}

// User text as it may appear in a notice: printable ASCII, other bytes as \xNN (a link is
// arbitrary bytes; notices end up in JSON, which must be valid UTF-8).
std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text.substr(0, 64)) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (text.size() > 64) out += "...";
  return out;
}

// "text", printable. (Built by appending: "\"" + std::string trips GCC 12's -Wrestrict, bug 105651.)
std::string in_quotes(std::string_view text) {
  std::string q = "\"";
  q += printable(text);
  q += '"';
  return q;
}

// Catalog ids and choice names: letters, digits, '.', '-', '_'.
bool is_name(std::string_view text) {
  if (text.empty() || text.size() > 128) return false;
  for (unsigned char c : text)
    if (!(unreserved(c) && c != '~')) return false;
  return true;
}

bool parse_number(const std::string& text, double& out) {
  if (text.empty() || text.size() > 40) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

// The fragment's text as the JSON value of the field's type, or a reason it is not one.
bool read_value(const LinkField& f, const std::string& text, json& out, std::string& why) {
  double d = 0;
  switch (f.type) {
    case LinkType::boolean:
      if (text == "1" || text == "true")
        out = true;
      else if (text == "0" || text == "false")
        out = false;
      else
        return why = "must be 1 or 0; got \"" + printable(text) + "\"", false;
      return true;
    case LinkType::integer:
      if (!parse_number(text, d) || d != std::floor(d) || std::fabs(d) > 2e9)
        return why = "must be an integer; got \"" + printable(text) + "\"", false;
      out = static_cast<long long>(d);
      return true;
    case LinkType::number:
      if (!parse_number(text, d)) return why = "must be a number; got \"" + printable(text) + "\"", false;
      out = d;
      return true;
    case LinkType::number_or_auto:
      if (text == "auto")
        out = "auto";
      else if (parse_number(text, d))
        out = d;
      else
        return why = "must be \"auto\" or a number; got \"" + printable(text) + "\"", false;
      return true;
    case LinkType::list: {
      out = json::array();
      size_t start = 0;
      while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!item.empty() && !is_name(item))
          return why = "must be a comma-separated list of catalog ids; got \"" + printable(text) + "\"", false;
        if (!item.empty()) out.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return true;
    }
    case LinkType::id:
    case LinkType::choice:
      if (!is_name(text))
        return why = "must be a catalog id or a name (letters, digits, '.', '-', '_'); got \"" + printable(text) + "\"",
               false;
      out = text;
      return true;
  }
  return false;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Encoding
//-----------------------------------------------------------------------------

namespace {

bool is_tco(const json& doc) { return doc.is_object() && doc.contains("servers"); }

// Validates `doc` as an ownership question (when it has servers), a planner question (when it
// has objective/constraints/top_n) or a scenario.
InputError check_input(const json& doc, const Catalog& catalog, bool& is_question) {
  is_question = false;
  const std::string text = doc.dump();
  if (is_tco(doc)) return parse_tco(text, catalog, default_calibration()).error;
  for (const std::string& k : question_keys()) is_question = is_question || (doc.is_object() && doc.contains(k));
  if (is_question) return parse_question(text, catalog).error;
  return parse_scenario(text, catalog).error;
}

}  // namespace

LinkEncode encode_link(std::string_view input_json, const Catalog& catalog) {
  LinkEncode out;
  std::string problem, at;
  const json doc = detail::parse_checked(input_json, problem, &at);
  if (doc.is_discarded() || !doc.is_object()) {
    const std::string field = at.empty() ? "(scenario)" : at;
    const std::string why = !problem.empty() ? problem : "must be a JSON object {...}";
    out.error = {field, field + ": not valid JSON: " + why};
    return out;
  }
  // Said first: whatever else is wrong with the scenario, it cannot travel in a link.
  if (const json* w = json_at(doc, "workload"); w && w->is_object() && w->contains("scenario")) {
    out.error = {"workload.scenario",
                 "workload.scenario: a link carries utilisation or workload.gpu_hours_per_month, "
                 "not a whole scenario: give the scenario's GPU-hours a month instead"};
    return out;
  }
  bool question = false;
  out.error = check_input(doc, catalog, question);
  if (!out.error.field.empty()) return out;
  std::string fragment = "v=" + std::to_string(kLinkVersion) + "&c=" + percent_encode(catalog.catalog_version) +
                         "&mv=" + std::to_string(kModelVersion);
  std::vector<std::string> paths;
  leaves(doc, "", paths);
  for (const std::string& p : paths) {
    if (!field_by_path(p)) {  // the parser accepted it, so the table must know it: a build defect
      out.error = {p, p + ": has no link field code (the field table, fields.cpp)"};
      return out;
    }
  }
  for (const LinkField& f : kLinkFields) {
    const json* v = json_at(doc, f.field);
    if (v) fragment += std::string("&") + f.code + "=" + format_value(*v, f.type);
  }
  out.fragment = fragment;
  out.ok = true;
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] Decoding
//-----------------------------------------------------------------------------

namespace {

std::string_view fragment_of(std::string_view link) {
  const size_t hash = link.find('#');
  if (hash != std::string_view::npos) return link.substr(hash + 1);
  if (link.find("://") != std::string_view::npos || link.rfind("file:", 0) == 0) return {};  // a URL without a fragment
  return link;
}

struct Pair {
  std::string code, value;
};

std::vector<Pair> split_pairs(std::string_view fragment) {
  std::vector<Pair> out;
  size_t start = 0;
  while (start < fragment.size() && out.size() < 512) {
    size_t amp = fragment.find('&', start);
    if (amp == std::string_view::npos) amp = fragment.size();
    const std::string_view pair = fragment.substr(start, amp - start);
    if (!pair.empty()) {
      const size_t eq = pair.find('=');
      out.push_back({percent_decode(pair.substr(0, eq)),
                     eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1))});
    }
    start = amp + 1;
  }
  return out;
}

// The error's field, or the nearest enclosing field the document has ("cluster.instance" for
// "cluster.instance.x"): what to drop.
std::string present_field(const json& doc, std::string field) {
  while (!field.empty()) {
    if (json_at(doc, field)) return field;
    const size_t dot = field.rfind('.');
    if (dot == std::string::npos) return "";
    field.resize(dot);
  }
  return "";
}

// Drops fields until the document parses: the one the error names when the link has it, else
// the latest field whose removal changes the error (cross-field rules name a default field).
// Bounded: at most one removal per field, a few parses per removal.
json link_notice_json(const LinkNotice& n) {
  json args = json::object();
  for (const auto& [name, value] : n.args) args[name] = value;
  return {{"field", n.field}, {"message", n.message}, {"code", n.code}, {"args", args}};
}

LinkNotice invalid_model(const std::string& field, const std::string& why) {
  return {field,
          why + "; the model " + std::string(kDefaultLinkModel) + " is used",
          "invalid_model",
          {{"reason", why}, {"model", kDefaultLinkModel}}};
}

void repair(json& doc, const Catalog& catalog, LinkDecode& out) {
  std::vector<std::string> seen;  // the documents tried: a repair that returns to one has failed
  for (int round = 0; round < 128; ++round) {
    bool question = false;
    const InputError err = check_input(doc, catalog, question);
    out.is_question = question;
    if (err.field.empty()) {
      out.valid = true;
      return;
    }
    std::string why = err.message;  // the notice names the field: drop the message's own prefix
    if (why.rfind(err.field + ": ", 0) == 0) why.erase(0, err.field.size() + 2);
    // Every notice below gives `err` as its reason: with its code, the app words it in its language.
    const auto note = [&](LinkNotice n) {
      n.reason_code = err.code;
      n.reason_args = err.args;
      out.notices.push_back(std::move(n));
    };
    std::string dumped = doc.dump();
    if (std::find(seen.begin(), seen.end(), dumped) != seen.end()) {
      note({err.field, why, "invalid", {{"reason", why}}});
      return;
    }
    seen.push_back(std::move(dumped));
    std::string drop = present_field(doc, err.field);
    if (drop.empty()) {
      std::vector<std::string> paths;
      leaves(doc, "", paths);
      for (auto it = paths.rbegin(); it != paths.rend() && drop.empty(); ++it) {
        // Dropping the model only swaps in the default one (below); it mends no other field.
        if (it->rfind("model", 0) == 0 && err.field.rfind("model", 0) != 0) continue;
        json trial = doc;
        json_erase(trial, *it);
        bool q = false;
        const InputError e2 = check_input(trial, catalog, q);
        if (e2.field != err.field || e2.message != err.message) drop = *it;
      }
    }
    if (drop.empty() && err.field.rfind("model", 0) == 0) {
      doc["model"] = {{"preset", kDefaultLinkModel}};
      note(invalid_model(err.field, why));
      continue;
    }
    if (drop.empty() || drop == "model") {
      if (json_at(doc, "model") && drop == "model") {
        doc["model"] = {{"preset", kDefaultLinkModel}};
        note(invalid_model(err.field, why));
        continue;
      }
      note({err.field, why, "invalid", {{"reason", why}}});
      return;  // nothing left to drop: the document stays invalid
    }
    if (drop == err.field)
      note({drop, why + "; the default is used", "invalid_default", {{"reason", why}}});
    else
      note({drop,
            why + " (" + drop + " dropped); the default is used",
            "invalid_dropped",
            {{"reason", why}, {"dropped", drop}}});
    json_erase(doc, drop);
  }
}

}  // namespace

std::string link_catalog_version(std::string_view link) {
  for (const Pair& p : split_pairs(fragment_of(link).substr(0, kMaxLinkLength)))
    if (p.code == "c") return is_name(p.value) ? p.value : "";
  return "";
}

LinkDecode decode_link(std::string_view link, const Catalog& catalog) {
  LinkDecode out;
  std::string_view fragment = fragment_of(link);
  if (fragment.size() > kMaxLinkLength) {
    out.notices.push_back({"(link)",
                           "longer than " + std::to_string(kMaxLinkLength) + " characters; the rest is ignored",
                           "link_too_long",
                           {{"max", std::to_string(kMaxLinkLength)}}});
    fragment = fragment.substr(0, kMaxLinkLength);
  }
  json doc = json::object();
  bool seen_version = false, seen_model_version = false;
  for (const Pair& p : split_pairs(fragment)) {
    if (p.code == "v") {
      seen_version = true;
      double v = 0;
      out.version = parse_number(p.value, v) && v == std::floor(v) && v >= 0 && v < 1e6 ? static_cast<int>(v) : 0;
      if (out.version > kLinkVersion)
        out.notices.push_back({"v",
                               "made by a newer llmplan (link format " + printable(p.value) +
                                   "); fields this version does not know are ignored",
                               "newer_format",
                               {{"version", printable(p.value)}}});
      else if (out.version < 1)
        out.notices.push_back({"v",
                               in_quotes(p.value) + " is not a link format version; read as version 1",
                               "bad_format_version",
                               {{"value", printable(p.value)}}});
      continue;
    }
    if (p.code == "c") {
      if (is_name(p.value))
        out.catalog_version = p.value;
      else
        out.notices.push_back({"c",
                               in_quotes(p.value) + " is not a catalog version; ignored",
                               "bad_catalog_version",
                               {{"value", printable(p.value)}}});
      continue;
    }
    if (p.code == "mv") {
      if (seen_model_version) {
        out.notices.push_back({"mv", "given twice; the first value is kept", "duplicate"});
        continue;
      }
      seen_model_version = true;
      double v = 0;
      if (parse_number(p.value, v) && v == std::floor(v) && v >= 1 && v < 1e6) {
        out.model_version = static_cast<int>(v);
        if (out.model_version > kModelVersion)
          out.notices.push_back(
              {"mv",
               "made with a newer estimator (model " + std::to_string(out.model_version) + "); figures may differ",
               "newer_model",
               {{"model", std::to_string(out.model_version)}}});
      } else {
        out.notices.push_back({"mv",
                               in_quotes(p.value) + " is not an estimator model version; read as model 1",
                               "bad_model_version",
                               {{"value", printable(p.value)}}});
      }
      continue;
    }
    if (p.code == "u") {
      if (p.value.size() <= 256 && printable(p.value) == p.value)
        out.ui = p.value;
      else
        out.notices.push_back({"u", "the view state is not plain text; ignored", "bad_view_state"});
      continue;
    }
    const LinkField* f = field_by_code(p.code);
    if (!f) {
      out.notices.push_back({printable(p.code),
                             "unknown field code \"" + printable(p.code) + "\"; ignored",
                             "unknown_code",
                             {{"code", printable(p.code)}}});
      continue;
    }
    if (json_at(doc, f->field)) {
      out.notices.push_back({f->field, "given twice; the first value is kept", "duplicate"});
      continue;
    }
    json value;
    std::string why;
    if (!read_value(*f, p.value, value, why)) {
      out.notices.push_back({f->field, why + "; the default is used", "invalid_default", {{"reason", why}}});
      continue;
    }
    json_set(doc, f->field, std::move(value));
  }
  if (!seen_version && !fragment.empty())
    out.notices.push_back({"v", "missing; read as link format 1", "missing_format_version"});
  out.is_tco = is_tco(doc);
  if (!doc.contains("model") && !out.is_tco) {
    doc["model"] = {{"preset", kDefaultLinkModel}};
    if (!fragment.empty())
      out.notices.push_back({"model",
                             "missing; the model " + std::string(kDefaultLinkModel) + " is used",
                             "missing_model",
                             {{"model", kDefaultLinkModel}}});
  }
  repair(doc, catalog, out);
  out.input_json = doc.dump();
  if (fragment.empty()) out.model_version = kModelVersion;  // no link: today's defaults, nothing to compare
  out.model_changes = model_changes_since(out.model_version);
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] Catalog changes since the link was made
//-----------------------------------------------------------------------------

std::vector<std::string> link_catalog_changes(std::string_view input_json, std::string_view old_catalog_json,
                                              std::string_view new_catalog_json) {
  std::vector<std::string> out;
  const CatalogLoad old_load = load_catalog(old_catalog_json);
  if (!old_load.catalog) return out;
  json doc = detail::parse_untrusted(input_json);
  if (!doc.is_object()) return out;
  for (const std::string& k : question_keys()) doc.erase(k);
  const ScenarioParse parse = parse_scenario(doc.dump(), *old_load.catalog);
  if (!parse.scenario) return out;
  const Scenario& s = *parse.scenario;
  const Catalog& c = *old_load.catalog;
  std::vector<std::pair<std::string, std::string>> used = {
      {"models", s.model_preset},        {"accelerators", s.cluster.accelerator},
      {"instances", s.cluster.instance}, {"interconnects", s.network.inter_node_link},
      {"storage", s.storage.data_tier},  {"storage", s.storage.checkpoint_tier}};
  if (const Accelerator* a = c.find_accelerator(s.cluster.accelerator))
    used.push_back({"interconnects", a->intra_node_link});
  for (const std::string& line : diff_catalogs(old_catalog_json, new_catalog_json)) {
    if (line.find(" notes: ") != std::string::npos) continue;  // prose, not a figure
    bool relevant = line.rfind("catalog_version:", 0) == 0 || line.rfind("currency:", 0) == 0;
    for (const auto& [section, id] : used) {
      if (id.empty()) continue;
      if (line.rfind(section + ": ~ " + id + " ", 0) == 0 || line == section + ": - " + id) relevant = true;
    }
    if (relevant) out.push_back(line);
  }
  return out;
}

OpenedLink open_link(std::string_view link, const Catalog& current, std::string_view current_json,
                     const Catalog* release, std::string_view release_json) {
  OpenedLink out;
  const std::string made_with = link_catalog_version(link);
  const bool use_release = release && !made_with.empty() && made_with != current.catalog_version;
  out.link = decode_link(link, use_release ? *release : current);
  out.catalog_used = use_release ? release->catalog_version : current.catalog_version;
  if (use_release) {
    out.changes = link_catalog_changes(out.link.input_json, release_json, current_json);
  } else if (!made_with.empty() && made_with != current.catalog_version) {
    out.link.notices.push_back({"c",
                                "made with catalog " + made_with + ", which this build does not have: opened with " +
                                    current.catalog_version + ", so prices and hardware figures may differ",
                                "catalog_unavailable",
                                {{"made_with", made_with}, {"used", current.catalog_version}}});
  }
  return out;
}

std::string opened_link_json(const OpenedLink& o) {
  json notices = json::array();
  for (const LinkNotice& n : o.link.notices) notices.push_back(link_notice_json(n));
  json input = detail::parse_text(o.link.input_json, false);
  return json{{"kind", o.link.is_tco        ? "tco"
                       : o.link.is_question ? "question"
                                            : "scenario"},
              {"valid", o.link.valid},
              {"input", input.is_discarded() ? json(nullptr) : input},
              {"catalog_version", o.link.catalog_version},
              {"catalog_used", o.catalog_used},
              {"notices", notices},
              {"changes", o.changes},
              {"model_version", o.link.model_version},
              {"model_version_current", kModelVersion},
              {"model_changes", o.link.model_changes},
              {"ui", o.link.ui}}
      .dump(2);
}

const std::vector<LinkNoticeCode> kLinkNoticeCodes = {
    {"link_too_long", "max"},
    {"newer_format", "version"},
    {"bad_format_version", "value"},
    {"missing_format_version", ""},
    {"bad_catalog_version", "value"},
    {"catalog_unavailable", "made_with used"},
    {"newer_model", "model"},
    {"bad_model_version", "value"},
    {"bad_view_state", ""},
    {"unknown_code", "code"},
    {"duplicate", ""},
    {"invalid_default", "reason"},
    {"invalid_dropped", "reason dropped"},
    {"invalid_model", "reason model"},
    {"invalid", "reason"},
    {"missing_model", "model"},
    // the app's own, when it opens a link
    {"question_scenario_only", ""},
    {"catalog_damaged", "reason"},
    {"catalog_release_missing", "version used"},
};

std::string link_notices_json(const std::vector<LinkNotice>& notices) {
  json out = json::array();
  for (const LinkNotice& n : notices) out.push_back(link_notice_json(n));
  return out.dump();
}

}  // namespace llmplan
