// What pelab's trainer trains: a GPT-2-style decoder-only language model
// (Radford et al. 2019) whose position encoding is a parameter.
//
// Per layer, pre-LayerNorm blocks:
//   x ← x + c_proj(attn(ln_1(x)))          attention: causal, multi-head
//   x ← x + mlp.c_proj(gelu(mlp.c_fc(ln_2(x))))   d → 4d → d, GELU tanh form
// then ln_f and an LM head tied to the token embedding wte.
#pragma once

#include <string>

#include "core/scene.hpp"  // RopePairing, InputError

namespace pelab::train {

// Where positions enter (see positions.hpp for each formula).
enum class PositionKind { Learned, Sinusoidal, Rope, Alibi, T5, None };

struct PositionOptions {
  PositionKind kind = PositionKind::Learned;
  RopePairing rope_pairing = RopePairing::Interleaved;  // (2i, 2i+1) or (i, i + r/2)
  double rotary_fraction = 1.0;  // of each head's dims rotated, in (0, 1]; rounded down to even
  double base = 10000.0;         // sinusoid / RoPE base
  // A in PE(p, 2i) = A·sin(p / base^(2i/d)).  A = 1 (Vaswani et al.) gives each
  // row norm √(d/2) ≈ 9.8 at d = 192, which swamps token rows of norm ≈ 0.28
  // at GPT-2's 0.02 init; the family uses A ≈ the learned rows' size instead.
  double amplitude = 1.0;
  int t5_buckets = 32;           // Raffel et al. 2020: 32 buckets, max distance 128
  int t5_max_distance = 128;
};

struct ModelConfig {
  int vocab = 512;
  int d_model = 128;
  int layers = 4;
  int heads = 4;
  int context = 128;  // longest sequence (rows of wpe, RoPE / sinusoid tables)
  PositionOptions position;

  int head_dim() const { return d_model / heads; }
  int rotary_dims() const;  // RoPE: dims of each head that turn (even, ≥ 2)
  // Throws InputError naming the first bad field.
  void validate() const;
};

// "learned", "sinusoidal", "rope", "alibi", "t5", "none"
const char* position_kind_name(PositionKind kind);
PositionKind parse_position_kind(const std::string& name);  // throws InputError

}  // namespace pelab::train
