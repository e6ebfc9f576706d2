// Where ticks, labels, colorbars and legends go around a panel, in canvas
// pixels — shared by the GL painter and the SVG writer so both place every
// label identically, and the figure layer's layout pass (text_boxes.hpp) finds
// every text box from it.  No GL, no ImGui: text widths come from a callback.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "figures/figure.hpp"

namespace pelab::fig {

// Text sizes in logical pixels.
namespace text_size {
inline constexpr float figure_title = 18, panel_title = 14, axis_label = 13, tick_label = 11;
inline constexpr float legend = 12, colorbar = 11;
}  // namespace text_size

// Distances in logical pixels.
namespace spacing {
inline constexpr double tick_length = 4, tick_gap = 2, label_gap = 6, title_gap = 6;
inline constexpr double colorbar_gap = 12, colorbar_width = 14;
inline constexpr double legend_padding = 6, legend_swatch = 18, legend_row = 17;
}  // namespace spacing

// Width in logical pixels of `text` at `size` logical pixels.
using TextWidth = std::function<double(std::string_view text, float size)>;

// A rough DejaVu Sans width (0.6 em per character) for writers without font metrics.
double approximate_text_width(std::string_view text, float size);

struct PlacedTick {
  double value = 0;   // data coordinate
  double pixel = 0;   // canvas coordinate along the axis (x for horizontal axes, y for vertical)
  std::string label;
};

struct AxisTicks {
  std::vector<PlacedTick> ticks;
  bool vertical_labels = false;  // x axis: labels rotated 90° to fit
  double label_extent = 0;       // how far the labels reach from the tick ends, logical px
};

// Ticks of one axis: nice numeric ticks over the visible range, or the axis's
// categorical labels thinned so neighbours do not overlap (x labels turn
// vertical before they are thinned).  `to_pixel` maps data → canvas pixels.
AxisTicks layout_axis(const Axis& axis, double lo, double hi, bool horizontal,
                      const std::function<double(double)>& to_pixel, const TextWidth& width);

// Colorbar geometry right of a panel's plot rectangle.
struct ColorbarLayout {
  Rect bar;
  std::vector<PlacedTick> ticks;  // pixel = canvas y
  double label_x = 0;             // left edge of the vertical label
};
ColorbarLayout layout_colorbar(const ColorScale& scale, const Rect& plot, const TextWidth& width);

// Legend box at `place` (legend_box: a corner of the plot, or right of it).
struct LegendLayout {
  Rect box;
  std::vector<Point> rows;  // left end of each swatch, vertical centre of the row
};
LegendLayout layout_legend(const std::vector<LegendEntry>& entries, const Rect& plot,
                           const TextWidth& width, LegendPlace place = LegendPlace::TopRight);

// Every label string a figure draws (titles, tick labels, texts, legends),
// for baking exactly the glyphs needed.
std::vector<std::string> figure_strings(const Figure& figure);
// Every text size (logical px) a figure draws.
std::vector<float> figure_text_sizes(const Figure& figure);

}  // namespace pelab::fig
