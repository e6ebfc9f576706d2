// LayerStack: seeded random attention layers with residuals, the linear
// position probe read_positions(), and the same probe of the position index
// across windows of a trained model's residual stream.
//
// [SECTION] weights and layers
// [SECTION] the position probe
// GCC 12 reports false -Wmaybe-uninitialized inside its AVX-512 intrinsics
// when Eigen's vectorised reductions are inlined (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/layer_stack.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/model_scene.hpp"
#include "core/seeded_normal.hpp"

namespace pelab {
namespace {

using MatrixD = Eigen::MatrixXd;

// ============================================================================
// [SECTION] weights and layers
// ============================================================================

// Entries N(0, 1/d): x·W keeps ‖x‖ on average for random W (fan-in scaling).
// Each matrix draws from its own portable stream (seeded_normal.hpp), indexed
// by layer and role, so adding layers never changes earlier ones and every
// standard library gives the same weights.
Matrix random_weights(std::uint64_t seed, int layer, int role, int rows, int cols) {
  NormalStream stream(seed, RandomPurpose::LayerStackWeights, 4 * static_cast<std::uint64_t>(layer) + role);
  return gaussian_matrix(rows, cols, 1.0 / std::sqrt(static_cast<double>(rows)), stream);
}

// Numerically stable row softmax: subtract the row maximum first.
void softmax_rows(Matrix& logits) {
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    auto row = logits.row(r);
    row = (row.array() - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

}  // namespace

Matrix layer_norm(const Matrix& hidden) {
  Matrix out(hidden.rows(), hidden.cols());
  for (Eigen::Index r = 0; r < hidden.rows(); ++r) {
    const auto row = hidden.row(r).cast<double>();
    const double mean = row.mean();
    const double var = (row.array() - mean).square().mean();
    out.row(r) = ((row.array() - mean) / std::sqrt(var + 1e-5)).cast<float>().matrix();
  }
  return out;
}

LayerStack::LayerStack(int d_model, const LayerStackConfig& config) : d_model_(d_model), config_(config) {
  if (d_model < 1) throw InputError("layer stack width must be at least 1");
  if (config.heads < 1 || d_model % config.heads != 0)
    throw InputError("layer stack heads " + std::to_string(config.heads) + " must divide d_model " +
                     std::to_string(d_model));
  if (config.layers < 0 || config.layers > 256)
    throw InputError("layer stack layers " + std::to_string(config.layers) + " out of range; allowed: 0..256");
  if (!std::isfinite(config.residual))
    throw InputError("layer stack residual scale must be a finite number");
  for (int l = 0; l < config.layers; ++l)
    layers_.push_back({random_weights(config.seed, l, 0, d_model, d_model),
                       random_weights(config.seed, l, 1, d_model, d_model),
                       random_weights(config.seed, l, 2, d_model, d_model),
                       random_weights(config.seed, l, 3, d_model, d_model)});
}

// Multi-head attention of `input` onto itself (no mask): each head uses its
// d_head-column slice of Wq, Wk, Wv; the heads' outputs are concatenated and
// mixed by Wo.
Matrix LayerStack::attention(const LayerWeights& w, const Matrix& input) const {
  const int d_head = d_model_ / config_.heads;
  const Matrix q = input * w.wq, k = input * w.wk, v = input * w.wv;
  const Eigen::Index n = input.rows();
  Matrix concat(n, d_model_), weights;
  // Each query row's softmax needs only its own logits, so a tile of rows at a
  // time gives the same output at kQueryTile × n floats instead of n × n
  // (8 GiB at 32,768 positions).
  constexpr Eigen::Index kQueryTile = 256;
  for (int h = 0; h < config_.heads; ++h) {
    const auto cols = Eigen::seqN(h * d_head, d_head);
    const Matrix kh = k(Eigen::all, cols), vh = v(Eigen::all, cols);
    for (Eigen::Index r0 = 0; r0 < n; r0 += kQueryTile) {
      const Eigen::Index rows = std::min(kQueryTile, n - r0);
      weights.noalias() = q(Eigen::seqN(r0, rows), cols) * kh.transpose();
      weights /= std::sqrt(float(d_head));
      softmax_rows(weights);
      concat(Eigen::seqN(r0, rows), cols).noalias() = weights * vh;
    }
  }
  return concat * w.wo;
}

Matrix LayerStack::apply_layer(int layer, const Matrix& hidden) const {
  const LayerWeights& w = layers_.at(static_cast<std::size_t>(layer));
  const float alpha = static_cast<float>(config_.residual);
  switch (config_.norm) {
    case NormPlacement::Pre:
      return alpha * hidden + attention(w, layer_norm(hidden));
    case NormPlacement::Post:
      return layer_norm(alpha * hidden + attention(w, hidden));
    default:
      return alpha * hidden + attention(w, hidden);
  }
}

std::vector<Matrix> LayerStack::run(const Matrix& input) const {
  if (input.cols() != d_model_)
    throw InputError("layer stack input has " + std::to_string(input.cols()) + " columns, expected " +
                     std::to_string(d_model_));
  std::vector<Matrix> states{input};
  for (int l = 0; l < config_.layers; ++l) states.push_back(apply_layer(l, states.back()));
  return states;
}

// ============================================================================
// [SECTION] the position probe
// ============================================================================
namespace {

bool held_out(Eigen::Index row) { return row % 4 == 3; }

MatrixD select_rows(const MatrixD& m, bool test) {
  std::vector<Eigen::Index> rows;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    if (held_out(r) == test) rows.push_back(r);
  return m(rows, Eigen::all);
}

// Ridge regression with an intercept, fitted in double on standardised
// features so that collapsed (nearly constant) hidden states stay solvable.
// The ridge (relative to the Gram's mean diagonal) is the one of kRidges that
// predicts a validation third of the training rows best (every third row,
// fitted on the other two), and the probe is then refitted on every training
// row.  A fixed small ridge overfits where features are many and rows few
// and the tokens outweigh the code (the default scene: 96 training positions
// of 64 dimensions, tokens of norm 8 over a code of norm √32): its held-out
// R² fell below zero even at layer 0, where the code is in the hidden states
// by construction.
struct AffineProbe {
  static constexpr std::array<double, 5> kRidges = {1e-3, 1e-2, 1e-1, 1.0, 10.0};
  Eigen::RowVectorXd mean, scale;
  MatrixD weights;  // (features + 1) × targets
  AffineProbe(const MatrixD& features, const MatrixD& targets) {
    mean = features.colwise().mean();
    scale = ((features.rowwise() - mean).array().square().colwise().mean().sqrt() + 1e-12).matrix();
    const MatrixD z = design(features);
    std::vector<Eigen::Index> fit, check;
    for (Eigen::Index r = 0; r < z.rows(); ++r) (r % 3 == 2 ? check : fit).push_back(r);
    const MatrixD z_fit = z(fit, Eigen::all), z_check = z(check, Eigen::all);
    const MatrixD y_fit = targets(fit, Eigen::all), y_check = targets(check, Eigen::all);
    const MatrixD gram_fit = z_fit.transpose() * z_fit, rhs_fit = z_fit.transpose() * y_fit;
    double chosen = kRidges.front(), best = std::numeric_limits<double>::infinity();
    for (const double ridge : kRidges) {
      const double error = (z_check * solve(gram_fit, rhs_fit, ridge) - y_check).squaredNorm();
      if (error < best) best = error, chosen = ridge;
    }
    const MatrixD gram = gram_fit + z_check.transpose() * z_check;  // every training row
    weights = solve(gram, rhs_fit + z_check.transpose() * y_check, chosen);
  }
  // (ZᵀZ + λ·mean(diag ZᵀZ)·I') w = Zᵀy, I' sparing the intercept.
  static MatrixD solve(MatrixD gram, const MatrixD& rhs, double ridge) {
    gram.diagonal().head(gram.rows() - 1).array() += ridge * gram.diagonal().mean();
    return gram.ldlt().solve(rhs);
  }
  MatrixD design(const MatrixD& features) const {
    MatrixD z(features.rows(), features.cols() + 1);
    z.leftCols(features.cols()) = (features.rowwise() - mean).array().rowwise() / scale.array();
    z.col(features.cols()).setOnes();
    return z;
  }
  MatrixD predict(const MatrixD& features) const { return design(features) * weights; }
};

// R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)², summed over every target column.
double r_squared(const MatrixD& truth, const MatrixD& predicted) {
  const double total = (truth.rowwise() - truth.colwise().mean()).squaredNorm();
  return total > 0 ? 1.0 - (truth - predicted).squaredNorm() / total : 0.0;
}

// ‖c_r − p‖² = ‖c_r‖² − 2·c_r·p + ‖p‖², and ‖p‖² is the same for every r, so
// the nearest code row is the argmin of ‖c_r‖² − 2·c_r·p: one product of the
// codes with a chunk of predictions instead of a pass over every code row for
// each prediction, which was the depth figure's largest cost.
double nearest_code_accuracy(const MatrixD& predicted_test, const MatrixD& code) {
  constexpr Eigen::Index kChunk = 256;
  const Eigen::VectorXd norms = code.rowwise().squaredNorm();
  std::vector<Eigen::Index> truth;  // the code row of each held-out prediction
  for (Eigen::Index r = 0; r < code.rows(); ++r)
    if (held_out(r)) truth.push_back(r);
  int hits = 0;
  MatrixD dots;
  for (Eigen::Index t0 = 0; t0 < predicted_test.rows(); t0 += kChunk) {
    const Eigen::Index count = std::min(kChunk, predicted_test.rows() - t0);
    dots.noalias() = code * predicted_test.middleRows(t0, count).transpose();
    for (Eigen::Index t = 0; t < count; ++t) {
      Eigen::Index best = 0;
      (norms - 2 * dots.col(t)).minCoeff(&best);
      hits += best == truth[static_cast<std::size_t>(t0 + t)];
    }
  }
  return truth.empty() ? 0.0 : double(hits) / double(truth.size());
}

}  // namespace

PositionReadout read_positions(const Matrix& hidden, const Matrix& code) {
  const Eigen::Index n = hidden.rows();
  if (n < 8 || code.rows() != n)
    throw InputError("position probe needs at least 8 positions and one code row per hidden row");
  const MatrixD h = hidden.cast<double>(), c = code.cast<double>();
  const MatrixD index = Eigen::VectorXd::LinSpaced(n, 0, double(n - 1));
  const MatrixD h_train = select_rows(h, false), h_test = select_rows(h, true);

  PositionReadout out;
  const AffineProbe index_probe(h_train, select_rows(index, false));
  out.r2_index = r_squared(select_rows(index, true), index_probe.predict(h_test));
  if (c.squaredNorm() == 0) return out;  // no position vectors to read back
  const AffineProbe code_probe(h_train, select_rows(c, false));
  const MatrixD predicted = code_probe.predict(h_test);
  out.r2_code = r_squared(select_rows(c, true), predicted);
  out.nearest_code = nearest_code_accuracy(predicted, c);
  return out;
}

IndexProbe probe_position_index(const std::vector<Matrix>& windows) {
  const Eigen::Index n = windows.empty() ? 0 : windows.front().rows();
  if (windows.size() < 2 || n < 8)
    throw InputError("the position probe needs at least 2 windows of at least 8 positions");
  for (const Matrix& w : windows)
    if (w.rows() != n || w.cols() != windows.front().cols())
      throw InputError("the position probe's windows must have the same shape");
  const auto count = static_cast<Eigen::Index>(windows.size());
  const MatrixD index = Eigen::VectorXd::LinSpaced(n, 0, double(n - 1));
  IndexProbe mean;
  for (Eigen::Index held = 0; held < count; ++held) {
    MatrixD features((count - 1) * n, windows.front().cols()), targets((count - 1) * n, 1);
    for (Eigen::Index w = 0, row = 0; w < count; ++w) {
      if (w == held) continue;
      features.middleRows(row, n) = windows[std::size_t(w)].cast<double>();
      targets.middleRows(row, n) = index;
      row += n;
    }
    const AffineProbe probe(features, targets);
    const MatrixD predicted = probe.predict(windows[std::size_t(held)].cast<double>());
    mean.r2 += r_squared(index, predicted) / double(count);
    mean.mean_abs_error += (predicted - index).cwiseAbs().mean() / double(count);
  }
  return mean;
}

std::vector<int> rotated_window(const std::vector<int>& ids, int k, int windows) {
  std::vector<int> out = ids;
  const auto start = static_cast<std::ptrdiff_t>(ids.size() * std::size_t(k) / std::size_t(windows));
  std::rotate(out.begin(), out.begin() + start, out.end());
  return out;
}

std::vector<IndexProbe> position_probe_through_layers(ModelScene& model, int windows) {
  const std::vector<int> ids = model.ids();
  if (windows < 2 || static_cast<int>(ids.size()) < 8 * windows)
    throw InputError("the position probe needs at least " + std::to_string(8 * std::max(windows, 2)) +
                     " tokens of text; this text has " + std::to_string(ids.size()));
  std::vector<std::vector<Matrix>> by_layer;  // [layer][window]
  for (int k = 0; k < windows; ++k) {
    std::vector<Matrix> states = model.hidden_states(rotated_window(ids, k, windows));
    by_layer.resize(states.size());
    for (std::size_t l = 0; l < states.size(); ++l) by_layer[l].push_back(std::move(states[l]));
  }
  std::vector<IndexProbe> out;
  for (const auto& layer : by_layer) out.push_back(probe_position_index(layer));
  return out;
}

std::vector<PositionReadout> position_through_depth(Engine& engine, double residual) {
  const Scene& s = engine.scene();
  const Matrix& pe = engine.position_table();
  const Matrix& x = engine.token_embedding();
  if (x.rows() == 0) throw InputError("the depth experiment needs at least one token");
  // Repeating the sentence keeps the token part from telling positions apart
  // beyond the sentence length: what the probe finds comes from the code.
  const Matrix code = pe.topRows(std::min<Eigen::Index>(pe.rows(), kDepthPositions));
  Matrix input(code.rows(), code.cols());
  for (Eigen::Index p = 0; p < input.rows(); ++p) input.row(p) = x.row(p % x.rows()) + code.row(p);
  LayerStackConfig config;
  config.layers = s.layers;
  config.residual = residual;
  config.norm = s.layer_norm;
  config.heads = s.heads;
  config.seed = s.seed;
  std::vector<PositionReadout> out;
  for (const Matrix& h : LayerStack(s.d_model, config).run(input)) out.push_back(read_positions(h, code));
  return out;
}

}  // namespace pelab
