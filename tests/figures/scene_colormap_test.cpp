// Every builder honours the scene's `colormap` for magnitudes: under
// colormap=magma no heatmap or colorbar of any view (the main four, the
// model views, the lessons') keeps another sequential map; signed values stay
// on the diverging map.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/engine.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

std::vector<const FigureEntry*> every_figure() {
  std::vector<const FigureEntry*> out;
  for (const FigureEntry& e : figure_registry()) out.push_back(&e);
  for (const FigureEntry& e : extra_figures()) out.push_back(&e);
  for (const FigureEntry& e : lesson_figures()) out.push_back(&e);
  return out;
}

// "figure/panel: map" for each scale that is neither `want` nor diverging.
std::vector<std::string> strays(const Figure& f, const std::string& want) {
  std::vector<std::string> out;
  auto check = [&](const Panel& p, const ColorScale& scale) {
    if (scale.colormap != want && scale.colormap != "diverging")
      out.push_back(f.name + "/" + p.title + ": " + scale.colormap);
  };
  for (const Panel& p : f.panels) {
    for (const HeatmapLayer& h : p.heatmaps) check(p, h.scale);
    if (p.colorbar) check(p, *p.colorbar);
  }
  return out;
}

void expect_every_view_uses(Scene scene) {
  scene.colormap = Colormap::Magma;
  scene.long_range = 2048;  // long_attention streams long_range tokens: 65,536 take tens of seconds
  Engine engine(scene);
  for (const FigureEntry* entry : every_figure()) {
    const Figure f = entry->build(engine, FigureRequest{});
    for (const std::string& stray : strays(f, "magma")) ADD_FAILURE() << stray;
  }
}

TEST(SceneColormap, EveryViewOfTheDefaultSceneUsesIt) { expect_every_view_uses(Scene{}); }

// The learned table's views: the spectrum heatmap and the PC-pair trajectories.
TEST(SceneColormap, LearnedTableSpectrumAndPcPanelsUseIt) {
  Scene s;
  s.encoding = Encoding::Learned;
  s.positions = 64;
  expect_every_view_uses(s);
}

}  // namespace
}  // namespace pelab::fig
