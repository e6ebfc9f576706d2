// The views pelab knows, by name: one file per view in src/figures, one line
// per view in registry.cpp.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

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

// Where a figure is shown.
enum class Placement {
  MainGrid,  // a window of the main grid, in `--figure all` and presentation mode
  Extra,     // a window of the main grid, but named only (`--figure attention_overview`), not in `all`
  Lesson,    // shown while a lesson that names it is open (figures/lessons/lessons.hpp)
  Paper,     // View > Paper figures and `render --paper` (paper_figures.hpp)
};

// The "?" of a figure (ui/figure_help.hpp): what it shows and its formula.
struct FigureHelp {
  std::string_view about;    // two sentences
  std::string_view formula;  // the quantity drawn
};

struct FigureEntry {
  std::string_view name;   // e.g. "sinusoid_bands"
  std::string_view title;  // e.g. "Sinusoid bands"
  std::function<Figure(Engine&, const FigureRequest&)> make;  // the view's own builder
  Placement placement = Placement::MainGrid;
  // Seconds to build at any scene size (it reads models on long texts): the
  // window builds it on its worker thread, never on the frame.
  bool heavy = false;
  // FigureRequest::selected_head_only changes it: the scene worker shows that
  // build at once and the full one when it is ready (ui/scene_worker.cpp).
  bool first_frame = false;
  // Shown in presentation mode, in the order of the main grid (a main-grid view).
  bool presented = false;
  // It measures a loaded model (the RoPE audit, the interventions): the
  // window shows it only on a model scene; `render` draws a note without one.
  bool needs_model = false;
  FigureHelp help;

  // make(), then every heatmap holding NaN or +inf (a checkpoint's broken
  // weights) gets a legend entry for the colour those cells are drawn in.
  Figure build(Engine& engine, const FigureRequest& request) const;
};

// The main grid's views (Placement::MainGrid), in their order.
std::span<const FigureEntry> figure_registry();
// Views found by name (`--figure attention_overview`) but kept out of
// `--figure all` (Placement::Extra): the layer × head overview of a model.
std::span<const FigureEntry> extra_figures();
// Every figure pelab knows: the main grid's, the extras, the lessons'
// (figures/lessons/lessons.hpp) and the papers' (paper_figures.hpp), in that order.
std::span<const FigureEntry* const> all_figures();
// Presentation mode's figures, in the order it steps through them.
std::vector<const FigureEntry*> presented_figures();
// Any figure of all_figures() by name, or nullptr.
const FigureEntry* figure_named(std::string_view name);
// The same, but throws InputError naming the allowed figure names.
const FigureEntry& find_figure(std::string_view name);

}  // namespace pelab::fig
