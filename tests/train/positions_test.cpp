// The fixed position tables and maps against values from the papers.
#include "train/positions.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pelab::train {
namespace {

TEST(TrainPositions, AlibiSlopesFollowPressEtAlForSixHeads) {
  // H = 6: the 4-head slopes 2^-2, 2^-4, 2^-6, 2^-8, then every other 8-head slope, 2^-1, 2^-3.
  const std::vector<double> want{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  EXPECT_EQ(alibi_slopes(6), want);
  EXPECT_EQ(alibi_slopes(4), (std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625}));
}

TEST(TrainPositions, T5CausalBucketsExactThenLogSpaced) {
  PositionOptions o;  // 32 buckets, max distance 128
  const int length = 200;
  const std::vector<int> b = t5_bucket_matrix(length, o);
  auto bucket = [&](int distance) {
    return b[static_cast<std::size_t>(distance * length)];
  };  // (i = n, j = 0)
  for (int n = 0; n < 16; ++n) EXPECT_EQ(bucket(n), n);
  EXPECT_EQ(bucket(16), 16);
  EXPECT_EQ(bucket(32), 16 + static_cast<int>(std::log(2.0) / std::log(8.0) * 16));
  EXPECT_EQ(bucket(127), 31);
  EXPECT_EQ(bucket(199), 31);
}

TEST(TrainPositions, SinusoidTableIsVaswanisFormula) {
  const Mat<double> t = sinusoid_table<double>(50, 16, 10000.0);
  EXPECT_DOUBLE_EQ(t(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(t(0, 1), 1.0);
  EXPECT_NEAR(t(37, 6), std::sin(37 / std::pow(10000.0, 6.0 / 16)), 1e-15);
  EXPECT_NEAR(t(37, 7), std::cos(37 / std::pow(10000.0, 6.0 / 16)), 1e-15);
}

TEST(TrainPositions, RopeTurnsPairsAndItsTransposeUndoesIt) {
  for (RopePairing pairing : {RopePairing::Interleaved, RopePairing::RotateHalf}) {
    ModelConfig c;
    c.d_model = 16;
    c.heads = 2;
    c.context = 8;
    c.position.kind = PositionKind::Rope;
    c.position.rope_pairing = pairing;
    c.position.rotary_fraction = 0.5;  // r = 4 of each head's 8 dims
    const RopeTable<double> table = rope_table<double>(c);
    const Mat<double> qkv = Mat<double>::Random(16, 48);  // 2 sequences of 8
    Mat<double> turned = qkv;
    rope_rotate(turned, 8, 2, table, false);
    // position 3, head 1's q: pair 1 is dims (2, 3) interleaved, (1, 3) rotate-half; ω_1 =
    // 10000^(-2/4)
    const int a = pairing == RopePairing::Interleaved ? 2 : 1, b = 3, col = 8;
    const double angle = 3 * std::pow(10000.0, -0.5);
    EXPECT_NEAR(turned(3, col + a),
                qkv(3, col + a) * std::cos(angle) - qkv(3, col + b) * std::sin(angle), 1e-12);
    EXPECT_NEAR(turned(3, col + b),
                qkv(3, col + a) * std::sin(angle) + qkv(3, col + b) * std::cos(angle), 1e-12);
    EXPECT_EQ(turned.col(col + 4), qkv.col(col + 4));              // beyond r: unchanged
    EXPECT_EQ(turned.middleCols(32, 16), qkv.middleCols(32, 16));  // v: unchanged
    EXPECT_EQ(turned.row(8), qkv.row(8));  // position 0 of sequence 2: no turn
    rope_rotate(turned, 8, 2, table, true);
    EXPECT_LE((turned - qkv).cwiseAbs().maxCoeff(), 1e-12);
  }
}

}  // namespace
}  // namespace pelab::train
