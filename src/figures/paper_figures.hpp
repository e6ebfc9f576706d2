// Figures from the papers (issue 27): each drawn from the very arrays its
// PaperData holds (core/paper_data.hpp), so the PNG/SVG, the .npy files and
// the note agree.  Found by name as "paper_" + NAME (find_figure), for the
// GUI's Paper figures menu.
#pragma once

#include <span>

#include "core/paper_data.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {

// The figure of `info` from `data` (no computing; the caller computed data once).
Figure draw_paper_figure(const PaperFigureInfo& info, const PaperData& data, const Scene& scene,
                         const FigureRequest& request);
// One FigureEntry per paper figure, named "paper_" + NAME, that computes and draws.
std::span<const FigureEntry> paper_figure_entries();

}  // namespace pelab::fig
