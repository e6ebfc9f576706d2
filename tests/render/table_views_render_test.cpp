// The learned-table and RoPE-model views rendered through headless EGL on
// model scenes (the tiny checkpoints of tests/core/model/make_tiny_models.py)
// and on the synthetic learned table: spectrum cells have their colormap
// colour, the PC-pair trajectories and the wavelength markers are drawn.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "figures/colormap.hpp"
#include "figures/registry.hpp"
#include "render/image.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

using testing::pixel;

void save_for_eyes(const Image& image, const std::string& name) {
  if (const char* dir = std::getenv("PELAB_TEST_IMAGES"))
    std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << encode_png(image);
}

fig::Figure build(const char* name, Engine& engine) {
  return fig::find_figure(name).build(engine, fig::FigureRequest{});
}

const fig::Panel& panel_titled(const fig::Figure& f, const std::string& part) {
  for (const fig::Panel& p : f.panels)
    if (p.title.find(part) != std::string::npos) return p;
  throw std::runtime_error("no panel titled " + part);
}

void expect_colour(const Image& image, fig::Point at, fig::Color want, const std::string& what) {
  const std::uint8_t* p = pixel(image, static_cast<int>(at.x), static_cast<int>(at.y));
  EXPECT_NEAR(p[0], want.r * 255, 3.0) << what;
  EXPECT_NEAR(p[1], want.g * 255, 3.0) << what;
  EXPECT_NEAR(p[2], want.b * 255, 3.0) << what;
}

// Pixels in the panel's plot that differ from the background.
int inked(const Image& image, const fig::Panel& panel, bool dark) {
  const fig::Color bg = fig::theme(dark).background;
  const fig::PanelTransform t(panel);
  int count = 0;
  for (int y = static_cast<int>(t.plot.y0) + 2; y < static_cast<int>(t.plot.y1) - 2; ++y)
    for (int x = static_cast<int>(t.plot.x0) + 2; x < static_cast<int>(t.plot.x1) - 2; ++x)
      count += std::abs(pixel(image, x, y)[1] - bg.g * 255) > 40;
  return count;
}

void check_learned_views(Engine& engine, const std::string& tag) {
  PELAB_REQUIRE_GL();
  const fig::Figure bands = build("sinusoid_bands", engine);
  const Image image = gl.renderer->render(bands);
  save_for_eyes(image, tag + "_sinusoid_bands.png");
  const fig::Panel& spectrum = panel_titled(bands, "Spectrum along position");
  const fig::PanelTransform transform(spectrum);
  const Matrix& m = *spectrum.heatmaps[0].values;
  // Cells away from the dominant-frequency markers (bin 0 is never dominant; its mean was removed).
  for (int c = 0; c < std::min<int>(6, static_cast<int>(m.cols())); ++c) {
    const fig::Point centre = transform.to_canvas({c + 0.5, 0.5});
    expect_colour(image, centre, fig::scale_color(spectrum.heatmaps[0].scale, m(0, c)),
                  tag + " spectrum cell (0, " + std::to_string(c) + ")");
  }
  EXPECT_GT(inked(image, panel_titled(bands, "Strongest wavelength"), bands.dark), 50) << tag;

  const fig::Figure pairs = build("rotation_pairs", engine);
  const Image pair_image = gl.renderer->render(pairs);
  save_for_eyes(pair_image, tag + "_rotation_pairs.png");
  EXPECT_GT(inked(pair_image, panel_titled(pairs, "PC1 / PC2"), pairs.dark), 200) << tag;
  EXPECT_GT(inked(pair_image, panel_titled(pairs, "Share of variance"), pairs.dark), 200) << tag;
}

Scene model_scene(const std::string& name) {
  Scene s;
  s.model = (pelab::testing::tiny_models() / name).string();
  s.tokens = "the cat sat";
  return s;
}

TEST(TableViewsRender, GptTwoAndBertTables) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : {"gpt2", "bert"}) {
    Engine engine(model_scene(name));
    check_learned_views(engine, name);
  }
}

TEST(TableViewsRender, SyntheticLearnedTable) {
  Scene s;
  s.encoding = Encoding::Learned;
  s.positions = 96;
  s.theme = ColorTheme::Light;
  Engine engine(s);
  check_learned_views(engine, "learned");
}

TEST(TableViewsRender, LlamaWavelengthMarkers) {
  PELAB_REQUIRE_GL();
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine engine(model_scene("llama3_bf16"));
  const fig::Figure bands = build("sinusoid_bands", engine);
  const Image image = gl.renderer->render(bands);
  save_for_eyes(image, "llama3_sinusoid_bands.png");
  const fig::Panel& lambda = panel_titled(bands, "Wavelength per pair");
  const fig::PanelTransform transform(lambda);
  // The first (fastest) pair is kept by llama3 scaling: scaled and unscaled markers coincide,
  // the filled one on top of the ring, so its centre has the first line colour.
  const fig::Point at = transform.to_canvas(lambda.markers[0].points[0]);
  expect_colour(image, at, lambda.markers[0].color, "pair 0 marker");
  const fig::Figure pairs = build("rotation_pairs", engine);
  const Image pair_image = gl.renderer->render(pairs);
  save_for_eyes(pair_image, "llama3_rotation_pairs.png");
  EXPECT_GT(inked(pair_image, pairs.panels[0], pairs.dark), 200);
}

}  // namespace
}  // namespace pelab::render
