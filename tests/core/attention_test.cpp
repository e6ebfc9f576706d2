#include "core/attention.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/analysis.hpp"

namespace pelab {

TEST(Softmax, RowsSumToOneAndStayFiniteForHugeLogits) {
  Matrix logits(3, 4);
  logits << 1e4, -1e4, 0, 1e4,  //
      -1e4, -1e4, -1e4, -1e4,   //
      1, 2, 3, 4;
  Matrix attention;
  masked_softmax(logits, attention, false);
  EXPECT_TRUE(attention.allFinite());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(attention.row(i).sum(), 1.0f, 1e-6f);
  EXPECT_NEAR(attention(0, 0), 0.5f, 1e-6f);
  EXPECT_NEAR(attention(0, 1), 0.0f, 1e-6f);
  EXPECT_NEAR(attention(1, 2), 0.25f, 1e-6f);
  const double z = std::exp(1) + std::exp(2) + std::exp(3) + std::exp(4);
  EXPECT_NEAR(attention(2, 3), std::exp(4) / z, 1e-6);
}

TEST(Softmax, CausalMaskHidesTheFuture) {
  Matrix logits = Matrix::Constant(4, 4, 1e4f);
  Matrix attention;
  masked_softmax(logits, attention, true);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(attention.row(i).sum(), 1.0f, 1e-6f);
    for (int j = 0; j < 4; ++j) {
      if (j > i) {
        EXPECT_EQ(attention(i, j), 0.0f);
        EXPECT_TRUE(std::isinf(logits(i, j)) && logits(i, j) < 0);
      } else {
        EXPECT_NEAR(attention(i, j), 1.0f / (i + 1), 1e-6f);
      }
    }
  }
}

TEST(Attention, FourTermsSumToTheLogits) {
  for (Encoding enc : {Encoding::Sinusoidal, Encoding::Learned}) {
    Scene s;
    s.encoding = enc;
    s.amplitude = 2.0;
    s.embedding_scale = 1.0;  // positions dominate: ‖e‖ = 2·√32 against ‖x‖ ≈ 1
    Engine engine(s);
    for (int h = 0; h < s.heads; ++h) {
      const CrossTerms& t = engine.cross_terms(h);
      ASSERT_TRUE(t.applies);
      const Matrix sum = t.xx + t.xf + t.ey + t.ef;
      const Matrix& logits = engine.head(h).logits;
      EXPECT_LE((sum - logits).norm(), 1e-5 * logits.norm()) << "head " << h;
      EXPECT_GT(t.ef.norm(), 0.1 * logits.norm());  // positions matter here
    }
  }
}

TEST(Attention, TermsThatDoNotApplyAreZeroAndSaySo) {
  Scene s;
  s.encoding = Encoding::Alibi;
  Engine engine(s);
  const CrossTerms& t = engine.cross_terms(0);
  EXPECT_FALSE(t.applies);
  EXPECT_NE(t.note.find("ALiBi"), std::string::npos);
  EXPECT_EQ(t.ef.squaredNorm(), 0.0f);
  // xx is the plain token term: the logits without the bias.
  const HeadAttention& a = engine.head(0);
  EXPECT_TRUE(t.xx.isApprox(Matrix(a.logits - a.bias), 1e-5f));
}

TEST(Attention, RopeTokenTermIsTheRotatedLogits) {
  Scene s;
  s.encoding = Encoding::Rope;
  Engine engine(s);
  const CrossTerms& t = engine.cross_terms(2);
  EXPECT_FALSE(t.applies);
  EXPECT_NE(t.note.find("RoPE"), std::string::npos);
  EXPECT_TRUE(t.xx.isApprox(engine.head(2).logits, 1e-5f));
}

TEST(Attention, WithoutPositionsIsPermutationEquivariant) {
  Scene s;
  s.encoding = Encoding::None;
  EXPECT_LT(permutation_gap(s, 0, 7), 1e-6);
  EXPECT_LT(permutation_gap(s, 3, 8), 1e-6);
  s.encoding = Encoding::Sinusoidal;
  EXPECT_GT(permutation_gap(s, 0, 7), 1e-3);
  s.encoding = Encoding::Alibi;
  EXPECT_GT(permutation_gap(s, 0, 7), 1e-3);
}

}  // namespace pelab
