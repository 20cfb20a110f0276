// main.cpp: GLFW + WebGL2 set-up and the main loop. The loop pauses itself when nothing has
// happened for a few frames and input or a resize resumes it: no 60 fps busy loop while idle.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app.hpp"
#include "fonts.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "palette.hpp"
#include "platform.hpp"

namespace {

using namespace llmplan::web;

// ImGui needs a few frames after an event to settle hover and active states.
constexpr int kFramesAfterEvent = 3;

GLFWwindow* g_window = nullptr;
ImGuiStyle g_base_style;
int g_frames_pending = kFramesAfterEvent;
bool g_paused = false;
bool g_resumed = true;  // the next frame is the first after a pause (or the first of all)
bool g_first_frame = true;
int g_fb_width = 0, g_fb_height = 0;
double g_dpr = 0;

void wake() {
  g_frames_pending = kFramesAfterEvent;
  if (g_paused) {
    g_paused = false;
    g_resumed = true;
    emscripten_resume_main_loop();
  }
}

void on_cursor(GLFWwindow*, double, double) { wake(); }
void on_button(GLFWwindow*, int, int, int) { wake(); }
void on_key(GLFWwindow*, int key, int, int action, int) {
  platform_key_event(key, action);
  wake();
}
void on_char(GLFWwindow*, unsigned int) { wake(); }
void on_focus(GLFWwindow*, int) { wake(); }
void on_enter(GLFWwindow*, int) { wake(); }

// Browser wheel deltas are ~100 per notch and positive downwards; ImGui wants ~1, positive up.
void on_scroll(GLFWwindow*, double dx, double dy) {
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheelH += static_cast<float>(-dx / 100.0);
  io.MouseWheel += static_cast<float>(-dy / 100.0);
  wake();
}

void apply_dpr(double dpr) {
  load_fonts(static_cast<float>(dpr));
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGui::GetStyle() = g_base_style;
  ImGui::GetStyle().ScaleAllSizes(static_cast<float>(dpr));
}

// The canvas is sized by CSS; its backing store follows at devicePixelRatio (the built-in GLFW
// of Emscripten 3.1.6 has no HiDPI support, so ImGui works in device pixels throughout).
void sync_canvas() {
  const CanvasSize c = platform_canvas_size();
  const int w = std::max(1, static_cast<int>(std::lround(c.css_width * c.dpr)));
  const int h = std::max(1, static_cast<int>(std::lround(c.css_height * c.dpr)));
  if (w != g_fb_width || h != g_fb_height) {
    platform_set_canvas_size(w, h);
    g_fb_width = w;
    g_fb_height = h;
  }
  if (c.dpr != g_dpr) {
    g_dpr = c.dpr;
    apply_dpr(c.dpr);
  }
}

void set_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowPadding = ImVec2(14, 10);
  s.FramePadding = ImVec2(8, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.CellPadding = ImVec2(6, 3);
  s.FrameRounding = 4;
  s.GrabRounding = 4;
  s.WindowRounding = 0;
  s.Colors[ImGuiCol_WindowBg] = palette::kWindowBg;
  s.Colors[ImGuiCol_PlotHistogram] = palette::kAccent;
  g_base_style = s;
}

void frame() {
  if (g_frames_pending <= 0) {
    g_paused = true;
    emscripten_pause_main_loop();
    return;
  }
  --g_frames_pending;
  const double t0 = emscripten_get_now();
  platform_frame_started(t0, g_resumed);
  g_resumed = false;
  sync_canvas();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (platform_touch_frame()) g_frames_pending = std::max(g_frames_pending, 1);
  if (platform_key_frame()) g_frames_pending = std::max(g_frames_pending, 1);
  ImGui::NewFrame();
  platform_touch_scroll();
  if (app_draw(app_state())) g_frames_pending = kFramesAfterEvent;
  ImGui::Render();
  platform_text_input_frame();
  const double t1 = emscripten_get_now();
  glViewport(0, 0, g_fb_width, g_fb_height);
  glClearColor(palette::kWindowBg.x, palette::kWindowBg.y, palette::kWindowBg.z, palette::kWindowBg.w);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  platform_frame_time(t1 - t0, emscripten_get_now() - t0);
  platform_frame_drawn(g_first_frame);
  g_first_frame = false;
}

}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE void llmplan_wake() { wake(); }

int main() {
  platform_install_key_filter();  // before GLFW's own key listeners
  if (!glfwInit()) {
    std::fprintf(stderr, "llmplan: glfwInit failed\n");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const CanvasSize c = platform_canvas_size();
  g_window = glfwCreateWindow(std::max(1, static_cast<int>(c.css_width * c.dpr)),
                              std::max(1, static_cast<int>(c.css_height * c.dpr)), "llmplan", nullptr, nullptr);
  if (!g_window) {
    std::fprintf(stderr, "llmplan: could not create a WebGL2 context\n");
    return 1;
  }
  glfwMakeContextCurrent(g_window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;                              // no filesystem; settings live in localStorage
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;  // Tab, arrows, Space, Enter
  set_style();
  // Ours first, so ImGui's callbacks chain to them; scroll is replaced after init (see on_scroll).
  glfwSetCursorPosCallback(g_window, on_cursor);
  glfwSetMouseButtonCallback(g_window, on_button);
  glfwSetKeyCallback(g_window, on_key);
  glfwSetCharCallback(g_window, on_char);
  glfwSetWindowFocusCallback(g_window, on_focus);
  glfwSetCursorEnterCallback(g_window, on_enter);
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  glfwSetScrollCallback(g_window, on_scroll);
  platform_install_input_glue();
  ImGui_ImplOpenGL3_Init("#version 300 es");

  app_init(app_state());
  platform_install_wake_listeners();
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
