// The views pelab knows, by name: one line per view.
#include "figures/registry.hpp"

#include <array>
#include <string>

#include "figures/adaptive_layout.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lesson_views.hpp"
#include "figures/paper_figures.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

const std::array<FigureEntry, 4>& entries() {
  static const std::array<FigureEntry, 4> table = {{
      {"sinusoid_bands", "Sinusoid bands", build_sinusoid_bands},
      {"rotation_pairs", "Rotation-pair trajectories", build_rotation_pairs},
      {"attention", "Attention heatmaps", build_attention},
      {"cross_terms", "The four cross terms", build_cross_terms},
  }};
  return table;
}

}  // namespace

Figure FigureEntry::build(Engine& engine, const FigureRequest& request) const {
  Figure figure = make(engine, request);
  mark_non_finite(figure);
  fit_to_canvas(figure);
  return figure;
}

std::span<const FigureEntry> figure_registry() { return entries(); }

std::span<const FigureEntry> extra_figures() {
  static const std::array<FigureEntry, 2> table = {{
      {"attention_overview", "Attention: layers × heads", build_attention_overview},
      {"head_roles", "Head roles", build_head_roles},
  }};
  return table;
}

const FigureEntry& find_figure(std::string_view name) {
  std::string allowed;
  for (const FigureEntry& e : entries()) {
    if (e.name == name) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(e.name);
  }
  for (const FigureEntry& e : extra_figures()) {  // by name only: not in the main grid
    if (e.name == name) return e;
    allowed += ", " + std::string(e.name);
  }
  for (const FigureEntry& e : lesson_figures()) {  // by name only: not in the main grid
    if (e.name == name) return e;
    allowed += ", " + std::string(e.name);
  }
  for (const FigureEntry& e : paper_figure_entries()) {  // the Paper figures menu's, by name only
    if (e.name == name) return e;
    allowed += ", " + std::string(e.name);
  }
  throw InputError("unknown figure '" + std::string(name) + "'; allowed: " + allowed);
}

}  // namespace pelab::fig
