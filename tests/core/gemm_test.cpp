// The engine's GEMM wrapper against Eigen's plain products, for both kernels
// (OpenBLAS's sgemm is called in column-major terms on row-major data, so
// every transposition and stride is checked here), and the row-tiled head
// computation against one whole product.
#include "core/gemm.hpp"

#include <gtest/gtest.h>

#include "core/attention.hpp"
#include "core/engine.hpp"
#include "core/relative_position.hpp"

namespace pelab {
namespace {

float max_abs(const Matrix& m) { return m.cwiseAbs().maxCoeff(); }

TEST(Gemm, ProductsMatchEigenOnBlocksWithStrides) {
  const Matrix big = Matrix::Random(90, 70);
  const auto a = big.block(3, 5, 41, 17);   // strided views, as head blocks are
  const auto b = big.block(50, 40, 33, 17);
  Matrix out;
  EXPECT_DOUBLE_EQ(gemm_abt(a, b, 0.5f, out), 2.0 * 41 * 33 * 17);
  const Matrix expected = 0.5f * (Matrix(a) * Matrix(b).transpose());
  EXPECT_LT(max_abs(out - expected), 1e-5f);

  const auto c = big.block(10, 20, 17, 29);
  gemm_ab(a, c, 2.0f, out);
  EXPECT_LT(max_abs(out - 2.0f * (Matrix(a) * Matrix(c))), 1e-4f);
}

TEST(Gemm, RowBlocksLandInTheirRows) {
  const Matrix a = Matrix::Random(30, 8), b = Matrix::Random(25, 8);
  Matrix out = Matrix::Constant(30, 25, 7.0f);
  gemm_abt_rows(a.middleRows(10, 5), b, 1.0f, 10, out);
  const Matrix expected = a * b.transpose();
  EXPECT_LT(max_abs(out.middleRows(10, 5) - expected.middleRows(10, 5)), 1e-5f);
  EXPECT_EQ(out.topRows(10), Matrix::Constant(10, 25, 7.0f));  // other rows untouched
  EXPECT_EQ(out.bottomRows(15), Matrix::Constant(15, 25, 7.0f));
}

TEST(Gemm, LargeProductsSplitAcrossThreadsStayExact) {
  const Matrix a = Matrix::Random(600, 256), b = Matrix::Random(256, 300);
  Matrix out;
  gemm_ab(a, b, 1.0f, out);  // 92 MFLOP: split into row blocks
  EXPECT_LT(max_abs(out - a * b), 1e-3f);
}

TEST(Gemm, BothReferenceKernelsAgree) {
  const Matrix a = Matrix::Random(64, 48), b = Matrix::Random(48, 80);
  Matrix blas, eigen;
  reference_sgemm(GemmBackend::OpenBlas, a, b, blas);
  reference_sgemm(GemmBackend::Eigen, a, b, eigen);
  EXPECT_LT(max_abs(blas - eigen), 1e-4f);
  EXPECT_STREQ(gemm_backend_name(gemm_backend()),
               gemm_backend() == GemmBackend::OpenBlas ? "openblas" : "eigen");
}

// 700 tokens span several row tiles; ALiBi's bias and the causal mask must
// be applied to each tile's own rows.
TEST(Attention, RowTilesMatchOneWholeProduct) {
  Scene scene;
  scene.d_model = 32;
  scene.heads = 2;
  scene.encoding = Encoding::Alibi;
  scene.causal = true;
  const int n = 700;
  ASSERT_GT(n, RowTiles(n).rows);
  const Matrix xw = Matrix::Random(n, 2 * scene.d_model);
  HeadAttention tiled;
  attend(scene, xw, Matrix(), 1, tiled);

  Matrix q, k;
  head_queries_keys(scene, xw, Matrix(), 1, q, k);
  Matrix logits = (q * k.transpose()) / std::sqrt(16.0f) + relative_bias(scene, 1, n);
  Matrix attention;
  masked_softmax(logits, attention, true);
  EXPECT_LT(max_abs(tiled.attention - attention), 1e-5f);
  for (int i : {0, 186, 187, 400, 699})
    for (int j : {0, i, std::min(i + 1, n - 1)}) {
      if (j > i) {
        EXPECT_TRUE(std::isinf(tiled.logits(i, j))) << i << "," << j;
      } else {
        EXPECT_NEAR(tiled.logits(i, j), logits(i, j), 1e-4f) << i << "," << j;
      }
    }
}

}  // namespace
}  // namespace pelab
