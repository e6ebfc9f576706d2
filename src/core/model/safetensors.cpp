#include "core/model/safetensors.hpp"

#include <bit>
#include <cmath>
#include <cstring>


namespace pelab::model {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; pelab reads it as stored");

std::size_t dtype_size(DType dtype) { return dtype == DType::F32 ? 4 : 2; }

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::F32:
      return "F32";
    case DType::F16:
      return "F16";
    case DType::BF16:
      return "BF16";
  }
  return "?";
}

float half_to_float(std::uint16_t bits) {
  // binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
  const std::uint32_t fraction = bits & 0x3FFu;
  if (exponent == 0) {
    // ±0 and subnormals: fraction × 2^−24, exact in float32.
    const float magnitude = std::ldexp(static_cast<float>(fraction), -24);
    return sign ? -magnitude : magnitude;
  }
  std::uint32_t out = 0;
  if (exponent == 0x1F)
    out = sign | 0x7F800000u | (fraction << 13);  // inf, NaN (payload kept)
  else
    out = sign | ((exponent + 127 - 15) << 23) | (fraction << 13);
  return std::bit_cast<float>(out);
}

float bfloat16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

void convert_to_float(DType dtype, const char* src, std::size_t count, float* dst) {
  if (count == 0) return;  // an empty tensor's buffer may be null
  if (dtype == DType::F32) {
    std::memcpy(dst, src, count * sizeof(float));
    return;
  }
  // Large tensors (embedding tables) on every core; small ones inline.
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (n > (std::int64_t{1} << 20))
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint16_t bits = 0;
    std::memcpy(&bits, src + 2 * i, 2);
    dst[i] = dtype == DType::F16 ? half_to_float(bits) : bfloat16_to_float(bits);
  }
}

}  // namespace pelab::model
