// panel_catalog.cpp: the Catalog tab: accelerators, cloud offerings and models with their
// sources and dates (sortable, filterable tables), and the user's own edits (an instance price
// override, custom GPUs). Edits live in localStorage ("llmplan.catalogEdits"); core applies and
// validates them (llmplan/catalog_edits.hpp).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/catalog.hpp"
#include "llmplan/catalog_edits.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {

using nlohmann::json;

namespace {

const char* kEditsKey = "llmplan.catalogEdits";

bool apply_edits(AppState& app, const json& edits) {
  if (std::string shape = catalog_edits_shape_error(edits); !shape.empty()) {
    app.edits_error = std::move(shape);
    return false;
  }
  if (edits.empty() || (edits.value("prices", json::object()).empty() && edits.value("gpus", json::array()).empty())) {
    app.catalog_edits = json::object();
    app.edited_catalog.reset();
    app.edited_catalog_json.clear();
    app.edits_error.clear();
    platform_save_setting(kEditsKey, "");
    return true;
  }
  EditedCatalog edited = apply_catalog_edits(edits, builtin_catalog_json(), tr(S::custom_gpu_source));
  if (!edited.error.empty()) {
    app.edits_error = std::move(edited.error);
    return false;
  }
  app.catalog_edits = edits;
  app.edited_catalog = std::move(edited.load.catalog);
  app.edited_catalog_json = std::move(edited.json);
  app.edits_error.clear();
  platform_save_setting(kEditsKey, edits.dump());
  return true;
}

// A sortable, filterable table over `n` rows. `cell(row, column)` draws one cell; `less(a, b,
// column)` orders rows by a column. The sorted order is cached until the sort or filter changes.
struct TableView {
  std::vector<int> order;
  std::string last_filter;
  int last_column = -1;
  bool last_ascending = true;
  size_t last_n = 0;
  ImGuiTextFilter filter;
};

void sortable_table(const char* id, TableView& view, int n, const std::vector<const char*>& headers,
                    const std::function<std::string(int)>& haystack, const std::function<bool(int, int, int)>& less,
                    const std::function<void(int, int)>& cell, float height) {
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, em() * 20));
  view.filter.Draw(tr(S::filter));
  record_widget((std::string(id) + "_filter").c_str());
  const int columns = static_cast<int>(headers.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_Resizable |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, columns, flags, ImVec2(0, height))) return;
  // The last logical column (the "use" button) is shown first, frozen with the name beside it.
  auto logical = [&](int c) { return c == 0 ? columns - 1 : c - 1; };
  ImGui::TableSetupScrollFreeze(2, 1);
  for (int c = 0; c < columns; ++c)
    ImGui::TableSetupColumn(headers[static_cast<size_t>(logical(c))], c == 0   ? ImGuiTableColumnFlags_NoSort
                                                                      : c == 1 ? ImGuiTableColumnFlags_DefaultSort
                                                                               : 0);
  ImGui::TableHeadersRow();
  int column = 0;
  bool ascending = true;
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
    column = logical(specs->Specs[0].ColumnIndex);
    ascending = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
  }
  const std::string filter_text = view.filter.InputBuf;
  if (column != view.last_column || ascending != view.last_ascending || filter_text != view.last_filter ||
      static_cast<size_t>(n) != view.last_n) {
    view.order.clear();
    for (int i = 0; i < n; ++i)
      if (view.filter.PassFilter(haystack(i).c_str())) view.order.push_back(i);
    std::stable_sort(view.order.begin(), view.order.end(),
                     [&](int a, int b) { return ascending ? less(a, b, column) : less(b, a, column); });
    view.last_column = column;
    view.last_ascending = ascending;
    view.last_filter = filter_text;
    view.last_n = static_cast<size_t>(n);
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(view.order.size()));
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        cell(view.order[static_cast<size_t>(r)], logical(c));
        if (r == 0 && c == 0) record_widget((std::string(id) + "_use_first").c_str());
      }
    }
  ImGui::EndTable();
  char rows[64];
  std::snprintf(rows, sizeof rows, tr(S::rows_fmt), static_cast<int>(view.order.size()), n);
  text_disabled(rows);
}

std::string opt(Opt v, const char* format = "%g") {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, *v);
  return buf;
}
double key(Opt v) { return v ? *v : -1; }

void cell_text(const std::string& s) { ImGui::TextUnformatted(s.c_str()); }
void source_cell(const EntryInfo& e) {
  ImGui::TextUnformatted(e.source.size() > 60 ? (e.source.substr(0, 57) + "...").c_str() : e.source.c_str());
  item_tooltip(e.source.c_str());
}

bool accelerators_view(AppState& app, float height) {
  static TableView view;
  const Catalog& c = app_catalog(app);
  bool changed = false;
  const std::vector<const char*> headers = {
      tr(S::col_name), tr(S::col_vendor),   tr(S::col_memory), tr(S::col_hbm),    tr(S::col_bf16),
      tr(S::col_fp8),  tr(S::col_max_node), tr(S::col_as_of),  tr(S::col_source), ""};
  sortable_table(
      "accelerators", view, static_cast<int>(c.accelerators.size()), headers,
      [&](int i) {
        return c.accelerators[static_cast<size_t>(i)].id + " " + c.accelerators[static_cast<size_t>(i)].name;
      },
      [&](int a, int b, int col) {
        const Accelerator &x = c.accelerators[static_cast<size_t>(a)], &y = c.accelerators[static_cast<size_t>(b)];
        switch (col) {
          case 1: return x.vendor < y.vendor;
          case 2: return x.memory_gb < y.memory_gb;
          case 3: return x.memory_bw_gb_per_s < y.memory_bw_gb_per_s;
          case 4: return x.half_dense_tflops() < y.half_dense_tflops();
          case 5: return key(x.fp8_dense_tflops) < key(y.fp8_dense_tflops);
          case 6: return x.max_gpus_per_node < y.max_gpus_per_node;
          case 7: return x.as_of < y.as_of;
          case 8: return x.source < y.source;
          default: return x.name < y.name;
        }
      },
      [&](int i, int col) {
        const Accelerator& a = c.accelerators[static_cast<size_t>(i)];
        switch (col) {
          case 0:
            cell_text(a.name);
            item_tooltip(a.id.c_str());
            break;
          case 1: cell_text(vendor_name(a.vendor)); break;
          case 2: cell_text(opt(a.memory_gb)); break;
          case 3: cell_text(opt(a.memory_bw_gb_per_s)); break;
          case 4:  // the FP16 peak stands in where the BF16 one is not published or not there (V100)
            cell_text(a.bf16_dense_tflops ? opt(a.bf16_dense_tflops) : opt(a.fp16_dense_tflops) + tr(S::fp16_stand_in));
            if (!a.bf16_dense_tflops) item_tooltip(tr(S::t_fp16_stand_in));
            break;
          case 5: cell_text(opt(a.fp8_dense_tflops)); break;
          case 6:
            cell_text(a.max_gpus_per_node > 0 ? std::to_string(a.max_gpus_per_node) : "-");
            item_tooltip(tr(S::t_col_max_node));
            break;
          case 7: cell_text(a.as_of); break;
          case 8: source_cell(a); break;
          default:
            ImGui::PushID(i);
            if (ImGui::SmallButton(tr(S::use))) {
              app.input["cluster"] = {{"accelerator", a.id}, {"gpus", app.scenario.cluster.gpus}};
              // A node larger than this part is ever sold in falls back to the default, min(gpus, 8).
              const int gpn = app.scenario.cluster.gpus_per_node;
              if (within_node_bound(a.max_gpus_per_node, gpn)) app.input["cluster"]["gpus_per_node"] = gpn;
              changed = true;
            }
            ImGui::PopID();
        }
      },
      height);
  return changed;
}

bool instances_view(AppState& app, float height) {
  static TableView view;
  static std::string selected;
  static double price = 0;
  const Catalog& c = app_catalog(app);
  bool changed = false;
  const std::vector<const char*> headers = {tr(S::col_name),   tr(S::col_provider),  tr(S::col_gpus),
                                            tr(S::col_region), tr(S::col_on_demand), tr(S::col_spot),
                                            tr(S::col_as_of),  tr(S::col_source),    ""};
  auto money = [](Opt v, CurrencyCode cur) {
    return v ? format_money(*v, cur == CurrencyCode::cny ? Currency::cny : Currency::usd) : std::string("-");
  };
  sortable_table(
      "instances", view, static_cast<int>(c.instances.size()), headers,
      [&](int i) {
        const Instance& in = c.instances[static_cast<size_t>(i)];
        return in.id + " " + in.name + " " + in.provider + " " + in.accelerator + " " + in.region;
      },
      [&](int a, int b, int col) {
        const Instance &x = c.instances[static_cast<size_t>(a)], &y = c.instances[static_cast<size_t>(b)];
        switch (col) {
          case 1: return x.provider < y.provider;
          case 2: return x.gpus < y.gpus;
          case 3: return x.region < y.region;
          case 4: return key(x.on_demand_per_hour) < key(y.on_demand_per_hour);
          case 5: return key(x.spot_per_hour) < key(y.spot_per_hour);
          case 6: return x.as_of < y.as_of;
          case 7: return x.source < y.source;
          default: return x.name < y.name;
        }
      },
      [&](int i, int col) {
        const Instance& in = c.instances[static_cast<size_t>(i)];
        switch (col) {
          case 0:
            if (ImGui::Selectable(in.name.c_str(), selected == in.id,
                                  ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap)) {
              selected = in.id;
              price = in.on_demand_per_hour ? *in.on_demand_per_hour : 0;
            }
            item_tooltip(in.id.c_str());
            break;
          case 1: cell_text(in.provider); break;
          case 2:
            cell_text((in.per_card() ? "1-" + std::to_string(in.gpus_per_host_max) : std::to_string(in.gpus)) + " x " +
                      in.accelerator);
            break;
          case 3: cell_text(in.region); break;
          case 4: cell_text(money(in.on_demand_per_hour, in.currency)); break;
          case 5: cell_text(money(in.spot_per_hour, in.currency)); break;
          case 6: cell_text(in.as_of); break;
          case 7: source_cell(in); break;
          default:
            ImGui::PushID(i);
            if (ImGui::SmallButton(tr(S::use))) {
              app.input["cluster"] = {{"instance", in.id}, {"nodes", 1}};
              if (app.input.contains("pricing")) app.input["pricing"].erase("usd_per_gpu_hour");
              changed = true;
            }
            ImGui::PopID();
        }
      },
      height);
  if (const Instance* in = c.find_instance(selected)) {
    text_wrapped(in->name.c_str());
    ImGui::SetNextItemWidth(em() * 8);
    ImGui::InputDouble(tr(S::override_price), &price, 0, 0, "%.2f");
    record_widget("price_override");
    ImGui::SameLine();
    if (button(tr(S::apply), "price_apply") && price > 0) {
      json edits = app.catalog_edits;
      edits["prices"][in->id] = price;
      changed |= apply_edits(app, edits);
    }
  }
  return changed;
}

// A long text cut to `n` characters with the whole in its tooltip (UTF-8 safe: cuts at a character start).
void short_cell(const std::string& s, size_t n = 28) {
  if (s.size() <= n) return cell_text(s.empty() ? "-" : s);
  size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  cell_text(s.substr(0, cut) + "...");
  item_tooltip(s.c_str());
}

// The five-indicator scorecard of each provider (catalog/SCHEMA.md, providers): GPUs listed (from
// its offerings), multi-node RDMA, parallel file system, images and managed platform, billing,
// and the typical lead time; "-" where the catalog has no sourced figure.
bool providers_view(AppState& app, float height) {
  static TableView view;
  const Catalog& c = app_catalog(app);
  const auto gpus_of = [&](const Provider& p) {
    std::vector<std::string> ids;
    for (const Instance& in : c.instances)
      if (in.provider == p.id && std::find(ids.begin(), ids.end(), in.accelerator) == ids.end())
        ids.push_back(in.accelerator);
    std::string out;
    for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
    return out;
  };
  const auto yes_no = [](const std::optional<bool>& b) { return b ? std::string(tr(*b ? S::yes : S::no)) : "-"; };
  const std::vector<const char*> headers = {tr(S::col_name),         tr(S::prov_col_kind),
                                            tr(S::prov_col_gpus),    tr(S::prov_col_rdma),
                                            tr(S::prov_col_storage), tr(S::prov_col_platform),
                                            tr(S::prov_col_billing), tr(S::prov_col_lead),
                                            tr(S::col_source),       ""};
  bool changed = false;
  sortable_table(
      "providers", view, static_cast<int>(c.providers.size()), headers,
      [&](int i) { return c.providers[static_cast<size_t>(i)].id + " " + c.providers[static_cast<size_t>(i)].name; },
      [&](int a, int b, int col) {
        const Provider &x = c.providers[static_cast<size_t>(a)], &y = c.providers[static_cast<size_t>(b)];
        switch (col) {
          case 1: return x.kind < y.kind;
          case 7: return x.lead_time_days.value_or(1e9) < y.lead_time_days.value_or(1e9);
          default: return x.name < y.name;
        }
      },
      [&](int i, int col) {
        const Provider& p = c.providers[static_cast<size_t>(i)];
        switch (col) {
          case 0: short_cell(p.name, 24); break;
          case 1: cell_text(provider_kind_name(p.kind)); break;
          case 2: short_cell(gpus_of(p)); break;
          case 3: short_cell(yes_no(p.rdma_multi_node) + (p.rdma_fabric.empty() ? "" : ": " + p.rdma_fabric)); break;
          case 4: {
            std::string fs = p.parallel_fs;
            if (p.parallel_fs_mb_per_s_per_tib) fs += " (" + opt(p.parallel_fs_mb_per_s_per_tib) + " MB/s/TiB)";
            short_cell(fs);
            break;
          }
          case 5:
            short_cell(p.images +
                       (p.managed_training.empty() ? "" : (p.images.empty() ? "" : "; ") + p.managed_training));
            break;
          case 6:
            short_cell(p.billing_granularity + (p.billing_minimum.empty() ? "" : ", " + p.billing_minimum) +
                       (p.spot && *p.spot ? ", spot" : ""));
            break;
          case 7: cell_text(p.lead_time_days ? opt(p.lead_time_days) + " d" : std::string("-")); break;
          case 8: source_cell(p); break;
          default:  // the planner searches this provider's offerings only
            ImGui::PushID(i);
            if (ImGui::SmallButton(tr(S::plan_with))) {
              app.planner.providers = {p.id};
              changed = true;
            }
            ImGui::PopID();
        }
      },
      height);
  return changed;
}

bool models_view(AppState& app, float height) {
  static TableView view;
  const Catalog& c = app_catalog(app);
  bool changed = false;
  const std::vector<const char*> headers = {tr(S::col_name),    tr(S::col_params), tr(S::layers),     tr(S::hidden),
                                            tr(S::col_context), tr(S::col_as_of),  tr(S::col_source), ""};
  sortable_table(
      "models", view, static_cast<int>(c.models.size()), headers,
      [&](int i) { return c.models[static_cast<size_t>(i)].id + " " + c.models[static_cast<size_t>(i)].name; },
      [&](int a, int b, int col) {
        const ModelPreset &x = c.models[static_cast<size_t>(a)], &y = c.models[static_cast<size_t>(b)];
        switch (col) {
          case 1: return x.published_params < y.published_params;
          case 2: return x.arch.layers < y.arch.layers;
          case 3: return x.arch.hidden < y.arch.hidden;
          case 4: return x.max_context < y.max_context;
          case 5: return x.as_of < y.as_of;
          case 6: return x.source < y.source;
          default: return x.name < y.name;
        }
      },
      [&](int i, int col) {
        const ModelPreset& m = c.models[static_cast<size_t>(i)];
        switch (col) {
          case 0:
            cell_text(m.name);
            item_tooltip(m.id.c_str());
            break;
          case 1: cell_text(format_count(m.published_params)); break;
          case 2: cell_text(std::to_string(m.arch.layers)); break;
          case 3: cell_text(std::to_string(m.arch.hidden)); break;
          case 4: cell_text(format_count(m.max_context)); break;
          case 5: cell_text(m.as_of); break;
          case 6: source_cell(m); break;
          default:
            ImGui::PushID(i);
            if (ImGui::SmallButton(tr(S::use))) {
              app.input["model"] = {{"preset", m.id}};
              changed = true;
            }
            ImGui::PopID();
        }
      },
      height);
  return changed;
}

bool edits_view(AppState& app) {
  bool changed = false;
  const json& e = app.catalog_edits;
  section_header(tr(S::your_edits));
  if (!app.edits_error.empty()) {
    const std::string msg = std::string(tr(S::edits_refused)) + " " + app.edits_error;
    text_wrapped(msg.c_str(), &palette::kError);
  }
  const bool none = !app.edited_catalog;
  if (none) text_wrapped_disabled(tr(S::no_edits));
  // One edit with its Remove button; true when it was removed (the list changed: stop drawing it).
  auto edit_line = [&](const char* text, const auto& erase) {
    const bool removed = small_button(tr(S::remove));
    if (removed) {
      json edits = e;
      erase(edits);
      changed |= apply_edits(app, edits);
    } else {
      ImGui::SameLine();
      text_wrapped(text);
    }
    ImGui::PopID();
    return removed;
  };
  if (e.contains("prices"))
    for (const auto& item : e["prices"].items()) {
      const std::string id = item.key();
      char line[256];
      std::snprintf(line, sizeof line, tr(S::edit_price_fmt), id.c_str(),
                    format_money(item.value().get<double>(), Currency::usd).c_str());
      ImGui::PushID(id.c_str());
      if (edit_line(line, [&](json& edits) { edits["prices"].erase(id); })) return changed;
    }
  if (e.contains("gpus"))
    for (size_t i = 0; i < e["gpus"].size(); ++i) {
      const json& g = e["gpus"][i];
      char line[256];
      std::snprintf(line, sizeof line, tr(S::edit_gpu_fmt), g.value("id", "").c_str(), g.value("name", "").c_str());
      ImGui::PushID(static_cast<int>(i));
      if (edit_line(line, [&](json& edits) { edits["gpus"].erase(i); })) return changed;
    }
  if (!none) {
    if (small_button(tr(S::export_edits), "export_edits"))
      platform_download("llmplan-catalog-edits.json", "application/json", app.catalog_edits.dump(2) + "\n");
    flow_same_line(button_width(tr(S::export_catalog), true));
    if (small_button(tr(S::export_catalog), "export_catalog"))
      platform_download("llmplan-catalog.json", "application/json", app.edited_catalog_json + "\n");
    flow_same_line(button_width(tr(S::clear_edits), true));
    if (small_button(tr(S::clear_edits), "clear_edits")) changed |= apply_edits(app, json::object());
  }

  section_header(tr(S::add_gpu));
  static int base = 0;
  static char id[48] = "my-gpu-96gb", name[96] = "My GPU 96GB";
  static double memory_gb = 96, bw = 4000, tflops = 1000;
  const Catalog& builtin = builtin_catalog();
  if (builtin.accelerators.empty()) return changed;
  base = std::clamp(base, 0, static_cast<int>(builtin.accelerators.size()) - 1);
  if (begin_form("add_gpu")) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    text_wrapped(tr(S::based_on));
    ImGui::TableSetColumnIndex(1);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##base", builtin.accelerators[static_cast<size_t>(base)].name.c_str())) {
      for (int i = 0; i < static_cast<int>(builtin.accelerators.size()); ++i) {
        const Accelerator& a = builtin.accelerators[static_cast<size_t>(i)];
        if (ImGui::Selectable(a.name.c_str(), i == base)) {
          base = i;
          memory_gb = a.memory_gb;
          bw = a.memory_bw_gb_per_s;
          tflops = a.half_dense_tflops();
        }
      }
      ImGui::EndCombo();
    }
    auto text_row = [](S label, char* buf, size_t n, const char* wid) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      label_text(tr(label));
      ImGui::TableSetColumnIndex(1);
      ImGui::SetNextItemWidth(-1.0f);
      ImGui::InputText(wid, buf, n);
      record_widget(wid + 2);
    };
    auto num_row = [](S label, double* v, const char* wid) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      label_text(tr(label));
      ImGui::TableSetColumnIndex(1);
      ImGui::SetNextItemWidth(-1.0f);
      ImGui::InputDouble(wid, v, 0, 0, "%g");
      record_widget(wid + 2);
    };
    text_row(S::gpu_id, id, sizeof id, "##gpu_id");
    text_row(S::gpu_name, name, sizeof name, "##gpu_name");
    num_row(S::col_memory, &memory_gb, "##gpu_memory");
    num_row(S::col_hbm, &bw, "##gpu_hbm");
    num_row(S::col_bf16, &tflops, "##gpu_bf16");
    end_form();
  }
  if (button(tr(S::add_gpu), "add_gpu")) {
    json edits = app.catalog_edits;
    if (!edits.contains("gpus")) edits["gpus"] = json::array();
    edits["gpus"].push_back({{"base", builtin.accelerators[static_cast<size_t>(base)].id},
                             {"id", id},
                             {"name", name},
                             {"memory_gb", memory_gb},
                             {"memory_bw_gb_per_s", bw},
                             {"bf16_dense_tflops", tflops}});
    changed |= apply_edits(app, edits);
  }
  return changed;
}

}  // namespace

void app_set_catalog_edits(AppState& app, const std::string& edits_json) {
  const json edits = edits_json.empty() ? json::object() : parse_json_untrusted(edits_json);
  apply_edits(app, edits);  // refuses anything but the edits' own shape (catalog_edits_shape_error)
  app_update(app);
}

bool draw_catalog(AppState& app) {
  bool changed = false;
  const float height = std::max(em() * 12, ImGui::GetContentRegionAvail().y - em() * 6);
  if (!ImGui::BeginTabBar("catalog_views")) return false;
  const bool open_accelerators = ImGui::BeginTabItem(tr(S::cat_accelerators));
  record_widget("cat_tab_accelerators");
  if (open_accelerators) {
    changed |= accelerators_view(app, height);
    ImGui::EndTabItem();
  }
  const bool open_instances = ImGui::BeginTabItem(tr(S::cat_instances));
  record_widget("cat_tab_instances");
  if (open_instances) {
    changed |= instances_view(app, height - em() * 3);
    ImGui::EndTabItem();
  }
  const bool open_providers = ImGui::BeginTabItem(tr(S::cat_providers));
  record_widget("cat_tab_providers");
  if (open_providers) {
    changed |= providers_view(app, height);
    ImGui::EndTabItem();
  }
  const bool open_models = ImGui::BeginTabItem(tr(S::cat_models));
  record_widget("cat_tab_models");
  if (open_models) {
    changed |= models_view(app, height);
    ImGui::EndTabItem();
  }
  const bool open_edits = ImGui::BeginTabItem(tr(S::edits_tab));
  record_widget("cat_tab_edits");
  if (open_edits) {
    changed |= edits_view(app);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
  return changed;
}

}  // namespace llmplan::web
