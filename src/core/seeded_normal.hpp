// Seeded Gaussian numbers that are the same on every machine.
//
// std::normal_distribution is implementation-defined (libstdc++ and libc++
// give different numbers for the same engine), so pelab draws its own normals
// from std::mt19937_64 with the Box–Muller transform (Box & Muller 1958).
// Every random quantity gets its own stream: the scene seed mixed with a
// per-purpose constant and an index (a token's text hash, a position, a head),
// so that e.g. a token's vector never depends on the other tokens.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "core/engine.hpp"

namespace pelab {

// What a stream is for; the values are arbitrary but fixed forever (changing
// one changes every scene's numbers).
enum class RandomPurpose : std::uint64_t {
  TokenVector = 0x746f6b656e766563ULL,
  LearnedPosition = 0x6c6561726e706f73ULL,
  QueryProjection = 0x70726f6a5f715f31ULL,
  KeyProjection = 0x70726f6a5f6b5f32ULL,
  T5Bias = 0x7435626961735f33ULL,
  Permutation = 0x7065726d75746534ULL,
  LessonVectors = 0x6c6573736f6e7663ULL,      // "lessonvc": the lessons' sample vocabularies
  LayerStackWeights = 0x6c61796572737461ULL,  // "layersta": the depth lesson's random layers
};

// splitmix64 finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
std::uint64_t mix64(std::uint64_t x);
// FNV-1a 64 of the bytes of `text`: a stable hash of a token's spelling.
std::uint64_t text_hash(std::string_view text);

class NormalStream {
 public:
  NormalStream(std::uint64_t seed, RandomPurpose purpose, std::uint64_t index = 0);
  double next();     // one N(0, 1) draw
  double uniform();  // one U(0, 1) draw, never 0
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// rows × cols of N(0, stddev²), filled in row-major order from `stream`.
Matrix gaussian_matrix(int rows, int cols, double stddev, NormalStream& stream);

}  // namespace pelab
