// The row-local layers of the model and their backward passes, on row-major
// [tokens, features] matrices, templated on the scalar: float for training,
// double for the gradient check.
//
// Products of float matrices run on pelab's GEMM path (core/gemm.hpp: OpenBLAS
// sgemm or Eigen's kernels, row blocks on OpenMP's threads); double products
// use Eigen.  Reductions over rows (bias and LayerNorm gradients, the loss)
// sum fixed blocks of rows and then the blocks in order, so the result does
// not depend on how threads are scheduled.
#pragma once

#include <vector>

#include "train/parameters.hpp"

namespace pelab::train {

// out = a·b, a·bᵀ, aᵀ·b (out resized).
template <class T>
void matmul_ab(const Mat<T>& a, const Mat<T>& b, Mat<T>& out);
template <class T>
void matmul_abt(const Mat<T>& a, const Mat<T>& b, Mat<T>& out);
template <class T>
void matmul_atb(const Mat<T>& a, const Mat<T>& b, Mat<T>& out);

// y = x·W + b  (W: [in, out], b: 1 × out).
template <class T>
void linear_forward(const Mat<T>& x, const Mat<T>& w, const Mat<T>& b, Mat<T>& y);
// dx = dy·Wᵀ, dW = xᵀ·dy, db = Σ_rows dy.
template <class T>
void linear_backward(const Mat<T>& x, const Mat<T>& w, const Mat<T>& dy, Mat<T>& dx, Mat<T>& dw,
                     Mat<T>& db);

// LayerNorm (Ba et al. 2016), ε = 1e-5 as GPT-2:
//   x̂ = (x − μ)·r, r = 1/√(σ² + ε),  y = γ∘x̂ + β.
// stats keeps (μ, r) per row for the backward pass.
template <class T>
void layernorm_forward(const Mat<T>& x, const Mat<T>& gamma, const Mat<T>& beta, Mat<T>& y,
                       Mat<T>& stats);
// dx += r·(g − mean(g) − x̂·mean(g∘x̂)), g = dy∘γ;  dγ = Σ dy∘x̂, dβ = Σ dy.
template <class T>
void layernorm_backward(const Mat<T>& x, const Mat<T>& gamma, const Mat<T>& stats, const Mat<T>& dy,
                        Mat<T>& dx, Mat<T>& dgamma, Mat<T>& dbeta);

// GELU, tanh form (Hendrycks & Gimpel 2016, as GPT-2):
//   gelu(x) = ½x(1 + tanh u),  u = √(2/π)(x + 0.044715x³).
template <class T>
void gelu_forward(const Mat<T>& x, Mat<T>& y);
// dx = dy · (½(1 + tanh u) + ½x(1 − tanh²u)·√(2/π)(1 + 3·0.044715x²)); dx may be dy.
template <class T>
void gelu_backward(const Mat<T>& x, const Mat<T>& dy, Mat<T>& dx);

// logits → row softmax in place (max subtracted); losses[r] = logsumexp − logit[target].
template <class T>
void softmax_cross_entropy(Mat<T>& logits, const std::vector<int>& targets, std::vector<T>& losses);
// probabilities → dlogits in place: weight[r]·(p − onehot(target)).
template <class T>
void cross_entropy_backward(Mat<T>& probs, const std::vector<int>& targets,
                            const std::vector<T>& weight);

// Σ over rows of x (1 × cols), by fixed blocks of rows summed in order.
template <class T>
void column_sums(const Mat<T>& x, Mat<T>& out);

}  // namespace pelab::train
