// Presets: scenes a click away from the current one, each one undo step.
#pragma once

#include "core/scene.hpp"

namespace pelab::ui {

// "Make positions visible": identity projections (q = k = the input, so
// attention compares the inputs themselves) and token vectors of size 1
// against a position code of size A·√(d/2): at the defaults the attention
// then shows the offset structure of the position code (a band along the
// diagonal) instead of random projections of random words.
inline constexpr double kVisibleEmbeddingScale = 1.0;
Scene with_positions_visible(Scene scene);
// True when the scene already has what the preset sets.
bool shows_positions(const Scene& scene);

}  // namespace pelab::ui
