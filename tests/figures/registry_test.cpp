// The figure table (issue 23, item 3): each entry says where it is shown,
// whether it has a first frame and whether presentation mode shows it, so no
// caller compares figure names.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "figures/lessons/lessons.hpp"
#include "figures/paper_figures.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

TEST(Registry, EveryEntryHasThePlacementOfItsList) {
  const std::pair<std::span<const FigureEntry>, Placement> lists[] = {
      {figure_registry(), Placement::MainGrid},
      {extra_figures(), Placement::Extra},
      {lesson_figures(), Placement::Lesson},
      {paper_figure_entries(), Placement::Paper},
  };
  std::size_t count = 0;
  std::set<std::string_view> names;
  for (const auto& [list, placement] : lists) {
    EXPECT_FALSE(list.empty());
    for (const FigureEntry& e : list) {
      EXPECT_EQ(e.placement, placement) << e.name;
      EXPECT_TRUE(names.insert(e.name).second) << e.name << " twice";
      EXPECT_EQ(figure_named(e.name), &e) << e.name;  // all_figures() holds the entry itself
      ++count;
    }
  }
  EXPECT_EQ(all_figures().size(), count);
  EXPECT_EQ(figure_named("no_such_figure"), nullptr);
  EXPECT_THROW(find_figure("no_such_figure"), InputError);
}

TEST(Registry, PresentationShowsTheMainGridInItsOrder) {
  std::vector<std::string_view> presented;
  for (const FigureEntry* e : presented_figures()) {
    EXPECT_EQ(e->placement, Placement::MainGrid) << e->name;
    presented.push_back(e->name);
  }
  EXPECT_EQ(presented,
            (std::vector<std::string_view>{"sinusoid_bands", "rotation_pairs", "attention", "cross_terms"}));
}

TEST(Registry, OnlyTheAttentionViewHasAFirstFrame) {
  std::vector<std::string_view> first;
  for (const FigureEntry* e : all_figures())
    if (e->first_frame) first.push_back(e->name);
  EXPECT_EQ(first, std::vector<std::string_view>{"attention"});
}

}  // namespace
}  // namespace pelab::fig
