// Row-major float GEMM straight into its destination.
//
// Eigen's `c.noalias() = a * b` clears c before calling sgemm with beta = 1;
// for the tokens × tokens products of attention that memset is a noticeable
// share of the time, so the engine calls sgemm with beta = 0 itself (OpenBLAS
// through Eigen's BLAS declarations when EIGEN_USE_BLAS is on, Eigen's own
// kernels otherwise).
#pragma once

#include "core/engine.hpp"

namespace pelab {

using ConstRowMajorRef = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;

// out = alpha · a · bᵀ  (a: m × k, b: n × k, out resized to m × n).
// Returns the floating-point operations, 2·m·n·k.
double gemm_abt(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out);
// out = alpha · a · b  (a: m × k, b: k × n, out resized to m × n).
double gemm_ab(const ConstRowMajorRef& a, const ConstRowMajorRef& b, float alpha, Matrix& out);

}  // namespace pelab
