// yaml_lite.hpp: a small, strict reader of the YAML subset training configs use (accelerate,
// LLaMA-Factory, axolotl), into JSON. Accepted: `key: value` maps nested by indentation (spaces
// only), `- item` block lists (an item may open a map: `- path: x`), flow lists `[a, b]`, single-
// and double-quoted strings on one line, `#` comments, null (`null`, `~`, nothing), booleans as
// PyYAML reads them (true/false, yes/no, on/off in any of their three casings), integers and
// floats, and one leading `---`. Everything else is refused with the line it is on: tabs,
// anchors and aliases (`&`, `*`), tags (`!`), block scalars (`|`, `>`), flow maps (`{`), complex
// keys (`?`), directives (`%`), a second document, a key written twice, text left over.
// Never throws, never recurses deeper than kMaxYamlDepth.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace llmplan::detail {

inline constexpr int kMaxYamlDepth = 64;

struct YamlError {
  int line = 0;  // 1-based; 0 when there is no error
  std::string message;
};

// The document as JSON (an object, a list or a scalar), or a discarded value and `err`.
nlohmann::ordered_json parse_yaml_lite(std::string_view text, YamlError& err);

// A plain (unquoted) scalar as YAML types it: null, a boolean, an integer, a float, else the string.
nlohmann::ordered_json yaml_plain_scalar(std::string_view s);

}  // namespace llmplan::detail
