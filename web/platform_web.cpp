// platform_web.cpp: browser glue (EM_JS): canvas size and devicePixelRatio, language choice,
// wake-up listeners and the readiness signal tests and embedding pages rely on.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cfloat>
#include <cstdlib>

#include "imgui.h"
#include "imgui_internal.h"  // the hovered window and its scroll limits (touch scrolling)
#include "platform.hpp"

namespace {

// clang-format off
EM_JS(int, js_initial_language_is_zh, (), {
  try {
    var q = new URLSearchParams(window.location.search).get('lang');
    if (q) return q.toLowerCase().indexOf('zh') === 0 ? 1 : 0;
    var saved = window.localStorage && window.localStorage.getItem('llmplan.lang');
    if (saved) return saved === 'zh' ? 1 : 0;
  } catch (e) {}
  return (navigator.language || "").toLowerCase().indexOf('zh') === 0 ? 1 : 0;
});

EM_JS(void, js_save_language, (int zh), {
  try { window.localStorage.setItem('llmplan.lang', zh ? 'zh' : 'en'); } catch (e) {}
  document.documentElement.lang = zh ? 'zh-CN' : 'en';
});

EM_JS(void, js_install_wake_listeners, (), {
  var wake = function() { Module['_llmplan_wake'](); };
  window.addEventListener('resize', wake);
  window.addEventListener('focus', wake);
  document.addEventListener('visibilitychange', wake);
  // Zoom or moving to another screen changes devicePixelRatio, sometimes without a resize.
  var watchDpr = function() {
    var mq = window.matchMedia('(resolution: ' + window.devicePixelRatio + 'dppx)');
    var onChange = function() { mq.removeEventListener('change', onChange); wake(); watchDpr(); };
    mq.addEventListener('change', onChange);
  };
  watchDpr();
});

// Browser.setCanvasSize (not glfwSetWindowSize, which calls document.exitFullscreen() and so
// rejects a promise on every resize) also tells GLFW the new size through its resize listener.
EM_JS(void, js_set_canvas_size, (int width, int height), {
  Module['setCanvasSize'](width, height);
});

EM_JS(void, js_frame_drawn, (int first), {
  window.llmplanFrames = (window.llmplanFrames || 0) + 1;
  if (first) {
    window.llmplanFirstFrameMs = performance.now();
    window.llmplanReady = true;
    if (Module['onFirstFrame']) Module['onFirstFrame']();
  }
});
// The file never leaves the browser: it is read locally and handed to the core's loader.
EM_JS(void, js_pick_catalog_file, (), {
  var input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.onchange = function() {
    var file = input.files && input.files[0];
    if (!file) return;
    file.text().then(function(text) { Module['loadCatalog'](file.name, text); });
  };
  input.click();
});
EM_JS(void, js_pick_config_file, (), {
  var input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,.yaml,.yml,.txt,.sh,application/json,text/plain';
  input.onchange = function() {
    var file = input.files && input.files[0];
    if (!file) return;
    file.text().then(function(text) { Module['appImport'](text); });
  };
  input.click();
});
// The scenario lives in location.hash (docs/links.md). Writes are debounced and use
// history.replaceState, so typing never floods the history; a hashchange the app did not write
// (the user edited the address, went back, or followed a link) re-opens the app on it.
EM_JS(void, js_install_hash_listener, (), {
  Module['__lastHash'] = location.hash;
  window.addEventListener('hashchange', function() {
    if (location.hash === Module['__lastHash']) return;
    Module['__lastHash'] = location.hash;
    Module['appOpenLink'](location.hash);
    Module['_llmplan_wake']();
  });
});

EM_JS(void, js_open_initial_hash, (), {
  Module['appOpenLink'](location.hash);
});

EM_JS(void, js_result_changed, (), {
  if (typeof window === 'undefined' || typeof window['llmplanOnResult'] !== 'function') return;
  clearTimeout(Module['__resultTimer']);  // typing re-estimates every frame: render once it settles
  Module['__resultTimer'] = setTimeout(function() { window['llmplanOnResult'](); }, 150);
});

EM_JS(void, js_write_hash, (const char* fragment), {
  var hash = '#' + UTF8ToString(fragment);
  clearTimeout(Module['__hashTimer']);
  Module['__hashTimer'] = setTimeout(function() {
    Module['__lastHash'] = hash;
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
  }, 300);
});

// An older catalog release a link names, from this site (cached by the service worker).
EM_JS(void, js_fetch_release, (const char* version), {
  var v = UTF8ToString(version);
  fetch('catalogs/' + encodeURIComponent(v) + '.json')
    .then(function(r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
    .then(function(text) { Module['appLoadRelease'](text); Module['_llmplan_wake'](); })
    .catch(function() { Module['appReleaseMissing'](v); Module['_llmplan_wake'](); });
});

// kind 0: the link to this page; 1: the iframe snippet of the embed page.
EM_JS(void, js_copy_link, (const char* fragment, int kind), {
  var hash = '#' + UTF8ToString(fragment);
  var text = location.href.split('#')[0] + hash;
  if (kind === 1) {
    var src = new URL('embed.html' + hash, location.href).href;
    text = '<iframe src="' + src + '" title="llmplan estimate" width="100%" height="460" ' +
           'style="border:0;max-width:720px" loading="lazy"></iframe>';
  }
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function() {});
  window.llmplanLastCopied = text;
});

EM_JS(void, js_copy_text, (const char* text), {
  var t = UTF8ToString(text);
  window.llmplanLastCopied = t;
  if (navigator.clipboard) navigator.clipboard.writeText(t).catch(function() {});
});

EM_JS(char*, js_load_setting, (const char* key), {
  var v = null;
  try { v = window.localStorage.getItem(UTF8ToString(key)); } catch (e) {}
  if (v === null) return 0;
  var n = lengthBytesUTF8(v) + 1;
  var p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(char*, js_page_url, (), {
  var v = location.href.split('#')[0];
  var n = lengthBytesUTF8(v) + 1;
  var p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(void, js_save_setting, (const char* key, const char* value), {
  try {
    var v = UTF8ToString(value);
    if (v === "") window.localStorage.removeItem(UTF8ToString(key));
    else window.localStorage.setItem(UTF8ToString(key), v);
  } catch (e) {}
});

// The built-in GLFW turns a touchstart into a button press at the previous cursor position, so a
// first tap misses (style.md "Input"). Touches are taken before GLFW sees them (window, capture)
// and told apart here, as a phone's browser does: a finger that moves 10 CSS px within 400 ms
// scrolls (kind 3, then moves), one held still longer before it moves presses and drags (kind 4:
// a scroll bar, a text selection), anything else is a tap on release. The 400 ms are the events'
// own time stamps, not a timer: a busy page (a slow frame) holds moves back while its timers run,
// and a quick swipe must not turn into a drag there. Ctrl+wheel is kept from GLFW, which would
// preventDefault it, so the browser zooms. Paste arrives as the browser's paste event (ImGui has
// no clipboard to read from in a page).
EM_JS(void, js_install_input_glue, (), {
  var canvas = Module['canvas'];
  var kHoldMs = 400, kSlopPx = 10;
  var gesture = null;  // {x0, y0, t0, mode: 'wait' | 'scroll' | 'press'}
  var point = function(t) {
    var r = canvas.getBoundingClientRect();
    var dpr = window.devicePixelRatio || 1;
    return [(t.clientX - r.left) * dpr, (t.clientY - r.top) * dpr];
  };
  var send = function(kind, e) {
    if (e.target !== canvas) return;
    var t = e.changedTouches && e.changedTouches[0];
    if (!t) return;
    e.stopPropagation();
    if (e.cancelable) e.preventDefault();  // no emulated mouse events after the touch
    var p = point(t);
    var g = gesture;
    if (kind === 0) {
      gesture = {x0: t.clientX, y0: t.clientY, t0: e.timeStamp, mode: 'wait'};
    } else if (kind === 1 && g && g.mode === 'wait' && Math.hypot(t.clientX - g.x0, t.clientY - g.y0) > kSlopPx) {
      var held = e.timeStamp - g.t0 >= kHoldMs;
      g.mode = held ? 'press' : 'scroll';
      Module['appTouch'](held ? 4 : 3, p[0], p[1]);  // both start where the finger went down (platform_touch_event)
    } else if (kind === 2) {
      gesture = null;
    }
    Module['appTouch'](kind, p[0], p[1]);
  };
  var opts = {capture: true, passive: false};
  window.addEventListener('touchstart', function(e) { send(0, e); }, opts);
  window.addEventListener('touchmove', function(e) { send(1, e); }, opts);
  window.addEventListener('touchend', function(e) { send(2, e); }, opts);
  window.addEventListener('touchcancel', function(e) {  // taken by the browser: ends as a scroll, never a tap
    if (gesture && gesture.mode === 'wait') gesture.mode = 'scroll', Module['appTouch'](3, 0, 0);
    send(2, e);
  }, opts);
  window.addEventListener('wheel', function(e) { if (e.ctrlKey) e.stopPropagation(); }, {capture: true});
  document.addEventListener('paste', function(e) {
    var text = e.clipboardData ? e.clipboardData.getData('text/plain') : "";
    if (!text) return;
    Module['appPaste'](text);
    e.preventDefault();
  });
});

// body.phone-card turns #mirror into the phone's result card (style.css) at --card-y; the page
// reports its height whenever it changes (a new result, the language, the width).
EM_JS(void, js_place_card, (int shown, double top), {
  var m = document.getElementById('mirror');
  if (!m) return;
  if (!Module['__cardObserver'] && window.ResizeObserver) {
    Module['__cardObserver'] = new ResizeObserver(function() {
      var on = document.body.classList.contains('phone-card') && !document.body.classList.contains('text-view');
      Module['appCardHeight'](on ? m.getBoundingClientRect().height : 0);
    });
    Module['__cardObserver'].observe(m);
  }
  document.body.classList.toggle('phone-card', !!shown);
  if (shown) m.style.setProperty('--card-y', top + 'px');
});

// Canvas text fields cannot take an IME's composition, a mobile keyboard or its suggestions, so
// while an ImGui text field is active a real <input> lies over it and has the focus (imgui #4910,
// #3654, emscripten #12718). It stays transparent, and ImGui draws the field, except while the IME
// composes, when it shows the composition (e.g. the pinyin) itself. Committed text goes to the
// field as typed characters; deletions and line breaks a soft keyboard sends as input events
// become Backspace, Delete and Enter.
EM_JS(void, js_text_input, (int active, double x, double y, double w, double h), {
  var input = Module['__imeInput'];
  if (!input) {
    if (!active) return;
    input = Module['__imeInput'] = document.createElement('input');
    input.id = 'ime-input';
    input.type = 'text';
    input.setAttribute('autocomplete', 'off');
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('spellcheck', 'false');
    input.setAttribute('aria-label', 'llmplan text field');
    var composing = false;
    var commit = function() {
      var text = input.value;
      input.value = "";
      if (text) Module['appPaste'](text);
    };
    input.addEventListener('compositionstart', function() { composing = true; input.classList.add('composing'); });
    input.addEventListener('compositionend', function() {
      composing = false;
      input.classList.remove('composing');
      commit();
    });
    input.addEventListener('input', function(e) { if (!composing && !e.isComposing) commit(); });
    input.addEventListener('beforeinput', function(e) {
      var key = {deleteContentBackward: 259, deleteContentForward: 261, insertLineBreak: 257}[e.inputType];
      if (composing || !key) return;
      e.preventDefault();
      Module['appKeyTap'](key);  // GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE, GLFW_KEY_ENTER
    });
    document.body.appendChild(input);
  }
  if (!active) {
    if (input.style.display === 'none') return;
    input.style.display = 'none';
    input.value = "";
    if (document.activeElement === input) Module['canvas'].focus({preventScroll: true});
    return;
  }
  var r = Module['canvas'].getBoundingClientRect();
  var box = [r.left + x, r.top + y, w, h];
  var last = Module['__imeBox'];
  if (!last || input.style.display === 'none' || box.some(function(v, i) { return v !== last[i]; })) {
    input.style.display = 'block';
    input.style.left = box[0] + 'px';
    input.style.top = box[1] + 'px';
    input.style.width = box[2] + 'px';
    input.style.height = box[3] + 'px';
    input.style.fontSize = Math.round(box[3] * 0.6) + 'px';
    Module['__imeBox'] = box;
  }
  if (document.activeElement !== input) input.focus({preventScroll: true});
});

// Installed before glfwInit, so these capture listeners run before GLFW's: keys typed into the
// <input> above arrive as its input events, so GLFW must not see their characters (keypress) nor
// the keys an IME is composing with (keyCode 229); Backspace, Enter, arrows and shortcuts still
// reach GLFW and so ImGui.
EM_JS(void, js_install_key_filter, (), {
  var ours = function(e) { return e.target && e.target.id === 'ime-input'; };
  window.addEventListener('keypress', function(e) { if (ours(e)) e.stopImmediatePropagation(); }, true);
  var composing = function(e) { if (ours(e) && (e.isComposing || e.keyCode === 229)) e.stopImmediatePropagation(); };
  window.addEventListener('keydown', composing, true);
  window.addEventListener('keyup', composing, true);
});

EM_JS(void, js_frame_time, (double ui_ms, double total_ms), {
  window.llmplanFrameMs = ui_ms;
  window.llmplanFrameTotalMs = total_ms;
  window.llmplanFrameMsSum = (window.llmplanFrameMsSum || 0) + ui_ms;
  window.llmplanFrameTotalMsSum = (window.llmplanFrameTotalMsSum || 0) + total_ms;
  window.llmplanFrameMsMax = Math.max(window.llmplanFrameMsMax || 0, ui_ms);
});

EM_JS(void, js_download, (const char* filename, const char* mime, const char* text), {
  var name = UTF8ToString(filename), type = UTF8ToString(mime), body = UTF8ToString(text);
  window.llmplanLastDownload = {filename: name, mime: type, text: body};
  var url = URL.createObjectURL(new Blob([body], {type: type}));
  var a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(function() { URL.revokeObjectURL(url); }, 1000);
});
// clang-format on

// One finger on the canvas: first a frame of hover only (so the widget under it is known), then
// a tap (button down for a frame, up the next), a press held until the finger lifts, or a scroll.
enum class TouchMode { idle, wait, tap_down, press, scroll };
struct Touch {
  TouchMode mode = TouchMode::idle;
  bool hovered = false;  // the hover frame was drawn
  bool ended = false;
  bool press = false;  // held still: press and drag
  float x = 0, y = 0;
  float x0 = 0, y0 = 0;              // where the finger went down
  float scroll_x = 0, scroll_y = 0;  // finger travel not yet applied (device pixels)
};
Touch g_touch;

void set_clipboard(void*, const char* text) { js_copy_text(text); }
const char* get_clipboard(void*) { return ""; }  // pasted text arrives through the paste event

}  // namespace

namespace llmplan::web {

CanvasSize platform_canvas_size() {
  CanvasSize s;
  emscripten_get_element_css_size("#canvas", &s.css_width, &s.css_height);
  s.dpr = emscripten_get_device_pixel_ratio();
  if (s.dpr <= 0) s.dpr = 1;
  return s;
}

void platform_set_canvas_size(int width, int height) { js_set_canvas_size(width, height); }

Lang platform_initial_language() { return js_initial_language_is_zh() ? Lang::zh : Lang::en; }
void platform_save_language(Lang lang) { js_save_language(lang == Lang::zh ? 1 : 0); }
void platform_install_wake_listeners() { js_install_wake_listeners(); }
void platform_frame_drawn(bool first) { js_frame_drawn(first ? 1 : 0); }
void platform_pick_catalog_file() { js_pick_catalog_file(); }
void platform_install_hash_listener() { js_install_hash_listener(); }
void platform_open_initial_hash() { js_open_initial_hash(); }
void platform_write_hash(const std::string& fragment) { js_write_hash(fragment.c_str()); }
void platform_result_changed() { js_result_changed(); }
void platform_pick_config_file() { js_pick_config_file(); }
void platform_fetch_release(const std::string& version) { js_fetch_release(version.c_str()); }
void platform_copy_link(const std::string& fragment, bool embed) { js_copy_link(fragment.c_str(), embed ? 1 : 0); }
void platform_copy_text(const std::string& text) { js_copy_text(text.c_str()); }

std::string platform_load_setting(const std::string& key) {
  char* p = js_load_setting(key.c_str());
  if (!p) return "";
  std::string out(p);
  std::free(p);
  return out;
}
void platform_save_setting(const std::string& key, const std::string& value) {
  js_save_setting(key.c_str(), value.c_str());
}

void platform_install_input_glue() {
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = set_clipboard;
  io.GetClipboardTextFn = get_clipboard;
  js_install_input_glue();
}

void platform_touch_event(int kind, float x, float y) {
  Touch& t = g_touch;
  if (kind == 0) {
    t = Touch{};
    t.mode = TouchMode::wait;
    t.x0 = x;
    t.y0 = y;
  } else if (kind == 1 && t.mode == TouchMode::scroll) {
    t.scroll_x += t.x - x;
    t.scroll_y += t.y - y;
  } else if (kind == 2) {
    t.ended = true;
  } else if (kind == 3 && t.mode == TouchMode::wait) {
    t.mode = TouchMode::scroll;  // the content follows the finger from where it went down
    t.x = t.x0;
    t.y = t.y0;
    return;
  } else if (kind == 4 && t.mode == TouchMode::wait) {
    t.press = true;  // it lands where the finger went down (platform_touch_frame)
    return;
  }
  t.x = x;
  t.y = y;
}

bool platform_touch_frame() {
  Touch& t = g_touch;
  if (t.mode == TouchMode::idle) return false;
  ImGuiIO& io = ImGui::GetIO();
  const bool at_start = t.mode == TouchMode::wait && t.press;  // a press lands where the finger went down
  io.MousePos = at_start ? ImVec2(t.x0, t.y0) : ImVec2(t.x, t.y);
  if (!t.hovered) {  // hover first, so the widget under the finger is known when the button goes down
    io.MouseDown[0] = false;
    t.hovered = true;
    return true;
  }
  switch (t.mode) {
    case TouchMode::wait:
      if (t.press) {  // down for a frame at the start, then the drag (and the release) follow
        t.mode = TouchMode::press;
        io.MouseDown[0] = true;
        return true;
      }
      if (t.ended) t.mode = TouchMode::tap_down;
      io.MouseDown[0] = t.mode != TouchMode::wait;
      return t.ended;
    case TouchMode::press:
      io.MouseDown[0] = !t.ended;  // held: the end event wakes the loop
      if (t.ended) t.mode = TouchMode::idle;
      return t.ended;
    case TouchMode::scroll:
      io.MouseDown[0] = false;
      if (t.ended && t.scroll_x == 0 && t.scroll_y == 0) t.mode = TouchMode::idle;
      return false;
    default:  // tap_down: the tap's release
      io.MouseDown[0] = false;
      t.mode = TouchMode::idle;
      return true;
  }
}

namespace {
// Whether `w` can still scroll by `d` along `axis` (0 x, 1 y).
bool can_scroll(const ImGuiWindow* w, int axis, float d) {
  const float pos = axis ? w->Scroll.y : w->Scroll.x, max = axis ? w->ScrollMax.y : w->ScrollMax.x;
  return d < 0 ? pos > 0 : pos < max;
}
// The window under the finger that can scroll that way, else its parents', as the wheel picks.
ImGuiWindow* scroll_target(int axis, float d) {
  for (ImGuiWindow* w = GImGui->HoveredWindow; w; w = w->ParentWindow) {
    if (can_scroll(w, axis, d)) return w;
    if (!(w->Flags & ImGuiWindowFlags_ChildWindow)) break;
  }
  return nullptr;
}
}  // namespace

void platform_touch_scroll() {
  Touch& t = g_touch;
  if (t.mode != TouchMode::scroll) return;
  if (t.scroll_y != 0)
    if (ImGuiWindow* w = scroll_target(1, t.scroll_y)) ImGui::SetScrollY(w, w->Scroll.y + t.scroll_y);
  if (t.scroll_x != 0)
    if (ImGuiWindow* w = scroll_target(0, t.scroll_x)) ImGui::SetScrollX(w, w->Scroll.x + t.scroll_x);
  t.scroll_x = t.scroll_y = 0;
  if (t.ended) t.mode = TouchMode::idle;
}

void platform_paste(const std::string& text) {
  // Line breaks stay for multi-line fields (a pasted log); ImGui drops '\n' in single-line ones.
  std::string clean;
  for (char c : text)
    if (c != '\r') clean += c;
  ImGui::GetIO().AddInputCharactersUTF8(clean.c_str());
}

namespace {
constexpr int kKeys = 512;
bool g_pressed_since_frame[kKeys];
bool g_tap[kKeys];      // pressed and released since the last frame: show as down for one frame
bool g_release[kKeys];  // held over last frame: release now
}  // namespace

void platform_key_event(int key, int action) {
  if (key < 0 || key >= kKeys) return;
  if (action == 1) g_pressed_since_frame[key] = true;                // GLFW_PRESS
  if (action == 0 && g_pressed_since_frame[key]) g_tap[key] = true;  // GLFW_RELEASE in the same frame
}

bool platform_key_frame() {
  ImGuiIO& io = ImGui::GetIO();
  bool more = false;
  for (int k = 0; k < kKeys && k < static_cast<int>(IM_ARRAYSIZE(io.KeysDown)); ++k) {
    if (g_release[k]) {
      io.KeysDown[k] = false;
      g_release[k] = false;
    }
    if (g_tap[k]) {
      io.KeysDown[k] = true;
      g_tap[k] = false;
      g_release[k] = true;
      more = true;
    }
    g_pressed_since_frame[k] = false;
  }
  // Modifiers as the backend derives them (GLFW_KEY_LEFT_SHIFT 340 .. GLFW_KEY_RIGHT_SUPER 347).
  io.KeyShift = io.KeysDown[340] || io.KeysDown[344];
  io.KeyCtrl = io.KeysDown[341] || io.KeysDown[345];
  io.KeyAlt = io.KeysDown[342] || io.KeysDown[346];
  io.KeySuper = io.KeysDown[343] || io.KeysDown[347];
  return more;
}

namespace {
float g_card_height = 0;
}  // namespace

float platform_card_height() { return g_card_height; }
void platform_set_card_height(float css_px) { g_card_height = css_px; }

void platform_place_card(bool shown, float top_css) {
  static int last_shown = -1;
  static float last_top = -1;
  if (last_shown == shown && (!shown || last_top == top_css)) return;  // the page only hears of changes
  last_shown = shown;
  last_top = top_css;
  js_place_card(shown ? 1 : 0, top_css);
}

void platform_install_key_filter() { js_install_key_filter(); }

void platform_key_tap(int key) {
  platform_key_event(key, 1);
  platform_key_event(key, 0);
}

namespace {
// The active text field's rectangle (device pixels): the navigation rectangle ImGui keeps for the
// focused item, which a click on a text field also focuses; else a box at the text cursor.
ImRect active_text_rect() {
  const ImGuiContext& g = *GImGui;
  if (g.NavId == g.ActiveId && g.NavWindow)
    return ImGui::WindowRectRelToAbs(g.NavWindow, g.NavWindow->NavRectRel[g.NavLayer]);
  const ImVec2 p = g.PlatformImePos;
  return ImRect(p.x, p.y, p.x + g.FontSize * 8, p.y + g.FontSize + 2 * g.Style.FramePadding.y);
}
}  // namespace

void platform_text_input_frame() {
  const ImGuiContext& g = *GImGui;
  static bool was_active = false;
  const bool active = g.ActiveId != 0 && g.ActiveId == g.InputTextState.ID;
  if (!active && !was_active) return;
  was_active = active;
  const ImRect r = active ? active_text_rect() : ImRect();
  const double dpr = platform_canvas_size().dpr;
  js_text_input(active ? 1 : 0, r.Min.x / dpr, r.Min.y / dpr, r.GetWidth() / dpr, r.GetHeight() / dpr);
}

void platform_frame_time(double ui_ms, double total_ms) { js_frame_time(ui_ms, total_ms); }

double platform_now_ms() { return emscripten_get_now(); }

namespace {
double g_frame_start_ms = 0, g_frame_interval_ms = 0;
}  // namespace

void platform_frame_started(double now_ms, bool after_pause) {
  g_frame_interval_ms = after_pause ? 0 : now_ms - g_frame_start_ms;
  g_frame_start_ms = now_ms;
}

double platform_frame_interval_ms() { return g_frame_interval_ms; }

std::string platform_page_url() {
  char* p = js_page_url();
  std::string out(p ? p : "");
  std::free(p);
  return out;
}

void platform_download(const std::string& filename, const std::string& mime, const std::string& text) {
  js_download(filename.c_str(), mime.c_str(), text.c_str());
}

}  // namespace llmplan::web
