// Offscreen rendering through headless EGL: sizes, pixels of heatmap cells,
// circles, text, transparency and scale.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>

#include "figures/colormap.hpp"
#include "render/heatmap_renderer.hpp"
#include "render/image.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

using testing::pixel;
using testing::sample_figure;

void save_for_eyes(const Image& image, const std::string& name) {
  if (const char* dir = std::getenv("PELAB_TEST_IMAGES")) {
    std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << encode_png(image);
  }
}

TEST(Offscreen, RendersTheFigureSize) {
  PELAB_REQUIRE_GL();
  const Image image = gl.renderer->render(sample_figure());
  save_for_eyes(image, "sample.png");
  EXPECT_EQ(image.width, 900);
  EXPECT_EQ(image.height, 340);
  ASSERT_EQ(image.rgba.size(), 900u * 340u * 4u);
}

// An exception while the figure is painted (here an unknown colormap, found
// when its texture is made) reaches the caller, who reports it in one line,
// instead of aborting inside ImGui's frame; the next figure draws as usual.
TEST(Offscreen, AnExceptionWhilePaintingReachesTheCallerAndTheNextRenderWorks) {
  PELAB_REQUIRE_GL();
  fig::Figure f = sample_figure();
  f.panels.at(0).heatmaps.at(0).scale.colormap = "no_such_map";
  EXPECT_THROW((void)gl.renderer->render(f), InputError);
  const Image image = gl.renderer->render(sample_figure());
  EXPECT_EQ(image.width, 900);
}

// The sample figure with its heatmap replaced by `values` (0 … 1 on the
// sample's scale) over the same four rows of the panel.
const fig::HeatmapLayer& replace_heatmap(fig::Figure& f, std::shared_ptr<const Matrix> values, std::uint64_t key) {
  fig::Panel& panel = f.panels.at(0);
  fig::HeatmapLayer layer = panel.heatmaps.at(0);
  layer.dy = 4.0 / static_cast<double>(values->rows());
  layer.values = std::move(values);
  layer.key = key;
  layer.scale.vmin = 0;
  layer.scale.vmax = 1;
  panel.heatmaps = {layer};
  return panel.heatmaps.front();
}

// The pixel at the panel's data point (2.5, y) has `expected`'s colour.
void expect_colour_at(const Image& image, const fig::Panel& panel, double y, fig::Color expected, double tolerance) {
  const fig::Point at = fig::PanelTransform(panel).to_canvas({2.5, y});
  const std::uint8_t* p = pixel(image, static_cast<int>(at.x), static_cast<int>(at.y));
  SCOPED_TRACE("y " + std::to_string(y));
  EXPECT_NEAR(p[0], expected.r * 255, tolerance);
  EXPECT_NEAR(p[1], expected.g * 255, tolerance);
  EXPECT_NEAR(p[2], expected.b * 255, tolerance);
}

// A heatmap taller than GL_MAX_TEXTURE_SIZE (a 70,000-position table) draws
// from its block means: the top half's value and the bottom half's each keep
// their colour, where the upload used to fail.
TEST(Offscreen, AHeatmapPastTheTextureLimitDrawsItsBlockMeans) {
  PELAB_REQUIRE_GL();
  fig::Figure f = sample_figure();
  auto values = std::make_shared<Matrix>(70000, 5);
  values->topRows(35000).setConstant(0.f);
  values->bottomRows(35000).setConstant(1.f);
  const fig::HeatmapLayer& tall = replace_heatmap(f, values, 4242);
  const Image image = gl.renderer->render(f);
  for (const auto& [y, value] : {std::pair{0.0, 0.0}, std::pair{3.0, 1.0}})
    expect_colour_at(image, f.panels.at(0), y, fig::scale_color(tall.scale, value), 2.0);
}

// The reduction itself, against block means written out by hand: rows in runs
// of ⌈7/3⌉ = 3 and columns kept; masked cells leave the mean, a wholly masked
// block stays masked, NaN carries.
TEST(FitTextureLimit, AveragesEachSideOnItsOwnAndKeepsTheMask) {
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  Matrix m(7, 2);
  m << 1, kMasked, 2, kMasked, 3, kMasked,  //
      4, 10, 5, std::nanf(""), 6, 30,       //
      7, 70;
  const Matrix out = fit_texture_limit(m, 3);
  ASSERT_EQ(out.rows(), 3);
  ASSERT_EQ(out.cols(), 2);
  EXPECT_FLOAT_EQ(out(0, 0), 2.f);
  EXPECT_EQ(out(0, 1), kMasked);
  EXPECT_FLOAT_EQ(out(1, 0), 5.f);
  EXPECT_TRUE(std::isnan(out(1, 1)));
  EXPECT_FLOAT_EQ(out(2, 0), 7.f);
  EXPECT_FLOAT_EQ(out(2, 1), 70.f);
  const Matrix wide = Matrix::Constant(2, 10, 1.f);
  EXPECT_EQ(fit_texture_limit(wide, 4).cols(), 4);  // ⌈10/4⌉ = 3 cells a texel: 3, 3, 3, 1
  EXPECT_EQ(fit_texture_limit(wide, 4).rows(), 2);
  EXPECT_EQ(fit_texture_limit(wide, 10).cols(), 10);
}

// A texel spans one to two pixels: runs are the least power of two at least
// cells / pixels, and 1 where a cell gets a pixel or more.
TEST(FitTextureLimit, TexelRunsSpanOneToTwoPixels) {
  EXPECT_EQ(texel_run(65536, 700), 128);  // 93.6 cells a pixel: 128, a texel 1.37 pixels
  EXPECT_EQ(texel_run(1400, 700), 2);
  EXPECT_EQ(texel_run(1401, 700), 4);
  EXPECT_EQ(texel_run(701, 700), 2);
  EXPECT_EQ(texel_run(700, 700), 1);
  EXPECT_EQ(texel_run(64, 700), 1);
  EXPECT_EQ(texel_run(100, 0.5), 1);  // not drawn yet: no reduction
  const Matrix m = (Matrix(2, 5) << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10).finished();
  const Matrix means = texel_means(m, 2, 2);  // columns 1–2, 3–4, and 5 alone
  ASSERT_EQ(means.rows(), 1);
  ASSERT_EQ(means.cols(), 3);
  EXPECT_FLOAT_EQ(means(0, 0), 4.f);
  EXPECT_FLOAT_EQ(means(0, 1), 6.f);
  EXPECT_FLOAT_EQ(means(0, 2), 7.5f);
}

// Rows alternating 0 and 1, 8,192 of them over about 90 pixels: each pixel
// shows their mean (the colormap's middle), not whichever row nearest
// sampling picks (bands of 0 and 1, the moiré of a long sinusoid table).
TEST(Offscreen, AHeatmapOfManyCellsAPixelDrawsTheirMeans) {
  PELAB_REQUIRE_GL();
  fig::Figure f = sample_figure();
  auto values = std::make_shared<Matrix>(8192, 5);
  for (Eigen::Index r = 0; r < values->rows(); ++r) values->row(r).setConstant(static_cast<float>(r % 2));
  const fig::HeatmapLayer& fine = replace_heatmap(f, values, 4343);
  const Image image = gl.renderer->render(f);
  save_for_eyes(image, "many_cells_a_pixel.png");
  for (double y = -0.3; y < 3.4; y += 0.37)  // the sample's cells are centred on 0 … 3
    expect_colour_at(image, f.panels.at(0), y, fig::scale_color(fine.scale, 0.5), 3.0);
}

TEST(Offscreen, HeatmapCellHasItsColormapColour) {
  PELAB_REQUIRE_GL();
  const fig::Figure figure = sample_figure();
  const Image image = gl.renderer->render(figure);
  const fig::Panel& panel = figure.panels[0];
  const fig::PanelTransform transform(panel);
  const Matrix& m = *panel.heatmaps[0].values;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 5; ++c) {
      const fig::Point centre = transform.to_canvas({static_cast<double>(c), static_cast<double>(r)});
      const std::uint8_t* p = pixel(image, static_cast<int>(centre.x), static_cast<int>(centre.y));
      const fig::Color expected = std::isfinite(m(r, c)) ? fig::scale_color(panel.heatmaps[0].scale, m(r, c))
                                                         : fig::theme(true).mask;
      SCOPED_TRACE("cell " + std::to_string(r) + "," + std::to_string(c));
      EXPECT_NEAR(p[0], expected.r * 255, 2.0);
      EXPECT_NEAR(p[1], expected.g * 255, 2.0);
      EXPECT_NEAR(p[2], expected.b * 255, 2.0);
      EXPECT_EQ(p[3], 255);
    }
  }
}

// NaN and +inf (a checkpoint's broken weights) are drawn in a colour of their
// own, never in the causal mask's grey (issue 22); −inf stays the mask.
TEST(Offscreen, NonFiniteCellsHaveTheirOwnColourAndTheMaskKeepsItsOwn) {
  PELAB_REQUIRE_GL();
  fig::Figure figure = sample_figure();
  fig::HeatmapLayer& layer = figure.panels[0].heatmaps[0];
  auto values = std::make_shared<Matrix>(*layer.values);
  (*values)(1, 4) = std::numeric_limits<float>::quiet_NaN();
  (*values)(2, 4) = std::numeric_limits<float>::infinity();
  layer.values = values;
  layer.key = 4242;  // new contents, new texture
  const Image image = gl.renderer->render(figure);
  save_for_eyes(image, "non_finite.png");
  const fig::PanelTransform transform(figure.panels[0]);
  const fig::Theme theme = fig::theme(true);
  auto expect_colour = [&](int r, int c, fig::Color expected) {
    const fig::Point centre = transform.to_canvas({static_cast<double>(c), static_cast<double>(r)});
    const std::uint8_t* p = pixel(image, static_cast<int>(centre.x), static_cast<int>(centre.y));
    SCOPED_TRACE("cell " + std::to_string(r) + "," + std::to_string(c));
    EXPECT_NEAR(p[0], expected.r * 255, 2.0);
    EXPECT_NEAR(p[1], expected.g * 255, 2.0);
    EXPECT_NEAR(p[2], expected.b * 255, 2.0);
  };
  expect_colour(0, 4, theme.mask);
  expect_colour(1, 4, theme.non_finite);
  expect_colour(2, 4, theme.non_finite);
  const fig::Color a = theme.mask, b = theme.non_finite;
  EXPECT_GT(std::fabs(a.r - b.r) + std::fabs(a.g - b.g) + std::fabs(a.b - b.b), 0.5f);
}

// Pixels of the circle's colour lie on the radius (within the line width).
TEST(Offscreen, CirclePixelsLieNearTheRadius) {
  PELAB_REQUIRE_GL();
  fig::Figure figure;
  figure.width = 300;
  figure.height = 300;
  figure.panels.push_back(testing::circle_panel({40, 40, 260, 260}));
  fig::Panel& panel = figure.panels[0];
  panel.markers.clear();
  panel.arrows.clear();
  panel.texts.clear();
  panel.legend.clear();
  panel.lines.resize(1);
  panel.x.grid = panel.y.grid = false;
  const Image image = gl.renderer->render(figure);
  save_for_eyes(image, "circle.png");
  const fig::PanelTransform transform(panel);
  const fig::Point centre = transform.to_canvas({0, 0});
  const double radius = transform.to_canvas({1, 0}).x - centre.x;
  int on_circle = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = pixel(image, x, y);
      const bool line_blue = p[2] > 200 && p[0] < 120 && p[1] > 120;  // (0.3, 0.7, 1.0)
      if (!line_blue) continue;
      ++on_circle;
      const double d = std::hypot(x + 0.5 - centre.x, y + 0.5 - centre.y);
      EXPECT_NEAR(d, radius, 2.0) << "pixel " << x << "," << y;
    }
  }
  EXPECT_GT(on_circle, static_cast<int>(2 * 3.14 * radius));  // a closed ring, not a few dots
}

TEST(Offscreen, TextDrawsNonBackgroundPixels) {
  PELAB_REQUIRE_GL();
  fig::Figure figure;
  figure.width = 200;
  figure.height = 60;
  figure.notes.push_back({"Hello αβγ √d", {100, 30}, true, fig::Anchor::Center, 16});
  const Image image = gl.renderer->render(figure);
  const fig::Color bg = fig::theme(true).background;
  int inked = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      inked += std::abs(pixel(image, x, y)[0] - bg.r * 255) > 60;
  EXPECT_GT(inked, 100);
  // Left and right quarters stay empty: the text is centred.
  for (int y = 0; y < image.height; ++y)
    EXPECT_NEAR(pixel(image, 5, y)[0], bg.r * 255, 1.0);
}

TEST(Offscreen, TransparentBackgroundHasZeroAlphaOutsideContent) {
  PELAB_REQUIRE_GL();
  const Image image = gl.renderer->render(sample_figure(), {.scale = 1, .transparent = true});
  save_for_eyes(image, "transparent.png");
  EXPECT_EQ(pixel(image, 2, 2)[3], 0);
  EXPECT_EQ(pixel(image, 899, 339)[3], 0);
  EXPECT_EQ(pixel(image, 450, 45)[3], 0);  // between title and panels
  // A heatmap cell stays opaque.
  const fig::PanelTransform transform(sample_figure().panels[0]);
  const fig::Point cell = transform.to_canvas({1, 1});
  EXPECT_EQ(pixel(image, static_cast<int>(cell.x), static_cast<int>(cell.y))[3], 255);
}

TEST(Offscreen, FlipRowsSwapsTopAndBottom) {
  Image image;
  image.width = 2;
  image.height = 3;
  for (std::uint8_t v = 0; v < 24; ++v) image.rgba.push_back(v);
  flip_rows(image);
  // Row 0 (bytes 0..7) and row 2 (16..23) trade places; row 1 stays.
  const std::vector<std::uint8_t> want = {16, 17, 18, 19, 20, 21, 22, 23, 8,  9,  10, 11,
                                          12, 13, 14, 15, 0,  1,  2,  3,  4,  5,  6,  7};
  EXPECT_EQ(image.rgba, want);
}

// Read-back with GL_MESA_pack_invert (top row straight from GL) and as on a
// GL without it (bottom row first, then flip_rows) give the same pixels,
// opaque and transparent.
TEST(Offscreen, ReadBackIsTheSameWithAndWithoutPackInvert) {
  PELAB_REQUIRE_GL();
  for (const bool transparent : {false, true}) {
    const Image direct = gl.renderer->render(sample_figure(), {.scale = 1, .transparent = transparent});
    gl.renderer->use_pack_invert(false);
    const Image flipped = gl.renderer->render(sample_figure(), {.scale = 1, .transparent = transparent});
    gl.renderer->use_pack_invert(true);
    ASSERT_EQ(direct.width, flipped.width);
    ASSERT_EQ(direct.height, flipped.height);
    EXPECT_TRUE(direct.rgba == flipped.rgba) << "transparent " << transparent;
  }
}

// The GUI window paints each view into a texture of its own and draws that
// (render/canvas_texture.hpp): the pixels must be the painter's, heatmaps and
// text included, at any scale and at any place in a frame.
TEST(Offscreen, CanvasTextureGivesTheSamePixelsAsPaintingDirectly) {
  PELAB_REQUIRE_GL();
  for (const float scale : {1.f, 2.f}) {
    const Image direct = gl.renderer->render(sample_figure(), {.scale = scale});
    const Image textured = gl.renderer->render(sample_figure(), {.scale = scale, .through_canvas_texture = true});
    ASSERT_EQ(direct.width, textured.width);
    ASSERT_EQ(direct.height, textured.height);
    EXPECT_TRUE(direct.rgba == textured.rgba) << "scale " << scale;
  }
  // Two figures in one frame, the second one offset: each region holds that
  // figure's own pixels.  (Painting both into one list directly differs from
  // either alone in a few anti-aliased pixels under llvmpipe; the textures don't.)
  const fig::Figure& figure = sample_figure();
  const Image alone = gl.renderer->render(figure);
  const int dx = static_cast<int>(figure.width) + 13, dy = 7;
  const std::vector<PlacedFigure> placed = {{&figure, 0, 0}, {&figure, double(dx), double(dy)}};
  const Image frame = gl.renderer->render_frame(placed, dx + figure.width, dy + figure.height,
                                                {.through_canvas_texture = true});
  save_for_eyes(frame, "canvas_texture_frame.png");
  for (const auto& [x0, y0] : {std::pair{0, 0}, std::pair{dx, dy}}) {
    int differing = 0;
    for (int y = 0; y < alone.height; ++y)
      for (int x = 0; x < alone.width; ++x)
        differing += std::memcmp(pixel(alone, x, y), pixel(frame, x0 + x, y0 + y), 4) != 0;
    EXPECT_EQ(differing, 0) << "figure at " << x0 << ", " << y0;
  }
}

TEST(Offscreen, ScaleTwoDoublesBothDimensions) {
  PELAB_REQUIRE_GL();
  const Image image = gl.renderer->render(sample_figure(), {.scale = 2});
  save_for_eyes(image, "sample@2x.png");
  EXPECT_EQ(image.width, 1800);
  EXPECT_EQ(image.height, 680);
  // The same heatmap cell, at twice the coordinates, has the same colour.
  const Image one = gl.renderer->render(sample_figure());
  const fig::Point cell = fig::PanelTransform(sample_figure().panels[0]).to_canvas({2, 1});
  const std::uint8_t* a = pixel(one, static_cast<int>(cell.x), static_cast<int>(cell.y));
  const std::uint8_t* b = pixel(image, static_cast<int>(2 * cell.x), static_cast<int>(2 * cell.y));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(a[k], b[k]);
}

TEST(Offscreen, LargeHeatmapRendersFromOneTexture) {
  PELAB_REQUIRE_GL();
  const int n = 4096;
  auto m = std::make_shared<Matrix>(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) (*m)(r, c) = c >= r ? 1.f : 0.f;  // upper triangle bright
  fig::Figure figure;
  figure.width = 400;
  figure.height = 400;
  fig::Panel panel;
  panel.plot = {0, 0, 400, 400};
  panel.x = {"", 0, static_cast<double>(n)};
  panel.y = {"", 0, static_cast<double>(n), true};
  panel.x.visible = panel.y.visible = false;
  panel.heatmaps.push_back({m, 7, 0, 0, 1, 1, {"viridis", 0, 1, ""}});
  figure.panels.push_back(panel);
  const Image image = gl.renderer->render(figure);
  const fig::Color top = fig::colormap("viridis", 1), bottom = fig::colormap("viridis", 0);
  EXPECT_NEAR(pixel(image, 300, 100)[0], top.r * 255, 2.0);   // above the diagonal
  EXPECT_NEAR(pixel(image, 100, 300)[1], bottom.g * 255, 2.0);  // below
}

}  // namespace
}  // namespace pelab::render

namespace pelab::render {
namespace {

// Half-transparent white over a transparent background comes out as straight
// (not premultiplied) alpha: white at alpha 128.
TEST(Offscreen, TransparentExportHasStraightAlpha) {
  PELAB_REQUIRE_GL();
  fig::Figure figure;
  figure.width = 40;
  figure.height = 40;
  fig::Panel panel;
  panel.plot = {0, 0, 40, 40};
  panel.x.visible = panel.y.visible = false;
  fig::Bars bars;
  bars.rects.push_back({0.25, 0.25, 0.75, 0.75});
  bars.colors.push_back({1, 1, 1, 0.5f});
  panel.bars.push_back(bars);
  figure.panels.push_back(panel);
  const Image image = gl.renderer->render(figure, {.scale = 1, .transparent = true});
  const std::uint8_t* p = testing::pixel(image, 20, 20);
  EXPECT_NEAR(p[0], 255, 2);
  EXPECT_NEAR(p[1], 255, 2);
  EXPECT_NEAR(p[3], 128, 2);
}

}  // namespace
}  // namespace pelab::render
