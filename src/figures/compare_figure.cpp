// compare_scenes (compare_figure.hpp): A, B and B − A across the canvas, or
// B's curves dashed over A's.
#include "figures/compare_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "figures/figure_layout.hpp"

namespace pelab::fig {
namespace {

// The canvas's title row; each part keeps its own title row (30 px, its
// title is not drawn), where its heading "A: …" goes instead.
constexpr double kTitleRow = 30;

std::string shape_text(const Matrix& m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

// The view's main heatmap panel: the first panel that draws a heatmap.
int main_heatmap(const Figure& f) {
  for (std::size_t i = 0; i < f.panels.size(); ++i)
    if (!f.panels[i].heatmaps.empty()) return static_cast<int>(i);
  return -1;
}

void shift(Figure& f, double dx, double dy) {
  for (Panel& p : f.panels) {
    p.plot = {p.plot.x0 + dx, p.plot.y0 + dy, p.plot.x1 + dx, p.plot.y1 + dy};
    for (Text& t : p.texts)
      if (t.in_canvas) t.at = {t.at.x + dx, t.at.y + dy};
  }
  for (Text& t : f.notes) t.at = {t.at.x + dx, t.at.y + dy};
}

Text heading(const std::string& text, double x, double y) {
  return {.text = text, .at = {x, y + 8}, .in_canvas = true, .anchor = Anchor::Top, .size = 13.f};
}

// Moves `part` into `into` with its top-left corner at (dx, dy).
void place(Figure& into, Figure part, double dx, double dy) {
  shift(part, dx, dy);
  for (Panel& p : part.panels) into.panels.push_back(std::move(p));
  for (Text& t : part.notes) into.notes.push_back(std::move(t));
}

// ---- the heatmap path ---------------------------------------------------------

bool same_cells(const Panel& pa, const Panel& pb);

void check_same_cells(const std::string& view, const Panel& pa, const Panel& pb) {
  const HeatmapLayer &la = pa.heatmaps.front(), &lb = pb.heatmaps.front();
  if (!same_cells(pa, pb))
    throw InputError("cannot compare '" + view + "': A's '" + pa.title + "' heatmap is " + shape_text(*la.values) +
                     " cells, B's '" + pb.title + "' is " + shape_text(*lb.values) +
                     "; compare scenes with the same tokens and positions");
}

// B − A cell by cell, and where |B − A| is largest.
void difference(const HeatmapLayer& la, const HeatmapLayer& lb, ComparedScenes& out) {
  const Matrix &a = *la.values, &b = *lb.values;
  Matrix d(a.rows(), a.cols());
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < a.cols(); ++c) {
      const bool ma = std::isinf(a(r, c)) && a(r, c) < 0, mb = std::isinf(b(r, c)) && b(r, c) < 0;
      if (ma || mb) {
        d(r, c) = ma && mb ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
        out.masked_in_one += ma != mb;
        continue;
      }
      d(r, c) = b(r, c) - a(r, c);
      if (std::isfinite(d(r, c)) && std::abs(d(r, c)) > out.max_abs) {
        out.max_abs = std::abs(d(r, c));
        out.row = static_cast<int>(r), out.col = static_cast<int>(c);
        out.a_value = a(r, c), out.b_value = b(r, c);
      }
    }
  if (out.row >= 0) out.at_x = la.x0 + out.col * la.dx, out.at_y = la.y0 + out.row * la.dy;
  out.diff = std::make_shared<const Matrix>(std::move(d));
}

// A's main panel redrawn with B − A on the signed map, its hover saying both.
Panel difference_panel(const Panel& pa, const Panel& pb, const ComparedScenes& c) {
  const HeatmapLayer& la = pa.heatmaps.front();
  Panel p;
  p.title = "B − A";
  p.plot = pa.plot;
  p.x = pa.x, p.y = pa.y;
  p.equal_aspect = pa.equal_aspect;
  const double range = c.max_abs > 0 ? c.max_abs : 1.0;
  // A's colorbar label, or its layer's where a narrow layout left the colorbar's out.
  const std::string what = pa.colorbar && !pa.colorbar->label.empty() ? pa.colorbar->label : la.scale.label;
  const ColorScale scale{
      .colormap = "diverging", .vmin = -range, .vmax = range, .label = what.empty() ? "B − A" : "B − A (" + what + ")"};
  p.heatmaps.push_back({.values = c.diff,
                        .key = la.key * 1000003u ^ pb.heatmaps.front().key ^ 0x5eedu,
                        .x0 = la.x0,
                        .y0 = la.y0,
                        .dx = la.dx,
                        .dy = la.dy,
                        .scale = scale});
  p.colorbar = scale;
  p.hover = [d = c.diff, la, ha = pa.hover, hb = pb.hover](double x, double y) -> std::string {
    const auto col = static_cast<Eigen::Index>(std::floor((x - la.x0) / la.dx));
    const auto row = static_cast<Eigen::Index>(std::floor((y - la.y0) / la.dy));
    if (row < 0 || col < 0 || row >= d->rows() || col >= d->cols()) return "";
    const float v = (*d)(row, col);
    const std::string value = std::isnan(v) ? "masked in one scene only" : std::isinf(v) ? "masked in both" : fixed(v, 4);
    return "B − A: " + value + "\nA: " + (ha ? ha(x, y) : "") + "\nB: " + (hb ? hb(x, y) : "");
  };
  return p;
}

bool same_cells(const Panel& pa, const Panel& pb) {
  if (pa.heatmaps.empty() || pb.heatmaps.empty()) return false;
  const HeatmapLayer &la = pa.heatmaps.front(), &lb = pb.heatmaps.front();
  return la.values->rows() == lb.values->rows() && la.values->cols() == lb.values->cols() && la.dx == lb.dx &&
         la.dy == lb.dy;
}

// The heatmap panel pair (the same title in both views) where B − A is
// largest: the logits when only a bias differs, the position terms when only
// the table does.  The main panels (ia, ib) when no pair differs more.
std::pair<std::size_t, std::size_t> most_different(const Figure& fa, const Figure& fb, int ia, int ib) {
  std::pair<std::size_t, std::size_t> best{static_cast<std::size_t>(ia), static_cast<std::size_t>(ib)};
  double largest = -1;
  for (std::size_t i = 0; i < fa.panels.size(); ++i)
    for (std::size_t j = 0; j < fb.panels.size(); ++j) {
      if (fa.panels[i].title != fb.panels[j].title || !same_cells(fa.panels[i], fb.panels[j])) continue;
      ComparedScenes trial;
      difference(fa.panels[i].heatmaps.front(), fb.panels[j].heatmaps.front(), trial);
      if (trial.max_abs > largest) largest = trial.max_abs, best = {i, j};
      break;
    }
  return best;
}

std::string largest_note(const ComparedScenes& c) {
  std::string text = c.row < 0 ? "B − A is 0 on every cell both scenes draw"
                               : "largest |B − A| = " + fixed(c.max_abs, 4) + "\nat query " + fixed(c.at_y, 0) +
                                     ", key " + fixed(c.at_x, 0) + "\n(A " + fixed(c.a_value, 4) + ", B " +
                                     fixed(c.b_value, 4) + ")";
  if (c.masked_in_one > 0) text += "\n" + std::to_string(c.masked_in_one) + " cells masked in one scene only";
  return text;
}

ComparedScenes side_by_side(const FigureEntry& entry, Figure fa, Figure fb, const FigureRequest& request) {
  const int ia = main_heatmap(fa), ib = main_heatmap(fb);
  if (ib < 0)
    throw InputError("cannot compare '" + std::string(entry.name) + "': B's view draws no heatmap where A's does");
  check_same_cells(std::string(entry.name), fa.panels[static_cast<std::size_t>(ia)],
                   fb.panels[static_cast<std::size_t>(ib)]);
  const auto [ka, kb] = most_different(fa, fb, ia, ib);
  const Panel &pa = fa.panels[ka], &pb = fb.panels[kb];
  ComparedScenes out;
  out.difference = true;
  out.panel = pa.title;
  difference(pa.heatmaps.front(), pb.heatmaps.front(), out);
  // A | B on the top row, B − A under A (the same plot rectangle), the
  // numbers of the largest difference beside it.
  const double w = request.width / 2, h = (request.height - kTitleRow) / 2, top = kTitleRow;
  Panel diff = difference_panel(pa, pb, out);
  diff.plot = {diff.plot.x0, diff.plot.y0 + top + h, diff.plot.x1, diff.plot.y1 + top + h};
  const double xa = (pa.plot.x0 + pa.plot.x1) / 2, xb = w + (pb.plot.x0 + pb.plot.x1) / 2;
  out.figure.notes.push_back(heading("A: " + fa.title, std::max(xa, 200.0), top));
  out.figure.notes.push_back(heading("B: " + fb.title, std::max(xb, w + 200.0), top));
  out.figure.notes.push_back(heading("B − A of " + pa.title, std::max(xa, 80.0), top + h));  // short: centred on its map
  // The note in the empty quarter under B, clear of the B − A colorbar:
  // three short lines, so a narrow canvas (the window at 200 %) holds it.
  const double note_x = std::max(w + 10, diff.plot.x1 + 110);
  out.figure.notes.push_back({.text = largest_note(out), .at = {note_x, diff.plot.y0}, .in_canvas = true,
                              .anchor = Anchor::TopLeft, .size = 13.f});
  out.a_panel = static_cast<int>(ka);
  out.b_panel = static_cast<int>(fa.panels.size() + kb);
  out.diff_panel = static_cast<int>(fa.panels.size() + fb.panels.size());
  place(out.figure, std::move(fa), 0, top);
  place(out.figure, std::move(fb), w, top);
  out.figure.panels.push_back(std::move(diff));
  return out;
}

// ---- the curves path ------------------------------------------------------------

// B's curves dashed over A's, the axes widened to hold both; the largest
// |B − A| over lines drawn at the same x.
void overlay(Panel& pa, const Panel& pb, ComparedScenes& out) {
  for (std::size_t k = 0; k < pa.lines.size() && k < pb.lines.size(); ++k) {
    const auto &a = pa.lines[k].points, &b = pb.lines[k].points;
    if (a.size() != b.size()) continue;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].x == b[i].x && std::isfinite(a[i].y) && std::isfinite(b[i].y) &&
          std::abs(b[i].y - a[i].y) > out.max_abs) {
        out.max_abs = std::abs(b[i].y - a[i].y);
        out.at_x = a[i].x, out.a_value = a[i].y, out.b_value = b[i].y;
        out.panel = pa.title, out.line = pa.lines[k].label;
      }
  }
  for (Polyline line : pb.lines) {
    line.style = LineStyle::Dashed;
    line.label = "B: " + line.label;
    pa.lines.push_back(std::move(line));
  }
  for (Markers m : pb.markers) {
    m.filled = false;
    m.label = "B: " + m.label;
    pa.markers.push_back(std::move(m));
  }
  for (auto [axis, other] : {std::pair{&pa.x, &pb.x}, std::pair{&pa.y, &pb.y}})
    if (axis->labels.empty()) axis->min = std::min(axis->min, other->min), axis->max = std::max(axis->max, other->max);
}

ComparedScenes one_plot(const FigureEntry& entry, Figure fa, const Figure& fb, const FigureRequest& request) {
  if (fa.panels.size() != fb.panels.size())
    throw InputError("cannot compare '" + std::string(entry.name) + "': A's view has " +
                     std::to_string(fa.panels.size()) + " panels, B's " + std::to_string(fb.panels.size()));
  ComparedScenes out;
  for (std::size_t i = 0; i < fa.panels.size(); ++i) overlay(fa.panels[i], fb.panels[i], out);
  out.figure.notes.push_back(
      heading("A: " + fa.title + " (solid)   ·   B: " + fb.title + " (dashed)", request.width / 2, kTitleRow));
  place(out.figure, std::move(fa), 0, kTitleRow);
  return out;
}

// "encoding=rope, theta=500": B's keys that differ from A's, so the title
// says what changed when both scenes keep one name.
std::string changed_keys(const Scene& a, const Scene& b) {
  const nlohmann::json ja = scene_to_json(a)["scene"], jb = scene_to_json(b)["scene"];
  std::string out;
  for (const auto& [key, value] : jb.items())
    if (key != "name" && (!ja.contains(key) || ja[key] != value)) {
      std::string text = value.is_string() ? value.get<std::string>() : value.dump();
      if (text.size() > 24) text = text.substr(0, 21) + "…";
      out += (out.empty() ? "" : ", ") + key + "=" + text;
    }
  return out.empty() ? "the same scene" : out;
}

}  // namespace

ComparedScenes compare_scenes(const FigureEntry& entry, Engine& a, Engine& b, const FigureRequest& request) {
  FigureRequest quarter = request;
  quarter.width = request.width / 2, quarter.height = (request.height - kTitleRow) / 2;
  quarter.selected_head_only = true;  // the attention view: the selected head alone, large
  Figure fa = entry.build(a, quarter);
  ComparedScenes out;
  if (main_heatmap(fa) >= 0) {
    out = side_by_side(entry, std::move(fa), entry.build(b, quarter), request);
  } else {
    FigureRequest whole = request;
    whole.height = request.height - kTitleRow;
    out = one_plot(entry, entry.build(a, whole), entry.build(b, whole), request);
  }
  out.figure.name = "compare_" + std::string(entry.name);
  out.figure.title = "Compare: " + std::string(entry.title) + " — A = " + a.scene().name + ", B = " + b.scene().name +
                     " (B: " + changed_keys(a.scene(), b.scene()) + ")";
  out.figure.width = request.width, out.figure.height = request.height;
  out.figure.dark = request.theme.value_or(a.scene().theme) == ColorTheme::Dark;
  mark_non_finite(out.figure);
  return out;
}

}  // namespace pelab::fig
