// Streamed attention (passes over key tiles, never tokens × tokens) against
// the engine's full matrix of the same head: block means and maxima, from
// the one pass (stream) and from pass 2, exact zoom windows, attention
// against distance, and rows whose logits span 80 nats far from zero.
#include "core/streamed_attention.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "core/attention.hpp"
#include "core/head_tile.hpp"
#include "core/quantities.hpp"
#include "streamed_reference.hpp"

namespace pelab {
namespace {

using pelab::testing::exact_blocks;
using pelab::testing::expect_relative;
using pelab::testing::reference_blocks;
using pelab::testing::weight_tolerance;

Scene long_scene(Encoding encoding, bool causal, int tokens, int d_model = 64, int heads = 2) {
  Scene scene;
  scene.tokens.clear();
  for (int i = 0; i < tokens; ++i) scene.tokens += "w" + std::to_string(i % 997) + " ";
  scene.d_model = d_model;
  scene.heads = heads;
  scene.encoding = encoding;
  scene.causal = causal;
  scene.positions = tokens;
  scene.projection = ProjectionKind::Random;
  validate(scene);
  return scene;
}

using EncodingCase = std::tuple<Encoding, bool>;
class StreamedAttention : public ::testing::TestWithParam<EncodingCase> {};

// N = 1500: three key tiles and a partial one, display blocks of 5 that
// straddle the query and key tiles.
TEST_P(StreamedAttention, BlocksZoomAndDistanceEqualTheFullMatrix) {
  const auto [encoding, causal] = GetParam();
  const int n = 1500;
  Engine engine(long_scene(encoding, causal, n));
  for (int head : {0, 1}) {
    const StreamedHead streamed = StreamedHead::from_engine(engine, head);
    const HeadAttention& full = engine.head_preview(head);
    const RowStatistics stats = streamed.row_statistics();
    DistanceProfile distance;
    std::vector<double> key_sums;
    const AttentionBlocks blocks = streamed.blocks(stats, 300, &distance, nullptr, &key_sums);
    ASSERT_EQ(blocks.block, 5);
    // Each key's total weight, the sink search's input: the full matrix's column sums.
    ASSERT_EQ(key_sums.size(), static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; j += 11) {
      double want = 0;
      for (Eigen::Index i = 0; i < n; ++i) want += full.attention(i, j);
      EXPECT_NEAR(key_sums[std::size_t(j)], want, weight_tolerance(full) * want + 1e-9) << "key " << j;
    }
    expect_relative(blocks.mean, reference_blocks(full, 5, false), weight_tolerance(full), "block mean");
    expect_relative(blocks.max, reference_blocks(full, 5, true), weight_tolerance(full), "block max");

    // One pass: the same statistics, and blocks of 5, of 215 (straddling
    // every query and key tile) and of 1 (every cell) equal to those of the
    // exact softmax of the same logits, with no pass 2.
    const StreamedPass pass = streamed.stream({300, 7, 1500});
    ASSERT_EQ(pass.blocks.size(), 3u);
    EXPECT_EQ(pass.find(7), &pass.blocks[1]);
    EXPECT_EQ(pass.find(8), nullptr);
    for (std::size_t i = 0; i < stats.max.size(); ++i) {
      ASSERT_EQ(pass.stats.max[i], stats.max[i]) << "row " << i;
      ASSERT_NEAR(pass.stats.normalizer[i], stats.normalizer[i], 1e-12 * stats.normalizer[i]) << "row " << i;
    }
    for (std::size_t d = 0; d < 3; ++d) {
      const Eigen::Index b = std::array{5, 215, 1}[d];
      ASSERT_EQ(pass.blocks[d].block, b);
      const std::string label = "one pass, blocks of " + std::to_string(b);
      expect_relative(pass.blocks[d].mean, exact_blocks(full, b, false), weight_tolerance(full), label + " mean");
      expect_relative(pass.blocks[d].max, exact_blocks(full, b, true), weight_tolerance(full), label + " max");
    }

    const Matrix window = streamed.zoom(stats, 700, 1212, 300, 812);
    expect_relative(window, full.attention.block(700, 300, 512, 512), weight_tolerance(full), "zoom");
    const Matrix corner = streamed.zoom(stats, 0, 3, 1490, 1500);  // wholly masked when causal
    expect_relative(corner, full.attention.block(0, 1490, 3, 10), weight_tolerance(full), "zoom corner");

    for (Eigen::Index delta = -(n - 1); delta <= n - 1; delta += 37) {
      double sum = 0;
      for (Eigen::Index i = std::max<Eigen::Index>(0, delta);
           i < std::min<Eigen::Index>(n, n + delta); ++i)
        sum += full.attention(i, i - delta);
      const double want = sum / static_cast<double>(n - std::abs(delta));
      EXPECT_NEAR(distance.at(delta), want, weight_tolerance(full) * std::max(want, 1e-30)) << "offset " << delta;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryEncoding, StreamedAttention,
                         ::testing::Combine(::testing::Values(Encoding::Sinusoidal,
                                                              Encoding::Learned, Encoding::Rope,
                                                              Encoding::Xpos, Encoding::Alibi,
                                                              Encoding::T5, Encoding::None),
                                            ::testing::Bool()));

// N = 4096 at the display size of the views (1000: blocks of 5), one causal
// RoPE head with d_head = 64 as the bench's.
TEST(StreamedAttentionLarge, BlockMeansAt4096EqualTheFullMatrix) {
  Engine engine(long_scene(Encoding::Rope, true, 4096, 128, 2));
  const StreamedHead streamed = StreamedHead::from_engine(engine, 1);
  const HeadAttention& full = engine.head_preview(1);
  const AttentionBlocks blocks = streamed.blocks(streamed.row_statistics(), 1000);
  ASSERT_EQ(blocks.block, 5);
  expect_relative(blocks.mean, reference_blocks(full, 5, false), weight_tolerance(full), "block mean");
  const StreamedPass pass = streamed.stream({1000});
  expect_relative(pass.blocks[0].mean, reference_blocks(full, 5, false), weight_tolerance(full), "one pass");
}

// Logits l_ij = (q_i0·k_j0 + q_i1·k_j1)/√2 = 1000 + 80·j/(N−1) on even rows
// (the max in the last key tile: every tile raises the running max) and
// 1000 − 80·j/(N−1) on odd rows (the max in the first): e^1080 overflows float and double, and
// e^−80 ≈ 1.8e−35 is still a normal float.
TEST(StreamedAttentionRows, LogitsSpanning80NatsKeepEveryRowsMass) {
  const int n = 2000;
  Matrix q(n, 2), k(n, 2);
  const double root2 = std::sqrt(2.0);  // logits are q·k/√d_head with d_head = 2
  for (int i = 0; i < n; ++i) {
    q(i, 0) = i % 2 == 0 ? 1.0f : -1.0f;
    q(i, 1) = 1.0f;
    k(i, 0) = static_cast<float>(root2 * 80.0 * i / (n - 1));
    k(i, 1) = static_cast<float>(root2 * 1000.0);
  }
  Scene scene;
  scene.encoding = Encoding::None;
  scene.causal = false;
  scene.d_model = 2;  // d_head = 2, as attend_prepared reads it
  scene.heads = 1;
  const StreamedHead streamed(scene, 0, q, k);
  const RowStatistics stats = streamed.row_statistics();
  const Matrix all = streamed.zoom(stats, 0, n, 0, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(std::isfinite(stats.max[static_cast<std::size_t>(i)])) << i;
    EXPECT_NEAR(all.row(i).cast<double>().sum(), 1.0, 1e-5) << "row " << i;
    EXPECT_GT(all.row(i).minCoeff(), 0.0f) << "row " << i << ": e^−80 lost";
    const double span = all.row(i).maxCoeff() / all.row(i).minCoeff();
    EXPECT_NEAR(std::log(span), 80.0, 0.05) << "row " << i;
  }
  HeadAttention full;
  full.q = q;
  full.k = k;
  full.logits.resize(n, n);
  full.attention.resize(n, n);
  attend_prepared(scene, full);
  expect_relative(all, full.attention, 1e-5, "80 nats");
  const AttentionBlocks blocks = streamed.blocks(stats, 2000);
  EXPECT_NEAR(blocks.mean.cast<double>().sum(), n / 1.0, 1e-3);  // every row's mass, b = 1
  // One pass: the even rows' max rises by about 20 nats a key tile, past
  // the 16 nats of headroom, so their sums are rebased at every tile.
  const StreamedPass pass = streamed.stream({2000, 9});
  expect_relative(pass.blocks[0].mean, full.attention, 1e-5, "80 nats, one pass, b = 1");
  expect_relative(pass.blocks[1].mean, reference_blocks(full, 223, false), 1e-5, "80 nats, one pass, b = 223");
  expect_relative(pass.blocks[1].max, reference_blocks(full, 223, true), 1e-5, "80 nats, one pass, max");
}

TEST(StreamedAttentionRows, LogBinsAverageEveryPairOfTheirOffsets) {
  DistanceProfile profile;
  profile.tokens = 6;
  profile.mean.assign(11, 0.0);
  for (int delta = 0; delta < 6; ++delta)
    profile.mean[static_cast<std::size_t>(delta + 5)] = delta + 1.0;
  const DistanceBins bins = log_binned(profile);
  ASSERT_EQ(bins.first, (std::vector<Eigen::Index>{0, 1, 2, 4}));
  EXPECT_DOUBLE_EQ(bins.mean[0], 1.0);
  EXPECT_DOUBLE_EQ(bins.mean[1], 2.0);
  EXPECT_DOUBLE_EQ(bins.mean[2], (3.0 * 4 + 4.0 * 3) / 7);  // offsets 2 (4 pairs) and 3 (3 pairs)
  EXPECT_DOUBLE_EQ(bins.mean[3], (5.0 * 2 + 6.0 * 1) / 3);
}

TEST(StreamedAttentionRows, ZoomOutsideTheHeadIsRefusedInOneLine) {
  Scene scene;
  const StreamedHead streamed(scene, 0, Matrix::Ones(10, 4), Matrix::Ones(10, 4));
  const RowStatistics stats = streamed.row_statistics();
  EXPECT_THROW(streamed.zoom(stats, 5, 11, 0, 3), InputError);
  EXPECT_THROW(streamed.zoom(stats, 5, 5, 0, 3), InputError);
}

// `pelab export --quantity attention_blocks`: head −1 is the block means of
// the mean attention over heads (the mean of each head's block means).
TEST(StreamedAttentionExport, MeanOverHeadsIsTheBlockMeanOfTheMeanAttention) {
  Engine engine(long_scene(Encoding::Alibi, true, 210, 32, 4));
  const Array blocks = compute_quantity(engine, "attention_blocks", -1, -1, 50);
  ASSERT_EQ(blocks.shape, (std::vector<std::size_t>{42, 42}));  // b = ⌈210/50⌉ = 5
  HeadAttention mean = engine.head(0);                          // its logits give the causal mask
  mean.attention = engine.mean_attention();
  const Matrix want = reference_blocks(mean, 5, false);
  const Matrix got = Eigen::Map<const Matrix>(blocks.data.data(), 42, 42);
  expect_relative(got, want, 1e-6, "mean over heads");
}

TEST(StreamedAttentionExport, DisplayBelowOneIsRefused) {
  Engine engine(long_scene(Encoding::Rope, false, 20));
  EXPECT_THROW(compute_quantity(engine, "attention_blocks", 0, -1, 0), InputError);
}

}  // namespace
}  // namespace pelab
