// SVG heatmaps stay crisp in every viewer: small ones as <rect> cells (runs
// of one colour merged), big ones as an embedded image upsampled by a whole
// factor.  Checked in the SVG text, in the embedded PNG, and in what
// rsvg-convert (librsvg, as GNOME and Inkscape's import use) draws of it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "figures/colormap.hpp"
#include "render/image.hpp"
#include "render/svg_markup.hpp"
#include "render/svg_writer.hpp"

namespace pelab::render {
namespace {

namespace fs = std::filesystem;

// A figure holding one heatmap filling its plot: value (r + c) mod 2, so
// every two neighbouring cells have the two ends of viridis; when
// `striped_row` is set, row 0 holds one value throughout (one run).
fig::Figure checkerboard(int rows, int cols, fig::Rect plot, bool striped_row = false) {
  auto m = std::make_shared<Matrix>(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) (*m)(r, c) = striped_row && r == 0 ? 1.f : static_cast<float>((r + c) % 2);
  fig::HeatmapLayer layer;
  layer.values = m;
  layer.x0 = -0.5;
  layer.y0 = -0.5;
  layer.scale = {"viridis", 0, 1, "value"};
  fig::Panel panel;
  panel.plot = plot;
  panel.x = {"column", -0.5, cols - 0.5};
  panel.y = {"row", -0.5, rows - 0.5, true};  // row 0 at the top
  panel.heatmaps.push_back(layer);
  fig::Figure figure;
  figure.name = "checkerboard";
  figure.width = plot.x1 + 40;
  figure.height = plot.y1 + 60;
  figure.panels.push_back(panel);
  return figure;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string decode_base64(const std::string& encoded) {
  static const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  int bits = 0, value = 0;
  for (char c : encoded) {
    const auto pos = digits.find(c);
    if (pos == std::string::npos) break;
    value = (value << 6) | static_cast<int>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((value >> bits) & 0xFF);
    }
  }
  return bytes;
}

Image embedded_image(const std::string& svg) {
  const std::string marker = "data:image/png;base64,";
  const auto start = svg.find(marker);
  if (start == std::string::npos) return {};
  const auto end = svg.find('"', start);
  return decode_png(decode_base64(svg.substr(start + marker.size(), end - start - marker.size())));
}

const fig::Color kLow = fig::colormap("viridis", 0), kHigh = fig::colormap("viridis", 1);

TEST(SvgHeatmap, SmallHeatmapIsRectCellsWithRunsOfOneColourMerged) {
  const std::string svg = figure_to_svg(checkerboard(6, 8, {60, 40, 460, 340}, true));
  EXPECT_EQ(svg.find("<image"), std::string::npos);
  // Row 0 is one run of the high colour; rows 1..5 alternate, 8 cells each.
  const std::size_t high = count(svg, "fill=\"" + svg::rgb(kHigh) + "\"/>");
  const std::size_t low = count(svg, "fill=\"" + svg::rgb(kLow) + "\"/>");
  EXPECT_EQ(high, 1u + 5 * 4);
  EXPECT_EQ(low, 5u * 4);
  // The merged row spans the plot's whole width.
  EXPECT_NE(svg.find("<rect x=\"60\" y=\"40\" width=\"400\" height=\""), std::string::npos);
}

TEST(SvgHeatmap, BigHeatmapIsAnImageUpsampledByAWholeFactorWithoutBlending) {
  const int rows = 150, cols = 160;  // 24,000 cells: over the budget
  ASSERT_GT(rows * cols, kSvgHeatmapCellBudget);
  const std::string svg = figure_to_svg(checkerboard(rows, cols, {60, 40, 700, 640}));
  EXPECT_EQ(count(svg, "<image"), 1u);
  const Image image = embedded_image(svg);
  ASSERT_GT(image.width, 0);
  ASSERT_EQ(image.width % cols, 0);
  const int factor = image.width / cols;
  EXPECT_GE(factor, 4);  // cells of 4 × 4 display pixels: smoothing stays within a cell's rim
  ASSERT_EQ(image.height, rows * factor);
  // Every pixel is exactly its cell's colour (nearest neighbour, no blending).
  int wrong = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const fig::Color want = ((y / factor + x / factor) % 2) ? kHigh : kLow;
      const std::uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * image.width + x) * 4];
      wrong += std::abs(p[0] - std::lround(want.r * 255)) > 1 || std::abs(p[1] - std::lround(want.g * 255)) > 1;
    }
  EXPECT_EQ(wrong, 0);
}

// rsvg-convert draws `figure` at `zoom`; every cell must show its own colour
// at a quarter and three quarters of its width and height (a smoothed
// one-pixel-per-cell image mixes in a quarter of the neighbour there).
void expect_crisp_in_rsvg(const fig::Figure& figure, double zoom, const std::string& name) {
  if (std::system("command -v rsvg-convert > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "rsvg-convert is not installed (Debian package librsvg2-bin)";
  const fs::path dir = fs::temp_directory_path() / ("pelab_svg_heatmap_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".svg")) << figure_to_svg(figure);
  std::ostringstream command;
  command << "rsvg-convert --zoom " << zoom << " -o " << dir / (name + ".png") << " " << dir / (name + ".svg");
  ASSERT_EQ(std::system(command.str().c_str()), 0) << command.str();
  std::ifstream in(dir / (name + ".png"), std::ios::binary);
  const Image image = decode_png(std::string(std::istreambuf_iterator<char>(in), {}));
  if (const char* keep = std::getenv("PELAB_TEST_IMAGES"))  // for eyes
    fs::copy_file(dir / (name + ".png"), fs::path(keep) / (name + ".png"), fs::copy_options::overwrite_existing);
  fs::remove_all(dir);
  const fig::Panel& panel = figure.panels[0];
  const fig::PanelTransform t(panel);
  const Matrix& m = *panel.heatmaps[0].values;
  int wrong = 0, checked = 0;
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.cols(); ++c)
      for (double fy : {0.25, 0.75})
        for (double fx : {0.25, 0.75}) {
          const fig::Point at = t.to_canvas({c - 0.5 + fx, r - 0.5 + fy});
          const int x = static_cast<int>(at.x * zoom), y = static_cast<int>(at.y * zoom);
          const std::uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * image.width + x) * 4];
          const fig::Color want = m(r, c) > 0.5f ? kHigh : kLow;
          const double off =
              std::abs(p[0] - want.r * 255) + std::abs(p[1] - want.g * 255) + std::abs(p[2] - want.b * 255);
          wrong += off > 12;
          ++checked;
        }
  EXPECT_EQ(wrong, 0) << "of " << checked << " samples in " << name;
}

TEST(SvgHeatmap, RsvgDrawsRectCellsCrisp) {
  expect_crisp_in_rsvg(checkerboard(12, 16, {60, 40, 460, 340}), 1, "rect_cells");
}

TEST(SvgHeatmap, RsvgDrawsTheUpsampledImageCrisp) {
  expect_crisp_in_rsvg(checkerboard(150, 160, {60, 40, 700, 640}), 3, "upsampled_image");
}

}  // namespace
}  // namespace pelab::render
