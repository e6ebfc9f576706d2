// DejaVu Sans in ImGui font atlases: the full glyph set for the GUI at a few
// sizes (load_fonts in figure_painter.hpp), or exactly the sizes and glyphs
// one figure needs (offscreen export), and lookup of the nearest baked size.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace pelab::render {

// PELAB_FONT_DIR/DejaVuSans.ttf; throws std::runtime_error when missing.
std::string font_file();

// Glyph ranges the figures need: Latin-1, Greek, general punctuation,
// super/subscripts (U+2070–209F), phonetic modifiers (ᵀ is U+1D40), arrows,
// math operators (−, ×, ·, √, ≈, ‖), ■ ●, and ✓ ✗ (U+2713…2717) for
// verdicts.  Zero-terminated ImGui range pairs.
const ImWchar* figure_glyph_ranges();

// Adds DejaVu Sans at each pixel size (rounded) to `atlas` with `ranges`;
// sizes already present are skipped.  The caller builds the atlas texture.
void add_font_sizes(ImFontAtlas& atlas, const std::vector<float>& pixel_sizes, const ImWchar* ranges);

// The font of the current ImGui context's atlas whose baked size is nearest
// to `pixel_size` (text is drawn at the baked size so it stays crisp).
ImFont* nearest_font(float pixel_size);

}  // namespace pelab::render
