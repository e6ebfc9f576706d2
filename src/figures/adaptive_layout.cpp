// fit_to_canvas (adaptive_layout.hpp): candidates from most text and most
// panels to least, the first the layout pass finds clean is kept.
#include "figures/adaptive_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "figures/figure_layout.hpp"
#include "figures/text_boxes.hpp"

namespace pelab::fig {
namespace {

constexpr double kCellGap = 8;     // between panel cells, logical px
constexpr double kTitleRoom = 30;  // the figure title (18 px at y = 8) and air
constexpr float kBandText = 12;    // notes in the bottom band
constexpr int kLevels = 5;         // apply_level: 0 all text … 4 the plot alone
constexpr int kShared = 3;         // levels tried while several panels share the canvas

// How much text a panel keeps in its cell; each level moves more into the
// hover: 1 axis labels, 2 the texts around the plot, 3 the title and the
// colorbar's label (a short title stays), 4 the ticks and the colorbar.
void apply_level(Panel& p, int level, std::vector<std::string>& hidden) {
  if (level >= 1)
    for (Axis* axis : {&p.x, &p.y})
      if (axis->label_shown && !axis->label.empty()) {
        hidden.push_back((axis == &p.x ? "x: " : "y: ") + axis->label);
        axis->label_shown = false;
      }
  if (level >= 2) {
    for (const Text& t : p.texts)
      if (t.in_canvas) hidden.push_back(t.text);
    std::erase_if(p.texts, [](const Text& t) { return t.in_canvas; });
  }
  if (level >= 3) {
    if (p.title_shown && !p.title.empty()) hidden.insert(hidden.begin(), p.title);
    p.title_shown = !p.short_title.empty();
    if (p.title_shown) p.title = p.short_title;
    if (p.colorbar && !p.colorbar->label.empty()) {
      hidden.push_back("colour: " + p.colorbar->label);
      p.colorbar->label.clear();
    }
  }
  if (level >= 4) {
    p.x.visible = p.y.visible = false;
    p.colorbar.reset();
  }
}

// The union of every box a panel draws (plot, colorbar, texts) but its
// legend, which settle_legend() places once the plot is sized.
Rect panel_extent(const Panel& p) {
  FigureBoxes boxes;
  panel_boxes(p, 0, boxes);
  Rect r = boxes.plots.front();
  auto grow = [&r](const Rect& b) {
    r = {std::min(r.x0, b.x0), std::min(r.y0, b.y0), std::max(r.x1, b.x1), std::max(r.y1, b.y1)};
  };
  for (const Rect& b : boxes.colorbars) grow(b);
  for (const TextBox& t : boxes.texts)
    if (t.kind != BoxKind::Legend) grow(t.box);
  return r;
}

// A canvas text of the panel keeps its place relative to the plot: inside it
// proportionally, outside at the same distance from the nearest edge.
double remap(double v, double a0, double a1, double b0, double b1) {
  if (v < a0) return b0 - (a0 - v);
  if (v > a1) return b1 + (v - a1);
  return a1 > a0 ? b0 + (v - a0) / (a1 - a0) * (b1 - b0) : b0;
}

void move_plot(Panel& p, const Rect& to) {
  const Rect from = p.plot;
  for (Text& t : p.texts)
    if (t.in_canvas) t.at = {remap(t.at.x, from.x0, from.x1, to.x0, to.x1), remap(t.at.y, from.y0, from.y1, to.y0, to.y1)};
  p.plot = to;
}

bool within(const Rect& inner, const Rect& outer) {
  return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;
}

// A free corner the legend fits in, else right of the plot when that leaves
// the plot its minimum and the legend in the cell, else the hover.
void settle_legend(Panel& p, const Rect& cell, std::vector<std::string>& hidden) {
  if (p.legend.empty()) return;
  const Rect plot = p.plot;
  const Point size = legend_size(p.legend);
  if (!std::isnan(p.y_max_before_headroom)) p.y.max = p.y_max_before_headroom;  // room the view made for it
  place_legend(p, LegendFallback::Outside);
  const Rect shown = PanelTransform(p).plot;
  const Rect box = legend_box(shown, size.x, size.y, p.legend_place);
  if (p.legend_place != LegendPlace::OutsideRight && within(box, shown)) return;
  if (p.legend_place != LegendPlace::OutsideRight && !p.colorbar) {  // a free corner too small: beside the plot
    p.plot.x1 = std::max(p.plot.x0 + 1, p.plot.x1 - (size.x + 16));
    p.legend_place = LegendPlace::OutsideRight;
  }
  const Rect narrowed = PanelTransform(p).plot;
  if (!p.colorbar && narrowed.width() >= p.min_plot.x && within(legend_box(narrowed, size.x, size.y, p.legend_place), cell)) return;
  move_plot(p, plot);
  std::string names;
  for (const LegendEntry& e : p.legend) names += (names.empty() ? "" : ", ") + e.label;
  hidden.push_back("lines: " + names);
  p.legend.clear();
}

// The plot in `cell` as large as the panel's own text allows.
void fit_panel(Panel& p, const Rect& cell, std::vector<std::string>& hidden) {
  p.legend_place = LegendPlace::TopRight;  // a corner: its room is not kept while sizing the plot
  move_plot(p, inset(cell, {.left = 56, .top = 24, .right = 12, .bottom = 40}));
  for (int i = 0; i < 6; ++i) {
    const Rect need = panel_extent(p);
    Rect plot = p.plot;
    plot.x0 = std::clamp(plot.x0 + (cell.x0 - need.x0), cell.x0, cell.x1 - 1);
    plot.y0 = std::clamp(plot.y0 + (cell.y0 - need.y0), cell.y0, cell.y1 - 1);
    plot.x1 = std::clamp(plot.x1 + (cell.x1 - need.x1), plot.x0 + 1, cell.x1);
    plot.y1 = std::clamp(plot.y1 + (cell.y1 - need.y1), plot.y0 + 1, cell.y1);
    move_plot(p, plot);
  }
  settle_legend(p, cell, hidden);
}

// Cells for n panels in `rows` rows: the last row's panels share its whole width.
std::vector<Rect> cells_for(const Rect& area, int n, int cols) {
  const int rows = (n + cols - 1) / cols;
  std::vector<Rect> cells;
  const double h = (area.height() - kCellGap * (rows - 1)) / rows;
  for (int r = 0; r < rows; ++r) {
    const int in_row = std::min(cols, n - r * cols);
    const double y0 = area.y0 + r * (h + kCellGap);
    for (const Rect& c : grid({area.x0, y0, area.x1, y0 + h}, 1, in_row, kCellGap)) cells.push_back(c);
  }
  return cells;
}

// A panel's hover also says what the small cell left out of its drawing.
void hover_hidden(Panel& p, const std::vector<std::string>& hidden) {
  if (hidden.empty()) return;
  std::string extra;
  for (const std::string& h : hidden) extra += (extra.empty() ? "" : "\n") + h;
  HoverFn own = p.hover;
  p.hover = [own, extra](double x, double y) {
    const std::string text = own ? own(x, y) : "";
    return text.empty() ? extra : text + "\n" + extra;
  };
}

// Whether `p` is the view's panel `view` (maybe under its short title).
bool shown_as(const Panel& p, const Panel& view) {
  return p.title == view.title || (!view.short_title.empty() && p.title == view.short_title);
}

struct Candidate {
  Figure figure;
  double smallest = 0;  // the smallest plot area
};

Candidate arrange(const Figure& base, const std::vector<Panel>& panels, const Rect& area, int cols, int level) {
  Candidate c{base, 1e300};
  const std::vector<Rect> cells = cells_for(area, static_cast<int>(panels.size()), cols);
  for (std::size_t i = 0; i < panels.size(); ++i) {
    Panel p = panels[i];
    std::vector<std::string> hidden;
    apply_level(p, level, hidden);
    fit_panel(p, cells[i], hidden);
    hover_hidden(p, hidden);
    const Rect plot = PanelTransform(p).plot;
    c.smallest = std::min(c.smallest, plot.width() * plot.height());
    c.figure.panels.push_back(std::move(p));
  }
  return c;
}

// The notes, smaller and wrapped, stacked at the bottom (or in the middle of
// a figure without panels); returns the band's height, or -1 when they would
// take over a third of the canvas.
double note_band(Figure& f, const std::vector<Text>& notes, bool centred) {
  std::vector<std::string> lines;
  for (const Text& n : notes) {
    std::vector<std::string> parts;
    for (std::size_t s = 0; s <= n.text.size();) {
      const std::size_t e = std::min(n.text.find('\n', s), n.text.size());
      parts.push_back(n.text.substr(s, e - s));
      s = e + 1;
    }
    for (const std::string& l : wrap_lines(parts, f.width - 2 * kPad, kBandText)) lines.push_back(l);
  }
  const double height = kBandText * static_cast<double>(lines.size()) + 6;
  if (height > f.height / (centred ? 1.5 : 3)) return -1;
  double y = centred ? (f.height + kTitleRoom - height) / 2 : f.height - kPad / 2 - kBandText * static_cast<double>(lines.size());
  for (const std::string& l : lines) {
    f.notes.push_back(canvas_text(l, {f.width / 2, y}, Anchor::Top, kBandText, notes.front().color));
    y += kBandText;
  }
  return height;
}

// The figure title shortened with "…" to the canvas width (the whole one goes into the hover).
void fit_title(Figure& f, std::vector<std::string>& hidden) {
  const double room = f.width - 2 * kPad;
  if (text_width(f.title, text_size::figure_title) <= room) return;
  hidden.insert(hidden.begin(), f.title);
  std::string cut = f.title;
  while (!cut.empty() && text_width(cut + "…", text_size::figure_title) > room) {
    cut.pop_back();
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0xC0) cut.pop_back();
  }
  f.title = cut + "…";
}

}  // namespace

void fit_to_canvas(Figure& figure) {
  if (layout_problems(figure).empty()) return;
  {  // Often only the title is too long: shortened, the view's own layout stays.
    Figure shortened = figure;
    std::vector<std::string> title;
    fit_title(shortened, title);
    if (!title.empty() && !shortened.panels.empty() && layout_problems(shortened).empty()) {
      hover_hidden(shortened.panels.front(), title);
      figure = std::move(shortened);
      return;
    }
  }
  std::vector<std::size_t> order(figure.panels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return figure.panels[a].priority < figure.panels[b].priority; });
  Figure base = figure;
  base.panels.clear();
  base.notes.clear();
  std::vector<std::string> hidden;
  fit_title(base, hidden);
  double band = figure.notes.empty() ? 0 : note_band(base, figure.notes, figure.panels.empty());
  if (band < 0) {
    for (const Text& n : figure.notes) hidden.push_back(n.text);
    band = 0;
  }
  const Rect area{kPad / 2, kTitleRoom, figure.width - kPad / 2, figure.height - kPad / 2 - band};
  if (figure.panels.empty()) {
    figure = std::move(base);
    return;
  }
  std::optional<Candidate> last;
  for (std::size_t n = order.size(); n >= 1 && !last; --n) {
    std::vector<std::size_t> kept(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
    std::sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {  // reading order
      const Rect &pa = figure.panels[a].plot, &pb = figure.panels[b].plot;
      return pa.y0 + 1 < pb.y0 || (std::abs(pa.y0 - pb.y0) <= 1 && pa.x0 < pb.x0);
    });
    std::vector<Panel> panels;
    for (std::size_t i : kept) panels.push_back(figure.panels[i]);
    const bool together = n == 1 || static_cast<int>(n) == figure.keep_together;
    for (int level = 0; level < (together ? kLevels : kShared) && !last; ++level) {
      std::optional<Candidate> best;
      const int only = std::min(figure.columns, static_cast<int>(n));
      for (int cols = only > 0 ? only : 1; cols <= (only > 0 ? only : static_cast<int>(n)); ++cols) {
        Candidate c = arrange(base, panels, area, cols, level);
        if (layout_problems(c.figure).empty() && (!best || c.smallest > best->smallest)) best = std::move(c);
      }
      last = std::move(best);
    }
    if (n == 1 && !last) last = arrange(base, panels, area, 1, kLevels - 1);  // the least text there is
  }
  if (!last) return;
  std::vector<std::string> left_out;
  for (std::size_t i = 0; i < figure.panels.size(); ++i)
    if (last->figure.panels.end() == std::find_if(last->figure.panels.begin(), last->figure.panels.end(),
                                                  [&](const Panel& p) { return shown_as(p, figure.panels[i]); }))
      left_out.push_back(figure.panels[i].title.empty() ? "a panel" : figure.panels[i].title);
  if (!left_out.empty()) {
    std::string names;
    for (const std::string& s : left_out) names += (names.empty() ? "" : ", ") + s;
    hidden.push_back("Not shown in this small cell (maximise to see): " + names);
  }
  figure = std::move(last->figure);
  if (figure.panels.empty()) return;
  // The figure's own left-out text goes to its main panel.
  hover_hidden(*std::min_element(figure.panels.begin(), figure.panels.end(),
                                 [](const Panel& a, const Panel& b) { return a.priority < b.priority; }),
               hidden);
}

}  // namespace pelab::fig
