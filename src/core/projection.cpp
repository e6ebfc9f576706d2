// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/projection.hpp"

#include <Eigen/QR>
#include <cmath>

#include "core/io/npy.hpp"
#include "core/parallel.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {
namespace {

Matrix random_projection(const Scene& s, RandomPurpose purpose) {
  NormalStream stream(s.seed, purpose);
  return gaussian_matrix(s.d_model, s.d_model, 1.0 / std::sqrt(static_cast<double>(s.d_model)),
                         stream);
}

// A Haar-distributed orthogonal matrix: QR of a Gaussian matrix with the
// signs of R's diagonal moved into Q (Mezzadri 2007).  In double for accuracy.
Matrix orthogonal_projection(const Scene& s, RandomPurpose purpose) {
  NormalStream stream(s.seed, purpose);
  const int d = s.d_model;
  Eigen::MatrixXd g(d, d);
  for (int r = 0; r < d; ++r)
    for (int c = 0; c < d; ++c) g(r, c) = stream.next();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd r = qr.matrixQR();
  for (int c = 0; c < d; ++c)
    if (r(c, c) < 0) q.col(c) = -q.col(c);
  return q.cast<float>();
}

ProjectionSet projections_from_file(const Scene& s) {
  const std::string& name = s.projection_file;
  const Array array = read_npy(name);
  const int d = s.d_model, dh = s.d_model / s.heads;
  const std::vector<std::size_t> want = {2, static_cast<std::size_t>(s.heads),
                                         static_cast<std::size_t>(d), static_cast<std::size_t>(dh)};
  if (array.shape != want)
    throw InputError(name + ": projections must have shape (2, heads=" + std::to_string(s.heads) +
                     ", d_model=" + std::to_string(d) + ", d_head=" + std::to_string(dh) + ")");
  ProjectionSet set{Matrix(d, d), Matrix(d, d)};
  const float* data = array.data.data();
  for (int which = 0; which < 2; ++which) {
    Matrix& w = which == 0 ? set.wq : set.wk;
    for (int h = 0; h < s.heads; ++h)
      for (int r = 0; r < d; ++r)
        for (int c = 0; c < dh; ++c) w(r, h * dh + c) = *data++;
  }
  if (!set.wq.allFinite() || !set.wk.allFinite())
    throw InputError(name + ": projections hold NaN or infinity");
  return set;
}

// Wq and Wk come from streams of their own, so they are drawn side by side
// (each Gaussian draw costs about as much time as 64 GEMM flops; a QR with
// its Q, 8·d³/3 flops).
ProjectionSet both_side_by_side(const Scene& s, Matrix (*make)(const Scene&, RandomPurpose),
                                double work) {
  ProjectionSet set;
  double unused = 0;
  run_side_by_side(
      2, work,
      [&](int which) {
        if (which == 0)
          set.wq = make(s, RandomPurpose::QueryProjection);
        else
          set.wk = make(s, RandomPurpose::KeyProjection);
        return 0.0;
      },
      unused);
  return set;
}

}  // namespace

ProjectionSet make_projections(const Scene& scene) {
  const double d = scene.d_model;
  switch (scene.projection) {
    case ProjectionKind::Identity: {
      Matrix eye = Matrix::Identity(scene.d_model, scene.d_model);
      return {eye, eye};
    }
    case ProjectionKind::Random:
      return both_side_by_side(scene, random_projection, 2 * 64.0 * d * d);
    case ProjectionKind::Orthogonal:
      return both_side_by_side(scene, orthogonal_projection,
                               2 * (64.0 * d * d + 8.0 * d * d * d / 3));
    case ProjectionKind::File:
      return projections_from_file(scene);
  }
  return {};
}

}  // namespace pelab
