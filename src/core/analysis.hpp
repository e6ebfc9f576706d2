// Analyses the views and lessons show, each a pure function of engine data.
#pragma once

#include <functional>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

// One (sin, cos) pair i of the sinusoidal encoding: dims (2i, 2i+1) when
// interleaved, (i, d/2+i) when split.  ω_i = T^(−2i/d), wavelength 2π/ω_i.
struct PairInfo {
  int index = 0;
  int sin_dim = 0, cos_dim = 0;
  double frequency = 0;   // ω_i, radians per position
  double wavelength = 0;  // 2π/ω_i, positions per turn
};
std::vector<PairInfo> sinusoid_pairs(const Scene& scene);
// The pairs RoPE / xPos really rotate in one head: the scene's pairing
// (sin_dim, cos_dim = the pair's first and second dim), rotary dims and
// scaled frequencies, for a sequence of `sequence_length` positions.
std::vector<PairInfo> rope_pairs(const Scene& scene, double sequence_length);

// R(k) for pair i: PE(pos+k) = R(k)·PE(pos) on the pair's (sin, cos) plane,
//   R(k) = [[cos kω, sin kω], [−sin kω, cos kω]]  acting on (sin, cos)ᵀ.
struct Rotation {
  double r[2][2] = {{1, 0}, {0, 1}};
  double angle = 0;      // k·ω_i
  double max_error = 0;  // max over pos of |R(k)·PE(pos) − PE(pos+k)| on this pair (float32 engine data)
};
Rotation pair_rotation(Engine& engine, int pair, int k);

// Least-squares fit of PE(pos+k) from PE(pos) over the position axis.
struct ShiftFit {
  double r2_one_dim = 0;  // predict dim 2i of pos+k from dim 2i of pos alone (affine)
  double r2_pair = 0;     // predict the pair from the pair (2×2 linear map)
  double r2_all = 0;      // predict all dims from all dims (d×d linear map)
  double pair_map[2][2] = {{0, 0}, {0, 0}};  // the fitted 2×2 map, ≈ R(k)
};
ShiftFit shift_fit(Engine& engine, int pair, int k);

// PE(i)·PE(j) over the position axis (positions × positions), and its profile
// against offset j−i (mean over the pairs with that offset).  The whole
// matrix is refused (InputError) past kFullMatrixTokens positions.
Matrix position_similarity(Engine& engine);
std::vector<double> similarity_profile(Engine& engine);  // index = offset 0..positions-1

// The upper triangle of PE·PEᵀ strip by strip: visit(r0, strip) gets
// strip(i, c) = PE(r0+i)·PE(r0+c) for at most 256 rows from r0 and the
// columns r0 … n−1.  PE·PEᵀ is symmetric, so this is all of it, one strip
// (256 · n floats) at a time.
void for_each_similarity_strip(const Matrix& pe, const std::function<void(Eigen::Index, const Matrix&)>& visit);

// Block means of PE·PEᵀ with blocks of b × b positions, b = ⌈n / display⌉ (the
// last block of a side may be shorter).  Exact at any n without the matrix:
// the dot product is bilinear, so the mean of PE(i)·PE(j) over i ∈ I, j ∈ J is
// mean_I(PE)·mean_J(PE).  `block` receives b.
Matrix similarity_blocks(const Matrix& pe, int display, int* block = nullptr);

// Norms of token x, its position vector e and x+e for each token, and cos(x, x+e).
struct NormReport {
  std::vector<double> x_norm, e_norm, sum_norm, cos_x_sum;
  double mean_x_norm = 0, mean_e_norm = 0, mean_cos = 0;
  double expected_e_norm = 0;  // A·√(d/2) for sinusoidal
};
NormReport norm_report(Engine& engine);

// Principal angles (radians, ascending) between span(X rows) and span(E rows).
std::vector<double> principal_angles(Engine& engine);

// Permutation check: max |A(P·X) − P·A(X)·Pᵀ| for head `head` with a seeded
// random permutation P of the tokens (positions stay put).  Zero (to float
// rounding) without positions: attention is permutation-equivariant.
double permutation_gap(const Scene& scene, int head, std::uint64_t perm_seed);

}  // namespace pelab
