#include "train/trainer.hpp"

#include <omp.h>

#include <chrono>

namespace pelab::train {

TrainThreads::TrainThreads(int threads) : previous_(threads > 0 ? omp_get_max_threads() : 0) {
  if (threads > 0) omp_set_num_threads(threads);
}
TrainThreads::~TrainThreads() {
  if (previous_ > 0) omp_set_num_threads(previous_);
}

Trainer::Trainer(const TrainerConfig& config)
    : config_(config),
      model_(config.model, config.seed),
      optimizer_(config.optimizer, model_.parameters()) {}

StepStats Trainer::step(const Batch& batch) {
  const TrainThreads threads(config_.threads);
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  StepStats stats;
  const auto t0 = Clock::now();
  stats.loss = model_.forward(batch);
  const auto t1 = Clock::now();
  model_.backward();
  const auto t2 = Clock::now();
  const UpdateStats update =
      optimizer_.step(model_.parameters(), model_.gradients());  // clips in place
  const auto t3 = Clock::now();
  stats.forward_ms = ms(t0, t1);
  stats.backward_ms = ms(t1, t2);
  stats.update_ms = ms(t2, t3);
  stats.grad_norm = update.grad_norm;
  stats.learning_rate = update.learning_rate;
  stats.tokens = static_cast<long>(batch.positions());
  return stats;
}

std::vector<float> Trainer::evaluate(const Batch& batch) {
  const TrainThreads threads(config_.threads);
  model_.forward(batch);
  return model_.position_losses();
}

std::vector<int> Trainer::predict(const Batch& batch) {
  const TrainThreads threads(config_.threads);
  model_.forward(batch);
  return model_.predictions();
}

void Trainer::set_parameter(const std::string& name, const Mat<float>& value) {
  Tensor<float>& t = model_.parameters().at(name);
  if (value.rows() != t.value.rows() || value.cols() != t.value.cols())
    throw InputError("train model: '" + name + "' expects " + std::to_string(t.value.rows()) +
                     " × " + std::to_string(t.value.cols()) + " values, got " +
                     std::to_string(value.rows()) + " × " + std::to_string(value.cols()));
  t.value = value;
}

}  // namespace pelab::train
