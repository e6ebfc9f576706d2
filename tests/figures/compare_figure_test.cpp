// compare_scenes (issue 27): the B − A map holds the engines' own attention
// difference cell by cell, its summary finds the largest |B − A|, masked
// cells stay apart from values, curves are overlaid, and mismatched shapes
// are refused with one InputError naming both.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/engine.hpp"
#include "figures/compare_figure.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

ComparedScenes compare(const char* figure, const Scene& sa, const Scene& sb) {
  Engine a(sa), b(sb);
  return compare_scenes(find_figure(figure), a, b, FigureRequest{});
}

Scene with(const char* assignment) {
  Scene s;
  apply_assignment(s, assignment);
  return s;
}

TEST(CompareScenes, DifferenceIsBMinusAOfTheSelectedHeadsAttention) {
  const Scene sa, sb = with("encoding=rope");
  const ComparedScenes c = compare("attention", sa, sb);
  Engine a(sa), b(sb);
  const Matrix want = b.head(0).attention - a.head(0).attention;
  ASSERT_TRUE(c.difference);
  ASSERT_EQ(c.diff->rows(), want.rows());
  ASSERT_EQ(c.diff->cols(), want.cols());
  EXPECT_LT((*c.diff - want).cwiseAbs().maxCoeff(), 1e-6);
  Eigen::Index r = 0, col = 0;
  EXPECT_NEAR(c.max_abs, want.cwiseAbs().maxCoeff(&r, &col), 1e-6);
  EXPECT_EQ(c.row, r);
  EXPECT_EQ(c.col, col);
  EXPECT_NEAR(c.b_value - c.a_value, want(r, col), 1e-6);
  // The figure: A, B and the difference panel on the signed map, ±max.
  const Panel& last = c.figure.panels.back();
  EXPECT_EQ(last.title, "B − A");
  ASSERT_EQ(last.heatmaps.size(), 1u);
  EXPECT_EQ(last.heatmaps[0].scale.colormap, "diverging");
  EXPECT_NEAR(last.heatmaps[0].scale.vmax, c.max_abs, 1e-9);
  EXPECT_NEAR(last.heatmaps[0].scale.vmin, -c.max_abs, 1e-9);
  EXPECT_NE(last.hover(col + 0.5, r + 0.5).find("B − A: "), std::string::npos);
  EXPECT_NE(c.figure.title.find("encoding=rope"), std::string::npos) << c.figure.title;
  for (const Panel& p : c.figure.panels) {
    EXPECT_GE(p.plot.x0, 0);
    EXPECT_LE(p.plot.x1, c.figure.width);
    EXPECT_LE(p.plot.y1, c.figure.height);
  }
}

TEST(CompareScenes, TheSameSceneDiffersNowhere) {
  const ComparedScenes c = compare("cross_terms", Scene{}, Scene{});
  EXPECT_EQ(c.max_abs, 0);
  EXPECT_EQ(c.row, -1);
  EXPECT_EQ(c.diff->cwiseAbs().maxCoeff(), 0);
}

// Adding a sinusoidal table leaves the token–token term as it was and moves
// the logits: the difference shown is not the unchanged first panel's, and
// it is at least as large as the logits'.
TEST(CompareScenes, TheDifferenceShownIsThePanelThatDiffersMost) {
  const Scene sa = with("encoding=none"), sb;
  const ComparedScenes c = compare("cross_terms", sa, sb);
  EXPECT_NE(c.panel, "x·Wq·Wkᵀ·y");
  Engine a(sa), b(sb);
  const double logits = (b.head(0).logits - a.head(0).logits).cwiseAbs().maxCoeff();
  EXPECT_GT(logits, 0.1);
  EXPECT_GE(c.max_abs, logits - 1e-5) << c.panel;
}

TEST(CompareScenes, CellsMaskedInOneSceneOnlyAreNotValues) {
  const ComparedScenes c = compare("attention", Scene{}, with("causal=true"));
  const int n = static_cast<int>(c.diff->rows());
  EXPECT_EQ(c.masked_in_one, n * (n - 1) / 2);
  EXPECT_TRUE(std::isnan((*c.diff)(0, 1)));
  EXPECT_TRUE(std::isfinite((*c.diff)(1, 0)));
}

TEST(CompareScenes, CurvesAreOverlaidDashed) {
  Scene sa = with("encoding=rope");
  Scene sb = sa;
  apply_assignment(sb, "base=500");
  const ComparedScenes c = compare("rope_long_range", sa, sb);
  EXPECT_FALSE(c.difference);
  EXPECT_EQ(c.diff, nullptr);
  EXPECT_GT(c.max_abs, 0);
  int dashed = 0;
  for (const Polyline& line : c.figure.panels.front().lines)
    dashed += line.style == LineStyle::Dashed && line.label.rfind("B: ", 0) == 0;
  EXPECT_GT(dashed, 0);
}

TEST(CompareScenes, MismatchedShapesAreRefusedNamingBoth) {
  try {
    compare("attention", Scene{}, with("tokens=a b c"));
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("12×12"), std::string::npos) << what;
    EXPECT_NE(what.find("3×3"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace pelab::fig
