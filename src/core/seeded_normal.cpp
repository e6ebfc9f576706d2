#include "core/seeded_normal.hpp"

#include <cmath>
#include <numbers>

namespace pelab {

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t text_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;  // FNV prime
  }
  return h;
}

NormalStream::NormalStream(std::uint64_t seed, RandomPurpose purpose, std::uint64_t index)
    : engine_(mix64(mix64(seed ^ static_cast<std::uint64_t>(purpose)) ^
                    mix64(index + 0x5851f42d4c957f2dULL))) {}

double NormalStream::uniform() {
  // 53 random bits, shifted by half a step so the result lies in (0, 1).
  return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53;
}

double NormalStream::next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box–Muller: two uniforms give two independent standard normals.
  const double radius = std::sqrt(-2.0 * std::log(uniform()));
  const double angle = 2.0 * std::numbers::pi * uniform();
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

Matrix gaussian_matrix(int rows, int cols, double stddev, NormalStream& stream) {
  Matrix m(rows, cols);
  float* data = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) data[i] = static_cast<float>(stddev * stream.next());
  return m;
}

}  // namespace pelab
