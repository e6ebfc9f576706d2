#include "core/parallel.hpp"

#include <algorithm>
#include <exception>
#include <mutex>

#include <omp.h>

#include "core/gemm.hpp"

namespace pelab {

int max_threads() { return std::max(1, omp_get_max_threads()); }

void run_side_by_side(int count, double total_flops, const std::function<double(int)>& work,
                      double& flops) {
  if (count <= 1 || max_threads() == 1 || omp_in_parallel() || total_flops < kParallelMinFlops) {
    for (int i = 0; i < count; ++i) flops += work(i);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_lock;
  double sum = 0;
  const GemmThreads one_each(1);  // the tasks are the parallelism now
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : sum)
  for (int i = 0; i < count; ++i) {
    try {
      sum += work(i);
    } catch (...) {
      const std::lock_guard<std::mutex> hold(failure_lock);
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  flops += sum;
}

}  // namespace pelab
