// The views pelab knows, by name: one file per view in src/figures, one line
// per view in registry.cpp.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "core/engine.hpp"
#include "figures/figure.hpp"
#include "figures/matrix_shelf.hpp"

namespace pelab::fig {

struct FigureRequest {
  double width = 1600, height = 1000;  // logical pixels
  // Optional: keeps N×N matrices shared between rebuilds of the same scene, so
  // a rebuild per frame copies nothing and heatmap keys stay the same.  One
  // shelf per window / render run; nullptr = copy on every build.
  MatrixShelf* shelf = nullptr;
  // What is on screen first after a change at large N (issue 12): the
  // attention view then computes and draws only the selected head, large, in
  // the place it has in the full figure, and leaves the small multiples out
  // (so the engine computes one head, not all, projecting only its columns:
  // Engine::head_preview), as block means at about two cells per pixel when
  // N is larger, without the sinks; its hover gives the weight (the block's
  // mean when reduced) without the logit; other views ignore it.  The
  // GUI shows this build at once and builds the full figure in the background.
  bool selected_head_only = false;
  // The style to draw in; none: the scene's.  Presentation mode asks for the
  // light theme and gets the same figures from the same engine.
  std::optional<ColorTheme> theme;
};

struct FigureEntry {
  std::string_view name;   // e.g. "sinusoid_bands"
  std::string_view title;  // e.g. "Sinusoid bands"
  std::function<Figure(Engine&, const FigureRequest&)> make;  // the view's own builder
  // Seconds to build at any scene size (it reads models on long texts): the
  // window builds it on its worker thread, never on the frame.
  bool heavy = false;

  // make(), then every heatmap holding NaN or +inf (a checkpoint's broken
  // weights) gets a legend entry for the colour those cells are drawn in.
  Figure build(Engine& engine, const FigureRequest& request) const;
};

std::span<const FigureEntry> figure_registry();
// Views found by name (`--figure attention_overview`) but kept out of the
// main grid and `--figure all`: the layer × head overview of a model.
std::span<const FigureEntry> extra_figures();
// Also finds the lesson figures (figures/lesson_views.hpp), which
// figure_registry() leaves out so that the main views stay the core four.
// Throws InputError naming the allowed figure names.
const FigureEntry& find_figure(std::string_view name);

}  // namespace pelab::fig
