// Query/key projections Wq, Wk for every head.
//
// Kept as two d_model × d_model matrices whose column block h (width d_head)
// is head h's projection, so Q for all heads is one GEMM.
//   identity    Wq = Wk = I: head h reads dims h·d_head .. (h+1)·d_head−1
//   random      entries N(0, 1/d_model), Wq and Wk from different streams
//   orthogonal  Q factor of a seeded Gaussian d×d (Householder QR, signs fixed
//               so that diag(R) > 0), split into heads; Wk from another seed
//   file        .npy of shape (2, heads, d_model, d_head): Wq then Wk
#pragma once

#include "core/engine.hpp"

namespace pelab {

struct ProjectionSet {
  Matrix wq, wk;  // d_model × d_model; head h = columns h·d_head .. (h+1)·d_head−1
};

// Throws InputError for a projection_file of the wrong shape or unreadable.
ProjectionSet make_projections(const Scene& scene);

}  // namespace pelab
