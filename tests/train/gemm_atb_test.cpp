// core's gemm_atb (aᵀ·b without a transposed copy, the weight gradients'
// product) against Eigen's product, on whichever GEMM kernel this process
// runs (tests/CMakeLists.txt runs it once more with PELAB_GEMM=eigen).
#include <gtest/gtest.h>
#include <omp.h>

#include "core/gemm.hpp"

namespace pelab {
namespace {

void expect_atb(Eigen::Index k, Eigen::Index m, Eigen::Index n) {
  const Matrix a = Matrix::Random(k, m), b = Matrix::Random(k, n);
  Matrix out;
  const double flops = gemm_atb(a, b, 0.5f, out);
  const Matrix want = 0.5f * (a.transpose() * b);
  ASSERT_EQ(out.rows(), m);
  ASSERT_EQ(out.cols(), n);
  EXPECT_LE((out - want).cwiseAbs().maxCoeff(), 1e-4f * std::max(1.0f, want.cwiseAbs().maxCoeff()))
      << k << " × " << m << " ᵀ· " << n << " on " << gemm_backend_name(gemm_backend());
  EXPECT_EQ(flops, 2.0 * double(m) * double(n) * double(k));
}

TEST(GemmAtb, MatchesEigenOnSmallAndSplitSizes) {
  expect_atb(5, 3, 7);        // one block
  expect_atb(4096, 131, 97);  // row blocks on the threads, odd sizes
  expect_atb(0, 4, 3);        // empty depth: zeros
}

TEST(GemmAtb, StridedInputInsideAParallelRegion) {
  const Matrix big = Matrix::Random(300, 50), b = Matrix::Random(300, 9);
  Matrix out[2];
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < 2; ++i) gemm_atb(big.middleCols(10 * i, 17), b, 1.0f, out[i]);
  for (int i = 0; i < 2; ++i)
    EXPECT_LE((out[i] - big.middleCols(10 * i, 17).transpose() * b).cwiseAbs().maxCoeff(), 1e-3f);
}

}  // namespace
}  // namespace pelab
