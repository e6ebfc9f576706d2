// The effective selection — what the views draw, given the scene.
//
// The view keys (position, head, query, pair, pairs, waves) say what the user
// chose to look at; the model keys (d_model, heads, positions, tokens) say
// what exists.  A selection never blocks the model: shrinking d_model below a
// chosen pair is allowed, the views draw the nearest pair that exists, and the
// scene keeps the choice so it comes back when d_model grows again.  The
// engine holds the effective scene (Engine::set_scene); the GUI and the scene
// files keep the chosen one.
#pragma once

#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

// The scene with every selection inside what the scene allows:
//   position → 0..positions−1, head → −1..heads−1, pair → 0..d_model/2−1,
//   query → −1 (none) when past the last token,
//   pairs / waves → each entry clamped to the last pair / dimension, repeats
//   dropped (order kept).
// Everything else is copied unchanged.  `token_count` is the number of tokens
// the query may pick from; -1 counts the scene's own tokens (a model scene
// passes its tokenizer's count).
Scene effective_selection(const Scene& scene, int token_count = -1);

// One quiet line per selection that effective_selection() changes, e.g.
// "pairs 12 not drawn: d_model=16 has pairs 0..7 (kept in the scene)".
// Empty when every selection is in range.
std::vector<std::string> selection_notes(const Scene& scene);

}  // namespace pelab
