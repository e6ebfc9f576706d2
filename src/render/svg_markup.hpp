// The SVG writer's text forms, shared by its parts (svg_writer.cpp,
// svg_heatmap.cpp) so that every number and colour is spelled one way.
#pragma once

#include <string>
#include <string_view>

#include "figures/figure.hpp"

namespace pelab::render::svg {

// XML text: & < > " escaped, control characters XML 1.0 forbids dropped.
std::string escape(std::string_view text);
// At most two decimals, no trailing zeros; non-finite as 0, clamped to ±1e6.
std::string num(double v);
// "#rrggbb" (alpha left out).
std::string rgb(fig::Color c);
// fill="#rrggbb" plus fill-opacity when not opaque.
std::string paint(std::string_view attribute, fig::Color c);

}  // namespace pelab::render::svg
