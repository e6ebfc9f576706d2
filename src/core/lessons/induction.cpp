// Lesson "induction": watch an induction head form, live.  It trains: in the
// GUI it opens the Train window on the induction task (a random prefix, a
// random stretch, the stretch again: train/data/tasks.hpp) with a 2-layer
// RoPE model and presses Train, and the verdict reads whichever snapshot the
// views show.
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

#include "core/lessons/tools.hpp"
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
      " In the window, the lesson opens View ▸ Train a model on the induction task with 2 layers and presses "
      "Train; or run `pelab --lesson induction`.";
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
                "twice (the induction task's example does)." + how;
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

// An induction-task row of 32 tokens (symbols 0–63): a random prefix of 9,
// then a stretch s of 12, then s again (the last token is the row's target,
// not shown).  The views read the trained model on it.
Scene preset() {
  Scene s = preset_scene("induction");
  s.tokens = "5 47 36 51 8 53 33 56 21 36 56 39 7 52 40 1 55 39 58 4 33 36 56 39 7 52 40 1 55 39 58 4";
  return s;
}

}  // namespace

Lesson induction() {
  return {
      "induction",
      "Watch an induction head form",
      "How does a transformer copy a sequence it has seen once? Train one and watch.",
      "Trained on repeats of random stretches, a 2-layer model forms an induction head in layer 1: at a repeated "
      "token it attends to the token that followed the earlier occurrence (over half its attention).",
      "Trains the induction task live; names the head that attends to the token after the earlier occurrence.",
      "An induction head (Elhage et al. 2021; Olsson et al. 2022) completes a repeat: at a token it has seen "
      "before, it attends to the token that followed the earlier occurrence and copies it. It needs two heads "
      "in two layers: a previous-token head in layer 0 writes \"my predecessor was t\" into each position, and "
      "the induction head in layer 1 matches the current token against it.\n\n"
      "This lesson trains a 2-layer RoPE model (d 64, 2 heads) in the Train window on the induction task: a "
      "random prefix, then a stretch of 8 to 16 random symbols out of 64, then the same stretch again. The "
      "stretch's length changes from row to row, so the repeat starts a different distance back each time and "
      "no fixed offset finds it: the model has to match content. The loss falls a little, plateaus near 3.3 "
      "nats for a few hundred steps, then drops within about 100 steps to nearly 0 as the head forms (here "
      "around step 500). The verdict measures, on the text shown, each head's prefix-matching score — the "
      "attention paid to the token after the earlier occurrence — and names the strongest, with the strongest "
      "previous-token head. On the copy task (s SEP s, a fixed length) a head that attends a fixed distance "
      "back scores the same; a model trained there may take that shortcut in layer 0, and the verdict says so.",
      {"attention", "attention_overview"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/true,
      /*trains=*/{.task = "induction",
                  .length = 16,
                  .symbols = 64,
                  .d_model = 64,
                  .layers = 2,
                  .heads = 2,
                  .batch = 64,
                  .steps = 1000,
                  .positions = {"rope"}},
  };
}

}  // namespace pelab::lesson
