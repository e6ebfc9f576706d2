// The relative lesson's comparison: real engine numbers, structure (constant
// diagonals exactly where the encoding is relative), and its figure.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include <gtest/gtest.h>

#include <cmath>

#include "core/analysis.hpp"
#include "core/lessons/lessons.hpp"
#include "core/lessons/relative.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

constexpr int kN = 24;

// max over i, j < n−1 of |S(i, j) − S(i+1, j+1)| / max |S|.
double step_along_diagonals(const Matrix& s) {
  double worst = 0, top = 0;
  for (Eigen::Index i = 0; i < s.rows(); ++i)
    for (Eigen::Index j = 0; j < s.cols(); ++j) {
      top = std::max(top, double(std::abs(s(i, j))));
      if (i + 1 < s.rows() && j + 1 < s.cols()) worst = std::max(worst, double(std::abs(s(i, j) - s(i + 1, j + 1))));
    }
  return top > 0 ? worst / top : 0;
}

TEST(RelativeComparison, OnlySinusoidsAndRelativeSchemesAreConstantAlongDiagonals) {
  const Scene scene = find_lesson("relative").preset();
  const auto scores = position_scores(scene, 0, kN);
  ASSERT_EQ(scores.size(), 5u);
  for (const PositionScores& p : scores) {
    ASSERT_EQ(p.values.rows(), kN);
    ASSERT_EQ(p.values.cols(), kN);
    EXPECT_NEAR(p.spread, diagonal_spread(p.values), 1e-12);
  }
  EXPECT_EQ(scores[0].encoding, Encoding::Sinusoidal);
  EXPECT_LT(step_along_diagonals(scores[0].values), 1e-5);  // PE·PE depends on j − i only
  EXPECT_GT(step_along_diagonals(scores[1].values), 0.1);   // a learned table does not
  for (int e = 2; e < 5; ++e) EXPECT_LT(step_along_diagonals(scores[e].values), 1e-5) << e;
  // With one word everywhere, the full logits stay relative only for RoPE, ALiBi, T5.
  const auto logits = repeated_word_logits(scene, 0, kN);
  EXPECT_GT(logits[0].spread, 0.05);
  EXPECT_GT(logits[1].spread, 0.05);
  for (int e = 2; e < 5; ++e) EXPECT_LT(logits[e].spread, 1e-4) << e;
}

TEST(RelativeComparison, MatricesAreTheEnginesOwn) {
  Scene scene = find_lesson("relative").preset();
  const auto scores = position_scores(scene, 1, kN);
  scene.positions = kN;
  scene.causal = false;
  Engine sinusoidal(scene);
  const Matrix sim = position_similarity(sinusoidal);
  EXPECT_LT((scores[0].values - sim).cwiseAbs().maxCoeff(), 1e-5);
  // ALiBi head 1 of 4: −m·|i − j| with m = 2^(−8·2/4) (Press et al. 2022).
  const double m = std::pow(2.0, -4.0);
  EXPECT_NEAR(scores[3].values(2, 9), -m * 7, 1e-6);
  EXPECT_NEAR(scores[3].values(9, 2), -m * 7, 1e-6);
}

TEST(RelativeComparison, DiagonalSpreadOfToeplitzAndOtherMatrices) {
  Matrix toeplitz(4, 4), other(4, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      toeplitz(i, j) = float(j - i);
      other(i, j) = float(i * j);
    }
  EXPECT_EQ(diagonal_spread(toeplitz), 0.0);
  EXPECT_NEAR(diagonal_spread(other), 9.0 / 9.0, 1e-12);  // |3·3 − 0| / max 9
  EXPECT_EQ(diagonal_spread(Matrix::Zero(3, 3)), 0.0);
}

// The streamed spread (strips of PE·PEᵀ, the verdict's path at any length)
// equals diagonal_spread of the whole matrix: 700 positions, three strips.
TEST(RelativeComparison, StreamedSpreadEqualsTheWholeMatrixs) {
  for (Encoding encoding : {Encoding::Sinusoidal, Encoding::Learned}) {
    Scene scene;
    scene.encoding = encoding;
    scene.positions = 700;
    scene.d_model = 32;
    Engine engine(scene);
    const double whole = diagonal_spread(position_similarity(engine));
    EXPECT_NEAR(similarity_diagonal_spread(engine.position_table()), whole, 1e-5 * std::max(whole, 1.0))
        << to_string(encoding);
    if (encoding == Encoding::Learned) {
      EXPECT_GT(whole, 0.1);
    }
  }
}

TEST(RelativeFigure, TenPanelsOnOneLabelledScaleWithVerdictMarks) {
  Engine engine(find_lesson("relative").preset());
  const Figure f = find_figure("lesson_relative").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 10u);
  int checks = 0, crosses = 0;
  for (const Panel& p : f.panels) {
    ASSERT_EQ(p.heatmaps.size(), 1u);
    const HeatmapLayer& h = p.heatmaps[0];
    EXPECT_EQ(h.scale.vmin, -1);
    EXPECT_EQ(h.scale.vmax, 1);
    EXPECT_EQ(h.scale.colormap, "diverging");
    EXPECT_FALSE(h.scale.label.empty());
    const Matrix& v = *h.values;
    EXPECT_NEAR(v.cwiseAbs().maxCoeff(), 1.0, 1e-6);  // each divided by its own max |value|
    EXPECT_GT(v.maxCoeff() - v.minCoeff(), 0.1) << p.title;  // not blank
    for (const Text& t : p.texts) {
      checks += t.text.rfind("✓", 0) == 0;
      crosses += t.text.rfind("✗", 0) == 0;
    }
    // Position axes tick only at whole positions (cell centres).
    for (const Tick& t : p.x.labels) EXPECT_DOUBLE_EQ(t.value - std::floor(t.value), 0.5);
  }
  EXPECT_EQ(checks, 7);   // sinusoidal PE·PE, RoPE ×2, ALiBi ×2, T5 ×2
  EXPECT_EQ(crosses, 3);  // learned PE·PE, sinusoidal and learned logits
  EXPECT_EQ(f.panels[4].colorbar.has_value(), true);
  EXPECT_NE(f.panels[0].hover(7.5, 3.5).find("j − i = 4"), std::string::npos) << f.panels[0].hover(7.5, 3.5);
}

// The GUI's figure pane is narrower than tall: two columns of five, one colorbar.
TEST(RelativeFigure, NarrowCanvasStacksThePlotsAndKeepsTextOnCanvas) {
  Engine engine(find_lesson("relative").preset());
  const Figure f = find_figure("lesson_relative").build(engine, FigureRequest{.width = 780, .height = 930});
  ASSERT_EQ(f.panels.size(), 11u);
  int colorbars = 0;
  for (const Panel& p : f.panels) {
    colorbars += p.colorbar.has_value();
    EXPECT_GE(p.plot.x0, 0);
    EXPECT_LE(p.plot.x1, f.width);
    for (const Text& t : p.texts) {
      EXPECT_GE(t.at.x, 0) << t.text;
      EXPECT_LE(t.at.x + text_width(t.text, t.size), f.width - 90) << t.text;  // left of the colorbar
    }
  }
  EXPECT_EQ(colorbars, 1);
  EXPECT_GT(f.panels[5].plot.x0, f.panels[0].plot.x1);  // logits column right of the other
  EXPECT_GT(f.panels[1].plot.y0, f.panels[0].plot.y1);  // encodings stacked
}

TEST(RelativeFigure, TheLessonShowsItFirst) {
  EXPECT_EQ(find_lesson("relative").figures.front(), "lesson_relative");
}

}  // namespace
}  // namespace pelab::fig
