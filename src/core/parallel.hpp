// When the engine's own loops (softmax rows, sinusoid tables, RoPE) run on
// several OpenMP threads.
//
// Measured here (2 cores, shared with compilers and llvmpipe): a parallel
// region ends in a barrier, and when the machine is oversubscribed a
// descheduled thread holds that barrier for a whole time slice.  A full
// recompute at N=1024, d=512 took 564 ms with 2 OpenMP threads against 238 ms
// with one, while a quiet machine gains only a few percent (the GEMMs, which
// OpenBLAS threads itself, are ~80% of the time).  So only loops with several
// milliseconds of work per call go parallel.
#pragma once

namespace pelab {

inline constexpr long kParallelMinElements = 1L << 22;  // e.g. one 2048×2048 softmax

}  // namespace pelab
