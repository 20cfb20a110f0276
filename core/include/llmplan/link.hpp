// link.hpp: scenarios (and planner questions) as compact, versioned URL fragments, so a link in
// a blog post reproduces the scenario exactly years later:
//   v=1&c=2026.12.0&mv=2&m=llama-3.1-70b&me=full&s=4096&gb=256&t=2e9&i=lambda-8x-b200-sxm&nn=1&tp=4&z=3
// `v` is the format version, `c` the catalog version the link was made with, `mv` the estimator
// model version (model_version.hpp; missing in links made before it existed: model 1); every
// other pair is one input field under a stable code (kLinkFields: codes are never reused or
// renamed; `v`, `c`, `mv` and `u` are reserved).
// Decoding never throws and never gives up on the whole link: an invalid or unknown field is
// dropped with a notice naming it, and every other field is kept.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "llmplan/model_version.hpp"
#include "llmplan/scenario.hpp"

namespace llmplan {

struct Catalog;

inline constexpr int kLinkVersion = 1;
inline constexpr size_t kMaxLinkLength = 8192;  // longer fragments are cut there, with a notice

enum class LinkType { id, choice, integer, number, boolean, list, number_or_auto };

struct LinkField {
  const char* code;   // in the URL
  const char* field;  // dotted path in the scenario / question JSON
  LinkType type;
};

// Every input the scenario and the planner question take, in the order links are written.
extern const std::vector<LinkField> kLinkFields;

// `code` and `args` let a user interface word the notice in its own language; `message` is the
// English sentence the CLI prints. Codes are a contract (embed pages read them): never rename one.
struct LinkNotice {
  std::string field;                                           // the input field (or the code, when unknown)
  std::string message;                                         // what happened to it
  std::string code;                                            // what kind of notice: see kLinkNoticeCodes
  std::vector<std::pair<std::string, std::string>> args = {};  // the values the message names, by name
  // For a notice whose {reason} is an input error: that error's code and values (InputError), so
  // that the app can word the reason in its language. Not part of the notices' JSON.
  std::string reason_code = {};
  std::vector<std::string> reason_args = {};
};

// Every notice code decode_link() and open_link() give, with the names of its args.
struct LinkNoticeCode {
  const char* code;
  const char* args;  // space-separated names
};
extern const std::vector<LinkNoticeCode> kLinkNoticeCodes;

// Notices as a JSON array of {field, message, code, args: {name: value}}.
std::string link_notices_json(const std::vector<LinkNotice>& notices);

struct LinkEncode {
  bool ok = false;
  std::string fragment;  // without '#'
  InputError error;
};

// Encodes a scenario JSON, or a planner question (scenario fields + objective/constraints/top_n),
// after validating it against `catalog` (whose version the link records).
LinkEncode encode_link(std::string_view input_json, const Catalog& catalog);

struct LinkDecode {
  std::string input_json;       // the scenario or question JSON that `llmplan estimate`/`plan` takes
  bool is_question = false;     // objective/constraints present: `llmplan plan` input
  bool is_tco = false;          // servers present: `llmplan tco` input (docs/tco.md)
  bool valid = false;           // input_json parses as a scenario/question against the catalog
  int version = 0;              // `v` as written (0 when missing)
  std::string catalog_version;  // `c` as written (empty when missing)
  std::string ui;               // `u`: the app's view state, passed through untouched
  int model_version = 1;        // `mv` as written; 1 when missing (links made before it existed) or invalid,
                                // kModelVersion for an empty fragment (no link: nothing to compare)
  // The estimator changes since that model version (model_changes_since): "model N (DATE): CHANGE — EFFECT".
  std::vector<std::string> model_changes;
  std::vector<LinkNotice> notices;
};

// The catalog version a link names, so the caller can open it with that release (catalog/releases).
std::string link_catalog_version(std::string_view link);
// Accepts a fragment, "#fragment" or a whole URL.
LinkDecode decode_link(std::string_view link, const Catalog& catalog);

// What changed, between the catalog a link was made with and the one it is opened with, in the
// entries the scenario uses (model, accelerator, instance, links, storage): one line per field.
std::vector<std::string> link_catalog_changes(std::string_view input_json, std::string_view old_catalog_json,
                                              std::string_view new_catalog_json);

struct OpenedLink {
  LinkDecode link;
  std::string catalog_used;          // the catalog version the numbers come from
  std::vector<std::string> changes;  // what changed since the link's catalog, in what it uses
};

// Decodes `link` with the catalog release it was made with when the caller has it (`release`,
// with its JSON text), else with `current`, and says which, and what has changed since.
OpenedLink open_link(std::string_view link, const Catalog& current, std::string_view current_json,
                     const Catalog* release, std::string_view release_json);
// {"kind": "scenario"|"question"|"tco", "valid", "input", "catalog_version", "catalog_used", "notices":
// [{field, message, code, args}], "changes": [...], "model_version", "model_version_current", "model_changes":
// [...], "ui"}: `llmplan link decode` and window.llmplan.decode.
std::string opened_link_json(const OpenedLink& opened);

}  // namespace llmplan
