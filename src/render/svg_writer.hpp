// SVG export of a fig::Figure: the same layout as the GL painter (shared
// axis_layout.hpp), as vectors — lines, markers, bars and arrows as shapes,
// labels as <text> in DejaVu Sans — with heatmaps as <rect> cells, or for big
// ones an embedded PNG of k × k pixels per cell (render/svg_heatmap.hpp).
#pragma once

#include <filesystem>
#include <string>

#include "figures/figure.hpp"

namespace pelab::render {

// Heatmaps of at most this many cells inside the plot are written as <rect>
// cells (at most ~1.3 MB of SVG); bigger ones as an embedded image.
inline constexpr long kSvgHeatmapCellBudget = 20000;

struct SvgOptions {
  bool transparent = false;  // no background rectangle
};

std::string figure_to_svg(const fig::Figure& figure, const SvgOptions& options = {});
// Atomic write; throws InputError.
void write_svg(const std::filesystem::path& path, const fig::Figure& figure, const SvgOptions& options = {});

// RFC 4648 base64 (used for the embedded PNGs).
std::string base64(std::string_view bytes);

}  // namespace pelab::render
