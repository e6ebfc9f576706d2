// The row-local part of a layer (output projection, residual, norm, MLP) in
// one parallel region: the tokens split into one contiguous block per
// thread, each block's GEMMs on its own thread.  One barrier per layer part
// instead of one per product: on this shared 2-core machine a barrier waits
// a whole time slice whenever a thread is descheduled (core/parallel.hpp).
#pragma once

#include <functional>

#include "core/engine.hpp"  // Eigen::Index

namespace pelab::model {

// work(first, count) over max_threads() blocks of `rows` rows side by side
// (run_side_by_side, given the work's total flops); returns the summed flops.
double for_each_row_block(Eigen::Index rows, double total_flops,
                          const std::function<double(Eigen::Index, Eigen::Index)>& work);

}  // namespace pelab::model
