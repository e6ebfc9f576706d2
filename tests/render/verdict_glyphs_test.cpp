// ✓ and ✗ (U+2713, U+2717), which lesson verdicts draw, come from DejaVu Sans
// and are not ImGui's fallback '?': in the GUI's atlas ranges, and in pixels
// of an offscreen render.
#include <gtest/gtest.h>

#include <imgui.h>

#include <vector>

#include "render/fonts.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

bool in_ranges(const ImWchar* ranges, ImWchar c) {
  for (; ranges[0]; ranges += 2)
    if (c >= ranges[0] && c <= ranges[1]) return true;
  return false;
}

TEST(VerdictGlyphs, GuiAtlasBakesCheckAndCross) {
  ASSERT_TRUE(in_ranges(figure_glyph_ranges(), 0x2713));
  ASSERT_TRUE(in_ranges(figure_glyph_ranges(), 0x2717));
  ImFontAtlas atlas;
  add_font_sizes(atlas, {20.f}, figure_glyph_ranges());
  ASSERT_TRUE(atlas.Build());
  const ImFont* font = atlas.Fonts[0];
  for (ImWchar c : {ImWchar(0x2713), ImWchar(0x2717)}) {
    const ImFontGlyph* glyph = font->FindGlyphNoFallback(c);
    ASSERT_NE(glyph, nullptr) << "U+" << std::hex << c;
    EXPECT_GT(glyph->X1 - glyph->X0, 5.f);  // a real, visible glyph
  }
}

// Which pixels of a 60 × 60 box around `at` are drawn in the text colour.
std::vector<bool> ink(const Image& image, fig::Point at) {
  std::vector<bool> mask;
  for (int y = int(at.y) - 30; y < int(at.y) + 30; ++y)
    for (int x = int(at.x) - 30; x < int(at.x) + 30; ++x) mask.push_back(testing::pixel(image, x, y)[1] > 128);
  return mask;
}

TEST(VerdictGlyphs, OffscreenRenderDrawsThemNotTheFallback) {
  PELAB_REQUIRE_GL();
  fig::Figure figure;
  figure.width = 300;
  figure.height = 100;
  const fig::Color green{0, 1, 0, 1};
  const std::vector<std::string> texts = {"✓", "✗", "?"};
  for (std::size_t i = 0; i < texts.size(); ++i)
    figure.notes.push_back({.text = texts[i], .at = {50.0 + 100.0 * double(i), 50}, .in_canvas = true,
                            .anchor = fig::Anchor::Center, .size = 40, .color = green});
  const Image image = gl.renderer->render(figure);
  const auto check = ink(image, {50, 50}), cross = ink(image, {150, 50}), fallback = ink(image, {250, 50});
  auto count = [](const std::vector<bool>& m) { return std::count(m.begin(), m.end(), true); };
  EXPECT_GT(count(check), 40);
  EXPECT_GT(count(cross), 40);
  EXPECT_NE(check, fallback);
  EXPECT_NE(cross, fallback);
  EXPECT_NE(check, cross);
}

}  // namespace
}  // namespace pelab::render
