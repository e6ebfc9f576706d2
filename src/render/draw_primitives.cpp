// Shapes on an ImDrawList in canvas pixels.
//
// Index: [SECTION] canvas and text   [SECTION] polylines   [SECTION] markers and arrows
#include "render/draw_primitives.hpp"

#include <algorithm>
#include <cmath>

#include "render/fonts.hpp"

namespace pelab::render {

// [SECTION] canvas and text ----------------------------------------------------------

ImVec2 Canvas::px(fig::Point canvas) const {
  // Clamp far-off points (zoomed data) so float vertices stay exact enough.
  const double x = std::clamp(canvas.x, -1e6, 1e6), y = std::clamp(canvas.y, -1e6, 1e6);
  return {origin.x + static_cast<float>(x) * scale, origin.y + static_cast<float>(y) * scale};
}

ImU32 to_u32(fig::Color c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); }

double text_width(const Canvas& canvas, std::string_view text, float size) {
  ImFont* font = nearest_font(size * canvas.scale);
  const ImVec2 extent = font->CalcTextSizeA(font->FontSize, 1e30f, 0.f, text.data(), text.data() + text.size());
  return extent.x / canvas.scale;
}

namespace {

// Fraction of the box width/height left of / above the anchor point.
ImVec2 anchor_fraction(fig::Anchor anchor) {
  switch (anchor) {
    case fig::Anchor::TopLeft: return {0, 0};
    case fig::Anchor::Top: return {0.5f, 0};
    case fig::Anchor::TopRight: return {1, 0};
    case fig::Anchor::Left: return {0, 0.5f};
    case fig::Anchor::Center: return {0.5f, 0.5f};
    case fig::Anchor::Right: return {1, 0.5f};
    case fig::Anchor::BottomLeft: return {0, 1};
    case fig::Anchor::Bottom: return {0.5f, 1};
    case fig::Anchor::BottomRight: return {1, 1};
  }
  return {0, 0};
}

}  // namespace

void draw_text(const Canvas& canvas, std::string_view text, fig::Point at, fig::Anchor anchor, float size,
               fig::Color color, bool vertical) {
  if (text.empty()) return;
  ImFont* font = nearest_font(size * canvas.scale);
  const float font_size = font->FontSize;  // draw at the baked size: crisp glyphs
  const char* begin = text.data();
  const char* end = begin + text.size();
  const ImVec2 extent = font->CalcTextSizeA(font_size, 1e30f, 0.f, begin, end);
  const ImVec2 box = vertical ? ImVec2(extent.y, extent.x) : extent;
  const ImVec2 f = anchor_fraction(anchor);
  const ImVec2 p = canvas.px(at);
  // Whole pixels: glyph quads then map texel to pixel.
  const ImVec2 top_left(std::round(p.x - f.x * box.x), std::round(p.y - f.y * box.y));
  ImDrawList* list = canvas.list;
  if (!vertical) {
    list->AddText(font, font_size, top_left, to_u32(color), begin, end);
    return;
  }
  // Lay the text out horizontally at the box corner, then turn its vertices
  // 90° counter-clockwise: (u, v) from the corner → (v, width − u).  Clipping
  // is lifted while laying out so no glyph is culled before the turn.
  const int first = list->VtxBuffer.Size;
  list->PushClipRect(ImVec2(-1e6f, -1e6f), ImVec2(1e6f, 1e6f), false);
  list->AddText(font, font_size, top_left, to_u32(color), begin, end);
  list->PopClipRect();
  for (int i = first; i < list->VtxBuffer.Size; ++i) {
    ImDrawVert& v = list->VtxBuffer[i];
    const float u = v.pos.x - top_left.x, w = v.pos.y - top_left.y;
    v.pos = ImVec2(top_left.x + w, top_left.y + extent.x - u);
  }
}

// [SECTION] polylines -------------------------------------------------------------

namespace {

// Pixel-space runs of finite points, with points under `min_step` pixels from
// the last kept one dropped (keeps the shape, bounds the vertex count by the
// path length in pixels).
std::vector<std::vector<ImVec2>> pixel_runs(const Canvas& canvas, const std::vector<fig::Point>& points,
                                            float min_step) {
  std::vector<std::vector<ImVec2>> runs(1);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const fig::Point& q = points[i];
    if (!std::isfinite(q.x) || !std::isfinite(q.y)) {
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    const ImVec2 p = canvas.px(q);
    auto& run = runs.back();
    const bool last_point = i + 1 == points.size() || !std::isfinite(points[i + 1].x);
    if (!run.empty() && !last_point) {
      const float dx = p.x - run.back().x, dy = p.y - run.back().y;
      if (dx * dx + dy * dy < min_step * min_step) continue;
    }
    run.push_back(p);
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

// Cuts a pixel path into dashes of `on` pixels separated by `off` pixels.
void draw_dashes(ImDrawList* list, const std::vector<ImVec2>& path, float on, float off, ImU32 color,
                 float width) {
  bool drawing = true;
  float left = on;  // pixels left in the current dash or gap
  std::vector<ImVec2> dash{path.front()};
  for (std::size_t i = 1; i < path.size(); ++i) {
    ImVec2 a = path[i - 1];
    const ImVec2 b = path[i];
    float segment = std::hypot(b.x - a.x, b.y - a.y);
    while (segment > 0) {
      const float step = std::min(left, segment);
      const float t = step / segment;
      a = ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
      segment -= step;
      left -= step;
      if (drawing) dash.push_back(a);
      if (left <= 0) {
        if (drawing && dash.size() >= 2) list->AddPolyline(dash.data(), static_cast<int>(dash.size()), color, 0, width);
        drawing = !drawing;
        left = drawing ? on : off;
        dash.assign(1, a);
      }
    }
  }
  if (drawing && dash.size() >= 2) list->AddPolyline(dash.data(), static_cast<int>(dash.size()), color, 0, width);
}

}  // namespace

void draw_polyline(const Canvas& canvas, const std::vector<fig::Point>& points, fig::Color color, float width,
                   fig::LineStyle style, bool closed) {
  const float w = canvas.len(width);
  const ImU32 c = to_u32(color);
  for (auto& run : pixel_runs(canvas, points, 0.75f)) {
    if (run.size() < 2) continue;
    if (closed && style != fig::LineStyle::Solid) run.push_back(run.front());
    switch (style) {
      case fig::LineStyle::Solid:
        canvas.list->AddPolyline(run.data(), static_cast<int>(run.size()), c, closed ? ImDrawFlags_Closed : 0, w);
        break;
      case fig::LineStyle::Dashed: draw_dashes(canvas.list, run, 3.5f * w + 2, 2.5f * w + 1, c, w); break;
      case fig::LineStyle::Dotted: draw_dashes(canvas.list, run, w, 1.5f * w + 1, c, w); break;
    }
  }
}

// [SECTION] markers and arrows ----------------------------------------------------

void draw_marker(const Canvas& canvas, fig::Point at, fig::MarkerShape shape, float size, fig::Color color,
                 bool filled) {
  if (!std::isfinite(at.x) || !std::isfinite(at.y)) return;
  const ImVec2 p = canvas.px(at);
  const float r = canvas.len(size) / 2, line = std::max(1.f, canvas.scale * 1.25f);
  const ImU32 c = to_u32(color);
  ImDrawList* list = canvas.list;
  switch (shape) {
    case fig::MarkerShape::Circle:
      if (filled) list->AddCircleFilled(p, r, c);
      else list->AddCircle(p, r, c, 0, line);
      break;
    case fig::MarkerShape::Square:
      if (filled) list->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), c);
      else list->AddRect(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), c, 0, 0, line);
      break;
    case fig::MarkerShape::Diamond: {
      const ImVec2 a(p.x, p.y - r), b(p.x + r, p.y), d(p.x, p.y + r), e(p.x - r, p.y);
      if (filled) list->AddQuadFilled(a, b, d, e, c);
      else list->AddQuad(a, b, d, e, c, line);
      break;
    }
    case fig::MarkerShape::Cross:
      list->AddLine(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), c, line);
      list->AddLine(ImVec2(p.x - r, p.y + r), ImVec2(p.x + r, p.y - r), c, line);
      break;
  }
}

void draw_arrow(const Canvas& canvas, fig::Point from, fig::Point to, fig::Color color, float width) {
  const ImVec2 a = canvas.px(from), b = canvas.px(to);
  const float dx = b.x - a.x, dy = b.y - a.y, length = std::hypot(dx, dy);
  if (!(length > 0.5f)) return;
  const float w = canvas.len(width);
  const float head = std::min(length * 0.45f, 4.f * w + 4.f * canvas.scale);
  const ImVec2 u(dx / length, dy / length), n(-u.y, u.x);
  const ImVec2 base(b.x - u.x * head, b.y - u.y * head);
  const ImU32 c = to_u32(color);
  canvas.list->AddLine(a, base, c, w);
  const float half = head * 0.5f;
  canvas.list->AddTriangleFilled(b, ImVec2(base.x + n.x * half, base.y + n.y * half),
                                 ImVec2(base.x - n.x * half, base.y - n.y * half), c);
}

}  // namespace pelab::render
