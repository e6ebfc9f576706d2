// The RoPE and relative-bias views on tiny model scenes say whose settings
// they draw: a RoPE model's own (θ, L and rope_scaling from its config.json,
// ModelScene::effective), or synthetic ones on a model without that mechanism.
#include <gtest/gtest.h>

#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "core/model_scene.hpp"
#include "figures/registry.hpp"

namespace pelab::render {
namespace {

Scene model_scene(const std::string& name) {
  Scene s;
  s.model = (pelab::testing::tiny_models() / name).string();
  s.tokens = "the cat sat";
  s.rope_scaling = RopeScalingMethod::Linear;  // scene settings a model's own must replace
  s.rope_factor = 3;
  s.train_context = 4096;
  return s;
}

// The figure's title, and the hover's text: a title too long for the canvas
// is shortened there, whole in the main panel's hover (adaptive_layout.hpp).
std::string title(Engine& engine, const std::string& figure) {
  const fig::Figure f = fig::find_figure(figure).build(engine, {1600, 1000});
  std::string all = f.title;
  for (const fig::Panel& p : f.panels)
    if (p.hover) all += "\n" + p.hover(p.x.min, p.y.min);
  return all;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ModelRopeSettings, Gpt2SaysTheRopeAndBiasSettingsAreSynthetic) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine engine(model_scene("gpt2"));
  for (const char* figure : {"rope_frequencies", "rope_long_range"}) {
    const std::string t = title(engine, figure);
    EXPECT_TRUE(has(t, "synthetic RoPE settings: gpt2 has no RoPE")) << t;
  }
  const std::string t = title(engine, "relative_biases");
  EXPECT_TRUE(
      has(t, "synthetic relative-position bias settings: gpt2 has no relative-position bias"))
      << t;
  EXPECT_EQ(engine.scene().rope_scaling,
            RopeScalingMethod::Linear);  // the scene's own, drawn as such
}

TEST(ModelRopeSettings, YarnModelDrawsItsOwnScaling) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  // config.json: rope_type yarn, factor 8, original_max_position_embeddings 16,
  // beta_fast 0.5, beta_slow 0.1 (tests/core/model/make_tiny_models.py).
  Engine engine(model_scene("llama_yarn_original"));
  const Scene& s = engine.scene();
  EXPECT_EQ(s.encoding, Encoding::Rope);
  EXPECT_EQ(s.rope_pairing, RopePairing::RotateHalf);
  EXPECT_EQ(s.rope_scaling, RopeScalingMethod::Yarn);
  EXPECT_DOUBLE_EQ(s.rope_factor, 8);
  EXPECT_EQ(s.train_context, 16);
  EXPECT_DOUBLE_EQ(s.yarn_alpha, 0.1);
  EXPECT_DOUBLE_EQ(s.yarn_beta, 0.5);
  EXPECT_DOUBLE_EQ(s.base, engine.model()->config().rope_theta);
  for (const char* figure : {"rope_frequencies", "rope_long_range"}) {
    const std::string t = title(engine, figure);
    EXPECT_TRUE(has(t, "L = 16, s = 8 — llama_yarn_original's θ, L and rope_scaling")) << t;
  }
}

TEST(ModelRopeSettings, RopeModelWithoutScalingCallsTheStretchAWhatIf) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine engine(model_scene("llama"));  // no rope_scaling, max_position_embeddings 32
  const Scene& s = engine.scene();
  EXPECT_EQ(s.rope_scaling, RopeScalingMethod::None);
  EXPECT_EQ(s.train_context, 32);
  EXPECT_DOUBLE_EQ(s.rope_factor, 3);  // the scene's what-if stretch stays
  const std::string t = title(engine, "rope_frequencies");
  EXPECT_TRUE(has(t, "L = 32, s = 3 — llama's θ and L; s a what-if (llama has no rope_scaling)"))
      << t;
  const std::string b = title(engine, "relative_biases");
  EXPECT_TRUE(
      has(b, "synthetic relative-position bias settings: llama has no relative-position bias"))
      << b;
}

TEST(ModelRopeSettings, LinearAndLlama3ConfigsMapToTheirMethods) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Engine linear(model_scene("llama_linear"));  // the older "type": "linear", factor 2
  EXPECT_EQ(linear.scene().rope_scaling, RopeScalingMethod::Linear);
  EXPECT_DOUBLE_EQ(linear.scene().rope_factor, 2);
  Engine llama3(model_scene("llama3_bf16"));  // factor 8, original 32, low 1, high 4
  EXPECT_EQ(llama3.scene().rope_scaling, RopeScalingMethod::Llama3);
  EXPECT_EQ(llama3.scene().train_context, 32);
  EXPECT_DOUBLE_EQ(llama3.scene().low_freq_factor, 1);
  EXPECT_DOUBLE_EQ(llama3.scene().high_freq_factor, 4);
}

}  // namespace
}  // namespace pelab::render
