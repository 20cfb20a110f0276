// page_form.hpp: the main inputs as the page's own form fields (site/app.js, #mirror-controls),
// labelled DOM controls that keyboard and screen-reader users reach with Tab outside the canvas.
// The fields, labels, choices and checks are the canvas's (panel_inputs.cpp): an edit here is the
// edit the canvas's widget makes, and the core's parser accepts or refuses it alike.
#pragma once
#include <string>

#include "app.hpp"

namespace llmplan::web {

// {"title", "custom", "fields": [{"path", "label", "type" (kFieldTypeNames), "unit", "lo", "hi", "value", "applies",
// "options": [{"value", "label"}]}], "error": {"field", "message"} or null}, in the UI language:
// the document's value of each field, else the one the core resolved; options from the catalog
// (presets, accelerators) or the field table (methods, precisions).
std::string page_form_json(const AppState& app);
// Sets the field at `path` (one of the form's) to the JSON value `value_json` as its canvas widget
// would (model.preset replaces the model; fields that no longer apply are dropped) and re-parses.
void page_form_set(AppState& app, const std::string& path, const std::string& value_json);

}  // namespace llmplan::web
