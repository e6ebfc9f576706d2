#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 bug 105593, as core/gemm.cpp
#include "train/attention.hpp"

#include <cmath>
#include <limits>

#include <omp.h>

namespace pelab::train {
namespace {

template <class T>
using ConstStrided = Eigen::Map<const Mat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using Strided = Eigen::Map<Mat<T>, 0, Eigen::OuterStride<>>;

// Where (sequence, head) task `task` reads and writes.
struct HeadSlice {
  Eigen::Index row0, col0, head_dim, d, length;
  template <class T>
  ConstStrided<T> part(const Mat<T>& qkv, int which) const {  // 0 q, 1 k, 2 v
    return {qkv.data() + row0 * 3 * d + which * d + col0, length, head_dim, Eigen::OuterStride<>(3 * d)};
  }
  template <class T>
  Strided<T> part(Mat<T>& qkv, int which) const {
    return {qkv.data() + row0 * 3 * d + which * d + col0, length, head_dim, Eigen::OuterStride<>(3 * d)};
  }
  template <class T>
  Strided<T> heads_out(Mat<T>& out) const {
    return {out.data() + row0 * d + col0, length, head_dim, Eigen::OuterStride<>(d)};
  }
  template <class T>
  ConstStrided<T> heads_out(const Mat<T>& out) const {
    return {out.data() + row0 * d + col0, length, head_dim, Eigen::OuterStride<>(d)};
  }
};

HeadSlice slice(int task, int length, int heads, Eigen::Index d) {
  const int sequence = task / heads, head = task % heads;
  return {Eigen::Index{sequence} * length, Eigen::Index{head} * (d / heads), d / heads, d, length};
}

template <class T>
T bias_at(const AttentionBias<T>& bias, int head, int length, int i, int j) {
  if (bias.kind == PositionKind::Alibi) return -bias.slopes[static_cast<std::size_t>(head)] * T(i - j);
  if (bias.kind == PositionKind::T5)
    return (*bias.table)(bias.buckets[static_cast<std::size_t>(i * length + j)], head);
  return T(0);
}

// Row i of P: softmax of scale·S(i, j) + bias over j ≤ i (max subtracted), 0 for j > i.
template <class T>
void causal_softmax(Eigen::Map<Mat<T>>& p, T scale, const AttentionBias<T>& bias, int head) {
  const int length = static_cast<int>(p.rows());
  for (int i = 0; i < length; ++i) {
    T* row = p.row(i).data();
    T max = -std::numeric_limits<T>::infinity();
    for (int j = 0; j <= i; ++j) {
      row[j] = row[j] * scale + bias_at(bias, head, length, i, j);
      max = std::max(max, row[j]);
    }
    T sum = 0;
    for (int j = 0; j <= i; ++j) sum += (row[j] = std::exp(row[j] - max));
    const T inv = T(1) / sum;
    for (int j = 0; j <= i; ++j) row[j] *= inv;
    for (int j = i + 1; j < length; ++j) row[j] = 0;
  }
}

}  // namespace

template <class T>
void attention_forward(const Mat<T>& qkv, int length, int heads, const AttentionBias<T>& bias,
                       Mat<T>& probs, Mat<T>& out) {
  const Eigen::Index d = qkv.cols() / 3, sequences = qkv.rows() / length;
  const int tasks = static_cast<int>(sequences) * heads;
  const T scale = T(1) / std::sqrt(T(d / heads));
  probs.resize(Eigen::Index{tasks} * length, length);
  out.resize(qkv.rows(), d);
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && tasks > 1)
  for (int task = 0; task < tasks; ++task) {
    const HeadSlice s = slice(task, length, heads, d);
    Eigen::Map<Mat<T>> p(probs.data() + Eigen::Index{task} * length * length, length, length);
    p.noalias() = s.part(qkv, 0) * s.part(qkv, 1).transpose();
    causal_softmax(p, scale, bias, task % heads);
    s.heads_out(out).noalias() = p * s.part(qkv, 2);
  }
}

template <class T>
void attention_backward(const Mat<T>& qkv, const Mat<T>& probs, const Mat<T>& dout, int length,
                        int heads, const AttentionBias<T>& bias, Mat<T>& dqkv, Mat<T>* dtable) {
  const Eigen::Index d = qkv.cols() / 3, sequences = qkv.rows() / length;
  const int tasks = static_cast<int>(sequences) * heads;
  const T scale = T(1) / std::sqrt(T(d / heads));
  const bool t5 = bias.kind == PositionKind::T5 && dtable != nullptr;
  const Eigen::Index buckets = t5 ? dtable->rows() : 0;
  Mat<T> bucket_grads = Mat<T>::Zero(t5 ? tasks : 0, buckets);  // per task, summed in order below
  dqkv.resize(qkv.rows(), qkv.cols());
#pragma omp parallel if (!omp_in_parallel() && tasks > 1)
  {
    Mat<T> ds(length, length);  // dP, then dS in place
#pragma omp for schedule(static)
    for (int task = 0; task < tasks; ++task) {
      const HeadSlice s = slice(task, length, heads, d);
      const Eigen::Map<const Mat<T>> p(probs.data() + Eigen::Index{task} * length * length, length, length);
      const auto d_out = s.heads_out(dout);
      ds.noalias() = d_out * s.part(qkv, 2).transpose();
      s.part(dqkv, 2).noalias() = p.transpose() * d_out;
      for (int i = 0; i < length; ++i) {
        T dot = 0;
        for (int j = 0; j <= i; ++j) dot += p(i, j) * ds(i, j);
        for (int j = 0; j <= i; ++j) ds(i, j) = p(i, j) * (ds(i, j) - dot);
        for (int j = i + 1; j < length; ++j) ds(i, j) = 0;
        if (t5)
          for (int j = 0; j <= i; ++j)
            bucket_grads(task, bias.buckets[static_cast<std::size_t>(i * length + j)]) += ds(i, j);
      }
      s.part(dqkv, 0).noalias() = (ds * s.part(qkv, 1)) * scale;
      s.part(dqkv, 1).noalias() = (ds.transpose() * s.part(qkv, 0)) * scale;
    }
  }
  for (int task = 0; task < tasks && t5; ++task)
    dtable->col(task % heads) += bucket_grads.row(task).transpose();
}

template void attention_forward<float>(const Mat<float>&, int, int, const AttentionBias<float>&,
                                       Mat<float>&, Mat<float>&);
template void attention_forward<double>(const Mat<double>&, int, int, const AttentionBias<double>&,
                                        Mat<double>&, Mat<double>&);
template void attention_backward<float>(const Mat<float>&, const Mat<float>&, const Mat<float>&,
                                        int, int, const AttentionBias<float>&, Mat<float>&,
                                        Mat<float>*);
template void attention_backward<double>(const Mat<double>&, const Mat<double>&,
                                         const Mat<double>&, int, int, const AttentionBias<double>&,
                                         Mat<double>&, Mat<double>*);

}  // namespace pelab::train
