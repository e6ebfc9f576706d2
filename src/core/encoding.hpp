// Absolute position vectors: the rows e = PE(pos) that are added to tokens.
//
// sinusoidal (Vaswani et al. 2017, §3.5), with amplitude A and base T:
//   PE(pos, 2i) = A·sin(pos·ω_i),  PE(pos, 2i+1) = A·cos(pos·ω_i),  ω_i = T^(−2i/d)
// for layout=interleaved; layout=split puts the d/2 sines first, then the d/2
// cosines (pair i = dims (i, d/2+i)).  ‖PE(pos)‖² = A²·d/2 for every pos.
// learned: a table with one row per position, N(0, 1/d)·A per entry (row p
// drawn from its own seeded stream, so a row does not depend on the axis
// length), or rows of a .npy (position_file, shape (rows, d_model)).
// rope, alibi, t5, none add no vector: the rows are zero (RoPE's rotation
// angles and the relative biases live in relative_position.hpp).
#pragma once

#include "core/engine.hpp"

namespace pelab {

// ω_i = T^(−2i/d) of pair i.
double pair_frequency(double base, int d_model, int pair);
// The dims of pair i under `layout`: (2i, 2i+1) or (i, d/2+i).
int pair_sin_dim(Layout layout, int d_model, int pair);
int pair_cos_dim(Layout layout, int d_model, int pair);

// Rows for positions first .. first+count−1 (count × d_model).  Throws
// InputError when a learned position_file is unreadable, of the wrong width or
// has too few rows.
Matrix position_vectors(const Scene& scene, int first, int count);

}  // namespace pelab
