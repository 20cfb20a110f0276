// fields.hpp: the one table of every input field a scenario or a planner question takes. The
// parser's type and range checks, the JSON writer, the link codes, the app's widgets (range,
// unit, tooltip, reset) and the generated reference (docs/scenario.md, the site's
// docs/scenario.html) all read it; nothing else lists fields.
//
// Adding a field: one entry here (with a new, never used link code), the struct member it
// fills, and the code that uses the value. CONTRIBUTING.md shows a real example.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "llmplan/scenario.hpp"

namespace llmplan {

enum class FieldType { integer, number, boolean, choice, id, list, number_or_auto };
inline constexpr const char* kFieldTypeNames[] = {"integer", "number", "boolean",           "choice",
                                                  "id",      "list",   "number or \"auto\""};

// Which document takes the field: a scenario (llmplan estimate) or only a planner question.
enum class FieldScope { scenario, question };

// When the parser applies a field, which also decides how the writer writes it back:
// - input: copied into the Scenario before the catalog is consulted; written when it differs
//   from the default Scenario's value;
// - resolved: read by the catalog resolution in scenario.cpp (ids, counts that pick hardware);
//   written by that code's counterpart in scenario_write.cpp;
// - override: replaces a figure the catalog resolved; written when it differs from what the
//   catalog alone gives.
enum class FieldStage { input, resolved, override_ };

// A typed pointer into a Scenario, so one table entry can read and write its member.
struct EnumRef {
  void* p = nullptr;
  int (*get)(const void*) = nullptr;
  void (*set)(void*, int) = nullptr;
};
template <class E>
EnumRef enum_ref(E& e) {
  return {&e, [](const void* p) { return static_cast<int>(*static_cast<const E*>(p)); },
          [](void* p, int v) { *static_cast<E*>(p) = static_cast<E>(v); }};
}
using FieldRef = std::variant<std::monostate, int*, double*, bool*, std::string*, EnumRef>;

struct FieldSpec {
  const char* path;  // dotted JSON path, e.g. "parallel.tp"
  FieldType type;
  double lo = 0, hi = 0;                      // inclusive range of integer and number fields
  const char* code = "";                      // link code: a public contract, never renamed or reused
  const char* unit = "";                      // shown next to the value ("GB", "tokens"); "" when none
  const char* label = "";                     // the app's string name for the label (web/i18n.hpp)
  const char* help = "";                      // the app's string name for the tooltip
  const char* meaning = "";                   // one line for the reference
  std::span<const char* const> choices = {};  // choice fields: the names, index = enum value
  const char* catalog = "";                   // id fields: the catalog section the id comes from
  const char* section = "";                   // the app's input section; "" when the app has no widget
  const char* applies = "";                   // when the field applies, e.g. "method=lora|qlora" ("" always)
  const char* default_text = "";              // the default when it is not a constant ("the accelerator's memory")
  bool required = false;                      // must be given whenever the field applies
  FieldScope scope = FieldScope::scenario;
  FieldStage stage = FieldStage::resolved;
  FieldRef (*ref)(Scenario&) = nullptr;  // the member the field fills (input, override) or resolves into
                                         // (resolved); none for a value derived from others (cluster.nodes)
  double scale = 1;                      // JSON value = member x scale (Gbit/s from GB/s: 8)
};

// Every field, in the order links are written and the reference lists them.
std::span<const FieldSpec> all_fields();
const FieldSpec* find_field(std::string_view path);
// The field at `path`, which the caller knows is in the table (a missing one is a build defect
// that the field-table test catches).
const FieldSpec& field(std::string_view path);

// The names one level under `prefix` ("" or "constraints.") in fields of `scope`, in table
// order: the keys a document may have there.
const std::vector<std::string>& field_children(std::string_view prefix, FieldScope scope);
// The top-level keys only a planner question has ("objective", "constraints", "top_n"): a
// document with one of them is a question, and without them it is its scenario.
const std::vector<std::string>& question_keys();

// "1..1024", or "" for fields without a numeric range.
std::string field_range_text(const FieldSpec& f);
// The index of `name` among a choice field's names, or -1.
int field_choice_index(const FieldSpec& f, std::string_view name);
// The default as the reference shows it: the default Scenario's value, or default_text.
std::string field_default_text(const FieldSpec& f);
// The value of an input or override field in `s` as JSON text ("4096", "\"bf16\"", "true");
// "" when the field has no member.
std::string field_value_json(const FieldSpec& f, const Scenario& s);

// Whether the field applies to `s` (its `applies` condition holds).
bool field_applies(const FieldSpec& f, const Scenario& s);
// The same against any source of values: `value_of(path)` gives a field's value as text ("" when
// unset, false or 0), e.g. read from an input document that may not parse yet (the app).
bool field_applies(const FieldSpec& f, const std::function<std::string(std::string_view)>& value_of);
// For a field left out of a document, the value the parser gives it when its default follows other
// fields (framework from the method; techniques.fused_kernels, techniques.kbit_fp32_cast and
// parallel.recompute from the method, framework, compile and fused loss: apply_framework_defaults),
// as text like `value_of`'s, reading those fields through `value_of`; nullopt for any other field.
std::optional<std::string> derived_default(std::string_view path,
                                           const std::function<std::string(std::string_view)>& value_of);

// The field's `applies` condition as prose: "when method is \"lora\" or \"qlora\"", "without
// model.preset"; "" for a field that always applies.
std::string field_applies_text(const FieldSpec& f);

// The field reference as Markdown: docs/scenario.md, which the site renders as docs/scenario.html.
std::string fields_markdown();

}  // namespace llmplan
