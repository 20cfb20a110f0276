// model_version.hpp: the estimator's model version and its change log (core/data/model_changes.json).
// A link records the model version it was made with (`mv`, link.hpp); a link opened by a newer
// build lists the changes since (model_changes_since), and the "Model changes" table of
// docs/links.md is generated from the log (`llmplan link model-changes --update-md docs/links.md`;
// a test fails while it is stale).
//
// A change that moves the figures of a scenario (a formula, a constant, a default) bumps
// kModelVersion and adds its entries to the log under the new version. Version 1 stands for every
// link made before links recorded the model version: its entries are the changes listed until then.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmplan {

inline constexpr int kModelVersion = 46;

struct ModelChange {
  int version = 0;     // the model version that brought the change
  std::string date;    // YYYY-MM-DD
  std::string change;  // what changed, and its source
  std::string effect;  // what it does to the figures of links made before it (one plain sentence or more)
};

// The change log, oldest first, read once from core/data/model_changes.json (embedded packed at build
// time: as text in the code it was a thirtieth of the embed card's 1 MB module). A damaged embedded
// file is a build defect and aborts with a message; a test checks that the versions run from 1 to
// kModelVersion.
const std::vector<ModelChange>& model_changes();

// "model N (DATE): CHANGE — EFFECT" for every change after model `version`, oldest first; none
// when `version` is the current model or newer.
std::vector<std::string> model_changes_since(int version);

// The "Model changes" table of docs/links.md with its BEGIN/END markers.
std::string model_changes_markdown();

// `text` with the block between its model-changes markers replaced by model_changes_markdown(),
// or nullopt when it has no such block.
std::optional<std::string> with_model_changes_markdown(std::string_view text);

}  // namespace llmplan
