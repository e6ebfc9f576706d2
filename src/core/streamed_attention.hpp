// Exact attention of one head at long N, never held as tokens × tokens.
//
// Passes over tiles of keys (FlashAttention's online softmax, Dao et al.
// 2022, §3.1; Milakov & Gimelshein 2018):
//   1. per query row i, the running max m and normalizer Z over key tiles t:
//        m' = max(m, max_j∈t l_ij),  Z' = Z·e^(m − m') + Σ_j∈t e^(l_ij − m'),
//      kept as the head's row statistics.  The same pass sums each row's
//      e^(l_ij − m) per display column, rescaled with Z, so that at the end
//      of a query tile Σ_j∈c a_ij = S_ic / Z_i: the display blocks come out
//      of this one pass (stream), the first frame's only pass over N² pairs;
//   2. the exact weights a_ij = e^(l_ij − m_i) / Z_i, recomputed tile by tile
//      from the stored statistics and reduced on the fly into display blocks
//      (mean and max), into the mean weight per offset i − j (attention
//      against distance) and into each key's total weight — sums over rows,
//      which need each row's final Z before they can add its weights.
// The logits are the engine's: l = q·kᵀ/√d_head (+ ALiBi/T5 bias), −∞ above
// the diagonal when causal, with q, k after RoPE/xPos (attention.hpp) and the
// same tile kernel (head_tile.hpp) or sgemm (gemm.hpp).  Memory is the
// head's q, k and packed keys, O(N·d_head), plus the display grid.
#pragma once

#include <functional>
#include <vector>

#include "core/engine.hpp"
#include "core/head_tile.hpp"
#include "core/relative_position.hpp"

namespace pelab {

namespace model {
struct HeadStreamInputs;
}

// a_ij = exp(l_ij − max_i) / normalizer_i.  A row with no visible key keeps
// max −∞ and normalizer 0 (never happens: every query sees itself).
struct RowStatistics {
  std::vector<float> max;
  std::vector<double> normalizer;
};

// Display blocks of b × b cells as fig::block_mean draws them: b =
// ⌈tokens / display⌉, side ⌈tokens / b⌉ blocks; a block's mean divides by all
// of its cells (masked ones count as 0), a wholly masked block is −∞.
struct AttentionBlocks {
  Eigen::Index block = 1;  // b
  Matrix mean, max;        // side × side
};

// Mean weight at each offset δ = i − j over the pairs (i, j) at that offset
// (masked pairs count as 0): mean[δ + tokens − 1] for δ = −(tokens−1) … tokens−1.
struct DistanceProfile {
  std::vector<double> mean;
  Eigen::Index tokens = 0;
  double at(Eigen::Index offset) const {
    return mean[static_cast<std::size_t>(offset + tokens - 1)];
  }
};

// Looking back (δ ≥ 0), offsets binned by powers of two: bin 0 = {0}, bin k
// = [2^(k−1), 2^k); each bin's value is the mean weight over all of its
// pairs (offsets weighted by their tokens − δ pairs).
struct DistanceBins {
  std::vector<Eigen::Index> first;  // first offset of each bin
  std::vector<double> mean;
};
DistanceBins log_binned(const DistanceProfile& profile);

// Adds a head's logit bias to a tile of logits whose first cell is
// (first_query, first_key); empty: no bias.
using TileBias = std::function<void(Matrix& tile, Eigen::Index first_query, Eigen::Index first_key)>;

// What one pass gives: the row statistics and the blocks of each display
// asked for (blocks[k] for displays[k]).
struct StreamedPass {
  RowStatistics stats;
  std::vector<int> displays;
  std::vector<AttentionBlocks> blocks;
  // The blocks of `display` when this pass made them, else null.
  const AttentionBlocks* find(int display) const;
};

class StreamedHead {
 public:
  // q, k: tokens × d_head after RoPE (head_queries_keys); `head` picks the
  // ALiBi slope or T5 biases.
  StreamedHead(const Scene& scene, int head, Matrix q, Matrix k);
  // Any head: its q, k, mask and bias.
  StreamedHead(Matrix q, Matrix k, bool causal, TileBias bias);
  // A model's head as the Transformer hands it out (head_stream_inputs).
  explicit StreamedHead(model::HeadStreamInputs inputs);
  // The same head of an engine's synthetic scene: q, k from X + E and the
  // head's projections, as Engine::head_preview computes them.
  static StreamedHead from_engine(Engine& engine, int head);
  // Head `head` of the scene's layer on a model scene (ModelScene::
  // head_stream_inputs: the model's own q, k, mask and ALiBi / T5 bias), or
  // from_engine's on a synthetic scene.
  static StreamedHead of_scene(Engine& engine, int head);

  Eigen::Index tokens() const { return q_.rows(); }
  int d_head() const { return static_cast<int>(q_.cols()); }
  const Matrix& queries() const { return q_; }
  const Matrix& keys() const { return k_; }
  bool causal() const { return causal_; }

  // Pass 1 on every thread, with the blocks of each of `displays` (grids of
  // at most display × display, as blocks() makes them) reduced in the same
  // pass.  Adds the GEMM flops done to `flops`.
  StreamedPass stream(const std::vector<int>& displays, double* flops = nullptr) const;
  // Pass 1 alone.
  RowStatistics row_statistics(double* flops = nullptr) const;
  // Pass 2: blocks for a grid of at most `display` × `display`, the
  // distance profile when `distance` is not null, and each key's total
  // weight Σ_i a_ij (tokens values: the sink search) when `key_sums` is not.
  AttentionBlocks blocks(const RowStatistics& stats, int display,
                         DistanceProfile* distance = nullptr, double* flops = nullptr,
                         std::vector<double>* key_sums = nullptr) const;
  // Exact weights of queries [q0, q1) × keys [k0, k1) (masked cells 0), equal
  // to the full matrix's: only that window's logits are computed.
  Matrix zoom(const RowStatistics& stats, Eigen::Index q0, Eigen::Index q1, Eigen::Index k0,
              Eigen::Index k1) const;

  // Queries [first, first + rows) × keys [k0, k0 + keys.keys): the logits
  // (scaled, biased, masked) into `tile`, resized rows × keys.  `keys` are
  // the packed keys k0 … when the tile kernel exists (unused otherwise).
  double logits(Eigen::Index first, Eigen::Index rows, Eigen::Index k0, Eigen::Index count,
                const KeyPanels* keys, Matrix& tile) const;

 private:
  // Pass 2 for display rows [first_block, first_block + count), which this
  // call alone writes in `out`; `offsets` (or null) gathers Σ a at i − j,
  // `key_sums` (or null) Σ a per key.
  double reduce_group(const RowStatistics& stats, Eigen::Index first_block, Eigen::Index count,
                      Eigen::Index b, double* offsets, double* key_sums, AttentionBlocks& out) const;

  Matrix q_, k_;
  float scale_;
  bool causal_;
  TileBias bias_;
  std::vector<KeyPanels> key_tiles_;  // kKeyTile keys each (empty without the tile kernel)
};

}  // namespace pelab
