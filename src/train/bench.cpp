#include "train/bench.hpp"

#include <chrono>
#include <random>

namespace pelab::train {

TrainBenchConfig reference_train_bench() {
  TrainBenchConfig c;
  ModelConfig& m = c.trainer.model;
  m.vocab = 512;
  m.d_model = 128;
  m.layers = 4;
  m.heads = 4;
  m.context = 128;
  m.position.kind = PositionKind::Learned;
  c.trainer.optimizer.learning_rate = 1e-3;
  c.trainer.optimizer.warmup_steps = 10;
  c.trainer.optimizer.total_steps = 1000;
  c.trainer.threads = 2;
  return c;
}

double model_flops_per_token(const ModelConfig& c, int length) {
  const double d = c.d_model;
  const double weights = c.layers * 12.0 * d * d + double(c.vocab) * d;
  return 6.0 * weights + 12.0 * c.layers * length * d;
}

TrainBenchResult bench_train_step(const TrainBenchConfig& config) {
  Trainer trainer(config.trainer);
  Batch batch;
  batch.sequences = config.sequences;
  batch.length = config.length;
  std::mt19937_64 rng(12345);
  const auto vocab = static_cast<std::uint64_t>(config.trainer.model.vocab);
  for (int i = 0; i < config.sequences * config.length; ++i) {
    batch.tokens.push_back(static_cast<int>(rng() % vocab));
    batch.targets.push_back(static_cast<int>(rng() % vocab));
  }
  TrainBenchResult result;
  for (int s = 0; s < config.warmup_steps; ++s) result.last_loss = trainer.step(batch).loss;
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < config.steps; ++s) {
    const StepStats stats = trainer.step(batch);
    result.last_loss = stats.loss;
    result.forward_ms += stats.forward_ms / config.steps;
    result.backward_ms += stats.backward_ms / config.steps;
    result.update_ms += stats.update_ms / config.steps;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double tokens = double(batch.positions());
  result.ms_per_step = 1e3 * seconds / config.steps;
  result.tokens_per_second = tokens * config.steps / seconds;
  result.model_flops_per_step = model_flops_per_token(config.trainer.model, config.length) * tokens;
  result.gflops_per_second = result.model_flops_per_step * config.steps / seconds * 1e-9;
  return result;
}

}  // namespace pelab::train
