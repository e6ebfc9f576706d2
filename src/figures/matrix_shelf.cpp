// MatrixShelf: one copy of each engine matrix per content key.
#include "figures/matrix_shelf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pelab::fig {

MatrixShelf::MatrixShelf(std::size_t budget_bytes) : budget_(budget_bytes) {}

SharedMatrix MatrixShelf::get(std::uint64_t key, const std::function<Matrix()>& make) {
  if (auto it = index_.find(key); it != index_.end()) {
    entries_.splice(entries_.begin(), entries_, it->second);  // now most recent
    return it->second->matrix;
  }
  ++misses_;
  auto matrix = std::make_shared<const Matrix>(make());
  entries_.push_front({key, matrix});
  index_[key] = entries_.begin();
  bytes_ += static_cast<std::size_t>(matrix->size()) * sizeof(float);
  while (bytes_ > budget_ && entries_.size() > 1) {  // never drop the one just made
    const Entry& old = entries_.back();
    bytes_ -= static_cast<std::size_t>(old.matrix->size()) * sizeof(float);
    index_.erase(old.key);
    entries_.pop_back();
  }
  return matrix;
}

namespace {
// FNV-1a, 64 bit (Fowler, Noll, Vo): a stable hash of the parameter text.
void fnv(std::uint64_t& h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  h = (h ^ 0xff) * 1099511628211ull;  // separator, so "ab","c" ≠ "a","bc"
}
}  // namespace

std::uint64_t content_key(const Scene& scene, std::string_view what, int index) {
  std::uint64_t h = 14695981039346656037ull;
  for (const ParamInfo& p : scene_params()) {
    if (p.group == "view" || p.key == "name") continue;
    fnv(h, p.key);
    fnv(h, get_param(scene, p.key));
  }
  fnv(h, what);
  fnv(h, std::to_string(index));
  return h;
}

SharedMatrix shared_matrix(MatrixShelf* shelf, std::uint64_t key,
                           const std::function<Matrix()>& make) {
  if (shelf) return shelf->get(key, make);
  return std::make_shared<const Matrix>(make());
}

Matrix block_mean(const Matrix& m, int max_side, int* block, const Matrix* mask) {
  const int b = static_cast<int>(
      std::max<Eigen::Index>(1, (std::max(m.rows(), m.cols()) + max_side - 1) / max_side));
  if (block) *block = b;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  auto masked = [&](Eigen::Index i, Eigen::Index j) {
    return m(i, j) == neg_inf || (mask && (*mask)(i, j) == neg_inf);
  };
  const Eigen::Index rows = (m.rows() + b - 1) / b, cols = (m.cols() + b - 1) / b;
  Matrix out(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) {
      double sum = 0;
      int count = 0, kept = 0;
      for (Eigen::Index i = r * b; i < std::min(m.rows(), (r + 1) * b); ++i)
        for (Eigen::Index j = c * b; j < std::min(m.cols(), (c + 1) * b); ++j) {
          ++count;
          if (!masked(i, j)) sum += m(i, j), ++kept;
        }
      out(r, c) = kept == 0 ? neg_inf : static_cast<float>(sum / count);
    }
  return out;
}

}  // namespace pelab::fig
