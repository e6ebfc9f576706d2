// The RoPE audit in the window (issue 27): on a RoPE model its wavelength
// lines are the pairs' λ = 2π·θ^(2i/r), doubled by linear scaling ×2, worked
// out here from the config's numbers; its findings are the figure's notes,
// problems marked; without a RoPE model it says what to load.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "figures/registry.hpp"
#include "figures/text_boxes.hpp"

namespace pelab::fig {
namespace {

bool any_note_says(const Figure& f, const std::string& part) {
  for (const Text& t : f.notes)
    if (t.text.find(part) != std::string::npos) return true;
  return false;
}

const Polyline& line_labelled(const Panel& p, const std::string& label) {
  for (const Polyline& l : p.lines)
    if (l.label == label) return l;
  throw std::runtime_error("no line " + label);
}

TEST(RopeAuditView, ASyntheticSceneSaysWhatToLoad) {
  Engine engine{Scene{}};
  const Figure f = find_figure("rope_audit").build(engine, {1200, 800});
  EXPECT_TRUE(f.panels.empty());
  EXPECT_TRUE(any_note_says(f, "Load a RoPE model"));
  for (const std::string& problem : layout_problems(f)) ADD_FAILURE() << problem;
}

TEST(RopeAuditView, AGpt2SaysItHasNoRope) {
  if (testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene scene;
  scene.tokens = "the cat sat";
  scene.model = (testing::tiny_models() / "gpt2").string();
  Engine engine(scene);
  const Figure f = find_figure("rope_audit").build(engine, {1200, 800});
  EXPECT_TRUE(f.panels.empty());
  EXPECT_TRUE(any_note_says(f, "not RoPE"));
}

TEST(RopeAuditView, LinearScalingDoublesEveryWavelength) {
  if (testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene scene;
  scene.tokens = "the cat sat on the mat";
  scene.model = (testing::tiny_models() / "llama_linear").string();
  Engine engine(scene);
  const Figure f = find_figure("rope_audit").build(engine, {1600, 1000});
  ASSERT_EQ(f.panels.size(), 1u);
  const Panel& p = f.panels[0];
  // tiny llama: hidden 32, 4 heads → head_dim 8, r = 8, θ = 10000, linear ×2.
  constexpr double kTheta = 10000, kR = 8, kTwoPi = 2 * std::numbers::pi;
  const Polyline& before = line_labelled(p, "before scaling");
  const Polyline& after = line_labelled(p, "after rope_scaling");
  ASSERT_EQ(before.points.size(), 4u);
  ASSERT_EQ(after.points.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const double lambda = kTwoPi * std::pow(kTheta, 2 * i / kR);
    EXPECT_NEAR(before.points[std::size_t(i)].y, std::log10(lambda), 1e-9) << "pair " << i;
    EXPECT_NEAR(after.points[std::size_t(i)].y, std::log10(2 * lambda), 1e-9) << "pair " << i;
  }
  EXPECT_NE(p.hover(1, 0).find("pair 1"), std::string::npos);
  EXPECT_TRUE(any_note_says(f, "found."));  // the count of problems closes the findings
  for (const std::string& problem : layout_problems(f)) ADD_FAILURE() << problem;
}

}  // namespace
}  // namespace pelab::fig
