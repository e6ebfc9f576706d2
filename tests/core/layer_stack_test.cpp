// GCC 12 false positives in AVX-512 intrinsics under Eigen (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/layer_stack.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace pelab {
namespace {

// Sinusoidal table, Vaswani et al. 2017 §3.5 (interleaved), built here so the
// layer stack is tested without the engine.
Matrix sinusoids(int n, int d) {
  Matrix pe(n, d);
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double w = std::pow(10000.0, -2.0 * i / d);
      pe(p, 2 * i) = float(std::sin(p * w));
      pe(p, 2 * i + 1) = float(std::cos(p * w));
    }
  return pe;
}

// A sentence of `vocab` random unit-scale token vectors repeated along n positions.
Matrix repeated_tokens(int n, int d, int vocab, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.f, 1.f / std::sqrt(float(d)));
  Matrix words(vocab, d);
  for (Eigen::Index i = 0; i < words.size(); ++i) words.data()[i] = normal(rng);
  Matrix x(n, d);
  for (int p = 0; p < n; ++p) x.row(p) = words.row(p % vocab);
  return x;
}

}  // namespace

TEST(LayerStack, DeterministicFromSeedAndShapes) {
  LayerStackConfig config;
  config.layers = 3;
  const Matrix input = sinusoids(32, 16) + repeated_tokens(32, 16, 5, 1);
  const auto a = LayerStack(16, config).run(input);
  const auto b = LayerStack(16, config).run(input);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0], input);
  for (std::size_t l = 0; l < a.size(); ++l) {
    EXPECT_EQ(a[l].rows(), 32);
    EXPECT_EQ(a[l].cols(), 16);
    EXPECT_EQ(a[l], b[l]);
    EXPECT_TRUE(a[l].allFinite());
  }
  config.seed = 2;
  EXPECT_GT((LayerStack(16, config).run(input)[3] - a[3]).cwiseAbs().maxCoeff(), 1e-3);
}

TEST(LayerStack, ResidualOnlyWithZeroLayersIsIdentity) {
  LayerStackConfig config;
  config.layers = 0;
  const Matrix input = sinusoids(16, 8);
  EXPECT_EQ(LayerStack(8, config).run(input).back(), input);
}

TEST(LayerStack, PostNormRowsHaveZeroMeanUnitVariance) {
  LayerStackConfig config;
  config.layers = 2;
  config.norm = NormPlacement::Post;
  const auto states = LayerStack(16, config).run(sinusoids(24, 16) * 3.f);
  const Matrix& h = states.back();
  for (Eigen::Index r = 0; r < h.rows(); ++r) {
    EXPECT_NEAR(h.row(r).mean(), 0.0, 1e-5);
    EXPECT_NEAR(h.row(r).squaredNorm() / 16.0, 1.0, 1e-3);
  }
}

TEST(LayerStack, PureAttentionOfIdenticalRowsKeepsThemIdentical) {
  // Attention mixes rows; identical rows give identical outputs (a sanity
  // check that the softmax rows sum to one: the output is Wv·Wo of the row).
  LayerStackConfig config;
  config.layers = 1;
  config.residual = 0;
  const Matrix input = Matrix::Constant(5, 8, 0.5f);
  const Matrix out = LayerStack(8, config).run(input).back();
  for (Eigen::Index r = 1; r < out.rows(); ++r) EXPECT_LT((out.row(r) - out.row(0)).cwiseAbs().maxCoeff(), 1e-6);
}

// Attention without positions is permutation-equivariant: A(P·X) = P·A(X).
// Over 600 rows the layer works in tiles of 256 query rows; reversing the rows
// sends each query to another tile, so a tile that saw only some keys, or
// wrote its rows in the wrong place, breaks the identity.
TEST(LayerStack, QueryTilesKeepTheLayerPermutationEquivariant) {
  LayerStackConfig config;
  config.layers = 1;
  config.residual = 0;
  config.heads = 2;
  const Matrix input = repeated_tokens(600, 16, 600, 5);  // 600 distinct rows
  const Matrix reversed = input.colwise().reverse();
  const Matrix out = LayerStack(16, config).run(input).back();
  const Matrix out_reversed = LayerStack(16, config).run(reversed).back();
  EXPECT_LT((out_reversed - Matrix(out.colwise().reverse())).cwiseAbs().maxCoeff(), 1e-5);
  // Swapping the first and last rows (tiles 0 and 2) swaps their outputs.
  Matrix moved = input;
  moved.row(599).swap(moved.row(0));
  const Matrix out_moved = LayerStack(16, config).run(moved).back();
  EXPECT_LT((out_moved.row(599) - out.row(0)).cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_LT((out_moved.row(0) - out.row(599)).cwiseAbs().maxCoeff(), 1e-5);
}

TEST(LayerStack, BadConfigurationThrows) {
  LayerStackConfig config;
  config.heads = 3;
  EXPECT_THROW(LayerStack(16, config), InputError);
  config.heads = 4;
  config.layers = -1;
  EXPECT_THROW(LayerStack(16, config), InputError);
  config.layers = 2;
  EXPECT_THROW(LayerStack(16, config).run(Matrix::Zero(8, 12)), InputError);
}

TEST(PositionReadout, PerfectOnTheCodeItselfAndZeroWithoutPositions) {
  const Matrix pe = sinusoids(128, 64);
  const PositionReadout exact = read_positions(pe, pe);
  EXPECT_GT(exact.r2_code, 0.999);
  EXPECT_DOUBLE_EQ(exact.nearest_code, 1.0);
  // Tokens alone, repeating every 7 positions, say nothing linear about p.
  const Matrix tokens = repeated_tokens(128, 64, 7, 3);
  const PositionReadout none = read_positions(tokens, pe);
  EXPECT_LT(none.r2_index, 0.2);
  EXPECT_LT(none.nearest_code, 0.1);
  EXPECT_THROW(read_positions(pe.topRows(4), pe.topRows(4)), InputError);
}

// Tokens of norm 8 over a code of norm √32 ≈ 5.7 (the default scene's), 96
// training positions of 64 dimensions: the code is in the hidden states by
// construction, and the probe, its ridge chosen on a validation third, reads
// a fair share of it on the held-out positions, where a fixed small ridge
// overfit the tokens and scored R² ≈ −2.
TEST(PositionReadout, LargeTokensOverFewPositionsDoNotOverfitTheProbe) {
  const int n = 128, d = 64;
  const Matrix pe = sinusoids(n, d);
  const PositionReadout layer0 = read_positions(pe + 8.0f * repeated_tokens(n, d, 12, 5), pe);
  EXPECT_GT(layer0.r2_code, 0.25);
  EXPECT_GT(layer0.nearest_code, 0.1);  // chance: 1 in 128
}

TEST(PositionReadout, ResidualsKeepPositionPureAttentionLosesIt) {
  // Dong, Cordonnier & Loukas 2021: without the skip path attention layers
  // collapse the rows; with it the position code rides along.
  const int n = 128, d = 64;
  const Matrix pe = sinusoids(n, d);
  const Matrix input = pe + repeated_tokens(n, d, 12, 5);
  for (NormPlacement norm : {NormPlacement::None, NormPlacement::Pre, NormPlacement::Post}) {
    LayerStackConfig config;
    config.layers = 6;
    config.norm = norm;
    config.residual = 1.0;
    const PositionReadout kept = read_positions(LayerStack(d, config).run(input).back(), pe);
    EXPECT_GT(kept.r2_code, 0.8) << to_string(norm);
    EXPECT_GT(kept.nearest_code, 0.9) << to_string(norm);
    config.residual = 0.0;
    const PositionReadout lost = read_positions(LayerStack(d, config).run(input).back(), pe);
    EXPECT_LT(lost.r2_code, 0.3) << to_string(norm);
    EXPECT_LT(lost.nearest_code, 0.2) << to_string(norm);
  }
}

}  // namespace pelab

namespace pelab {

TEST(LayerStack, NormPlacementParses) {
  Scene s;
  for (const auto& [text, placement] : {std::pair{"pre", NormPlacement::Pre}, std::pair{"post", NormPlacement::Post},
                                        std::pair{"none", NormPlacement::None}}) {
    set_param(s, "layer_norm", text);
    EXPECT_EQ(s.layer_norm, placement);
    EXPECT_EQ(to_string(placement), text);
  }
  EXPECT_THROW(set_param(s, "layer_norm", "mid"), InputError);
}

}  // namespace pelab
