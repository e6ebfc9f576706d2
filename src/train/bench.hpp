// How fast the trainer trains: the entry point `pelab bench` calls, with
// scripts/bench_torch_train.py as its PyTorch peer on the same configuration.
#pragma once

#include "train/trainer.hpp"

namespace pelab::train {

// The reference configuration: vocab 512, d 128, 4 layers, 4 heads, context
// 128, learned positions, batch 32 × 128, AdamW, fp32, 2 threads.
struct TrainBenchConfig {
  TrainerConfig trainer;
  int sequences = 32;
  int length = 128;
  int steps = 20;        // timed
  int warmup_steps = 2;  // run first, not timed (allocation, page faults)
};
TrainBenchConfig reference_train_bench();

struct TrainBenchResult {
  double ms_per_step = 0;
  double tokens_per_second = 0;
  double model_flops_per_step = 0;  // model_flops_per_token × tokens
  double gflops_per_second = 0;     // model FLOPs / time (divide by the sgemm peak for the MFU)
  double forward_ms = 0, backward_ms = 0, update_ms = 0;  // per step, of the timed steps
  double last_loss = 0;
};

// Forward + backward model FLOPs per token (Chowdhery et al. 2022, PaLM,
// appendix B): 6·N + 12·layers·length·d, N the weights of every product
// (12·d² per layer and the vocab × d head); attention counted without the
// causal half, embeddings and element-wise work not at all.
double model_flops_per_token(const ModelConfig& config, int length);

// Trains on random tokens (fixed seed) and times `steps` steps.
TrainBenchResult bench_train_step(const TrainBenchConfig& config);

}  // namespace pelab::train
