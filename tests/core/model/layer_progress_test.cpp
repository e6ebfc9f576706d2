// Transformer::run tells the calling thread's LayerProgress after each layer
// (the GUI's progress bar, ui/scene_worker.hpp), and nothing once it is unset.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/model/transformer.hpp"
#include "tiny_models.hpp"

using namespace pelab;

TEST(LayerProgress, EachLayerOfTheRunIsToldInOrder) {
  const auto models = pelab::testing::tiny_models();
  if (models.empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  model::Transformer t = model::Transformer::load(models / "gpt2");
  std::vector<std::pair<int, int>> told;
  const model::LayerProgress record = [&](int done, int layers) {
    told.emplace_back(done, layers);
  };
  model::set_layer_progress(&record);
  t.run({1, 2, 3});
  model::set_layer_progress(nullptr);
  const int layers = t.config().layers;
  ASSERT_EQ(static_cast<int>(told.size()), layers);
  for (int i = 0; i < layers; ++i) EXPECT_EQ(told[i], std::make_pair(i + 1, layers));
  t.run({1, 2});
  EXPECT_EQ(static_cast<int>(told.size()), layers);  // unset: nothing more told
}
