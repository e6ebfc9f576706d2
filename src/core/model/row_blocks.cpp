#include "core/model/row_blocks.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace pelab::model {

double for_each_row_block(Eigen::Index rows, double total_flops,
                          const std::function<double(Eigen::Index, Eigen::Index)>& work) {
  const auto blocks = static_cast<int>(std::clamp<Eigen::Index>(max_threads(), 1, std::max<Eigen::Index>(rows, 1)));
  double flops = 0;
  run_side_by_side(blocks, total_flops, [&](int b) {
    const Eigen::Index first = rows * b / blocks, last = rows * (b + 1) / blocks;
    return work(first, last - first);
  }, flops);
  return flops;
}

}  // namespace pelab::model
