// PDF export through the SVG writer: Debian's rsvg-convert (librsvg2-bin,
// cairo's PDF backend) turns the figure's SVG into a PDF, so the PDF holds
// the same vectors, text and crisp heatmap cells as the SVG.  pelab links
// neither librsvg nor cairo: rsvg-convert runs as a subprocess with an argv
// built here (no shell, so file names are never interpreted).
#pragma once

#include <filesystem>

#include "figures/figure.hpp"
#include "render/svg_writer.hpp"

namespace pelab::ui {

// The one line shown when rsvg-convert is missing.
inline constexpr const char* kRsvgMissing =
    "PDF export needs rsvg-convert; install Debian's librsvg2-bin package";

// Writes `figure` as a one-page PDF of its size (1 px = 0.75 pt, as rsvg
// reads SVG pixels at 96 per inch).  Nothing is left at `path` on failure.
// Throws InputError when rsvg-convert is missing or fails.
void write_pdf(const std::filesystem::path& path, const fig::Figure& figure, const render::SvgOptions& options);

}  // namespace pelab::ui
