// platform_web.cpp: browser glue (EM_JS): canvas size and devicePixelRatio, language choice,
// wake-up listeners and the readiness signal tests and embedding pages rely on.
#include <emscripten.h>
#include <emscripten/html5.h>

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
// clang-format on

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

}  // namespace llmplan::web
