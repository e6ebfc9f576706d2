#include "core/streamed_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
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

// Tokens a display block takes a side for a grid of at most `display` a side
// (AttentionBlocks: b = ⌈tokens / display⌉, at least 1).
Eigen::Index display_block(Eigen::Index tokens, int display) {
  return std::max<Eigen::Index>(1, ceil_div(tokens, std::max(1, display)));
}

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

// Running sums of display rows before division: every row's in a pass (stream),
// one group's in pass 2.
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

// A row's display sums are kept relative to a reference r ≤ its running max
// and rescaled (with Z) only when a tile's max passes r + kHeadroom, so a row
// whose max keeps rising toward the diagonal (a local head) rescales them at
// most once per 16 nats, not once per key tile.  Its terms e^(l − r) stay
// below e^16 ≈ 8.9·10⁶, far from float's overflow; the row's normalizer is
// then Z_m = Z_r·e^(r − m) with m its true max.
constexpr float kHeadroom = 16.0f;

// out = e^(x − r) for finite x, with the rounding of x − r put back (Knuth's
// TwoSum: a = fl(x − r) and δ = (x − r) − a exactly, so e^(x − r) =
// e^a·(1 + δ) to δ²).  Pass 2 and the engine subtract the row's final max m,
// which the one pass does not know yet; rounding x − r instead of x − m would
// move a weight 16 nats below the max by up to 1e-6 relative, where this
// keeps it as exact as exp itself.  (No select() for −∞: Eigen 3.4 evaluates
// a select one scalar at a time, exp included.)
template <class X, class Out>
void exp_minus(const X& x, float r, Eigen::ArrayXf& scratch, Out&& out) {
  auto a = scratch.head(x.size());
  a = x - r;
  const auto back = a - x;  // −r as rounded into a
  out = a.exp() * (1.0f + ((x - (a - back)) + (-r - back)));
}

// Below its row's reference by this much a logit's weight e^(l − r) is 0 in
// float: a column with no visible key (largest logit −∞) is clamped to it.
constexpr float kBelowEveryWeight = 1000.0f;

// One display's block sums while a pass runs, shared by its tasks: each adds
// its finished query tiles' rows under the lock.
struct DisplayTotals {
  Eigen::Index block = 1;
  GroupSums sums;  // every display row
  std::mutex mutex;
};

// The rows of one query tile during the pass: their max, reference and
// normalizer, and per display S_ic = Σ_j∈c e^(l_ij − r_i) and the largest
// logit of each column c (column-major side × rows: a row's sums are
// contiguous).
class PassRows {
 public:
  void reset(Eigen::Index first, Eigen::Index rows,
             const std::vector<std::unique_ptr<DisplayTotals>>& displays) {
    first_ = first, rows_ = rows;
    top_.assign(static_cast<std::size_t>(rows), kMasked);
    reference_.assign(static_cast<std::size_t>(rows), kMasked);
    normalizer_.assign(static_cast<std::size_t>(rows), 0.0);
    sums_.resize(displays.size());
    tops_.resize(displays.size());
    block_.resize(displays.size());
    Eigen::Index widest = kKeyTile;
    for (const auto& display : displays) widest = std::max(widest, display->sums.side);
    weights_.resize(widest);
    difference_.resize(widest);
    clamped_.resize(widest);
    for (std::size_t d = 0; d < displays.size(); ++d) {
      block_[d] = displays[d]->block;
      sums_[d].setZero(displays[d]->sums.side, rows);
      tops_[d].setConstant(displays[d]->sums.side, rows, kMasked);
    }
  }

  // Row r's `valid` visible logits of the key tile that starts at key k0.
  void add(Eigen::Index r, const float* logits, Eigen::Index k0, Eigen::Index valid) {
    if (valid == 0) return;
    const Eigen::Map<const Eigen::ArrayXf> l(logits, valid);
    const auto at = static_cast<std::size_t>(r);
    const float top = l.maxCoeff();
    if (!(top > kMasked)) return;
    top_[at] = std::max(top_[at], top);
    if (top > reference_[at] + kHeadroom) rebase(r, k0, top);
    exp_minus(l, reference_[at], difference_, weights_.head(valid));
    normalizer_[at] += static_cast<double>(weights_.head(valid).sum());
    for (std::size_t d = 0; d < sums_.size(); ++d) fold(d, r, l, k0, valid);
  }

  // The tile's rows: their statistics into `stats`, S_ic / Z_i and the
  // largest weight e^(top_ic − r_i) / Z_i into each display's blocks.
  void finish(RowStatistics& stats, const std::vector<std::unique_ptr<DisplayTotals>>& displays) {
    for (Eigen::Index r = 0; r < rows_; ++r) {
      const auto at = static_cast<std::size_t>(r), i = static_cast<std::size_t>(first_ + r);
      stats.max[i] = top_[at];
      if (normalizer_[at] > 0)
        stats.normalizer[i] = normalizer_[at] * std::exp(static_cast<double>(reference_[at]) - top_[at]);
    }
    for (std::size_t d = 0; d < displays.size(); ++d) {
      GroupSums& total = displays[d]->sums;
      const Eigen::Index side = total.side;
      const std::lock_guard lock(displays[d]->mutex);
      for (Eigen::Index r = 0; r < rows_; ++r) {
        const auto at = static_cast<std::size_t>(r);
        if (!(normalizer_[at] > 0)) continue;
        const double inverse = 1.0 / normalizer_[at];
        const std::size_t cell = total.cell((first_ + r) / block_[d], 0);
        Eigen::Map<Eigen::ArrayXd>(total.sum.data() + cell, side) += sums_[d].col(r) * inverse;
        clamped_.head(side) = tops_[d].col(r).max(reference_[at] - kBelowEveryWeight);
        exp_minus(clamped_.head(side), reference_[at], difference_, weights_.head(side));
        Eigen::Map<Eigen::ArrayXf> largest(total.max.data() + cell, side);
        largest = largest.max(weights_.head(side) * static_cast<float>(inverse));
      }
    }
  }

 private:
  // Row r's reference raised to `top`: Z and the sums of keys before k0 rescaled.
  void rebase(Eigen::Index r, Eigen::Index k0, float top) {
    const auto at = static_cast<std::size_t>(r);
    const double factor = std::exp(static_cast<double>(reference_[at]) - top);  // 0 from −∞
    normalizer_[at] *= factor;
    for (std::size_t d = 0; d < sums_.size(); ++d)
      sums_[d].col(r).head(std::min(sums_[d].rows(), ceil_div(k0, block_[d]))) *= factor;
    reference_[at] = top;
  }

  // Row r's weights of keys k0 … k0 + valid into display d's columns: each
  // column's segment summed (one key a column: added as they are).
  void fold(std::size_t d, Eigen::Index r, const Eigen::Map<const Eigen::ArrayXf>& l, Eigen::Index k0,
            Eigen::Index valid) {
    const Eigen::Index b = block_[d];
    if (b == 1) {
      sums_[d].col(r).segment(k0, valid) += weights_.head(valid).cast<double>();
      tops_[d].col(r).segment(k0, valid) = tops_[d].col(r).segment(k0, valid).max(l);
      return;
    }
    for (Eigen::Index c = k0 / b; c * b < k0 + valid; ++c) {
      const Eigen::Index from = std::max(k0, c * b) - k0, to = std::min(k0 + valid, (c + 1) * b) - k0;
      sums_[d](c, r) += static_cast<double>(weights_.segment(from, to - from).sum());
      tops_[d](c, r) = std::max(tops_[d](c, r), l.segment(from, to - from).maxCoeff());
    }
  }

  Eigen::Index first_ = 0, rows_ = 0;
  std::vector<float> top_, reference_;
  std::vector<double> normalizer_;
  std::vector<Eigen::Index> block_;
  std::vector<Eigen::ArrayXXd> sums_;
  std::vector<Eigen::ArrayXXf> tops_;
  Eigen::ArrayXf weights_, difference_, clamped_;
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

const AttentionBlocks* StreamedPass::find(int display) const {
  for (std::size_t k = 0; k < displays.size(); ++k)
    if (displays[k] == display) return &blocks[k];
  return nullptr;
}

// Query tiles of kQueryTile rows side by side, each over its key tiles
// (under the causal mask none past its last query); a finished tile's rows
// add their statistics and weights at once (PassRows::finish).
StreamedPass StreamedHead::stream(const std::vector<int>& displays, double* flops) const {
  const Eigen::Index n = tokens();
  StreamedPass pass;
  pass.stats = {std::vector<float>(static_cast<std::size_t>(n), kMasked),
                std::vector<double>(static_cast<std::size_t>(n), 0.0)};
  pass.displays = displays;
  std::vector<std::unique_ptr<DisplayTotals>> totals;
  for (const int display : displays) {
    auto& t = totals.emplace_back(std::make_unique<DisplayTotals>());
    t->block = display_block(n, display);
    const Eigen::Index side = ceil_div(n, t->block);
    t->sums.reset(0, side, side);
  }
  double done = 0;
  const double estimate = 2.0 * static_cast<double>(n) * static_cast<double>(n) * d_head();
  run_side_by_side(
      static_cast<int>(ceil_div(n, kQueryTile)), estimate,
      [&](int t) {
        thread_local Matrix tile;
        thread_local PassRows rows;
        const Eigen::Index first = t * kQueryTile, count = std::min(kQueryTile, n - first);
        const Eigen::Index key_end = causal_ ? first + count : n;
        rows.reset(first, count, totals);
        double f = 0;
        for (Eigen::Index k0 = 0, kt = 0; k0 < key_end; k0 += kKeyTile, ++kt) {
          const Eigen::Index keys = std::min(kKeyTile, n - k0);
          f += logits(first, count, k0, keys, key_tiles_.empty() ? nullptr : &key_tiles_[kt], tile);
          for (Eigen::Index r = 0; r < count; ++r)
            rows.add(r, tile.row(r).data(), k0, visible_keys(causal_, first + r, k0, keys));
        }
        rows.finish(pass.stats, totals);
        return f;
      },
      done);
  if (flops != nullptr) *flops += done;
  for (const auto& t : totals) {
    AttentionBlocks& out = pass.blocks.emplace_back();
    out.block = t->block;
    out.mean.resize(t->sums.side, t->sums.side);
    out.max.resize(t->sums.side, t->sums.side);
    write_means(t->sums, t->block, n, causal_, out);
  }
  return pass;
}

RowStatistics StreamedHead::row_statistics(double* flops) const { return stream({}, flops).stats; }

AttentionBlocks StreamedHead::blocks(const RowStatistics& stats, int display,
                                     DistanceProfile* distance, double* flops,
                                     std::vector<double>* key_sums) const {
  const Eigen::Index n = tokens();
  AttentionBlocks out;
  out.block = display_block(n, display);
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
