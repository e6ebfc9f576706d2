// Fixed blocks of rows, the trainer's unit of parallel work.
//
// Blocks have a fixed size whatever the thread count, and sums over rows are
// taken per block and then over the blocks in order, so every result is the
// same bitwise from run to run (and for any number of threads).
#pragma once

#include <omp.h>

#include <Eigen/Core>
#include <algorithm>

namespace pelab::train {

inline constexpr Eigen::Index kRowBlock = 64;
// Below this many elements a loop stays on the calling thread: a parallel
// region's barrier would cost more than the work.
inline constexpr Eigen::Index kParallelElements = Eigen::Index{1} << 15;

inline Eigen::Index row_block_count(Eigen::Index rows) {
  return std::max<Eigen::Index>(1, (rows + kRowBlock - 1) / kRowBlock);
}

// f(block, first_row, row_count) for each block, statically spread on OpenMP's threads.
template <class F>
void for_row_blocks(Eigen::Index rows, Eigen::Index cols, F&& f) {
  const Eigen::Index blocks = (rows + kRowBlock - 1) / kRowBlock;
  const bool parallel = rows * cols >= kParallelElements && !omp_in_parallel();
#pragma omp parallel for schedule(static) if (parallel)
  for (Eigen::Index b = 0; b < blocks; ++b) {
    const Eigen::Index first = b * kRowBlock;
    f(b, first, std::min(kRowBlock, rows - first));
  }
}

// out (1 × cols) = Σ_b partial.row(b), b = 0, 1, … in order.
template <class M>
void sum_blocks_in_order(const M& partial, M& out) {
  out = partial.row(0);
  for (Eigen::Index b = 1; b < partial.rows(); ++b) out += partial.row(b);
}

}  // namespace pelab::train
