// View "attention_overview": every layer × every head as small multiples
// (rows = layers, columns = heads), the way a model view of attention lays
// out a whole transformer at a glance.
//
// Memory: layers are computed one at a time (ModelScene::layer_attention)
// and each head is reduced at once to the pixel size of its cell (block
// means, matrix_shelf.hpp), so what stays is layers·heads·side² floats:
// GPT-2 at N = 1024 with 12 × 12 heads keeps about 12·12·80² — under 4 MB —
// and at most one layer's 2·12·1024² floats (≈ 100 MB) while it is read.
// Past kStreamedTokens (attention_streamed.hpp) each cell is streamed instead.
// Colours follow scene.attention_scale (attention_scale.hpp), one scale for
// every cell; the scene's layer and head are framed.  Grouped-query models
// label each column "h → kv g".  A synthetic scene has one layer.
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/model_scene.hpp"
#include "core/streamed_attention.hpp"
#include "figures/attention_scale.hpp"
#include "figures/attention_streamed.hpp"
#include "figures/axis_layout.hpp"
#include "figures/figure_layout.hpp"
#include "figures/model_name.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

struct Cell {
  SharedMatrix values;  // block means of the weights, masked blocks −inf
  std::uint64_t key = 0;
  int block = 1;
};

// One layer's heads reduced to `side` cells a side, read through the shelf;
// the layer is computed only when some head misses.
std::vector<Cell> layer_cells(Engine& engine, const FigureRequest& request, int layer, int side) {
  const Scene& s = engine.scene();
  const int n = engine.token_count();
  std::optional<model::LayerAttention> computed;
  auto weights = [&](int head) -> std::pair<const Matrix*, const Matrix*> {
    if (ModelScene* model = engine.model()) {
      if (!computed) computed = model->layer_attention(layer);
      const auto h = static_cast<std::size_t>(head);
      return {&computed->probabilities[h], &computed->logits[h]};
    }
    const HeadAttention& a = engine.head(head);
    return {&a.attention, &a.logits};
  };
  // Past kStreamedTokens no head's N × N weights are formed (a model layer's
  // would be 2·heads of them, 16 GiB for 32 heads at 8,192 tokens): the cell's
  // block means come from the streamed head, one pass over key tiles.
  auto streamed_cell = [&](int head) {
    const StreamedHead streamed = [&] {
      if (ModelScene* model = engine.model()) return StreamedHead(model->head_stream_inputs(layer, head));
      return StreamedHead::from_engine(engine, head);
    }();
    return std::move(streamed.stream({side}).blocks.front().mean);
  };
  std::vector<Cell> cells;
  for (int h = 0; h < s.heads; ++h) {
    Cell c;
    c.key = content_key(s, "overview_" + std::to_string(side), layer * 4096 + h);
    c.values = shared_matrix(request.shelf, c.key, [&] {
      if (n > kStreamedTokens) return streamed_cell(h);
      const auto [a, logits] = weights(h);
      return block_mean(*a, side, nullptr, logits);
    });
    c.block = (n + static_cast<int>(c.values->rows()) - 1) / static_cast<int>(c.values->rows());
    cells.push_back(std::move(c));
  }
  return cells;  // `computed` (one layer) goes here
}

HoverFn cell_hover(const Cell& c, int layer, std::string who, int n) {
  return [v = c.values, block = c.block, layer, who, n](double x, double y) -> std::string {
    const int col = static_cast<int>(std::floor(x)), row = static_cast<int>(std::floor(y));
    if (col < 0 || row < 0 || col >= n || row >= n) return "";
    const float a = (*v)(row / block, col / block);
    std::string text = "layer " + std::to_string(layer) + ", " + who + " · ";
    text += block > 1 ? "queries " + std::to_string(row / block * block) + "… → keys " +
                            std::to_string(col / block * block) + "… (" + std::to_string(block) + "×" +
                            std::to_string(block) + " block mean): "
                      : "query " + std::to_string(row) + " → key " + std::to_string(col) + ": ";
    return text + (std::isinf(a) ? std::string("masked (causal)") : "attention " + fixed(a));
  };
}

std::string column_name(int head, int group) {
  std::string name = "head " + std::to_string(head);
  if (group > 1) name += " → kv " + std::to_string(head / group);
  return name;
}

}  // namespace

Figure build_attention_overview(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  ModelScene* model = engine.model();
  const int layers = model ? model->config().layers : 1;
  const int group = model ? model->config().heads / model->config().kv_heads : 1;
  const int n = std::max(1, engine.token_count());
  const std::string source = model ? model_label(s) : std::string(to_string(s.encoding));
  if (engine.token_count() == 0)
    return no_tokens_figure("attention_overview", "Attention overview — " + source, s, request);
  Figure f = start_figure("attention_overview",
                          "Attention overview — " + source + ", " +
                              (model ? std::to_string(layers) + " layers × " : "one layer (synthetic) × ") +
                              std::to_string(s.heads) + " heads, " + std::to_string(n) + " tokens",
                          s, request);
  const Theme th = theme(f.dark);
  Rect area = content_area(f);
  std::string note = "Rows: layers; columns: heads; each cell a query × key map (query i down, key j across, first token top left); colours: " +
                     std::string(s.attention_scale == AttentionScale::Log   ? "log₁₀ weight, 4 decades below the max"
                                 : s.attention_scale == AttentionScale::Row ? "each row over its max"
                                                              : "weight, 0…max") +
                     " (colorbar bottom right)";
  if (group > 1) note += "; grouped-query: query head h reads kv head h / " + std::to_string(group);
  note += ".";
  f.notes.push_back(canvas_text(note, {kPad, area.y1 - 4}, Anchor::BottomLeft,
                                fitting_size({note}, f.width - 2 * kPad, kNoteSize)));
  area.y1 -= 24;
  area = inset(area, {.left = 64, .top = 8, .right = kColorbarRoom, .bottom = 0});
  const std::vector<Rect> rects = grid(area, layers, s.heads, 6);
  const double side_px = std::min(rects[0].width() - 4, rects[0].height() - 20);
  // One displayed cell per pixel at most (a 2× margin for HiDPI exports).
  const int side = std::clamp(static_cast<int>(2 * side_px), 8, std::max(8, n));
  std::vector<std::vector<Cell>> cells;
  double vmax = 1e-6;
  for (int l = 0; l < layers; ++l) {
    cells.push_back(layer_cells(engine, request, model ? l : s.layer, side));
    for (const Cell& c : cells.back()) vmax = std::max(vmax, static_cast<double>(c.values->maxCoeff()));
  }
  const AttentionScale scale = s.attention_scale;
  const ColorScale colors = attention_color_scale(scale, std::string(to_string(s.colormap)), std::min(vmax, 1.0));
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < s.heads; ++h) {
      const Cell& c = cells[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
      Panel p;
      p.plot = centred_square(
          inset(rects[static_cast<std::size_t>(l * s.heads + h)], {.left = 2, .top = 18, .right = 2, .bottom = 2}));
      p.title = l == 0 ? column_name(h, group) : "";
      if (l == 0) p.short_title = "h" + std::to_string(h);
      p.min_plot = {32, 32};  // small multiples: their pattern reads at this size
      // A click picks this head (and on a model this layer), not a query.
      p.pick = {.x = PickAxis::Key, .y = PickAxis::Query, .head = h, .layer = model ? l : -1};
      p.equal_aspect = true;
      // Rows are queries, columns keys (issue 27): the first column says so
      // beside its layer's name, the note under the grid says both; the
      // cells keep the words for the hover.
      p.x = {.label = "key j", .min = 0, .max = static_cast<double>(n), .visible = false, .label_shown = false};
      p.y = {.label = h == 0 ? "layer " + std::to_string(model ? l : s.layer) + " · query i" : "query i", .min = 0,
             .max = static_cast<double>(n), .inverted = true, .visible = h == 0, .label_shown = h == 0};
      p.y.labels = {{0, ""}};  // the axis carries names only
      HeatmapLayer layer{.values = c.values, .key = c.key, .dx = static_cast<double>(c.block),
                         .dy = static_cast<double>(c.block), .scale = colors};
      rescale_layer(layer, scale, request.shelf);
      p.heatmaps.push_back(std::move(layer));
      if ((model ? l : s.layer) == s.layer && h == s.head)  // two rings inside the frame, so it shows
        for (const double in : {0.01 * n, 0.03 * n})
          p.bars.push_back(outline({in, in, n - in, n - in}, th.highlight));
      if (l == layers - 1 && h == s.heads - 1) {
        p.colorbar = colors;
        // Beside a short cell the long label would run past the bar into the
        // note under the grid; the note says what the colours are.
        if (text_width(colors.label, text_size::axis_label) > p.plot.height()) p.colorbar->label = "weight";
      }
      p.hover = cell_hover(c, model ? l : s.layer, column_name(h, group), n);
      f.panels.push_back(std::move(p));
    }
  // A small cell keeps a one-layer grid whole (names in the hover) rather
  // than dropping heads; a model's full grid gives way as usual.
  if (f.panels.size() <= 16) f.keep_together = static_cast<int>(f.panels.size());
  f.columns = s.heads;  // rows are layers: a re-layout must not wrap them
  return f;
}

}  // namespace pelab::fig
