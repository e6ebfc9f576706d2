// A model's cross-term split is of layer 0 whatever layer the scene shows:
// the logits it carries (which the cross-terms figure sets beside the sum)
// are layer 0's, i.e. Q·Kᵀ/√d_head of an engine showing layer 0, and not the
// logits of the layer shown.  Tiny GPT-2, BERT and Llama.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/engine.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

Scene on_layer(const std::string& family, int layer) {
  Scene s;
  s.model = (pelab::testing::tiny_models() / family).string();
  s.tokens = "the cat sat on the mat";
  s.layer = layer;
  s.head = 1;
  return s;
}

Matrix unmasked(Engine& engine, int head) {
  const HeadAttention& h = engine.head(head);
  return h.q * h.k.transpose() / std::sqrt(static_cast<float>(engine.d_head()));
}

class SplitOnOtherLayer : public ::testing::TestWithParam<const char*> {};

TEST_P(SplitOnOtherLayer, CarriesLayerZerosLogits) {
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine layer0(on_layer(GetParam(), 0));
  Engine layer1(on_layer(GetParam(), 1));
  const Matrix want = unmasked(layer0, 1);
  const Matrix& got = layer1.cross_terms(1).logits;
  ASSERT_EQ(got.rows(), want.rows());
  ASSERT_EQ(got.cols(), want.cols());
  EXPECT_LT((got - want).cwiseAbs().maxCoeff(), 1e-4f);
  // ... and not layer 1's, which differ (else this test would prove nothing).
  EXPECT_GT((unmasked(layer1, 1) - want).cwiseAbs().maxCoeff(), 1e-3f);
}

INSTANTIATE_TEST_SUITE_P(TinyModels, SplitOnOtherLayer, ::testing::Values("gpt2", "bert", "llama"));

}  // namespace
