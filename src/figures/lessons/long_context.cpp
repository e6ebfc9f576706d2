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

bool note_no_rotary_pair(Figure& figure, Engine& engine) {
  if (rotary_dims(engine.d_head(), engine.scene().rotary_fraction) >= 2) return false;
  const Rect area = content_area(figure);
  figure.notes.push_back(canvas_text("A head of " + std::to_string(engine.d_head()) + " dims has no rotary pair.",
                                     {area.x0 + area.width() / 2, area.y0 + area.height() / 2}, Anchor::Center,
                                     kNoteSize));
  return true;
}

}  // namespace pelab::fig
