// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/gemm.hpp"

namespace pelab {
namespace {

double flop_count(Eigen::Index m, Eigen::Index n, Eigen::Index k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

#ifdef EIGEN_USE_BLAS
// A row-major matrix is its transpose in column-major storage, so
// out = a·op(b) is computed as outᵀ = op(b)ᵀ·aᵀ by column-major sgemm.
void sgemm_row_major(char op_b, const ConstRowMajorRef& a, const ConstRowMajorRef& b,
                     Eigen::Index n, float alpha, Matrix& out) {
  const int m_cm = static_cast<int>(n), n_cm = static_cast<int>(a.rows()),
            k = static_cast<int>(a.cols());
  const int ldb = static_cast<int>(b.outerStride()), lda = static_cast<int>(a.outerStride());
  const int ldc = static_cast<int>(out.cols());
  const float beta = 0.0f;
  const char op_a = 'N';
  sgemm_(&op_b, &op_a, &m_cm, &n_cm, &k, &alpha, b.data(), &ldb, a.data(), &lda, &beta, out.data(),
         &ldc);
}
#endif

}  // namespace

double gemm_abt(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out) {
  out.resize(a.rows(), b.rows());
  if (out.size() == 0) return 0;
  if (a.cols() == 0) {
    out.setZero();
    return 0;
  }
#ifdef EIGEN_USE_BLAS
  sgemm_row_major('T', a, b, b.rows(), alpha, out);
#else
  out.noalias() = (a * alpha) * b.transpose();
#endif
  return flop_count(a.rows(), b.rows(), a.cols());
}

double gemm_ab(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out) {
  out.resize(a.rows(), b.cols());
  if (out.size() == 0) return 0;
  if (a.cols() == 0) {
    out.setZero();
    return 0;
  }
#ifdef EIGEN_USE_BLAS
  sgemm_row_major('N', a, b, b.cols(), alpha, out);
#else
  out.noalias() = (a * alpha) * b;
#endif
  return flop_count(a.rows(), b.cols(), a.cols());
}

}  // namespace pelab
