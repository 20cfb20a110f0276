// panel_inputs.cpp: the scenario editor. Every widget edits one field of the scenario INPUT
// document (app.input) and shows, where the field is absent, the value the core resolved
// (app.scenario). The field table (core/src/fields.cpp) says which fields each section shows,
// in which order, with which range, unit, tooltip and default; this file draws them. Each edit
// re-parses the document (app_update): the parser's InputError names the field, and that
// field's widget turns red with the message.
//
// [SECTION] Document access
// [SECTION] Field rows (label | widget | unit, reset and tooltip)
// [SECTION] Sections: model, method, data, cluster, layout, network, storage, pricing
// [SECTION] The page's form fields (page_form.hpp)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/units.hpp"
#include "page_form.hpp"
#include "palette.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

using nlohmann::json;

//-----------------------------------------------------------------------------
// [SECTION] Document access
//-----------------------------------------------------------------------------

// Fields of the input document by dotted path: json_at, json_set and json_erase (llmplan/json_path.hpp).
bool has(const AppState& app, const char* path) { return json_at(app.input, path) != nullptr; }

double doc_number(const AppState& app, const char* path, double fallback) {
  const json* j = json_at(app.input, path);
  return j && j->is_number() ? j->get<double>() : fallback;
}

std::string doc_string(const AppState& app, const char* path, const std::string& fallback) {
  const json* j = json_at(app.input, path);
  return j && j->is_string() ? j->get<std::string>() : fallback;
}

std::string num_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A combo whose entries record themselves as "<path>=<index>" (tests click them). True when
// entry *index changed.
bool combo(const char* path, int* index, const char* const* names, int count) {
  bool changed = false;
  const int shown = std::clamp(*index, 0, count - 1);
  if (ImGui::BeginCombo("##v", names[shown])) {
    for (int i = 0; i < count; ++i) {
      if (ImGui::Selectable(names[i], i == shown) && i != shown) {
        *index = i;
        changed = true;
      }
      const std::string id = std::string(path) + "=" + std::to_string(i);
      record_widget(id.c_str());
    }
    ImGui::EndCombo();
  }
  return changed;
}

//-----------------------------------------------------------------------------
// [SECTION] Field rows
//-----------------------------------------------------------------------------

// `unit_width`: the unit column, wide enough for the longest unit, the (?) marker and the reset
// button (unit_column_width).
bool begin_fields(const char* id, float unit_width) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.38f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.62f);
  ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed, unit_width);
  return true;
}

// One row: the label (wrapped), then the widget cell; finish() draws the unit cell with the
// tooltip marker (term, default, range) and a reset button when the field is set.
struct Row {
  AppState& app;
  const char* path;
  bool error;
  Row(AppState& a, const char* field, const char* label) : app(a), path(field), error(a.error.field == field) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    label_text(label, error ? &palette::kError : nullptr);
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::PushID(path);
    if (error) {
      ImGui::PushStyleColor(ImGuiCol_Border, palette::kError);
      ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, std::max(1.0f, em() / 8));
    }
  }
  // Ends the widget cell (records it under the field path) and draws the unit cell.
  bool finish(const char* unit, const std::string& tip, bool resettable = true) {
    record_widget(path);
    if (error) {
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();
      text_wrapped(input_error_text(app.error).c_str(), &palette::kError);
    }
    bool changed = false;
    ImGui::TableSetColumnIndex(2);
    ImGui::AlignTextToFramePadding();
    if (unit && *unit) {
      text_disabled(unit);
      ImGui::SameLine(0, em() * 0.3f);
    }
    ImGui::TextDisabled("(?)");
    record_text_item("(?)");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(em() * 30);
      ImGui::TextDisabled("%s", path);
      ImGui::TextUnformatted(tip.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (resettable && has(app, path)) {
      ImGui::SameLine(0, em() * 0.3f);
      if (ImGui::SmallButton("\xC3\x97")) {  // the multiplication sign as a small "x"
        json_erase(app.input, path);
        changed = true;
      }
      record_label_in_item("\xC3\x97");
      item_tooltip(tr(S::reset_tip));
    }
    ImGui::PopID();
    return changed;
  }
};

std::string range_text(double lo, double hi) {
  char buf[128];
  std::snprintf(buf, sizeof buf, tr(S::range_fmt), num_text(lo).c_str(), num_text(hi).c_str());
  return buf;
}

// A choice's name in the UI language: the string <label>_<name> ("method_lora"), else the name.
const char* choice_text(const FieldSpec& f, const char* name) {
  return table_string((std::string(f.label) + "_" + name).c_str(), name);
}

// The field's tooltip: its help, range and default, from the field table.
std::string tip_text(const FieldSpec& f, const Scenario& defaults) {
  std::string tip = table_string(f.help, f.meaning);
  if (f.type == FieldType::integer || f.type == FieldType::number || f.type == FieldType::number_or_auto)
    tip += "\n" + range_text(f.lo, f.hi);
  if (!*f.default_text && f.ref) {
    std::string v = field_value_json(f, defaults);
    if (v.size() >= 2 && v.front() == '"')
      v = choice_text(f, v.substr(1, v.size() - 2).c_str());
    else if (v == "true")
      v = tr(S::on);
    else if (v == "false")
      v = tr(S::off);
    char buf[256];
    std::snprintf(buf, sizeof buf, tr(S::default_fmt), v.c_str());
    tip += std::string("\n") + buf;
  }
  return tip;
}

// The document's value at `path` as the table's conditions read it: the typed value, else the
// field's default ("" for catalog choices the document does not make).
std::string doc_condition_value(const AppState& app, std::string_view path) {
  const std::string p(path);
  if (const json* j = json_at(app.input, p.c_str())) {
    if (j->is_string()) return j->get<std::string>();
    if (j->is_boolean()) return j->get<bool>() ? "true" : "";
    if (j->is_number()) return num_text(j->get<double>());
    return "";
  }
  const FieldSpec* f = find_field(path);
  if (!f || f->stage == FieldStage::resolved) return "";
  // Defaults that follow other fields (fused kernels with the framework) as the parser derives them.
  if (std::optional<std::string> d =
          derived_default(path, [&app](std::string_view other) { return doc_condition_value(app, other); }))
    return *d;
  // With a preset, the architecture fields come from the catalog (parallel.ep applies to MoE presets).
  const json* preset = json_at(app.input, "model.preset");
  if (p.rfind("model.", 0) == 0 && preset && preset->is_string())
    if (const ModelPreset* m = app_catalog(app).find_model(preset->get<std::string>())) {
      static Scenario with_preset;
      with_preset.model = m->arch;
      std::string v = field_value_json(*f, with_preset);
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      return v;
    }
  static const Scenario defaults;
  std::string v = field_value_json(*f, defaults);
  if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

bool doc_applies(const AppState& app, const FieldSpec& f) {
  return field_applies(f, [&app](std::string_view path) { return doc_condition_value(app, path); });
}

// Whether the document's instance is rented by the card (cluster.cards applies).
bool per_card_instance(const AppState& app) {
  const Instance* in = app_catalog(app).find_instance(doc_string(app, "cluster.instance", ""));
  return in && in->per_card();
}

// Removes fields that no longer apply (LoRA fields after leaving LoRA, offload after ZeRO 0, cards
// after leaving an offering rented by the card), so the parser does not refuse what the user can
// no longer see.
void drop_fields_that_no_longer_apply(AppState& app) {
  for (const FieldSpec& f : all_fields())
    if (f.scope == FieldScope::scenario && *f.applies && has(app, f.path) && !doc_applies(app, f))
      json_erase(app.input, f.path);
  if (has(app, "cluster.cards") && !per_card_instance(app)) json_erase(app.input, "cluster.cards");
}

// Catalog ids and display names of a table id field's catalog section.
void catalog_choices(const Catalog& catalog, const FieldSpec& f, std::vector<std::string>& ids,
                     std::vector<std::string>& names) {
  const std::string section = f.catalog;
  if (section == "accelerators")
    for (const Accelerator& a : catalog.accelerators) ids.push_back(a.id), names.push_back(a.name);
  if (section == "instances")
    for (const Instance& in : catalog.instances)
      ids.push_back(in.id), names.push_back(in.name + " (" + in.region + ")");
  if (section == "interconnects")
    for (const Interconnect& l : catalog.interconnects)
      if (l.scope == LinkScope::inter_node) ids.push_back(l.id), names.push_back(l.name);
  if (section == "storage")
    for (const StorageTier& t : catalog.storage) ids.push_back(t.id), names.push_back(t.name);
}

// An integer field showing `effective` when the document does not set it. Out-of-range values
// are kept as typed, so the parser names the problem (red) rather than the widget hiding it.
// A measurement not taken, or a trial setting the scenario's own: shown empty rather than as 0.
bool unmeasured(const AppState& app, const FieldSpec& f, double v) {
  return v <= 0 && std::string_view(f.section) == "calibration" && !json_at(app.input, f.path);
}

// A whole number as typed goes into the document as an integer, however large, so the parser names
// the range with the figure the user typed ("got 5000000000"); anything else (2.5) as the number.
void set_typed_integer(AppState& app, const char* path, double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15)
    json_set(app.input, path, static_cast<long long>(v));
  else
    json_set(app.input, path, v);
}

// Integers are typed into a double field: ImGui 1.86's InputScalar filters an integer's text to
// decimal characters (the 'e' of "2e3" dropped: 23) and reads it with sscanf("%d"), which wraps
// above 2^31 (5000000000 read as 705032704). InputDouble takes scientific notation and any size.
bool field_int(AppState& app, const FieldSpec& f, const std::string& tip, int effective) {
  Row row(app, f.path, table_string(f.label, f.path));
  double v = doc_number(app, f.path, effective);
  bool changed = false;
  if (ImGui::InputDouble("##v", &v, 1, 8, unmeasured(app, f, v) ? "" : "%.15g", ImGuiInputTextFlags_AutoSelectAll)) {
    set_typed_integer(app, f.path, v);
    changed = true;
  }
  return row.finish(unit_text(f.unit), tip, !f.required) || changed;
}

bool field_number(AppState& app, const FieldSpec& f, const std::string& tip, double effective) {
  Row row(app, f.path, table_string(f.label, f.path));
  double v = doc_number(app, f.path, effective);
  bool changed = false;
  // A price the core resolved (the catalog median) reads as money, to the cent; a typed one as typed.
  const bool resolved_money = !json_at(app.input, f.path) && std::string_view(f.unit).find("USD") == 0;
  const char* format = unmeasured(app, f, v) ? "" : resolved_money ? "%.2f" : "%.6g";
  // InputDouble, not InputScalar: its filter keeps the 'e' of "2e9" (InputScalar's made it 29).
  if (ImGui::InputDouble("##v", &v, 0, 0, format, ImGuiInputTextFlags_AutoSelectAll)) {
    json_set(app.input, f.path, v);
    changed = true;
  }
  return row.finish(unit_text(f.unit), tip, !f.required) || changed;
}

// The price override of a yuan scenario, typed in yuan (a Chinese cloud's quote) and kept as
// pricing.usd_per_gpu_hour, the field the core reads, at the catalog's dated rate.
bool field_price_in_yuan(AppState& app, const FieldSpec& f, const std::string& tip, double effective_usd) {
  const double rate = app.scenario.pricing.usd_to_cny;
  Row row(app, f.path, table_string(f.label, f.path));
  double yuan = doc_number(app, f.path, effective_usd) * rate;
  bool changed = false;
  if (ImGui::InputDouble("##v", &yuan, 0, 0, "%.2f", ImGuiInputTextFlags_AutoSelectAll)) {
    json_set(app.input, f.path, yuan / rate);
    changed = true;
  }
  char note[256];
  std::snprintf(note, sizeof note, tr(S::price_cny_note), format_number("%.4g", rate).c_str());
  return row.finish(tr(S::u_cny_gpu_h), tip + "\n" + note, !f.required) || changed;
}

bool field_bool(AppState& app, const FieldSpec& f, const std::string& tip, bool effective) {
  Row row(app, f.path, table_string(f.label, f.path));
  const json* j = json_at(app.input, f.path);
  bool v = j && j->is_boolean() ? j->get<bool>() : effective;
  bool changed = false;
  if (ImGui::Checkbox("##v", &v)) {
    json_set(app.input, f.path, v);
    changed = true;
  }
  return row.finish(nullptr, tip, !f.required) || changed;
}

// A choice among the table's names, shown in the UI language.
bool field_choice(AppState& app, const FieldSpec& f, const std::string& tip, const std::string& effective) {
  Row row(app, f.path, table_string(f.label, f.path));
  const std::string v = doc_string(app, f.path, effective);
  std::vector<const char*> names;
  int current = 0;
  for (size_t i = 0; i < f.choices.size(); ++i) {
    names.push_back(choice_text(f, f.choices[i]));
    if (v == f.choices[i]) current = static_cast<int>(i);
  }
  bool changed = false;
  if (combo(f.path, &current, names.data(), static_cast<int>(names.size()))) {
    json_set(app.input, f.path, f.choices[static_cast<size_t>(current)]);
    changed = true;
  }
  record_label_in_item(names[static_cast<size_t>(current)], ImGui::GetFrameHeight());
  return row.finish(nullptr, tip, !f.required) || changed;
}

// A catalog id, with a filter box when the list is long; "" = the default.
bool field_catalog_id(AppState& app, const FieldSpec& f, const std::string& tip, const std::string& effective,
                      bool allow_default) {
  std::vector<std::string> ids, names;
  catalog_choices(app_catalog(app), f, ids, names);
  Row row(app, f.path, table_string(f.label, f.path));
  const char* path = f.path;
  const std::string current = doc_string(app, path, effective);
  std::string preview = current.empty() ? std::string(tr(S::default_word)) : current;
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == current) preview = names[i];
  if (!has(app, path) && allow_default) preview += std::string(" ") + tr(S::from_catalog);
  bool changed = false;
  const bool open = ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (!open) clipped_preview_tooltip(preview.c_str());
  if (open) {
    static ImGuiTextFilter filter;
    if (ids.size() > 12) {
      if (ImGui::IsWindowAppearing()) {
        filter.Clear();
        ImGui::SetKeyboardFocusHere();
      }
      ImGui::SetNextItemWidth(-1.0f);
      filter.Draw("##filter");
    }
    if (allow_default && ImGui::Selectable(tr(S::default_word), !has(app, path))) {
      json_erase(app.input, path);
      changed = true;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!filter.PassFilter(names[i].c_str()) && !filter.PassFilter(ids[i].c_str())) continue;
      if (ImGui::Selectable(names[i].c_str(), ids[i] == current)) {
        json_set(app.input, path, ids[i]);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  record_label_in_item(preview.c_str(), ImGui::GetFrameHeight());
  return row.finish(nullptr, tip, false) || changed;
}

// A number or "auto" (the checkpoint interval): a checkbox, and the number when not automatic,
// starting from `effective` (the resolved value).
bool field_number_or_auto(AppState& app, const FieldSpec& f, const std::string& tip, double effective) {
  Row row(app, f.path, table_string(f.label, f.path));
  const json* j = json_at(app.input, f.path);
  bool automatic = !j || j->is_string();
  bool changed = false;
  if (ImGui::Checkbox(tr(S::auto_word), &automatic)) {
    if (automatic)
      json_erase(app.input, f.path);
    else
      json_set(app.input, f.path, std::max(f.lo, std::round(effective * 10) / 10));
    changed = true;
  }
  record_label_in_item(tr(S::auto_word));
  if (!automatic) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    double h = j && j->is_number() ? j->get<double>() : effective;
    if (ImGui::InputDouble("##h", &h, 0, 0, "%.2f", ImGuiInputTextFlags_AutoSelectAll)) {
      json_set(app.input, f.path, h);
      changed = true;
    }
  }
  return row.finish(unit_text(f.unit), tip, false) || changed;
}

void field_text(const char* label, const char* value, const char* why_key, const AppState& app, S tip) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  label_text(label);
  ImGui::TableSetColumnIndex(1);
  ImGui::AlignTextToFramePadding();
  text_wrapped(value);
  ImGui::TableSetColumnIndex(2);
  ImGui::AlignTextToFramePadding();
  if (why_key) {
    why_marker(app, why_key);
  } else {
    ImGui::TextDisabled("(?)");
    record_text_item("(?)");
    item_tooltip(tr(tip));
  }
}

bool section(const char* label, const char* id, bool open_by_default = true) {
  ImGui::PushID(id);
  const bool open = ImGui::CollapsingHeader(label, open_by_default ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  record_widget(id);
  record_label_in_item(label);
  ImGui::PopID();
  return open;
}

//-----------------------------------------------------------------------------
// [SECTION] Fields with their own widget
//-----------------------------------------------------------------------------

bool preset_field(AppState& app, const FieldSpec& f, const std::string& tip) {
  const Catalog& catalog = app_catalog(app);
  const bool custom = !has(app, "model.preset");
  Row row(app, f.path, table_string(f.label, f.path));
  bool c = false;
  const std::string preview = custom                  ? std::string(tr(S::custom_arch))
                              : app.preset_index >= 0 ? catalog.models[static_cast<size_t>(app.preset_index)].name
                                                      : doc_string(app, "model.preset", "");
  const bool open = ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (!open) clipped_preview_tooltip(preview.c_str());
  if (open) {
    for (const ModelPreset& m : catalog.models) {
      if (ImGui::Selectable(m.name.c_str(), !custom && m.id == app.scenario.model_preset)) {
        app.input["model"] = {{"preset", m.id}};
        c = true;
      }
    }
    if (ImGui::Selectable(tr(S::custom_arch), custom) && !custom) {
      // Start from the current architecture, written out field by field by the core.
      Scenario arch = app.scenario;
      arch.model_preset.clear();
      const json written = json::parse(write_scenario_input(arch, catalog), nullptr, false);
      if (written.is_object() && written.contains("model")) app.input["model"] = written["model"];
      c = true;
    }
    ImGui::EndCombo();
  }
  record_label_in_item(preview.c_str(), ImGui::GetFrameHeight());
  return row.finish(nullptr, tip, false) || c;
}

// ZeRO stages with their meaning in words.
bool zero_field(AppState& app, const FieldSpec& f, const std::string& tip) {
  Row row(app, f.path, table_string(f.label, f.path));
  int z = static_cast<int>(doc_number(app, f.path, app.scenario.parallel.zero));
  const char* stages[] = {tr(S::zero_0), tr(S::zero_1), tr(S::zero_2), tr(S::zero_3)};
  bool c = false;
  if (combo(f.path, &z, stages, 4)) {
    json_set(app.input, f.path, z);
    c = true;
  }
  record_label_in_item(stages[std::clamp(z, 0, 3)], ImGui::GetFrameHeight());
  return row.finish(nullptr, tip) || c;
}

// Accelerator x count, or a cloud offering: which of the cluster fields apply.
bool cluster_mode_row(AppState& app) {
  const Catalog& catalog = app_catalog(app);
  const Scenario& s = app.scenario;
  const bool offering = has(app, "cluster.instance");
  Row row(app, "cluster.mode", tr(S::cluster_mode));
  int mode = offering ? 1 : 0;
  const char* modes[] = {tr(S::mode_accel), tr(S::mode_instance)};
  bool c = false;
  if (combo("cluster.mode", &mode, modes, 2) && (mode == 1) != offering) {
    json cluster = json::object();
    if (mode == 1) {
      // The first offering with this accelerator (else the first one), one node.
      const Instance* pick = catalog.instances.empty() ? nullptr : &catalog.instances.front();
      for (const Instance& in : catalog.instances)
        if (in.accelerator == s.cluster.accelerator && in.on_demand_per_hour) {
          pick = &in;
          break;
        }
      if (pick) cluster = {{"instance", pick->id}, {"nodes", 1}};
    } else {
      cluster = {
          {"accelerator", s.cluster.accelerator}, {"gpus", s.cluster.gpus}, {"gpus_per_node", s.cluster.gpus_per_node}};
    }
    app.input["cluster"] = cluster;
    c = true;
  }
  record_label_in_item(modes[mode], ImGui::GetFrameHeight());
  return row.finish(nullptr, tr(S::t_cluster_mode), false) || c;
}

// What the core resolved for a field the document leaves out.
std::string resolved_text(const FieldSpec& f, const Scenario& s) {
  if (std::string_view(f.path) == "cluster.nodes") return std::to_string(s.cluster.nodes());  // derived: no member
  std::string v = field_value_json(f, s);
  if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

// One field's row, by its type in the table.
bool draw_field(AppState& app, const FieldSpec& f) {
  static const Scenario defaults;
  const std::string tip = tip_text(f, defaults);
  const std::string path = f.path;
  if (path == "model.preset") return preset_field(app, f, tip);
  if (path == "parallel.zero") return zero_field(app, f, tip);
  const std::string resolved = resolved_text(f, app.scenario);
  if (path == "pricing.usd_per_gpu_hour" && app.scenario.pricing.currency == Currency::cny &&
      app.scenario.pricing.usd_to_cny > 0)
    return field_price_in_yuan(app, f, tip, std::strtod(resolved.c_str(), nullptr));
  switch (f.type) {
    case FieldType::integer: return field_int(app, f, tip, std::atoi(resolved.c_str()));
    case FieldType::number: return field_number(app, f, tip, std::strtod(resolved.c_str(), nullptr));
    case FieldType::boolean: return field_bool(app, f, tip, resolved == "true");
    case FieldType::choice: return field_choice(app, f, tip, resolved);
    case FieldType::id: return field_catalog_id(app, f, tip, resolved, std::string(f.section) != "cluster");
    case FieldType::number_or_auto:
      return field_number_or_auto(app, f, tip, app.result.reliability.checkpoint_interval_h);
    case FieldType::list: break;  // planner constraints: the planner tab edits them
  }
  return false;
}

// The unit column of a section: its longest unit in the UI language (as Row::finish spaces it),
// the (?) marker and the reset button, so none is clipped; at least the width most sections need,
// so they line up, while a section of long units takes more (the value column narrows less).
float unit_column_width(const char* section) {
  const float gap = em() * 0.3f;
  float unit = 0;
  for (const FieldSpec& f : all_fields())
    if (std::string_view(f.section) == section && *f.unit)
      unit = std::max(unit, ImGui::CalcTextSize(unit_text(f.unit)).x + gap);
  return std::max(em() * 7.6f,
                  unit + ImGui::CalcTextSize("(?)").x + gap + button_width("\xC3\x97", true) + em() * 0.3f);
}

// Every field of `section` that applies, in table order; `after(path)` adds rows after a field.
template <class After>
bool draw_fields(AppState& app, const char* section, After after) {
  bool c = false;
  if (!begin_fields(section, unit_column_width(section))) return false;
  for (const FieldSpec& f : all_fields()) {
    if (f.scope != FieldScope::scenario || std::string_view(f.section) != section || !doc_applies(app, f)) continue;
    if (std::string_view(f.path) == "cluster.instance" && !has(app, f.path)) continue;     // the mode row picks it
    if (std::string_view(f.path) == "cluster.cards" && !per_card_instance(app)) continue;  // fixed shapes have none
    c |= draw_field(app, f);
    after(f.path);
  }
  ImGui::EndTable();
  return c;
}

bool draw_fields(AppState& app, const char* section) {
  return draw_fields(app, section, [](const char*) {});
}

//-----------------------------------------------------------------------------
// [SECTION] Sections
//-----------------------------------------------------------------------------

bool model_section(AppState& app) {
  if (!section(tr(S::sec_model), "sec_model")) return false;
  const Catalog& catalog = app_catalog(app);
  const bool c = draw_fields(app, "model", [&app](const char* path) {
    if (std::string_view(path) == "model.preset" && app.has_result)
      field_text(tr(S::params), format_count(app.result.params.total).c_str(), "model.params.total", app, S::t_preset);
  });
  if (has(app, "model.preset") && app.preset_index >= 0) {
    const ModelPreset& p = catalog.models[static_cast<size_t>(app.preset_index)];
    const std::string source = p.source + " (" + tr(S::as_of) + " " + p.as_of + ")";
    text_wrapped_disabled(source.c_str());
  }
  return c;
}

std::string price_text(Opt price, CurrencyCode currency) {
  if (!price) return tr(S::na);
  return format_money(*price, currency == CurrencyCode::cny ? Currency::cny : Currency::usd);
}

// The offering's provider, shape and prices, with their source.
void offering_summary(const AppState& app, const Instance& in) {
  const Catalog& catalog = app_catalog(app);
  const Provider* p = catalog.find_provider(in.provider);
  const Accelerator* a = catalog.find_accelerator(in.accelerator);
  char line[512];
  std::snprintf(line, sizeof line, tr(S::offering_fmt), p ? p->name.c_str() : in.provider.c_str(), in.region.c_str(),
                in.gpus, a ? a->name.c_str() : in.accelerator.c_str(),
                in.vcpus ? num_text(*in.vcpus).c_str() : tr(S::na),
                in.ram_gb ? num_text(*in.ram_gb).c_str() : tr(S::na));
  text_wrapped_disabled(line);
  std::snprintf(line, sizeof line, tr(S::offering_price), price_text(in.on_demand_per_hour, in.currency).c_str(),
                price_text(in.spot_per_hour, in.currency).c_str(), in.source.c_str(), in.as_of.c_str());
  text_wrapped_disabled(line);
}

// ... and, for an offering rented by the card, how many one host gives and how they are linked.
void offering_lines(const AppState& app) {
  const Catalog& catalog = app_catalog(app);
  const Instance* in = catalog.find_instance(doc_string(app, "cluster.instance", ""));
  if (!in) return;
  offering_summary(app, *in);
  if (!in->per_card()) return;
  const Accelerator* a = catalog.find_accelerator(in->accelerator);
  const Interconnect* l =
      catalog.find_interconnect(in->intra_host_link.empty() && a ? a->intra_node_link : in->intra_host_link);
  char line[256];
  std::snprintf(line, sizeof line, tr(S::per_card_fmt), in->gpus_per_host_max, l ? l->name.c_str() : tr(S::na));
  text_wrapped_disabled(line);
}

bool cluster_section(AppState& app) {
  if (!section(tr(S::sec_cluster), "sec_cluster")) return false;
  bool c = false;
  if (begin_fields("cluster_mode", unit_column_width("cluster"))) {
    c |= cluster_mode_row(app);
    ImGui::EndTable();
  }
  c |= draw_fields(app, "cluster");
  if (has(app, "cluster.instance")) offering_lines(app);
  return c;
}

bool layout_section(AppState& app) {
  if (!section(tr(S::sec_layout), "sec_layout")) return false;
  return draw_fields(app, "layout", [&app](const char* path) {
    if (std::string_view(path) != "parallel.pp") return;
    char dp[32];
    std::snprintf(dp, sizeof dp, "%d", app.result.dp);
    field_text(tr(S::dp), app.result_is_stale ? "-" : dp, "layout.dp", app, S::t_dp);
  });
}

// The input sections: the field table's section name, the title, open at first.
struct Section {
  const char* name;
  S title;
  bool open;
};
constexpr Section kPlainSections[] = {{"method", S::sec_method, true}, {"data", S::sec_data, true}};
constexpr Section kLaterSections[] = {{"techniques", S::sec_techniques, false},
                                      {"network", S::sec_network, false},
                                      {"storage", S::sec_storage, false},
                                      {"pricing", S::sec_pricing, true}};

// The trial's measurements: the paste box, then the fields it fills.
bool calibration_section(AppState& app) {
  if (!section(tr(S::sec_calibration), "sec_calibration", has(app, "calibration"))) return false;
  const bool pasted = draw_paste_box(app, nullptr, "measure");
  return draw_fields(app, "calibration") || pasted;
}

// Under the tokens: where the run sits against compute-optimal training (full training only).
void scaling_line(const AppState& app) {
  const ScalingResult& sc = app.result.scaling;
  if (app.result_is_stale || !sc.applies || sc.tokens <= 0) return;
  const S regime = sc.regime == TrainingRegime::under_trained  ? S::regime_under
                   : sc.regime == TrainingRegime::over_trained ? S::regime_over
                                                               : S::regime_near;
  char per_param[32], line[512];
  std::snprintf(per_param, sizeof per_param, sc.tokens_per_param < 10 ? "%.2g" : "%.0f", sc.tokens_per_param);
  std::snprintf(line, sizeof line, tr(S::compute_optimal_fmt), per_param, tr(regime),
                format_count(sc.rule_tokens).c_str(), format_count(sc.law_tokens).c_str());
  text_wrapped_disabled(line);
}

bool plain_section(AppState& app, const Section& s) {
  const std::string id = std::string("sec_") + s.name;
  if (!section(tr(s.title), id.c_str(), s.open)) return false;
  const bool changed = draw_fields(app, s.name);
  if (std::string_view(s.name) == "data") scaling_line(app);
  return changed;
}

}  // namespace

bool draw_inputs(AppState& app) {
  if (!app.error.field.empty()) {
    char line[640];
    // The error text names its field by path (cluster.gpus: ...); the line adds the label the form
    // shows for it, where it has one.
    const FieldSpec* f = find_field(app.error.field);
    if (const char* label = f ? table_string(f->label, nullptr) : nullptr)
      std::snprintf(line, sizeof line, tr(S::input_error_in), label, input_error_text(app.error).c_str());
    else
      std::snprintf(line, sizeof line, tr(S::input_error), input_error_text(app.error).c_str());
    text_wrapped(line, &palette::kError);
  }
  bool changed = model_section(app);
  for (const Section& s : kPlainSections) changed |= plain_section(app, s);
  changed |= cluster_section(app);
  changed |= layout_section(app);
  for (const Section& s : kLaterSections) changed |= plain_section(app, s);
  changed |= calibration_section(app);
  if (changed) drop_fields_that_no_longer_apply(app);
  return changed;
}

//-----------------------------------------------------------------------------
// [SECTION] The page's form fields (page_form.hpp)
//-----------------------------------------------------------------------------

namespace {
constexpr const char* kPageFormFields[] = {"model.preset",        "method",       "precision",
                                           "cluster.accelerator", "cluster.gpus", "seq_len",
                                           "micro_batch",         "global_batch", "tokens"};

bool page_form_field(std::string_view path) {
  return std::find(std::begin(kPageFormFields), std::end(kPageFormFields), path) != std::end(kPageFormFields);
}
}  // namespace

std::string page_form_json(const AppState& app) {
  const Catalog& catalog = app_catalog(app);
  json fields = json::array();
  for (const char* path : kPageFormFields) {
    const FieldSpec& f = field(path);
    json options = json::array();
    json value;
    if (const json* j = json_at(app.input, path)) value = *j;
    if (std::string_view(path) == "model.preset") {
      for (const ModelPreset& m : catalog.models) options.push_back({{"value", m.id}, {"label", m.name}});
      if (value.is_null()) value = "";  // a custom architecture
    } else if (f.type == FieldType::choice) {
      for (const char* c : f.choices) options.push_back({{"value", c}, {"label", choice_text(f, c)}});
    } else if (f.type == FieldType::id) {
      std::vector<std::string> ids, names;
      catalog_choices(catalog, f, ids, names);
      for (size_t i = 0; i < ids.size(); ++i) options.push_back({{"value", ids[i]}, {"label", names[i]}});
    }
    if (value.is_null()) {  // what the core resolved for a field the document leaves out
      const std::string resolved = resolved_text(f, app.scenario);
      if (f.type == FieldType::integer || f.type == FieldType::number)
        value = std::strtod(resolved.c_str(), nullptr);
      else
        value = resolved;
    }
    fields.push_back({{"path", path},
                      {"label", table_string(f.label, f.path)},
                      {"type", kFieldTypeNames[static_cast<int>(f.type)]},
                      {"unit", *f.unit ? unit_text(f.unit) : ""},
                      {"lo", f.lo},
                      {"hi", f.hi},
                      {"value", value},
                      {"applies", doc_applies(app, f)},
                      {"options", options}});
  }
  json error = nullptr;
  if (!app.error.field.empty()) error = {{"field", app.error.field}, {"message", input_error_text(app.error)}};
  return json{{"title", tr(S::page_form_title)}, {"custom", tr(S::custom_arch)}, {"fields", fields}, {"error", error}}
      .dump();
}

void page_form_set(AppState& app, const std::string& path, const std::string& value_json) {
  if (!page_form_field(path)) return;
  json value = parse_json_untrusted(value_json);
  if (value.is_discarded()) return;
  if (path == "model.preset") {
    if (!value.is_string()) return;
    app.input["model"] = {{"preset", value}};
  } else {
    json_set(app.input, path, std::move(value));
  }
  drop_fields_that_no_longer_apply(app);
  app_update(app);
}

}  // namespace llmplan::web
