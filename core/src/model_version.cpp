// model_version.cpp: the change lines a link made with an older model shows, and the generated
// "Model changes" table of docs/links.md (model_version.hpp).
#include "llmplan/model_version.hpp"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "llmplan/embedded.hpp"

extern const unsigned char llmplan_model_changes[];
extern const unsigned long llmplan_model_changes_size;

namespace llmplan {

namespace {

constexpr std::string_view kBegin = "<!-- BEGIN model-changes";
constexpr std::string_view kEnd = "<!-- END model-changes -->";
constexpr const char* kRegenerate = "llmplan link model-changes --update-md docs/links.md";

// A table cell: no line breaks, and '|' escaped.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c == '\n' ? ' ' : c;
  }
  return out;
}

// One entry of the log, or false when it is not an object with an integer version and three strings.
bool read_change(const nlohmann::json& c, ModelChange& m) {
  if (!c.is_object()) return false;
  const auto v = c.find("version"), d = c.find("date"), ch = c.find("change"), ef = c.find("effect");
  if (v == c.end() || d == c.end() || ch == c.end() || ef == c.end() || !v->is_number_integer() || !d->is_string() ||
      !ch->is_string() || !ef->is_string())
    return false;
  m = {v->get<int>(), d->get<std::string>(), ch->get<std::string>(), ef->get<std::string>()};
  return true;
}
}  // namespace

const std::vector<ModelChange>& model_changes() {
  static const std::vector<ModelChange> log = [] {
    std::vector<ModelChange> out;
    const nlohmann::json doc = nlohmann::json::parse(
        detail::unpack_embedded(llmplan_model_changes, llmplan_model_changes_size), nullptr, false);
    bool ok = !doc.is_discarded() && doc.contains("changes") && doc["changes"].is_array();
    for (size_t i = 0; ok && i < doc["changes"].size(); ++i) {
      ModelChange m;
      ok = read_change(doc["changes"][i], m);
      out.push_back(std::move(m));
    }
    if (!ok) {
      // The shipped file is read whole by the test suite; reaching this is a build defect.
      std::fputs("llmplan: the built-in model change log is invalid\n", stderr);
      std::abort();
    }
    return out;
  }();
  return log;
}

std::vector<std::string> model_changes_since(int version) {
  std::vector<std::string> out;
  for (const ModelChange& c : model_changes()) {
    if (c.version <= version) continue;
    std::string line = "model " + std::to_string(c.version) + " (" + c.date + "): ";
    line += c.change;
    line += " \u2014 ";
    line += c.effect;
    out.push_back(std::move(line));
  }
  return out;
}

std::string model_changes_markdown() {
  std::string out(kBegin);
  out += ": generated from core/data/model_changes.json by `";
  out += kRegenerate;
  out += "`; a test fails while it is stale -->\n";
  out += "| model | date | change | effect on the figures of older links |\n|---|---|---|---|\n";
  for (const ModelChange& c : model_changes()) {
    out += "| " + std::to_string(c.version) + " | " + c.date + " | " + cell(c.change) + " | " + cell(c.effect) + " |\n";
  }
  out += kEnd;
  out += '\n';
  return out;
}

std::optional<std::string> with_model_changes_markdown(std::string_view text) {
  const size_t b = text.find(kBegin);
  const size_t e = b == std::string_view::npos ? std::string_view::npos : text.find(kEnd, b);
  if (b == std::string_view::npos || e == std::string_view::npos) return std::nullopt;
  size_t after = e + kEnd.size();
  if (after < text.size() && text[after] == '\n') ++after;
  std::string out(text.substr(0, b));
  out += model_changes_markdown();
  out += text.substr(after);
  return out;
}

}  // namespace llmplan
