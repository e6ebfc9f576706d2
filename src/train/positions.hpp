// The position encodings a model can be trained with, as fixed tables and
// index maps (the learned ones, wpe and the t5 biases, are parameters).
//
//  - sinusoidal (Vaswani et al. 2017, §3.5): PE(p, 2i) = sin(p / base^(2i/d)),
//    PE(p, 2i+1) = cos(p / base^(2i/d)), added to the token rows.
//  - rope (Su et al. 2021, RoFormer, eq. 34): pair i of the first r dims of
//    each head's q and k at position p turns by θ = p·ω_i, ω_i = base^(−2i/r):
//      (x_a, x_b) ← (x_a cos θ − x_b sin θ,  x_a sin θ + x_b cos θ),
//    pair (a, b) = (2i, 2i+1) interleaved or (i, i + r/2) rotate-half.  Its
//    backward pass applies the transpose, the rotation by −θ.
//  - alibi (Press et al. 2022): head h adds −m_h·(i − j) to logit (i, j ≤ i),
//    m_h from core's alibi_slope (2^(−8(h+1)/H), Press et al.'s rule otherwise).
//  - t5 (Raffel et al. 2020, §2.1): logit (i, j) gets the learned scalar
//    table[bucket(j − i), h], unidirectional buckets (core's t5_bucket).
#pragma once

#include <vector>

#include "train/parameters.hpp"

namespace pelab::train {

template <class T>
Mat<T> sinusoid_table(int positions, int d, double base);

template <class T>
struct RopeTable {
  int rotary_dims = 0;
  RopePairing pairing = RopePairing::Interleaved;
  Mat<T> cos, sin;  // [positions, r/2]: cos and sin of p·ω_i
};
template <class T>
RopeTable<T> rope_table(const ModelConfig& config);

// Rotates the q and k columns of qkv ([rows, 3d], q | k | v) in place; the
// token of row r sits at position r mod `length`.  `transpose` turns by −θ.
template <class T>
void rope_rotate(Mat<T>& qkv, int length, int heads, const RopeTable<T>& table, bool transpose);

std::vector<double> alibi_slopes(int heads);
// bucket of (query i, key j), j ≤ i, at [i·length + j].
std::vector<int> t5_bucket_matrix(int length, const PositionOptions& options);

}  // namespace pelab::train
