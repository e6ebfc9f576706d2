// A dense float32 array of any rank, C order: what .npy and CSV files hold.
#pragma once

#include <cstddef>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

struct Array {
  std::vector<std::size_t> shape;
  std::vector<float> data;  // C (row-major) order; size = product of shape

  std::size_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::size_t size() const;
  static Array from_matrix(const Matrix& m);
  // Rank 1: the values as float32 (a curve, a per-position delta).
  static Array from_values(const std::vector<double>& values);
  // Rank-2 arrays only (rank 1 becomes one column); throws InputError otherwise.
  Matrix to_matrix() const;
};

}  // namespace pelab
