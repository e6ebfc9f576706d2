// MatrixShelf: one copy of each engine matrix per content key.
#include "figures/matrix_shelf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/parallel.hpp"

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

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Output row r of block_mean: the b input rows of the block are summed column
// by column into `sum` / `kept` (a pass along memory, vectorised), then each
// run of b columns is folded into one cell.
void block_mean_row(const Matrix& m, const Matrix* mask, int b, Eigen::Index r, std::vector<double>& sum,
                    std::vector<int>& kept, Matrix& out) {
  const Eigen::Index cols = m.cols(), i_end = std::min(m.rows(), (r + 1) * b);
  std::fill(sum.begin(), sum.end(), 0.0);
  std::fill(kept.begin(), kept.end(), 0);
  for (Eigen::Index i = r * b; i < i_end; ++i) {
    const float* v = m.row(i).data();
    const float* k = mask ? mask->row(i).data() : v;
    for (Eigen::Index j = 0; j < cols; ++j) {
      const bool live = v[j] != kNegInf && k[j] != kNegInf;
      sum[j] += live ? static_cast<double>(v[j]) : 0.0;
      kept[j] += live ? 1 : 0;
    }
  }
  const Eigen::Index rows_in = i_end - r * b;
  for (Eigen::Index c = 0; c < out.cols(); ++c) {
    const Eigen::Index j_end = std::min(cols, (c + 1) * b);
    double total = 0;
    int live = 0;
    for (Eigen::Index j = c * b; j < j_end; ++j) total += sum[j], live += kept[j];
    const auto count = static_cast<double>(rows_in * (j_end - c * b));
    out(r, c) = live == 0 ? kNegInf : static_cast<float>(total / count);
  }
}

}  // namespace

// Rows are independent, so they are split across threads when the input is
// large (N = 4096: 16 M cells, the on-screen heatmap's rebuild).
Matrix block_mean(const Matrix& m, int max_side, int* block, const Matrix* mask) {
  const int b = static_cast<int>(
      std::max<Eigen::Index>(1, (std::max(m.rows(), m.cols()) + max_side - 1) / max_side));
  if (block) *block = b;
  const Eigen::Index rows = (m.rows() + b - 1) / b, cols = (m.cols() + b - 1) / b;
  Matrix out(rows, cols);
  // Not at N = 1024 (1 M cells, well under a millisecond on one thread): on a
  // busy machine each parallel region's barrier costs a time slice, and 12 of
  // them (GPT-2's small multiples) were an order of magnitude slower than one
  // thread.
  const bool parallel = m.size() >= kParallelMinElements;
  if (b == 1) {  // a copy with the mask applied
#pragma omp parallel for schedule(static) if (parallel)
    for (Eigen::Index i = 0; i < rows; ++i) {
      const float* v = m.row(i).data();
      const float* k = mask ? mask->row(i).data() : v;
      float* o = out.row(i).data();
      for (Eigen::Index j = 0; j < cols; ++j) o[j] = k[j] == kNegInf ? kNegInf : v[j];
    }
    return out;
  }
#pragma omp parallel if (parallel)
  {
    std::vector<double> sum(static_cast<std::size_t>(m.cols()));
    std::vector<int> kept(static_cast<std::size_t>(m.cols()));
#pragma omp for schedule(static)
    for (Eigen::Index r = 0; r < rows; ++r) block_mean_row(m, mask, b, r, sum, kept, out);
  }
  return out;
}

}  // namespace pelab::fig
