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
Lang platform_initial_language();                      // ?lang=, then the saved choice, then navigator.language
void platform_save_language(Lang lang);
void platform_install_wake_listeners();  // resize / devicePixelRatio changes call llmplan_wake()
void platform_frame_drawn(bool first);
// Opens the browser's file picker; a chosen file's text comes back through Module.loadCatalog.
void platform_pick_catalog_file();
// The scenario in location.hash: the initial hash and every hashchange the app did not write
// reach app_open_link (through Module.appOpenLink); writes are debounced replaceState calls.
void platform_install_hash_listener();
void platform_open_initial_hash();
void platform_write_hash(const std::string& fragment);
// The result changed (an update, a finished search): the page re-renders its text view (#mirror).
void platform_result_changed();
// A file picker for a training config; the chosen file goes to app_import (as does a file dropped
// on the page, app.js).
void platform_pick_config_file();
// Fetches catalogs/VERSION.json; the text reaches app_load_release, or app_release_missing.
void platform_fetch_release(const std::string& version);
// Copies the page's link, or the embed iframe snippet, for `fragment` to the clipboard.
void platform_copy_link(const std::string& fragment, bool embed);
// Copies text to the clipboard (navigator.clipboard.writeText; also window.llmplanLastCopied).
void platform_copy_text(const std::string& text);
// localStorage (empty when absent or unavailable); settings survive reloads.
std::string platform_load_setting(const std::string& key);
void platform_save_setting(const std::string& key, const std::string& value);
// Input the built-in GLFW gets wrong or lacks: first-tap touch (position one frame before the
// button), the browser's paste event and ImGui's clipboard, Ctrl+wheel left to the browser (zoom).
void platform_install_input_glue();
// kind 0 start, 1 move, 2 end, 3 the finger moved: a scroll, 4 held still: press (device pixels)
void platform_touch_event(int kind, float x, float y);
bool platform_touch_frame();  // after the backend's NewFrame: applies the touch; true: draw another frame
// After ImGui::NewFrame: a scrolling finger's travel scrolls the window under it (or the first of
// its parents that can still scroll that way).
void platform_touch_scroll();
void platform_paste(const std::string& text);  // the paste event's text, typed into the active field
// ImGui 1.86 reads key state once per frame, so a key pressed and released between two frames
// (a quick tap, or a test's key press) would be lost: the GLFW key callback reports each key
// here, and platform_key_frame() (after the backend's NewFrame) holds such a key down for one frame.
void platform_key_event(int key, int action);
bool platform_key_frame();  // true: a held-over key is released next frame (draw another)
// The phone layout's result card (card.js in the page's #mirror, laid over the canvas): its height
// in CSS pixels as the page measured it (Module.appCardHeight), and where the app reserved room
// for it, its top in CSS pixels; shown false: the card is off (a wider screen).
float platform_card_height();
void platform_set_card_height(float css_px);
void platform_place_card(bool shown, float top_css);
// Text fields and IMEs: a real <input> over the active ImGui text field carries composition,
// paste and the mobile keyboard (platform_web.cpp). The key filter goes in before glfwInit;
// platform_text_input_frame() after ImGui::Render() places, focuses or hides the <input>.
void platform_install_key_filter();
void platform_text_input_frame();
void platform_key_tap(int key);  // a GLFW key pressed and released (a soft keyboard's Backspace)
// The frame's CPU time (ImGui frame, and with the GL submission) for window.llmplanFrameMs.
void platform_frame_time(double ui_ms, double total_ms);
// A monotonic clock in milliseconds (performance.now()), for time slices and elapsed times.
double platform_now_ms();
// The frame loop marks each frame's start (after_pause: the loop had stopped for want of events);
// platform_frame_interval_ms() is then the time from the previous frame's start to this one's
// when the two ran back to back, 0 on the first frame and after a pause.
void platform_frame_started(double now_ms, bool after_pause);
double platform_frame_interval_ms();
// The page's address without its fragment (links in exported summaries).
std::string platform_page_url();
// Downloads `text` as a file (a Blob link; also window.llmplanLastDownload for tests).
void platform_download(const std::string& filename, const std::string& mime, const std::string& text);

}  // namespace llmplan::web
