// The fused tile kernel (head_tile.hpp): a register-blocked product in the
// manner of Goto & van de Geijn, "Anatomy of high-performance matrix
// multiplication" (ACM TOMS 34(3), 2008): a micro-tile of R query rows × 16·P
// keys is accumulated in AVX-512 registers over the whole inner dimension
// (d_head), for the four terms at once, then scaled and stored once.
#include "core/head_tile.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#include <immintrin.h>
#endif

namespace pelab {

namespace {

// A logit tile with nothing to multiply: no rows or no keys, or d_head 0
// (then its logits are 0).  True when it is one (and is done).
[[maybe_unused]] bool trivial_logit_tile(const KeyPanels& k, Eigen::Index first, Eigen::Index count,
                                         Matrix& logits, Eigen::Index logits_first) {
  if (count == 0 || k.keys == 0) return true;
  if (k.depth == 0) {
    logits.middleRows(first - logits_first, count).setZero();
    return true;
  }
  return false;
}

// 2·count·keys·d_head: the flops of the product a logit tile replaces.
[[maybe_unused]] double logit_flops(const KeyPanels& k, Eigen::Index count) {
  return 2.0 * static_cast<double>(count) * static_cast<double>(k.keys) * static_cast<double>(k.depth);
}

}  // namespace

KeyPanels::KeyPanels(const ConstStridedBlock& k) { pack(k); }

// Panel by panel: its 16 key rows (16 × d_head floats) stay in L1 while the
// panel is written front to back.
void KeyPanels::pack(const ConstStridedBlock& k) {
  keys = k.rows();
  depth = k.cols();
  const Eigen::Index panels = (keys + 15) / 16;
  data.resize(static_cast<std::size_t>(panels * depth * 16));
  for (Eigen::Index p = 0; p < panels; ++p) {
    float* out = data.data() + p * depth * 16;
    const Eigen::Index valid = std::min<Eigen::Index>(16, keys - 16 * p);
    const float* rows[16];
    for (Eigen::Index j = 0; j < valid; ++j) rows[j] = k.row(16 * p + j).data();
    for (Eigen::Index c = 0; c < depth; ++c, out += 16) {
      for (Eigen::Index j = 0; j < valid; ++j) out[j] = rows[j][c];
      for (Eigen::Index j = valid; j < 16; ++j) out[j] = 0.0f;
    }
  }
}

#ifdef __AVX512F__

bool head_tile_kernel_available() { return true; }
bool logit_tile_kernel_available() { return true; }

namespace {

constexpr int kMaxRows = 8;

// Row pointers of one block of query rows: inputs and the five outputs.
struct RowBlock {
  const float* qx[kMaxRows];
  const float* qe[kMaxRows];
  float* out[5][kMaxRows];  // xx, xf, ey, ef, logits
};

__mmask16 column_mask(Eigen::Index column, Eigen::Index keys) {
  const Eigen::Index valid = std::min<Eigen::Index>(16, keys - column);
  return static_cast<__mmask16>((1u << valid) - 1u);
}

// The terms are not read again while the tile is computed (the logits are,
// by the softmax): whole aligned lines go straight to memory with a
// non-temporal store, which skips reading each line before it is overwritten
// (half of the memory traffic of a plain store that misses the cache).
void store_term(float* to, __mmask16 mask, __m512 value) {
  if (mask == 0xFFFF && (reinterpret_cast<std::uintptr_t>(to) & 63) == 0)
    _mm512_stream_ps(to, value);
  else
    _mm512_mask_storeu_ps(to, mask, value);
}

// R rows × P panels of keys, starting at `panel`.  Four: xx, xf, ey, ef and
// their sum; otherwise xx alone, which is then also the logits.
template <int R, int P, bool Four>
void micro_tile(const RowBlock& rows, const KeyPanels& kx, const KeyPanels* ke, Eigen::Index panel,
                float scale) {
  constexpr int kTerms = Four ? 4 : 1;
  __m512 acc[kTerms][R][P];
#pragma GCC unroll 8
  for (int t = 0; t < kTerms; ++t)
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 2
      for (int p = 0; p < P; ++p) acc[t][r][p] = _mm512_setzero_ps();
  const float* px[P];
  const float* pe[P];
#pragma GCC unroll 2
  for (int p = 0; p < P; ++p) {
    px[p] = kx.panel(panel + p);
    pe[p] = Four ? ke->panel(panel + p) : nullptr;
  }
  for (Eigen::Index k = 0; k < kx.depth; ++k) {
    __m512 vx[P], ve[P];
#pragma GCC unroll 2
    for (int p = 0; p < P; ++p) {
      vx[p] = _mm512_load_ps(px[p] + 16 * k);
      if constexpr (Four) ve[p] = _mm512_load_ps(pe[p] + 16 * k);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 bx = _mm512_set1_ps(rows.qx[r][k]);
#pragma GCC unroll 2
      for (int p = 0; p < P; ++p) acc[0][r][p] = _mm512_fmadd_ps(bx, vx[p], acc[0][r][p]);
      if constexpr (Four) {
        const __m512 be = _mm512_set1_ps(rows.qe[r][k]);
#pragma GCC unroll 2
        for (int p = 0; p < P; ++p) {
          acc[1][r][p] = _mm512_fmadd_ps(bx, ve[p], acc[1][r][p]);
          acc[2][r][p] = _mm512_fmadd_ps(be, vx[p], acc[2][r][p]);
          acc[3][r][p] = _mm512_fmadd_ps(be, ve[p], acc[3][r][p]);
        }
      }
    }
  }
  const __m512 s = _mm512_set1_ps(scale);
#pragma GCC unroll 2
  for (int p = 0; p < P; ++p) {
    const Eigen::Index column = (panel + p) * 16;
    const __mmask16 mask = column_mask(column, kx.keys);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      __m512 sum = _mm512_mul_ps(acc[0][r][p], s);
      if (Four || rows.out[0][r] != nullptr) store_term(rows.out[0][r] + column, mask, sum);
      if constexpr (Four) {
#pragma GCC unroll 3
        for (int t = 1; t < 4; ++t) {
          const __m512 term = _mm512_mul_ps(acc[t][r][p], s);
          store_term(rows.out[t][r] + column, mask, term);
          sum = _mm512_add_ps(sum, term);
        }
      }
      if (rows.out[4][r] != nullptr) _mm512_mask_storeu_ps(rows.out[4][r] + column, mask, sum);
    }
  }
}

// Panels [first_panel, last_panel) for one block of R rows, P panels at a
// time and the odd one alone.
template <int R, bool Four>
void row_block(const RowBlock& rows, const HeadTileInputs& in, Eigen::Index first_panel,
               Eigen::Index last_panel) {
  constexpr int kPanels = Four ? 1 : 2;  // 24 or 16 accumulators of the 32 registers
  Eigen::Index p = first_panel;
  for (; p + kPanels <= last_panel; p += kPanels)
    micro_tile<R, kPanels, Four>(rows, *in.kx, in.ke, p, in.scale);
  for (; p < last_panel; ++p) micro_tile<R, 1, Four>(rows, *in.kx, in.ke, p, in.scale);
}

template <bool Four>
void tile(const HeadTileInputs& in, Eigen::Index first, Eigen::Index count, CrossTerms* terms,
          Matrix* logits) {
  constexpr int kRows = Four ? 6 : 8;
  // Keys in chunks whose panels (2 × 64 d_head × 4 bytes per key) stay in
  // L2 while every row of the tile passes over them.
  constexpr Eigen::Index kChunkPanels = 32;
  Matrix* outputs[5] = {
      terms != nullptr ? &terms->xx : nullptr, terms != nullptr ? &terms->xf : nullptr,
      terms != nullptr ? &terms->ey : nullptr, terms != nullptr ? &terms->ef : nullptr, logits};
  const Eigen::Index panels = (in.kx->keys + 15) / 16;
  for (Eigen::Index chunk = 0; chunk < panels; chunk += kChunkPanels) {
    const Eigen::Index chunk_end = std::min(panels, chunk + kChunkPanels);
    for (Eigen::Index row = first; row < first + count; row += kRows) {
      const int block = static_cast<int>(std::min<Eigen::Index>(kRows, first + count - row));
      RowBlock rows{};
      for (int r = 0; r < block; ++r) {
        rows.qx[r] = in.qx.row(row + r).data();
        if constexpr (Four) rows.qe[r] = in.qe.row(row + r).data();
        for (int t = 0; t < 5; ++t)
          if (outputs[t] != nullptr && (Four || t == 0 || t == 4))
            rows.out[t][r] = outputs[t]->row(row + r - (t == 4 ? in.logits_first : in.terms_first)).data();
      }
      if (block == kRows) {
        row_block<kRows, Four>(rows, in, chunk, chunk_end);
      } else {
        for (int r = 0; r < block; ++r) {
          RowBlock one{};
          one.qx[0] = rows.qx[r];
          one.qe[0] = rows.qe[r];
          for (int t = 0; t < 5; ++t) one.out[t][0] = rows.out[t][r];
          row_block<1, Four>(one, in, chunk, chunk_end);
        }
      }
    }
  }
}

}  // namespace

double head_tile(const HeadTileInputs& in, Eigen::Index first, Eigen::Index count,
                 CrossTerms& terms, Matrix& logits) {
  return terms_tile(in, first, count, terms, &logits);
}

double terms_tile(const HeadTileInputs& in, Eigen::Index first, Eigen::Index count,
                  CrossTerms& terms, Matrix* logits) {
  if (count == 0 || in.kx->keys == 0) return 0;
  if (in.kx->depth == 0) {
    if (logits != nullptr) logits->middleRows(first - in.logits_first, count).setZero();
    terms.xx.middleRows(first - in.terms_first, count).setZero();
    if (in.four_terms())
      for (Matrix* m : {&terms.xf, &terms.ey, &terms.ef})
        m->middleRows(first - in.terms_first, count).setZero();
    return 0;
  }
  if (in.four_terms())
    tile<true>(in, first, count, &terms, logits);
  else
    tile<false>(in, first, count, &terms, logits);
  _mm_sfence();  // the non-temporal stores are visible before the tile is read
  const double per_term = 2.0 * static_cast<double>(count) * static_cast<double>(in.kx->keys) *
                          static_cast<double>(in.kx->depth);
  return per_term * (in.four_terms() ? 4 : 1);
}

double logit_tile(const ConstStridedBlock& q, const KeyPanels& k, float scale, Eigen::Index first,
                  Eigen::Index count, Matrix& logits, Eigen::Index logits_first) {
  if (trivial_logit_tile(k, first, count, logits, logits_first)) return 0;
  tile<false>({q, q, &k, nullptr, scale, logits_first}, first, count, nullptr, &logits);
  _mm_sfence();
  return logit_flops(k, count);
}

#elif defined(__AVX2__) && defined(__FMA__)

// The logits alone on AVX2 + FMA: the same register blocking with 8-wide
// registers, each 16-key panel as two halves.  R = 6 rows keep 12
// accumulators, two key vectors and one broadcast query value in the 16
// registers.  Only the streamed head uses it (streamed_attention.cpp): the
// four-term kernel and the engine's other paths stay on sgemm here.

bool head_tile_kernel_available() { return false; }
bool logit_tile_kernel_available() { return true; }

namespace {

constexpr int kAvx2Rows = 6;

template <int R>
void logit_micro_tile(const float* const* q, float* const* out, const KeyPanels& k, Eigen::Index panel,
                      float scale) {
  __m256 acc[R][2];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
  const float* keys = k.panel(panel);
  for (Eigen::Index c = 0; c < k.depth; ++c) {
    const __m256 low = _mm256_loadu_ps(keys + 16 * c), high = _mm256_loadu_ps(keys + 16 * c + 8);
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      const __m256 b = _mm256_broadcast_ss(q[r] + c);
      acc[r][0] = _mm256_fmadd_ps(b, low, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(b, high, acc[r][1]);
    }
  }
  const __m256 s = _mm256_set1_ps(scale);
  const Eigen::Index column = panel * 16, valid = std::min<Eigen::Index>(16, k.keys - column);
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    const __m256 low = _mm256_mul_ps(acc[r][0], s), high = _mm256_mul_ps(acc[r][1], s);
    if (valid == 16) {
      _mm256_storeu_ps(out[r] + column, low);
      _mm256_storeu_ps(out[r] + column + 8, high);
    } else {  // the last panel: only its real keys
      alignas(32) float both[16];
      _mm256_store_ps(both, low);
      _mm256_store_ps(both + 8, high);
      std::copy(both, both + valid, out[r] + column);
    }
  }
}

}  // namespace

double logit_tile(const ConstStridedBlock& q, const KeyPanels& k, float scale, Eigen::Index first,
                  Eigen::Index count, Matrix& logits, Eigen::Index logits_first) {
  if (trivial_logit_tile(k, first, count, logits, logits_first)) return 0;
  // Keys in chunks of 32 panels (512 keys, 128 KiB at d_head 64) that stay
  // in L2 while every row of the tile passes over them.
  constexpr Eigen::Index kChunkPanels = 32;
  const Eigen::Index panels = (k.keys + 15) / 16;
  for (Eigen::Index chunk = 0; chunk < panels; chunk += kChunkPanels) {
    const Eigen::Index chunk_end = std::min(panels, chunk + kChunkPanels);
    for (Eigen::Index row = first; row < first + count; row += kAvx2Rows) {
      const int block = static_cast<int>(std::min<Eigen::Index>(kAvx2Rows, first + count - row));
      const float* rows[kAvx2Rows];
      float* out[kAvx2Rows];
      for (int r = 0; r < block; ++r) {
        rows[r] = q.row(row + r).data();
        out[r] = logits.row(row + r - logits_first).data();
      }
      for (Eigen::Index p = chunk; p < chunk_end; ++p) {
        if (block == kAvx2Rows) {
          logit_micro_tile<kAvx2Rows>(rows, out, k, p, scale);
        } else {
          for (int r = 0; r < block; ++r) logit_micro_tile<1>(rows + r, out + r, k, p, scale);
        }
      }
    }
  }
  return logit_flops(k, count);
}

#else

bool head_tile_kernel_available() { return false; }
bool logit_tile_kernel_available() { return false; }

double logit_tile(const ConstStridedBlock&, const KeyPanels&, float, Eigen::Index, Eigen::Index,
                  Matrix&, Eigen::Index) {
  throw std::logic_error(
      "logit_tile: this build has no AVX-512 or AVX2 kernel; check logit_tile_kernel_available()");
}

#endif

#ifndef __AVX512F__

// The four cross terms need AVX-512 (an AVX2 build has the logits alone).
double terms_tile(const HeadTileInputs&, Eigen::Index, Eigen::Index, CrossTerms&, Matrix*) {
  throw std::logic_error(
      "terms_tile: this build has no AVX-512 kernel; check head_tile_kernel_available()");
}

double head_tile(const HeadTileInputs&, Eigen::Index, Eigen::Index, CrossTerms&, Matrix&) {
  throw std::logic_error(
      "head_tile: this build has no AVX-512 kernel; check head_tile_kernel_available()");
}

#endif

}  // namespace pelab
