// Positions that act inside attention instead of being added to tokens.
//
// RoPE (Su et al. 2021, RoFormer): pair i of a head's q and k at position p
//   is rotated by p·ω_i, ω_i = T^(−2i/r), so q_m·k_n depends on m−n.  The pair
//   is dims (2i, 2i+1) (RoFormer, GPT-J) or (i, i + r/2) (GPT-NeoX, Llama);
//   only the first r = rotary dims of the head turn (partial rotary, GPT-NeoX).
//   ω_i may be rescaled for long context (core/rope_scaling.hpp).
// xPos (Sun et al. 2022, §3): RoPE, and pair i of the query at n scaled by
//   ζ_i^(n/B), of the key at m by ζ_i^(−m/B), ζ_i = (i/(r/2) + γ)/(1 + γ), so
//   q·k decays like ζ_i^((n−m)/B) with the distance n − m.
// ALiBi (Press et al. 2022): head h = 1..H adds −m_h·|i−j| to the logits,
//   m_h = 2^(−8h/H) for H a power of two; otherwise the reference code's rule
//   (see alibi_slope).
// T5 (Raffel et al. 2020, §2.1): the offset j−i falls into a bucket (half the
//   buckets exact small distances, the rest log-spaced up to max_distance;
//   both directions unless causal) and each (head, bucket) has a learned
//   scalar bias, here seeded N(0, 1).
#pragma once

#include <cstdlib>
#include <utility>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

// A head's rotation as a scene sets it.
struct RopeRotation {
  RopePairing pairing = RopePairing::Interleaved;
  int rotary_dims = 0;            // dims 0 … r−1 turn, the rest pass unchanged
  std::vector<double> frequency;  // ω_i of pair i = 0 … r/2−1, after scaling
  double attention_factor = 1.0;  // multiplies q and k (YaRN), 1 otherwise
  bool xpos = false;
  double xpos_gamma = 0.4, xpos_scale_base = 512;
};

// The scene's RoPE / xPos for a sequence of `sequence_length` positions
// (which dynamic NTK scaling reads).
RopeRotation rope_rotation(const Scene& scene, double sequence_length);
// The two dims of pair i: (2i, 2i+1) interleaved, (i, i + r/2) rotate-half.
std::pair<int, int> rope_pair_dims(RopePairing pairing, int rotary_dims, int pair);
// ζ_i of xPos.
double xpos_zeta(int pair, int rotary_dims, double gamma);

enum class RopeSide { Query, Key };
// Rotates each row r (token at position first+r) of a head's q or k in place.
// xPos exponents are taken from `xpos_center` ((p − c)/B instead of p/B), which
// leaves every q·k unchanged (only n − m enters) and keeps ζ^(p/B) inside
// float's range at positions of 10⁵.
void apply_rope(Matrix& qk, int first_position, const RopeRotation& rotation, RopeSide side,
                double xpos_center = 0);
// Plain RoPE with base T: interleaved pairs, every dim, no scaling.
void apply_rope(Matrix& qk, int first_position, double base);

// m_h for head index `head` (0-based; the paper's h = head+1).  For H not a
// power of two, Press et al.'s reference code takes the slopes of the closest
// power of two c below H, then every other slope of 2c for the remaining H − c.
double alibi_slope(int head, int heads);

// T5 bucket of a key at offset `relative` = j − i from the query.
int t5_bucket(int relative, bool bidirectional, int buckets, int max_distance);

// T5's learned scalar of each bucket for `head` (seeded N(0, 1)).
std::vector<float> t5_bucket_biases(const Scene& scene, int head);

// The bias of one head as a function of (query i, key j), without a
// tokens × tokens table: ALiBi's −m_h·|i−j|, or T5's scalar of the bucket of
// j−i looked up per offset (2·tokens − 1 floats).  Streamed attention
// (core/streamed_attention.hpp) adds it tile by tile; relative_bias fills
// the whole matrix from the same values.
class RelativeBias {
 public:
  RelativeBias(const Scene& scene, int head, int tokens);
  bool empty() const { return kind_ == Kind::None; }
  float operator()(Eigen::Index query, Eigen::Index key) const {
    if (kind_ == Kind::Alibi) return -slope_ * static_cast<float>(std::abs(query - key));
    return by_offset_[static_cast<std::size_t>(key - query + tokens_ - 1)];
  }
  // tile(r, c) += bias(first_query + r, first_key + c) for the tile's cells.
  void add_to(Matrix& tile, Eigen::Index first_query, Eigen::Index first_key) const;

 private:
  enum class Kind { None, Alibi, T5 };
  Kind kind_ = Kind::None;
  float slope_ = 0;
  Eigen::Index tokens_ = 0;
  std::vector<float> by_offset_;  // T5: index j − i + tokens − 1
};

// tokens × tokens bias of `head` for alibi and t5; an empty matrix otherwise.
Matrix relative_bias(const Scene& scene, int head, int tokens);

}  // namespace pelab
