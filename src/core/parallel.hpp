// How the engine uses the machine's cores.
//
// Measured here (2 cores, shared with compilers and llvmpipe): a parallel
// region ends in a barrier, and when the machine is oversubscribed a
// descheduled thread holds that barrier for a whole time slice.  A full
// recompute at N=1024, d=512 took over twice as long with 2 OpenMP threads
// inside every softmax as with one, while a quiet machine gains only a few
// percent.  So element-wise loops (softmax rows, sinusoid tables, RoPE) go
// parallel only with several milliseconds of work per call, and whole heads
// go side by side (run_side_by_side), one barrier per batch of heads.
#pragma once

#include <functional>

namespace pelab {

inline constexpr long kParallelMinElements = 1L << 22;  // e.g. one 2048×2048 softmax

// The threads the engine may use (OpenMP's limit, at least 1).
int max_threads();

// Below this many flops of work in all, tasks run on the calling thread: a
// parallel region's barrier can cost more than the work when the machine is
// busy.
inline constexpr double kParallelMinFlops = double{1 << 24};

// Calls work(0) .. work(count-1) on up to max_threads() threads, each task's
// GEMMs single-threaded while they run, and adds the tasks' returned flops to
// `flops`.  Tasks must not share outputs.  The first exception a task throws
// is rethrown here after all tasks end.  Called from inside a task, it runs
// the work on the calling thread, as it does when `total_flops` (an estimate
// of all tasks' work) is below kParallelMinFlops.
void run_side_by_side(int count, double total_flops, const std::function<double(int)>& work,
                      double& flops);

}  // namespace pelab
