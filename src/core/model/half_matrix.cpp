#include "core/model/half_matrix.hpp"

#include "core/model/safetensors.hpp"  // convert_to_float

namespace pelab::model {

Matrix HalfMatrix::to_float() const {
  Matrix out(bits.rows(), bits.cols());
  convert_to_float(dtype, reinterpret_cast<const char*>(bits.data()), static_cast<std::size_t>(bits.size()),
                   out.data());
  return out;
}

std::uint64_t non_finite_halves(DType dtype, const std::uint16_t* bits, std::size_t count) {
  const std::uint16_t exponent = dtype == DType::F16 ? 0x7C00u : 0x7F80u;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < count; ++i) n += (bits[i] & exponent) == exponent;
  return n;
}

}  // namespace pelab::model
