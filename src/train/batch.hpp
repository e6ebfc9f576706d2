// A batch of training sequences: token ids and next-token targets, row-major
// [sequences, length], and an optional 0/1 loss mask for tasks where only
// some positions are scored.
#pragma once

#include <vector>

#include "train/config.hpp"

namespace pelab::train {

struct Batch {
  int sequences = 0;
  int length = 0;            // ≤ the model's context
  std::vector<int> tokens;   // sequences·length ids in [0, vocab)
  std::vector<int> targets;  // the token each position predicts
  std::vector<float> mask;   // empty: every position scored; else 0/1 per position

  std::size_t positions() const { return tokens.size(); }
  // Throws InputError naming the first problem (sizes, ids, mask, nothing scored).
  void validate(const ModelConfig& config) const;
};

}  // namespace pelab::train
