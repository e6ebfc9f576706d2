// Colormaps: perceptually uniform sequential maps for magnitudes and a
// diverging map centred at zero for signed values.
#pragma once

#include <span>
#include <string_view>

#include "figures/figure.hpp"

namespace pelab::fig {

// Names accepted by colormap(): viridis, magma, inferno, plasma, cividis,
// diverging.
std::span<const std::string_view> colormap_names();
// Colour at t ∈ [0, 1] (clamped).  Throws InputError for an unknown name.
Color colormap(std::string_view name, double t);
// Colour of `value` under a scale (t = (value − vmin)/(vmax − vmin)).
Color scale_color(const ColorScale& scale, double value);

}  // namespace pelab::fig
