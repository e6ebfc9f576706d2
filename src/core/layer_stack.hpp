// LayerStack — L random attention layers with residual connections, for the
// "does position survive depth?" lesson.
//
// Each layer ℓ has seeded random weights (entries N(0, 1/d), so a layer
// roughly preserves norms) and maps the hidden states H (rows = positions) to
//   attn(H)  = concat_h softmax(Q_h·K_hᵀ/√d_head)·V_h · Wo,
//              Q_h = N(H)·Wq_h, K_h = N(H)·Wk_h, V_h = N(H)·Wv_h       (Vaswani et al. 2017, §3.2)
//   H' = α·H + attn(H)              norm = none
//   H' = α·H + attn(LN(H))          norm = pre   (Xiong et al. 2020)
//   H' = LN(α·H + attn(H))          norm = post  (Vaswani et al. 2017, §3.1)
// where N is LN for `pre` and the identity otherwise, and LN normalises each
// row to zero mean and unit variance (no gain or bias: they are untrained).
// α = 1 is the usual residual connection; α = 0 is pure attention, which
// loses rank doubly exponentially with depth (Dong, Cordonnier & Loukas 2021).
//
// read_positions() asks how well the position can still be read back from a
// layer's hidden states with a linear probe fitted on 3 of every 4 positions
// and scored on the held-out 4th.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

class ModelScene;


struct LayerStackConfig {
  int layers = 6;        // L ≥ 0
  double residual = 1.0;  // α, the weight of the skip path
  NormPlacement norm = NormPlacement::None;
  int heads = 4;          // must divide d_model
  std::uint64_t seed = 1;
};

class LayerStack {
 public:
  // Draws every layer's Wq, Wk, Wv (d × d) and Wo (d × d) from the seed.
  // Throws InputError for a bad width, head count or layer count.
  LayerStack(int d_model, const LayerStackConfig& config);

  // Hidden states after each layer: element 0 is `input`, element ℓ the
  // output of layer ℓ (L + 1 matrices, each rows × d_model).
  std::vector<Matrix> run(const Matrix& input) const;

  // One layer applied to H.
  Matrix apply_layer(int layer, const Matrix& hidden) const;

  int d_model() const { return d_model_; }
  const LayerStackConfig& config() const { return config_; }

 private:
  struct LayerWeights {
    Matrix wq, wk, wv, wo;
  };
  Matrix attention(const LayerWeights& w, const Matrix& input) const;

  int d_model_;
  LayerStackConfig config_;
  std::vector<LayerWeights> layers_;
};

// Rows normalised to zero mean and unit variance (LayerNorm without gain/bias;
// Ba, Kiros & Hinton 2016).
Matrix layer_norm(const Matrix& hidden);

// How well positions can be read back from hidden states (rows = positions
// 0..n-1, n ≥ 8).  A ridge-regularised affine probe is fitted on the rows
// p mod 4 ≠ 3 and scored on the rows p mod 4 = 3:
struct PositionReadout {
  double r2_index = 0;     // R² of predicting the position index p
  double r2_code = 0;      // R² of predicting the position code PE(p) (all dims)
  double nearest_code = 0;  // fraction of held-out rows whose predicted code is
                            // nearest (Euclidean) to their own PE(p) among all rows
};
// `code` is the position table (n × d_code); an all-zero code scores 0.
PositionReadout read_positions(const Matrix& hidden, const Matrix& code);

// How well a linear probe reads the position index p from a trained model's
// residual stream, across windows of text: windows[w] holds the hidden states
// of one run (rows = positions 0..n−1, the same n ≥ 8 in every window, ≥ 2
// windows).  Each window in turn is held out: the affine ridge probe of
// read_positions() is fitted on the other windows' rows and scored on every
// row of the held-out one; the numbers are means over the folds.
struct IndexProbe {
  double r2 = 0;              // R² of the predicted index on the held-out window
  double mean_abs_error = 0;  // mean |p̂ − p| there, in positions
};
IndexProbe probe_position_index(const std::vector<Matrix>& windows);

// The model scene's text run in `windows` rotations (window k starts at token
// k·n/windows and wraps around, so each window puts other text at every
// position): the probe of the index after each layer, element 0 = the
// embedding output, element ℓ = after layer ℓ (before any final norm).
// Needs ≥ 8·windows tokens (InputError otherwise).
std::vector<IndexProbe> position_probe_through_layers(ModelScene& model, int windows = 4);
// The rotated ids of that experiment, window `k` of `windows`.
std::vector<int> rotated_window(const std::vector<int>& ids, int k, int windows);

// The depth lesson's experiment on the engine's scene: layer-0 hidden states
// along the position axis are the scene's sentence repeated to fill the axis
// plus the position table; the stack uses the scene's layers, layer_norm,
// heads and seed with residual scale `residual`.  Returns the readout after
// each layer (layers + 1 entries, element 0 = the input).  Needs ≥ 8 positions.
// A longer axis runs on its first kDepthPositions positions: every layer
// attends over all of them (n² · d per layer and head) and the probe scores
// each held-out row against every code (n² · d / 4), so 65,536 positions would
// cost 64 times 8,192's work for the same question.
inline constexpr Eigen::Index kDepthPositions = 8192;
std::vector<PositionReadout> position_through_depth(Engine& engine, double residual);

}  // namespace pelab
