// panel_inputs.cpp: the scenario editor. Every widget edits one field of the scenario INPUT
// document (app.input, README field table) and shows, where the field is absent, the value the
// core resolved (app.scenario). Each edit re-parses the document (app_update): the parser's
// InputError names the field, and that field's widget turns red with the message.
//
// [SECTION] Document access
// [SECTION] Field rows (label | widget | unit, reset and tooltip)
// [SECTION] Sections: model, method, data, cluster, layout, network, storage, pricing
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/units.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

using nlohmann::json;

const ImVec4 kErrorColor(0.95f, 0.35f, 0.35f, 1.0f);

//-----------------------------------------------------------------------------
// [SECTION] Document access
//-----------------------------------------------------------------------------

std::vector<std::string> split(const char* path) {
  std::vector<std::string> parts;
  std::string cur;
  for (const char* p = path; *p; ++p) {
    if (*p == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += *p;
    }
  }
  parts.push_back(cur);
  return parts;
}

const json* doc_get(const json& doc, const char* path) {
  const json* j = &doc;
  for (const std::string& k : split(path)) {
    if (!j->is_object()) return nullptr;
    const auto it = j->find(k);
    if (it == j->end()) return nullptr;
    j = &*it;
  }
  return j;
}

void doc_set(json& doc, const char* path, json value) {
  json* j = &doc;
  const std::vector<std::string> parts = split(path);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!(*j)[parts[i]].is_object()) (*j)[parts[i]] = json::object();
    j = &(*j)[parts[i]];
  }
  (*j)[parts.back()] = std::move(value);
}

// Removes the field, and objects it leaves empty (so the document stays minimal).
void doc_erase(json& doc, const char* path) {
  const std::vector<std::string> parts = split(path);
  std::vector<json*> chain{&doc};
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    json* j = chain.back();
    if (!j->is_object() || !j->contains(parts[i])) return;
    chain.push_back(&(*j)[parts[i]]);
  }
  if (!chain.back()->is_object()) return;
  chain.back()->erase(parts.back());
  for (size_t i = chain.size() - 1; i > 0; --i)
    if (chain[i]->is_object() && chain[i]->empty()) chain[i - 1]->erase(parts[i - 1]);
}

bool has(const AppState& app, const char* path) { return doc_get(app.input, path) != nullptr; }

double doc_number(const AppState& app, const char* path, double fallback) {
  const json* j = doc_get(app.input, path);
  return j && j->is_number() ? j->get<double>() : fallback;
}

std::string doc_string(const AppState& app, const char* path, const std::string& fallback) {
  const json* j = doc_get(app.input, path);
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

bool begin_fields(const char* id) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.38f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.62f);
  // Wide enough for the longest unit, the (?) marker and the reset button.
  ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed, em() * 7.6f);
  return true;
}

// One row: the label (wrapped), then the widget cell; finish() draws the unit cell with the
// tooltip marker (term, default, range) and a reset button when the field is set.
struct Row {
  AppState& app;
  const char* path;
  bool error;
  Row(AppState& a, const char* field, S label) : app(a), path(field), error(a.error.field == field) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    text_wrapped(tr(label), error ? &kErrorColor : nullptr);
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::PushID(path);
    if (error) {
      ImGui::PushStyleColor(ImGuiCol_Border, kErrorColor);
      ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, std::max(1.0f, em() / 8));
    }
  }
  // Ends the widget cell (records it under the field path) and draws the unit cell.
  bool finish(const char* unit, S tip, const char* range = nullptr, bool resettable = true) {
    record_widget(path);
    if (error) {
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();
      text_wrapped(app.error.message.c_str(), &kErrorColor);
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
      ImGui::TextUnformatted(tr(tip));
      if (range) ImGui::TextDisabled("%s", range);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (resettable && has(app, path)) {
      ImGui::SameLine(0, em() * 0.3f);
      if (ImGui::SmallButton("\xC3\x97")) {  // the multiplication sign as a small "x"
        doc_erase(app.input, path);
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

// An integer field showing `effective` when the document does not set it. Out-of-range values
// are kept as typed, so the parser names the problem (red) rather than the widget hiding it.
bool field_int(AppState& app, const char* path, S label, S tip, const char* unit, int lo, int hi, int effective) {
  Row row(app, path, label);
  int v = static_cast<int>(doc_number(app, path, effective));
  bool changed = false;
  if (ImGui::InputInt("##v", &v, 1, 8, ImGuiInputTextFlags_AutoSelectAll)) {
    doc_set(app.input, path, v);
    changed = true;
  }
  const std::string range = range_text(lo, hi);
  return row.finish(unit, tip, range.c_str()) || changed;
}

bool field_number(AppState& app, const char* path, S label, S tip, const char* unit, double lo, double hi,
                  double effective, const char* format = "%g", double step = 0) {
  Row row(app, path, label);
  double v = doc_number(app, path, effective);
  bool changed = false;
  const double step_fast = step * 10;
  if (ImGui::InputScalar("##v", ImGuiDataType_Double, &v, step > 0 ? &step : nullptr, step > 0 ? &step_fast : nullptr,
                         format, ImGuiInputTextFlags_AutoSelectAll)) {
    doc_set(app.input, path, v);
    changed = true;
  }
  const std::string range = range_text(lo, hi);
  return row.finish(unit, tip, range.c_str()) || changed;
}

bool field_bool(AppState& app, const char* path, S label, S tip, bool effective) {
  Row row(app, path, label);
  bool v = doc_get(app.input, path) && doc_get(app.input, path)->is_boolean() ? doc_get(app.input, path)->get<bool>()
                                                                                : effective;
  bool changed = false;
  if (ImGui::Checkbox("##v", &v)) {
    doc_set(app.input, path, v);
    changed = true;
  }
  return row.finish(nullptr, tip) || changed;
}

// A choice among JSON string values `values` shown as `names`.
bool field_choice(AppState& app, const char* path, S label, S tip, const char* const* values, const char* const* names,
                  int count, int effective) {
  Row row(app, path, label);
  int current = effective;
  const std::string v = doc_string(app, path, "");
  for (int i = 0; i < count; ++i)
    if (v == values[i]) current = i;
  bool changed = false;
  if (combo(path, &current, names, count)) {
    doc_set(app.input, path, values[current]);
    changed = true;
  }
  record_label_in_item(names[current], ImGui::GetFrameHeight());
  return row.finish(nullptr, tip) || changed;
}

// A catalog id from `ids`/`names`, with a filter box when the list is long; "" = the default.
bool field_catalog_id(AppState& app, const char* path, S label, S tip, const std::vector<std::string>& ids,
                      const std::vector<std::string>& names, const std::string& effective, bool allow_default) {
  Row row(app, path, label);
  const std::string current = doc_string(app, path, effective);
  std::string preview = current.empty() ? std::string(tr(S::default_word)) : current;
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == current) preview = names[i];
  if (!has(app, path) && allow_default) preview += std::string(" ") + tr(S::from_catalog);
  bool changed = false;
  if (ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
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
      doc_erase(app.input, path);
      changed = true;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!filter.PassFilter(names[i].c_str()) && !filter.PassFilter(ids[i].c_str())) continue;
      if (ImGui::Selectable(names[i].c_str(), ids[i] == current)) {
        doc_set(app.input, path, ids[i]);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  record_label_in_item(preview.c_str(), ImGui::GetFrameHeight());
  return row.finish(nullptr, tip, nullptr, false) || changed;
}

void field_text(const char* label, const char* value, const char* why_key, const AppState& app, S tip) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  text_wrapped(label);
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
// [SECTION] Sections
//-----------------------------------------------------------------------------

bool model_section(AppState& app) {
  if (!section(tr(S::sec_model), "sec_model")) return false;
  const Catalog& catalog = app_catalog(app);
  bool c = false;
  const bool custom = !has(app, "model.preset");
  if (begin_fields("model")) {
    {
      Row row(app, "model.preset", S::preset);
      const std::string preview = custom ? std::string(tr(S::custom_arch))
                                  : app.preset_index >= 0 ? catalog.models[static_cast<size_t>(app.preset_index)].name
                                                          : doc_string(app, "model.preset", "");
      if (ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
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
      c |= row.finish(nullptr, S::t_preset, nullptr, false);
    }
    if (custom) {
      const ModelArch& m = app.scenario.model;
      c |= field_int(app, "model.layers", S::layers, S::t_layers, tr(S::u_layers), 1, 1000, m.layers);
      c |= field_int(app, "model.hidden", S::hidden, S::t_hidden, "", 1, 1000000, m.hidden);
      c |= field_int(app, "model.heads", S::heads, S::t_heads, "", 1, 4096, m.heads);
      c |= field_int(app, "model.kv_heads", S::kv_heads, S::t_kv_heads, "", 1, 4096, m.kv_heads);
      c |= field_int(app, "model.head_dim", S::head_dim, S::t_head_dim, "", 0, 100000, m.head_dim);
      c |= field_int(app, "model.ffn", S::ffn, S::t_ffn, "", 1, 10000000, m.ffn);
      c |= field_int(app, "model.vocab", S::vocab, S::t_vocab, tr(S::u_tokens), 1, 10000000, m.vocab);
      c |= field_bool(app, "model.gated_mlp", S::gated_mlp, S::t_gated, m.gated_mlp);
      c |= field_bool(app, "model.tied_embeddings", S::tied_embeddings, S::t_tied, m.tied_embeddings);
      c |= field_int(app, "model.experts", S::experts, S::t_experts, "", 0, 100000, m.experts);
      if (m.experts > 0 || has(app, "model.experts")) {
        c |= field_int(app, "model.top_k", S::top_k, S::t_top_k, "", 0, 1024, m.top_k);
        c |= field_int(app, "model.shared_experts", S::shared_experts, S::t_shared, "", 0, 1024, m.shared_experts);
        c |= field_int(app, "model.expert_ffn", S::expert_ffn, S::t_expert_ffn, "", 0, 10000000, m.expert_ffn);
        c |= field_int(app, "model.dense_layers", S::dense_layers, S::t_dense_layers, tr(S::u_layers), 0, 1000,
                       m.dense_layers);
      }
    }
    if (app.has_result)
      field_text(tr(S::params), format_count(app.result.params.total).c_str(), "model.params.total", app, S::t_preset);
    ImGui::EndTable();
  }
  if (!custom && app.preset_index >= 0) {
    const ModelPreset& p = catalog.models[static_cast<size_t>(app.preset_index)];
    const std::string source = p.source + " (" + tr(S::as_of) + " " + p.as_of + ")";
    text_wrapped_disabled(source.c_str());
  }
  return c;
}

bool method_section(AppState& app) {
  if (!section(tr(S::sec_method), "sec_method")) return false;
  const Scenario& s = app.scenario;
  bool c = false;
  if (!begin_fields("method")) return false;
  static const char* methods[] = {"pretrain", "continued", "full", "lora", "qlora", "freeze"};
  const char* method_names[] = {tr(S::method_pretrain), tr(S::method_continued), tr(S::method_full),
                                tr(S::method_lora),     tr(S::method_qlora),     tr(S::method_freeze)};
  if (field_choice(app, "method", S::method, S::t_method, methods, method_names, 6, static_cast<int>(s.method))) {
    // Fields that apply to one method only would make the parser refuse the others.
    const std::string m = doc_string(app, "method", "pretrain");
    if (m != "lora" && m != "qlora") doc_erase(app.input, "lora");
    if (m != "freeze") doc_erase(app.input, "trainable_layers");
    c = true;
  }
  const std::string method = doc_string(app, "method", to_string(s.method));
  if (method == "lora" || method == "qlora") {
    c |= field_int(app, "lora.rank", S::lora_rank, S::t_lora_rank, "", 1, 4096, s.lora.rank);
    static const char* targets[] = {"attention", "all_linear"};
    const char* target_names[] = {tr(S::targets_attention), tr(S::targets_all)};
    c |= field_choice(app, "lora.targets", S::lora_targets, S::t_lora_targets, targets, target_names, 2,
                      static_cast<int>(s.lora.targets));
  }
  if (method == "freeze")
    c |= field_int(app, "trainable_layers", S::trainable_layers, S::t_trainable, tr(S::u_layers), 0, s.model.layers,
                   s.trainable_layers);
  static const char* precisions[] = {"bf16", "fp16", "fp32", "fp8"};
  if (field_choice(app, "precision", S::precision, S::t_precision, precisions, precisions, 4,
                   static_cast<int>(s.precision))) {
    if (doc_string(app, "precision", "bf16") != "bf16") doc_erase(app.input, "pure_bf16");
    c = true;
  }
  if (doc_string(app, "precision", "bf16") == "bf16")
    c |= field_bool(app, "pure_bf16", S::pure_bf16, S::t_pure_bf16, s.pure_bf16);
  static const char* optimizers[] = {"adamw", "adamw8bit", "sgd", "adafactor"};
  static const char* optimizer_names[] = {"AdamW", "8-bit AdamW", "SGD", "Adafactor"};
  c |= field_choice(app, "optimizer", S::optimizer, S::t_optimizer, optimizers, optimizer_names, 4,
                    static_cast<int>(s.optimizer));
  ImGui::EndTable();
  return c;
}

bool data_section(AppState& app) {
  if (!section(tr(S::sec_data), "sec_data")) return false;
  const Scenario& s = app.scenario;
  bool c = false;
  if (!begin_fields("data")) return false;
  c |= field_int(app, "seq_len", S::seq_len, S::t_seq_len, tr(S::u_tokens), 1, 1048576, s.seq_len);
  c |= field_int(app, "micro_batch", S::micro_batch, S::t_micro_batch, tr(S::u_seqs), 1, 65536, s.micro_batch);
  c |= field_int(app, "global_batch", S::global_batch, S::t_global_batch, tr(S::u_seqs), 0, 100000000,
                 has(app, "global_batch") ? s.global_batch : 0);
  c |= field_number(app, "tokens", S::tokens, S::t_tokens, tr(S::u_tokens), 0, 1e16, s.tokens, "%.4g");
  c |= field_number(app, "storage.dataset_tokens", S::dataset_tokens, S::t_dataset_tokens, tr(S::u_tokens), 0, 1e16,
                    s.storage.dataset_tokens, "%.4g");
  c |= field_number(app, "epochs", S::epochs, S::t_epochs, "", 0.001, 10000, s.epochs, "%g", 1);
  c |= field_number(app, "storage.bytes_per_token", S::bytes_per_token, S::t_bytes_per_token, tr(S::u_bytes), 0.1, 1000,
                    s.storage.bytes_per_token, "%g", 1);
  ImGui::EndTable();
  return c;
}

std::string price_text(Opt price, CurrencyCode currency) {
  if (!price) return tr(S::na);
  return format_money(*price, currency == CurrencyCode::cny ? Currency::cny : Currency::usd);
}

bool cluster_section(AppState& app) {
  if (!section(tr(S::sec_cluster), "sec_cluster")) return false;
  const Catalog& catalog = app_catalog(app);
  const Scenario& s = app.scenario;
  bool c = false;
  if (!begin_fields("cluster")) return false;
  const bool offering = has(app, "cluster.instance");
  {
    Row row(app, "cluster.mode", S::cluster_mode);
    int mode = offering ? 1 : 0;
    const char* modes[] = {tr(S::mode_accel), tr(S::mode_instance)};
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
        cluster = {{"accelerator", s.cluster.accelerator}, {"gpus", s.cluster.gpus},
                   {"gpus_per_node", s.cluster.gpus_per_node}};
      }
      app.input["cluster"] = cluster;
      c = true;
    }
    record_label_in_item(modes[mode], ImGui::GetFrameHeight());
    c |= row.finish(nullptr, S::t_cluster_mode, nullptr, false);
  }
  if (!offering) {
    std::vector<std::string> ids, names;
    for (const Accelerator& a : catalog.accelerators) {
      ids.push_back(a.id);
      names.push_back(a.name);
    }
    c |= field_catalog_id(app, "cluster.accelerator", S::accelerator, S::t_accelerator, ids, names, s.cluster.accelerator,
                          false);
    c |= field_int(app, "cluster.gpus", S::gpus, S::t_gpus, tr(S::u_gpus), 1, 1000000, s.cluster.gpus);
    c |= field_int(app, "cluster.gpus_per_node", S::gpus_per_node, S::t_gpus_per_node, tr(S::u_gpus), 1, 72,
                   s.cluster.gpus_per_node);
    c |= field_number(app, "cluster.gpu_memory_gb", S::gpu_memory, S::t_gpu_memory, "GB", 1, 1000,
                      s.cluster.gpu_memory_gb, "%.1f", 1);
  } else {
    std::vector<std::string> ids, names;
    for (const Instance& in : catalog.instances) {
      ids.push_back(in.id);
      names.push_back(in.name + " (" + in.region + ")");
    }
    c |= field_catalog_id(app, "cluster.instance", S::instance, S::t_instance, ids, names, s.cluster.instance, false);
    c |= field_int(app, "cluster.nodes", S::nodes, S::t_nodes, tr(S::u_nodes), 1, 100000, s.cluster.nodes());
  }
  ImGui::EndTable();
  if (offering) {
    if (const Instance* in = catalog.find_instance(doc_string(app, "cluster.instance", ""))) {
      const Provider* p = catalog.find_provider(in->provider);
      const Accelerator* a = catalog.find_accelerator(in->accelerator);
      char line[512];
      std::snprintf(line, sizeof line, tr(S::offering_fmt), p ? p->name.c_str() : in->provider.c_str(), in->region.c_str(),
                    in->gpus, a ? a->name.c_str() : in->accelerator.c_str(),
                    in->vcpus ? num_text(*in->vcpus).c_str() : tr(S::na), in->ram_gb ? num_text(*in->ram_gb).c_str() : tr(S::na));
      text_wrapped_disabled(line);
      std::snprintf(line, sizeof line, tr(S::offering_price), price_text(in->on_demand_per_hour, in->currency).c_str(),
                    price_text(in->spot_per_hour, in->currency).c_str(), in->source.c_str(), in->as_of.c_str());
      text_wrapped_disabled(line);
    }
  }
  return c;
}

bool layout_section(AppState& app) {
  if (!section(tr(S::sec_layout), "sec_layout")) return false;
  const Parallel& x = app.scenario.parallel;
  bool c = false;
  if (!begin_fields("layout")) return false;
  c |= field_int(app, "parallel.tp", S::tp, S::t_tp, tr(S::u_gpus), 1, 1024, x.tp);
  c |= field_int(app, "parallel.pp", S::pp, S::t_pp, "", 1, 1000, x.pp);
  char dp[32];
  std::snprintf(dp, sizeof dp, "%d", app.result.dp);
  field_text(tr(S::dp), app.result_is_stale ? "-" : dp, "layout.dp", app, S::t_dp);
  {
    Row row(app, "parallel.zero", S::zero);
    int z = static_cast<int>(doc_number(app, "parallel.zero", x.zero));
    const char* stages[] = {tr(S::zero_0), tr(S::zero_1), tr(S::zero_2), tr(S::zero_3)};
    if (combo("parallel.zero", &z, stages, 4)) {
      doc_set(app.input, "parallel.zero", z);
      if (z == 0) doc_erase(app.input, "parallel.offload");
      c = true;
    }
    record_label_in_item(stages[std::clamp(z, 0, 3)], ImGui::GetFrameHeight());
    c |= row.finish(nullptr, S::t_zero);
  }
  c |= field_bool(app, "parallel.sequence_parallel", S::sequence_parallel, S::t_sp, x.sequence_parallel);
  static const char* recompute[] = {"none", "selective", "full"};
  const char* recompute_names[] = {tr(S::recompute_none), tr(S::recompute_selective), tr(S::recompute_full)};
  c |= field_choice(app, "parallel.recompute", S::recompute, S::t_recompute, recompute, recompute_names, 3,
                    static_cast<int>(x.recompute));
  static const char* offload[] = {"none", "cpu", "nvme"};
  const char* offload_names[] = {tr(S::offload_none), tr(S::offload_cpu), tr(S::offload_nvme)};
  c |= field_choice(app, "parallel.offload", S::offload, S::t_offload, offload, offload_names, 3,
                    static_cast<int>(x.offload));
  c |= field_bool(app, "parallel.flash_attention", S::flash_attention, S::t_flash, x.flash_attention);
  c |= field_bool(app, "parallel.tp_comm_overlap", S::tp_overlap, S::t_tp_overlap, x.tp_comm_overlap);
  ImGui::EndTable();
  return c;
}

bool network_section(AppState& app) {
  if (!section(tr(S::sec_network), "sec_network", false)) return false;
  const Catalog& catalog = app_catalog(app);
  bool c = false;
  if (!begin_fields("network")) return false;
  std::vector<std::string> ids, names;
  for (const Interconnect& l : catalog.interconnects)
    if (l.scope == LinkScope::inter_node) {
      ids.push_back(l.id);
      names.push_back(l.name);
    }
  c |= field_catalog_id(app, "network.inter_node_link", S::inter_link, S::t_inter_link, ids, names,
                        app.scenario.network.inter_node_link, true);
  c |= field_number(app, "network.inter_node_gbps", S::inter_gbps, S::t_inter_gbps, tr(S::u_gbps), 1, 1e6,
                    app.scenario.network.node_gb_per_s * 8, "%.0f");
  ImGui::EndTable();
  return c;
}

bool storage_section(AppState& app) {
  if (!section(tr(S::sec_storage), "sec_storage", false)) return false;
  const Catalog& catalog = app_catalog(app);
  const StorageChoice& st = app.scenario.storage;
  bool c = false;
  if (!begin_fields("storage")) return false;
  std::vector<std::string> ids, names;
  for (const StorageTier& t : catalog.storage) {
    ids.push_back(t.id);
    names.push_back(t.name);
  }
  c |= field_catalog_id(app, "storage.data_tier", S::data_tier, S::t_data_tier, ids, names, st.data_tier, true);
  c |= field_catalog_id(app, "storage.checkpoint_tier", S::ckpt_tier, S::t_ckpt_tier, ids, names, st.checkpoint_tier,
                        true);
  {
    Row row(app, "storage.checkpoint_interval_h", S::ckpt_interval);
    const json* j = doc_get(app.input, "storage.checkpoint_interval_h");
    bool automatic = !j || j->is_string();
    if (ImGui::Checkbox(tr(S::auto_word), &automatic)) {
      if (automatic) doc_erase(app.input, "storage.checkpoint_interval_h");
      else doc_set(app.input, "storage.checkpoint_interval_h", std::max(0.1, std::round(app.result.reliability.checkpoint_interval_h * 10) / 10));
      c = true;
    }
    record_label_in_item(tr(S::auto_word));
    if (!automatic) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(-1.0f);
      double h = j && j->is_number() ? j->get<double>() : app.result.reliability.checkpoint_interval_h;
      if (ImGui::InputDouble("##h", &h, 0, 0, "%.2f", ImGuiInputTextFlags_AutoSelectAll)) {
        doc_set(app.input, "storage.checkpoint_interval_h", h);
        c = true;
      }
    }
    c |= row.finish(tr(S::u_h), S::t_ckpt_interval, nullptr, false);
  }
  c |= field_number(app, "storage.retention_months", S::retention, S::t_retention, tr(S::u_months), 0, 1200,
                    st.retention_months, "%g", 1);
  c |= field_int(app, "storage.checkpoints_kept", S::ckpt_kept, S::t_ckpt_kept, tr(S::u_count), 1, 10000,
                 st.checkpoints_kept);
  ImGui::EndTable();
  return c;
}

bool pricing_section(AppState& app) {
  if (!section(tr(S::sec_pricing), "sec_pricing")) return false;
  const Pricing& p = app.scenario.pricing;
  bool c = false;
  if (!begin_fields("pricing")) return false;
  static const char* modes[] = {"on_demand", "spot", "reserved_1yr", "reserved_3yr"};
  const char* mode_names[] = {tr(S::mode_on_demand), tr(S::mode_spot), tr(S::mode_r1), tr(S::mode_r3)};
  c |= field_choice(app, "pricing.mode", S::price_mode, S::t_price_mode, modes, mode_names, 4, static_cast<int>(p.mode));
  c |= field_number(app, "pricing.usd_per_gpu_hour", S::price, S::t_price, tr(S::u_usd_gpu_h), 0.001, 1000,
                    p.usd_per_gpu_hour, "%.3f", 0.1);
  c |= field_number(app, "pricing.overhead_factor", S::overhead, S::t_overhead, tr(S::u_x), 1, 10, p.overhead_factor,
                    "%.2f", 0.05);
  static const char* currencies[] = {"usd", "cny"};
  static const char* currency_names[] = {"USD $", "CNY \xC2\xA5"};
  c |= field_choice(app, "pricing.currency", S::currency, S::t_currency, currencies, currency_names, 2,
                    static_cast<int>(p.currency));
  c |= field_number(app, "pricing.spot_interruptions_per_hour", S::spot_rate, S::t_spot_rate, tr(S::u_per_h), 0, 100,
                    p.spot_interruptions_per_hour, "%.3f", 0.01);
  c |= field_number(app, "pricing.failures_per_gpu_hour", S::failure_rate, S::t_failure_rate, tr(S::u_per_gpu_h), 0, 1,
                    p.failures_per_gpu_hour, "%.3g");
  ImGui::EndTable();
  return c;
}

}  // namespace

bool draw_inputs(AppState& app) {
  if (!app.error.field.empty()) {
    char line[512];
    std::snprintf(line, sizeof line, tr(S::input_error), app.error.field.c_str(), app.error.message.c_str());
    text_wrapped(line, &kErrorColor);
  }
  bool changed = model_section(app);
  changed |= method_section(app);
  changed |= data_section(app);
  changed |= cluster_section(app);
  changed |= layout_section(app);
  changed |= network_section(app);
  changed |= storage_section(app);
  changed |= pricing_section(app);
  return changed;
}

}  // namespace llmplan::web
