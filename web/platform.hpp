// platform.hpp: everything the app needs from the browser, in one place (platform_web.cpp).
#pragma once
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
void platform_pick_catalog_file();     // frame counter; sets window.llmplanReady on the first

}  // namespace llmplan::web
