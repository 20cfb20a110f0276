// fonts.cpp: DejaVu Sans merged with Droid Sans Fallback (CJK), both subset at build time and
// embedded; glyph ranges are limited to what the string table uses to keep the atlas small.
#include "fonts.hpp"

#include "i18n.hpp"
#include "imgui.h"
#include "llmplan/catalog.hpp"

extern const unsigned char llmplan_font_latin[];
extern const unsigned long llmplan_font_latin_size;
extern const unsigned char llmplan_font_cjk[];
extern const unsigned long llmplan_font_cjk_size;

namespace llmplan::web {
namespace {

// Symbols the core's formatting and messages can emit beyond Latin-1, and the curly quotes of the
// Chinese strings, which DejaVu draws and Droid Sans Fallback lacks.
const char* kExtraSymbols =
    "\xC2\xA5\xC3\x97\xE2\x80\x93\xE2\x80\x94\xE2\x89\xA4\xE2\x89\xA5\xE2\x86\x92\xE2\x80\xA2\xE2\x80\xA6"
    "\xE2\x80\x9C\xE2\x80\x9D";

const ImVector<ImWchar>& latin_ranges() {
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder b;
    b.AddRanges(ImGui::GetIO().Fonts->GetGlyphRangesDefault());
    b.AddText(all_strings(Lang::en));
    b.AddText(kExtraSymbols);
    b.BuildRanges(&ranges);
  }
  return ranges;
}

const ImVector<ImWchar>& cjk_ranges() {
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder b;
    b.AddText(all_strings(Lang::zh));
    b.AddText(all_strings(Lang::en));  // the language button names Chinese in the English UI
    // Catalog names and notes as written (华为云, 矩池云): the font file is subset to the same text.
    const std::string_view catalog = builtin_catalog_json();
    b.AddText(catalog.data(), catalog.data() + catalog.size());
    b.BuildRanges(&ranges);
  }
  return ranges;
}

void add_face(float px) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  ImFontConfig latin;
  latin.FontDataOwnedByAtlas = false;  // the bytes are static data in the wasm
  latin.OversampleH = 2;
  atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(llmplan_font_latin), static_cast<int>(llmplan_font_latin_size),
                              px, &latin, latin_ranges().Data);
  ImFontConfig cjk;
  cjk.FontDataOwnedByAtlas = false;
  cjk.MergeMode = true;  // fills only the code points DejaVu lacks
  cjk.OversampleH = 1;
  atlas->AddFontFromMemoryTTF(const_cast<unsigned char*>(llmplan_font_cjk), static_cast<int>(llmplan_font_cjk_size), px,
                              &cjk, cjk_ranges().Data);
}

}  // namespace

void load_fonts(float dpr) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  add_face(kBodyFontCssPx * dpr);
  add_face(kLargeFontCssPx * dpr);
  atlas->Build();
}

}  // namespace llmplan::web
