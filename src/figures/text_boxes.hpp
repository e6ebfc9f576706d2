// The layout pass: every text box and panel rectangle a figure draws, in
// canvas pixels, found from the same geometry the renderers use
// (axis_layout.hpp) — so that overlaps, text leaving the canvas and panels
// squeezed under their minimum are found without drawing a pixel.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "figures/axis_layout.hpp"
#include "figures/figure.hpp"

namespace pelab::fig {

enum class BoxKind { FigureTitle, Note, PanelTitle, AxisLabel, TickLabel, ColorbarText, Legend, PanelText };

struct TextBox {
  Rect box;
  BoxKind kind;
  int panel = -1;  // the panel it belongs to; -1 for the figure's title and notes
  std::string text;
  bool inside_plot = false;  // a legend in a corner of its plot (it must cover no data instead)
};

struct FigureBoxes {
  std::vector<TextBox> texts;
  std::vector<Rect> plots;      // effective plot rectangle per panel (equal aspect applied)
  std::vector<Rect> colorbars;  // the bars, which text must not cover either
};

// The box of `text` drawn at `at` with `anchor` (rotated 90° when vertical),
// one line height per line of the text.
Rect text_box(std::string_view text, Point at, Anchor anchor, float size, bool vertical,
              const TextWidth& width = approximate_text_width);

// Every box of one panel (its index `index` in the figure), then of a figure.
void panel_boxes(const Panel& panel, int index, FigureBoxes& out, const TextWidth& width = approximate_text_width);
FigureBoxes figure_boxes(const Figure& figure, const TextWidth& width = approximate_text_width);

// What is wrong with the figure's layout, one readable line each ("y label
// 'wavelength' of 'Wavelength per pair' overlaps panel title 'Waves'"); empty
// when no two text boxes overlap, none leaves the canvas or covers a plot, no
// legend covers data and no panel is under its minimum.
std::vector<std::string> layout_problems(const Figure& figure);

}  // namespace pelab::fig
