// app.cpp: app state, the top bar and the responsive two-column layout.
#include "app.hpp"

#include <algorithm>

#include "i18n.hpp"
#include "imgui.h"
#include "llmplan/catalog.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

// The first view: a full fine-tune of Llama 3 8B on one 8 x 80 GB node with ZeRO-3.
void default_scenario(AppState& app) {
  const Catalog& catalog = builtin_catalog();
  for (size_t i = 0; i < catalog.models.size(); ++i)
    if (catalog.models[i].id == "llama-3-8b") app.preset_index = static_cast<int>(i);
  const ModelPreset& p = catalog.models[static_cast<size_t>(app.preset_index)];
  Scenario& s = app.scenario;
  s.model_preset = p.id;
  s.model = p.arch;
  s.method = Method::full;
  s.seq_len = 4096;
  s.micro_batch = 1;
  s.cluster = {8, 8, 80.0};
  s.parallel.zero = 3;
}

bool top_bar() {
  bool changed = false;
  ImGui::PushFont(ImGui::GetIO().Fonts->Fonts[1]);
  ImGui::TextUnformatted("llmplan");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", tr(S::tagline));
  const char* toggle = tr(S::language_toggle);
  const float button_w = ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - button_w);
  if (ImGui::Button(toggle)) {
    set_language(language() == Lang::en ? Lang::zh : Lang::en);
    platform_save_language(language());
    changed = true;
  }
  ImGui::Separator();
  return changed;
}

}  // namespace

void app_init(AppState& app) {
  default_scenario(app);
  set_language(platform_initial_language());
  platform_save_language(language());
  app_update(app);
}

void app_update(AppState& app) {
  app.error = validate_scenario(app.scenario);
  if (!app.error.field.empty()) {
    app.result_is_stale = app.has_result;
    return;
  }
  const int max_context =
      app.preset_index >= 0 ? builtin_catalog().models[static_cast<size_t>(app.preset_index)].max_context : 0;
  app.result = estimate(app.scenario, max_context);
  app.has_result = true;
  app.result_is_stale = false;
}

bool app_draw(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("llmplan", nullptr, flags);
  bool changed = top_bar();
  // Two columns from 60 em (900 CSS px at the 15 px font); below that, one scrolling column.
  const bool wide = io.DisplaySize.x >= 60 * em();
  if (wide) {
    const float left_w = std::max(28 * em(), io.DisplaySize.x * 0.36f);
    ImGui::BeginChild("inputs", ImVec2(left_w, 0), false);
    changed |= draw_inputs(app);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results", ImVec2(0, 0), false);
    if (changed) app_update(app);
    draw_memory(app);
    ImGui::EndChild();
  } else {
    changed |= draw_inputs(app);
    if (changed) app_update(app);
    draw_memory(app);
  }
  ImGui::End();
  return changed;
}

}  // namespace llmplan::web
