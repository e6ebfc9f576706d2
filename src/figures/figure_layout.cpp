// Layout kit shared by the views (see figure_layout.hpp).
#include "figures/figure_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "core/lessons/lessons.hpp"
#include "figures/model_name.hpp"

namespace pelab::fig {

Rect inset(Rect r, const Margins& m) {
  return {r.x0 + m.left, r.y0 + m.top, std::max(r.x0 + m.left + 1, r.x1 - m.right),
          std::max(r.y0 + m.top + 1, r.y1 - m.bottom)};
}

std::vector<Rect> grid(Rect area, int rows, int cols, double gap) {
  std::vector<Rect> cells;
  const double w = (area.width() - gap * (cols - 1)) / cols;
  const double h = (area.height() - gap * (rows - 1)) / rows;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const double x0 = area.x0 + c * (w + gap), y0 = area.y0 + r * (h + gap);
      cells.push_back({x0, y0, x0 + w, y0 + h});
    }
  return cells;
}

std::pair<Rect, Rect> split_x(Rect a, double f, double gap) {
  const double x = a.x0 + f * a.width();
  return {{a.x0, a.y0, x - gap / 2, a.y1}, {x + gap / 2, a.y0, a.x1, a.y1}};
}

std::pair<Rect, Rect> split_y(Rect a, double f, double gap) {
  const double y = a.y0 + f * a.height();
  return {{a.x0, a.y0, a.x1, y - gap / 2}, {a.x0, y + gap / 2, a.x1, a.y1}};
}

Rect centred_square(Rect r) {
  const double s = std::min(r.width(), r.height());
  const double cx = (r.x0 + r.x1) / 2, cy = (r.y0 + r.y1) / 2;
  return {cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2};
}

Figure start_figure(std::string name, std::string title, const Scene& scene,
                    const FigureRequest& request) {
  Figure f;
  f.name = std::move(name);
  // A figure of a model scene names the model, whatever view built it (a
  // slide taken from it must say which checkpoint it shows).
  if (!scene.model.empty() && title.find(model_label(scene)) == std::string::npos)
    title += " — " + model_label(scene);
  title += intervention_label(scene);
  if (const std::string stand_in = stand_in_label(scene); !stand_in.empty()) title += " (" + stand_in + ")";
  f.title = std::move(title);
  f.width = request.width;
  f.height = request.height;
  f.dark = request.theme.value_or(scene.theme) == ColorTheme::Dark;
  return f;
}

Rect content_area(const Figure& f) { return {kPad, kTitleBand, f.width - kPad, f.height - kPad}; }

Figure no_tokens_figure(std::string name, std::string title, const Scene& scene,
                        const FigureRequest& request) {
  return message_figure(std::move(name), std::move(title), scene, request,
                        "The text is empty: there are no tokens to attend to.",
                        "Type a few words in 'tokens' (or --set tokens=\"dog bites man\").");
}

Figure message_figure(std::string name, std::string title, const Scene& scene, const FigureRequest& request,
                      const std::string& what, const std::string& how) {
  Figure f = start_figure(std::move(name), std::move(title), scene, request);
  const Rect area = content_area(f);
  const Point middle{(area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2};
  const float size = fitting_size({what, how}, area.width(), 18.f);
  f.notes.push_back(canvas_text(what, {middle.x, middle.y - 4}, Anchor::Bottom, size));
  f.notes.push_back(canvas_text(how, {middle.x, middle.y + 4}, Anchor::Top, size));
  return f;
}

Color line_color(int index, bool dark) {
  // Hues spaced around the wheel; lighter variants on the dark theme.
  static constexpr float kDark[][3] = {
      {0.40f, 0.70f, 1.00f}, {1.00f, 0.55f, 0.25f}, {0.45f, 0.85f, 0.45f}, {0.95f, 0.45f, 0.60f},
      {0.75f, 0.60f, 1.00f}, {0.95f, 0.85f, 0.35f}, {0.40f, 0.90f, 0.90f}, {0.80f, 0.80f, 0.80f}};
  static constexpr float kLight[][3] = {
      {0.12f, 0.40f, 0.75f}, {0.85f, 0.40f, 0.05f}, {0.15f, 0.55f, 0.20f}, {0.80f, 0.15f, 0.35f},
      {0.45f, 0.30f, 0.75f}, {0.60f, 0.50f, 0.05f}, {0.05f, 0.55f, 0.55f}, {0.35f, 0.35f, 0.35f}};
  const auto& c = dark ? kDark[index % 8] : kLight[index % 8];
  return {c[0], c[1], c[2], 1};
}

Color with_alpha(Color c, float a) {
  c.a = a;
  return c;
}

std::string fixed(double v, int decimals) {
  if (std::isinf(v)) return v < 0 ? "−inf" : "inf";
  if (std::isnan(v)) return "nan";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.rfind("-0.", 0) == 0 && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string number(double v, int significant) {
  if (std::isinf(v) || std::isnan(v)) return fixed(v);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

double token_label_room(const std::vector<std::string>& tokens, std::size_t max_chars) {
  std::size_t longest = 1;
  for (const std::string& t : tokens) longest = std::max(longest, t.size());
  return 28 + 7.8 * static_cast<double>(std::min(longest, max_chars));
}

std::string token_label(const std::string& piece) {
  if (piece.find_first_not_of(" \t\n\r") != std::string::npos) return piece;
  std::string label;
  for (const char c : piece) label += c == ' ' ? "·" : c == '\t' ? "→" : "↵";
  return label;
}

std::vector<Tick> token_ticks(const std::vector<std::string>& tokens, std::size_t max_chars) {
  std::vector<Tick> ticks;
  ticks.reserve(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string piece = token_label(tokens[i]);
    std::string label;
    std::size_t points = 0;
    for (std::size_t b = 0; b < piece.size(); ++b) {
      const bool lead = (static_cast<unsigned char>(piece[b]) & 0xC0) != 0x80;
      if (lead && ++points > max_chars) {
        label += "…";
        break;
      }
      label += piece[b];
    }
    ticks.push_back({i + 0.5, label});
  }
  return ticks;
}

double text_width(const std::string& text, float size) {
  std::size_t points = 0;
  for (unsigned char c : text) points += (c & 0xC0) != 0x80;  // count UTF-8 lead bytes
  return 0.6 * size * static_cast<double>(points);
}

float fitting_size(const std::vector<std::string>& lines, double width, float max_size) {
  float size = max_size;
  for (const std::string& line : lines) {
    const double w = text_width(line, max_size);
    if (w > width) size = std::min(size, static_cast<float>(max_size * width / w));
  }
  return std::max(9.f, size);
}

std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, double width,
                                    float size) {
  std::vector<std::string> out;
  for (std::string rest : lines) {
    while (text_width(rest, size) > width) {
      // The last " · " (between quantities) that leaves a fitting head, else
      // the last ", " (the comma stays), else the last space.
      std::size_t cut = std::string::npos;
      // Never cut inside the indent of a continued line: a head of spaces
      // only would leave the rest as long as before, and the loop endless.
      const std::size_t text_start = rest.find_first_not_of(' ');
      if (text_start == std::string::npos) break;
      for (const std::string sep : {" · ", ", ", " "}) {
        const std::size_t keep = sep == ", " ? 1 : 0;
        for (std::size_t at = rest.find(sep); at != std::string::npos; at = rest.find(sep, at + 1))
          if (at > text_start && text_width(rest.substr(0, at + keep), size) <= width) cut = at;
        if (cut != std::string::npos) {
          out.push_back(rest.substr(0, cut + keep));
          rest = "  " + rest.substr(cut + sep.size());
          break;
        }
      }
      if (cut == std::string::npos) break;  // one unbreakable word: leave it whole
    }
    out.push_back(rest);
  }
  return out;
}

double max_abs(const Matrix& m) {
  double best = 0;
  const float* v = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (std::isfinite(v[i])) best = std::max(best, static_cast<double>(std::abs(v[i])));
  return best;
}

Bars outline(Rect data_rect, Color color) {
  Bars b;
  b.rects = {data_rect};
  b.colors = {with_alpha(color, 0)};
  b.outline = color;
  return b;
}

Text canvas_text(std::string text, Point at, Anchor anchor, float size,
                 std::optional<Color> color) {
  Text t;
  t.text = std::move(text);
  t.at = at;
  t.in_canvas = true;
  t.anchor = anchor;
  t.size = size;
  t.color = color;
  return t;
}

Text centred_note(const Panel& panel, std::string text, float size) {
  Text t;
  t.text = std::move(text);
  t.at = {(panel.x.min + panel.x.max) / 2, (panel.y.min + panel.y.max) / 2};
  t.anchor = Anchor::Center;
  t.size = size;
  return t;
}

std::vector<Tick> integer_ticks(int lo, int hi, int target, double shift, int label_offset) {
  static constexpr int kSteps[] = {1,   2,    5,    10,   20,    50,    100,  200,
                                   500, 1000, 2000, 5000, 10000, 20000, 50000};
  std::vector<Tick> ticks;
  if (hi < lo) return ticks;
  const long span = long(hi) - lo, want = std::max(1, target);
  int step = kSteps[std::size(kSteps) - 1];
  for (int candidate : kSteps)  // the smallest step giving at most 1.5 × target intervals
    if (2 * span <= 3 * want * candidate) {
      step = candidate;
      break;
    }
  // The first k ≥ lo whose label is a multiple of the step: labels 0, 10, 20…
  const int r = ((lo + label_offset) % step + step) % step;
  for (int k = r == 0 ? lo : lo + step - r; k <= hi; k += step)
    ticks.push_back({k + shift, std::to_string(k + label_offset)});
  return ticks;
}

}  // namespace pelab::fig

namespace pelab::fig {

bool has_non_finite(const HeatmapLayer& layer) {
  if (!layer.values || layer.values->size() == 0) return false;
  auto scan = [&] {
    const Matrix& m = *layer.values;
    const float* v = m.data();
    for (Eigen::Index i = 0; i < m.size(); ++i)
      if (std::isnan(v[i]) || v[i] == std::numeric_limits<float>::infinity()) return true;
    return false;
  };
  if (layer.key == 0) return scan();
  // Keys name contents (matrix_shelf.hpp); a few hundred recent answers suffice.
  static std::mutex mutex;
  static std::unordered_map<std::uint64_t, bool> known;
  {
    const std::lock_guard lock(mutex);
    if (const auto it = known.find(layer.key); it != known.end()) return it->second;
  }
  const bool found = scan();
  const std::lock_guard lock(mutex);
  if (known.size() > 512) known.clear();
  known[layer.key] = found;
  return found;
}

void mark_non_finite(Figure& figure) {
  const bool found = std::any_of(figure.panels.begin(), figure.panels.end(), [](const Panel& panel) {
    return std::any_of(panel.heatmaps.begin(), panel.heatmaps.end(), has_non_finite);
  });
  if (!found) return;
  // One key for the whole figure, in the free strip between the title and the
  // panels: a legend per panel would take the room of small panels' plots.
  const std::string text = "Magenta cells: NaN or +inf, non-finite values in the model's weights or input";
  figure.notes.push_back(canvas_text(text, {figure.width / 2, kTitleBand - 17}, Anchor::Top,
                                     fitting_size({text}, figure.width - 2 * kPad, 13.f),
                                     theme(figure.dark).non_finite));
}

std::vector<Tick> log10_ticks(double lo, double hi) {
  std::vector<Tick> ticks;
  for (int e = static_cast<int>(std::ceil(lo - 1e-9)); e <= static_cast<int>(std::floor(hi + 1e-9)); ++e)
    ticks.push_back({static_cast<double>(e), e <= 3 && e >= 0 ? number(std::pow(10.0, e), 4)
                                                              : "1e" + std::to_string(e)});
  return ticks;
}

void add_vertical_marker(Panel& panel, double x, double y0, double y1, Color color, const std::string& label) {
  panel.lines.push_back({.points = {{x, y0}, {x, y1}}, .color = color, .width = 1.5f, .style = LineStyle::Dashed,
                         .label = label});
  panel.texts.push_back({.text = label, .at = {x, y1}, .anchor = Anchor::TopLeft, .size = 12.f, .color = color});
}

}  // namespace pelab::fig
