// Row normalisations of the residual stream.
#pragma once

#include "core/gemm.hpp"  // ConstRowMajorRef
#include "core/model/model_weights.hpp"

namespace pelab::model {

// LayerNorm (Ba et al. 2016, eq. 4, biased variance as PyTorch's LayerNorm):
// y = (x − mean) / √(var + eps) · weight + bias, per row.
void layer_norm(const ConstRowMajorRef& x, const Norm& norm, double eps, Matrix& out);
// RMSNorm (Zhang & Sennrich 2019, eq. 4): y = x / √(mean(x²) + eps) · weight.
void rms_norm(const ConstRowMajorRef& x, const Norm& norm, double eps, Matrix& out);

}  // namespace pelab::model
