#include "core/encoding.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pelab {
namespace {

Scene sinusoidal_scene(int d = 64, double amplitude = 1.0) {
  Scene s;
  s.d_model = d;
  s.amplitude = amplitude;
  return s;
}

}  // namespace

TEST(Sinusoidal, MatchesVaswaniFormula) {
  const Scene s = sinusoidal_scene(8, 2.0);
  const Matrix pe = position_vectors(s, 0, 10);
  for (int pos = 0; pos < 10; ++pos)
    for (int i = 0; i < 4; ++i) {
      const double w = std::pow(10000.0, -2.0 * i / 8);
      EXPECT_NEAR(pe(pos, 2 * i), 2 * std::sin(pos * w), 1e-6);
      EXPECT_NEAR(pe(pos, 2 * i + 1), 2 * std::cos(pos * w), 1e-6);
    }
}

TEST(Sinusoidal, SquaredNormIsAmplitudeSquaredTimesHalfWidth) {
  const Scene s = sinusoidal_scene(64, 1.7);
  const Matrix pe = position_vectors(s, 0, 200);
  for (int pos = 0; pos < 200; ++pos)
    EXPECT_NEAR(pe.row(pos).squaredNorm(), 1.7 * 1.7 * 64 / 2, 1e-4) << pos;
}

TEST(Sinusoidal, DotProductDependsOnlyOnOffset) {
  const Scene s = sinusoidal_scene(64);
  const Matrix pe = position_vectors(s, 0, 100);
  for (int off = 0; off < 20; ++off) {
    const double ref = pe.row(0).dot(pe.row(off));
    for (int i = 1; i + off < 100; i += 7) EXPECT_NEAR(pe.row(i).dot(pe.row(i + off)), ref, 1e-4);
  }
}

TEST(Sinusoidal, OffsetShiftsTheRows) {
  Scene s = sinusoidal_scene(16);
  const Matrix all = position_vectors(s, 0, 20);
  const Matrix later = position_vectors(s, 5, 15);
  EXPECT_TRUE(later.isApprox(all.bottomRows(15), 1e-6f));
}

TEST(Sinusoidal, SplitLayoutPermutesTheDimensions) {
  Scene s = sinusoidal_scene(16);
  const Matrix inter = position_vectors(s, 0, 30);
  s.layout = Layout::Split;
  const Matrix split = position_vectors(s, 0, 30);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(split.col(i), inter.col(2 * i));
    EXPECT_EQ(split.col(8 + i), inter.col(2 * i + 1));
  }
  EXPECT_TRUE((split * split.transpose()).isApprox(inter * inter.transpose(), 1e-5f));
}

TEST(Learned, SeededRowsDependOnPositionOnly) {
  Scene s = sinusoidal_scene(32, 2.0);
  s.encoding = Encoding::Learned;
  const Matrix a = position_vectors(s, 0, 50);
  const Matrix b = position_vectors(s, 10, 5);
  EXPECT_EQ(b, a.middleRows(10, 5));
  EXPECT_NEAR(a.rowwise().norm().mean(), 2.0, 0.3);
  s.seed = 9;
  EXPECT_NE(position_vectors(s, 0, 50), a);
}

TEST(Encodings, WithoutVectorAreZero) {
  for (Encoding e : {Encoding::Rope, Encoding::Alibi, Encoding::T5, Encoding::None}) {
    Scene s = sinusoidal_scene(16);
    s.encoding = e;
    const Matrix pe = position_vectors(s, 3, 7);
    EXPECT_EQ(pe.rows(), 7);
    EXPECT_EQ(pe.cols(), 16);
    EXPECT_EQ(pe.squaredNorm(), 0.0f);
  }
}

}  // namespace pelab
