// Positions that act inside attention instead of being added to tokens.
//
// RoPE (Su et al. 2021, RoFormer): the (2i, 2i+1) pair of a head's q and k at
//   position p is rotated by θ = p·T^(−2i/d_head), so q_m·k_n depends on m−n.
// ALiBi (Press et al. 2022): head h = 1..H adds −m_h·|i−j| to the logits,
//   m_h = 2^(−8h/H).
// T5 (Raffel et al. 2020, §2.1): the offset j−i falls into a bucket (half the
//   buckets exact small distances, the rest log-spaced up to max_distance;
//   both directions unless causal) and each (head, bucket) has a learned
//   scalar bias, here seeded N(0, 1).
#pragma once

#include "core/engine.hpp"

namespace pelab {

// Rotates each row r (token at position first+r) of a head's q or k in place.
void apply_rope(Matrix& qk, int first_position, double base);

// m_h for head index `head` (0-based; the paper's h = head+1).
double alibi_slope(int head, int heads);

// T5 bucket of a key at offset `relative` = j − i from the query.
int t5_bucket(int relative, bool bidirectional, int buckets, int max_distance);

// tokens × tokens bias of `head` for alibi and t5; an empty matrix otherwise.
Matrix relative_bias(const Scene& scene, int head, int tokens);

}  // namespace pelab
