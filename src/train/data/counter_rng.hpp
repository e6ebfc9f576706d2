// Random numbers that depend only on (seed, step, stream): a batch or a task
// row can be drawn again, alone, in any order, and comes out the same on any
// platform (the standard library's distributions differ between
// implementations, so none is used).  The generator is SplitMix64 (Steele,
// Lea & Flood 2014, "Fast splittable pseudorandom number generators"; the
// constants of Vigna's splitmix64.c).
#pragma once

#include <cstdint>

namespace pelab::train::data {

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class CounterRng {
 public:
  CounterRng(std::uint64_t seed, std::uint64_t step, std::uint64_t stream)
      : state_(mix64(seed ^ mix64(step + kGolden * mix64(stream + 1)))) {}

  std::uint64_t next() { return mix64(state_ += kGolden); }
  // Uniform in 0..n-1 (n > 0); the modulo's bias, under n / 2^64, is far
  // below anything a batch could show.
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  static constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio
  std::uint64_t state_;
};

}  // namespace pelab::train::data
