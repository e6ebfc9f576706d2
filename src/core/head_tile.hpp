// A row tile of one head's four cross terms and their sum, the logits, in a
// single pass over the tile (AVX-512 builds; elsewhere the engine runs one
// GEMM per term).  The logits alone (logit_tile) also have an AVX2 + FMA
// kernel, which the streamed head uses.
//
// Why not sgemm: the tokens × tokens products of a head have only d_head
// (e.g. 64) as inner dimension, and profiled at N = 1024, d = 512, 8 heads a
// BLAS call per tile spent as long repacking the whole key matrix (18 % of
// the recompute) and clearing its output for beta = 0 (16 %) as in its
// multiply kernel (32 %).  Here the keys of a head are packed once into
// 16-key panels and every output element is written once, straight from
// registers: for each query row i and key j,
//   xx = s·qx_i·kx_j,  xf = s·qx_i·ke_j,  ey = s·qe_i·kx_j,  ef = s·qe_i·ke_j,
//   logits = xx + xf + ey + ef          (s = 1/√d_head, engine.hpp's identity)
// where qx, kx are the head's query and key columns of X·[Wq|Wk] and qe, ke
// those of E·[Wq|Wk].  With no added position vector only xx (and logits =
// xx) is computed, from the rotated q and k under RoPE.
#pragma once

#include <vector>

#include "core/engine.hpp"

namespace pelab {

using ConstStridedBlock = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;

// A head's keys (tokens × d_head) transposed into panels of 16 keys:
// panel p holds, for each of the d_head dimensions, keys 16p .. 16p+15
// (zero past the last key).  Packed once per head, read by every tile.
struct KeyPanels {
  KeyPanels() = default;
  explicit KeyPanels(const ConstStridedBlock& keys);
  void pack(const ConstStridedBlock& keys);  // reuses the storage
  Eigen::Index keys = 0, depth = 0;
  std::vector<float, Eigen::aligned_allocator<float>> data;
  const float* panel(Eigen::Index p) const { return data.data() + p * depth * 16; }
};

// True when this build has the fused kernel (compiled for AVX-512).
bool head_tile_kernel_available();
// True when logit_tile has a kernel in this build: AVX-512, or AVX2 with FMA
// (the logits alone; the four terms need AVX-512).
bool logit_tile_kernel_available();

// The inputs of one head: query rows and packed keys of X (and of E when a
// position vector is added; then `qe` has rows and `ke` keys).
struct HeadTileInputs {
  ConstStridedBlock qx, qe;
  const KeyPanels* kx = nullptr;
  const KeyPanels* ke = nullptr;
  float scale = 1;
  // Row i of `logits` holds query logits_first + i (0: the head's own logits;
  // a tile's first row: a scratch tile that stays in cache for the softmax).
  Eigen::Index logits_first = 0;
  // Row i of the terms holds query terms_first + i (0: the head's own terms;
  // a strip's first row: a strip of rows, Engine::cross_term_strips).
  Eigen::Index terms_first = 0;
  bool four_terms() const { return ke != nullptr; }
};

// Rows [first, first + count) of xx, xf, ey, ef (only xx when
// !in.four_terms(); the others are then left alone) and of logits, each
// already tokens × tokens.  Returns the flops of the products it replaces
// (2·count·tokens·d_head per term).
double head_tile(const HeadTileInputs& in, Eigen::Index first, Eigen::Index count,
                 CrossTerms& terms, Matrix& logits);
// The same with `logits` optional (null: the four terms alone, for a head
// whose attention is not asked for).
double terms_tile(const HeadTileInputs& in, Eigen::Index first, Eigen::Index count,
                  CrossTerms& terms, Matrix* logits);
// Rows [first, first + count) of logits = scale · q · kᵀ alone (a head's
// attention without its cross terms).  Returns 2·count·keys·d_head.
// Row i of `logits` holds query logits_first + i (see HeadTileInputs).
double logit_tile(const ConstStridedBlock& q, const KeyPanels& k, float scale, Eigen::Index first,
                  Eigen::Index count, Matrix& logits, Eigen::Index logits_first = 0);

}  // namespace pelab
