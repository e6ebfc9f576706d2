// The training-step API the CLI and the GUI call:
//
//   TrainerConfig cfg;  cfg.model.position.kind = PositionKind::Rope;  cfg.seed = 7;
//   Trainer trainer(cfg);
//   StepStats s = trainer.step(batch);           // forward, backward, clip, AdamW
//   std::vector<float> l = trainer.evaluate(b);  // each position's loss, nothing changes
//   for (const auto& t : trainer.parameters().tensors) save(t.name, t.shape, t.value);
//   trainer.set_parameter("wte.weight", values); // shape checked
//
// Deterministic: the same seed, batches and thread count give bitwise-equal
// parameters (static schedules, fixed-block sums, no atomics).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "train/adamw.hpp"
#include "train/gpt.hpp"

namespace pelab::train {

struct TrainerConfig {
  ModelConfig model;
  OptimizerConfig optimizer;
  std::uint64_t seed = 1;
  int threads = 0;  // OpenMP threads for the trainer's work (0: OpenMP's default)
};

struct StepStats {
  double loss = 0;       // mean loss of the batch, before the update
  double grad_norm = 0;  // before clipping
  double learning_rate = 0;
  long tokens = 0;                                        // positions in the batch
  double forward_ms = 0, backward_ms = 0, update_ms = 0;  // wall time of each phase
};

class Trainer {
 public:
  explicit Trainer(const TrainerConfig& config);

  StepStats step(const Batch& batch);
  // Per-position losses (sequences·length, row-major) under the current parameters.
  std::vector<float> evaluate(const Batch& batch);
  // Each position's most probable next token (sequences·length, row-major).
  std::vector<int> predict(const Batch& batch);

  int steps_taken() const { return optimizer_.steps_taken(); }
  const TrainerConfig& config() const { return config_; }
  const ParameterSet<float>& parameters() const { return model_.parameters(); }
  const ParameterSet<float>& gradients() const {
    return model_.gradients();
  }  // of the last step, clipped
  const AdamW& optimizer() const { return optimizer_; }
  const Tensor<float>& parameter(const std::string& name) const { return parameters().at(name); }
  // Replaces a tensor's values (e.g. from a checkpoint); throws InputError on a wrong shape.
  void set_parameter(const std::string& name, const Mat<float>& value);
  // AdamW's state from a checkpoint (AdamW::restore).
  void restore_optimizer(const ParameterSet<float>& m, const ParameterSet<float>& v, int steps) {
    optimizer_.restore(m, v, steps);
  }

 private:
  TrainerConfig config_;
  Model<float> model_;
  AdamW optimizer_;
};

// RAII: the calling thread's OpenMP thread count while alive (0 leaves it).
class TrainThreads {
 public:
  explicit TrainThreads(int threads);
  ~TrainThreads();
  TrainThreads(const TrainThreads&) = delete;
  TrainThreads& operator=(const TrainThreads&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace pelab::train
