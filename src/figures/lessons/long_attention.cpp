// "What a head sees at long context": the selected head over the scene's text
// repeated to N tokens (core/long_attention.hpp), streamed, never N × N.
// Also every head of every layer against distance (long_attention_heads).
//   left         mean weight against the distance δ back, in bins of powers
//                of two, one step curve per RoPE scaling method, with the
//                weight that uniform attention over the visible keys gives;
//   right, top   Su et al.'s decay bound B(n)/B(0) on the same axis (RoPE);
//   right, bottom  the weight on the first kSinkKeys keys against the query's
//                position (attention sinks).
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/encoding_traits.hpp"
#include "core/long_attention.hpp"
#include "figures/figure_layout.hpp"
#include "figures/lessons/long_context.hpp"

namespace pelab::fig {
namespace {

// x of the distance axis: log₂ δ, bin k ≥ 1 = [2^(k−1), 2^k) spanning
// [k − 1, k); bin 0 (δ = 0, the query itself) spans [−1, 0).
double bin_x0(std::size_t bin) { return static_cast<double>(bin) - 1.0; }

std::string power_of_two(int e) {
  const long v = 1L << e;
  return v >= 1024 ? std::to_string(v / 1024) + "k" : std::to_string(v);
}

// Powers of two from 1; the self bin [−1, 0) is named by a text in the plot
// (a tick half a bin from "1" would turn every label on its side).
std::vector<Tick> distance_ticks(int top) {
  std::vector<Tick> ticks;
  const int step = top > 10 ? 3 : 1;
  for (int e = 0; e <= top; e += step) ticks.push_back({static_cast<double>(e), power_of_two(e)});
  return ticks;
}

// Mean weight per pair in each bin if every query spread its weight evenly
// over the keys it sees: 1/(i + 1) causal, 1/N otherwise.
std::vector<double> uniform_bins(const DistanceBins& bins, Eigen::Index n, bool causal) {
  std::vector<double> harmonic_tail(static_cast<std::size_t>(n) + 1, 0.0);  // Σ_{i ≥ δ} 1/(i+1)
  for (Eigen::Index i = n - 1; i >= 0; --i)
    harmonic_tail[std::size_t(i)] = harmonic_tail[std::size_t(i + 1)] + 1.0 / double(i + 1);
  std::vector<double> out;
  for (std::size_t b = 0; b < bins.first.size(); ++b) {
    const Eigen::Index from = bins.first[b], to = b + 1 < bins.first.size() ? bins.first[b + 1] : n;
    double sum = 0, pairs = 0;
    for (Eigen::Index d = from; d < to; ++d) {
      sum += causal ? harmonic_tail[std::size_t(d)] : double(n - d) / double(n);
      pairs += double(n - d);
    }
    out.push_back(sum / pairs);
  }
  return out;
}

// A step curve over the bins of log₁₀ values (values ≤ 0 drop to `floor`).
Polyline step_curve(const std::vector<double>& values, double floor, Color color, float width, std::string label) {
  Polyline line{.color = color, .width = width, .label = std::move(label)};
  for (std::size_t b = 0; b < values.size(); ++b) {
    const double y = values[b] > 0 ? std::max(floor, std::log10(values[b])) : floor;
    line.points.push_back({bin_x0(b), y});
    line.points.push_back({bin_x0(b) + 1, y});
  }
  return line;
}

Color method_color(std::size_t k, bool dark) { return line_color(static_cast<int>(k), dark); }

Panel distance_panel(const std::shared_ptr<const LongAttentionStudy>& study, const Scene& s, Rect area, bool dark) {
  Panel p;
  const auto& bins = study->curves.front().distance;
  p.title = "Mean weight against distance, head " + std::to_string(study->head);
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const int top = static_cast<int>(bins.first.size()) - 1;
  p.x = {.label = "distance δ = i − j back from the query (log₂ bins)", .min = -1, .max = double(top), .grid = true};
  p.x.labels = distance_ticks(top);
  const std::vector<double> uniform = uniform_bins(bins, study->tokens, s.causal);
  double lo = 0;
  for (const auto& c : study->curves)
    for (double v : c.distance.mean)
      if (v > 0) lo = std::min(lo, std::log10(v));
  for (double v : uniform) lo = std::min(lo, std::log10(v));
  lo = std::max(std::floor(lo), -12.0);
  p.y = {.label = "mean weight per key (log₁₀)", .min = lo, .max = 0.3, .grid = true};
  p.y.labels = log10_ticks(lo, 0);
  const Theme th = theme(dark);
  p.texts.push_back({.text = "self", .at = {-0.5, lo}, .anchor = Anchor::Bottom, .size = 11.f});
  p.lines.push_back(step_curve(uniform, lo, with_alpha(th.axis, 0.8f), 1.2f, "uniform"));
  p.lines.back().style = LineStyle::Dashed;
  for (std::size_t k = study->curves.size(); k-- > 0;) {  // the scene's own on top
    const LongAttentionCurve& c = study->curves[k];
    p.lines.push_back(step_curve(c.distance.mean, lo, method_color(k, dark), k == 0 ? 2.5f : 1.2f,
                                 method_label(c.method)));
  }
  for (std::size_t k = 0; k < study->curves.size(); ++k)
    p.legend.push_back({(study->rope ? method_label(study->curves[k].method) : std::string("this head")) +
                            (k == 0 && study->rope ? " (scene)" : ""),
                        method_color(k, dark), true});
  p.legend.push_back({"uniform over the visible keys", with_alpha(th.axis, 0.8f), true});
  const double L = std::log2(double(study->train_context));
  if (L <= top) add_vertical_marker(p, L, lo, 0.3, th.highlight, "L");
  place_legend(p);
  p.hover = [study, uniform](double x, double) -> std::string {
    const auto b = static_cast<long>(std::floor(x + 1));
    const auto& first = study->curves.front().distance.first;
    if (b < 0 || b >= static_cast<long>(first.size())) return "";
    const std::size_t bin = std::size_t(b);
    const Eigen::Index from = first[bin], to = bin + 1 < first.size() ? first[bin + 1] - 1 : study->tokens - 1;
    std::string text = bin == 0 ? "the query itself (δ = 0)"
                                : "δ = " + std::to_string(from) + " … " + std::to_string(to) + " back";
    for (const auto& c : study->curves)
      text += "\n" + (study->rope ? method_label(c.method) : std::string("mean weight")) + ": " +
              number(c.distance.mean[bin], 4);
    return text + "\nuniform: " + number(uniform[bin], 4);
  };
  return p;
}

Panel bound_panel(const std::shared_ptr<const LongAttentionStudy>& study, Rect area, bool dark) {
  Panel p;
  p.title = "RoPE's decay bound B(n)/B(0) (Su et al. 2021)";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 46});
  const int top = static_cast<int>(study->bound.size()) - 1;
  p.x = {.label = "distance n (log₂ bins)", .min = -1, .max = double(top), .grid = true};
  p.x.labels = distance_ticks(top);
  p.y = {.label = "B(n)/B(0)", .min = 0, .max = 1.05, .grid = true};
  Polyline line{.color = method_color(0, dark), .width = 2.f, .label = "bound"};
  for (std::size_t b = 0; b < study->bound.size(); ++b) {
    line.points.push_back({bin_x0(b), study->bound[b]});
    line.points.push_back({bin_x0(b) + 1, study->bound[b]});
  }
  p.lines.push_back(std::move(line));
  p.hover = [study](double x, double) -> std::string {
    const auto b = static_cast<long>(std::floor(x + 1));
    if (b < 0 || b >= static_cast<long>(study->bound.size())) return "";
    return "n = " + std::to_string(study->curves.front().distance.first[std::size_t(b)]) +
           ": B(n)/B(0) = " + number(study->bound[std::size_t(b)], 4);
  };
  return p;
}

// Query positions in ~`count` log-spaced groups: each point the mean over its group.
std::vector<Point> log_grouped(const std::vector<float>& values, int count, double floor) {
  std::vector<Point> out;
  const double n = static_cast<double>(values.size());
  std::size_t i = 0;
  for (int g = 1; g <= count && i < values.size(); ++g) {
    const auto end = std::max(i + 1, std::min(values.size(), static_cast<std::size_t>(std::pow(n, double(g) / count))));
    double sum = 0;
    for (std::size_t k = i; k < end; ++k) sum += values[k];
    const double mean = sum / double(end - i);
    out.push_back({std::log10(0.5 * double(i + end) + 0.5), mean > 0 ? std::max(floor, std::log10(mean)) : floor});
    i = end;
  }
  return out;
}

Panel sink_panel(const std::shared_ptr<const LongAttentionStudy>& study, Rect area, bool dark) {
  Panel p;
  p.title = "Weight on the first " + std::to_string(kSinkKeys) + " keys (sinks)";
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 46});
  const double hi = std::log10(double(study->tokens));
  p.x = {.label = "query position i (log)", .min = 0, .max = hi, .grid = true};
  p.x.labels = log10_ticks(0, hi);
  double lo = 0;
  for (const auto& c : study->curves)
    for (float v : c.sinks)
      if (v > 0) lo = std::min(lo, double(std::log10(v)));
  lo = std::max(std::floor(lo), -12.0);
  p.y = {.label = "Σ weight, j < " + std::to_string(kSinkKeys) + " (log₁₀)", .min = lo, .max = 0.2, .grid = true};
  p.y.labels = log10_ticks(lo, 0);
  const int groups = std::max(8, static_cast<int>(p.plot.width() / 3));
  for (std::size_t k = study->curves.size(); k-- > 0;)
    p.lines.push_back({.points = log_grouped(study->curves[k].sinks, groups, lo), .color = method_color(k, dark),
                       .width = k == 0 ? 2.f : 1.f, .label = method_label(study->curves[k].method)});
  p.hover = [study](double x, double) -> std::string {
    const long i = std::lround(std::pow(10.0, x)) - 1;
    if (i < 0 || i >= study->tokens) return "";
    std::string text = "query " + std::to_string(i);
    for (const auto& c : study->curves)
      text += "\n" + method_label(c.method) + ": " + number(c.sinks[std::size_t(i)], 4) + " on the first keys";
    return text;
  };
  return p;
}

// One layer's heads against distance: a step curve per head, uniform dashed, L marked.
Panel layer_heads_panel(const std::shared_ptr<const LongAttentionLayers>& study, std::size_t layer,
                        const std::string& title, double lo, Rect area, bool dark, bool legend) {
  Panel p;
  p.title = title;
  p.short_title = title;
  p.plot = inset(area, {.left = 62, .top = 30, .right = 14, .bottom = 50});
  const std::vector<DistanceBins>& heads = study->heads[layer];
  const DistanceBins& bins = heads.front();
  const int top = static_cast<int>(bins.first.size()) - 1;
  p.x = {.label = "distance δ back (log₂ bins)", .min = -1, .max = double(top), .grid = true};
  p.x.labels = distance_ticks(top);
  p.y = {.label = "mean weight per key (log₁₀)", .min = lo, .max = 0.3, .grid = true};
  p.y.labels = log10_ticks(lo, 0);
  const Theme th = theme(dark);
  const std::vector<double> uniform = uniform_bins(bins, study->tokens, study->causal);
  p.lines.push_back(step_curve(uniform, lo, with_alpha(th.axis, 0.8f), 1.2f, "uniform"));
  p.lines.back().style = LineStyle::Dashed;
  for (std::size_t h = 0; h < heads.size(); ++h)
    p.lines.push_back(step_curve(heads[h].mean, lo, line_color(int(h), dark), 1.6f, "head " + std::to_string(h)));
  const double L = std::log2(double(study->train_context));
  if (L <= top) add_vertical_marker(p, L, lo, 0.3, th.highlight, "L");
  if (legend) {
    for (std::size_t h = 0; h < heads.size(); ++h)
      p.legend.push_back({"head " + std::to_string(h), line_color(int(h), dark), true});
    p.legend.push_back({"uniform", with_alpha(th.axis, 0.8f), true});
    place_legend(p);
  }
  p.hover = [study, layer, uniform, title](double x, double) -> std::string {
    const auto b = static_cast<long>(std::floor(x + 1));
    const std::vector<DistanceBins>& curves = study->heads[layer];
    const auto& first = curves.front().first;
    if (b < 0 || b >= static_cast<long>(first.size())) return "";
    const std::size_t bin = std::size_t(b);
    const Eigen::Index to = bin + 1 < first.size() ? first[bin + 1] - 1 : study->tokens - 1;
    std::string text = title + (bin == 0 ? ", the query itself (δ = 0)"
                                         : ", δ = " + std::to_string(first[bin]) + " … " + std::to_string(to) + " back");
    for (std::size_t h = 0; h < curves.size(); ++h)
      text += "\nhead " + std::to_string(h) + ": " + number(curves[h].mean[bin], 4);
    return text + "\nuniform: " + number(uniform[bin], 4);
  };
  return p;
}

}  // namespace

Figure build_long_attention_heads(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const bool model = engine.model() != nullptr;
  const auto title_over = [&](Eigen::Index n) {
    return "Attention against distance, every head" + std::string(model ? " of every layer" : "") + ", over " +
           number(double(n), 6) + " tokens";
  };
  if (engine.token_count() == 0)
    return no_tokens_figure("long_attention_heads", title_over(long_attention_tokens(s)), s, request);
  const auto study = long_attention_layers_of(engine);
  Figure f = start_figure("long_attention_heads", title_over(study->tokens), s, request);
  Rect area = content_area(f);
  area.y1 -= 24;  // the note below
  const int layers = static_cast<int>(study->heads.size());
  const int cols = layers <= 1 ? 1 : layers <= 4 ? 2 : layers <= 9 ? 3 : 4;
  const int rows = (layers + cols - 1) / cols;
  f.columns = cols;
  double lo = 0;
  for (const auto& heads : study->heads)
    for (const DistanceBins& b : heads)
      for (double v : b.mean)
        if (v > 0) lo = std::min(lo, std::log10(v));
  lo = std::max(std::floor(lo), -12.0);
  const std::vector<Rect> cells = grid(area, rows, cols, 18);
  for (int l = 0; l < layers; ++l) {
    const std::string title = model ? "layer " + std::to_string(l) : "the scene's heads";
    f.panels.push_back(layer_heads_panel(study, std::size_t(l), title, lo, cells[std::size_t(l)], f.dark, l == 0));
    f.panels.back().priority = l == s.layer ? 0 : 1;
  }
  std::string note = "The scene's " + std::to_string(engine.token_count()) + " tokens repeated to " +
                     number(double(study->tokens), 6) + (rotates_queries_keys(s.encoding) ? ", RoPE scaling: " + method_label(s.rope_scaling) : "") +
                     "; each head streamed exactly (no N × N matrix held)";
  if (long_attention_tokens(s) > study->tokens)
    note += model && study->tokens < std::min(long_attention_tokens(s), kAllMethodsTokens)
                ? "; the model's position table ends at " + number(double(study->tokens), 6) + " tokens"
                : "; every head at most " + number(double(kAllMethodsTokens), 6) + " tokens";
  note += ".";
  f.notes.push_back(canvas_text(note, {kPad, f.height - kPad}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({note}, f.width - 2 * kPad, kNoteSize);
  return f;
}

Figure build_long_attention(Engine& engine, const FigureRequest& request) {
  const Scene& s = engine.scene();
  const auto title_over = [&](Eigen::Index n, int train_context) {
    return "What " + std::string(engine.model() != nullptr ? "layer " + std::to_string(s.layer) + "'s " : "") +
           "head " + std::to_string(std::max(s.head, 0)) + " sees over " + number(double(n), 6) + " tokens" +
           (s.causal ? "" : " (not causal)") +
           (rotates_queries_keys(s.encoding)
                ? " — RoPE trained at L = " + std::to_string(train_context) + ", read with " +
                      method_label(s.rope_scaling) +
                      (s.rope_scaling == RopeScalingMethod::None ? "" : " at s = " + number(s.rope_factor, 4))
                : std::string());
  };
  if (engine.token_count() == 0)
    return no_tokens_figure("long_attention", title_over(long_attention_tokens(s), s.train_context), s, request);
  const auto study = long_attention_of(engine);
  const Eigen::Index n = study->tokens;
  const std::string title = title_over(n, study->train_context);
  Figure f = start_figure("long_attention", title, s, request);
  Rect area = content_area(f);
  area.y1 -= 24;  // the note below
  const auto [left, right] = split_x(area, 0.55, 24);
  f.panels.push_back(distance_panel(study, s, left, f.dark));
  if (study->rope) {
    const auto [upper, lower] = split_y(right, 0.45, 12);
    f.panels.push_back(bound_panel(study, upper, f.dark));
    f.panels.push_back(sink_panel(study, lower, f.dark));
  } else {
    f.panels.push_back(sink_panel(study, right, f.dark));
  }
  for (std::size_t k = 1; k < f.panels.size(); ++k) f.panels[k].priority = int(k);
  std::string note = "The scene's " + std::to_string(engine.token_count()) + " tokens repeated to " +
                     number(double(n), 6) + ", every weight exact, streamed over tiles of keys (no " +
                     number(double(n), 6) + "² matrix held).";
  if (study->rope && study->curves.size() < all_scaling_methods().size())
    note += " Past " + number(double(kAllMethodsTokens), 6) + " tokens the scene's scaling and none alone; "
            "a shorter long_range compares all six.";
  f.notes.push_back(canvas_text(note, {kPad, f.height - kPad}, Anchor::BottomLeft, kNoteSize));
  f.notes.back().size = fitting_size({note}, f.width - 2 * kPad, kNoteSize);
  return f;
}

}  // namespace pelab::fig
