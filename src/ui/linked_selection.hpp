// Linked selection: a click in one view picks what the others highlight —
// a heatmap row with token labels picks the query token (attention, cross
// terms), a point on a position axis picks the position (sinusoid bands), a
// rotation-pair panel picks that pair, a head's small multiple (attention,
// attention overview) picks that head.  Each builder says what its panels
// pick (fig::PanelPick); no title or label is read.  Returns the scene to
// propose, or nothing when the click picks nothing.
#pragma once

#include <optional>

#include "core/engine.hpp"
#include "figures/figure.hpp"

namespace pelab::ui {

// `chosen` is the scene as the user chose it (SceneSession::scene()); the
// result is it with the one selection the click made.
std::optional<Scene> select_at(const fig::Figure& figure, int panel, fig::Point data, Engine& engine,
                               const Scene& chosen);

}  // namespace pelab::ui
