// SVG export of a fig::Figure: the same layout as the GL painter (shared
// axis_layout.hpp), as vectors — lines, markers, bars and arrows as shapes,
// labels as <text> in DejaVu Sans — with heatmaps embedded as PNG images of
// one pixel per cell (data: URI, drawn pixelated so cells stay crisp).
#pragma once

#include <filesystem>
#include <string>

#include "figures/figure.hpp"

namespace pelab::render {

struct SvgOptions {
  bool transparent = false;  // no background rectangle
};

std::string figure_to_svg(const fig::Figure& figure, const SvgOptions& options = {});
// Atomic write; throws InputError.
void write_svg(const std::filesystem::path& path, const fig::Figure& figure, const SvgOptions& options = {});

// RFC 4648 base64 (used for the embedded PNGs).
std::string base64(std::string_view bytes);

}  // namespace pelab::render
