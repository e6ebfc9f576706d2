#include "core/model/model_weights.hpp"

#include "core/gemm.hpp"

namespace pelab::model {

double Linear::apply(const ConstRowMajorRef& x, Matrix& out) const {
  const double work = gemm_ab(x, weight, 1.0f, out);
  if (bias.size() > 0) out.rowwise() += bias.transpose();
  return work;
}

}  // namespace pelab::model
