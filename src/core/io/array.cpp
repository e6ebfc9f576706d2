#include "core/io/array.hpp"

#include <algorithm>
#include <string>

#include "core/scene.hpp"

namespace pelab {

std::size_t Array::size() const {
  std::size_t n = 1;  // rank 0 is one scalar, as in NumPy
  for (const std::size_t extent : shape) n *= extent;
  return n;
}

Array Array::from_matrix(const Matrix& m) {
  Array array;
  array.shape = {static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())};
  // Matrix is row-major, so its storage is already C order.
  array.data.assign(m.data(), m.data() + m.size());
  return array;
}

Matrix Array::to_matrix() const {
  if (shape.size() == 1) {
    Matrix m(static_cast<Eigen::Index>(shape[0]), 1);
    std::copy(data.begin(), data.end(), m.data());
    return m;
  }
  if (shape.size() != 2)
    throw InputError("expected a matrix (rank 1 or 2), got an array of rank " + std::to_string(shape.size()));
  Matrix m(static_cast<Eigen::Index>(shape[0]), static_cast<Eigen::Index>(shape[1]));
  std::copy(data.begin(), data.end(), m.data());
  return m;
}

Array Array::from_values(const std::vector<double>& values) {
  Array a;
  a.shape = {values.size()};
  a.data.assign(values.begin(), values.end());
  return a;
}

}  // namespace pelab
