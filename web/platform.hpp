// platform.hpp: everything the app needs from the browser, in one place (platform_web.cpp).
#pragma once
#include <string>

#include "i18n.hpp"

namespace llmplan::web {

struct CanvasSize {
  double css_width = 0;
  double css_height = 0;
  double dpr = 1;
};

CanvasSize platform_canvas_size();
void platform_set_canvas_size(int width, int height);  // backing-store pixels
Lang platform_initial_language();          // ?lang=, then the saved choice, then navigator.language
void platform_save_language(Lang lang);
void platform_install_wake_listeners();    // resize / devicePixelRatio changes call llmplan_wake()
void platform_frame_drawn(bool first);
// Opens the browser's file picker; a chosen file's text comes back through Module.loadCatalog.
void platform_pick_catalog_file();
// The scenario in location.hash: the initial hash and every hashchange the app did not write
// reach app_open_link (through Module.appOpenLink); writes are debounced replaceState calls.
void platform_install_hash_listener();
void platform_open_initial_hash();
void platform_write_hash(const std::string& fragment);
// Fetches catalogs/VERSION.json; the text reaches app_load_release, or app_release_missing.
void platform_fetch_release(const std::string& version);
// Copies the page's link, or the embed iframe snippet, for `fragment` to the clipboard.
void platform_copy_link(const std::string& fragment, bool embed);

}  // namespace llmplan::web
