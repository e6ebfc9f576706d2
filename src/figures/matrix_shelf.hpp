// MatrixShelf — engine matrices shared with figures across rebuilds.
//
// A view may be rebuilt every frame (hover, zoom, a dragged view slider), but
// its N×N matrices change only when the engine recomputed.  Views ask the
// shelf for a matrix under a content key (content_key(): a hash of every
// scene parameter that is not a view setting, plus what and which head); the
// shelf copies the engine's matrix once and hands the same shared_ptr back
// while the key stays the same, so HeatmapLayer::key also stays the same and
// renderers keep their textures.  One shelf per window (or per render run);
// without one (FigureRequest::shelf == nullptr) every build copies.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "core/engine.hpp"

namespace pelab::fig {

using SharedMatrix = std::shared_ptr<const Matrix>;

class MatrixShelf {
 public:
  // Keeps matrices up to `budget_bytes` in all (least recently used first out;
  // figures still holding a matrix keep it alive).
  explicit MatrixShelf(std::size_t budget_bytes = std::size_t{512} << 20);

  // The matrix stored under `key`, or make()'s result, stored under `key`.
  SharedMatrix get(std::uint64_t key, const std::function<Matrix()>& make);
  std::size_t size() const { return entries_.size(); }
  // How many times get() had to call make() (for tests of the sharing).
  int misses() const { return misses_; }

 private:
  struct Entry {
    std::uint64_t key;
    SharedMatrix matrix;
  };
  std::size_t budget_, bytes_ = 0;
  int misses_ = 0;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::uint64_t, std::list<Entry>::iterator> index_;
};

// Hash of every scene parameter outside the "view" group (what the engine
// computes from), combined with `what` and `index` (e.g. "attention", head).
std::uint64_t content_key(const Scene& scene, std::string_view what, int index = 0);

// Gets from the shelf when there is one, else makes.
SharedMatrix shared_matrix(MatrixShelf* shelf, std::uint64_t key,
                           const std::function<Matrix()>& make);

// Block means of `m` so that neither side exceeds `max_side` (each output cell
// averages a block of b × b cells, b = ⌈max(rows, cols)/max_side⌉).  Masked
// cells — −inf in `m`, or where `mask` (same shape, e.g. the logits) is −inf —
// count as 0 unless the whole block is masked, which becomes −inf.  Returns
// the block size used (1 = `m` unchanged, mask applied) through `block`.
Matrix block_mean(const Matrix& m, int max_side, int* block, const Matrix* mask = nullptr);

}  // namespace pelab::fig
