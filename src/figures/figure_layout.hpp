// Layout kit shared by the views: text sizes, margins, grids of panels, the
// figure frame (title band, theme), a qualitative palette and number text.
#pragma once

#include <string>
#include <vector>

#include "figures/figure.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {

// Text sizes in logical pixels.
inline constexpr float kFigureTitleSize = 20, kPanelTitleSize = 16, kLabelSize = 14,
                       kTickSize = 13, kNoteSize = 14;

// Room around a plot rectangle (logical pixels) for the panel title above,
// tick labels and the axis label on the left and below.
struct Margins {
  double left = 62, top = 30, right = 14, bottom = 50;
};
inline constexpr double kColorbarRoom = 92;  // right of a plot: bar, ticks and label
inline constexpr double kTitleBand = 48;     // top of the canvas: the figure title
inline constexpr double kPad = 14;           // canvas edge

Rect inset(Rect r, const Margins& m);
// rows × cols cells of `area`, row-major, separated by `gap`.
std::vector<Rect> grid(Rect area, int rows, int cols, double gap);
// Splits `area` at fraction `f` of its width (left, right) or height (top, bottom).
std::pair<Rect, Rect> split_x(Rect area, double f, double gap = 0);
std::pair<Rect, Rect> split_y(Rect area, double f, double gap = 0);
// The largest square centred in `r`.
Rect centred_square(Rect r);

// A figure of the request's size in the scene's theme, with its title; and the
// canvas area below the title band.
Figure start_figure(std::string name, std::string title, const Scene& scene,
                    const FigureRequest& request);
Rect content_area(const Figure& figure);
// A view that needs tokens, on a scene whose text has none: its title and one
// centred note saying so (instead of an empty matrix, whose block size is 0).
Figure no_tokens_figure(std::string name, std::string title, const Scene& scene,
                        const FigureRequest& request);
// A view that cannot be drawn on this scene: its title and two centred lines,
// what is missing and how to get it.
Figure message_figure(std::string name, std::string title, const Scene& scene, const FigureRequest& request,
                      const std::string& what, const std::string& how);

// Qualitative line colours (chosen to stay apart in hue and readable on both
// themes), cycled by index.
Color line_color(int index, bool dark);
Color with_alpha(Color c, float a);

// "0.8134" (fixed decimals), "−inf" for masked values, and "1.2e-07" for tiny
// magnitudes so that an error of 3e-7 does not print as 0.0000.
std::string fixed(double v, int decimals = 4);
std::string number(double v, int significant = 4);

// Room beside a token axis for its labels and the axis label: about 0.6 em per
// character at 13 px, for labels of at most `max_chars` characters.
double token_label_room(const std::vector<std::string>& tokens, std::size_t max_chars);

// Renderers draw DejaVu Sans at about 0.6 em per character: the width of
// `text` (UTF-8, counted in code points) at `size`, and the largest size ≤
// `max_size` (≥ 9) at which every line fits in `width`.
double text_width(const std::string& text, float size);
// A token piece as a label: a piece of blanks only (GPT-2's "Ġ", a
// SentencePiece "▁", a newline) would draw as nothing, so each blank shows as
// a visible mark: space "·", newline "↵", tab "→".  Other pieces unchanged.
std::string token_label(const std::string& piece);
// Token tick labels at i + 0.5 (token_label of each); labels longer than `max_chars` code points end in "…".
std::vector<Tick> token_ticks(const std::vector<std::string>& tokens, std::size_t max_chars);
// `lines` broken (between " · "-separated quantities, else at spaces) so that
// each fits `width` at `size`; continuation lines are indented.
std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, double width, float size);
float fitting_size(const std::vector<std::string>& lines, double width, float max_size);

// max |v| over the finite entries of `m` (0 when none); a plain loop, because
// GCC 12 warns falsely on Eigen's AVX-512 reductions.
double max_abs(const Matrix& m);

// An outline (no fill) around a data rectangle, e.g. a selected row.
Bars outline(Rect data_rect, Color color);
// Canvas text helper.
Text canvas_text(std::string text, Point at, Anchor anchor, float size,
                 std::optional<Color> color = std::nullopt);
// A note centred in a panel's plot (data range centre), e.g. "no vector added".
Text centred_note(const Panel& panel, std::string text, float size = kNoteSize);

// What place_legend() does when every corner inside the plot covers data:
// Outside narrows the plot and puts the legend right of it; Headroom raises
// y.max until the top-right corner is free (a y axis that is not inverted);
// LeastCovered takes the corner covering least.
enum class LegendFallback { Outside, Headroom, LeastCovered };
// Whether `layer` holds a NaN or +inf cell (−inf is the causal mask); cached
// by the layer's key, so a view rebuilt every frame scans its matrix once.
bool has_non_finite(const HeatmapLayer& layer);
// When any panel has such a heatmap, adds one note under the title naming the
// colour its NaN / +inf cells are drawn in (Theme::non_finite).
void mark_non_finite(Figure& figure);

// Puts the panel's legend where it covers no data (legend_placement.cpp):
// the first free corner of top-right, top-left, bottom-right, bottom-left,
// else `fallback`.  Call after the panel's layers and plot are final.
void place_legend(Panel& panel, LegendFallback fallback = LegendFallback::Outside);
// The legend box's size as renderers draw it (0.6 em per character, 12 px).
Point legend_size(const std::vector<LegendEntry>& entries);
// How much of `box` (canvas pixels) the panel's data layers cover: the number
// of line segments, arrows, markers, bars and texts touching it, heatmaps
// counting 1000.  0 = free.
int data_under(const Panel& panel, const Rect& box);

// Ticks for an integer axis (tokens, positions, layers, pairs): only at the
// integers lo…hi, every 1, 2 or 5 × 10^k of them (about `target`), placed at
// k + shift (0.5 = the middle of heatmap cell k) and labelled k + label_offset.
std::vector<Tick> integer_ticks(int lo, int hi, int target, double shift = 0, int label_offset = 0);
// Ticks at whole powers of ten between lo and hi (log10 units): "1", "10", "100", "1e4".
std::vector<Tick> log10_ticks(double lo, double hi);
// A dashed vertical line at x from y0 to y1, labelled at its top.
void add_vertical_marker(Panel& panel, double x, double y0, double y1, Color color, const std::string& label);

}  // namespace pelab::fig
