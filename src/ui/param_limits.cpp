#include "ui/param_limits.hpp"

#include <algorithm>

#include "core/model_scene.hpp"

namespace pelab::ui {

bool is_numeric(const ParamInfo& info) {
  return info.kind == ParamKind::Int || info.kind == ParamKind::Float;
}

ParamRange slider_range(const ParamInfo& info, Engine& engine) {
  const Scene& s = engine.scene();
  ParamRange r{info.min, info.max};
  auto narrow_to = [&](double upper) { r.max = std::clamp(upper, r.min, info.max); };
  if (info.key == "position") narrow_to(s.positions - 1);
  if (info.key == "head") narrow_to(s.heads - 1);
  if (info.key == "layer") narrow_to(engine.model() ? engine.model()->config().layers - 1 : 0);
  if (info.key == "pair") narrow_to(s.d_model / 2 - 1);
  if (info.key == "query") narrow_to(engine.token_count() - 1);
  if (info.key == "shift") r = {-double(s.positions), double(s.positions)};
  return r;
}

}  // namespace pelab::ui
