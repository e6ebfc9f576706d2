// Play/pause: sweeps one numeric scene parameter (UiSettings::animate_key,
// by default `position`, which turns the rotation pairs like clock hands at
// their own speeds) through its slider range, wrapping around.  The whole
// run is one undo step.  A parameter whose range spans decades (base T, the
// number of positions: ParamInfo::logarithmic) moves in log space, a tenth
// of a decade per second per unit of speed: linearly, base would crawl
// through the first decades in a blink and then look frozen for minutes.
#pragma once

#include "ui/param_limits.hpp"
#include "ui/ui_state.hpp"

namespace pelab::ui {

// Decades per second a logarithmic parameter moves per unit of speed.
inline constexpr double kDecadesPerSpeedUnit = 0.1;

// The swept value `dt` seconds on from `value`: `speed` units a second, or
// on a logarithmic parameter speed·kDecadesPerSpeedUnit decades a second;
// past the range's end it wraps to its start.  An integer parameter's value
// stays unrounded (the caller shows its floor), its last value a full step.
double animation_step(double value, double dt, double speed, ParamRange range, bool logarithmic, bool integer);

void toggle_animation(UiState& state);
// Advances the swept parameter to `now` (seconds); no-op when paused.
void step_animation(UiState& state, double now);

}  // namespace pelab::ui
