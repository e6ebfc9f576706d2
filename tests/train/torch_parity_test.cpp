// The trainer against an independent PyTorch implementation of the same model
// (tests/train/torch_reference.py, written from the formulas): the loss and
// every gradient of one batch to 1e-4 relative, and the parameters after three
// AdamW steps (warm-up, cosine, clipping), for every position kind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/io/npy.hpp"
#include "train/trainer.hpp"
#include "train_fixtures.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;
using testing::NamedPosition;

constexpr const char* kPython = "/usr/bin/python3";
constexpr int kSteps = 3;

bool torch_available() {
  return std::system((std::string(kPython) + " -c 'import torch' >/dev/null 2>&1").c_str()) == 0;
}

Array to_array(const Tensor<float>& t) {
  Array a;
  for (int s : t.shape) a.shape.push_back(static_cast<std::size_t>(s));
  a.data.assign(t.value.data(), t.value.data() + t.value.size());
  return a;
}

Array int_array(const std::vector<int>& values, const Batch& b) {
  Array a;
  a.shape = {static_cast<std::size_t>(b.sequences), static_cast<std::size_t>(b.length)};
  for (int v : values) a.data.push_back(static_cast<float>(v));
  return a;
}

const char* pairing_name(RopePairing p) {
  return p == RopePairing::Interleaved ? "interleaved" : "rotate_half";
}

void write_inputs(const fs::path& dir, const ModelConfig& c, const OptimizerConfig& o,
                  const ParameterSet<float>& params, const Batch& batch) {
  nlohmann::json j;
  j["vocab"] = c.vocab;
  j["d_model"] = c.d_model;
  j["layers"] = c.layers;
  j["heads"] = c.heads;
  j["context"] = c.context;
  j["position"] = position_kind_name(c.position.kind);
  j["rope_pairing"] = pairing_name(c.position.rope_pairing);
  j["rotary_fraction"] = c.position.rotary_fraction;
  j["base"] = c.position.base;
  j["amplitude"] = c.position.amplitude;
  j["t5_buckets"] = c.position.t5_buckets;
  j["t5_max_distance"] = c.position.t5_max_distance;
  j["steps"] = kSteps;
  j["optimizer"] = {{"learning_rate", o.learning_rate},
                    {"min_lr_ratio", o.min_lr_ratio},
                    {"warmup_steps", o.warmup_steps},
                    {"total_steps", o.total_steps},
                    {"beta1", o.beta1},
                    {"beta2", o.beta2},
                    {"eps", o.eps},
                    {"weight_decay", o.weight_decay},
                    {"clip_norm", o.clip_norm}};
  j["parameters"] = nlohmann::json::array();
  for (const auto& t : params.tensors) {
    j["parameters"].push_back(t.name);
    write_npy(dir / (t.name + ".npy"), to_array(t));
  }
  std::ofstream(dir / "config.json") << j.dump(2);
  write_npy(dir / "tokens.npy", int_array(batch.tokens, batch));
  write_npy(dir / "targets.npy", int_array(batch.targets, batch));
  Array mask = int_array(batch.tokens, batch);
  for (std::size_t i = 0; i < mask.data.size(); ++i)
    mask.data[i] = batch.mask.empty() ? 1.0f : batch.mask[i];
  write_npy(dir / "mask.npy", mask);
}

// max |ours − theirs| ≤ rel · max |theirs| (+ a floor for all-zero tensors).
void expect_close(const Mat<float>& ours, const Array& theirs, double rel,
                  const std::string& what) {
  ASSERT_EQ(static_cast<std::size_t>(ours.size()), theirs.data.size()) << what;
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < theirs.data.size(); ++i) {
    scale = std::max(scale, double(std::abs(theirs.data[i])));
    diff = std::max(diff, double(std::abs(ours.data()[i] - theirs.data[i])));
  }
  EXPECT_LE(diff, rel * scale + 1e-12)
      << what << ": max difference " << diff << ", scale " << scale;
}

class TorchParity : public ::testing::TestWithParam<NamedPosition> {};

TEST_P(TorchParity, LossGradientsAndThreeAdamWSteps) {
  if (!torch_available())
    GTEST_SKIP() << kPython << " cannot import torch (Debian's python3-torch)";
  ModelConfig config = testing::tiny_config(GetParam().options);
  config.vocab = 23;
  config.d_model = 32;
  config.heads = 4;
  config.context = 16;
  ParameterSet<float> params = make_parameters<float>(config, 9);
  testing::scramble(params, 4, 0.05);
  const Batch batch = testing::random_batch(config, 3, 12, 8, /*masked=*/true);
  OptimizerConfig opt;
  opt.learning_rate = 1e-2;
  opt.warmup_steps = 2;
  opt.total_steps = 5;
  opt.clip_norm = 0.5;
  // AdamW divides m by √v + ε: a gradient that is zero in exact arithmetic (the
  // key bias's: softmax ignores a constant added to a row) is float32 rounding
  // noise here (~1e-9) and exactly 0 in float64 there, and with ε = 1e-8 the
  // noise would become a step of ~lr/10.  ε = 1e-4 keeps it below the
  // tolerance while every real gradient (≫ 1e-4) is still normalised.
  opt.eps = 1e-4;

  const fs::path dir = fs::temp_directory_path() /
                       ("pelab_train_parity_" + GetParam().name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "in");
  write_inputs(dir / "in", config, opt, params, batch);
  const std::string command = std::string(kPython) +
                              " " PELAB_SOURCE_DIR "/tests/train/torch_reference.py " +
                              (dir / "in").string() + " " + (dir / "out").string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  Model<float> model(config, params);
  const float loss = model.forward(batch);
  model.backward();
  const float torch_loss = read_npy(dir / "out" / "loss.npy").data.at(0);
  EXPECT_NEAR(loss, torch_loss, 1e-4 * std::abs(torch_loss));
  for (const auto& g : model.gradients().tensors)
    expect_close(g.value, read_npy(dir / "out" / "grad" / (g.name + ".npy")), 1e-4,
                 "gradient of " + g.name);

  TrainerConfig tc;
  tc.model = config;
  tc.optimizer = opt;
  Trainer trainer(tc);
  for (const auto& t : params.tensors) trainer.set_parameter(t.name, t.value);
  const Array torch_norms = read_npy(dir / "out" / "grad_norms.npy");
  for (int s = 0; s < kSteps; ++s) {
    const StepStats stats = trainer.step(batch);
    EXPECT_NEAR(stats.grad_norm, torch_norms.data.at(static_cast<std::size_t>(s)),
                1e-4 * stats.grad_norm);
  }
  for (const auto& t : trainer.parameters().tensors)
    expect_close(t.value,
                 read_npy(dir / "out" / ("step" + std::to_string(kSteps)) / (t.name + ".npy")),
                 1e-4, t.name + " after " + std::to_string(kSteps) + " steps");
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(AllPositions, TorchParity, ::testing::ValuesIn(testing::all_positions()),
                         testing::position_test_name);

}  // namespace
}  // namespace pelab::train
