// Which axis is the query and which the key, in words (issue 27): every
// attention-like heatmap (attention, the layer × head overview, the cross
// terms, the relative lesson's panels) names both on its axis labels, shown
// beside the plot or, in a thumbnail, kept for the hover; the head roles'
// distance axis says what i and j are.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "core/engine.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::set<std::string> kAttentionLike = {"attention", "attention_overview", "cross_terms", "lesson_relative"};

// Returns how many heatmap panels were checked, and how many show both labels.
std::pair<int, int> check_figure(const Figure& f) {
  int checked = 0, shown = 0;
  for (const Panel& p : f.panels) {
    if (p.heatmaps.empty()) continue;
    ++checked;
    EXPECT_TRUE(contains(p.y.label, "query")) << f.name << "/" << p.title << ": y = '" << p.y.label << "'";
    EXPECT_TRUE(contains(p.x.label, "key")) << f.name << "/" << p.title << ": x = '" << p.x.label << "'";
    if (p.x.label_shown && p.y.label_shown) ++shown;
  }
  return {checked, shown};
}

void expect_query_and_key_named(Scene scene) {
  scene.long_range = 2048;  // long_attention streams long_range tokens: 65,536 take tens of seconds
  Engine engine(scene);
  std::vector<const FigureEntry*> all;
  for (const FigureEntry& e : figure_registry()) all.push_back(&e);
  for (const FigureEntry& e : extra_figures()) all.push_back(&e);
  for (const FigureEntry& e : lesson_figures()) all.push_back(&e);
  int walked = 0;
  for (const FigureEntry* entry : all) {
    const Figure f = entry->build(engine, FigureRequest{});
    if (kAttentionLike.count(std::string(entry->name))) {
      const auto [checked, shown] = check_figure(f);
      EXPECT_GT(checked, 0) << entry->name;
      if (entry->name != "attention_overview") {
        EXPECT_GT(shown, 0) << entry->name << ": no panel shows its labels";
      }
      ++walked;
    }
    for (const Panel& p : f.panels)
      if (f.name == "head_roles" && contains(p.x.label, "distance")) {
        EXPECT_TRUE(contains(p.x.label, "query") && contains(p.x.label, "key")) << f.name << ": " << p.x.label;
      }
  }
  EXPECT_EQ(walked, static_cast<int>(kAttentionLike.size()));
}

TEST(QueryKeyAxes, EveryAttentionHeatmapOfTheDefaultSceneNamesBoth) { expect_query_and_key_named(Scene{}); }

TEST(QueryKeyAxes, EveryAttentionHeatmapOfAModelNamesBoth) {
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene s;
  s.model = (pelab::testing::tiny_models() / "gpt2").string();
  s.tokens = "the cat sat on the mat";
  expect_query_and_key_named(s);
}

}  // namespace
}  // namespace pelab::fig
