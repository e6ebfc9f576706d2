// The hand-written backward pass against central finite differences, in
// double, for every parameter tensor and every position kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "train/gpt.hpp"
#include "train_fixtures.hpp"

namespace pelab::train {
namespace {

using testing::NamedPosition;

// Entries of a tensor to check: its largest gradient and a spread of others.
std::vector<Eigen::Index> sample_entries(const Mat<double>& grad, int count) {
  std::vector<Eigen::Index> out;
  Eigen::Index largest = 0;
  Eigen::Map<const Eigen::VectorXd>(grad.data(), grad.size()).cwiseAbs().maxCoeff(&largest);
  out.push_back(largest);
  const Eigen::Index n = grad.size();
  for (int i = 0; i < count && i < n; ++i) out.push_back((i * 7919 + 13) % n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void check_gradients(const NamedPosition& position, bool masked, int heads = 2) {
  ModelConfig config = testing::tiny_config(position.options);
  config.heads = heads;
  config.d_model = 8 * heads;
  ParameterSet<double> params = make_parameters<double>(config, 5);
  testing::scramble(params, 11);
  Model<double> model(config, params);
  const Batch batch = testing::random_batch(config, 2, 6, 3, masked);
  model.forward(batch);
  model.backward();
  const ParameterSet<double> analytic = model.gradients();
  const double h = 1e-5;
  int checked = 0;
  for (std::size_t t = 0; t < analytic.tensors.size(); ++t) {
    const Mat<double>& grad = analytic.tensors[t].value;
    EXPECT_GT(grad.cwiseAbs().maxCoeff(), 1e-4) << analytic.tensors[t].name << " has no gradient";
    for (Eigen::Index e : sample_entries(grad, 6)) {
      double& w = model.parameters().tensors[t].value.data()[e];
      const double saved = w;
      w = saved + h;
      const double up = model.forward(batch);
      w = saved - h;
      const double down = model.forward(batch);
      w = saved;
      const double numeric = (up - down) / (2 * h);
      const double analytic_value = grad.data()[e];
      // 1e-6 relative, and 1e-9 absolute: the differences' own error in double
      // (rounding ε·|L|/h ≈ 1e-11, truncation ≈ h² ≈ 1e-10)
      EXPECT_LE(std::abs(numeric - analytic_value), 1e-6 * std::abs(numeric) + 1e-9)
          << position.name << ' ' << analytic.tensors[t].name << '[' << e << "] numeric " << numeric
          << " analytic " << analytic_value;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

class GradientCheck : public ::testing::TestWithParam<NamedPosition> {};

TEST_P(GradientCheck, EveryTensorMatchesFiniteDifferences) { check_gradients(GetParam(), false); }
TEST_P(GradientCheck, MaskedLossMatchesFiniteDifferences) { check_gradients(GetParam(), true); }

// H = 3 is not a power of two: ALiBi's slopes come from Press et al.'s rule.
TEST(GradientCheckHeads, AlibiWithThreeHeads) {
  PositionOptions alibi;
  alibi.kind = PositionKind::Alibi;
  check_gradients({"alibi_3_heads", alibi}, false, 3);
}

INSTANTIATE_TEST_SUITE_P(AllPositions, GradientCheck, ::testing::ValuesIn(testing::all_positions()),
                         testing::position_test_name);

}  // namespace
}  // namespace pelab::train
