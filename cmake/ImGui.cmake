# Dear ImGui, pinned to ONE version (1.86) for every path:
#  - LLMPLAN_IMGUI_DIR: the unpacked sources of Debian's `imgui` source package (1.86+ds),
#    fetched by ./llmplan with apt-get source into .deps/ (the binary libimgui-dev is native and
#    has no imgui.cpp, so it cannot be linked into WebAssembly);
#  - otherwise FetchContent of upstream tag v1.86, for builds off Debian.
# Built once as a static library so app edits never recompile ImGui.
set(LLMPLAN_IMGUI_VERSION 1.86)
set(LLMPLAN_IMGUI_DIR "" CACHE PATH "Dear ImGui ${LLMPLAN_IMGUI_VERSION} source folder (empty: FetchContent)")

if(LLMPLAN_IMGUI_DIR)
  set(imgui_src ${LLMPLAN_IMGUI_DIR})
else()
  include(FetchContent)
  FetchContent_Declare(imgui GIT_REPOSITORY https://github.com/ocornut/imgui.git GIT_TAG v${LLMPLAN_IMGUI_VERSION}
                       GIT_SHALLOW TRUE)
  FetchContent_MakeAvailable(imgui)
  set(imgui_src ${imgui_SOURCE_DIR})
endif()

file(STRINGS ${imgui_src}/imgui.h imgui_version_line REGEX "^#define IMGUI_VERSION ")
if(NOT imgui_version_line MATCHES "\"${LLMPLAN_IMGUI_VERSION}\"")
  message(FATAL_ERROR "Dear ImGui at ${imgui_src} is not version ${LLMPLAN_IMGUI_VERSION}: ${imgui_version_line}")
endif()

add_library(llmplan_imgui STATIC
  ${imgui_src}/imgui.cpp
  ${imgui_src}/imgui_draw.cpp
  ${imgui_src}/imgui_tables.cpp
  ${imgui_src}/imgui_widgets.cpp
  ${imgui_src}/backends/imgui_impl_glfw.cpp
  ${imgui_src}/backends/imgui_impl_opengl3.cpp)
target_include_directories(llmplan_imgui SYSTEM PUBLIC ${imgui_src} ${imgui_src}/backends)
# WebGL2 is OpenGL ES 3.0: "#version 300 es" shaders (1.86 would pick ES2 under Emscripten).
target_compile_definitions(llmplan_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_FILE_FUNCTIONS
                                                IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
