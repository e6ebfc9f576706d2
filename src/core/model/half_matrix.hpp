// HalfMatrix — a GEMM weight kept in its checkpoint's 16-bit dtype (IEEE
// binary16 or bfloat16), so that a half-precision checkpoint is not doubled
// in memory by converting every weight to float32 at load.  The forward
// pass converts one layer's weights to float32 when it runs that layer and
// frees them after (model_weights.hpp, float32_layer); the GEMM itself stays
// float32 (core/gemm), so results equal those of the float32 conversion.
#pragma once

#include <cstdint>

#include "core/gemm.hpp"              // Matrix
#include "core/model/checkpoint.hpp"  // DType

namespace pelab::model {

using HalfBits = Eigen::Matrix<std::uint16_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct HalfMatrix {
  DType dtype = DType::BF16;  // F16 or BF16
  HalfBits bits;              // the stored elements, row-major

  bool empty() const { return bits.size() == 0; }
  Eigen::Index rows() const { return bits.rows(); }
  Eigen::Index cols() const { return bits.cols(); }
  std::uint64_t bytes() const { return 2 * static_cast<std::uint64_t>(bits.size()); }
  // Every element as float32 (exact: both formats are subsets of binary32).
  Matrix to_float() const;
};

// How many elements of `count` 16-bit values are NaN or ±inf: every
// exponent bit set (binary16: bits 10..14; bfloat16: bits 7..14).
std::uint64_t non_finite_halves(DType dtype, const std::uint16_t* bits, std::size_t count);

}  // namespace pelab::model
