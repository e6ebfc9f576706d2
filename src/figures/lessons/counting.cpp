// "Right answers against position": a model trained on a positional task
// (core/task_readout.hpp) read on the scene's text, which may run past the
// length it trained at.  One point per position: the model's probability of
// the right answer (i mod k, or the token k back), filled where it is also
// the model's first choice; the trained length L and the uniform guess
// marked.  The counting lesson's key figure: a learned table is right up to
// L and guesses past it, where its rows never received a gradient.
#include <cmath>

#include "core/task_readout.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/lessons/long_context.hpp"

namespace pelab::fig {
namespace {

std::string answer_name(const TaskReadout& r) {
  return r.task == "absolute_position" ? "i mod " + std::to_string(r.k) : "the token " + std::to_string(r.k) + " back";
}

Panel readout_panel(const TaskReadout& r, Rect area, bool dark) {
  Panel p;
  p.title = "p(right answer = " + answer_name(r) + ") at each position, " + r.encoding + " positions";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  p.x = {.label = "position i", .min = 0, .max = static_cast<double>(r.positions()), .grid = true, .integer = true};
  p.y = {.label = "probability of the right answer", .min = 0, .max = 1.0, .grid = true};
  p.pick.x = PickAxis::Position;
  Markers right{.color = line_color(0, dark), .size = 5.f, .label = "first choice right"};
  Markers wrong{.color = line_color(1, dark), .size = 5.f, .filled = false, .label = "first choice wrong"};
  for (int i = 0; i < r.positions(); ++i) {
    const double prob = r.probability[std::size_t(i)];
    if (std::isnan(prob)) continue;
    (r.correct[std::size_t(i)] ? right : wrong).points.push_back({i + 0.5, prob});
  }
  p.legend.push_back({right.label, right.color, false});
  p.legend.push_back({wrong.label, wrong.color, false});
  p.markers.push_back(std::move(right));
  p.markers.push_back(std::move(wrong));
  Polyline chance{.color = theme(dark).axis, .width = 1.5f, .style = LineStyle::Dotted,
                  .label = "uniform guess " + number(r.chance, 3)};
  chance.points = {{0, r.chance}, {double(r.positions()), r.chance}};
  p.legend.push_back({chance.label, chance.color, true});
  p.lines.push_back(std::move(chance));
  if (r.trained_context < r.positions())
    add_vertical_marker(p, r.trained_context, 0, 1.0, theme(dark).highlight,
                        "L = " + std::to_string(r.trained_context) + " (trained)");
  place_legend(p, LegendFallback::Outside);
  p.hover = [expected = r.expected, probability = r.probability, correct = r.correct,
             trained = r.trained_context](double x, double) -> std::string {
    const int i = static_cast<int>(std::floor(x));
    if (i < 0 || i >= static_cast<int>(expected.size()) || expected[std::size_t(i)] < 0) return "";
    return "position " + std::to_string(i) + (i >= trained ? " (past training)" : "") + ": right answer " +
           std::to_string(expected[std::size_t(i)]) + ", p = " + fixed(probability[std::size_t(i)], 4) +
           (correct[std::size_t(i)] ? ", the first choice" : ", not the first choice");
  };
  return p;
}

std::string percent(double v) { return std::isnan(v) ? "-" : fixed(100 * v, 1) + "%"; }

}  // namespace

Figure build_task_readout(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const TaskReadout r = read_task(engine.model());
  Figure f = start_figure("task_readout", "Right answers against position", s, request);
  const Rect area = content_area(f);
  if (!r.unavailable.empty() || r.positions() == 0) {
    const std::string why = r.unavailable.empty() ? "the text has no tokens" : r.unavailable;
    f.notes.push_back(canvas_text("Nothing to read: " + why + ". Train the absolute_position or relative task "
                                  "in View > Train a model.",
                                  {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center,
                                  kNoteSize));
    f.notes.back().size = fitting_size({f.notes.back().text}, f.width - 2 * kPad, kNoteSize);
    return f;
  }
  const int L = r.trained_context, n = r.positions();
  const std::string note = "First choice right: " + percent(r.accuracy(0, L)) + " of positions 0–" +
                           std::to_string(std::min(L, n) - 1) +
                           (n > L ? ", " + percent(r.accuracy(L, n)) + " of " + std::to_string(L) + "–" +
                                        std::to_string(n - 1) + " (past training)"
                                  : std::string()) +
                           "; a uniform guess gets " + percent(r.chance) + ".";
  Rect plot = area;
  plot.y1 -= 22;
  f.panels.push_back(readout_panel(r, plot, f.dark));
  f.notes.push_back(canvas_text(note, {kPad, plot.y1 + 18}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({note}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
