// panel_measure.cpp: the "Paste your measurement" box. A pasted training or benchmark log is read
// by the core (llmplan/measure.hpp) into the scenario's calibration block; a log that gives
// nothing, or measurements the scenario refuses, changes nothing and says why, and the pasted
// text stays in the box.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app.hpp"
#include "i18n.hpp"
#include "llmplan/measure.hpp"
#include "palette.hpp"
#include "widgets.hpp"

namespace llmplan::web {

namespace {

// The log, shared by every box (the inputs section and the planner's checklist).
char g_log[256 * 1024];

const char* const kThroughputs[] = {"tokens_per_s_per_gpu", "step_s", "mfu"};

// The document with the log's block in place: a new throughput replaces the old one, a new peak
// its source, and `measured_on` (the plan the trial ran) replaces the trial's layout.
nlohmann::json with_block(const nlohmann::json& input, const nlohmann::json& block, const nlohmann::json* measured_on) {
  nlohmann::json doc = input;
  nlohmann::json& cal = doc["calibration"];
  if (!cal.is_object()) cal = nlohmann::json::object();
  for (const char* k : kThroughputs)
    if (block.contains(k))
      for (const char* old : kThroughputs) cal.erase(old);
  if (block.contains("peak_memory_gib")) cal.erase("peak_memory_from");
  for (const auto& [k, v] : block.items()) {
    if (k == "busbw_gb_per_s" && cal.contains(k))
      cal[k].update(v);
    else
      cal[k] = v;
  }
  if (measured_on) cal["measured_on"] = *measured_on;
  return doc;
}

std::string found_text(const LogParse& p) {
  std::string out;
  for (const LogFinding& f : p.found) {
    char line[256];
    std::snprintf(line, sizeof line, "%s%s %s = %.4g (%s)", out.empty() ? "" : "; ", f.format.c_str(),
                  f.field.substr(12).c_str(), f.value, f.how.c_str());
    out += line;
  }
  return out;
}

bool read_measurement(AppState& app, const nlohmann::json* measured_on) {
  const LogParse p = parse_log(g_log, app.has_result ? &app.scenario : nullptr);
  app.measure_error = !p.ok;
  if (!p.ok) {
    app.measure_status = p.error;
    return false;
  }
  const nlohmann::json block = nlohmann::json::parse(calibration_block(p).dump());
  const nlohmann::json doc = with_block(app.input, block, measured_on);
  const ScenarioParse check = parse_scenario(doc.dump(), app_catalog(app));
  char line[1024];
  if (!check.scenario) {
    std::snprintf(line, sizeof line, tr(S::log_refused), input_error_text(check.error).c_str());
    app.measure_status = line;
    app.measure_error = true;
    return false;
  }
  app.input = doc;
  std::snprintf(line, sizeof line, tr(S::log_read_ok), static_cast<int>(p.found.size()), found_text(p).c_str());
  app.measure_status = line;
  return true;
}

}  // namespace

bool draw_paste_box(AppState& app, const nlohmann::json* measured_on, const char* id) {
  ImGui::PushID(id);
  text_wrapped(tr(S::paste_measurement));
  item_tooltip(tr(S::t_paste_measurement));
  ImGui::InputTextMultiline("##log", g_log, sizeof g_log, ImVec2(-1.0f, em() * 6));
  record_widget((std::string(id) + "_log").c_str());
  const bool changed =
      button(tr(S::read_log), (std::string(id) + "_read").c_str()) && read_measurement(app, measured_on);
  if (!app.measure_status.empty())
    text_wrapped(app.measure_status.c_str(), app.measure_error ? &palette::kError : nullptr);
  ImGui::PopID();
  return changed;
}

}  // namespace llmplan::web
