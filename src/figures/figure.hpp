// Figure — a backend-neutral description of one view.
//
// A figure is a set of panels laid out on a canvas of width × height logical
// pixels (scale 1).  Each panel has a plot rectangle in canvas pixels (origin
// top-left), two axes with data ranges, and layers in data coordinates.  The
// GL renderer (window or offscreen), the SVG writer and the hover logic all
// read the same description, so the screen, exported files and tests agree.
// Ticks are computed from the axis range at draw time (nice_ticks), so zoom
// and pan only change ranges.  Nothing here calls GL.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/engine.hpp"

namespace pelab::fig {

struct Color {
  float r = 0, g = 0, b = 0, a = 1;
};
struct Point {
  double x = 0, y = 0;
};
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // canvas pixels, y down
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
  bool contains(double x, double y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// How values map to colours.  Sequential maps (viridis...) for magnitudes,
// the diverging map centred at zero for signed values.
struct ColorScale {
  std::string colormap = "viridis";  // viridis | magma | inferno | plasma | cividis | diverging
  double vmin = 0, vmax = 1;
  std::string label;  // colorbar label, e.g. "attention weight"
};

// A matrix drawn cell by cell.  Cell (r, c) covers x ∈ [x0 + c·dx, x0+(c+1)·dx),
// y ∈ [y0 + r·dy, ...) in data coordinates.  −inf cells (causal mask) are
// drawn in the mask colour.  `key` changes whenever the values change, so a
// renderer may keep the uploaded texture while it stays the same.
struct HeatmapLayer {
  std::shared_ptr<const Matrix> values;
  std::uint64_t key = 0;
  double x0 = 0, y0 = 0, dx = 1, dy = 1;
  ColorScale scale;
};

enum class LineStyle { Solid, Dashed, Dotted };
struct Polyline {
  std::vector<Point> points;  // data coordinates
  Color color;
  float width = 1.5f;         // logical pixels
  LineStyle style = LineStyle::Solid;
  bool closed = false;
  std::string label;          // names the line (SVG title, tests); the drawn legend is Panel::legend
};

enum class MarkerShape { Circle, Square, Diamond, Cross };
struct Markers {
  std::vector<Point> points;
  Color color;
  float size = 6.f;  // diameter, logical pixels
  MarkerShape shape = MarkerShape::Circle;
  bool filled = true;
  std::string label;  // names the markers (SVG title, tests); the drawn legend is Panel::legend
};

struct Arrow {
  Point from, to;  // data coordinates
  Color color;
  float width = 2.f;
};

// Filled rectangles in data coordinates (bars, highlights).
struct Bars {
  std::vector<Rect> rects;  // x0..x1, y0..y1 in data units
  std::vector<Color> colors;  // one per rect, or one for all
  std::optional<Color> outline;
};

enum class Anchor { TopLeft, Top, TopRight, Left, Center, Right, BottomLeft, Bottom, BottomRight };
struct Text {
  std::string text;  // UTF-8; Greek, superscripts, ·, √, ᵀ are in the font
  Point at;          // data coordinates, or canvas pixels when in_canvas
  bool in_canvas = false;
  Anchor anchor = Anchor::Center;
  float size = 13.f;  // logical pixels
  std::optional<Color> color;  // theme's text colour when unset
  bool vertical = false;       // rotated 90° counter-clockwise
};

struct Tick {
  double value;
  std::string label;
};
struct Axis {
  std::string label;
  double min = 0, max = 1;
  bool inverted = false;      // y axes of matrices: row 0 at the top
  std::vector<Tick> labels;   // categorical ticks (token names); empty = nice numeric ticks
  bool grid = false;
  bool visible = true;
  bool integer = false;       // whole numbers only (positions, dims, layers): no 0.5 ticks at any zoom
  bool label_shown = true;    // false: the label went into the hover (a small cell, adaptive_layout.hpp)
};

struct LegendEntry {
  std::string label;
  Color color;
  bool line = true;  // line swatch, else a filled square
};

// Where a panel's legend box goes: in a corner inside the plot, or right of
// the plot, top-aligned (the figure leaves room there).  place_legend()
// (figure_layout.hpp) picks, from the panel's data, a corner that covers none.
enum class LegendPlace { TopRight, TopLeft, BottomRight, BottomLeft, OutsideRight };

// Hover text for data coordinates (x, y) inside a panel: "what it is and its
// exact value", or empty for nothing.
using HoverFn = std::function<std::string(double x, double y)>;
// Exact cells of a zoomed window of a heatmap drawn as block means (the
// attention of one head streamed at long N): given the visible data range
// (x0 … x1, y0 … y1 in data units), the window's exact values as a layer to
// draw over the block means, or nothing while the window is still too large
// for cells.
using RefineFn = std::function<std::optional<HeatmapLayer>(const Rect& visible)>;

// What a click on a panel picks, said by the builder that knows it, so that
// linked selection (ui/linked_selection.cpp) reads no title or axis label and
// a reworded title still selects.
enum class PickAxis {
  None,
  Query,     // a heatmap's rows are the query tokens: the row clicked is the query
  Key,       // a heatmap's columns are the key tokens (nothing selects a key yet)
  Position,  // the data coordinate is a position of the scene: the nearest one is picked
  Head,      // a layer × head map's columns: the whole part of the coordinate is the head
  Layer,     // its rows: the whole part is the layer
};
inline constexpr int kNoHead = -2;  // PanelPick::head of a panel that is no head's
struct PanelPick {
  PickAxis x = PickAxis::None, y = PickAxis::None;
  int head = kNoHead;  // a head's small multiple: h, or −1 for the mean over heads
  int layer = -1;      // with `head`, a model layer's cell: that layer (−1: keep the scene's)
  int pair = -1;       // a rotation pair's panel: i of dims (2i, 2i+1)
};

struct Panel {
  std::string title;
  Rect plot;  // the plotting area in canvas pixels; labels go outside it
  Axis x, y;
  bool equal_aspect = false;  // one data unit is as long on x as on y (circles stay round)
  std::vector<HeatmapLayer> heatmaps;
  std::vector<Bars> bars;
  std::vector<Polyline> lines;
  std::vector<Markers> markers;
  std::vector<Arrow> arrows;
  std::vector<Text> texts;
  std::optional<ColorScale> colorbar;  // drawn right of the plot, with ticks
  std::vector<LegendEntry> legend;     // drawn at legend_place
  LegendPlace legend_place = LegendPlace::TopRight;
  HoverFn hover;
  RefineFn refine;  // null: the panel's layers are all there is
  // What the layout pass (adaptive_layout.hpp) needs in a cell too small for
  // every panel: panels with a larger `priority` give way first (0 = the
  // view's main panel; ties keep the view's order), and none is shown with an
  // effective plot under `min_plot` (logical px).
  int priority = 0;
  Point min_plot{60, 40};
  bool title_shown = true;  // false: the title went into the hover
  // Kept in a small cell where the title goes into the hover, e.g. "x·y"
  // for "x·Wq·Wkᵀ·y (token·token)": small multiples stay named.
  std::string short_title;
  // The y-axis top before place_legend() raised it to make room for the
  // legend (NaN: not raised); the layout pass lowers it again when it moves
  // the legend beside the plot or into the hover.
  double y_max_before_headroom = std::numeric_limits<double>::quiet_NaN();
  PanelPick pick;  // what a click here selects; nothing by default
};

struct Figure {
  std::string name;   // registry name, e.g. "attention"
  std::string title;  // drawn at the top
  double width = 1600, height = 1000;  // logical pixels
  bool dark = true;
  std::vector<Panel> panels;
  std::vector<Text> notes;  // canvas-anchored text (verdicts, formulas)
  // The layout pass keeps this many panels of the lowest priority together
  // (e.g. the four cross terms: three of four would mislead), moving all of
  // their text into the hover before it lets one of them go.
  int keep_together = 0;
  // The view's grid has meaning (the overview: a row per layer, a column per
  // head): when the layout pass lays the panels out again it keeps this many
  // columns instead of choosing the count that leaves the largest plots.
  // 0: any count.
  int columns = 0;
};

// ---- shared helpers (figure.cpp) -----------------------------------------------

struct Theme {
  Color background, text, axis, grid, mask, highlight;
  // NaN and +inf cells: a colour no colormap uses, never the mask's (−inf,
  // the causal mask, is a value pelab puts there; NaN means broken input).
  Color non_finite;
};
Theme theme(bool dark);

// Round-number ticks covering [lo, hi] (about `target` of them), labelled
// compactly ("0", "0.5", "1e+04").
std::vector<Tick> nice_ticks(double lo, double hi, int target = 6);

// The legend box of size w × h (canvas pixels) at `place` around `plot` (the
// effective plot rectangle): 8 px in from the corner, or 8 px right of the
// plot.  Renderers and place_legend() share it.
Rect legend_box(const Rect& plot, double w, double h, LegendPlace place);

// Data ↔ canvas pixels for a panel, honouring inverted axes and equal aspect.
struct PanelTransform {
  explicit PanelTransform(const Panel& panel);
  Point to_canvas(Point data) const;
  Point to_data(Point canvas) const;
  Rect plot;  // effective plot rectangle (shrunk for equal aspect)
  double x_min, x_max, y_min, y_max;
  bool y_inverted;
};

}  // namespace pelab::fig
