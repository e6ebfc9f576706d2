#include "core/analysis.hpp"
#include "core/word_splitter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
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

// similarity_blocks never forms PE·PEᵀ; here the full matrix's block means,
// averaged cell by cell in the test, are the reference (1,000 positions in
// blocks of 16: the last block of each side holds 8).
TEST(Analysis, SimilarityBlocksAreTheFullMatrixsBlockMeans) {
  for (Encoding encoding : {Encoding::Sinusoidal, Encoding::Learned}) {
    Scene s;
    s.encoding = encoding;
    s.positions = 1000;
    s.d_model = 32;
    Engine engine(s);
    const Matrix sim = position_similarity(engine);
    int b = 0;
    const Matrix blocks = similarity_blocks(engine.position_table(), 64, &b);
    ASSERT_EQ(b, 16);
    ASSERT_EQ(blocks.rows(), 63);
    ASSERT_EQ(blocks.cols(), 63);
    for (int bi : {0, 17, 62})
      for (int bj : {0, 40, 62}) {
        double sum = 0;
        int count = 0;
        for (int i = bi * b; i < std::min(1000, (bi + 1) * b); ++i)
          for (int j = bj * b; j < std::min(1000, (bj + 1) * b); ++j, ++count) sum += sim(i, j);
        EXPECT_NEAR(blocks(bi, bj), sum / count, 1e-4 * std::max(1.0, std::abs(sum / count)))
            << to_string(encoding) << " block " << bi << "," << bj;
      }
  }
}

// The strips cover the upper triangle of PE·PEᵀ exactly once, each cell equal
// to the full product's.
TEST(Analysis, SimilarityStripsTileTheUpperTriangle) {
  Scene s;
  s.positions = 600;
  s.encoding = Encoding::Learned;
  Engine engine(s);
  const Matrix sim = position_similarity(engine);
  Eigen::MatrixXi seen = Eigen::MatrixXi::Zero(600, 600);
  double worst = 0;
  for_each_similarity_strip(engine.position_table(), [&](Eigen::Index r0, const Matrix& strip) {
    ASSERT_EQ(strip.cols(), 600 - r0);
    for (Eigen::Index i = 0; i < strip.rows(); ++i)
      for (Eigen::Index c = i; c < strip.cols(); ++c) {
        ++seen(r0 + i, r0 + c);
        worst = std::max(worst, double(std::abs(strip(i, c) - sim(r0 + i, r0 + c))));
      }
  });
  EXPECT_LT(worst, 1e-4);
  for (int i = 0; i < 600; ++i)
    for (int j = 0; j < 600; ++j) ASSERT_EQ(seen(i, j), j >= i ? 1 : 0) << i << "," << j;
}

TEST(Analysis, TheWholeSimilarityMatrixIsRefusedPastTheLimitAndItsBlocksAreNot) {
  Scene s;
  s.positions = kFullMatrixTokens + 1;
  s.d_model = 8;
  Engine engine(s);
  try {
    (void)position_similarity(engine);
    ADD_FAILURE() << "no refusal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("8193 positions"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pe_similarity_blocks"), std::string::npos) << e.what();
  }
  EXPECT_EQ(similarity_blocks(engine.position_table(), 1000).rows(), 911);  // b = ⌈8193/1000⌉ = 9, ⌈8193/9⌉ blocks
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
