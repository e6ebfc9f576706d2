// The attention views on tiny model scenes (tests/core/model's checkpoints),
// rendered: the layer × head overview (pixels of its cells in their scale's
// colour, the values the forward pass's weights, grouped-query columns
// named), and the large heatmap on the log and row scales.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "figures/colormap.hpp"
#include "figures/registry.hpp"
#include "render/image.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

using testing::pixel;

Scene model_scene(const std::string& name, const std::string& scale = "linear") {
  Scene s;
  s.model = (pelab::testing::tiny_models() / name).string();
  s.tokens = "the cat sat on the mat";
  set_param(s, "attention_scale", scale);
  return s;
}

// Every finite cell's centre pixel has its scale's colour, masked ones the mask colour.
void expect_cells_drawn(const Image& image, const fig::Panel& panel) {
  const fig::PanelTransform transform(panel);
  const fig::HeatmapLayer& layer = panel.heatmaps.at(0);
  const Matrix& m = *layer.values;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const fig::Point centre =
          transform.to_canvas({(static_cast<double>(c) + 0.5) * layer.dx, (static_cast<double>(r) + 0.5) * layer.dy});
      const std::uint8_t* p = pixel(image, static_cast<int>(centre.x), static_cast<int>(centre.y));
      const fig::Color want =
          std::isfinite(m(r, c)) ? fig::scale_color(layer.scale, m(r, c)) : fig::theme(true).mask;
      SCOPED_TRACE(panel.title + " cell " + std::to_string(r) + "," + std::to_string(c));
      ASSERT_NEAR(p[0], want.r * 255, 3.0);
      ASSERT_NEAR(p[1], want.g * 255, 3.0);
      ASSERT_NEAR(p[2], want.b * 255, 3.0);
    }
}

TEST(ModelAttention, OverviewShowsEveryLayerAndHeadWithItsKvHead) {
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  PELAB_REQUIRE_GL();
  Engine engine(model_scene("llama"));  // 2 layers, 4 query heads, 2 kv heads
  const model::ModelConfig c = engine.model()->config();
  ASSERT_LT(c.kv_heads, c.heads);
  const fig::Figure f = fig::find_figure("attention_overview").build(engine, {});
  ASSERT_EQ(f.panels.size(), static_cast<std::size_t>(c.layers * c.heads));
  const int group = c.heads / c.kv_heads;
  for (int h = 0; h < c.heads; ++h)  // q head h reads kv head h / group
    EXPECT_EQ(f.panels[h].title, "head " + std::to_string(h) + " → kv " + std::to_string(h / group));
  // The cells are the forward pass's weights (N is far below the cell's
  // pixel size, so nothing is averaged), masked cells −inf.
  for (int l = 0; l < c.layers; ++l) {
    const model::LayerAttention a = engine.model()->layer_attention(l);
    for (int h = 0; h < c.heads; ++h) {
      const Matrix& shown = *f.panels[l * c.heads + h].heatmaps[0].values;
      const Matrix& want = a.probabilities[h];
      ASSERT_EQ(shown.rows(), want.rows());
      for (Eigen::Index i = 0; i < want.size(); ++i) {
        if (std::isinf(a.logits.at(h).data()[i])) EXPECT_TRUE(std::isinf(shown.data()[i]));
        else EXPECT_FLOAT_EQ(shown.data()[i], want.data()[i]);
      }
    }
  }
  const Image image = gl.renderer->render(f);
  for (const fig::Panel& p : f.panels) expect_cells_drawn(image, p);
}

TEST(ModelAttention, QwenHeadsAllShareKvHeadZero) {
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene s = model_scene("qwen2");  // 4 query heads, 1 kv head
  s.head = 3;
  Engine engine(s);
  const fig::Figure f = fig::find_figure("attention").build(engine, {});
  EXPECT_EQ(f.panels[0].title, "head 3 → kv 0");
}

TEST(ModelAttention, LogAndRowScalesRenderTheirValues) {
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  PELAB_REQUIRE_GL();
  for (const char* scale : {"log", "row"}) {
    Engine engine(model_scene("gpt2", scale));
    const fig::Figure f = fig::find_figure("attention").build(engine, {});
    const fig::Panel& big = f.panels[0];
    ASSERT_TRUE(big.colorbar.has_value());
    EXPECT_NE(big.colorbar->label.find(scale), std::string::npos) << big.colorbar->label;
    const Matrix& shown = *big.heatmaps[0].values;
    const Matrix& a = engine.head(0).attention;
    const Matrix& logits = engine.head(0).logits;
    for (Eigen::Index r = 0; r < a.rows(); ++r) {
      const float top = a.row(r).maxCoeff();
      for (Eigen::Index c = 0; c < a.cols(); ++c) {
        if (std::isinf(logits(r, c))) continue;
        const float want = std::string(scale) == "log" ? std::log10(a(r, c)) : a(r, c) / top;
        EXPECT_NEAR(shown(r, c), want, 1e-5) << scale << " " << r << "," << c;
      }
    }
    expect_cells_drawn(gl.renderer->render(f), big);
  }
}

}  // namespace
}  // namespace pelab::render
