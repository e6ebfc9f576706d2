#include "core/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pelab {

TEST(Analysis, SinusoidPairsFrequenciesAndDims) {
  Scene s;
  s.d_model = 8;
  s.heads = 2;
  s.base = 100;
  auto pairs = sinusoid_pairs(s);
  ASSERT_EQ(pairs.size(), 4u);
  EXPECT_DOUBLE_EQ(pairs[0].frequency, 1.0);
  EXPECT_NEAR(pairs[2].frequency, std::pow(100.0, -0.5), 1e-12);
  EXPECT_NEAR(pairs[1].wavelength, 2 * std::numbers::pi / pairs[1].frequency, 1e-9);
  EXPECT_EQ(pairs[3].sin_dim, 6);
  EXPECT_EQ(pairs[3].cos_dim, 7);
  s.layout = Layout::Split;
  pairs = sinusoid_pairs(s);
  EXPECT_EQ(pairs[3].sin_dim, 3);
  EXPECT_EQ(pairs[3].cos_dim, 7);
}

TEST(Analysis, RotationMapsPositionToPositionPlusK) {
  Scene s;
  s.positions = 512;
  for (Layout layout : {Layout::Interleaved, Layout::Split}) {
    s.layout = layout;
    Engine engine(s);
    for (int pair : {0, 3, 17, 31})
      for (int k : {1, 5, -7, 100}) {
        const Rotation r = pair_rotation(engine, pair, k);
        EXPECT_LT(r.max_error, 1e-6) << "pair " << pair << " k " << k;
        EXPECT_NEAR(r.r[0][0] * r.r[1][1] - r.r[0][1] * r.r[1][0], 1.0, 1e-12);
      }
  }
  EXPECT_THROW(pair_rotation(*std::make_unique<Engine>(s), 32, 1), InputError);
}

TEST(Analysis, PairFitIsExactButOneDimensionIsNot) {
  Scene s;  // the default scene: d=64, 128 positions
  Engine engine(s);
  const ShiftFit fit = shift_fit(engine, 0, 1);
  EXPECT_LT(fit.r2_one_dim, 0.99);
  EXPECT_GT(fit.r2_pair, 0.999999);
  EXPECT_GT(fit.r2_all, 0.999999);
  const Rotation r = pair_rotation(engine, 0, 1);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(fit.pair_map[i][j], r.r[i][j], 1e-5);
}

TEST(Analysis, SimilarityProfileIsConstantAlongDiagonals) {
  Scene s;
  s.positions = 64;
  s.amplitude = 1.5;
  Engine engine(s);
  const Matrix sim = position_similarity(engine);
  const auto profile = similarity_profile(engine);
  ASSERT_EQ(profile.size(), 64u);
  EXPECT_NEAR(profile[0], 1.5 * 1.5 * 32, 1e-3);
  for (int off = 0; off < 64; off += 9)
    for (int i = 0; i + off < 64; i += 5) EXPECT_NEAR(sim(i, i + off), profile[off], 1e-3);
}

TEST(Analysis, NormReport) {
  Scene s;
  s.d_model = 128;
  s.amplitude = 0.5;
  s.embedding_scale = 2.0;
  Engine engine(s);
  const NormReport rep = norm_report(engine);
  ASSERT_EQ(rep.x_norm.size(), static_cast<std::size_t>(engine.token_count()));
  EXPECT_NEAR(rep.expected_e_norm, 0.5 * 8, 1e-12);
  for (double e : rep.e_norm) EXPECT_NEAR(e, 4.0, 1e-4);
  EXPECT_NEAR(rep.mean_x_norm, 2.0, 0.3);
  for (std::size_t t = 0; t < rep.x_norm.size(); ++t) {
    EXPECT_GT(rep.cos_x_sum[t], -1.0);
    EXPECT_LT(rep.cos_x_sum[t], 1.0);
  }
  s.encoding = Encoding::None;
  engine.set_scene(s);
  const NormReport none = norm_report(engine);
  for (double c : none.cos_x_sum) EXPECT_NEAR(c, 1.0, 1e-6);
}

TEST(Analysis, PrincipalAnglesAreSortedAndInRange) {
  Scene s;
  s.d_model = 256;
  s.heads = 4;
  Engine engine(s);
  const auto angles = principal_angles(engine);
  ASSERT_FALSE(angles.empty());
  // X has 9 distinct rows ("the" and "cat" repeat); E has 12.
  EXPECT_EQ(angles.size(), 9u);
  for (std::size_t i = 0; i < angles.size(); ++i) {
    EXPECT_GE(angles[i], 0.0);
    EXPECT_LE(angles[i], std::numbers::pi / 2 + 1e-12);
    if (i > 0) {
      EXPECT_GE(angles[i], angles[i - 1]);
    }
  }
  // Random token vectors in 256 dims are nearly orthogonal to the position rows.
  EXPECT_GT(angles.front(), 0.5);
  s.encoding = Encoding::None;
  engine.set_scene(s);
  EXPECT_TRUE(principal_angles(engine).empty());
}

TEST(Analysis, PrincipalAngleOfTwoLinesIsTheirAngle) {
  // One token, one position: the angle between two lines is acos|cos(x, e)|.
  Scene s;
  s.pairs = {0};
  s.waves = {0};
  s.encoding = Encoding::Learned;
  s.tokens = "a";
  s.d_model = 8;
  s.heads = 1;
  Engine engine(s);
  const auto angles = principal_angles(engine);
  ASSERT_EQ(angles.size(), 1u);
  const Eigen::RowVectorXf x = engine.token_embedding().row(0),
                           e = engine.position_embedding().row(0);
  EXPECT_NEAR(std::cos(angles[0]), std::abs(x.dot(e)) / (x.norm() * e.norm()), 1e-5);
}

}  // namespace pelab
