// panel_tco.cpp: the "Own or rent" tab. The ownership question's form, what owning costs, what
// each way of renting the same GPUs costs, the cumulative cost chart with its break-even points,
// and every default taken from the catalog with its source. Core computes all of it (tco.hpp,
// the same tco_json as `llmplan tco` and window.llmplan.tco); this file only draws the answer.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/calibration.hpp"
#include "llmplan/json_path.hpp"
#include "llmplan/link.hpp"
#include "llmplan/tco.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "widgets.hpp"

namespace llmplan::web {

using nlohmann::json;

void tco_update(AppState& app) {
  TcoState& t = app.tco;
  const std::string text = t.question.dump();
  const TcoJsonResponse r = tco_json(text, app_catalog(app), default_calibration());
  t.error = r.error;
  if (r.ok) {
    t.answer = json::parse(r.body);
    const LinkEncode e = encode_link(text, app_catalog(app));
    if (e.ok) t.fragment = e.fragment;
  }
  t.dirty = false;
}

namespace {

bool cny(const TcoState& t) { return t.question.value("currency", "usd") == "cny"; }

// The question's money figures, each a field in either currency (docs/tco.md) and the form's row
// label for each.
constexpr struct {
  const char *usd, *cny;
  S usd_label, cny_label;
} kMoneyFields[] = {
    {"servers.price_usd", "servers.price_cny", S::tco_price_usd, S::tco_price_cny},
    {"power.usd_per_kwh", "power.cny_per_kwh", S::tco_kwh_usd, S::tco_kwh_cny},
    {"colocation_usd_per_kw_month", "colocation_cny_per_kw_month", S::tco_colocation, S::tco_colocation_cny},
    {"staff_usd_per_month", "staff_cny_per_month", S::tco_staff, S::tco_staff_cny}};

std::string money(const TcoState& t, const json& obj, const std::string& key) {
  const char* suffix = cny(t) ? "_cny" : "_usd";
  const json* v = json_at(obj, key + suffix);
  return v ? format_money(v->get<double>(), cny(t) ? Currency::cny : Currency::usd) : std::string("-");
}

std::string per_gpu_hour(const TcoState& t, const json& obj) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%.2f", cny(t) ? "¥" : "$",
                obj.value(cny(t) ? "cny_per_gpu_hour" : "usd_per_gpu_hour", 0.0));
  return buf;
}

// The value the answer used for `path` (the question as resolved, defaults filled in).
double resolved(const TcoState& t, const char* path, double fallback) {
  const json* q = json_at(t.answer, "question");
  const json* v = q ? json_at(*q, path) : nullptr;
  return v && v->is_number() ? v->get<double>() : fallback;
}

// A reset button for a field the user set; true when pressed (the default applies again).
bool reset_button(TcoState& t, const char* path) {
  if (!json_at(t.question, path)) return false;
  ImGui::TableSetColumnIndex(2);  // the form's third column, beside the value
  ImGui::PushID(path);
  const bool pressed = ImGui::SmallButton("\xC3\x97");  // the multiplication sign, as the inputs' reset
  record_widget((std::string("tco.reset.") + path).c_str());
  record_label_in_item("\xC3\x97");
  item_tooltip(tr(S::reset_tip));
  ImGui::PopID();
  if (pressed) json_erase(t.question, path);
  return pressed;
}

// One number of the question, shown as the answer used it (x `scale`: percent for fractions)
// and written back in the question's unit when edited.
bool number_row(TcoState& t, S label, const char* path, const char* resolved_path, double lo, double hi,
                const char* format, double scale = 1, double rate = 1) {
  double v = resolved(t, resolved_path, lo / scale) * scale * rate;
  bool changed = false;
  const std::string id = std::string("tco.") + path;
  if (form_double(tr(label), id.c_str(), &v, lo * rate, hi * rate, format, t.error)) {
    json_set(t.question, path, v / scale);  // `path` is in the currency shown: rate only converts the resolved USD
    changed = true;
  }
  return reset_button(t, path) || changed;
}

bool int_row(TcoState& t, S label, const char* path, int lo, int hi) {
  int v = static_cast<int>(resolved(t, path, lo));
  const std::string id = std::string("tco.") + path;
  bool changed = false;
  if (form_int(tr(label), id.c_str(), &v, lo, hi, t.error)) {
    json_set(t.question, path, v);
    changed = true;
  }
  return reset_button(t, path) || changed;
}

bool accelerator_row(AppState& app) {
  TcoState& t = app.tco;
  const Catalog& c = app_catalog(app);
  std::vector<const char*> names;
  int index = 0;
  const std::string current = t.question["servers"].value("accelerator", "");
  for (size_t i = 0; i < c.accelerators.size(); ++i) {
    names.push_back(c.accelerators[i].name.c_str());
    if (c.accelerators[i].id == current) index = static_cast<int>(i);
  }
  if (!form_combo(tr(S::tco_accelerator), "tco.servers.accelerator", &index, names.data(),
                  static_cast<int>(names.size()), t.error))
    return false;
  t.question["servers"]["accelerator"] = c.accelerators[static_cast<size_t>(index)].id;
  // A price or power of another server would not apply to this one.
  for (const char* k : {"price_usd", "price_cny", "power_kw", "gpus_per_server"}) t.question["servers"].erase(k);
  return true;
}

bool currency_row(TcoState& t) {
  const char* items[] = {tr(S::currency_usd), tr(S::currency_cny)};
  int index = cny(t) ? 1 : 0;
  if (!form_combo(tr(S::tco_currency), "tco.currency", &index, items, 2, t.error)) return false;
  t.question["currency"] = index == 1 ? "cny" : "usd";
  // What the user typed moves to the currency now shown, converted at the catalog's rate.
  const double rate = t.answer.value("usd_to_cny", 1.0);
  const auto move = [&](const char* from, const char* to, double factor) {
    if (const json* v = json_at(t.question, from)) {
      const double x = v->get<double>() * factor;
      json_erase(t.question, from);
      json_set(t.question, to, x);
    }
  };
  for (const auto& m : kMoneyFields) {
    if (index == 1) move(m.usd, m.cny, rate);
    if (index == 0) move(m.cny, m.usd, 1 / rate);
  }
  return true;
}

// GPU-hours: three significant digits below 1,000 (a small run spread over years is a fraction a month).
std::string hours_text(double h) {
  if (h >= 1000) return format_count(h);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", h);
  return buf;
}

// The workload as the answer reads it, and a button that takes the scenario's GPU-hours (spread
// over the horizon, as `workload.scenario` does) into the question, so the link carries them.
bool workload_lines(AppState& app) {
  TcoState& t = app.tco;
  char line[320];
  if (const json* o = json_at(t.answer, "own")) {
    std::snprintf(line, sizeof line, tr(S::tco_workload_fmt),
                  format_count((*o)["gpu_hours_per_month"].get<double>()).c_str(),
                  100 * (*o)["utilisation"].get<double>());
    text_wrapped_disabled(line);
  }
  if (!app.has_result || app.result_is_stale || app.result.reliability.gpu_hours <= 0) return false;
  const int horizon = static_cast<int>(resolved(t, "horizon_months", 60));
  const double per_month = app.result.reliability.gpu_hours / horizon;
  std::snprintf(line, sizeof line, tr(S::tco_use_scenario_fmt), hours_text(app.result.reliability.gpu_hours).c_str(),
                app.scenario.cluster.accelerator.c_str(), hours_text(per_month).c_str());
  text_wrapped_disabled(line);
  if (!small_button(tr(S::tco_use_scenario), "tco.use_scenario")) return false;
  t.question.erase("utilisation");
  t.question["workload"] = {{"gpu_hours_per_month", per_month}};
  t.question["servers"]["accelerator"] = app.scenario.cluster.accelerator;
  return true;
}

bool draw_form(AppState& app) {
  TcoState& t = app.tco;
  const double rate = t.answer.value("usd_to_cny", 1.0);
  const bool c = cny(t);
  bool changed = false;
  // The form's rows: label | value | the reset button of a field the user set.
  if (!ImGui::BeginTable("tco_form", 3, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("reset", ImGuiTableColumnFlags_WidthFixed, button_width("\xC3\x97", true));
  changed |= accelerator_row(app);
  changed |= int_row(t, S::tco_count, "servers.count", 1, 100000);
  changed |= int_row(t, S::tco_gpus_per_server, "servers.gpus_per_server", 1, 64);
  changed |= currency_row(t);
  if (c) {
    changed |= number_row(t, S::tco_price_cny, "servers.price_cny", "servers.price_usd", 1, 1e9, "%.0f", 1, rate);
  } else {
    changed |= number_row(t, S::tco_price_usd, "servers.price_usd", "servers.price_usd", 1, 1e8, "%.0f");
  }
  // Utilisation, unless a workload sets it (the reset button goes back to the utilisation).
  if (!t.question.contains("workload")) {
    changed |= number_row(t, S::tco_utilisation, "utilisation", "utilisation", 0.01, 1, "%.0f %%", 100);
  } else {
    form_text(tr(S::tco_utilisation), tr(S::tco_from_workload));
    changed |= reset_button(t, "workload");
  }
  changed |= int_row(t, S::tco_horizon, "horizon_months", 1, kMaxHorizonMonths);
  changed |= number_row(t, S::tco_depreciation, "depreciation_years", "depreciation_years", 1, 15, "%.1f");
  changed |= number_row(t, S::tco_residual, "residual_fraction", "residual_fraction", 0, 0.95, "%.0f %%", 100);
  changed |= number_row(t, S::tco_network, "servers.network_share", "servers.network_share", 0, 2, "%.1f %%", 100);
  // No sourced default: 0 % until given (the answer's notice says storage is left out).
  changed |= number_row(t, S::tco_storage, "servers.storage_share", "servers.storage_share", 0, 2, "%.1f %%", 100);
  if (c) {
    changed |= number_row(t, S::tco_kwh_cny, "power.cny_per_kwh", "power.usd_per_kwh", 0, 70, "%.3f", 1, rate);
  } else {
    changed |= number_row(t, S::tco_kwh_usd, "power.usd_per_kwh", "power.usd_per_kwh", 0, 10, "%.4f");
  }
  changed |= number_row(t, S::tco_pue, "power.pue", "power.pue", 1, 3, "%.2f");
  if (c) {  // the core's yuan ranges (0-35,000 and 0-1e9 CNY), shown in yuan
    changed |= number_row(t, S::tco_colocation_cny, "colocation_cny_per_kw_month", "colocation_usd_per_kw_month", 0,
                          35000 / rate, "%.0f", 1, rate);
    changed |=
        number_row(t, S::tco_staff_cny, "staff_cny_per_month", "staff_usd_per_month", 0, 1e9 / rate, "%.0f", 1, rate);
  } else {
    changed |=
        number_row(t, S::tco_colocation, "colocation_usd_per_kw_month", "colocation_usd_per_kw_month", 0, 5000, "%.2f");
    changed |= number_row(t, S::tco_staff, "staff_usd_per_month", "staff_usd_per_month", 0, 1e8, "%.0f");
  }
  changed |= number_row(t, S::tco_lead_time, "lead_time_days", "lead_time_days", 0, 730, "%.0f");
  ImGui::EndTable();
  changed |= workload_lines(app);
  return changed;
}

constexpr ImU32 kModeColors[] = {palette::kSeriesOrange, palette::kSeriesPurple, palette::kSeriesGreen,
                                 palette::kSeriesTeal};

ImU32 mode_color(const std::string& mode) {
  static const char* modes[] = {"on_demand", "reserved_1yr", "reserved_3yr", "spot"};
  for (int i = 0; i < 4; ++i)
    if (mode == modes[i]) return kModeColors[i];
  return palette::kSeriesGrey;
}

void draw_own(const TcoState& t) {
  const json& o = t.answer["own"];
  const json& b = o["monthly_breakdown"];
  char line[512];
  std::snprintf(line, sizeof line, tr(S::tco_own_fmt), o["gpus"].get<int>(), 100 * o["utilisation"].get<double>(),
                money(t, o, "capex").c_str(), money(t, o, "monthly").c_str(), per_gpu_hour(t, o).c_str());
  text_wrapped(line);
  std::snprintf(line, sizeof line, tr(S::tco_breakdown_fmt), money(t, b, "depreciation").c_str(),
                money(t, b, "power").c_str(), money(t, b, "colocation").c_str(), money(t, b, "staff").c_str(),
                o["delivery_months"].get<double>());
  text_wrapped_disabled(line);
}

void draw_rent_table(const TcoState& t) {
  const json& rent = t.answer["rent"];
  if (rent.empty()) {
    text_wrapped_disabled(tr(S::tco_no_rent));
    return;
  }
  if (!ImGui::BeginTable("tco_rent", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (S col :
       {S::tco_col_mode, S::tco_col_offering, S::tco_col_per_hour, S::tco_col_month, S::tco_col_be_u, S::tco_col_be_m})
    ImGui::TableSetupColumn(tr(col));
  ImGui::TableHeadersRow();
  for (const json& r : rent) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string mode = r["mode"].get<std::string>();
    text_colored(ImGui::ColorConvertU32ToFloat4(mode_color(mode)), pricing_mode_name(mode));
    ImGui::TableNextColumn();
    text(r["instance"].is_null() ? tr(S::tco_your_quote) : r["instance"].get<std::string>().c_str());
    ImGui::TableNextColumn();
    text(per_gpu_hour(t, r).c_str());
    ImGui::TableNextColumn();
    const std::string month = money(t, r, "monthly") + (r["billing"] == "committed" ? " *" : "");
    text(month.c_str());
    ImGui::TableNextColumn();
    char buf[32] = "-";
    const json& be = r["break_even"];
    if (!be["utilisation"].is_null()) std::snprintf(buf, sizeof buf, "%.0f %%", 100 * be["utilisation"].get<double>());
    text(buf);
    ImGui::TableNextColumn();
    if (be["months"].is_null())
      std::snprintf(buf, sizeof buf, "%s", tr(S::tco_never));
    else
      std::snprintf(buf, sizeof buf, tr(S::tco_months_fmt), be["months"].get<double>());
    text(buf);
  }
  ImGui::EndTable();
  text_wrapped_disabled(tr(S::tco_committed_note));
  text_wrapped_disabled(tr(S::tco_cheapest_note));
}

// Cumulative cost by month: owning (capex at the order, the lead time bridged on demand) and each
// way of renting, with the months where owning breaks even marked on its line.
void draw_chart(const TcoState& t) {
  const json& series = t.answer["series"];
  const json& rent = t.answer["rent"];
  if (series.size() < 2) return;
  const char* suffix = cny(t) ? "_cny" : "_usd";
  double top = 0;
  const std::string sfx = suffix;
  for (const json& row : series)
    for (const auto& item : row.items())
      if (item.key().size() > 4 && item.key().compare(item.key().size() - 4, 4, sfx) == 0)
        top = std::max(top, item.value().get<double>());
  top *= 1.08;
  const double months = static_cast<double>(series.size() - 1);
  text_disabled(tr(S::tco_chart_title));
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = std::max(12 * em(), std::min(20 * em(), w * 0.45f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("tco_chart", ImVec2(w, h));
  record_widget("tco.chart");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = 6.5f * em(), bottom = 2.2f * em();
  const ImVec2 a(origin.x + left, origin.y + 0.5f * em()), b(origin.x + w - 0.8f * em(), origin.y + h - bottom);
  dl->AddRectFilled(a, b, palette::kPlotBg);
  auto xof = [&](double m) { return a.x + static_cast<float>(m / months) * (b.x - a.x); };
  auto yof = [&](double v) { return b.y - static_cast<float>(v / top) * (b.y - a.y); };
  const Currency cur = cny(t) ? Currency::cny : Currency::usd;
  const double ystep = std::pow(10, std::floor(std::log10(top / 4)));
  const double step = top / ystep > 20 ? ystep * 5 : top / ystep > 8 ? ystep * 2 : ystep;
  for (double v = 0; v <= top; v += step) {
    dl->AddLine(ImVec2(a.x, yof(v)), ImVec2(b.x, yof(v)), palette::kGrid);
    const std::string s = format_money(v, cur);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    dl->AddText(ImVec2(a.x - ts.x - 0.4f * em(), yof(v) - ts.y / 2), palette::kAxisLabel, s.c_str());
  }
  const int mstep = months > 60 ? 24 : months > 24 ? 12 : months > 8 ? 3 : 1;
  for (int m = 0; m <= static_cast<int>(months); m += mstep) {
    dl->AddLine(ImVec2(xof(m), a.y), ImVec2(xof(m), b.y), palette::kGrid);
    const std::string s = std::to_string(m);
    dl->AddText(ImVec2(xof(m) - ImGui::CalcTextSize(s.c_str()).x / 2, b.y + 0.2f * em()), palette::kAxisLabel,
                s.c_str());
  }
  const char* xl = tr(S::tco_axis_months);
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(xl).x, b.y + 1.15f * em()), palette::kAxisLabel, xl);
  auto line = [&](const std::string& key, ImU32 color, float thickness) {
    for (size_t m = 1; m < series.size(); ++m)
      dl->AddLine(ImVec2(xof(static_cast<double>(m - 1)), yof(series[m - 1][key].get<double>())),
                  ImVec2(xof(static_cast<double>(m)), yof(series[m][key].get<double>())), color, thickness);
  };
  for (const json& r : rent) line(r["mode"].get<std::string>() + suffix, mode_color(r["mode"].get<std::string>()), 2);
  line(std::string("own") + suffix, palette::kSeriesBlue, 3);
  // Break-even: where owning's cumulative line meets each renting line within the horizon.
  for (const json& r : rent) {
    const json& m = r["break_even"]["months"];
    if (m.is_null() || m.get<double>() > months) continue;
    const double x = m.get<double>();
    const size_t lo = static_cast<size_t>(std::floor(x)), hi = std::min(lo + 1, series.size() - 1);
    const double f = x - static_cast<double>(lo);
    const std::string k = std::string("own") + suffix;
    const double y = series[lo][k].get<double>() * (1 - f) + series[hi][k].get<double>() * f;
    dl->AddCircle(ImVec2(xof(x), yof(y)), 0.45f * em(), palette::kSelection, 16, 2.0f);
  }
  // Legend.
  float x = a.x + 0.5f * em();
  auto legend = [&](const char* name, ImU32 color) {
    dl->AddRectFilled(ImVec2(x, a.y + 0.45f * em()), ImVec2(x + 0.8f * em(), a.y + 1.05f * em()), color);
    dl->AddText(ImVec2(x + 1.1f * em(), a.y + 0.2f * em()), palette::kDiagramText, name);
    x += 1.1f * em() + ImGui::CalcTextSize(name).x + 1.2f * em();
  };
  legend(tr(S::tco_own_line), palette::kSeriesBlue);
  for (const json& r : rent)
    legend(pricing_mode_name(r["mode"].get<std::string>()), mode_color(r["mode"].get<std::string>()));
  text_wrapped_disabled(tr(S::tco_chart_note));
}

void draw_assumptions(const TcoState& t) {
  if (!ImGui::TreeNode("tco_assumptions", "%s", tr(S::tco_assumptions))) return;
  for (const json& a : t.answer["assumptions"]) {
    char line[768];
    std::snprintf(line, sizeof line, "%s = %g %s (%s): %s", a["field"].get<std::string>().c_str(),
                  a["value"].get<double>(), a["unit"].get<std::string>().c_str(), a["as_of"].get<std::string>().c_str(),
                  a["source"].get<std::string>().c_str());
    text_wrapped_disabled(line);
  }
  ImGui::TreePop();
}

}  // namespace

namespace {
// A notice's field as the form labels its row (in the currency shown); the field name otherwise.
const char* notice_field(const TcoState& t, const std::string& field) {
  for (const auto& m : kMoneyFields)
    if (field == m.usd || field == m.cny) return tr(cny(t) ? m.cny_label : m.usd_label);
  if (field == "servers.storage_share") return tr(S::tco_storage);
  if (field == "servers.network_share") return tr(S::tco_network);
  return field.c_str();
}

void draw_answer(const TcoState& t) {
  if (!t.answer.is_object() || !t.answer.contains("own")) return;
  section_header(tr(S::tco_own_title));
  draw_own(t);
  section_header(tr(S::tco_rent_title));
  draw_rent_table(t);
  draw_chart(t);
  for (const json& n : t.answer["notices"]) {
    char line[256];
    std::snprintf(line, sizeof line, tr(n["code"] == "left_out" ? S::tco_left_out_fmt : S::tco_us_figure_fmt),
                  notice_field(t, n["field"].get<std::string>()));
    text_wrapped(line, &palette::kNotice);
  }
  draw_assumptions(t);
}

// Until the user edits the question, it asks in the scenario's currency and, where the catalog
// prices a server of them, about the scenario's accelerator (a yuan Ascend 910B scenario opens on
// Atlas 800T A2 servers priced in yuan; an L40S one stays on the default GPU, which has a price).
void follow_scenario(AppState& app) {
  TcoState& t = app.tco;
  if (t.edited || !app.has_result) return;
  const std::string& scenario_gpu = app.scenario.cluster.accelerator;
  const std::string accelerator =
      catalog_server(app_catalog(app), scenario_gpu, 0) ? scenario_gpu : t.question["servers"].value("accelerator", "");
  const char* currency = app.scenario.pricing.currency == Currency::cny ? "cny" : "usd";
  if (t.question["servers"].value("accelerator", "") == accelerator && t.question.value("currency", "usd") == currency)
    return;
  t.question["servers"]["accelerator"] = accelerator;
  t.question["currency"] = currency;
  t.dirty = true;
}
}  // namespace

bool draw_tco(AppState& app) {
  TcoState& t = app.tco;
  follow_scenario(app);
  if (t.dirty) tco_update(app);
  text_wrapped_disabled(tr(S::tco_intro));
  bool changed = false;
  // Side by side where the form and the table both fit; else the form, then the answer.
  const bool wide = ImGui::GetContentRegionAvail().x > 75 * em();
  if (wide && ImGui::BeginTable("tco_layout", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("form", ImGuiTableColumnFlags_WidthStretch, 0.8f);
    ImGui::TableSetupColumn("answer", ImGuiTableColumnFlags_WidthStretch, 1.7f);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    changed = draw_form(app);
    if (!t.error.field.empty()) text_wrapped(input_error_text(t.error).c_str(), &palette::kError);
    ImGui::TableNextColumn();
    draw_answer(t);
    ImGui::EndTable();
  } else {
    changed = draw_form(app);
    if (!t.error.field.empty()) text_wrapped(input_error_text(t.error).c_str(), &palette::kError);
    draw_answer(t);
  }
  if (changed) {
    t.edited = true;
    tco_update(app);
  }
  return changed;
}

}  // namespace llmplan::web
