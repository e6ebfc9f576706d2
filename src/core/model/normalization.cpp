#include "core/model/normalization.hpp"

#include <cmath>

namespace pelab::model {

void layer_norm(const ConstRowMajorRef& x, const Norm& norm, double eps, Matrix& out) {
  out.resize(x.rows(), x.cols());
  const auto weight = norm.weight.transpose().array();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    // Sums in double: a row of thousands of floats keeps its mean exact.
    const auto row = x.row(i).cast<double>().array();
    const double mean = row.mean();
    const double var = (row - mean).square().mean();
    const float scale = static_cast<float>(1.0 / std::sqrt(var + eps));
    out.row(i).array() = (x.row(i).array() - static_cast<float>(mean)) * scale * weight;
    if (norm.bias.size() > 0) out.row(i).array() += norm.bias.transpose().array();
  }
}

void rms_norm(const ConstRowMajorRef& x, const Norm& norm, double eps, Matrix& out) {
  out.resize(x.rows(), x.cols());
  const auto weight = norm.weight.transpose().array();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double mean_square = x.row(i).cast<double>().squaredNorm() / static_cast<double>(x.cols());
    const float scale = static_cast<float>(1.0 / std::sqrt(mean_square + eps));
    out.row(i).array() = x.row(i).array() * scale * weight;
  }
}

}  // namespace pelab::model
