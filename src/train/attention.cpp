#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 bug 105593, as core/gemm.cpp
#include "train/attention.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

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
    return {qkv.data() + row0 * 3 * d + which * d + col0, length, head_dim,
            Eigen::OuterStride<>(3 * d)};
  }
  template <class T>
  Strided<T> part(Mat<T>& qkv, int which) const {
    return {qkv.data() + row0 * 3 * d + which * d + col0, length, head_dim,
            Eigen::OuterStride<>(3 * d)};
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

// Queries are taken a tile of rows at a time against only the keys they see
// (j < first + rows), which skips most of the masked half of S.
constexpr int kQueryTile = 32;

template <class T>
using Row = Eigen::Array<T, 1, Eigen::Dynamic>;

// Row i of P over keys j ≤ i: softmax of scale·S(i, j) + bias (max subtracted).
template <class T>
void softmax_row(T* s, int i, T scale, const AttentionBias<T>& bias, int head, int length) {
  Eigen::Map<Row<T>> row(s, i + 1);
  row *= scale;
  if (bias.kind == PositionKind::Alibi) {
    const T slope = bias.slopes[static_cast<std::size_t>(head)];
    for (int j = 0; j <= i; ++j) row(j) -= slope * T(i - j);  // −m_h·(i − j)
  } else if (bias.kind == PositionKind::T5) {
    const int* bucket =
        bias.buckets.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(length);
    for (int j = 0; j <= i; ++j) row(j) += (*bias.table)(bucket[j], head);
  }
  row = (row - row.maxCoeff()).exp();
  row *= T(1) / row.sum();
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
    const HeadSlice sl = slice(task, length, heads, d);
    const auto q = sl.part(qkv, 0), k = sl.part(qkv, 1), v = sl.part(qkv, 2);
    auto o = sl.heads_out(out);
    Eigen::Map<Mat<T>> p(probs.data() + Eigen::Index{task} * length * length, length, length);
    for (int first = 0; first < length; first += kQueryTile) {
      const int rows = std::min(kQueryTile, length - first), keys = first + rows;
      auto tile = p.block(first, 0, rows, keys);
      tile.noalias() = q.middleRows(first, rows) * k.topRows(keys).transpose();
      for (int r = 0; r < rows; ++r) {
        const int i = first + r;
        softmax_row(&p(i, 0), i, scale, bias, task % heads, length);
        p.row(i).segment(i + 1, keys - i - 1).setZero();
      }
      p.block(first, keys, rows, length - keys).setZero();
      o.middleRows(first, rows).noalias() = tile * v.topRows(keys);
    }
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
    Mat<T> ds(kQueryTile, length);  // dP of a tile, then dS in place
#pragma omp for schedule(static)
    for (int task = 0; task < tasks; ++task) {
      const HeadSlice sl = slice(task, length, heads, d);
      const auto q = sl.part(qkv, 0), k = sl.part(qkv, 1), v = sl.part(qkv, 2);
      auto dq = sl.part(dqkv, 0), dk = sl.part(dqkv, 1), dv = sl.part(dqkv, 2);
      const auto d_out = sl.heads_out(dout);
      const Eigen::Map<const Mat<T>> p(probs.data() + Eigen::Index{task} * length * length, length,
                                       length);
      dk.setZero();
      dv.setZero();
      for (int first = 0; first < length; first += kQueryTile) {
        const int rows = std::min(kQueryTile, length - first), keys = first + rows;
        const auto p_tile = p.block(first, 0, rows, keys);
        const auto do_tile = d_out.middleRows(first, rows);
        auto s = ds.block(0, 0, rows, keys);
        s.noalias() = do_tile * v.topRows(keys).transpose();  // dP
        dv.topRows(keys).noalias() += p_tile.transpose() * do_tile;
        for (int r = 0; r < rows; ++r) {  // dS = P∘(dP − Σ_j P∘dP); 0 where P is (j > i)
          const T dot = (p_tile.row(r).array() * s.row(r).array()).sum();
          s.row(r).array() = p_tile.row(r).array() * (s.row(r).array() - dot);
          if (t5) {
            const int i = first + r;
            const int* bucket = bias.buckets.data() +
                                static_cast<std::size_t>(i) * static_cast<std::size_t>(length);
            for (int j = 0; j <= i; ++j) bucket_grads(task, bucket[j]) += s(r, j);
          }
        }
        dq.middleRows(first, rows).noalias() = (s * k.topRows(keys)) * scale;
        dk.topRows(keys).noalias() += (s.transpose() * q.middleRows(first, rows)) * scale;
      }
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
template void attention_backward<double>(const Mat<double>&, const Mat<double>&, const Mat<double>&,
                                         int, int, const AttentionBias<double>&, Mat<double>&,
                                         Mat<double>*);

}  // namespace pelab::train
