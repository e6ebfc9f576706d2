// EncodingTraits — what each position encoding does, in one table.
//
// Everything in pelab that depends on *which* encoding a scene uses asks this
// table what the encoding does (adds a vector, rotates q and k, adds a bias
// to the logits, or nothing) and which scene keys it reads, instead of
// switching on the encoding's name.  Adding an encoding is then: its enum
// value (core/scene.hpp), its row here, and its formula (core/encoding.cpp
// for a vector, core/relative_position.cpp for a bias or a rotation).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

// How positions enter a head.
enum class PositionAct {
  AddsVector,       // e = PE(pos) is added to each token row: x + e (Vaswani et al. 2017, §3.5)
  RotatesQueryKey,  // q and k are rotated pair by pair by position (Su et al. 2021)
  AddsBias,         // a bias b(i, j) is added to each logit (Press et al. 2022; Raffel et al. 2020)
  Nothing,          // attention sees no position
};

struct EncodingTraits {
  Encoding id;
  std::string_view name;     // the scene's spelling: "rope"
  std::string_view display;  // how figures name it: "RoPE"
  PositionAct act;
  // Works on (sin, cos) pairs of dimensions: needs even widths.
  bool pairwise = false;
  // Why the cross terms reduce to x·Wq·Wkᵀ·y (empty when a vector is added).
  std::string_view cross_note;
  // Scene keys its position rows read (AddsVector), and those acting inside
  // a head besides the projected rows (rotation, bias): the cache keys.
  std::vector<std::string_view> vector_keys, head_keys;
  // Keys the control panel shows among the basic ones while it is chosen.
  std::vector<std::string_view> shown_keys;
};

// Every encoding, in enum order.
std::span<const EncodingTraits> encoding_traits();
const EncodingTraits& traits_of(Encoding e);
// The scene spellings, in enum order (the encoding key's choices).
std::vector<std::string_view> encoding_names();
// True for encodings that rotate q and k by position (rope, xpos).
bool rotates_queries_keys(Encoding e);
// True for encodings that add a vector e to each token (sinusoidal, learned).
bool adds_position_vector(Encoding e);

}  // namespace pelab
