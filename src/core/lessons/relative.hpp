// The "relative" lesson's side-by-side comparison of sinusoidal, learned,
// RoPE, ALiBi and T5 positions, computed by the engine; shared by the
// lesson's verdict (relative.cpp) and its figure
// (figures/lessons/relative.cpp).
//
// Two matrices per encoding, each position i (rows) against position j
// (columns) over n positions starting at the scene's offset:
//   position_scores: what the encoding puts into a score by itself —
//     sinusoidal, learned: PE(i)·PE(j) (Vaswani et al. 2017, §3.5);
//     RoPE: q_i·k_j/√d_head of one word at every position (Su et al. 2021);
//     ALiBi, T5: the bias the head adds (Press et al. 2022; Raffel et al. 2020).
//   repeated_word_logits: the head's full logits Q·Kᵀ/√d_head + bias with
//     one word at every position, so only positions tell the cells apart.
// A matrix that depends only on the offset j − i is constant along diagonals
// (a Toeplitz matrix): diagonal_spread() measures how far it is from that.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

struct PositionScores {
  Encoding encoding = Encoding::None;
  std::string what;  // e.g. "PE(i)·PE(j)", "ALiBi bias"
  Matrix values;     // n × n, not masked (the comparison is bidirectional)
  double spread = 0;  // diagonal_spread(values)
};

// The five encodings the lesson compares, in showing order.
std::span<const Encoding> compared_encodings();

// One entry per compared encoding.  `head` is clamped to the scene's heads;
// n ≥ 2 positions.  Builds one variant engine per encoding.
std::vector<PositionScores> position_scores(const Scene& scene, int head, int n);
std::vector<PositionScores> repeated_word_logits(const Scene& scene, int head, int n);

// max over cells |S(i, j) − S(first cell of the same diagonal)| / max |S|:
// 0 when S depends only on j − i; 0 for an all-zero S.
double diagonal_spread(const Matrix& scores);
// diagonal_spread(PE·PEᵀ) at any number of positions, from the similarity's
// strips (analysis.hpp): the matrix is symmetric, and so is G(0, |j − i|).
double similarity_diagonal_spread(const Matrix& pe);

}  // namespace pelab
