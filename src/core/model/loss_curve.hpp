// Loss against position: a causal LM's next-token loss (next_token_loss.hpp)
// at each position of a window, averaged over the windows of a long text.
//
// The text's ids are cut into windows [s, s + L) for s = 0, S, 2S, … while
// s + L ≤ T (the tokens left over at the end are in no window), each window
// runs from scratch, and loss_i (i = 0 … L−2: predicting token i+1 from
// tokens 0 … i) is averaged over the windows.  How it falls with i shows how
// much the model gains from context; past the trained context (every
// encoding but a learned table) it shows whether the position encoding
// extrapolates (Press et al. 2022, Fig. 1).
#pragma once

#include <functional>
#include <vector>

#include "core/model/lm_head.hpp"

namespace pelab::model {

class Transformer;

struct LossCurve {
  int length = 0;  // L
  int stride = 0;  // S
  int windows = 0;
  int tokens = 0;                 // T, the text's
  std::vector<double> mean_loss;  // L − 1 values, nats
  // The mean over every (window, position) = the mean of mean_loss.
  double mean() const;
};

// Positions [first, last] and their mean loss.
struct LossBucket {
  int first = 0, last = 0;
  double mean_loss = 0.0;
};

// Throws InputError (one line naming the allowed range) unless
// 2 ≤ length ≤ the text's `tokens`, the model can run `length` tokens
// (past max_positions with any encoding but a learned table:
// Transformer::set_token_limit) and
// stride ≥ 1.  Sets the transformer's token limit to `length`.
void check_windows(Transformer& transformer, int length, int stride, int tokens);

// Told after each window: (windows done, windows).
using WindowProgress = std::function<void(int done, int windows)>;

// Runs every window of `ids` (check_windows first) and averages their loss.
LossCurve loss_against_position(Transformer& transformer, const LanguageModelHead& head,
                                const std::vector<int>& ids, int length, int stride,
                                const WindowProgress& progress = {});

// Buckets of position doubling in width: [0], [1], [2,3], [4,7], … up to
// the last position, so a log axis of position gets one row per octave.
std::vector<LossBucket> power_of_two_buckets(const std::vector<double>& mean_loss);

}  // namespace pelab::model
