// gl_heatmap.hpp: the design-space heat map drawn by the project's own WebGL2 program
// (shaders/heatmap.*.glsl, embedded at build time, compiled here at run time) inside the ImGui
// window: an ImDrawCallback in the window's draw list draws the grid, then ImGui's backend state
// is restored with ImDrawCallback_ResetRenderState.
#pragma once
#include <string>
#include <vector>

#include "imgui.h"

namespace llmplan::web {

// Queues the grid into `dl` over [min, max] (ImGui coordinates): `values` is row-major,
// rows x columns, each 0..1 on the colour scale or negative for a cell that does not run.
// `hover` is the hovered cell (row * columns + column) or -1. Returns false when the shader
// program could not be built (heatmap_error() says why).
bool heatmap_draw(ImDrawList* dl, ImVec2 min, ImVec2 max, const std::vector<float>& values, int rows, int columns,
                  int hover);
// The colour legend's ramp over [min, max], left (0) to right (1).
bool heatmap_draw_legend(ImDrawList* dl, ImVec2 min, ImVec2 max);
const std::string& heatmap_error();

}  // namespace llmplan::web
