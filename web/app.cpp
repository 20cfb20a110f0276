// app.cpp: app state, the top bar and the responsive two-column layout.
#include "app.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>
#include "i18n.hpp"

#include "imgui.h"
#include "llmplan/catalog.hpp"
#include "llmplan/fields.hpp"
#include "llmplan/import.hpp"
#include "llmplan/link.hpp"
#include "llmplan/report.hpp"
#include "llmplan/units.hpp"
#include "palette.hpp"
#include "platform.hpp"
#include "widgets.hpp"

namespace llmplan::web {
namespace {

// Points the input at preset `id` of the catalog in use, or its first model when absent.
void select_preset(AppState& app, const std::string& id) {
  const Catalog& catalog = app_catalog(app);
  if (catalog.models.empty()) return;  // keep the model as it is
  const ModelPreset* p = catalog.find_model(id);
  app.input["model"] = {{"preset", p ? p->id : catalog.models.front().id}};
}

// The first view (the core's, which index.html's static summary shows too).
void default_scenario(AppState& app) { app.input = nlohmann::json::parse(first_view_scenario_json()); }

void catalog_bar(AppState& app) {
  const Catalog& c = app_catalog(app);
  char line[256];
  std::snprintf(line, sizeof line, "%s %s (%s %s)%s%s", tr(S::catalog), c.catalog_version.c_str(), tr(S::as_of),
                c.as_of.c_str(), app.user_catalog ? " - " : "", app.user_catalog ? app.user_catalog_name.c_str() : "");
  ImGui::AlignTextToFramePadding();
  text_wrapped_disabled(line);
  if (!app.user_catalog && app.edited_catalog) {
    flow_same_line(ImGui::CalcTextSize(tr(S::catalog_with_edits)).x);
    text_colored(palette::kNotice, tr(S::catalog_with_edits));
  }
  flow_same_line(button_width(tr(S::load_catalog), true));
  if (small_button(tr(S::load_catalog), "load_catalog")) platform_pick_catalog_file();
  if (app.user_catalog) {
    flow_same_line(button_width(tr(S::use_builtin_catalog), true));
    if (small_button(tr(S::use_builtin_catalog), "use_builtin")) app_use_builtin_catalog(app);
  }
  flow_same_line(button_width(tr(S::import_config), true));
  if (small_button(tr(S::import_config), "import_config")) platform_pick_config_file();
  flow_same_line(button_width(tr(S::copy_link), true));
  const std::string& fragment = app.tco.active       ? app.tco.fragment
                                : app.planner.active ? app.planner.fragment
                                                     : app.fragment;
  if (small_button(tr(S::copy_link), "copy_link")) {
    platform_copy_link(fragment, false);
    app.copied = true;
  }
  flow_same_line(button_width(tr(S::copy_embed), true));
  if (small_button(tr(S::copy_embed), "copy_embed")) {
    platform_copy_link(fragment, true);
    app.copied = true;
  }
  if (app.copied) {
    flow_same_line(ImGui::CalcTextSize(tr(S::copied)).x);
    text_disabled(tr(S::copied));
  }
  if (!app.catalog_error.empty()) {
    text_wrapped(app.catalog_error.c_str(), &palette::kError);
  }
}

// A bullet and its text, wrapped at the window's edge with a hanging indent (ImGui's BulletText
// does not wrap).
void bullet_wrapped(const char* s) {
  ImGui::Bullet();  // leaves the cursor on the same line, after the bullet
  text_wrapped(s);
}

// "Figures changed since this link was made (estimator model 1 → 2)": one line, which opens the
// list of the estimator's changes since the link's model (model_version.hpp). The lines are core
// data in English; their characters are ASCII, Latin-1 and the dash of S::link_model_changes_tip,
// which the font subset keeps.
void model_changes_note(const AppState& app) {
  char line[160];
  std::snprintf(line, sizeof line, tr(S::link_model_changes), app.link_model_version, kModelVersion);
  const std::string wrapped =
      wrap_text(line, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());  // phones
  const char* note = wrapped.c_str();
  ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
  const bool open = ImGui::TreeNode("link_model_changes", "%s", note);
  ImGui::PopStyleColor();
  record_widget("link_model_changes");
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 size = ImGui::CalcTextSize(note);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  text_rects().push_back({note, a.x + ImGui::GetTreeNodeToLabelSpacing(), a.y + (b.y - a.y - size.y) / 2, size.x,
                          size.y, dl->GetClipRectMin().x, dl->GetClipRectMax().x, dl->GetClipRectMin().y,
                          dl->GetClipRectMax().y});
  if (!open) return;
  text_wrapped_disabled(tr(S::link_model_changes_tip));
  for (const std::string& c : app.link_model_changes) bullet_wrapped(c.c_str());
  ImGui::TreePop();
}

// What opening the link reported: fields that fell back to their defaults, what changed in the
// catalog since the link was made (it opened with its own release), and whether the estimator
// changed since.
void link_report(AppState& app) {
  if (!app.import_format.empty() || !app.import_notices.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    if (!app.import_format.empty()) {
      char line[160];
      std::snprintf(line, sizeof line, tr(S::import_done_fmt), app.import_format.c_str());
      text_colored(palette::kOk, line);
    }
    if (!app.import_notices.empty() &&
        ImGui::TreeNode("import_notices", tr(S::import_not_fmt), static_cast<int>(app.import_notices.size()))) {
      for (const auto& n : app.import_notices) {
        const std::string line = n.field + ": " + n.message;
        bullet_wrapped(line.c_str());
      }
      ImGui::TreePop();
    }
    ImGui::PopTextWrapPos();
    if (ImGui::SmallButton(tr(S::dismiss))) {
      app.import_notices.clear();
      app.import_format.clear();
    }
  }
  if (app.link_notices.empty() && app.link_changes.empty() && app.link_model_changes.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, palette::kNotice);
  ImGui::PushTextWrapPos(0.0f);
  for (const LinkNotice& n : app.link_notices)
    ImGui::Text("%s %s%s%s", tr(S::link_notice), n.field.c_str(), tr(S::label_sep), link_notice_text(n).c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  if (!app.link_changes.empty()) {
    char title[160];
    std::snprintf(title, sizeof title, tr(S::link_changes), app_catalog(app).catalog_version.c_str(),
                  builtin_catalog().catalog_version.c_str(), static_cast<int>(app.link_changes.size()));
    if (ImGui::TreeNode("link_changes", "%s", title)) {
      for (const std::string& c : app.link_changes) bullet_wrapped(c.c_str());
      ImGui::TreePop();
    }
  }
  if (!app.link_model_changes.empty()) model_changes_note(app);
  if (ImGui::SmallButton(tr(S::dismiss))) {
    app.link_notices.clear();
    app.link_changes.clear();
    app.link_model_changes.clear();
  }
  ImGui::Separator();
}

// The result views, one tab each. Each view is one draw_* function in its own panel file; it
// returns true when it changed the app's state (or needs more frames, e.g. a running search).
bool draw_views(AppState& app) {
  bool changed = false;
  if (!ImGui::BeginTabBar("views")) return false;
  const bool results =
      ImGui::BeginTabItem(tr(S::view_results), nullptr, app.select_results ? ImGuiTabItemFlags_SetSelected : 0);
  record_widget("tab_results");
  app.select_results = false;
  if (results) {
    changed |= draw_results(app);
    ImGui::EndTabItem();
  }
  const bool catalog = ImGui::BeginTabItem(tr(S::view_catalog));
  record_widget("tab_catalog");
  if (catalog) {
    changed |= draw_catalog(app);
    ImGui::EndTabItem();
  }
  {
    PlannerState& p = app.planner;
    const bool open = ImGui::BeginTabItem(tr(S::view_planner), nullptr, p.select ? ImGuiTabItemFlags_SetSelected : 0);
    record_widget("tab_planner");
    p.select = false;
    const bool was_active = p.active;
    p.active = open;
    if (open) {
      changed |= draw_planner(app);
      ImGui::EndTabItem();
    }
    // The page's link follows the open tab: the planner question's, or the scenario's.
    if (open && planner_fragment(app) != p.written) {
      p.written = p.fragment;
      platform_write_hash(p.written);
    }
    if (!open && was_active) {
      p.written.clear();
      if (!app.fragment.empty()) platform_write_hash(app.fragment);
    }
  }
  {
    const bool open = ImGui::BeginTabItem(tr(S::view_design));
    record_widget("tab_design");
    if (open) {
      changed |= draw_design(app);
      ImGui::EndTabItem();
    }
  }
  {
    const bool open = ImGui::BeginTabItem(tr(S::view_topology));
    record_widget("tab_topology");
    if (open) {
      changed |= draw_topology(app);
      ImGui::EndTabItem();
    }
  }
  {
    const bool open = ImGui::BeginTabItem(tr(S::view_tco), nullptr, app.tco.select ? ImGuiTabItemFlags_SetSelected : 0);
    record_widget("tab_tco");
    app.tco.select = false;
    const bool was_active = app.tco.active;
    app.tco.active = open;
    if (open) {
      changed |= draw_tco(app);
      ImGui::EndTabItem();
    }
    // The page's link follows the open tab: the ownership question's, or the scenario's.
    if (open && (!was_active || changed) && !app.tco.fragment.empty()) platform_write_hash(app.tco.fragment);
    if (!open && was_active && !app.fragment.empty()) platform_write_hash(app.fragment);
  }
  // [views: add further tabs above this line]
  ImGui::EndTabBar();
  return changed;
}

bool top_bar() {
  bool changed = false;
  ImGui::PushFont(ImGui::GetIO().Fonts->Fonts[1]);
  text("llmplan");
  ImGui::PopFont();
  const char* toggle = tr(S::language_toggle);
  const float button_w = ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2;
  const float right = ImGui::GetWindowContentRegionMax().x - button_w;
  ImGui::SameLine();
  // The tagline only where it fits beside the language button (narrow windows drop it).
  if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(tr(S::tagline)).x + em() < right) {
    ImGui::AlignTextToFramePadding();
    text_disabled(tr(S::tagline));
    ImGui::SameLine();
  }
  ImGui::SetCursorPosX(right);
  if (button(toggle, "language")) {
    set_language(language() == Lang::en ? Lang::zh : Lang::en);
    platform_save_language(language());
    changed = true;
  }
  ImGui::Separator();
  return changed;
}

}  // namespace

const Catalog& app_catalog(const AppState& app) {
  return app.user_catalog ? *app.user_catalog : app.edited_catalog ? *app.edited_catalog : builtin_catalog();
}

AppState& app_state() {
  static AppState app;
  return app;
}

void app_load_catalog(AppState& app, const std::string& name, const std::string& text) {
  CatalogLoad load = load_catalog(text);
  if (!load.catalog) {
    const size_t more = load.diagnostics.size() - 1;
    char tail[64] = "";
    if (more > 0) std::snprintf(tail, sizeof tail, tr(S::more_problems), static_cast<int>(more));
    app.catalog_error = std::string(tr(S::catalog_refused)) + " " + name + ": " + load.diagnostics.front() + tail;
    return;
  }
  const std::string preset = app.scenario.model_preset;
  app.user_catalog = std::move(load.catalog);
  app.user_catalog_name = name;
  app.catalog_error.clear();
  if (!preset.empty()) select_preset(app, preset);
  app_update(app);
}

void app_use_builtin_catalog(AppState& app) {
  const std::string preset = app.scenario.model_preset;
  app.user_catalog.reset();
  app.user_catalog_name.clear();
  app.catalog_error.clear();
  if (!preset.empty()) select_preset(app, preset);
  app_update(app);
}

void app_init(AppState& app) {
  default_scenario(app);
  app_set_catalog_edits(app, platform_load_setting("llmplan.catalogEdits"));
  set_language(platform_initial_language());
  platform_save_language(language());
  app_update(app);
  platform_install_hash_listener();
  platform_open_initial_hash();
}

namespace {

// Uses `release` as the app's catalog (it shows in the catalog bar, with "use built-in").
void use_release(AppState& app, const AppState::Release& release) {
  app.user_catalog = release.catalog;
  app.user_catalog_name = "release " + release.catalog.catalog_version + " (the link's)";
  app.catalog_error.clear();
}

}  // namespace

void app_open_link(AppState& app, const std::string& link) {
  if (link.empty() || link == "#") {  // no link: the first view, whose link is then written
    app_update(app);
    return;
  }
  const std::string version = link_catalog_version(link);
  // The built-in catalog with the user's own edits (custom GPUs, prices) when there are any.
  const Catalog& current = app.edited_catalog ? *app.edited_catalog : builtin_catalog();
  const std::string_view current_json =
      app.edited_catalog ? std::string_view(app.edited_catalog_json) : builtin_catalog_json();
  const auto found = app.releases.find(version);
  const AppState::Release* release = found != app.releases.end() ? &found->second : nullptr;
  // A link opened since an older one asked for its catalog release supersedes it: the release,
  // arriving late on a slow connection, must not re-open the link the user has left.
  if (app.pending_link != link) app.pending_link.clear();
  if (!version.empty() && version != current.catalog_version && !release && app.pending_link != link) {
    app.pending_link = link;  // open now with the built-in catalog, again when the release arrives
    platform_fetch_release(version);
  }
  OpenedLink opened = open_link(link, current, current_json, release ? &release->catalog : nullptr,
                                release ? std::string_view(release->json) : std::string_view());
  if (release) {
    use_release(app, *release);
  } else {
    app.user_catalog.reset();
    app.user_catalog_name.clear();
  }
  std::string input = opened.link.input_json;
  if (opened.link.is_tco) {  // the ownership question opens its tab; the scenario stays as it is
    app.tco.question = parse_json_untrusted(input);
    app.tco.edited = true;
    app.tco.dirty = true;
    app.tco.select = true;
    app.link_notices = std::move(opened.link.notices);
    app.link_changes.clear();
    app.link_model_changes.clear();
    return;
  }
  if (opened.link.is_question) {  // the planner opens on the question and runs it; the scenario is its rest
    const QuestionParse q = parse_question(input, app_catalog(app));
    if (q.question) {
      form_from_question(app.planner, *q.question);
      app.planner.select = true;
      app.planner.run_on_open = true;
      input = q.scenario_json;
    } else {  // a question the link repair could not mend: its scenario alone
      nlohmann::json doc = parse_json_untrusted(input);
      if (doc.is_object()) {
        for (const std::string& k : question_keys()) doc.erase(k);
        input = doc.dump();
      }
      opened.link.notices.push_back(
          {"objective", "a planner question: its scenario is shown; the planner itself runs in `llmplan plan`",
           "question_scenario_only"});
    }
  }
  app.link_notices = std::move(opened.link.notices);
  app.link_changes = std::move(opened.changes);
  app.link_model_version = opened.link.model_version;
  app.link_model_changes = std::move(opened.link.model_changes);
  nlohmann::json doc = parse_json_untrusted(input);
  if (doc.is_object()) app.input = std::move(doc);
  app_update(app);
}

namespace {
// `patch` over `doc`, objects merged key by key; a patch's model replaces the model whole (a
// config.json's architecture must not inherit the preset it replaces).
void merge_into(nlohmann::json& doc, const nlohmann::json& patch, bool top) {
  for (const auto& item : patch.items()) {
    const std::string& k = item.key();
    if (item.value().is_object() && doc.contains(k) && doc[k].is_object() && !(top && k == "model"))
      merge_into(doc[k], item.value(), false);
    else
      doc[k] = item.value();
  }
}
}  // namespace

std::string app_import(AppState& app, const std::string& text) {
  const std::string answer = import_config(text, app_catalog(app));
  const nlohmann::json r = parse_json_untrusted(answer);
  app.import_notices.clear();
  app.import_format.clear();
  if (!r.is_object()) return answer;
  if (r.contains("error")) {
    app.import_notices.push_back({r["error"].value("field", ""), r["error"].value("message", "")});
    return answer;
  }
  static const std::pair<const char*, const char*> kFormats[] = {
      {"hf_config", "Hugging Face config.json"}, {"deepspeed", "DeepSpeed"}, {"accelerate", "accelerate"},
      {"llamafactory", "LLaMA-Factory"},         {"axolotl", "axolotl"},     {"torchrun", "torchrun"},
      {"deepspeed_cli", "deepspeed launcher"}};
  app.import_format = r.value("format", "");
  for (const auto& [id, name] : kFormats)
    if (app.import_format == id) app.import_format = name;
  // A torchrun command that runs Megatron-LM's script is read with Megatron-LM's flags: say so.
  if (app.import_format == "torchrun" && r["scenario"].value("framework", "") == "megatron")
    app.import_format = "Megatron-LM (torchrun)";
  for (const char* list : {"unsupported", "ignored"})
    for (const auto& k : r.value(list, nlohmann::json::array()))
      app.import_notices.push_back({k.value("key", ""), k.value("reason", "")});
  for (const auto& k : r.value("unknown", nlohmann::json::array()))
    app.import_notices.push_back({k.is_string() ? k.get<std::string>() : k.dump(), tr(S::import_unknown)});
  merge_into(app.input, r["scenario"], true);
  app_update(app);
  return answer;
}

void app_load_release(AppState& app, const std::string& text) {
  CatalogLoad load = load_catalog(text);
  if (!load.catalog) {
    app.link_notices.push_back({"c",
                                "the catalog release of this link is damaged: " + load.diagnostics.front(),
                                "catalog_damaged",
                                {{"reason", load.diagnostics.front()}}});
    return;
  }
  const std::string version = load.catalog->catalog_version;
  app.releases[version] = AppState::Release{std::move(*load.catalog), text};
  if (!app.pending_link.empty() && link_catalog_version(app.pending_link) == version)
    app_open_link(app, app.pending_link);
}

void app_release_missing(AppState& app, const std::string& version) {
  const std::string used = builtin_catalog().catalog_version;
  app.link_notices.push_back({"c",
                              "catalog release " + version +
                                  " could not be loaded (offline and not cached?): the numbers use catalog " + used +
                                  " instead",
                              "catalog_release_missing",
                              {{"version", version}, {"used", used}}});
}

namespace {

// Estimates the input `text` into the app's result, explanations, advice and link; false, with
// the parser's error, when it does not parse.
bool estimate_input(AppState& app, const std::string& text, InputError& error) {
  const Catalog& catalog = app_catalog(app);
  ScenarioParse parse = parse_scenario(text, catalog);
  if (!parse.scenario) {
    error = std::move(parse.error);
    return false;
  }
  app.scenario = std::move(*parse.scenario);
  app.preset_index = -1;
  for (size_t i = 0; i < catalog.models.size(); ++i)
    if (catalog.models[i].id == app.scenario.model_preset) app.preset_index = static_cast<int>(i);
  app.explainer = Explainer{};
  app.result = estimate(app.scenario, default_calibration(), &app.explainer);
  app.ranges = figure_ranges(app.scenario, app.result, builtin_residuals(), &app.explainer);
  app.explain_index.clear();
  for (size_t i = 0; i < app.explainer.items().size(); ++i) app.explain_index[app.explainer.items()[i].key] = i;
  app.advice = advise(app.scenario, app.result, catalog, default_calibration());
  app.trial = trial_report(app.scenario, catalog, default_calibration());
  app.has_result = true;
  app.estimated_input = text;
  const LinkEncode link = encode_link(text, catalog);
  if (link.ok && link.fragment != app.fragment) {
    app.fragment = link.fragment;
    app.copied = false;
    // The open ownership or planner tab keeps its own link.
    if (!app.tco.active && !app.planner.active) platform_write_hash(app.fragment);
  }
  return true;
}

bool typing() { return ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput; }

}  // namespace

void app_settle_input(AppState& app) {
  if (!typing() && app.error.field.empty() && app.has_result) app.settled_input = app.estimated_input;
}

void app_update(AppState& app) {
  const std::string text = app.input.dump();
  ++app.updates;
  InputError error;
  if (estimate_input(app, text, error)) {
    app.error = InputError{};
    app.result_is_stale = false;
    app_settle_input(app);
    platform_result_changed();
    return;
  }
  app.error = std::move(error);
  // The results (dimmed) and the link go back to the input before the typing began.
  if (!app.settled_input.empty() && app.settled_input != app.estimated_input) {
    InputError ignored;
    if (estimate_input(app, app.settled_input, ignored)) platform_result_changed();
  }
  app.result_is_stale = app.has_result;
}

void app_set_input(AppState& app, const std::string& input_json) {
  nlohmann::json doc = parse_json_untrusted(input_json);
  if (!doc.is_object()) return;
  app.input = std::move(doc);
  app_update(app);
}

std::string app_money(const AppState& app, double usd, Currency c) {
  return format_money(usd_in(usd, c, app.result.cost), c);
}

std::string app_range_text(const AppState& app, std::string_view path,
                           const std::function<std::string(double)>& format) {
  return range_text(app.ranges, path, format, std::string(" ") + tr(S::range_to) + " ", tr(S::range_measured));
}

const Explanation* app_explain(const AppState& app, const std::string& key) {
  const auto it = app.explain_index.find(key);
  return it == app.explain_index.end() ? nullptr : &app.explainer.items()[it->second];
}

namespace {

// Below this width (CSS pixels, a phone held upright) the app shows the answer first.
constexpr double kPhoneWidthCss = 700;

// The phone layout: the answer first. The result card (card.js over the core's result JSON, in
// the page's #mirror) lies over room reserved here and scrolls with the window; the full results
// follow, and the inputs fold under "Edit the scenario" (folded at first: a shared link is read
// more often than edited).
bool phone_body(AppState& app) {
  const float dpr = static_cast<float>(platform_canvas_size().dpr);
  platform_place_card(true, ImGui::GetCursorScreenPos().y / dpr);
  ImGui::Dummy(ImVec2(1, platform_card_height() * dpr));
  catalog_bar(app);
  link_report(app);
  bool changed = false;
  if (draw_views(app)) {
    app_update(app);
    changed = true;
  }
  const bool open = ImGui::CollapsingHeader(tr(S::edit_scenario));
  record_widget("edit_scenario");
  record_label_in_item(tr(S::edit_scenario));
  if (open && draw_inputs(app)) {
    app_update(app);
    changed = true;
  }
  return changed;
}

}  // namespace

bool app_draw(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  widget_rects().clear();
  text_rects().clear();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("llmplan", nullptr, flags);
  app_settle_input(app);
  bool changed = top_bar();
  if (platform_canvas_size().css_width < kPhoneWidthCss) {
    changed |= phone_body(app);
    ImGui::End();
    return changed;
  }
  platform_place_card(false, 0);
  catalog_bar(app);
  link_report(app);
  // Two columns from 60 em (900 CSS px at the 15 px font); below that, one scrolling column.
  const bool wide = io.DisplaySize.x >= 60 * em();
  if (wide) {
    const float left_w = std::max(28 * em(), io.DisplaySize.x * 0.38f);
    ImGui::BeginChild("inputs", ImVec2(left_w, 0), false);
    changed |= draw_inputs(app);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results", ImVec2(0, 0), false);
    if (changed) app_update(app);
    if (draw_views(app)) {
      app_update(app);  // a view edited the input (e.g. "use" in the catalog)
      changed = true;
    }
    ImGui::EndChild();
  } else {
    changed |= draw_inputs(app);
    if (changed) app_update(app);
    if (draw_views(app)) {
      app_update(app);
      changed = true;
    }
  }
  ImGui::End();
  return changed;
}

}  // namespace llmplan::web
