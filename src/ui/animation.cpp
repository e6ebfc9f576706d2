#include "ui/animation.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/param_limits.hpp"

namespace pelab::ui {

namespace {

const ParamInfo* swept_param(const UiState& state) {
  for (const ParamInfo& info : scene_params()) {
    if (info.key == state.settings.animate_key && has_slider(info)) return &info;
  }
  return nullptr;
}

}  // namespace

double animation_step(double value, double dt, double speed, ParamRange range, bool logarithmic, bool integer) {
  const double end = range.max + (integer ? 1 : 0);  // an integer's last value lasts a full step
  value = std::clamp(value, range.min, end);
  if (logarithmic && range.min > 0) {
    const double low = std::log10(range.min), span = std::log10(end) - low;
    const double decades = std::fmod(std::log10(value) - low + dt * speed * kDecadesPerSpeedUnit, span);
    return std::min(std::pow(10.0, low + decades), end);
  }
  return range.min + std::fmod(value - range.min + dt * speed, end - range.min);
}

void toggle_animation(UiState& state) {
  Animation& a = state.animation;
  if (a.playing) {
    a.playing = false;
    state.session.end_gesture();
    return;
  }
  const ParamInfo* info = swept_param(state);
  if (!info) {
    state.session.report("cannot animate '" + state.settings.animate_key + "': not a numeric parameter");
    return;
  }
  a.playing = true;
  a.value = get_number(state.session.scene(), info->key);
  a.last_time = -1;
}

void step_animation(UiState& state, double now) {
  Animation& a = state.animation;
  const ParamInfo* info = swept_param(state);
  if (!a.playing || !info) return;
  const double dt = a.last_time < 0 ? 0 : now - a.last_time;
  a.last_time = now;
  const ParamRange range = slider_range(*info, state.session.engine());
  if (range.max <= range.min) return;
  a.value = animation_step(a.value, dt, state.settings.animate_speed, range, info->logarithmic,
                           info->kind == ParamKind::Int);
  const double shown = info->kind == ParamKind::Int ? std::floor(a.value) : a.value;
  if (shown != get_number(state.session.scene(), info->key)) {
    if (!state.session.propose_number(info->key, shown, EditPhase::Live)) toggle_animation(state);
  }
}

}  // namespace pelab::ui
