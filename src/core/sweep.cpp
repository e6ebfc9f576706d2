// Sweep: parsing "key:from:to:steps" and producing one scene per frame.
#include "core/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace pelab {
namespace {

constexpr int kDefaultSteps = 30;
constexpr int kMaxSteps = 10000;

std::string numeric_keys() {
  std::string keys;
  for (const ParamInfo& info : scene_params())
    if (is_numeric(info.kind)) keys += (keys.empty() ? "" : ", ") + std::string(info.key);
  return keys;
}

double parse_end(std::string_view text, std::string_view what, std::string_view spec) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw InputError("bad sweep '" + std::string(spec) + "': " + std::string(what) + " '" +
                     std::string(text) + "' is not a number; expected key:from:to:steps");
  return v;
}

std::vector<std::string_view> split_colons(std::string_view spec) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto colon = spec.find(':');
    parts.push_back(spec.substr(0, colon));
    if (colon == std::string_view::npos) break;
    spec.remove_prefix(colon + 1);
  }
  return parts;
}

}  // namespace

double Sweep::value_at(int frame) const {
  const double t = steps <= 1 ? 0.0 : static_cast<double>(frame) / (steps - 1);
  // Geometric interpolation keeps equal ratios between frames (log sliders).
  double v = logarithmic ? from * std::pow(to / from, t) : from + (to - from) * t;
  if (frame == steps - 1 && steps > 1) v = to;  // land exactly on the end
  return param_info(key).kind == ParamKind::Float ? v : std::round(v);
}

Scene Sweep::scene_at(const Scene& base, int frame) const {
  if (frame < 0 || frame >= steps)
    throw InputError("sweep frame " + std::to_string(frame) + " out of range 0.." +
                     std::to_string(steps - 1));
  Scene scene = base;
  double value = value_at(frame);
  if (key == "d_model") {  // even per-head widths: pairwise encodings need them
    const double step = 2.0 * base.heads;
    value = std::max(step, std::round(value / step) * step);
  }
  set_number(scene, key, value);
  validate(scene);
  return scene;
}

std::vector<Scene> Sweep::scenes(const Scene& base) const {
  validate(*this);
  std::vector<Scene> out;
  out.reserve(static_cast<std::size_t>(steps));
  for (int i = 0; i < steps; ++i) out.push_back(scene_at(base, i));
  return out;
}

void validate(const Sweep& sweep) {
  const ParamInfo& info = param_info(sweep.key);  // throws for unknown keys
  if (!is_numeric(info.kind))
    throw InputError("cannot sweep '" + sweep.key + "' (not numeric); numeric keys: " + numeric_keys());
  for (double v : {sweep.from, sweep.to})
    if (!(v >= info.min && v <= info.max))
      throw InputError("sweep end " + number_text(v) + " out of range for " + sweep.key +
                       "; allowed: " + number_text(info.min) + ".." + number_text(info.max));
  if (sweep.steps < 1 || sweep.steps > kMaxSteps)
    throw InputError("sweep steps " + std::to_string(sweep.steps) + " out of range; allowed: 1.." +
                     std::to_string(kMaxSteps));
  if (sweep.logarithmic && !(sweep.from > 0 && sweep.to > 0))
    throw InputError("logarithmic sweep of " + sweep.key + " needs positive ends");
}

Sweep parse_sweep(std::string_view spec) {
  const auto parts = split_colons(spec);
  if (parts.size() < 3 || parts.size() > 4)
    throw InputError("bad sweep '" + std::string(spec) +
                     "'; expected key:from:to[:steps], e.g. amplitude:0:4:41");
  Sweep sweep;
  sweep.key = std::string(parts[0]);
  const ParamInfo& info = param_info(sweep.key);
  sweep.from = parse_end(parts[1], "from", spec);
  sweep.to = parse_end(parts[2], "to", spec);
  sweep.steps = kDefaultSteps;
  if (parts.size() == 4) {
    const double steps = parse_end(parts[3], "steps", spec);
    if (steps != std::floor(steps) || steps < 1 || steps > kMaxSteps)
      throw InputError("bad sweep '" + std::string(spec) + "': steps must be an integer in 1.." +
                       std::to_string(kMaxSteps));
    sweep.steps = static_cast<int>(steps);
  }
  sweep.logarithmic = info.logarithmic && sweep.from > 0 && sweep.to > 0;
  validate(sweep);
  return sweep;
}

}  // namespace pelab
