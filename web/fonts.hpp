// fonts.hpp: the UI faces, rasterised at the device pixel ratio so text is crisp at any zoom.
#pragma once

namespace llmplan::web {

inline constexpr float kBodyFontCssPx = 15.0f;   // Fonts[0]
inline constexpr float kLargeFontCssPx = 22.0f;  // Fonts[1]: headings and the verdict

// Rebuilds the atlas for `dpr`; the caller recreates the GPU texture afterwards.
void load_fonts(float dpr);

}  // namespace llmplan::web
