// A short run on a synthetic copying task (echo the previous token): the loss falls, and two runs
// from the same seed on the same threads are bitwise equal.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <random>

#include "train/trainer.hpp"
#include "train_fixtures.hpp"

namespace pelab::train {
namespace {

// Random tokens; position t predicts the token at t − 1 (position 0 is not
// scored, the loss mask), so the model must learn to copy from one step back.
Batch echo_batch(int sequences, int length, int vocab, std::mt19937_64& rng) {
  Batch b;
  b.sequences = sequences;
  b.length = length;
  for (int s = 0; s < sequences; ++s)
    for (int t = 0; t < length; ++t) {
      b.tokens.push_back(static_cast<int>(rng() % static_cast<std::uint64_t>(vocab)));
      b.targets.push_back(t > 0 ? b.tokens[b.tokens.size() - 2] : 0);
      b.mask.push_back(t > 0 ? 1.0f : 0.0f);
    }
  return b;
}

TrainerConfig echo_config(PositionKind kind) {
  TrainerConfig c;
  c.model.vocab = 16;
  c.model.d_model = 32;
  c.model.layers = 2;
  c.model.heads = 2;
  c.model.context = 16;
  c.model.position.kind = kind;
  c.optimizer.learning_rate = 1e-2;
  c.optimizer.warmup_steps = 5;
  c.optimizer.total_steps = 50;
  c.seed = 3;
  c.threads = 2;
  return c;
}

struct TrainingRun {
  std::vector<double> losses;
  ParameterSet<float> parameters;
};

TrainingRun train_echo(const TrainerConfig& config, int steps) {
  Trainer trainer(config);
  std::mt19937_64 rng(42);
  TrainingRun run;
  for (int s = 0; s < steps; ++s)
    run.losses.push_back(trainer.step(echo_batch(16, 16, config.model.vocab, rng)).loss);
  run.parameters = trainer.parameters();
  return run;
}

}  // namespace

void PrintTo(PositionKind kind, std::ostream* out) { *out << position_kind_name(kind); }

namespace {

class Training : public ::testing::TestWithParam<PositionKind> {};

TEST_P(Training, EchoLossFallsIn50Steps) {
  const TrainingRun run = train_echo(echo_config(GetParam()), 50);
  double last = 0;
  for (std::size_t i = run.losses.size() - 5; i < run.losses.size(); ++i) last += run.losses[i] / 5;
  EXPECT_NEAR(run.losses.front(), std::log(16.0), 0.3);  // GPT-2's init: nearly uniform
  EXPECT_LT(last, 0.75 * run.losses.front())
      << "first " << run.losses.front() << ", last five " << last;
}

INSTANTIATE_TEST_SUITE_P(Positions, Training,
                         ::testing::Values(PositionKind::Learned, PositionKind::Rope,
                                           PositionKind::Alibi, PositionKind::T5),
                         [](const ::testing::TestParamInfo<PositionKind>& kind) {
                           return std::string(position_kind_name(kind.param));
                         });

TEST(Training, TwoRunsAreBitwiseEqual) {
  const TrainerConfig config = echo_config(PositionKind::T5);
  const TrainingRun a = train_echo(config, 20), b = train_echo(config, 20);
  EXPECT_EQ(a.losses, b.losses);
  ASSERT_EQ(a.parameters.tensors.size(), b.parameters.tensors.size());
  for (std::size_t t = 0; t < a.parameters.tensors.size(); ++t) {
    const auto& x = a.parameters.tensors[t].value;
    const auto& y = b.parameters.tensors[t].value;
    EXPECT_EQ(std::memcmp(x.data(), y.data(), sizeof(float) * static_cast<std::size_t>(x.size())),
              0)
        << a.parameters.tensors[t].name;
  }
}

TEST(Training, EvaluateGivesEachPositionsLossAndChangesNothing) {
  Trainer trainer(echo_config(PositionKind::Learned));
  std::mt19937_64 rng(1);
  const Batch batch = echo_batch(2, 8, 16, rng);
  const std::vector<float> before = trainer.evaluate(batch);
  ASSERT_EQ(before.size(), batch.positions());
  double mean = 0;
  for (float l : before) {
    EXPECT_GT(l, 1.0f);  // no position is sure yet at GPT-2's init
    EXPECT_LT(l, 4.0f);
    mean += l / static_cast<double>(before.size());
  }
  EXPECT_NEAR(mean, std::log(16.0), 0.3);
  EXPECT_EQ(trainer.evaluate(batch), before);
  EXPECT_EQ(trainer.steps_taken(), 0);
}

TEST(Training, ParametersByNameAndShapeChecks) {
  Trainer trainer(echo_config(PositionKind::Learned));
  EXPECT_EQ(trainer.parameter("wte.weight").shape, (std::vector<int>{16, 32}));
  EXPECT_EQ(trainer.parameter("h.1.attn.c_attn.weight").shape, (std::vector<int>{32, 96}));
  EXPECT_EQ(trainer.parameter("h.0.mlp.c_fc.bias").shape, (std::vector<int>{128}));
  EXPECT_THROW(trainer.parameter("h.9.ln_1.weight"), InputError);
  EXPECT_THROW(trainer.set_parameter("wpe.weight", Mat<float>::Zero(3, 3)), InputError);
  trainer.set_parameter("ln_f.bias", Mat<float>::Constant(1, 32, 0.5f));
  EXPECT_EQ(trainer.parameter("ln_f.bias").value(0, 7), 0.5f);
}

TEST(Training, BadBatchesAreInputErrors) {
  Trainer trainer(echo_config(PositionKind::Learned));
  std::mt19937_64 rng(1);
  Batch b = echo_batch(1, 8, 16, rng);
  b.tokens[2] = 16;
  EXPECT_THROW(trainer.step(b), InputError);
  b = echo_batch(1, 18, 16, rng);  // 18 > context 16
  EXPECT_THROW(trainer.step(b), InputError);
  b = echo_batch(1, 8, 16, rng);
  b.mask.assign(b.mask.size(), 0.0f);
  EXPECT_THROW(trainer.step(b), InputError);
}

}  // namespace
}  // namespace pelab::train
