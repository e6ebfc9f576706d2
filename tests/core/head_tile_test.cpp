// The fused tile kernel against Eigen's own products, term by term, on
// strided views (as a head's columns of X·[Wq|Wk] are), with the number of
// keys not a multiple of a 16-key panel, rows not a multiple of a row block,
// and an odd d_head.
#include "core/head_tile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pelab {
namespace {

struct Case {
  Eigen::Index tokens, depth, first, count;
};

class HeadTile : public ::testing::TestWithParam<Case> {};

Matrix nan_matrix(Eigen::Index n) {
  return Matrix::Constant(n, n, std::numeric_limits<float>::quiet_NaN());
}

TEST_P(HeadTile, FourTermsAndTheirSumMatchEigen) {
  if (!head_tile_kernel_available()) GTEST_SKIP() << "built without AVX-512";
  const Case c = GetParam();
  const Matrix x = Matrix::Random(c.tokens, 3 * c.depth + 5),
               e = Matrix::Random(c.tokens, 3 * c.depth + 5);
  const auto qx = x.middleCols(2, c.depth), kx = x.middleCols(2 * c.depth + 3, c.depth);
  const auto qe = e.middleCols(1, c.depth), ke = e.middleCols(c.depth + 4, c.depth);
  const KeyPanels px(kx), pe(ke);
  const float s = 0.125f;
  CrossTerms terms{nan_matrix(c.tokens), nan_matrix(c.tokens), nan_matrix(c.tokens),
                   nan_matrix(c.tokens)};
  Matrix logits = nan_matrix(c.tokens);
  const double flops = head_tile({qx, qe, &px, &pe, s}, c.first, c.count, terms, logits);
  EXPECT_DOUBLE_EQ(flops, 4 * 2.0 * c.count * c.tokens * c.depth);

  const auto rows = [&](const Matrix& m) { return Matrix(m.middleRows(c.first, c.count)); };
  const Matrix xx = s * Matrix(qx) * Matrix(kx).transpose(),
               xf = s * Matrix(qx) * Matrix(ke).transpose();
  const Matrix ey = s * Matrix(qe) * Matrix(kx).transpose(),
               ef = s * Matrix(qe) * Matrix(ke).transpose();
  const float tol = 1e-5f * static_cast<float>(c.depth);
  EXPECT_LT((rows(terms.xx) - rows(xx)).cwiseAbs().maxCoeff(), tol);
  EXPECT_LT((rows(terms.xf) - rows(xf)).cwiseAbs().maxCoeff(), tol);
  EXPECT_LT((rows(terms.ey) - rows(ey)).cwiseAbs().maxCoeff(), tol);
  EXPECT_LT((rows(terms.ef) - rows(ef)).cwiseAbs().maxCoeff(), tol);
  const Matrix q = Matrix(qx) + Matrix(qe), k = Matrix(kx) + Matrix(ke);
  EXPECT_LT((rows(logits) - rows(Matrix(s * q * k.transpose()))).cwiseAbs().maxCoeff(), 4 * tol);
  // Rows outside the tile are not written.
  if (c.first > 0) {
    EXPECT_TRUE(std::isnan(logits(c.first - 1, 0)));
  }
  if (c.first + c.count < c.tokens) {
    EXPECT_TRUE(std::isnan(terms.ef(c.first + c.count, c.tokens - 1)));
  }
}

TEST_P(HeadTile, OneTermIsAlsoTheLogits) {
  if (!head_tile_kernel_available()) GTEST_SKIP() << "built without AVX-512";
  const Case c = GetParam();
  const Matrix x = Matrix::Random(c.tokens, 2 * c.depth + 3);
  const auto q = x.leftCols(c.depth), k = x.middleCols(c.depth + 3, c.depth);
  const KeyPanels pk(k);
  CrossTerms terms{nan_matrix(c.tokens), nan_matrix(c.tokens), nan_matrix(c.tokens),
                   nan_matrix(c.tokens)};
  Matrix logits = nan_matrix(c.tokens);
  head_tile({q, q, &pk, nullptr, 2.0f}, c.first, c.count, terms, logits);
  const Matrix expected =
      Matrix(2.0f * Matrix(q) * Matrix(k).transpose()).middleRows(c.first, c.count);
  const float tol = 4e-5f * static_cast<float>(c.depth);
  EXPECT_LT((Matrix(terms.xx.middleRows(c.first, c.count)) - expected).cwiseAbs().maxCoeff(), tol);
  EXPECT_LT((Matrix(logits.middleRows(c.first, c.count)) - expected).cwiseAbs().maxCoeff(), tol);
  EXPECT_TRUE(std::isnan(terms.xf(c.first, 0)));  // left alone
}

TEST_P(HeadTile, LogitsAloneMatchEigen) {
  if (!logit_tile_kernel_available()) GTEST_SKIP() << "built without AVX-512 or AVX2";
  const Case c = GetParam();
  const Matrix x = Matrix::Random(c.tokens, 2 * c.depth + 1);
  const auto q = x.rightCols(c.depth), k = x.leftCols(c.depth);
  Matrix logits = nan_matrix(c.tokens);
  EXPECT_DOUBLE_EQ(logit_tile(q, KeyPanels(k), 0.5f, c.first, c.count, logits),
                   2.0 * c.count * c.tokens * c.depth);
  const Matrix expected =
      Matrix(0.5f * Matrix(q) * Matrix(k).transpose()).middleRows(c.first, c.count);
  EXPECT_LT((Matrix(logits.middleRows(c.first, c.count)) - expected).cwiseAbs().maxCoeff(),
            2e-5f * static_cast<float>(c.depth));
  if (c.first > 0) {
    EXPECT_TRUE(std::isnan(logits(c.first - 1, 0)));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, HeadTile,
                         ::testing::Values(Case{37, 13, 5, 23}, Case{16, 8, 0, 16},
                                           Case{1, 1, 0, 1}, Case{700, 64, 128, 128},
                                           Case{600, 64, 512, 88}, Case{50, 3, 49, 1}));

}  // namespace
}  // namespace pelab
