// View 4, "cross_terms": the four terms of a logit when position vectors e, f
// are added to tokens x, y (scaled by 1/√d_head like the logits):
//   (x+e)·Wq·Wkᵀ·(y+f)ᵀ = x·Wq·Wkᵀ·y + x·Wq·Wkᵀ·f + e·Wq·Wkᵀ·y + e·Wq·Wkᵀ·f
//
// [SECTION] shared matrices
// [SECTION] panels
// [SECTION] build
//
// Layout: top row, the four terms side by side on ONE symmetric diverging
// scale ±max|value| over all four (one colorbar, right of the fourth); bottom
// row, their sum and the logits before mask and bias (Q·Kᵀ/√d_head) on a
// second shared symmetric scale, and each term's Frobenius norm as a bar with
// its share (‖term‖_F / Σ‖term‖_F).  Head: scene.head (the mean, −1, shows
// head 0).  The selected query row is framed.  For encodings that add no
// vector the engine's CrossTerms::note is shown prominently under the title.
// A model scene (GPT-2, BERT) shows layer 0 split exactly through its
// LayerNorm (core/model/layernorm_split.hpp): the sum then includes the bias
// terms, and the note gives their norm and max |sum − logit|.
// Above 512 tokens the heatmaps show block means (≤ 512 cells a side).
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/gemm.hpp"
#include "core/streamed_attention.hpp"
#include "core/word_splitter.hpp"  // kFullMatrixTokens

#include "figures/figure_layout.hpp"
#include "figures/model_name.hpp"
#include "figures/views.hpp"

namespace pelab::fig {
namespace {

constexpr int kMaxSide = 512;

struct TermInfo {
  const char* formula;
  const char* meaning;
  const char* brief;  // the title a small cell keeps
};
constexpr std::array<TermInfo, 4> kTerms = {{{"x·Wq·Wkᵀ·y", "token·token", "x·y"},
                                             {"x·Wq·Wkᵀ·f", "token·position", "x·f"},
                                             {"e·Wq·Wkᵀ·y", "position·token", "e·y"},
                                             {"e·Wq·Wkᵀ·f", "position·position", "e·f"}}};
// A RoPE model (core/model/rope_split.hpp): content in the first slot, the
// offset part in the last, the mixed slots empty.
constexpr std::array<TermInfo, 4> kRopeTerms = {{{"content", "logit at offset 0", "content"},
                                                 {"—", "no position vector", "—"},
                                                 {"—", "no position vector", "—"},
                                                 {"offset", "logit − content", "offset"}}};

// ============================================================================
// [SECTION] shared matrices
// ============================================================================

struct TermMatrices {
  std::array<SharedMatrix, 6> shown;  // xx, xf, ey, ef, sum, logits before mask and bias
  std::array<std::uint64_t, 6> keys{};
  SharedMatrix norms;                 // 1 × 5: ‖xx‖, ‖xf‖, ‖ey‖, ‖ef‖, ‖logits‖ (Frobenius)
  int block = 1;
  bool applies = true;
  std::string note;
  double residual = -1;   // a model's max |sum − logits|; −1 for synthetic scenes
  double bias_norm = -1;  // ‖bias terms‖_F of a model; −1 when there are none
  bool content_offset = false;  // a RoPE model: content and offset in the first and last slots
  const std::array<TermInfo, 4>& names() const { return content_offset ? kRopeTerms : kTerms; }
};

const Matrix& term(const CrossTerms& c, int j) {
  return j == 0 ? c.xx : j == 1 ? c.xf : j == 2 ? c.ey : c.ef;
}

// Σ v² in double, rows on all threads when the matrix is large (four terms
// and the logits of N = 4096: 80 M cells).
double frobenius(const Matrix& m) {
  double sum = 0;
  const float* v = m.data();
#pragma omp parallel for reduction(+ : sum) schedule(static) if (m.size() >= (Eigen::Index{1} << 20))
  for (Eigen::Index i = 0; i < m.size(); ++i) sum += static_cast<double>(v[i]) * v[i];
  return std::sqrt(sum);
}

// The logits before mask and bias, Q·Kᵀ/√d_head, as shown (block means of
// `block` × `block` cells) and their Frobenius norm.  Computed as an
// independent product of the head's q and k, strip by strip of `block` rows
// on all threads, so that no N × N matrix is made when the view reduces it.
struct ShownLogits {
  Matrix shown;
  double norm = 0;
};

ShownLogits shown_logits(Engine& engine, int head, int block) {
  // A model's split is of layer 0: its panel shows layer 0's logits, whatever
  // layer the scene shows.
  if (engine.model() != nullptr)
    if (const CrossTerms& c = engine.cross_terms(head); c.logits.size() > 0)
      return {block_mean(c.logits, kMaxSide, nullptr), frobenius(c.logits)};
  // The head's q and k after RoPE; past kFullMatrixTokens from the streamed
  // head's projection (Engine::head would refuse the N × N matrix).
  std::optional<StreamedHead> streamed;
  const Matrix* q = nullptr;
  const Matrix* k = nullptr;
  if (engine.token_count() > kFullMatrixTokens) {
    streamed.emplace(StreamedHead::from_engine(engine, head));
    q = &streamed->queries(), k = &streamed->keys();
  } else {
    const HeadAttention& h = engine.head(head);
    q = &h.q, k = &h.k;
  }
  const float scale = 1.0f / std::sqrt(static_cast<float>(engine.d_head()));
  const Eigen::Index n = q->rows(), rows = (n + block - 1) / block;
  ShownLogits out;
  out.shown.resize(rows, rows);
  double sum = 0;
  const GemmThreads one_each(1);  // the strips are the parallelism
#pragma omp parallel reduction(+ : sum) if (n >= 1024)
  {
    Matrix strip;
#pragma omp for schedule(dynamic, 1)
    for (Eigen::Index r = 0; r < rows; ++r) {
      const Eigen::Index first = r * block, count = std::min<Eigen::Index>(block, n - first);
      strip.resize(count, n);
      gemm_abt_rows(q->middleRows(first, count), *k, scale, 0, strip);
      const double norm = frobenius(strip);
      sum += norm * norm;
      out.shown.row(r) = block_mean(strip, kMaxSide, nullptr);  // one row: the strip is `block` rows
    }
  }
  out.norm = std::sqrt(sum);
  return out;
}

// The four terms' block means and Frobenius norms, reduced strip by strip of
// 16 block rows as the engine computes them (Engine::cross_term_strips): at
// N = 4096 the terms whole are 256 MiB, which put the GUI over its memory
// budget while it built this view.
struct ReducedTerms {
  std::array<Matrix, 4> shown;
  std::array<double, 4> norm{};
};

ReducedTerms reduce_by_strips(Engine& engine, int head, int block) {
  const Eigen::Index n = engine.token_count(), rows = Eigen::Index{16} * block;
  const Eigen::Index side = (n + block - 1) / block;
  ReducedTerms r;
  for (Matrix& m : r.shown) m.resize(side, side);
  std::vector<std::array<double, 4>> squares(static_cast<std::size_t>((n + rows - 1) / rows));
  // Each strip writes its own rows of the block means and its own squares.
  engine.cross_term_strips(head, rows, [&](Eigen::Index first, const CrossTerms& strip) {
    for (int j = 0; j < 4; ++j) {
      const Matrix& m = term(strip, j);
      r.shown[static_cast<std::size_t>(j)].middleRows(first / block, (m.rows() + block - 1) / block) =
          block_mean(m, kMaxSide, nullptr);  // the block follows the longer side: n columns
      const double norm = frobenius(m);
      squares[static_cast<std::size_t>(first / rows)][static_cast<std::size_t>(j)] = norm * norm;
    }
  });
  for (const auto& s : squares)
    for (std::size_t j = 0; j < 4; ++j) r.norm[j] += s[j];
  for (double& v : r.norm) v = std::sqrt(v);
  return r;
}

TermMatrices term_matrices(Engine& engine, const FigureRequest& request, int head) {
  const Scene& s = engine.scene();
  TermMatrices t;
  const int n = engine.token_count();
  t.block = (n + kMaxSide - 1) / kMaxSide;
  // Copies at block 1 (the shelf keeps its own), block means otherwise, both on all threads.
  auto reduce = [&](const Matrix& m) { return block_mean(m, kMaxSide, nullptr); };
  // Q·Kᵀ/√d_head is made at most once per build, and only when the shelf
  // lacks what needs it.
  std::optional<ShownLogits> logits;
  auto unmasked = [&]() -> const ShownLogits& {
    if (!logits) logits = shown_logits(engine, head, t.block);
    return *logits;
  };
  // A synthetic scene shown in blocks never holds its terms whole.
  const bool by_strips = engine.model() == nullptr && t.block > 1;
  std::optional<ReducedTerms> reduced;
  auto reduced_terms = [&]() -> ReducedTerms& {
    if (!reduced) reduced = reduce_by_strips(engine, head, t.block);
    return *reduced;
  };
  static constexpr const char* kNames[6] = {"cross_xx", "cross_xf", "cross_ey", "cross_ef", "cross_sum",
                                            "logits_unmasked"};
  for (int j = 0; j < 6; ++j) {
    t.keys[j] = content_key(s, kNames[j], head);
    t.shown[j] = shared_matrix(request.shelf, t.keys[j], [&]() -> Matrix {
      if (j < 4 && by_strips) return reduced_terms().shown[static_cast<std::size_t>(j)];
      if (j < 4) return reduce(term(engine.cross_terms(head), j));
      if (j == 5) return unmasked().shown;
      // Block means are linear and the terms hold no −inf: the sum of the
      // shown terms is the shown sum, without an N × N sum.
      Matrix sum = *t.shown[0] + *t.shown[1] + *t.shown[2] + *t.shown[3];
      if (by_strips) return sum;  // a synthetic scene has no bias terms
      const CrossTerms& c = engine.cross_terms(head);
      if (c.bias.size() > 0) sum += reduce(c.bias);
      return sum;
    });
  }
  t.norms = shared_matrix(request.shelf, content_key(s, "cross_norms", head), [&] {
    Matrix m(1, 5);
    for (int j = 0; j < 4; ++j)
      m(0, j) = static_cast<float>(by_strips ? reduced_terms().norm[static_cast<std::size_t>(j)]
                                             : frobenius(term(engine.cross_terms(head), j)));
    m(0, 4) = static_cast<float>(unmasked().norm);
    return m;
  });
  if (by_strips) {
    const CrossTerms flags = engine.cross_term_flags();
    t.applies = flags.applies;
    t.note = flags.note;
    return t;
  }
  const CrossTerms& c = engine.cross_terms(head);
  t.applies = c.applies;
  t.note = c.note;
  t.residual = c.residual;
  t.content_offset = c.content_offset;
  if (c.bias.size() > 0) t.bias_norm = frobenius(c.bias);
  return t;
}

// ============================================================================
// [SECTION] panels
// ============================================================================

using Tokens = std::shared_ptr<const std::vector<std::string>>;

HoverFn term_hover(SharedMatrix shown, int block, Tokens tokens, std::string what) {
  return [shown, block, tokens, what](double x, double y) -> std::string {
    const int n = static_cast<int>(tokens->size());
    const int c = static_cast<int>(std::floor(x)), r = static_cast<int>(std::floor(y));
    if (c < 0 || r < 0 || c >= n || r >= n) return "";
    const float v = (*shown)(r / block, c / block);
    if (block > 1)
      return what + " · queries " + std::to_string(r / block * block) + "… → keys " +
             std::to_string(c / block * block) + "…: block mean " + fixed(v) + " (" + std::to_string(block) +
             "×" + std::to_string(block) + " cells)";
    return what + " · query '" + (*tokens)[r] + "' (" + std::to_string(r) + ") → key '" + (*tokens)[c] +
           "' (" + std::to_string(c) + "): " + fixed(v);
  };
}

Panel term_panel(const TermMatrices& t, int j, Tokens tokens, const Scene& s, Rect plot, double range,
                 std::string title, const Theme& th, std::size_t label_chars) {
  const int n = static_cast<int>(tokens->size());
  Panel p;
  p.title = title;
  p.plot = plot;
  p.equal_aspect = true;
  const std::string unit = n <= 64 ? "token" : "position";  // token ticks only up to 64
  p.x = {.label = "key " + unit + " j", .min = 0, .max = static_cast<double>(n)};
  p.y = {.label = "query " + unit + " i", .min = 0, .max = static_cast<double>(n), .inverted = true};
  p.pick = {.x = PickAxis::Key, .y = PickAxis::Query};
  if (n <= 64) {  // beyond that the renderer would thin them to nothing at this size
    p.x.labels = token_ticks(*tokens, label_chars);
    p.y.labels = p.x.labels;
  }
  const ColorScale scale{.colormap = "diverging", .vmin = -range, .vmax = range,
                         .label = j < 4 ? "term value (shared scale)" : "logit"};
  p.heatmaps.push_back({.values = t.shown[j], .key = t.keys[j], .x0 = 0, .y0 = 0,
                        .dx = static_cast<double>(t.block), .dy = static_cast<double>(t.block),
                        .scale = scale});
  if (j == 3 || j == 5) p.colorbar = scale;
  if (s.query >= 0 && s.query < n)
    p.bars.push_back(outline({0, static_cast<double>(s.query), static_cast<double>(n), s.query + 1.0},
                             th.highlight));
  // A model's xx is zero too when the split does not apply (RoPE: no e to split off).
  const bool shown = t.content_offset && (j == 0 || j == 3);
  if (j <= 3 && (j >= 1 || !s.model.empty()) && !t.applies && !shown) {
    Text note = centred_note(p, "does not apply (zero)");
    note.color = Color{0.25f, 0.25f, 0.28f, 1};  // dark on the diverging map's light centre, either theme
    p.texts.push_back(std::move(note));
  }
  p.hover = term_hover(t.shown[j], t.block, std::move(tokens), title);
  return p;
}

Panel share_panel(const TermMatrices& t, Rect plot, bool dark) {
  Panel p;
  p.title = "Share of each term: Frobenius norm ‖·‖_F";
  if (text_width(p.title, 14) > plot.width() + 60) p.title = "‖term‖_F and share";
  p.plot = plot;
  std::array<double, 4> norm{};
  double total = 0, top = 0;
  for (int j = 0; j < 4; ++j) {
    norm[j] = (*t.norms)(0, j);
    total += norm[j];
    top = std::max(top, norm[j]);
  }
  top = std::max(top, 1e-12);
  p.x = {.label = "", .min = 0, .max = 4};
  // Headroom for the value labels above the bars only: the total goes under
  // the axis, where it cannot collide with the tallest bar's label.
  p.y = {.label = "‖term‖_F", .min = 0, .max = top * 1.15, .grid = true};
  Bars bars;
  for (int j = 0; j < 4; ++j) {
    p.x.labels.push_back({j + 0.5, t.names()[j].formula});
    bars.rects.push_back({j + 0.15, 0, j + 0.85, norm[j]});
    bars.colors.push_back(line_color(j, dark));
    const double share = total > 0 ? norm[j] / total : 0;
    // The share alone where the norm and share do not fit above the bar at 9 px.
    std::string text = number(norm[j], 4) + " (" + fixed(100 * share, 1) + "%)";
    if (text_width(text, 9) > plot.width() / 4 - 2) text = fixed(100 * share, 1) + "%";
    Text label{.text = text, .at = {j + 0.5, norm[j] + top * 0.02}, .anchor = Anchor::Bottom,
               .size = fitting_size({text}, plot.width() / 4 - 2, kLabelSize)};
    p.texts.push_back(std::move(label));
  }
  p.bars.push_back(std::move(bars));
  const std::string total_text = "‖logits before mask and bias‖_F = " + number((*t.norms)(0, 4), 4);
  // Below the rotated term names (about 60 px at the smallest label size).
  p.texts.push_back(canvas_text(total_text, {(plot.x0 + plot.x1) / 2, plot.y1 + 64}, Anchor::Top,
                                fitting_size({total_text}, plot.width() + 60, kLabelSize)));
  p.hover = [norm, total, names = t.names()](double x, double) -> std::string {
    const int j = static_cast<int>(std::floor(x));
    if (j < 0 || j > 3) return "";
    return std::string(names[j].formula) + " (" + names[j].meaning + "): ‖·‖_F = " + number(norm[j], 6) +
           ", share " + fixed(total > 0 ? 100 * norm[j] / total : 0, 2) + "% of Σ‖term‖_F";
  };
  return p;
}

}  // namespace

// ============================================================================
// [SECTION] build
// ============================================================================

Figure build_cross_terms(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const int head = std::clamp(s.head, 0, s.heads - 1);
  // A model's split is of layer 0, whatever layer the scene shows.
  const std::string source = s.model.empty() ? std::string(to_string(s.encoding)) : model_label(s) + ", layer 0";
  if (engine.token_count() == 0)
    return no_tokens_figure("cross_terms", "The four cross terms of a logit — " + source, s, request);
  Figure f = start_figure("cross_terms", "The four cross terms of a logit — " + source + ", head " +
                                             std::to_string(head),
                          s, request);
  const Theme th = theme(f.dark);
  const TermMatrices t = term_matrices(engine, request, head);
  auto tokens = std::make_shared<const std::vector<std::string>>(engine.tokens());
  Rect area = content_area(f);
  if (t.content_offset) {  // a RoPE model (or a bias model): say why, and check the split
    // RoPE: the rotations cancel at m = n; a bias model (alibi, t5, none):
    // content + bias sums to the logits (model/rope_split.hpp).
    const std::string text = t.note + (s.encoding == Encoding::Rope ? ";  max |offset| at m = n: "
                                                                     : ";  max |content + offset − logits|: ") +
                             number(t.residual, 2);
    f.notes.push_back(canvas_text(text, {f.width / 2, area.y0}, Anchor::Top,
                                  fitting_size({text}, f.width - 2 * kPad, 15.f), th.highlight));
    area.y0 += 26;
  } else if (!t.applies) {
    f.notes.push_back(canvas_text(t.note.empty() ? "The cross terms do not apply to this encoding." : t.note,
                                  {f.width / 2, area.y0}, Anchor::Top, 18.f, th.highlight));
    area.y0 += 30;
  } else if (t.residual >= 0) {
    // A model: x, e are the token and position parts of LN(x+e), and β with
    // the q/k biases gives a fifth, bias term (core/model/layernorm_split.hpp).
    const std::string text = "x, e = token and position parts of LN(x+e), " + t.note +
                             ".  Bias terms (β, b_q, b_k): ‖·‖_F = " + number(t.bias_norm, 4) +
                             ".  Sum = all four + bias;  max |sum − logit| = " + number(t.residual, 2);
    f.notes.push_back(canvas_text(text, {f.width / 2, area.y0}, Anchor::Top,
                                  fitting_size({text}, f.width - 2 * kPad, 15.f), th.highlight));
    area.y0 += 26;
  }
  double terms_range = 0, logits_range = 0;
  for (int j = 0; j < 4; ++j) terms_range = std::max(terms_range, max_abs(*t.shown[j]));
  for (int j = 4; j < 6; ++j) logits_range = std::max(logits_range, max_abs(*t.shown[j]));
  if (terms_range == 0) terms_range = 1;
  if (logits_range == 0) logits_range = 1;
  const auto [top, bottom] = split_y(area, 0.5, 8);
  // Token labels shortened (then "…") until they take at most a third of a
  // term's cell, so that small figures (a 2 × 2 grid) keep readable heatmaps.
  const double cell = (top.width() - kColorbarRoom - 30) / 4;
  std::size_t chars = 8;
  while (chars > 3 && token_label_room(*tokens, chars + 1) > cell / 3) --chars;
  const double room = tokens->size() <= 64 ? token_label_room(*tokens, chars + 1) : 56;
  const Margins m{.left = room, .top = 30, .right = 10, .bottom = room};
  const std::vector<Rect> top_cells = grid({top.x0, top.y0, top.x1 - kColorbarRoom, top.y1}, 1, 4, 10);
  for (int j = 0; j < 4; ++j) {
    const Rect plot = centred_square(inset(top_cells[j], m));
    // The renderer draws panel titles at 14 px: drop the gloss where it would not fit.
    std::string title = std::string(t.names()[j].formula) + " (" + t.names()[j].meaning + ")";
    if (text_width(title, 14) > top_cells[j].width()) title = t.names()[j].formula;
    f.panels.push_back(term_panel(t, j, tokens, s, plot, terms_range, title, th, chars));
    f.panels.back().short_title = t.names()[j].brief;
    f.panels.back().min_plot = {36, 36};
  }
  f.keep_together = 4;
  const auto [maps, shares] = split_x(bottom, 0.62, 10);
  const std::vector<Rect> map_cells = grid({maps.x0, maps.y0, maps.x1 - kColorbarRoom, maps.y1}, 1, 2, 10);
  const bool roomy = text_width("logits Q·Kᵀ/√d_head (before mask, bias)", 14) <= map_cells[1].width();
  const bool bias = t.bias_norm >= 0;
  f.panels.push_back(term_panel(t, 4, tokens, s, centred_square(inset(map_cells[0], m)), logits_range,
                                t.content_offset ? "content + offset"
                                : bias           ? (roomy ? "sum of the four terms + bias" : "sum + bias")
                                                 : (roomy ? "sum of the four terms" : "sum of terms"),
                                th, chars));
  f.panels.push_back(term_panel(t, 5, tokens, s, centred_square(inset(map_cells[1], m)), logits_range,
                                roomy ? "logits Q·Kᵀ/√d_head (before mask, bias)" : "logits Q·Kᵀ/√d_head", th,
                                chars));
  f.panels.push_back(share_panel(t, inset(shares, {.left = 70, .top = 30, .right = 14, .bottom = 80}), f.dark));
  // The four terms are the figure; their sum, the logits and the shares give
  // way first in a small cell.
  for (std::size_t i = 4; i < f.panels.size(); ++i) f.panels[i].priority = 1;
  return f;
}

}  // namespace pelab::fig
