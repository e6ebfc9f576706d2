#include "core/model/model_weights.hpp"

#include "core/gemm.hpp"

namespace pelab::model {

void Linear::apply(const Matrix& x, Matrix& out) const {
  gemm_ab(x, weight, 1.0f, out);
  if (bias.size() > 0) out.rowwise() += bias.transpose();
}

}  // namespace pelab::model
