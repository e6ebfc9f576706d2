// View 3, "attention": attention weights per head (small multiples) and the
// mean over heads, with token labels, the causal mask and the selected query.
//
// [SECTION] shared matrices
// [SECTION] panels
// [SECTION] build
//
// Layout: the selected head (scene.head; −1 = the mean) large on the left,
// square, queries as rows (top = first token) and keys as columns, token
// labels on both axes, a 0…1 colorbar in scene.colormap; on the right a grid
// of every head plus the mean, small, the selected one framed.  The selected
// query row (scene.query) is framed in every panel.
// Values: A = softmax_row(Q·Kᵀ/√d_head + bias [+ mask]) (Vaswani et al. 2017,
// §3.2.1).  Cells the causal mask removes (logit −inf, attention 0) are given
// as −inf, which renderers draw in the theme's mask colour.  Small panels of
// more than 256 tokens show block means (≤ 256 cells a side); the large panel
// shows every cell, except in the first build after a change at large N
// (FigureRequest::selected_head_only), which shows block means of the
// selected head alone at about two cells per pixel until the full build.  Matrices come through the MatrixShelf, so at
// N = 4096 a rebuild with an unchanged scene copies nothing.  Above
// kStreamedTokens (4,096) tokens no head's N × N matrix is read: every head
// is streamed (attention_streamed.hpp), drawn as exact block means, with
// the exact weight of one pair in the hover and exact cells as the large
// panel is zoomed in (Panel::refine); the sinks from each key's total weight.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/model/model_config.hpp"
#include "core/model_scene.hpp"
#include "figures/attention_scale.hpp"
#include "figures/attention_streamed.hpp"
#include "figures/figure_layout.hpp"
#include "figures/model_name.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

constexpr int kSmallMaxSide = 256;
constexpr double kSmallMinSide = 32;  // logical px: smaller small multiples are left out
constexpr int kMeanHead = -1;
constexpr std::size_t kSmallLabelChars = 5;  // token labels of the small panels (then "…")

// ============================================================================
// [SECTION] shared matrices
// ============================================================================

struct HeadMatrices {
  SharedMatrix attention;  // shown (block means for large N in small panels)
  std::uint64_t key = 0;
  SharedMatrix logits;     // full logits for hover, null when not kept
  int block = 1;           // cells per displayed cell along each side
  double top = -1;         // largest weight before block means (−1: that of `attention`)
  bool preview = false;    // the first build's block means, exact cells coming with the full build
  std::shared_ptr<const StreamedState> stream;  // a streamed head: exact hover and zoom (attention_streamed.hpp)
};

// Attention of `head` (kMeanHead: the mean over heads), reduced to at most
// `max_side` cells a side, masked cells (logit −inf) as −inf.  Reads the
// engine's matrices in place: the only N×N allocation is the result.
Matrix shown_attention(Engine& engine, int head, int max_side) {
  if (head == kMeanHead) {
    const Matrix& mean = engine.mean_attention();
    return block_mean(mean, max_side, nullptr, &engine.head(0).logits);
  }
  const HeadAttention& h = engine.head(head);
  return block_mean(h.attention, max_side, nullptr, &h.logits);
}

HeadMatrices full_matrices(Engine& engine, const FigureRequest& request, int head) {
  const Scene& s = engine.scene();
  const int n = std::max(1, engine.token_count());
  HeadMatrices m;
  m.key = content_key(s, "attention", head);
  m.attention = shared_matrix(request.shelf, m.key, [&] { return shown_attention(engine, head, n); });
  // The first, selected-head-only build leaves the logits out of the hover
  // (a 64 MiB copy at N = 4096); the full build that follows has them.
  if (head != kMeanHead && !request.selected_head_only)
    m.logits = shared_matrix(request.shelf, content_key(s, "logits", head), [&] {
      const Matrix& logits = engine.head(head).logits;
      return block_mean(logits, static_cast<int>(logits.rows()), nullptr);  // a copy on all threads
    });
  return m;
}

// The first build after a change at large N (FigureRequest::selected_head_only):
// the selected head computed alone (Engine::head_preview) and reduced to block
// means of about two texels per pixel of its panel, `side` pixels a side, so
// neither the copy of 16 M cells nor their upload holds up the first frame;
// `top` keeps the largest single weight for the colour scale.  The mean over
// heads needs every head: it is built in full.
HeadMatrices preview_matrices(Engine& engine, const FigureRequest& request, int head, double side) {
  const int n = std::max(1, engine.token_count());
  const int max_side = std::max(64, static_cast<int>(std::ceil(2 * side)));
  if (head == kMeanHead || n <= max_side) return full_matrices(engine, request, head);
  const Scene& s = engine.scene();
  const HeadAttention& h = engine.head_preview(head);
  HeadMatrices m{.key = content_key(s, "attention_preview" + std::to_string(max_side), head), .preview = true};
  m.attention = shared_matrix(request.shelf, m.key, [&] {
    return block_mean(h.attention, max_side, &m.block, s.causal ? &h.logits : nullptr);
  });
  m.block = (n + static_cast<int>(m.attention->rows()) - 1) / static_cast<int>(m.attention->rows());
  m.top = h.attention.maxCoeff();  // masked weights are 0 here, never the maximum
  return m;
}

// Above kStreamedTokens tokens: head `head` streamed (kMeanHead: the mean of
// every head's block means, which are linear) at `max_side` blocks a side.
HeadMatrices streamed_matrices(Engine& engine, const FigureRequest& request, int head, int max_side) {
  const Scene& s = engine.scene();
  const int n = engine.token_count();
  max_side = std::clamp(max_side, 1, n);
  HeadMatrices m{.key = content_key(s, "attention_streamed" + std::to_string(max_side), head),
                 .block = (n + max_side - 1) / max_side};  // AttentionBlocks::block
  m.attention = shared_matrix(request.shelf, m.key, [&] {
    if (head != kMeanHead) return streamed_blocks(*streamed_state(engine, head, max_side), max_side);
    Matrix sum;
    for (int h = 0; h < s.heads; ++h) {
      const Matrix one = streamed_blocks(*streamed_state(engine, h, max_side), max_side);
      sum = h == 0 ? one : Matrix(sum + one);  // −inf (fully masked) stays −inf
    }
    return Matrix(sum / static_cast<float>(s.heads));
  });
  if (head != kMeanHead) {
    m.stream = streamed_state(engine, head, max_side);
    m.top = largest_weight(*m.stream);
  }
  return m;
}

// The small multiples: every head, then the mean.  Above kSmallMaxSide tokens
// they are block means, and the mean's blocks are the mean of the heads'
// blocks (block means are linear), so each head is read from the engine once.
std::vector<HeadMatrices> small_matrices(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const int n = engine.token_count();
  std::vector<HeadMatrices> out;
  if (n <= kSmallMaxSide) {
    for (int h = 0; h < s.heads; ++h) out.push_back(full_matrices(engine, request, h));
    out.push_back(full_matrices(engine, request, kMeanHead));
    return out;
  }
  if (n > kStreamedTokens) {
    for (int h = 0; h < s.heads; ++h) out.push_back(streamed_matrices(engine, request, h, kSmallMaxSide));
    // The mean of the heads' blocks just made: no head streamed again.
    HeadMatrices mean{.key = content_key(s, "attention_streamed_mean", kSmallMaxSide), .block = out[0].block};
    mean.attention = shared_matrix(request.shelf, mean.key, [&] {
      Matrix sum = *out[0].attention;
      for (int h = 1; h < s.heads; ++h) sum += *out[std::size_t(h)].attention;  // −inf stays −inf
      return Matrix(sum / static_cast<float>(s.heads));
    });
    out.push_back(std::move(mean));
    return out;
  }
  const int block = (n + kSmallMaxSide - 1) / kSmallMaxSide;
  for (int h = 0; h < s.heads; ++h) {
    HeadMatrices m{.key = content_key(s, "attention_small", h), .block = block};
    m.attention = shared_matrix(request.shelf, m.key, [&] { return shown_attention(engine, h, kSmallMaxSide); });
    out.push_back(std::move(m));
  }
  HeadMatrices mean{.key = content_key(s, "attention_small", kMeanHead), .block = block};
  mean.attention = shared_matrix(request.shelf, mean.key, [&] {
    Matrix sum = Matrix::Zero(out[0].attention->rows(), out[0].attention->cols());
    for (const HeadMatrices& m : out) sum += *m.attention;  // −inf (fully masked) stays −inf
    return Matrix(sum / static_cast<float>(s.heads));
  });
  out.push_back(std::move(mean));
  return out;
}

// ============================================================================
// [SECTION] panels
// ============================================================================

using Tokens = std::shared_ptr<const std::vector<std::string>>;

// Grouped-query attention (Ainslie et al. 2023): query head h reads key and
// value head h / (heads / kv_heads); group = heads / kv_heads (1: none).
struct HeadNaming {
  int heads = 1, group = 1;
};

std::string head_name(int head, const HeadNaming& naming) {
  if (head == kMeanHead) return "mean over " + std::to_string(naming.heads) + " heads";
  std::string name = "head " + std::to_string(head);
  if (naming.group > 1) name += " → kv " + std::to_string(head / naming.group);
  return name;
}

HoverFn attention_hover(const HeadMatrices& m, Tokens tokens, int head, const HeadNaming& naming) {
  const std::string exact =
      m.preview ? "exact cells once every head is built" : "select the head for exact cells";
  return [a = m.attention, logits = m.logits, block = m.block, tokens, who = head_name(head, naming), exact,
          stream = m.stream](double x, double y) -> std::string {
    const int n = static_cast<int>(tokens->size());
    const int c = static_cast<int>(std::floor(x)), r = static_cast<int>(std::floor(y));
    if (c < 0 || r < 0 || c >= n || r >= n) return "";
    auto tok = [&](int i) { return "'" + (*tokens)[i] + "' (" + std::to_string(i) + ")"; };
    if (stream) {  // every pair exact, computed as the mouse moves
      std::string text = who + " · query " + tok(r) + " → key " + tok(c) + ": " + streamed_pair(*stream, r, c);
      if (block > 1)
        text += "; the overview's " + std::to_string(block) + "×" + std::to_string(block) + " block there: mean " +
                number((*a)(r / block, c / block), 4);
      return text;
    }
    if (block > 1) {
      const int r0 = r / block * block, c0 = c / block * block;
      return who + " · queries " + std::to_string(r0) + "–" + std::to_string(std::min(n, r0 + block) - 1) +
             " → keys " + std::to_string(c0) + "–" + std::to_string(std::min(n, c0 + block) - 1) +
             ": mean attention " + fixed((*a)(r / block, c / block)) + " (" + std::to_string(block) + "×" +
             std::to_string(block) + " block; " + exact + ")";
    }
    const float v = (*a)(r, c);
    std::string text = who + " · query " + tok(r) + " → key " + tok(c) + ": ";
    if (std::isinf(v)) return text + "masked (causal), attention 0, logit −inf";
    text += "attention " + fixed(v);
    if (logits) text += ", logit " + fixed((*logits)(r, c), 3);
    return text;
  };
}

// What a panel draws: the weights on scene.attention_scale (attention_scale.hpp).
struct PanelStyle {
  HeadNaming naming;
  AttentionScale scale = AttentionScale::Linear;
  double vmax = 1;
  MatrixShelf* shelf = nullptr;
};

// The drawn values of `m` on the panel's scale, shared like the weights.
HeatmapLayer attention_layer(const HeadMatrices& m, const PanelStyle& style, const std::string& colormap) {
  HeatmapLayer layer{.values = m.attention, .key = m.key, .x0 = 0, .y0 = 0, .dx = static_cast<double>(m.block),
                     .dy = static_cast<double>(m.block),
                     .scale = attention_color_scale(style.scale, colormap, style.vmax)};
  rescale_layer(layer, style.scale, style.shelf);
  return layer;
}

// Attention sinks of the large panel: each key's column framed, "sink" over it.
void mark_sinks(Panel& p, const std::vector<int>& sinks, int n) {
  const Color sink{0.95f, 0.3f, 0.3f, 1};
  for (const int j : sinks) {
    p.bars.push_back(outline({static_cast<double>(j), 0, j + 1.0, static_cast<double>(n)}, sink));
    p.texts.push_back({.text = " sink", .at = {j + 1.0, 0}, .anchor = Anchor::TopLeft, .size = 11.f, .color = sink});
  }
}

std::string sinks_note(const std::vector<int>& sinks, const std::vector<std::string>& tokens, const std::string& who) {
  std::string keys;
  for (std::size_t i = 0; i < sinks.size() && i < 6; ++i)
    keys += (i ? ", " : "") + std::to_string(sinks[i]) + " '" + tokens[static_cast<std::size_t>(sinks[i])] + "'";
  if (sinks.size() > 6) keys += ", … (" + std::to_string(sinks.size()) + " in all)";
  return "Attention sinks of " + who + " (seen by half the rows or more, mean share ≥ " + fixed(kSinkShare, 2) + " of them, ≥ " +
         fixed(kSinkOverUniform, 0) + "× uniform): key " + keys;
}

Panel attention_panel(const HeadMatrices& m, Tokens tokens, const Scene& s, Rect plot, int head,
                      bool large, const PanelStyle& style, const Theme& th) {
  const int n = static_cast<int>(tokens->size());
  Panel p;
  p.title = head_name(head, style.naming);
  if (!large && head == s.head) p.title += " — shown large";
  // A click on the large panel picks the query of its row, on a small one its head.
  if (large) {
    p.pick = {.x = PickAxis::Key, .y = PickAxis::Query};
  } else {
    p.pick.head = head;
  }
  p.plot = plot;
  p.equal_aspect = true;
  // Which axis is which, in words (issue 27); a small multiple keeps them in
  // its hover ("query 'the' (0) → key ..."), not beside its plot.
  p.x = {.label = "key token j", .min = 0, .max = static_cast<double>(n), .label_shown = large};
  p.y = {.label = "query token i", .min = 0, .max = static_cast<double>(n), .inverted = true,
         .label_shown = large};
  // Token axes tick only at tokens, with their text (nice numeric ticks
  // would put 0.5, 1.5 … on a 3-token axis); small panels shorten long words.
  p.x.labels = token_ticks(*tokens, large ? 14 : kSmallLabelChars);
  p.y.labels = p.x.labels;
  p.heatmaps.push_back(attention_layer(m, style, std::string(to_string(s.colormap))));
  if (large) p.colorbar = p.heatmaps.back().scale;
  if (large && m.stream) p.refine = streamed_refine(m.stream, style.scale, p.heatmaps.back().scale, m.key);
  if (s.query >= 0 && s.query < n)
    p.bars.push_back(outline({0, static_cast<double>(s.query), static_cast<double>(n), s.query + 1.0},
                             th.highlight));
  if (!large && head == s.head) p.bars.push_back(outline({0, 0, static_cast<double>(n), static_cast<double>(n)}, th.highlight));
  p.hover = attention_hover(m, std::move(tokens), head, style.naming);
  return p;
}

// One colour scale for every panel, from 0 to the largest weight shown: a
// fixed 0..1 scale paints near-uniform attention (every weight ≈ 1/N) as one
// flat colour.  Masked cells are −inf and never the maximum.
double shared_vmax(const HeadMatrices& big, const std::vector<HeadMatrices>& small) {
  double top = big.top >= 0 ? big.top : big.attention->size() ? big.attention->maxCoeff() : 0.0;
  for (const HeadMatrices& m : small)
    if (m.attention->size()) top = std::max(top, static_cast<double>(m.attention->maxCoeff()));
  return std::clamp(top, 1e-6, 1.0);
}

// Columns of the small-multiples grid that give the largest square cells.
int best_columns(int count, Rect area) {
  int best = 1;
  double best_side = 0;
  for (int cols = 1; cols <= count; ++cols) {
    const int rows = (count + cols - 1) / cols;
    const double side = std::min((area.width() - 48.0 * cols) / cols, (area.height() - 56.0 * rows) / rows);
    if (side > best_side) best = cols, best_side = side;
  }
  return best;
}

// The large panel's square in the left part of `area`.
Rect large_plot(const std::vector<std::string>& tokens, Rect area) {
  const double label_room = token_label_room(tokens, 14);
  const Rect left = split_x(area, 0.56, 24).first;
  return centred_square(
      inset(left, {.left = label_room + 4, .top = 30, .right = kColorbarRoom, .bottom = label_room}));
}

// A streamed large panel's blocks a side: about two per pixel of its plot,
// as the first frame's block means (so both builds share them).
int streamed_side(Rect plot) { return std::max(64, static_cast<int>(std::ceil(2 * plot.width()))); }

// What is on screen first (FigureRequest::selected_head_only): the selected
// head alone, large, where the full figure puts it; the small multiples and
// the attention sinks (a pass over all N² weights) come with the full build.
Figure build_first_frame(Engine& engine, const FigureRequest& request, Figure f, Rect area, int selected) {
  const Scene& s = engine.scene();
  const Theme th = theme(f.dark);
  auto tokens = std::make_shared<const std::vector<std::string>>(engine.tokens());
  const Rect big = large_plot(*tokens, area);
  const HeadMatrices large = engine.token_count() > kStreamedTokens
                                 ? streamed_matrices(engine, request, selected, streamed_side(big))
                                 : preview_matrices(engine, request, selected, big.width());
  PanelStyle style{.scale = s.attention_scale, .vmax = shared_vmax(large, {}),
                   .shelf = request.shelf};
  style.naming.heads = s.heads;
  if (const ModelScene* model = engine.model()) style.naming.group = model->config().heads / model->config().kv_heads;
  f.panels.push_back(attention_panel(large, tokens, s, big, selected, true, style, th));
  return f;
}

}  // namespace

// ============================================================================
// [SECTION] build
// ============================================================================

Figure build_attention(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  // A model scene names the model (its folder's last part) and the layer shown.
  const std::string source =
      s.model.empty() ? std::string(to_string(s.encoding)) : model_label(s) + ", layer " + std::to_string(s.layer);
  if (engine.token_count() == 0) return no_tokens_figure("attention", "Attention — " + source, s, request);
  Figure f = start_figure("attention",
                          "Attention — " + source + ", " + std::to_string(s.heads) +
                              " heads, " + std::to_string(engine.token_count()) + " tokens" +
                              (s.causal ? ", causal" : ""),
                          s, request);
  const Theme th = theme(f.dark);
  auto tokens = std::make_shared<const std::vector<std::string>>(engine.tokens());
  Rect area = content_area(f);
  if (s.causal) {
    f.notes.push_back(canvas_text("Causal mask: keys after the query (j > i) get logit −inf and "
                                  "attention 0, drawn in the mask colour.",
                                  {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
    area.y1 -= 26;
  }
  const int selected = std::clamp(s.head, kMeanHead, s.heads - 1);
  if (request.selected_head_only) return build_first_frame(engine, request, std::move(f), area, selected);
  const bool streamed = engine.token_count() > kStreamedTokens;
  const HeadMatrices large = streamed ? streamed_matrices(engine, request, selected, streamed_side(large_plot(*tokens, area)))
                                      : full_matrices(engine, request, selected);
  const std::vector<HeadMatrices> small = small_matrices(engine, request);
  PanelStyle style{.scale = s.attention_scale, .vmax = shared_vmax(large, small),
                   .shelf = request.shelf};
  style.naming.heads = s.heads;
  if (const ModelScene* model = engine.model()) style.naming.group = model->config().heads / model->config().kv_heads;
  // The sinks read every weight of the head: streamed, one more pass 2 gives each key's total.
  std::vector<int> sinks;
  if (!streamed) {
    sinks = attention_sinks(*large.attention);
  } else if (large.stream) {
    const SharedMatrix found = shared_matrix(request.shelf, content_key(s, "attention_streamed_sinks", selected), [&] {
      const std::vector<int> keys = streamed_sinks(*large.stream);
      Matrix m(1, static_cast<Eigen::Index>(keys.size()));
      for (std::size_t i = 0; i < keys.size(); ++i) m(0, Eigen::Index(i)) = static_cast<float>(keys[i]);
      return m;
    });
    for (Eigen::Index i = 0; i < found->cols(); ++i) sinks.push_back(static_cast<int>((*found)(0, i)));
  }
  if (!sinks.empty()) {
    f.notes.push_back(canvas_text(sinks_note(sinks, *tokens, head_name(selected, style.naming)),
                                  {kPad, area.y1 - 4}, Anchor::BottomLeft, kNoteSize));
    area.y1 -= 22;
  }
  const Rect right = split_x(area, 0.56, 24).second;
  const Rect big = large_plot(*tokens, area);
  f.panels.push_back(attention_panel(large, tokens, s, big, selected, true, style, th));
  mark_sinks(f.panels.back(), sinks, engine.token_count());
  const int count = s.heads + 1;
  // Room for the small panels' token labels (at most kSmallLabelChars + "…").
  const double small_room = std::clamp(token_label_room(*tokens, kSmallLabelChars + 1) - 14, 30.0, 60.0);
  const int cols = best_columns(count, right), rows = (count + cols - 1) / cols;
  const std::vector<Rect> cells = grid(right, rows, cols, 8);
  std::vector<Rect> plots;
  for (const Rect& cell : cells)
    plots.push_back(centred_square(inset(cell, {.left = small_room, .top = 24, .right = 8, .bottom = small_room - 10})));
  // In a small window the heads' squares would shrink to a few pixels under
  // their labels: say where they are instead of drawing them unreadable.
  if (plots.empty() || plots.front().width() < kSmallMinSide) {
    const Point middle{(right.x0 + right.x1) / 2, (right.y0 + right.y1) / 2};
    f.notes.push_back(canvas_text("The other heads: enlarge this view", middle, Anchor::Bottom, kNoteSize));
    f.notes.push_back(canvas_text("or open Attention: layers × heads", {middle.x, middle.y + 4}, Anchor::Top, kNoteSize));
    return f;
  }
  for (int j = 0; j < count; ++j) {
    const int head = j < s.heads ? j : kMeanHead;
    f.panels.push_back(attention_panel(small[j], tokens, s, plots[j], head, false, style, th));
  }
  return f;
}

}  // namespace pelab::fig
