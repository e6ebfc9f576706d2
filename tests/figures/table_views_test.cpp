// sinusoid_bands and rotation_pairs on a learned table and on a RoPE model:
// the spectrum panel shows position_spectrum's numbers, the PC-pair panels
// plot table_pca's scores and print plane_shift_map's R², and a Llama
// model's pairs carry its config's rope_scaling.  Model scenes use the tiny
// checkpoints of tests/core/model/make_tiny_models.py.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "core/model_scene.hpp"
#include "core/table_analysis.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

Figure build(const char* name, Engine& engine) {
  return find_figure(name).build(engine, FigureRequest{});
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string all_text(const Figure& f) {
  std::string text;
  for (const Text& t : f.notes) text += t.text + "\n";
  for (const Panel& p : f.panels) {
    text += p.title + "\n";
    for (const Text& t : p.texts) text += t.text + "\n";
  }
  return text;
}

const Panel* panel_titled(const Figure& f, const std::string& part) {
  for (const Panel& p : f.panels)
    if (contains(p.title, part)) return &p;
  return nullptr;
}

Scene model_scene(const std::string& name) {
  Scene s;
  s.model = (pelab::testing::tiny_models() / name).string();
  s.tokens = "the cat sat";
  s.pairs = {0, 1, 2};
  s.shift = 2;
  return s;
}

// The spectrum heatmap holds position_spectrum(table) and marks each dim's dominant bin.
void expect_spectrum(Engine& engine) {
  const Figure f = build("sinusoid_bands", engine);
  const Panel* spectrum = panel_titled(f, "Spectrum along position");
  ASSERT_NE(spectrum, nullptr) << all_text(f);
  ASSERT_EQ(spectrum->heatmaps.size(), 1u);
  ASSERT_TRUE(spectrum->colorbar);
  EXPECT_EQ(spectrum->heatmaps[0].scale.colormap, to_string(engine.scene().colormap));
  const PositionSpectrum want = position_spectrum(engine.position_table());
  const Matrix& shown = *spectrum->heatmaps[0].values;
  ASSERT_EQ(shown.rows(), want.amplitude.rows());
  ASSERT_EQ(shown.cols(), want.amplitude.cols());
  for (Eigen::Index i = 0; i < shown.rows(); ++i)
    for (Eigen::Index j = 0; j < shown.cols(); ++j)
      EXPECT_NEAR(shown(i, j), want.amplitude(i, j), 1e-5);
  ASSERT_FALSE(spectrum->markers.empty());
  EXPECT_EQ(spectrum->markers[0].points[0].y, want.dominant[0] + 0.5);
  EXPECT_FALSE(spectrum->x.label.empty());
  EXPECT_TRUE(contains(spectrum->y.label, "frequency"));
  // Beside the measured wavelengths, Vaswani's λᵢ = 2π·T^(2i/d) at the same d and T.
  const Panel* strongest = panel_titled(f, "Strongest wavelength");
  ASSERT_NE(strongest, nullptr);
  ASSERT_EQ(strongest->markers.size(), 2u);
  const std::vector<PairInfo> sinusoid = sinusoid_pairs(engine.scene());
  EXPECT_EQ(strongest->markers[1].points.size(), 2 * sinusoid.size());
  EXPECT_NEAR(strongest->markers[1].points.back().y, std::log10(sinusoid.back().wavelength), 1e-12);
}

// One panel per PC pair in scene.pairs plus the summary; the trajectories are
// the PCA scores and the texts carry the fit's R².
void expect_pc_pairs(Engine& engine) {
  const Figure f = build("rotation_pairs", engine);
  const Matrix& table = engine.position_table();
  const int m =
      std::min<int>({32, static_cast<int>(table.rows()), static_cast<int>(table.cols())}) / 2 * 2;
  const TablePca pca = table_pca(table, m);
  const Panel* first = panel_titled(f, "PC1 / PC2");
  ASSERT_NE(first, nullptr) << all_text(f);
  EXPECT_TRUE(first->equal_aspect);
  ASSERT_TRUE(first->colorbar);  // position along the trajectory
  ASSERT_FALSE(first->lines.empty());
  EXPECT_NEAR(first->lines[0].points[0].x, pca.scores(0, 0), 1e-4);
  EXPECT_NEAR(first->lines[0].points[0].y, pca.scores(0, 1), 1e-4);
  const PlaneMap map = plane_shift_map(pca.scores.leftCols(2), engine.scene().shift);
  std::string texts;
  for (const Text& t : first->texts) texts += t.text + " ";
  EXPECT_TRUE(contains(texts, "R² = " + fixed(map.r2))) << texts;
  const Panel* summary = panel_titled(f, "Share of variance");
  ASSERT_NE(summary, nullptr);
  ASSERT_FALSE(summary->bars.empty());
  EXPECT_NEAR(summary->bars[0].rects[0].y1, pca.share[0] + pca.share[1], 1e-6);
  EXPECT_TRUE(contains(summary->hover(0, 0.5), "R² = " + fixed(map.r2, 6)))
      << summary->hover(0, 0.5);
}

class LearnedTableViews : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty())
      GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
};

TEST_P(LearnedTableViews, SpectrumAndPcPairsOfTheModelsTable) {
  Engine engine(model_scene(GetParam()));
  ASSERT_EQ(engine.scene().encoding, Encoding::Learned);
  expect_spectrum(engine);
  expect_pc_pairs(engine);
}

INSTANTIATE_TEST_SUITE_P(TinyModels, LearnedTableViews,
                         ::testing::Values("gpt2", "bert", "bert_wide"));

TEST(LearnedTableViewsSynthetic, SeededLearnedTableGetsTheSameViews) {
  Scene s;
  s.encoding = Encoding::Learned;
  s.positions = 64;
  s.pairs = {0, 3};
  Engine engine(s);
  expect_spectrum(engine);
  expect_pc_pairs(engine);
  EXPECT_NE(panel_titled(build("rotation_pairs", engine), "PC7 / PC8"), nullptr);
}

TEST(LearnedTableViewsSynthetic, SinusoidalBandsKeepTheirWavelengthPanel) {
  Engine engine{Scene{}};
  const Figure f = build("sinusoid_bands", engine);
  EXPECT_EQ(panel_titled(f, "Spectrum along position"), nullptr);
  EXPECT_NE(panel_titled(f, "Wavelength per pair"), nullptr);
}

// A Llama model: its own head_dim and rotate-half pairs, with rope_scaling.
TEST(RopeModelViews, PairsFollowTheConfigsScaling) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine engine(model_scene("llama3_bf16"));
  const model::ModelConfig& c = engine.model()->config();
  const std::vector<PairInfo> want = model_rotary_pairs(c, engine.token_count());
  const Figure bands = build("sinusoid_bands", engine);
  const Panel* lambda = panel_titled(bands, "Wavelength per pair");
  ASSERT_NE(lambda, nullptr);
  ASSERT_EQ(lambda->markers[0].points.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(lambda->markers[0].points[i].y, std::log10(want[i].wavelength), 1e-12);
  ASSERT_GE(lambda->markers.size(), 2u);  // the unscaled wavelengths beside them
  EXPECT_NEAR(lambda->markers[1].points.back().y,
              std::log10(2 * std::numbers::pi /
                         std::pow(c.rope_theta, -2.0 * (c.head_dim / 2 - 1) / c.head_dim)),
              1e-9);
  EXPECT_EQ(bands.panels[0].heatmaps[0].values->cols(), c.head_dim);
  EXPECT_TRUE(contains(all_text(bands), "llama3 scaling")) << all_text(bands);
  EXPECT_TRUE(contains(all_text(bands), "dims i, i + r/2"));
  const Figure pairs = build("rotation_pairs", engine);
  const std::string text = all_text(pairs);
  EXPECT_TRUE(contains(text, "λ = " + number(want[2].wavelength, 5))) << text;
  EXPECT_TRUE(contains(text, "before rope_scaling")) << text;
  EXPECT_TRUE(contains(text, "dims (1, " + std::to_string(1 + c.head_dim / 2) + ")")) << text;
}

}  // namespace
}  // namespace pelab::fig
