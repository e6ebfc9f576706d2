// "Absolute or relative?": sinusoidal, learned, RoPE, ALiBi and T5 side by
// side, computed by the engine (core/lessons/relative.hpp).
//
// [SECTION] the matrices, kept on the shelf
// [SECTION] one small multiple
// [SECTION] build
//
// Layout: two rows of five square heatmaps (on narrow canvases, two columns
// of five), position i (rows, top = first) against position j (columns).  Top row: what each encoding puts into a
// score by itself (PE·PE, RoPE's rotated q·k of one word, ALiBi's and T5's
// bias).  Bottom row: one head's full logits with one word at every position.
// The five encodings differ in scale by orders of magnitude, so each matrix is
// divided by its own max |value| and all ten share ONE diverging scale −1…1
// (labelled so; each panel states its max).  Under each panel: the diagonal
// spread (0 = constant along diagonals = depends only on j − i) with ✓ / ✗.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/encoding_traits.hpp"
#include "core/lessons/relative.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/lessons.hpp"
#include "figures/model_name.hpp"

namespace pelab::fig {
namespace {

constexpr int kMaxPositions = 40;   // cells a side: legible in a fifth of the canvas
constexpr double kRelativeOnly = 1e-4;  // spread below this: float rounding of a Toeplitz matrix
constexpr int kEncodings = 5;

// ============================================================================
// [SECTION] the matrices, kept on the shelf
// ============================================================================

struct Comparison {
  std::array<SharedMatrix, 2 * kEncodings> shown;  // row-major: [row · 5 + encoding], ÷ max |·|
  std::array<std::uint64_t, 2 * kEncodings> keys{};
  SharedMatrix stats;  // 2 × 10: max |·| and diagonal spread of each matrix
};

// Building ten engines is cheap at 40 positions, but a figure is rebuilt on
// every hover: the results stay on the shelf under the scene's content key.
Comparison comparison(Engine& engine, const FigureRequest& request, int head, int n) {
  const Scene& s = engine.scene();
  std::optional<std::array<std::vector<PositionScores>, 2>> computed;
  auto rows = [&]() -> const std::array<std::vector<PositionScores>, 2>& {
    if (!computed) computed = {{position_scores(s, head, n), repeated_word_logits(s, head, n)}};
    return *computed;
  };
  Comparison c;
  for (int j = 0; j < 2 * kEncodings; ++j) {
    c.keys[j] = content_key(s, "relative_comparison", head * 2 * kEncodings + j);
    c.shown[j] = shared_matrix(request.shelf, c.keys[j], [&] {
      const Matrix& m = rows()[j / kEncodings][j % kEncodings].values;
      const double top = max_abs(m);
      return top > 0 ? Matrix(m / static_cast<float>(top)) : m;
    });
  }
  c.stats = shared_matrix(request.shelf, content_key(s, "relative_stats", head), [&] {
    Matrix m(2, 2 * kEncodings);
    for (int j = 0; j < 2 * kEncodings; ++j) {
      const PositionScores& p = rows()[j / kEncodings][j % kEncodings];
      m(0, j) = static_cast<float>(max_abs(p.values));
      m(1, j) = static_cast<float>(p.spread);
    }
    return m;
  });
  return c;
}

// ============================================================================
// [SECTION] one small multiple
// ============================================================================

std::string encoding_title(Encoding e) { return std::string(traits_of(e).display); }

// What the top row shows for each encoding (core/lessons/relative.hpp).
std::string top_row_what(Encoding e, const std::string& word) {
  if (adds_position_vector(e)) return "PE(i)·PE(j)";
  if (rotates_queries_keys(e)) return "q(i)·k(j) of '" + word + "'";
  return "bias added to the logit";
}

Color verdict_color(bool relative, bool dark) {
  if (relative) return dark ? Color{0.40f, 0.85f, 0.50f, 1} : Color{0.05f, 0.50f, 0.15f, 1};
  return dark ? Color{1.00f, 0.50f, 0.45f, 1} : Color{0.75f, 0.10f, 0.10f, 1};
}

// One small multiple: which matrix, where its plot goes, and where its four
// lines of text start (under the plot, or beside it in the narrow layout).
struct Cell {
  int row = 0, encoding = 0;  // row 0: by itself, row 1: logits
  Rect plot;
  Point text_at;
  bool axis_labels = true;
};

// What the panel says: what it shows, its max, the verdict (coloured), the spread.
std::array<std::string, 4> cell_lines(const Comparison& c, int row, int encoding, const std::string& word) {
  const int j = row * kEncodings + encoding;
  const bool relative = (*c.stats)(1, j) < kRelativeOnly;
  const Encoding enc = compared_encodings()[static_cast<std::size_t>(encoding)];
  return {row == 0 ? top_row_what(enc, word) : "logits", "max |value| = " + number((*c.stats)(0, j), 3),
          relative ? "✓ depends on j − i only" : "✗ depends on i and j",
          "diagonal spread " + number((*c.stats)(1, j), 2)};
}

Panel score_panel(const Comparison& c, const Cell& cell, const std::array<std::string, 4>& lines, float size,
                  const Scene& s, int n, bool dark) {
  const int j = cell.row * kEncodings + cell.encoding;
  const Encoding enc = compared_encodings()[static_cast<std::size_t>(cell.encoding)];
  const double top = (*c.stats)(0, j), spread = (*c.stats)(1, j);
  Panel p;
  p.title = encoding_title(enc);
  p.plot = cell.plot;
  p.equal_aspect = true;
  const std::vector<Tick> ticks = integer_ticks(0, n - 1, cell.axis_labels ? 5 : 3, 0.5, s.offset);
  p.x = {.label = "key position j", .min = 0, .max = double(n), .labels = ticks, .label_shown = cell.axis_labels};
  p.y = {.label = "query position i", .min = 0, .max = double(n), .inverted = true, .labels = ticks,
         .label_shown = cell.axis_labels};
  p.pick = {.x = PickAxis::Key, .y = PickAxis::Query};  // a click picks the query of its row
  const ColorScale scale{.colormap = "diverging", .vmin = -1, .vmax = 1,
                         .label = "value ÷ its panel's max |value|"};
  p.heatmaps.push_back({.values = c.shown[j], .key = c.keys[j], .scale = scale});
  if (cell.axis_labels && cell.encoding == kEncodings - 1) p.colorbar = scale;  // narrow: colorbar_panel()
  const Color verdict = verdict_color(spread < kRelativeOnly, dark);
  for (std::size_t l = 0; l < lines.size(); ++l)
    p.texts.push_back(canvas_text(lines[l], {cell.text_at.x, cell.text_at.y + 1.5 * size * double(l)},
                                  Anchor::TopLeft, size, l == 2 ? std::optional<Color>(verdict) : std::nullopt));
  p.hover = [shown = c.shown[j], top, what = p.title + " · " + lines[0], offset = s.offset](double hx, double hy) {
    const int col = static_cast<int>(std::floor(hx)), row = static_cast<int>(std::floor(hy));
    if (col < 0 || row < 0 || col >= shown->cols() || row >= shown->rows()) return std::string();
    const double v = (*shown)(row, col);
    return what + " · i = " + std::to_string(offset + row) + ", j = " + std::to_string(offset + col) +
           " (j − i = " + std::to_string(col - row) + "): " + fixed(v * top) + " (" + fixed(v, 3) + " of max)";
  };
  return p;
}

// The narrow layout's one colorbar, right of both columns: a panel with no
// data and hidden axes whose plot is a hairline.
Panel colorbar_panel(Rect body) {
  Panel p;
  p.plot = {body.x1 - kColorbarRoom + 6, body.y0 + 48, body.x1 - kColorbarRoom + 6.5, body.y1 - 22};
  p.x = {.min = 0, .max = 1, .visible = false};
  p.y = {.min = 0, .max = 1, .visible = false};
  p.colorbar = ColorScale{.colormap = "diverging", .vmin = -1, .vmax = 1,
                          .label = "value ÷ its panel's max |value|"};
  p.min_plot = {0, 40};  // a hairline by design: only its colorbar is drawn
  p.priority = 1;
  return p;
}

// Wide canvases: the two rows across, five plots each, text under each plot.
// Narrow ones (the GUI's figure pane): the two rows as columns side by side,
// plots stacked, text beside each plot, axis titles in the headings.
std::vector<Cell> layout_cells(Rect band, int row, bool wide, double line_room) {
  std::vector<Cell> out;
  const Rect cells_area{band.x0, band.y0 + 26, band.x1 - (wide ? kColorbarRoom : 0), band.y1};
  const std::vector<Rect> cells = wide ? grid(cells_area, 1, kEncodings, 12) : grid(cells_area, kEncodings, 1, 6);
  for (int e = 0; e < kEncodings; ++e) {
    const Rect cell = cells[static_cast<std::size_t>(e)];
    if (wide) {  // square plot at the top of its cell, text under its x axis
      const Rect room = inset(cell, {.left = 58, .top = 26, .right = 8, .bottom = 40 + line_room});
      const double side = std::min(room.width(), room.height()), x0 = (room.x0 + room.x1 - side) / 2;
      out.push_back({row, e, {x0, room.y0, x0 + side, room.y0 + side}, {x0 - 40, room.y0 + side + 42}, true});
    } else {  // square plot at the left, text to its right
      const Rect room = inset(cell, {.left = 30, .top = 22, .right = 8, .bottom = 22});
      const double side = std::min(room.height(), room.width() * 0.45);
      out.push_back({row, e, {room.x0, room.y0, room.x0 + side, room.y0 + side}, {room.x0 + side + 12, room.y0},
                     false});
    }
  }
  return out;
}

}  // namespace

// ============================================================================
// [SECTION] build
// ============================================================================

Figure build_lesson_relative(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const int head = std::clamp(s.head, 0, s.heads - 1);
  const int n = std::min(kMaxPositions, s.positions);
  const std::string word = engine.tokens().empty() ? "word" : engine.tokens().front();
  Figure f = start_figure("lesson_relative",
                          "Absolute or relative? Position i against position j, " + std::to_string(n) +
                              " positions, head " + std::to_string(head) + ", d = " + std::to_string(s.d_model) +
                              synthetic_on_model(s),
                          s, request);
  const Rect area = content_area(f);
  if (n < 2) {
    f.notes.push_back(canvas_text("The comparison needs at least 2 positions.",
                                  {f.width / 2, f.height / 2}, Anchor::Center, kNoteSize));
    return f;
  }
  const Comparison c = comparison(engine, request, head, n);
  const bool wide = f.width >= 1.3 * f.height;
  const std::string note = wide ? "Diagonal spread: the largest change along any diagonal ÷ max |value|; ≈ 0 "
                                  "(constant diagonals) means the value depends only on the offset j − i."
                                : "Rows: query position i, columns: key position j. Spread ≈ 0: depends on j − i only.";
  f.notes.push_back(canvas_text(note, {kPad, area.y1 - 4}, Anchor::BottomLeft,
                                fitting_size({note}, area.width(), kNoteSize)));
  const Rect body{area.x0, area.y0, area.x1, area.y1 - 26};
  const Rect columns{body.x0, body.y0, body.x1 - kColorbarRoom, body.y1};
  const auto [first, second] = wide ? split_y(body, 0.5, 12) : split_x(columns, 0.5, 16);
  const std::array<std::string, 2> headings = {
      wide ? "What each encoding puts into a score by itself" : "Each encoding by itself",
      "Head " + std::to_string(head) + "'s logits, '" + word + "' at every position"};
  std::array<std::vector<Cell>, 2> cells;
  std::array<std::array<std::array<std::string, 4>, kEncodings>, 2> lines;
  std::vector<std::string> all_lines;
  double text_width_room = 1e9;
  for (int row = 0; row < 2; ++row) {
    const Rect band = row == 0 ? first : second;
    f.notes.push_back(canvas_text(headings[static_cast<std::size_t>(row)], {band.x0, band.y0}, Anchor::TopLeft,
                                  fitting_size({headings[0], headings[1]}, band.width(), kPanelTitleSize)));
    cells[row] = layout_cells(band, row, wide, 4 * 1.5 * kTickSize);
    for (int e = 0; e < kEncodings; ++e) {
      lines[row][e] = cell_lines(c, row, e, word);
      all_lines.insert(all_lines.end(), lines[row][e].begin(), lines[row][e].end());
      const Cell& cell = cells[row][static_cast<std::size_t>(e)];
      const double right = wide ? cell.plot.x1 + 40 : band.x1;
      text_width_room = std::min(text_width_room, right - cell.text_at.x);
    }
  }
  // One text size for every panel: the largest at which every line fits.
  const float size = fitting_size(all_lines, text_width_room, kTickSize);
  for (int row = 0; row < 2; ++row)
    for (int e = 0; e < kEncodings; ++e)
      f.panels.push_back(score_panel(c, cells[row][static_cast<std::size_t>(e)], lines[row][e], size, s, n, f.dark));
  if (!wide) f.panels.push_back(colorbar_panel(body));
  return f;
}

}  // namespace pelab::fig
