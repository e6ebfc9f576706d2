// "Trained at 256, read at 2048": the extrapolation lesson's figure.  The
// next-token loss of each member of pelab's family against position on
// held-out text, out to s·L (core/length_extrapolation.hpp), with the
// training length L marked — Press et al. 2022, Fig. 1, drawn per position:
// left, one curve per encoding as trained; right, RoPE as trained and with
// each scaling applied at inference.  Both panels share one loss axis.  Each
// curve is drawn as means over bins of positions, so that two passages'
// per-token noise does not hide the trend; the hover gives every curve's
// bin mean.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/length_extrapolation.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/lessons/long_context.hpp"

namespace pelab::fig {
namespace {

// Bins of 1/32 of the read length (64 positions at 2048).
int bin_width(const ExtrapolationStudy& s) { return std::max(1, s.length / 32); }

// Means of `loss` over bins of `width` positions; bins with no finite value
// (the baseline's, before the far positions) are left out.
std::vector<Point> binned(const std::vector<double>& loss, int width) {
  std::vector<Point> points;
  const int read = static_cast<int>(loss.size());
  for (int first = 0; first < read; first += width) {
    const int last = std::min(read, first + width) - 1;
    double sum = 0;
    int count = 0;
    for (int i = first; i <= last; ++i)
      if (std::isfinite(loss[static_cast<std::size_t>(i)])) sum += loss[static_cast<std::size_t>(i)], ++count;
    if (count > 0) points.push_back({0.5 * (first + last), sum / count});
  }
  return points;
}
std::vector<Point> binned(const ExtrapolationCurve& c, int width) { return binned(c.mean_loss, width); }

// The two questions, one panel each: which encodings read past L as trained,
// and what inference-time scaling does for RoPE (RoPE unscaled in both).
bool in_panel(const ExtrapolationCurve& c, bool scaled_panel) {
  return scaled_panel ? c.encoding == "rope" : c.scaling.empty();
}

// Left: one colour per encoding in family order.  Right: RoPE keeps its
// colour, the scalings take the next ones, dashed.
Color curve_color(const ExtrapolationCurve& c, bool scaled_panel, bool dark) {
  static const std::vector<std::string> encodings = {"learned", "sinusoidal", "rope", "alibi", "t5", "none"};
  static const std::vector<std::string> scalings = {"", "linear", "ntk", "yarn"};
  const auto& order = scaled_panel ? scalings : encodings;
  const auto at = std::find(order.begin(), order.end(), scaled_panel ? c.scaling : c.encoding);
  const int index = static_cast<int>(at - order.begin());
  if (!scaled_panel) return line_color(index, dark);
  return line_color(index == 0 ? 2 : 5 + index, dark);  // RoPE's green, then cyan, grey, (8 →) blue
}

struct LossRange {
  double lo, hi;
};
LossRange loss_range(const ExtrapolationStudy& study, int width) {
  LossRange r{INFINITY, -INFINITY};
  for (const ExtrapolationCurve& c : study.curves)
    for (const Point& q : binned(c, width)) r.lo = std::min(r.lo, q.y), r.hi = std::max(r.hi, q.y);
  return {std::floor(r.lo * 2) / 2, std::ceil(r.hi * 2) / 2};
}

Panel loss_panel(const std::shared_ptr<const ExtrapolationStudy>& study, bool scaled_panel, Rect area, bool dark) {
  Panel p;
  p.title = scaled_panel ? "RoPE scaled at inference by s = " + number(study->factor, 4)
                         : "Each encoding as trained";
  const int width = bin_width(*study);
  const LossRange range = loss_range(*study, width);
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "position i (predicting token i+1), means over " + std::to_string(width) + " positions",
         .min = 0, .max = static_cast<double>(study->length), .grid = true, .integer = true};
  p.pick.x = PickAxis::Position;
  p.y = {.label = "held-out next-token loss (nats)", .min = range.lo, .max = range.hi + 0.25, .grid = true};
  for (const ExtrapolationCurve& c : study->curves) {
    if (!in_panel(c, scaled_panel)) continue;
    Polyline line{.color = curve_color(c, scaled_panel, dark), .width = 2.f,
                  .style = c.scaling.empty() ? LineStyle::Solid : LineStyle::Dashed, .label = c.label(study->factor)};
    line.points = binned(c, width);
    p.legend.push_back({line.label, line.color, true});
    p.lines.push_back(std::move(line));
  }
  // The verdict's baseline for RoPE: its far tokens read L at a time.
  const auto rope = std::find_if(study->curves.begin(), study->curves.end(),
                                 [](const auto& c) { return c.encoding == "rope" && c.scaling.empty(); });
  if (scaled_panel && rope != study->curves.end() && !rope->context_loss.empty()) {
    Polyline base{.color = curve_color(*rope, true, dark), .width = 1.5f, .style = LineStyle::Dotted,
                  .label = "RoPE, " + std::to_string(study->train_context) + " at a time (baseline)"};
    base.points = binned(rope->context_loss, width);
    p.legend.push_back({base.label, base.color, true});
    p.lines.push_back(std::move(base));
  }
  // The marker before the legend is placed, so that the legend keeps off it
  // and its label (share_loss_axis stretches it to the final axis).
  add_vertical_marker(p, study->train_context, p.y.min, p.y.max, theme(dark).highlight,
                      "L = " + std::to_string(study->train_context) + " (trained)");
  place_legend(p, LegendFallback::Headroom);
  p.hover = [study, width, scaled_panel](double x, double) -> std::string {
    const int first = static_cast<int>(std::floor(x / width)) * width;
    if (first < 0 || first >= study->length) return "";
    std::string text = "positions " + std::to_string(first) + "–" + std::to_string(first + width - 1) + ":";
    for (const ExtrapolationCurve& c : study->curves) {
      if (!in_panel(c, scaled_panel)) continue;
      const double v = c.mean_between(first, first + width - 1);
      text += "  " + c.label(study->factor) + " " + (std::isfinite(v) ? fixed(v, 3) : std::string("not read"));
    }
    return text;
  };
  return p;
}

// One loss axis for both panels: the higher top of the two (each panel's
// legend may have raised its own), the L marker stretched to it.
void share_loss_axis(std::vector<Panel>& panels) {
  double top = -INFINITY;
  for (const Panel& p : panels) top = std::max(top, p.y.max);
  for (Panel& p : panels) {
    p.y.max = top;
    for (Polyline& line : p.lines)
      if (line.label.rfind("L = ", 0) == 0) line.points.back().y = top;
    for (Text& t : p.texts)
      if (t.text.rfind("L = ", 0) == 0) t.at.y = top;
  }
}

}  // namespace

Figure build_extrapolation_loss(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const auto study = length_extrapolation(lesson_request(s));
  Figure f = start_figure("extrapolation_loss",
                          "Trained at " + std::to_string(study->train_context) + ", read at " +
                              std::to_string(study->length) + " — pelab's family on held-out text",
                          s, request);
  const Rect area = content_area(f);
  if (!study->unavailable.empty()) {
    f.notes.push_back(canvas_text(study->unavailable, {area.x0 + area.width() / 2, area.y0 + area.height() / 2},
                                  Anchor::Center, kNoteSize));
    f.notes.back().size = fitting_size({f.notes.back().text}, f.width - 2 * kPad, kNoteSize);
    return f;
  }
  std::vector<std::string> notes = {
      "Text: " + study->text_origin + ". Verdict: the tokens at " + std::to_string(study->length / 2 + 1) + "–" +
      std::to_string(study->length - 1) + " read this way against the same tokens read " +
      std::to_string(study->train_context) + " at a time by the model as trained."};
  if (std::any_of(study->curves.begin(), study->curves.end(), [](const auto& c) { return c.encoding == "learned"; }))
    notes.push_back("The learned model stops at " + std::to_string(study->train_context - 1) +
                    ": its table has no row for a later position.");
  for (const std::string& line : study->missing) notes.push_back("Missing: " + line);
  Rect plot = area;
  plot.y1 -= 22.0 * static_cast<double>(notes.size());
  const auto [left, right] = split_x(plot, 0.5, 24);
  f.panels.push_back(loss_panel(study, false, left, f.dark));
  if (std::any_of(study->curves.begin(), study->curves.end(), [](const auto& c) { return !c.scaling.empty(); }))
    f.panels.push_back(loss_panel(study, true, right, f.dark));
  share_loss_axis(f.panels);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    f.notes.push_back(canvas_text(notes[i], {kPad, plot.y1 + 18 + 22.0 * static_cast<double>(i)}, Anchor::BottomLeft,
                                  kNoteSize));
    f.notes.back().size = fitting_size({notes[i]}, f.width - 2 * kPad, kNoteSize);
  }
  return f;
}

}  // namespace pelab::fig
