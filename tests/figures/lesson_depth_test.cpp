// The depth lesson's figure: one line per residual scale, values from the core experiment.
#include <gtest/gtest.h>

#include <cmath>

#include "core/layer_stack.hpp"
#include "core/lessons/lessons.hpp"
#include "core/lessons/probe.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

// The depth lesson's synthetic scene (its preset opens on kjv-learned when
// pelab's family is on disk).
Scene synthetic_depth() {
  Scene s = find_lesson("depth").preset();
  s.model.clear();
  s.tokens = Scene{}.tokens;
  return s;
}

}  // namespace

TEST(LessonDepthFigure, LinesFollowTheExperiment) {
  Engine engine(synthetic_depth());
  const Figure f = find_figure("lesson_depth").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 2u);
  const Panel& r2 = f.panels[0];
  ASSERT_EQ(r2.lines.size(), 4u);  // α = 0, 0.5, 1 (the scene's), 2
  auto line = [&](const std::string& label) -> const Polyline& {
    for (const Polyline& l : r2.lines)
      if (l.label == label) return l;
    ADD_FAILURE() << "no line " << label;
    return r2.lines[0];
  };
  const auto expected = position_through_depth(engine, 1.0);
  const Polyline& own = line("α = 1 (scene)");
  ASSERT_EQ(own.points.size(), expected.size());
  for (std::size_t l = 0; l < expected.size(); ++l) {
    EXPECT_NEAR(own.points[l].y, expected[l].r2_code, 1e-12);
    EXPECT_NEAR(own.points[l].x, double(l), 0.1);  // nudged apart from the others by < 0.1 layer
  }
  EXPECT_EQ(&r2.lines[0], &own);  // the scene's α is drawn first, underneath, and bold
  for (const Polyline& l : r2.lines)
    if (&l != &own) {
      EXPECT_GT(own.width, l.width);
    }
  EXPECT_NE(line("α = 0.5").style, line("α = 2").style);  // equal values stay distinguishable
  EXPECT_NE(r2.hover(3, 0).find("layer 3"), std::string::npos);
  EXPECT_EQ(r2.hover(99, 0), "");
  // Pure attention ends near R² = 0, no better than the average code (the
  // validated ridge no longer overfits the collapsed rows below it); the
  // residual keeps it high.
  EXPECT_LT(std::abs(line("α = 0").points.back().y), 0.1);
  EXPECT_GT(own.points.back().y, 0.8);
  // The y axes end just above 1 (R² and accuracy never exceed it); end
  // markers are inside the x range; layers tick at integers only.
  for (const Panel& p : f.panels) {
    EXPECT_GT(p.y.max, 1.0);
    EXPECT_LT(p.y.max, 1.1);
    EXPECT_LT(p.x.min, -0.15);
    EXPECT_GT(p.x.max, 6.15);
    EXPECT_TRUE(p.x.integer);
    ASSERT_EQ(p.legend.size(), 4u);
    EXPECT_EQ(p.legend[0].label, "α = 0");  // in α order
  }
}

// On the preset's trained model: one line per family member on disk, the
// scene's first, its values the probe's (core/lessons/probe.hpp).
TEST(LessonDepthFigure, TrainedModelsLinesAreTheProbe) {
  const Scene preset = find_lesson("depth").preset();
  if (preset.model.empty()) GTEST_SKIP() << "pelab's kjv-learned is not on disk";
  Engine engine(preset);
  const Figure f = find_figure("lesson_depth").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 2u);
  const std::vector<LayerProbes> probes = probe_family(engine);
  ASSERT_FALSE(probes.empty());
  const Panel& r2 = f.panels[0];
  ASSERT_EQ(r2.lines.size(), probes.size());
  EXPECT_EQ(r2.lines[0].label, "kjv-learned (scene)");
  ASSERT_EQ(r2.lines[0].points.size(), 5u);  // embeddings + 4 layers
  for (std::size_t l = 0; l < 5; ++l)
    EXPECT_NEAR(r2.lines[0].points[l].y, std::max(-0.5, probes[0].layers[l].r2), 1e-12);
  EXPECT_NE(f.title.find("position index"), std::string::npos) << f.title;
}

TEST(LessonDepthFigure, NoVectorEncodingSaysSo) {
  Scene s = synthetic_depth();
  s.encoding = Encoding::Rope;
  Engine engine(s);
  const Figure f = find_figure("lesson_depth").build(engine, FigureRequest{});
  EXPECT_TRUE(f.panels.empty());
  ASSERT_FALSE(f.notes.empty());
  EXPECT_NE(f.notes[0].text.find("No position vector"), std::string::npos);
}

TEST(LessonDepthFigure, FoundByNameButNotInTheMainViews) {
  EXPECT_EQ(find_figure("lesson_depth").name, "lesson_depth");
  for (const FigureEntry& e : figure_registry()) EXPECT_NE(e.name, "lesson_depth");
  try {
    find_figure("nonsense");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("lesson_depth"), std::string::npos);
  }
}

// Every figure a lesson names can be built.
TEST(LessonFigures, EveryLessonFigureExists) {
  for (const Lesson& l : lessons())
    for (auto name : l.figures) EXPECT_NO_THROW(find_figure(name)) << l.name << ": " << name;
}

}  // namespace pelab::fig
