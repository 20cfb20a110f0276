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
// The scenario lives in location.hash (README "Links"). Writes are debounced and use
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
void platform_install_hash_listener() { js_install_hash_listener(); }
void platform_open_initial_hash() { js_open_initial_hash(); }
void platform_write_hash(const std::string& fragment) { js_write_hash(fragment.c_str()); }
void platform_fetch_release(const std::string& version) { js_fetch_release(version.c_str()); }
void platform_copy_link(const std::string& fragment, bool embed) { js_copy_link(fragment.c_str(), embed ? 1 : 0); }

}  // namespace llmplan::web
