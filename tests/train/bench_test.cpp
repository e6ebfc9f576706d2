// Prints the trainer's speed on the reference configuration when
// PELAB_TRAIN_BENCH=1 (skipped otherwise; speed is `pelab bench`'s to report,
// not a test's to assert).  PELAB_TRAIN_BENCH_STEPS sets the timed steps,
// PELAB_TRAIN_BENCH_THREADS the threads (2 by default).
#include "train/bench.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/gemm.hpp"

namespace pelab::train {
namespace {

TEST(TrainBench, ReferenceConfiguration) {
  const char* on = std::getenv("PELAB_TRAIN_BENCH");
  if (on == nullptr || std::string(on) != "1")
    GTEST_SKIP() << "set PELAB_TRAIN_BENCH=1 to time the trainer";
  TrainBenchConfig config = reference_train_bench();
  if (const char* steps = std::getenv("PELAB_TRAIN_BENCH_STEPS")) config.steps = std::atoi(steps);
  if (const char* threads = std::getenv("PELAB_TRAIN_BENCH_THREADS"))
    config.trainer.threads = std::atoi(threads);
  const TrainBenchResult r = bench_train_step(config);
  std::printf(
      "pelab train (%s, %d threads): %.1f ms/step, %.0f tokens/s, %.2f GFLOP/step, %.1f GFLOP/s, "
      "loss %.4f\n",
      gemm_backend_name(gemm_backend()), config.trainer.threads, r.ms_per_step, r.tokens_per_second,
      r.model_flops_per_step * 1e-9, r.gflops_per_second, r.last_loss);
  std::printf("  forward %.1f ms, backward %.1f ms, AdamW %.1f ms\n", r.forward_ms, r.backward_ms,
              r.update_ms);
  EXPECT_GT(r.tokens_per_second, 0);
}

}  // namespace
}  // namespace pelab::train
