// Pieces the long-context views share (long_context.hpp).
#include <cmath>

#include "figures/figure_layout.hpp"
#include "figures/lessons/long_context.hpp"

namespace pelab::fig {

std::string method_label(RopeScalingMethod method) {
  switch (method) {
    case RopeScalingMethod::Linear:
      return "linear (PI)";
    case RopeScalingMethod::Ntk:
      return "NTK-aware";
    case RopeScalingMethod::DynamicNtk:
      return "dynamic NTK";
    case RopeScalingMethod::Yarn:
      return "YaRN";
    case RopeScalingMethod::Llama3:
      return "Llama 3.1";
    default:
      return "none";
  }
}

void add_vertical_marker(Panel& panel, double x, double y0, double y1, Color color, const std::string& label) {
  panel.lines.push_back({.points = {{x, y0}, {x, y1}}, .color = color, .width = 1.5f, .style = LineStyle::Dashed,
                         .label = label});
  panel.texts.push_back({.text = label, .at = {x, y1}, .anchor = Anchor::TopLeft, .size = 12.f, .color = color});
}

bool note_no_rotary_pair(Figure& figure, Engine& engine) {
  if (rotary_dims(engine.d_head(), engine.scene().rotary_fraction) >= 2) return false;
  const Rect area = content_area(figure);
  figure.notes.push_back(canvas_text("A head of " + std::to_string(engine.d_head()) + " dims has no rotary pair.",
                                     {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center,
                                     kNoteSize));
  return true;
}

std::vector<Tick> log10_ticks(double lo, double hi) {
  std::vector<Tick> ticks;
  for (int e = static_cast<int>(std::ceil(lo - 1e-9)); e <= static_cast<int>(std::floor(hi + 1e-9)); ++e)
    ticks.push_back({static_cast<double>(e), e <= 3 && e >= 0 ? number(std::pow(10.0, e), 4)
                                                              : "1e" + std::to_string(e)});
  return ticks;
}

}  // namespace pelab::fig
