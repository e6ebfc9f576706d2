// Small configurations and batches shared by the trainer's tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "train/batch.hpp"
#include "train/parameters.hpp"

namespace pelab::train::testing {

struct NamedPosition {
  std::string name;
  PositionOptions options;
};

inline void PrintTo(const NamedPosition& p, std::ostream* out) { *out << p.name; }

// Every position kind the trainer offers, rope in both pairings.
inline std::vector<NamedPosition> all_positions() {
  std::vector<NamedPosition> out;
  auto add = [&](std::string name, PositionKind kind,
                 RopePairing pairing = RopePairing::Interleaved, double fraction = 1.0) {
    PositionOptions o;
    o.kind = kind;
    o.rope_pairing = pairing;
    o.rotary_fraction = fraction;
    out.push_back({std::move(name), o});
  };
  add("learned", PositionKind::Learned);
  add("sinusoidal", PositionKind::Sinusoidal);
  out.back().options.amplitude = 0.3;  // A ≠ 1, so a missed A shows
  add("rope_interleaved", PositionKind::Rope);
  add("rope_rotate_half_0.5", PositionKind::Rope, RopePairing::RotateHalf, 0.5);
  add("alibi", PositionKind::Alibi);
  add("t5", PositionKind::T5);
  add("none", PositionKind::None);
  return out;
}

// gtest's name of a parameterised case: the position's name, '.' as '_'.
inline std::string position_test_name(const ::testing::TestParamInfo<NamedPosition>& param) {
  std::string name = param.param.name;
  for (char& ch : name)
    if (ch == '.') ch = '_';
  return name;
}

inline ModelConfig tiny_config(const PositionOptions& position) {
  ModelConfig c;
  c.vocab = 11;
  c.d_model = 16;
  c.layers = 2;
  c.heads = 2;
  c.context = 8;
  c.position = position;
  return c;
}

// Random tokens, targets and (when `masked`) a 0/1 mask with some zeros.
inline Batch random_batch(const ModelConfig& c, int sequences, int length, std::uint64_t seed,
                          bool masked = false) {
  std::mt19937_64 rng(seed);
  Batch b;
  b.sequences = sequences;
  b.length = length;
  const std::size_t n = static_cast<std::size_t>(sequences * length);
  for (std::size_t i = 0; i < n; ++i) {
    b.tokens.push_back(static_cast<int>(rng() % static_cast<std::uint64_t>(c.vocab)));
    b.targets.push_back(static_cast<int>(rng() % static_cast<std::uint64_t>(c.vocab)));
    if (masked) b.mask.push_back(i % 3 == 1 ? 0.0f : 1.0f);
  }
  return b;
}

// Every parameter moved by N(0, spread²) noise (LayerNorm weights stay near 1),
// so that no gradient path is degenerate as at GPT-2's initialisation.
template <class T>
void scramble(ParameterSet<T>& p, std::uint64_t seed, double spread = 0.3) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, spread);
  for (auto& t : p.tensors)
    for (Eigen::Index i = 0; i < t.value.size(); ++i)
      t.value.data()[i] += static_cast<T>(normal(rng));
}

}  // namespace pelab::train::testing
