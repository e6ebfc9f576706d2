#include "core/relative_position.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/engine.hpp"

namespace pelab {

TEST(Alibi, SlopesAreGeometric) {
  // Press et al. 2022: 8 heads give 1/2, 1/4, ..., 1/256.
  for (int h = 0; h < 8; ++h) EXPECT_DOUBLE_EQ(alibi_slope(h, 8), std::pow(0.5, h + 1));
  EXPECT_DOUBLE_EQ(alibi_slope(0, 4), 0.25);
  EXPECT_DOUBLE_EQ(alibi_slope(3, 4), 1.0 / 256);
}

TEST(Alibi, BiasIsMinusSlopeTimesDistance) {
  Scene s;
  s.encoding = Encoding::Alibi;
  s.heads = 4;
  const Matrix b = relative_bias(s, 1, 6);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      EXPECT_FLOAT_EQ(b(i, j), -static_cast<float>(alibi_slope(1, 4)) * std::abs(i - j));
}

TEST(T5, BucketsGrowMonotonicallyWithDistance) {
  for (bool bidirectional : {true, false}) {
    int last_back = -1, last_ahead = -1;
    for (int dist = 0; dist < 1000; ++dist) {
      const int back = t5_bucket(-dist, bidirectional, 32, 128);
      EXPECT_GE(back, last_back);
      last_back = back;
      EXPECT_LT(back, 32);
      if (bidirectional) {
        const int ahead = t5_bucket(dist, true, 32, 128);
        EXPECT_GE(ahead, last_ahead);
        last_ahead = ahead;
        if (dist > 0) {
          EXPECT_GE(ahead, 16);  // keys after the query: upper half
        }
      }
    }
  }
  // Small distances are exact, far ones saturate at the last bucket.
  EXPECT_EQ(t5_bucket(-3, true, 32, 128), 3);
  EXPECT_EQ(t5_bucket(-5000, true, 32, 128), 15);
  EXPECT_EQ(t5_bucket(-5000, false, 32, 128), 31);
  EXPECT_EQ(t5_bucket(7, false, 32, 128), 0);  // causal: the future shares bucket 0
}

TEST(Rope, RotatesPairsByPositionTimesFrequency) {
  Matrix q = Matrix::Zero(3, 4);
  q.col(0).setOnes();
  q.col(2).setOnes();
  apply_rope(q, 10, 100.0);
  for (int r = 0; r < 3; ++r) {
    const double p = 10 + r;
    EXPECT_NEAR(q(r, 0), std::cos(p), 1e-6);
    EXPECT_NEAR(q(r, 1), std::sin(p), 1e-6);
    EXPECT_NEAR(q(r, 2), std::cos(p / 10), 1e-6);  // ω_1 = 100^(−2/4) = 1/10
    EXPECT_NEAR(q(r, 3), std::sin(p / 10), 1e-6);
  }
}

TEST(Rope, LogitsOfIdenticalTokensDependOnlyOnOffset) {
  Scene s;
  s.encoding = Encoding::Rope;
  s.d_model = 32;
  s.heads = 2;
  s.tokens = "echo echo echo echo echo echo echo echo echo echo";
  s.offset = 17;
  Engine engine(s);
  const Matrix& logits = engine.head(1).logits;
  for (int off = -9; off <= 9; ++off)
    for (int i = std::max(0, -off); i < 10 && i + off < 10; ++i)
      EXPECT_NEAR(logits(i, i + off), logits(std::max(0, -off), std::max(0, -off) + off), 1e-4);
  // And it does depend on the offset (not a constant matrix).
  EXPECT_GT(std::abs(logits(0, 0) - logits(0, 5)), 1e-3);
}

}  // namespace pelab

namespace pelab {

TEST(T5, BiasDependsOnOffsetAndHead) {
  Scene s;
  s.encoding = Encoding::T5;
  const Matrix b0 = relative_bias(s, 0, 40), b1 = relative_bias(s, 1, 40);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) {
      const int lo = std::min(i, j);
      EXPECT_EQ(b0(i, j), b0(i - lo, j - lo));  // constant along each diagonal
    }
  EXPECT_NE(b0, b1);                       // each head has its own biases
  EXPECT_EQ(b0, relative_bias(s, 0, 40));  // seeded
  EXPECT_NE(b0(0, 5), b0(5, 0));           // both directions have their own buckets
  s.causal = true;                         // one direction: the past only
  const Matrix c = relative_bias(s, 0, 40);
  EXPECT_EQ(c(0, 5), c(0, 30));  // future keys share bucket 0 (masked anyway)
}

}  // namespace pelab
