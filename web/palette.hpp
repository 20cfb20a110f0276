// palette.hpp: the app's own colours, each named by what it is for; change one here, not where
// it is used. The rest come from ImGui's dark style (main.cpp), the heat map's cells from
// shaders/heatmap.frag.glsl. ImVec4 (float RGBA) for text and style colours, ImU32 (IM_COL32)
// for the draw lists of the charts and diagrams.
#pragma once
#include "imgui.h"

namespace llmplan::web::palette {

// Text and style colours.
inline const ImVec4 kError(0.95f, 0.35f, 0.35f, 1.0f);        // input errors, "does not fit", shortfalls, stale result
inline const ImVec4 kWarning(0.95f, 0.75f, 0.30f, 1.0f);      // the estimate's warning codes
inline const ImVec4 kNotice(0.95f, 0.75f, 0.35f, 1.0f);       // notices: link fallbacks, catalog edits, stale question
inline const ImVec4 kOk(0.35f, 0.80f, 0.45f, 1.0f);           // "fits"
inline const ImVec4 kCommand(0.65f, 0.85f, 1.0f, 1.0f);       // shell commands of the checklist
inline const ImVec4 kAccent(0.45f, 0.70f, 1.0f, 1.0f);        // progress bars and other accents (PlotHistogram)
inline const ImVec4 kWindowBg(0.105f, 0.115f, 0.135f, 1.0f);  // the window and the canvas clear colour
inline const ImVec4 kCodeBg(0.07f, 0.08f, 0.095f, 1.0f);      // boxes of generated files (launch configs)

// Chart series, shared by the memory breakdown and the step-time bar (same order in both).
inline constexpr ImU32 kSeriesBlue = IM_COL32(76, 142, 218, 255);
inline constexpr ImU32 kSeriesOrange = IM_COL32(232, 145, 64, 255);
inline constexpr ImU32 kSeriesPurple = IM_COL32(160, 110, 210, 255);
inline constexpr ImU32 kSeriesGreen = IM_COL32(86, 180, 110, 255);
inline constexpr ImU32 kSeriesTeal = IM_COL32(64, 186, 186, 255);
inline constexpr ImU32 kSeriesOchre = IM_COL32(200, 180, 90, 255);
inline constexpr ImU32 kSeriesGrey = IM_COL32(128, 128, 140, 255);
inline constexpr ImU32 kSeriesRed = IM_COL32(220, 90, 90, 255);
inline constexpr ImU32 kBarTrack = IM_COL32(45, 48, 56, 255);  // the empty track behind a stacked bar

// Pareto chart (planner).
inline constexpr ImU32 kPlotBg = IM_COL32(30, 33, 40, 255);
inline constexpr ImU32 kGrid = IM_COL32(70, 75, 85, 255);
inline constexpr ImU32 kAxisLabel = IM_COL32(170, 175, 185, 255);
inline constexpr ImU32 kParetoFront = IM_COL32(115, 180, 255, 255);  // the front's staircase and its points
inline constexpr ImU32 kRankedPlan = IM_COL32(240, 190, 90, 255);    // the ranked plans (the table's rows)
inline constexpr ImU32 kSelection = IM_COL32(255, 255, 255, 255);    // ring around the selected plan

// Design-space heat map (its cell colours are in shaders/heatmap.frag.glsl).
inline constexpr ImU32 kHeatmapLabel = IM_COL32(190, 195, 205, 255);  // tick labels, computed rows
inline constexpr ImU32 kHeatmapAxisTitle = IM_COL32(140, 145, 155, 255);
inline constexpr ImU32 kHeatmapPending = IM_COL32(110, 115, 125, 255);  // rows not computed yet
inline constexpr ImU32 kHeatmapNoPlan =
    IM_COL32(77, 79, 84, 255);  // legend swatch: the shader's grey (0.30, 0.31, 0.33)

// Topology diagram.
inline constexpr ImU32 kDiagramText = IM_COL32(215, 220, 228, 255);
inline constexpr ImU32 kDiagramMuted = IM_COL32(150, 155, 165, 255);
inline constexpr ImU32 kDiagramLine = IM_COL32(120, 128, 140, 255);
inline constexpr ImU32 kNodeBox = IM_COL32(34, 38, 46, 255);
inline constexpr ImU32 kScaleUpSwitch = IM_COL32(60, 70, 95, 255);
inline constexpr ImU32 kNic = IM_COL32(70, 80, 70, 255);
inline constexpr ImU32 kGpuOneGroup = IM_COL32(90, 140, 210, 255);  // GPUs when all are in one group
inline constexpr ImU32 kInkOnGpu = IM_COL32(15, 18, 22, 255);       // rank labels on the coloured GPU tiles
inline constexpr ImU32 kFabricRdma = IM_COL32(110, 190, 140, 255);
inline constexpr ImU32 kFabricTcp = IM_COL32(225, 160, 80, 255);

}  // namespace llmplan::web::palette
