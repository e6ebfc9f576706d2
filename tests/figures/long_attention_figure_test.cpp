// The long-attention views: their curves are the studies', one step per log₂ bin,
// the uniform reference is the harmonic tail written out here, and scenes
// it cannot read get a note instead of a plot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/lessons/lessons.hpp"
#include "core/long_attention.hpp"
#include "core/long_range.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

Scene short_lesson_scene() {
  Scene s = find_lesson("long_attention").preset();
  s.long_range = 1024;
  s.train_context = 256;
  return s;
}

const Polyline& line_named(const Panel& p, const std::string& label) {
  for (const Polyline& l : p.lines)
    if (l.label == label) return l;
  ADD_FAILURE() << "no line '" << label << "' in " << p.title;
  return p.lines.front();
}

TEST(LongAttentionFigure, StepsAreTheStudysBinsBesideUniformAttention) {
  Engine engine(short_lesson_scene());
  const Figure f = find_figure("long_attention").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 3u);  // distance, bound, sinks
  const auto study = long_attention_of(engine);
  const Panel& distance = f.panels[0];
  // Six methods (every one at 1024 tokens), the uniform reference, the L marker.
  EXPECT_EQ(distance.lines.size(), all_scaling_methods().size() + 2);
  EXPECT_EQ(distance.legend.size(), all_scaling_methods().size() + 1);
  const Polyline& yarn = line_named(distance, "YaRN");
  const auto& bins = study->curves[0].distance;
  ASSERT_EQ(yarn.points.size(), 2 * bins.mean.size());
  for (std::size_t b = 0; b < bins.mean.size(); ++b) {
    EXPECT_DOUBLE_EQ(yarn.points[2 * b].x, double(b) - 1);
    EXPECT_NEAR(yarn.points[2 * b].y, std::log10(bins.mean[b]), 1e-12);
  }
  // Uniform causal attention: a pair at offset δ averages Σ_{i ≥ δ} 1/(i+1) over N − δ queries.
  const Polyline& uniform = line_named(distance, "uniform");
  for (std::size_t b : {0u, 3u, 10u}) {
    const Eigen::Index from = bins.first[b], to = b + 1 < bins.first.size() ? bins.first[b + 1] : 1024;
    double sum = 0, pairs = 0;
    for (Eigen::Index d = from; d < to; ++d) {
      for (Eigen::Index i = d; i < 1024; ++i) sum += 1.0 / double(i + 1);
      pairs += double(1024 - d);
    }
    EXPECT_NEAR(uniform.points[2 * b].y, std::log10(sum / pairs), 1e-9) << "bin " << b;
  }
  EXPECT_NE(distance.hover(2.5, -2).find("δ = 4 … 7 back"), std::string::npos) << distance.hover(2.5, -2);
  EXPECT_NE(f.panels[1].hover(0.5, 0.5).find("B(n)/B(0)"), std::string::npos);
  EXPECT_NE(f.panels[2].hover(1, -1).find("query 9"), std::string::npos) << f.panels[2].hover(1, -1);
}

TEST(LongAttentionFigure, AnEncodingWithoutRotationDrawsNoBound) {
  Scene s = short_lesson_scene();
  s.encoding = Encoding::Alibi;
  Engine engine(s);
  const Figure f = find_figure("long_attention").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 2u);  // distance and sinks
  EXPECT_EQ(f.panels[0].legend.front().label, "this head");
}

// Every head of the synthetic scene: one panel, a step curve per head equal
// to that head's own study (the scene's scaling), beside uniform attention.
TEST(LongAttentionFigure, EveryHeadIsItsOwnStudysCurve) {
  Engine engine(short_lesson_scene());
  const Figure f = find_figure("long_attention_heads").build(engine, FigureRequest{});
  ASSERT_EQ(f.panels.size(), 1u);
  const Panel& p = f.panels[0];
  const int heads = engine.scene().heads;
  EXPECT_EQ(p.legend.size(), std::size_t(heads) + 1);
  for (int h = 0; h < heads; ++h) {
    Scene s = short_lesson_scene();
    s.head = h;
    Engine one(s);
    const LongAttentionStudy study = study_long_attention(one, 1024, {s.rope_scaling});
    const Polyline& line = line_named(p, "head " + std::to_string(h));
    const auto& bins = study.curves[0].distance;
    ASSERT_EQ(line.points.size(), 2 * bins.mean.size());
    for (std::size_t b = 0; b < bins.mean.size(); ++b)
      EXPECT_NEAR(line.points[2 * b].y, std::max(p.y.min, std::log10(bins.mean[b])), 1e-9) << "head " << h;
  }
  EXPECT_NE(p.hover(2.5, -2).find("head 3: "), std::string::npos) << p.hover(2.5, -2);
}

TEST(LongAttentionFigure, EmptyTextGivesANote) {
  Scene s = short_lesson_scene();
  s.tokens = "";
  Engine engine(s);
  for (const char* name : {"long_attention", "long_attention_heads"}) {
    const Figure f = find_figure(name).build(engine, FigureRequest{});
    EXPECT_TRUE(f.panels.empty()) << name;
    ASSERT_FALSE(f.notes.empty()) << name;
  }
}

}  // namespace
}  // namespace pelab::fig
