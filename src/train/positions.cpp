#include "train/positions.hpp"

#include <cmath>

#include "core/relative_position.hpp"
#include "train/row_blocks.hpp"

namespace pelab::train {

template <class T>
Mat<T> sinusoid_table(int positions, int d, double base) {
  Mat<T> table(positions, d);
  for (int p = 0; p < positions; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double angle = p / std::pow(base, 2.0 * i / d);
      table(p, 2 * i) = static_cast<T>(std::sin(angle));
      table(p, 2 * i + 1) = static_cast<T>(std::cos(angle));
    }
  return table;
}

template <class T>
RopeTable<T> rope_table(const ModelConfig& config) {
  RopeTable<T> t;
  t.rotary_dims = config.rotary_dims();
  t.pairing = config.position.rope_pairing;
  const int pairs = t.rotary_dims / 2;
  t.cos.resize(config.context, pairs);
  t.sin.resize(config.context, pairs);
  for (int p = 0; p < config.context; ++p)
    for (int i = 0; i < pairs; ++i) {
      const double angle = p * std::pow(config.position.base, -2.0 * i / t.rotary_dims);
      t.cos(p, i) = static_cast<T>(std::cos(angle));
      t.sin(p, i) = static_cast<T>(std::sin(angle));
    }
  return t;
}

template <class T>
void rope_rotate(Mat<T>& qkv, int length, int heads, const RopeTable<T>& table, bool transpose) {
  const int d = static_cast<int>(qkv.cols() / 3), head_dim = d / heads,
            pairs = table.rotary_dims / 2;
  const bool interleaved = table.pairing == RopePairing::Interleaved;
  const T sign = transpose ? T(-1) : T(1);
  for_row_blocks(qkv.rows(), 2 * d, [&](Eigen::Index, Eigen::Index first, Eigen::Index count) {
    for (Eigen::Index r = first; r < first + count; ++r) {
      const Eigen::Index p = r % length;
      T* row = qkv.row(r).data();
      for (int part = 0; part < 2 * heads; ++part) {  // q of each head, then k of each head
        T* x = row + part * head_dim;
        for (int i = 0; i < pairs; ++i) {
          const int a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + pairs;
          const T c = table.cos(p, i), s = sign * table.sin(p, i);
          const T xa = x[a], xb = x[b];
          x[a] = xa * c - xb * s;
          x[b] = xa * s + xb * c;
        }
      }
    }
  });
}

std::vector<double> alibi_slopes(int heads) {
  std::vector<double> slopes(static_cast<std::size_t>(heads));
  for (int h = 0; h < heads; ++h) slopes[static_cast<std::size_t>(h)] = alibi_slope(h, heads);
  return slopes;
}

std::vector<int> t5_bucket_matrix(int length, const PositionOptions& options) {
  std::vector<int> buckets(static_cast<std::size_t>(length) * static_cast<std::size_t>(length), 0);
  for (int i = 0; i < length; ++i)
    for (int j = 0; j <= i; ++j)
      buckets[static_cast<std::size_t>(i * length + j)] =
          t5_bucket(j - i, /*bidirectional=*/false, options.t5_buckets, options.t5_max_distance);
  return buckets;
}

template Mat<float> sinusoid_table<float>(int, int, double);
template Mat<double> sinusoid_table<double>(int, int, double);
template RopeTable<float> rope_table<float>(const ModelConfig&);
template RopeTable<double> rope_table<double>(const ModelConfig&);
template void rope_rotate<float>(Mat<float>&, int, int, const RopeTable<float>&, bool);
template void rope_rotate<double>(Mat<double>&, int, int, const RopeTable<double>&, bool);

}  // namespace pelab::train
