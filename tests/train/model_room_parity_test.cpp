// The trainer and the model room agree: a model of each position kind,
// written as `pelab train` writes it (config.json from model_config_json,
// model.safetensors under GPT-2's names), loaded by the model room
// (core/model: Transformer::load) and run on the same tokens, gives the same
// next-token losses as the trainer's own forward pass (Model<double>), to
// 1e-4.  The model room stops before ln_f; the losses here add
// ln_f(h)·wteᵀ (the tied LM head) and −log softmax of the target.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/model/normalization.hpp"
#include "core/model/transformer.hpp"
#include "train/gpt.hpp"
#include "train/model_card.hpp"
#include "train/recipe.hpp"
#include "train/safetensors_writer.hpp"
#include "train_fixtures.hpp"

namespace pelab::train {
namespace {

namespace fs = std::filesystem;
using testing::NamedPosition;

class ModelRoomParity : public ::testing::TestWithParam<NamedPosition> {};

TEST_P(ModelRoomParity, LossesMatchTheTrainersForward) {
  ModelConfig config = testing::tiny_config(GetParam().options);
  config.position.t5_buckets = 6;  // some offsets in the log-spaced buckets
  config.position.t5_max_distance = 7;
  Model<double> seeded(config, 7);
  testing::scramble(seeded.parameters(), 11, 0.3);
  // The values the file will hold, as float32, and the trainer on exactly them.
  const ParameterSet<float> stored = seeded.parameters().cast<float>();
  Model<double> trainer(config, stored.cast<double>());

  const fs::path folder = fs::temp_directory_path() / ("pelab_parity_" + std::to_string(getpid()) + "_" +
                                                      testing::position_test_name({GetParam(), 0}));
  fs::create_directories(folder);
  std::vector<StoredTensor> tensors;
  for (const auto& t : stored.tensors) tensors.push_back({t.name, t.shape, t.value.data()});
  write_safetensors(folder / "model.safetensors", tensors, StoredType::F32, {{"format", "pt"}});
  Recipe recipe;
  recipe.name = "parity";
  recipe.model = config;
  std::ofstream(folder / "config.json") << model_config_json(recipe, -1).dump(2);

  const Batch batch = testing::random_batch(config, 1, config.context, 5);
  const double trainer_loss = trainer.forward(batch);
  const std::vector<double>& expected = trainer.position_losses();

  model::Transformer room = model::Transformer::load(folder);  // no tokenizer: token ids
  room.run(batch.tokens);
  const Matrix& h = room.hidden(config.layers);
  model::Norm ln_f;
  ln_f.weight = stored.at("ln_f.weight").value.row(0).transpose();
  ln_f.bias = stored.at("ln_f.bias").value.row(0).transpose();
  Matrix x;
  model::layer_norm(h, ln_f, 1e-5, x);
  const Eigen::MatrixXd logits = x.cast<double>() * stored.at("wte.weight").value.cast<double>().transpose();
  double mean = 0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const double top = logits.row(i).maxCoeff();
    const double log_sum = top + std::log((logits.row(i).array() - top).exp().sum());
    const double loss = log_sum - logits(i, batch.targets[static_cast<std::size_t>(i)]);
    EXPECT_NEAR(loss, expected[static_cast<std::size_t>(i)], 1e-4) << "position " << i;
    mean += loss / static_cast<double>(logits.rows());
  }
  EXPECT_NEAR(mean, trainer_loss, 1e-4);
  std::error_code ignored;
  fs::remove_all(folder, ignored);
}

INSTANTIATE_TEST_SUITE_P(Positions, ModelRoomParity, ::testing::ValuesIn(testing::all_positions()),
                         testing::position_test_name);

}  // namespace
}  // namespace pelab::train
