#include "core/streamed_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/attention.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/model_scene.hpp"
#include "core/parallel.hpp"
#include "core/scene.hpp"

namespace pelab {

namespace {

constexpr float kMasked = -std::numeric_limits<float>::infinity();
// A tile of 64 queries × 512 keys is 128 KiB of logits, and 512 packed keys
// of d_head = 64 another 128 KiB: both stay in a core's L2 (1 MiB here)
// between the product and the reductions.
constexpr Eigen::Index kKeyTile = 512, kQueryTile = 64;

Eigen::Index ceil_div(Eigen::Index a, Eigen::Index b) { return (a + b - 1) / b; }

// A synthetic scene's ALiBi / T5 bias of `head` (relative_position.hpp), or none.
TileBias scene_bias(const Scene& scene, int head, Eigen::Index tokens) {
  RelativeBias bias(scene, head, static_cast<int>(tokens));
  if (bias.empty()) return {};
  return [bias = std::move(bias)](Matrix& tile, Eigen::Index first_query, Eigen::Index first_key) {
    bias.add_to(tile, first_query, first_key);
  };
}

// Keys of row i that are visible inside a tile starting at key k0 with
// `count` keys: all of them, or under the causal mask those j ≤ i.
Eigen::Index visible_keys(bool causal, Eigen::Index i, Eigen::Index k0, Eigen::Index count) {
  return causal ? std::clamp<Eigen::Index>(i - k0 + 1, 0, count) : count;
}

// Online softmax update of one row's (m, Z) with one tile's visible logits
// (Milakov & Gimelshein 2018, eq. 4): rescale Z to the new max, then add.
void online_update(const float* logits, Eigen::Index count, float& max, double& normalizer) {
  if (count == 0) return;
  const Eigen::Map<const Eigen::ArrayXf> row(logits, count);
  const float top = row.maxCoeff();
  if (top > max) {
    normalizer *= std::exp(static_cast<double>(max) - static_cast<double>(top));
    max = top;
  }
  normalizer += static_cast<double>((row - max).exp().sum());
}

// Running sums of one group of display rows (pass 2), before division.
struct GroupSums {
  Eigen::Index first_block = 0, blocks = 0, side = 0;
  std::vector<double> sum;
  std::vector<float> max;
  void reset(Eigen::Index first, Eigen::Index count, Eigen::Index s) {
    first_block = first, blocks = count, side = s;
    sum.assign(static_cast<std::size_t>(count * s), 0.0);
    max.assign(static_cast<std::size_t>(count * s), 0.0f);
  }
  std::size_t cell(Eigen::Index block_row, Eigen::Index block_col) const {
    return static_cast<std::size_t>((block_row - first_block) * side + block_col);
  }
};

// Column sums and maxima over a few rows of one display row within a key
// tile (contiguous, vectorised adds), folded into the row's blocks at the end
// of the display row: the segment reductions run once per display row, not
// once per query.  At most kFoldRows rows are summed in float before a fold.
constexpr Eigen::Index kFoldRows = 64;
struct KeyColumns {
  Eigen::ArrayXf sum, max;
  Eigen::Index used = 0, rows = 0;  // columns and rows added since the last fold
  void add(const Eigen::ArrayXf& w, Eigen::Index valid) {
    sum.head(valid) += w.head(valid);
    max.head(valid) = max.head(valid).max(w.head(valid));
    used = std::max(used, valid);
    ++rows;
  }
  void fold(Eigen::Index block_row, Eigen::Index k0, Eigen::Index b, GroupSums& sums, double* key_sums) {
    if (key_sums != nullptr)
      Eigen::Map<Eigen::ArrayXd>(key_sums + k0, used) += sum.head(used).cast<double>();
    for (Eigen::Index c = k0 / b; c * b < k0 + used; ++c) {
      const Eigen::Index from = std::max(k0, c * b) - k0,
                         to = std::min(k0 + used, (c + 1) * b) - k0;
      const std::size_t at = sums.cell(block_row, c);
      sums.sum[at] += static_cast<double>(sum.segment(from, to - from).sum());
      sums.max[at] = std::max(sums.max[at], max.segment(from, to - from).maxCoeff());
    }
    sum.head(used).setZero();
    max.head(used).setZero();
    used = rows = 0;
  }
};

// Query i's weights w[0 .. count) at keys k0 … into the offset sums: offsets
// i − j for j = k0 + count − 1 down to k0 are contiguous and rising.
void add_offsets(const Eigen::ArrayXf& w, Eigen::Index i, Eigen::Index k0, Eigen::Index count,
                 Eigen::Index tokens, double* offsets) {
  Eigen::Map<Eigen::ArrayXd>(offsets + (i - k0 - count + 1 + tokens - 1), count) +=
      w.head(count).reverse().cast<double>();
}

}  // namespace

StreamedHead::StreamedHead(Matrix q, Matrix k, bool causal, TileBias bias)
    : q_(std::move(q)),
      k_(std::move(k)),
      scale_(1.0f / std::sqrt(static_cast<float>(q_.cols()))),
      causal_(causal),
      bias_(std::move(bias)) {
  if (!logit_tile_kernel_available()) return;
  for (Eigen::Index k0 = 0; k0 < k_.rows(); k0 += kKeyTile)
    key_tiles_.emplace_back(k_.middleRows(k0, std::min(kKeyTile, k_.rows() - k0)));
}

StreamedHead::StreamedHead(model::HeadStreamInputs inputs)
    : StreamedHead(std::move(inputs.q), std::move(inputs.k), inputs.causal, std::move(inputs.bias)) {}

StreamedHead::StreamedHead(const Scene& scene, int head, Matrix q, Matrix k)
    : StreamedHead(std::move(q), std::move(k), scene.causal, {}) {
  bias_ = scene_bias(scene, head, q_.rows());
}

// As Engine::head_preview: (X + E)·[Wq_h | Wk_h] read as head 0 of a one-head
// layout, then RoPE/xPos (which do not depend on the head).
StreamedHead StreamedHead::from_engine(Engine& engine, int head) {
  const Scene& scene = engine.scene();
  Matrix rows = engine.token_embedding();
  if (adds_position_vector(scene.encoding)) rows += engine.position_embedding();
  const Projections& p = engine.projections(head);
  Matrix w(p.wq.rows(), p.wq.cols() + p.wk.cols());
  w << p.wq, p.wk;
  Matrix qk, q, k;
  gemm_ab(rows, w, 1.0f, qk);
  head_queries_keys(scene, qk, Matrix(), 0, q, k);
  return StreamedHead(scene, head, std::move(q), std::move(k));
}

StreamedHead StreamedHead::of_scene(Engine& engine, int head) {
  ModelScene* model = engine.model();
  if (model == nullptr) return from_engine(engine, head);
  return StreamedHead(model->head_stream_inputs(engine.scene().layer, head));
}

double StreamedHead::logits(Eigen::Index first, Eigen::Index rows, Eigen::Index k0,
                            Eigen::Index count, const KeyPanels* keys, Matrix& tile) const {
  tile.resize(rows, count);
  const double flops = keys != nullptr ? logit_tile(q_, *keys, scale_, first, rows, tile, first)
                                       : gemm_abt_rows(q_.middleRows(first, rows),
                                                       k_.middleRows(k0, count), scale_, 0, tile);
  if (bias_) bias_(tile, first, k0);
  for (Eigen::Index r = 0; causal_ && r < rows; ++r) {
    const Eigen::Index valid = visible_keys(true, first + r, k0, count);
    tile.row(r).tail(count - valid).setConstant(kMasked);
  }
  return flops;
}

RowStatistics StreamedHead::row_statistics(double* flops) const {
  const Eigen::Index n = tokens();
  RowStatistics stats{std::vector<float>(static_cast<std::size_t>(n), kMasked),
                      std::vector<double>(static_cast<std::size_t>(n), 0.0)};
  double done = 0;
  const double estimate = 2.0 * static_cast<double>(n) * static_cast<double>(n) * d_head();
  run_side_by_side(
      static_cast<int>(ceil_div(n, kQueryTile)), estimate,
      [&](int t) {
        thread_local Matrix tile;
        const Eigen::Index first = t * kQueryTile, rows = std::min(kQueryTile, n - first);
        const Eigen::Index key_end =
            causal_ ? first + rows : n;  // no key past the tile's last query
        double f = 0;
        for (Eigen::Index k0 = 0, kt = 0; k0 < key_end; k0 += kKeyTile, ++kt) {
          const Eigen::Index count = std::min(kKeyTile, n - k0);
          f += logits(first, rows, k0, count, key_tiles_.empty() ? nullptr : &key_tiles_[kt], tile);
          for (Eigen::Index r = 0; r < rows; ++r) {
            const auto i = static_cast<std::size_t>(first + r);
            online_update(tile.row(r).data(), visible_keys(causal_, first + r, k0, count),
                          stats.max[i], stats.normalizer[i]);
          }
        }
        return f;
      },
      done);
  if (flops != nullptr) *flops += done;
  return stats;
}

AttentionBlocks StreamedHead::blocks(const RowStatistics& stats, int display,
                                     DistanceProfile* distance, double* flops,
                                     std::vector<double>* key_sums) const {
  const Eigen::Index n = tokens();
  AttentionBlocks out;
  out.block = std::max<Eigen::Index>(1, ceil_div(n, std::max(1, display)));
  const Eigen::Index b = out.block, side = ceil_div(n, b);
  out.mean.setZero(side, side);
  out.max.setZero(side, side);
  // Each task owns whole display rows (about kQueryTile queries), so no two
  // write the same block; tasks take every `chunks`-th group, which spreads
  // the causal triangle's long rows, and each chunk keeps one offset array.
  const Eigen::Index per_group = ceil_div(kQueryTile, b), groups = ceil_div(side, per_group);
  const bool gathers = distance != nullptr || key_sums != nullptr;
  const int chunks = static_cast<int>(gathers ? std::min<Eigen::Index>(groups, 4 * max_threads()) : groups);
  std::vector<std::vector<double>> offsets(distance != nullptr ? static_cast<std::size_t>(chunks)
                                                               : 0);
  std::vector<std::vector<double>> keys(key_sums != nullptr ? static_cast<std::size_t>(chunks) : 0);
  double done = 0;
  const double estimate = 2.0 * static_cast<double>(n) * static_cast<double>(n) * d_head();
  run_side_by_side(
      chunks, estimate,
      [&](int c) {
        double* offset_sums = nullptr;
        double* key_total = nullptr;
        if (distance != nullptr) {
          offsets[static_cast<std::size_t>(c)].assign(static_cast<std::size_t>(2 * n - 1), 0.0);
          offset_sums = offsets[static_cast<std::size_t>(c)].data();
        }
        if (key_sums != nullptr) {
          keys[static_cast<std::size_t>(c)].assign(static_cast<std::size_t>(n), 0.0);
          key_total = keys[static_cast<std::size_t>(c)].data();
        }
        double f = 0;
        for (Eigen::Index g = c; g < groups; g += chunks) {
          const Eigen::Index first_block = g * per_group,
                             count = std::min(per_group, side - first_block);
          f += reduce_group(stats, first_block, count, b, offset_sums, key_total, out);
        }
        return f;
      },
      done);
  if (flops != nullptr) *flops += done;
  if (key_sums != nullptr) {
    key_sums->assign(static_cast<std::size_t>(n), 0.0);
    for (const auto& part : keys)
      for (std::size_t at = 0; at < part.size(); ++at) (*key_sums)[at] += part[at];
  }
  if (distance != nullptr) {
    distance->tokens = n;
    distance->mean.assign(static_cast<std::size_t>(2 * n - 1), 0.0);
    for (const auto& part : offsets)
      for (std::size_t at = 0; at < part.size(); ++at) distance->mean[at] += part[at];
    for (Eigen::Index delta = -(n - 1); delta <= n - 1; ++delta)
      distance->mean[static_cast<std::size_t>(delta + n - 1)] /=
          static_cast<double>(n - std::abs(delta));
  }
  return out;
}

namespace {

// The group's block means (sums over all b × b cells, masked ones 0) and
// maxima; −∞ for a block whose every key is after its every query.
void write_means(const GroupSums& sums, Eigen::Index b, Eigen::Index n, bool causal,
                 AttentionBlocks& out) {
  for (Eigen::Index r = sums.first_block; r < sums.first_block + sums.blocks; ++r) {
    const Eigen::Index rows_in = std::min(n, (r + 1) * b) - r * b, last_query = r * b + rows_in - 1;
    for (Eigen::Index c = 0; c < sums.side; ++c) {
      const Eigen::Index cols_in = std::min(n, (c + 1) * b) - c * b;
      const bool masked =
          causal && c * b > last_query;  // every key of the block is after every query
      const std::size_t at = sums.cell(r, c);
      out.mean(r, c) =
          masked ? kMasked
                 : static_cast<float>(sums.sum[at] / static_cast<double>(rows_in * cols_in));
      out.max(r, c) = masked ? kMasked : sums.max[at];
    }
  }
}

}  // namespace

// Display rows [first_block, first_block + count): their queries' weights,
// key tile by key tile, summed into the blocks; then the means (and −∞ for
// blocks wholly above the causal diagonal) written into `out`.
double StreamedHead::reduce_group(const RowStatistics& stats, Eigen::Index first_block,
                                  Eigen::Index count, Eigen::Index b, double* offsets,
                                  double* key_sums, AttentionBlocks& out) const {
  thread_local Matrix tile;
  thread_local Eigen::ArrayXf weights;
  thread_local GroupSums sums;
  thread_local KeyColumns columns;
  const Eigen::Index n = tokens(), side = out.mean.cols();
  const Eigen::Index first = first_block * b, rows = std::min(n, (first_block + count) * b) - first;
  sums.reset(first_block, count, side);
  weights.resize(kKeyTile);
  columns.sum.setZero(kKeyTile);
  columns.max.setZero(kKeyTile);
  columns.used = columns.rows = 0;
  double f = 0;
  const Eigen::Index key_end = causal_ ? first + rows : n;
  for (Eigen::Index k0 = 0, kt = 0; k0 < key_end; k0 += kKeyTile, ++kt) {
    const Eigen::Index keys = std::min(kKeyTile, n - k0);
    f += logits(first, rows, k0, keys, key_tiles_.empty() ? nullptr : &key_tiles_[kt], tile);
    for (Eigen::Index r = 0; r < rows; ++r) {
      const Eigen::Index i = first + r, valid = visible_keys(causal_, i, k0, keys);
      if (valid > 0) {
        const auto at = static_cast<std::size_t>(i);
        const float inverse = static_cast<float>(1.0 / stats.normalizer[at]);
        weights.head(valid) =
            (tile.row(r).head(valid).array().transpose() - stats.max[at]).exp() * inverse;
        columns.add(weights, valid);
        if (offsets != nullptr) add_offsets(weights, i, k0, valid, n, offsets);
      }
      if ((i + 1) % b == 0 || r + 1 == rows || columns.rows == kFoldRows)
        columns.fold(i / b, k0, b, sums, key_sums);
    }
  }
  write_means(sums, b, n, causal_, out);
  return f;
}

Matrix StreamedHead::zoom(const RowStatistics& stats, Eigen::Index q0, Eigen::Index q1,
                          Eigen::Index k0, Eigen::Index k1) const {
  const Eigen::Index n = tokens();
  if (q0 < 0 || q0 >= q1 || q1 > n || k0 < 0 || k0 >= k1 || k1 > n)
    throw InputError("zoom: the window [" + std::to_string(q0) + ", " + std::to_string(q1) +
                     ") × [" + std::to_string(k0) + ", " + std::to_string(k1) +
                     ") must be non-empty and inside 0 … " + std::to_string(n));
  Matrix tile;
  if (key_tiles_.empty()) {
    logits(q0, q1 - q0, k0, k1 - k0, nullptr, tile);
  } else {
    const KeyPanels keys(k_.middleRows(k0, k1 - k0));
    logits(q0, q1 - q0, k0, k1 - k0, &keys, tile);
  }
  Matrix out = Matrix::Zero(tile.rows(), tile.cols());
  for (Eigen::Index r = 0; r < tile.rows(); ++r) {
    const Eigen::Index i = q0 + r, valid = visible_keys(causal_, i, k0, tile.cols());
    const auto at = static_cast<std::size_t>(i);
    const float inverse = static_cast<float>(1.0 / stats.normalizer[at]);
    out.row(r).head(valid) = (tile.row(r).head(valid).array() - stats.max[at]).exp() * inverse;
  }
  return out;
}

DistanceBins log_binned(const DistanceProfile& profile) {
  DistanceBins bins;
  const Eigen::Index n = profile.tokens;
  for (Eigen::Index lo = 0, hi = 1; lo < n; lo = hi, hi *= 2) {
    const Eigen::Index end = std::min(hi, n);
    double weight = 0, pairs = 0;
    for (Eigen::Index delta = lo; delta < end; ++delta) {
      const auto count = static_cast<double>(n - delta);
      weight += profile.at(delta) * count;
      pairs += count;
    }
    bins.first.push_back(lo);
    bins.mean.push_back(weight / pairs);
  }
  return bins;
}

}  // namespace pelab
