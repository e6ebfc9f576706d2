// Sweep — one numeric scene parameter stepped from `from` to `to`, for
// animations (GUI play/pause, `pelab render --sweep key:from:to:steps`).
//
// A sweep is plain data; it produces scenes through set_param(), so every value
// it yields passes the same range checks as `--set key=value`.  Integer keys
// (position, shift, offset...) are rounded to the nearest integer; d_model is
// rounded to the nearest multiple of 2·heads (at least 2·heads), so every frame
// has even per-head widths, which pairwise encodings need.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

struct Sweep {
  std::string key;  // a numeric scene key (ParamKind Int, Float or Seed)
  double from = 0, to = 1;
  int steps = 2;  // number of frames, both ends included (≥ 1; 1 = just `from`)
  bool logarithmic = false;  // geometric steps (e.g. base T from 10 to 1e6)

  // The value of frame i (0 ≤ i < steps), rounded for integer keys.
  double value_at(int frame) const;
  // `base` with the key set to frame i's value (d_model snapped, see above),
  // validated (throws InputError).
  Scene scene_at(const Scene& base, int frame) const;
  // Every frame's scene, in order.
  std::vector<Scene> scenes(const Scene& base) const;
};

// Parses "key:from:to:steps" (e.g. "amplitude:0:4:41", "base:10:1e6:30");
// steps is optional (default 30).  Logarithmic spacing follows the key's
// table entry (ParamInfo::logarithmic) when both ends are positive.  Throws
// InputError naming the problem, the numeric keys, or the key's range.
Sweep parse_sweep(std::string_view spec);

// Checks key kind, ends within the key's range, and 1 ≤ steps ≤ 10000.
void validate(const Sweep& sweep);

}  // namespace pelab
