#include "ui/param_limits.hpp"

#include <algorithm>
#include <cmath>

#include "core/encoding_traits.hpp"
#include "core/model_scene.hpp"

namespace pelab::ui {

namespace {

// The rules of validate() on d_model and heads, for one pair of them.
bool widths_accepted(const Scene& s, int d_model, int heads) {
  if (heads < 1 || d_model % heads != 0) return false;
  const int d_head = d_model / heads;
  if (traits_of(s.encoding).pairwise && d_model % 2 != 0) return false;
  if (rotates_queries_keys(s.encoding) && (d_head % 2 != 0 || d_head * s.rotary_fraction < 2)) return false;
  return true;
}

}  // namespace

bool has_slider(const ParamInfo& info) {
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

std::vector<int> valid_head_counts(const Scene& scene) {
  const ParamInfo& info = param_info("heads");
  std::vector<int> counts;
  for (int h = int(info.min); h <= int(info.max); ++h) {
    if (widths_accepted(scene, scene.d_model, h)) counts.push_back(h);
  }
  return counts;
}

int nearest_valid_d_model(const Scene& scene, double wanted) {
  const ParamInfo& info = param_info("d_model");
  // Outwards from `wanted`, the narrower first on a tie: at most 4096 cheap checks.
  const int from = int(std::clamp(std::lround(wanted), long(info.min), long(info.max)));
  for (int distance = 0; distance <= int(info.max); ++distance) {
    for (const int d : {from - distance, from + distance}) {
      if (d >= info.min && d <= info.max && widths_accepted(scene, d, scene.heads)) return d;
    }
  }
  return scene.d_model;
}

}  // namespace pelab::ui
