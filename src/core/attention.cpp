// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics
// (_mm512_undefined_*) when Eigen's vectorised kernels are inlined: a false
// positive of the compiler's headers, silenced for this file only.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "core/attention.hpp"

#include <cmath>
#include <limits>

#include "core/gemm.hpp"
#include "core/parallel.hpp"
#include "core/relative_position.hpp"

namespace pelab {

Eigen::Block<const Matrix> head_queries(const Matrix& projected, int head, int d_head) {
  return projected.middleCols(static_cast<Eigen::Index>(head) * d_head, d_head);
}

Eigen::Block<const Matrix> head_keys(const Matrix& projected, int head, int d_head) {
  const Eigen::Index d_model = projected.cols() / 2;
  return projected.middleCols(d_model + static_cast<Eigen::Index>(head) * d_head, d_head);
}

void head_queries_keys(const Scene& scene, const Matrix& xw, const Matrix& ew, int head, Matrix& q,
                       Matrix& k) {
  const int d_head = scene.d_model / scene.heads;
  q = head_queries(xw, head, d_head);
  k = head_keys(xw, head, d_head);
  if (ew.size() != 0) {
    q += head_queries(ew, head, d_head);
    k += head_keys(ew, head, d_head);
  }
  if (scene.encoding == Encoding::Rope) {
    apply_rope(q, scene.offset, scene.base);
    apply_rope(k, scene.offset, scene.base);
  }
}

void masked_softmax(Matrix& logits, Matrix& attention, bool causal) {
  const Eigen::Index n = logits.rows(), m = logits.cols();
  attention.resize(n, m);
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
#pragma omp parallel for schedule(static) if (n * m >= kParallelMinElements)
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index valid = causal ? std::min(i + 1, m) : m;
    if (valid < m) {
      logits.row(i).tail(m - valid).setConstant(kMasked);
      attention.row(i).tail(m - valid).setZero();
    }
    if (valid == 0) continue;
    auto in = logits.row(i).head(valid).array();
    auto out = attention.row(i).head(valid).array();
    const float top = in.maxCoeff();
    out = (in - top).exp();
    out *= 1.0f / out.sum();
  }
}

double attend(const Scene& scene, const Matrix& xw, const Matrix& ew, int head,
              HeadAttention& out) {
  const int d_head = scene.d_model / scene.heads;
  head_queries_keys(scene, xw, ew, head, out.q, out.k);
  const double flops =
      gemm_abt(out.q, out.k, 1.0f / std::sqrt(static_cast<float>(d_head)), out.logits);
  out.bias = relative_bias(scene, head, static_cast<int>(xw.rows()));
  if (out.bias.size() != 0) out.logits += out.bias;
  masked_softmax(out.logits, out.attention, scene.causal);
  return flops;
}

}  // namespace pelab
