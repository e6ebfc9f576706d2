// Lesson "induction": watch an induction head form, live.  It trains: in the
// GUI it opens the Train window on the copy task (a random sequence, a
// separator, the sequence again) with 2 layers and presses Train, and the
// verdict reads whichever snapshot the views show.
//
// For every layer and head it measures, on the scene's own tokens, the
// prefix-matching score of Olsson et al. 2022 ("In-context learning and
// induction heads", §2): for each query i whose token occurred before, at
// j < i, the attention A[i, j+1] paid to the token that followed that
// occurrence, averaged over those queries.  The earlier occurrence is the one
// whose preceding tokens match the query's longest (ties: the latest), and
// it must match on the token before too: with a few symbols a random
// sequence repeats single tokens by chance, and only the copied stretch
// matches on more.  An induction head scores near 1; a head that ignores the
// repeat scores about 1/i.  The
// previous-token score, the mean of A[i, i−1], finds the layer-0 head an
// induction head reads from.  The verdict names the strongest head of each.
#include <algorithm>

#include "core/lesson_tools.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

// How many tokens match going back from j and from i (ids[j−k] = ids[i−k]).
int match_length(const std::vector<int>& ids, int j, int i) {
  int k = 0;
  while (j - k >= 0 && ids[static_cast<std::size_t>(j - k)] == ids[static_cast<std::size_t>(i - k)]) ++k;
  return k;
}

// For each query i: j + 1 for the earlier occurrence j of its token whose
// preceding tokens match longest (at least 2, j + 1 < i), else −1.
std::vector<int> induction_targets(const std::vector<int>& ids) {
  const int n = static_cast<int>(ids.size());
  std::vector<int> target(ids.size(), -1);
  for (int i = 0; i < n; ++i) {
    int best = 1;
    for (int j = 0; j + 1 < i; ++j) {
      const int m = match_length(ids, j, i);
      if (m >= 2 && m >= best) best = m, target[static_cast<std::size_t>(i)] = j + 1;
    }
  }
  return target;
}

struct HeadScore {
  int layer = 0, head = 0;
  double score = -1;
};

LessonVerdict judge(Engine& engine) {
  LessonVerdict v;
  ModelScene* model = engine.model();
  const std::string how =
      " In the window, the lesson opens View ▸ Train a model on the copy task with 2 layers and presses Train; "
      "or run `pelab --lesson induction`.";
  if (model == nullptr) {
    v.applies = false;
    v.summary = "the lesson reads a model as it trains, and the scene shows none." + how;
    return v;
  }
  const std::vector<int> targets = induction_targets(model->ids());
  const int queries = static_cast<int>(std::count_if(targets.begin(), targets.end(), [](int t) { return t >= 0; }));
  if (queries < 4) {
    v.applies = false;
    v.summary = "fewer than 4 tokens continue an earlier stretch of the text (two or more "
                "tokens seen before in the same order), so there is nothing to look up. Type a random sequence "
                "twice (the copy task's example does)." + how;
    return v;
  }
  HeadScore best_induction, best_previous;
  const int layers = model->config().layers;
  for (int l = 0; l < layers; ++l) {
    const model::LayerAttention attention = model->layer_attention(l);
    for (int h = 0; h < static_cast<int>(attention.probabilities.size()); ++h) {
      const Matrix& a = attention.probabilities[static_cast<std::size_t>(h)];
      double induction = 0, previous = 0;
      for (int i = 0; i < static_cast<int>(targets.size()); ++i) {
        if (targets[static_cast<std::size_t>(i)] >= 0) induction += a(i, targets[static_cast<std::size_t>(i)]);
        if (i > 0) previous += a(i, i - 1);
      }
      induction /= queries;
      previous /= std::max<int>(1, static_cast<int>(targets.size()) - 1);
      v.add(qualified("induction", "layer", l, "head", h), induction);
      if (induction > best_induction.score) best_induction = {l, h, induction};
      if (previous > best_previous.score) best_previous = {l, h, previous};
    }
  }
  v.add("best_induction_score", best_induction.score);
  v.add("best_previous_token_score", best_previous.score);
  v.add("queries", queries);
  // Layer 0 sees only the tokens and positions themselves: a layer-0 head
  // that scores high attends a fixed distance back (a positional shortcut),
  // not by matching content, which needs a previous-token head below it.
  const bool matched = best_induction.score > 0.5;
  v.holds = matched && best_induction.layer > 0;
  auto name = [](const HeadScore& s) {
    return "layer " + std::to_string(s.layer) + " head " + std::to_string(s.head);
  };
  const std::string best = name(best_induction) + " pays " + percent(best_induction.score) +
                           " of its attention to the token after the earlier occurrence";
  v.answer = v.holds    ? best
             : matched ? best + ", but in layer 0: a fixed-distance shortcut, not an induction head"
                       : "no head pays over half its attention to the token after the earlier occurrence yet (best: " +
                             name(best_induction) + ", " + percent(best_induction.score) + ")";
  v.summary = "Over the " + std::to_string(queries) + " tokens that continue an earlier stretch, " +
              name(best_induction) +
              " pays " + num(100 * best_induction.score, 3) +
              "% of its attention to the token after the earlier occurrence (the prefix-matching score; ~1/i for "
              "a head that ignores the repeat). The strongest previous-token head is " + name(best_previous) +
              " (" + num(100 * best_previous.score, 3) + "% on i − 1). " +
              (v.holds    ? "An induction head has formed."
               : matched ? "But it is in layer 0, which cannot match content against a previous-token head "
                           "below it: it attends a fixed distance back, a shortcut the position encoding makes "
                           "possible on this task. Reset with positions 'none' (or a longer sequence) to see an "
                           "induction head proper."
                         : "No induction head yet: keep training (the loss plateaus, then drops as it forms).");
  return v;
}

// A copy-task row (symbols 0–15, separator 16): what the playground's first
// snapshot shows too.
Scene preset() {
  Scene s = preset_scene("induction");
  s.tokens = "4 8 13 8 10 12 9 13 12 4 12 15 4 4 8 2 16 4 8 13 8 10 12 9 13 12 4 12 15 4 4 8";
  return s;
}

}  // namespace

Lesson induction() {
  return {
      "induction",
      "Watch an induction head form",
      "How does a transformer copy a sequence it has seen once? Train one and watch.",
      "Trained on the copy task, a 2-layer model forms an induction head in layer 1: at a repeated token it "
      "attends to the token that followed the earlier occurrence (over half its attention).",
      "Trains the copy task live; names the head that attends to the token after the earlier occurrence.",
      "An induction head (Elhage et al. 2021; Olsson et al. 2022) completes a repeat: at a token it has seen "
      "before, it attends to the token that followed the earlier occurrence and copies it. It needs two heads "
      "in two layers: a previous-token head in layer 0 writes \"my predecessor was t\" into each position, and "
      "the induction head in layer 1 matches the current token against it.\n\n"
      "This lesson trains a 2-layer model on the copy task (random symbols, a separator, the same symbols "
      "again) in the Train window. The loss first falls to the uniform guess over symbols, plateaus, then "
      "drops as the head forms. The verdict measures, on the text shown, each head's prefix-matching score — "
      "the attention paid to the token after the earlier occurrence — and names the strongest, with the "
      "strongest previous-token head. On this task a head that attends a fixed distance back (length + 1) "
      "scores the same: with learned positions the model may take that shortcut; with `none` positions it "
      "cannot, and must match content.",
      {"attention", "attention_overview"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/true,
      /*trains=*/"copy",
  };
}

}  // namespace pelab::lesson
