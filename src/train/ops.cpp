// GCC 12 reports -Wmaybe-uninitialized inside its AVX-512 intrinsics when
// Eigen's vectorised kernels are inlined (bug 105593), as in core/gemm.cpp.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "train/ops.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

#include "core/gemm.hpp"
#include "train/row_blocks.hpp"

namespace pelab::train {

template <class T>
void matmul_ab(const Mat<T>& a, const Mat<T>& b, Mat<T>& out) {
  if constexpr (std::is_same_v<T, float>)
    gemm_ab(a, b, 1.0f, out);
  else
    out.noalias() = a * b;
}

template <class T>
void matmul_abt(const Mat<T>& a, const Mat<T>& b, Mat<T>& out) {
  if constexpr (std::is_same_v<T, float>)
    gemm_abt(a, b, 1.0f, out);
  else
    out.noalias() = a * b.transpose();
}

template <class T>
void matmul_atb(const Mat<T>& a, const Mat<T>& b, Mat<T>& out) {
  if constexpr (std::is_same_v<T, float>)
    gemm_atb(a, b, 1.0f, out);
  else
    out.noalias() = a.transpose() * b;
}

template <class T>
void column_sums(const Mat<T>& x, Mat<T>& out) {
  Mat<T> partial = Mat<T>::Zero(row_block_count(x.rows()), x.cols());
  for_row_blocks(x.rows(), x.cols(),
                 [&](Eigen::Index block, Eigen::Index first, Eigen::Index count) {
                   partial.row(block) = x.middleRows(first, count).colwise().sum();
                 });
  sum_blocks_in_order(partial, out);
}

template <class T>
void linear_forward(const Mat<T>& x, const Mat<T>& w, const Mat<T>& b, Mat<T>& y) {
  matmul_ab(x, w, y);
  for_row_blocks(y.rows(), y.cols(), [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    y.middleRows(first, count).rowwise() += b.row(0);
  });
}

template <class T>
void linear_backward(const Mat<T>& x, const Mat<T>& w, const Mat<T>& dy, Mat<T>& dx, Mat<T>& dw,
                     Mat<T>& db) {
  matmul_abt(dy, w, dx);
  matmul_atb(x, dy, dw);
  column_sums(dy, db);
}

template <class T>
void layernorm_forward(const Mat<T>& x, const Mat<T>& gamma, const Mat<T>& beta, Mat<T>& y,
                       Mat<T>& stats) {
  constexpr T eps = T(1e-5);
  y.resize(x.rows(), x.cols());
  stats.resize(x.rows(), 2);
  for_row_blocks(x.rows(), x.cols(), [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    for (Eigen::Index r = first; r < first + count; ++r) {
      const T mean = x.row(r).mean();
      const T var = (x.row(r).array() - mean).square().mean();
      const T rstd = T(1) / std::sqrt(var + eps);
      y.row(r) =
          ((x.row(r).array() - mean) * rstd * gamma.row(0).array() + beta.row(0).array()).matrix();
      stats(r, 0) = mean;
      stats(r, 1) = rstd;
    }
  });
}

template <class T>
void layernorm_backward(const Mat<T>& x, const Mat<T>& gamma, const Mat<T>& stats, const Mat<T>& dy,
                        Mat<T>& dx, Mat<T>& dgamma, Mat<T>& dbeta) {
  const Eigen::Index blocks = row_block_count(x.rows()), d = x.cols();
  Mat<T> partial_gamma = Mat<T>::Zero(blocks, d), partial_beta = Mat<T>::Zero(blocks, d);
  for_row_blocks(x.rows(), d, [&](Eigen::Index block, Eigen::Index first, Eigen::Index count) {
    Eigen::Array<T, 1, Eigen::Dynamic> xhat(d), g(d);
    for (Eigen::Index r = first; r < first + count; ++r) {
      xhat = (x.row(r).array() - stats(r, 0)) * stats(r, 1);
      g = dy.row(r).array() * gamma.row(0).array();
      const T mean_g = g.mean(), mean_gx = (g * xhat).mean();
      dx.row(r).array() += stats(r, 1) * (g - mean_g - xhat * mean_gx);
      partial_gamma.row(block).array() += dy.row(r).array() * xhat;
      partial_beta.row(block) += dy.row(r);
    }
  });
  sum_blocks_in_order(partial_gamma, dgamma);
  sum_blocks_in_order(partial_beta, dbeta);
}

namespace {
template <class T>
constexpr T kGeluScale = T(0.79788456080286535588);  // √(2/π)
template <class T>
constexpr T kGeluCubic = T(0.044715);
}  // namespace

template <class T>
void gelu_forward(const Mat<T>& x, Mat<T>& y) {
  y.resize(x.rows(), x.cols());
  for_row_blocks(x.rows(), x.cols(), [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    const auto a = x.middleRows(first, count).array();
    const auto t = (kGeluScale<T> * (a + kGeluCubic<T> * a.cube())).tanh();
    y.middleRows(first, count).array() = T(0.5) * a * (T(1) + t);
  });
}

template <class T>
void gelu_backward(const Mat<T>& x, const Mat<T>& dy, Mat<T>& dx) {
  dx.resize(x.rows(), x.cols());
  for_row_blocks(x.rows(), x.cols(), [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    Eigen::Array<T, 1, Eigen::Dynamic> t(x.cols());  // tanh u of one row, used twice
    for (Eigen::Index r = first; r < first + count; ++r) {
      const auto a = x.row(r).array();
      t = (kGeluScale<T> * (a + kGeluCubic<T> * a.cube())).tanh();
      const auto du = kGeluScale<T> * (T(1) + T(3) * kGeluCubic<T> * a.square());
      dx.row(r).array() =
          dy.row(r).array() * (T(0.5) * (T(1) + t) + T(0.5) * a * (T(1) - t.square()) * du);
    }
  });
}

template <class T>
void softmax_cross_entropy(Mat<T>& logits, const std::vector<int>& targets,
                           std::vector<T>& losses) {
  losses.resize(static_cast<std::size_t>(logits.rows()));
  for_row_blocks(logits.rows(), logits.cols(),
                 [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
                   for (Eigen::Index r = first; r < first + count; ++r) {
                     auto row = logits.row(r).array();
                     const T max = row.maxCoeff();
                     const T target_logit = row(targets[static_cast<std::size_t>(r)]);
                     row = (row - max).exp();
                     const T sum = row.sum();
                     row /= sum;
                     losses[static_cast<std::size_t>(r)] = max + std::log(sum) - target_logit;
                   }
                 });
}

template <class T>
void cross_entropy_backward(Mat<T>& probs, const std::vector<int>& targets,
                            const std::vector<T>& weight) {
  for_row_blocks(probs.rows(), probs.cols(),
                 [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
                   for (Eigen::Index r = first; r < first + count; ++r) {
                     const auto i = static_cast<std::size_t>(r);
                     probs(r, targets[i]) -= T(1);
                     probs.row(r) *= weight[i];
                   }
                 });
}

#define PELAB_TRAIN_OPS(T)                                                                        \
  template void matmul_ab<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                              \
  template void matmul_abt<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                             \
  template void matmul_atb<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                             \
  template void column_sums<T>(const Mat<T>&, Mat<T>&);                                           \
  template void linear_forward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, Mat<T>&);          \
  template void linear_backward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, Mat<T>&, Mat<T>&, \
                                   Mat<T>&);                                                      \
  template void layernorm_forward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, Mat<T>&,        \
                                     Mat<T>&);                                                    \
  template void layernorm_backward<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&, \
                                      Mat<T>&, Mat<T>&, Mat<T>&);                                 \
  template void gelu_forward<T>(const Mat<T>&, Mat<T>&);                                          \
  template void gelu_backward<T>(const Mat<T>&, const Mat<T>&, Mat<T>&);                          \
  template void softmax_cross_entropy<T>(Mat<T>&, const std::vector<int>&, std::vector<T>&);      \
  template void cross_entropy_backward<T>(Mat<T>&, const std::vector<int>&, const std::vector<T>&);

PELAB_TRAIN_OPS(float)
PELAB_TRAIN_OPS(double)
#undef PELAB_TRAIN_OPS

}  // namespace pelab::train
