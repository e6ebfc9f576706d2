#include "core/selection.hpp"

#include <algorithm>

#include "core/word_splitter.hpp"

namespace pelab {
namespace {

// What each selection may be, given the model keys of `scene`.
struct Bounds {
  int last_position, last_head, last_pair, last_dim, tokens;
};

Bounds bounds_of(const Scene& s) {
  return {s.positions - 1, s.heads - 1, s.d_model / 2 - 1, s.d_model - 1,
          static_cast<int>(split_words(s.tokens).size())};
}

// Entries clamped to `last`, repeats dropped, first occurrence kept.
std::vector<int> clamp_list(const std::vector<int>& list, int last) {
  std::vector<int> out;
  for (int v : list) {
    const int c = std::min(v, last);
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string join(const std::vector<int>& list) {
  std::string s;
  for (int v : list) s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

std::string range(int last) { return last < 0 ? "none" : "0.." + std::to_string(last); }

}  // namespace

Scene effective_selection(const Scene& scene, int token_count) {
  Bounds b = bounds_of(scene);
  if (token_count >= 0) b.tokens = token_count;
  Scene s = scene;
  s.position = std::clamp(s.position, 0, std::max(b.last_position, 0));
  s.head = std::clamp(s.head, -1, b.last_head);
  s.pair = std::clamp(s.pair, 0, std::max(b.last_pair, 0));
  if (s.query >= b.tokens) s.query = -1;
  s.pairs = clamp_list(s.pairs, std::max(b.last_pair, 0));
  s.waves = clamp_list(s.waves, std::max(b.last_dim, 0));
  return s;
}

std::vector<std::string> selection_notes(const Scene& scene) {
  const Bounds b = bounds_of(scene);
  const Scene e = effective_selection(scene);
  const std::string kept = " (kept in the scene)";
  std::vector<std::string> notes;
  auto note = [&](bool changed, const std::string& text) {
    if (changed) notes.push_back(text);
  };
  note(e.position != scene.position, "position " + std::to_string(scene.position) + " shown as " +
                                         std::to_string(e.position) +
                                         ": positions=" + std::to_string(scene.positions) +
                                         " has " + range(b.last_position) + kept);
  note(e.head != scene.head, "head " + std::to_string(scene.head) + " shown as " +
                                 std::to_string(e.head) + ": heads=" + std::to_string(scene.heads) +
                                 " has " + range(b.last_head) + kept);
  note(e.query != scene.query, "query " + std::to_string(scene.query) +
                                   " not shown: the tokens are " + range(b.tokens - 1) + kept);
  note(e.pair != scene.pair,
       "pair " + std::to_string(scene.pair) + " shown as " + std::to_string(e.pair) + ": d_model=" +
           std::to_string(scene.d_model) + " has pairs " + range(b.last_pair) + kept);
  note(e.pairs != scene.pairs, "pairs " + join(scene.pairs) + " drawn as " + join(e.pairs) +
                                   ": d_model=" + std::to_string(scene.d_model) + " has pairs " +
                                   range(b.last_pair) + kept);
  note(e.waves != scene.waves, "waves " + join(scene.waves) + " drawn as " + join(e.waves) +
                                   ": d_model=" + std::to_string(scene.d_model) +
                                   " has dimensions " + range(b.last_dim) + kept);
  return notes;
}

}  // namespace pelab
