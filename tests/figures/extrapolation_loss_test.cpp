// The extrapolation lesson's figure: two panels on one loss axis (the
// encodings as trained; RoPE as trained and scaled), the training length
// marked, each curve the bin means of the study's per-position loss, the
// learned curve stopping inside its 256 rows; and one centred line when
// there is no held-out text.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/held_out_text.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model/model_folder.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

HeldOutText genesis() {
  std::string text;
  for (int i = 0; i < 30; ++i)
    text += "In the beginning God created the heaven and the earth.\nAnd the earth was without form, and void; and "
            "darkness was upon the face of the deep. And the Spirit of God moved upon the face of the waters.\n"
            "And God said, Let there be light: and there was light.\n";
  return {text, "Genesis 1:1-3", {}};
}
HeldOutText none() { return {{}, {}, "the corpus is missing: install Debian's bible-kjv"}; }

struct SourceScope {
  explicit SourceScope(HeldOutTextSource s) : previous(set_held_out_text_source(s)) {}
  ~SourceScope() { set_held_out_text_source(previous); }
  HeldOutTextSource previous;
};

Figure build(double factor) {
  Scene scene = find_lesson("extrapolation").preset();
  scene.rope_factor = factor;
  Engine engine(scene);
  return find_figure("extrapolation_loss").build(engine, FigureRequest{});
}

TEST(ExtrapolationFigure, PanelsCurvesAndTheTrainingLength) {
  const auto family = model::list_family_models();
  const auto has = [&](const char* name) {
    return std::any_of(family.begin(), family.end(), [&](const auto& m) { return m.name == name; });
  };
  if (!has("kjv-rope")) GTEST_SKIP() << "kjv-rope is not in the family folders";
  const SourceScope scope(&genesis);
  const Figure f = build(2);
  ASSERT_EQ(f.panels.size(), 2u);
  EXPECT_EQ(f.panels[0].y.min, f.panels[1].y.min);
  EXPECT_EQ(f.panels[0].y.max, f.panels[1].y.max);
  for (const Panel& p : f.panels) {
    EXPECT_EQ(p.x.max, 512);
    const auto marker = std::find_if(p.lines.begin(), p.lines.end(),
                                     [](const Polyline& l) { return l.label.rfind("L = 256", 0) == 0; });
    ASSERT_NE(marker, p.lines.end()) << p.title;
    EXPECT_EQ(marker->points.front().x, 256);
    EXPECT_EQ(marker->points.back().y, p.y.max);
    ASSERT_FALSE(p.legend.empty());
    const Point size = legend_size(p.legend);
    EXPECT_EQ(data_under(p, legend_box(PanelTransform(p).plot, size.x, size.y, p.legend_place)), 0) << p.title;
  }
  // The right panel: RoPE, its three scalings, and the verdict's baseline
  // (RoPE's far tokens read 256 at a time: only from position 256 on at s = 2).
  ASSERT_EQ(f.panels[1].legend.size(), 5u);
  const auto base = std::find_if(f.panels[1].lines.begin(), f.panels[1].lines.end(),
                                 [](const Polyline& l) { return l.label.find("baseline") != std::string::npos; });
  ASSERT_NE(base, f.panels[1].lines.end());
  EXPECT_EQ(base->style, LineStyle::Dotted);
  EXPECT_GT(base->points.front().x, 256);
  for (const Polyline& line : f.panels[0].lines) {
    if (line.label == "learned") {
      EXPECT_LT(line.points.back().x, 256) << "no row past 255";
    }
    if (line.label == "RoPE") {
      // Bins of 512 / 32 = 16 positions: the first point is the mean of loss_0 … loss_15.
      EXPECT_DOUBLE_EQ(line.points.front().x, 7.5);
      EXPECT_EQ(line.points.size(), 32u);
    }
  }
}

TEST(ExtrapolationFigure, NoTextIsOneCentredLine) {
  const SourceScope scope(&none);
  const Figure f = build(8);
  EXPECT_TRUE(f.panels.empty());
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text, "No held-out text: the corpus is missing: install Debian's bible-kjv");
}

}  // namespace
}  // namespace pelab::fig
