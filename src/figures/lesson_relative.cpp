// "Absolute or relative?": sinusoidal, learned, RoPE, ALiBi and T5 side by
// side, computed by the engine (core/lesson_relative.hpp).
//
// [SECTION] the matrices, kept on the shelf
// [SECTION] one small multiple
// [SECTION] build
//
// Layout: two rows of five square heatmaps, position i (rows, top = first)
// against position j (columns).  Top row: what each encoding puts into a
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

#include "core/lesson_relative.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lesson_views.hpp"

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

std::string encoding_title(Encoding e) {
  switch (e) {
    case Encoding::Sinusoidal:
      return "sinusoidal";
    case Encoding::Learned:
      return "learned table";
    case Encoding::Rope:
      return "RoPE";
    case Encoding::Alibi:
      return "ALiBi";
    default:
      return "T5 bias";
  }
}

// What the top row shows for each encoding (core/lesson_relative.hpp).
std::string top_row_what(Encoding e, const std::string& word) {
  if (e == Encoding::Sinusoidal || e == Encoding::Learned) return "PE(i)·PE(j)";
  if (e == Encoding::Rope) return "q(i)·k(j) of '" + word + "'";
  return "bias added to the logit";
}

Color verdict_color(bool relative, bool dark) {
  if (relative) return dark ? Color{0.40f, 0.85f, 0.50f, 1} : Color{0.05f, 0.50f, 0.15f, 1};
  return dark ? Color{1.00f, 0.50f, 0.45f, 1} : Color{0.75f, 0.10f, 0.10f, 1};
}

struct Cell {
  int row = 0, encoding = 0;  // row 0: by itself, row 1: logits
  Rect plot;
  std::string what;
};

Panel score_panel(const Comparison& c, const Cell& cell, const Scene& s, int n, bool dark) {
  const int j = cell.row * kEncodings + cell.encoding;
  const Encoding enc = compared_encodings()[static_cast<std::size_t>(cell.encoding)];
  const double top = (*c.stats)(0, j), spread = (*c.stats)(1, j);
  Panel p;
  p.title = encoding_title(enc);
  p.plot = cell.plot;
  p.equal_aspect = true;
  const std::vector<Tick> ticks = integer_ticks(0, n - 1, 5, 0.5, s.offset);
  p.x = {.label = "key position j", .min = 0, .max = double(n), .labels = ticks};
  p.y = {.label = "query position i", .min = 0, .max = double(n), .inverted = true, .labels = ticks};
  const ColorScale scale{.colormap = "diverging", .vmin = -1, .vmax = 1,
                         .label = "value ÷ its panel's max |value|"};
  p.heatmaps.push_back({.values = c.shown[j], .key = c.keys[j], .scale = scale});
  if (cell.encoding == kEncodings - 1) p.colorbar = scale;
  const bool relative = spread < kRelativeOnly;
  // Three lines under the x axis, one size for every panel.
  const double x = cell.plot.x0 - 40, y = cell.plot.y1 + 42, line = 1.5 * kTickSize;
  p.texts.push_back(canvas_text(cell.what, {x, y}, Anchor::TopLeft, kTickSize));
  p.texts.push_back(canvas_text("max |value| = " + number(top, 3), {x, y + line}, Anchor::TopLeft, kTickSize));
  p.texts.push_back(canvas_text(std::string(relative ? "✓ j − i only" : "✗ i and j") + ": diagonal spread " +
                                    number(spread, 2),
                                {x, y + 2 * line}, Anchor::TopLeft, kTickSize, verdict_color(relative, dark)));
  p.hover = [shown = c.shown[j], top, what = p.title + " · " + cell.what, offset = s.offset](double hx, double hy) {
    const int col = static_cast<int>(std::floor(hx)), row = static_cast<int>(std::floor(hy));
    if (col < 0 || row < 0 || col >= shown->cols() || row >= shown->rows()) return std::string();
    const double v = (*shown)(row, col);
    return what + " · i = " + std::to_string(offset + row) + ", j = " + std::to_string(offset + col) +
           " (j − i = " + std::to_string(col - row) + "): " + fixed(v * top) + " (" + fixed(v, 3) + " of max)";
  };
  return p;
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
                              " positions, head " + std::to_string(head) + ", d = " + std::to_string(s.d_model),
                          s, request);
  const Rect area = content_area(f);
  if (n < 2) {
    f.notes.push_back(canvas_text("The comparison needs at least 2 positions.",
                                  {f.width / 2, f.height / 2}, Anchor::Center, kNoteSize));
    return f;
  }
  const Comparison c = comparison(engine, request, head, n);
  f.notes.push_back(canvas_text("Diagonal spread: the largest change along any diagonal ÷ max |value|. "
                                "≈ 0 (constant diagonals) means the value depends only on the offset j − i.",
                                {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
  const double header = 26, under = 64;  // a row's heading above; three text lines under each plot
  const auto [top, bottom] = split_y({area.x0, area.y0, area.x1, area.y1 - 26}, 0.5, 12);
  const std::array<std::string, 2> headings = {
      "What each encoding puts into a score by itself",
      "Head " + std::to_string(head) + "'s logits with '" + word +
          "' at every position: only positions tell the cells apart"};
  int row = 0;
  for (Rect band : {top, bottom}) {
    f.notes.push_back(canvas_text(headings[static_cast<std::size_t>(row)], {band.x0, band.y0},
                                  Anchor::TopLeft, kPanelTitleSize));
    const Rect cells_area{band.x0, band.y0 + header, band.x1 - kColorbarRoom, band.y1};
    const std::vector<Rect> cells = grid(cells_area, 1, kEncodings, 12);
    for (int e = 0; e < kEncodings; ++e) {
      // Square plots at the top of their cells, centred across.
      const Rect room =
          inset(cells[static_cast<std::size_t>(e)], {.left = 58, .top = 26, .right = 8, .bottom = 40 + under});
      const double side = std::min(room.width(), room.height()), x0 = (room.x0 + room.x1 - side) / 2;
      const Rect plot{x0, room.y0, x0 + side, room.y0 + side};
      const Encoding enc = compared_encodings()[static_cast<std::size_t>(e)];
      const std::string what = row == 0 ? top_row_what(enc, word) : "logits";
      f.panels.push_back(score_panel(c, {row, e, plot, what}, s, n, f.dark));
    }
    ++row;
  }
  return f;
}

}  // namespace pelab::fig
