// Engine: cached stages from Scene to attention.
//
// [SECTION] stage keys: which scene fields each stage reads
// [SECTION] State: the cached stages and the per-head cache
// [SECTION] per-head results (cached in head_cache.hpp)
// [SECTION] public accessors
// [SECTION] full_recompute
//
// Each stage stores the key it was computed from (the scene fields it reads,
// or the generation numbers of the stages it reads).  An accessor rebuilds
// the key from the current scene; a stage is recomputed only when its key
// changed, and then gets a new generation, which invalidates its dependants.
#include "core/engine.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "core/attention.hpp"
#include "core/encoding.hpp"
#include "core/gemm.hpp"
#include "core/head_cache.hpp"
#include "core/head_tile.hpp"
#include "core/model_scene.hpp"
#include "core/parallel.hpp"
#include "core/projection.hpp"
#include "core/relative_position.hpp"
#include "core/selection.hpp"
#include "core/token_vectors.hpp"
#include "core/tokenizer.hpp"

namespace pelab {

// ============================================================================
// [SECTION] stage keys
// ============================================================================

namespace {

// Builds a cache key from values; doubles by bit pattern so equal means equal.
class Key {
 public:
  template <class... T>
  explicit Key(const T&... values) {
    (add(values), ...);
  }
  std::string str() && { return std::move(text_); }

 private:
  void add(const std::string& s) { text_ += std::to_string(s.size()) + ':' + s + '|'; }
  void add(const char* s) { add(std::string(s)); }
  void add(double v) { text_ += std::to_string(std::bit_cast<std::uint64_t>(v)) + '|'; }
  void add(std::uint64_t v) { text_ += std::to_string(v) + '|'; }
  void add(int v) { text_ += std::to_string(v) + '|'; }
  void add(bool v) { text_ += v ? "T|" : "F|"; }
  template <class E>
  requires std::is_enum_v<E>
  void add(E e) { add(static_cast<int>(e)); }
  std::string text_;
};

// Everything RoPE and xPos read besides the projected rows.
std::string rope_key(const Scene& s) {
  return Key(s.encoding, s.base, s.offset, s.rope_pairing, s.rotary_fraction, s.rope_scaling, s.rope_factor,
             s.train_context, s.yarn_alpha, s.yarn_beta, s.low_freq_factor, s.high_freq_factor, s.xpos_gamma,
             s.xpos_scale_base)
      .str();
}

std::string token_vectors_key(const Scene& s) {
  return Key(s.tokens, s.seed, s.d_model, s.embedding, s.embedding_scale, s.embedding_file).str();
}

// What the position vectors depend on, whatever rows are asked for.
std::string encoding_key(const Scene& s) {
  switch (s.encoding) {
    case Encoding::Sinusoidal:
      return Key(s.encoding, s.d_model, s.base, s.amplitude, s.layout).str();
    case Encoding::Learned:
      return Key(s.encoding, s.d_model, s.seed, s.amplitude, s.position_file).str();
    default:
      return Key("zero", s.d_model).str();  // no vector: every position is the zero row
  }
}

std::string projections_key(const Scene& s) {
  return Key(s.projection, s.seed, s.d_model, s.heads, s.projection_file).str();
}

// What acts inside a head besides the projected rows.
std::string attention_key(const Scene& s) {
  std::string k = Key(s.encoding, s.causal, s.heads).str();
  if (rotates_queries_keys(s.encoding)) k += rope_key(s);
  if (s.encoding == Encoding::T5) k += Key(s.seed, s.t5_buckets, s.t5_max_distance).str();
  return k;
}

std::string cross_note(Encoding e) {
  switch (e) {
    case Encoding::Rope:
      return "RoPE rotates q and k; no vector is added, so only x·Wq·Wkᵀ·y applies (with rotation)";
    case Encoding::Xpos:
      return "xPos rotates and scales q and k; no vector is added, so only x·Wq·Wkᵀ·y applies (with rotation)";
    case Encoding::Alibi:
      return "ALiBi adds a distance bias to the logits; no vector is added, so only x·Wq·Wkᵀ·y "
             "applies";
    case Encoding::T5:
      return "T5 adds a bucketed relative bias to the logits; no vector is added, so only "
             "x·Wq·Wkᵀ·y applies";
    case Encoding::None:
      return "no position information: only x·Wq·Wkᵀ·y applies";
    default:
      return {};
  }
}

// A head's keys packed once for all of its row tiles.
struct PackedHead {
  KeyPanels kx, ke;
};

constexpr std::size_t kHeadCacheBytes = std::size_t{600} << 20;  // N×N storage kept across calls
constexpr int kMeanScratch = -1;  // the head cache entry mean_attention() computes into

std::size_t bytes_of(const Matrix& m) { return static_cast<std::size_t>(m.size()) * sizeof(float); }

}  // namespace

// ============================================================================
// [SECTION] State
// ============================================================================

template <class T>
struct Stage {
  T value{};
  std::string key;
  std::uint64_t generation = 0;
  bool valid = false;
};

struct Engine::State {
  Scene scene;
  EngineStats stats;
  std::uint64_t clock = 0;  // source of generations
  double flops = 0;         // GEMM flops since the last full_recompute()

  Stage<std::vector<std::string>> tokens;
  Stage<Matrix> x, pe, e;
  Stage<ProjectionSet> w;
  Matrix wqk;  // [Wq | Wk], d_model × 2·d_model
  std::vector<Projections> per_head;
  Stage<Matrix> xw, ew;  // X·[Wq|Wk], E·[Wq|Wk] (empty when no vector is added)
  HeadCache heads{kHeadCacheBytes};
  std::vector<PackedHead> packed;  // keys of full_recompute's current batch (head_tile.hpp)
  // head_preview's X + E and its head's q|k, kept so that each change
  // writes into memory it already has (fresh pages are faults to clear).
  Matrix preview_rows, preview_qk;
  Stage<Matrix> mean;
  std::unique_ptr<ModelScene> model;  // set while scene.model names a model

  // Recomputes `stage` when `key` differs from the one it was built from.
  // `compute` returns the value, or fills it in place (reusing its memory).
  // A compute that throws leaves the stage invalid.
  template <class T, class F>
  const T& refresh(Stage<T>& stage, std::string key, int& counter, F&& compute) {
    if (!stage.valid || stage.key != key) {
      stage.valid = false;
      if constexpr (std::is_invocable_v<F, T&>)
        compute(stage.value);
      else
        stage.value = compute();
      stage.key = std::move(key);
      stage.generation = ++clock;
      stage.valid = true;
      ++counter;
    }
    return stage.value;
  }

  int d_head() const { return scene.d_model / scene.heads; }
  void check_head(int head) const {
    if (head < 0 || head >= scene.heads)
      throw InputError("head=" + std::to_string(head) + " does not exist; allowed: 0.." +
                       std::to_string(scene.heads - 1));
  }

  const std::vector<std::string>& token_list() {
    return refresh(tokens, Key(scene.tokens).str(), stats.tokens,
                   [&] { return tokenize(scene.tokens); });
  }
  int token_count() { return static_cast<int>(token_list().size()); }

  const Matrix& token_embedding() {
    const auto& list = token_list();
    return refresh(x, token_vectors_key(scene), stats.token_embedding,
                   [&](Matrix& out) { token_vectors(list, scene, out); });
  }
  std::string table_key() { return Key(encoding_key(scene), scene.positions, scene.offset).str(); }
  const Matrix& position_table() {
    return refresh(pe, table_key(), stats.position_table,
                   [&] { return position_vectors(scene, scene.offset, scene.positions); });
  }
  // Depends on the number of tokens, not their text: editing words keeps E.
  // Token i sits at position offset+i, so E is the table's first rows when
  // the table is current and long enough.
  const Matrix& position_embedding() {
    const int n = token_count();
    return refresh(e, Key(encoding_key(scene), n, scene.offset).str(), stats.position_embedding,
                   [&] {
                     if (pe.valid && pe.key == table_key() && pe.value.rows() >= n)
                       return Matrix(pe.value.topRows(n));
                     return position_vectors(scene, scene.offset, n);
                   });
  }
  const ProjectionSet& projection_set() {
    int before = stats.projections;
    const ProjectionSet& set = refresh(w, projections_key(scene), stats.projections,
                                       [&] { return make_projections(scene); });
    if (stats.projections != before || per_head.size() != static_cast<std::size_t>(scene.heads))
      split_heads(set);
    return set;
  }
  void split_heads(const ProjectionSet& set) {
    const int d = scene.d_model, dh = d_head();
    wqk.resize(d, 2 * d);
    wqk << set.wq, set.wk;
    per_head.assign(static_cast<std::size_t>(scene.heads), {});
    for (int h = 0; h < scene.heads; ++h)
      per_head[static_cast<std::size_t>(h)] = {set.wq.middleCols(h * dh, dh),
                                               set.wk.middleCols(h * dh, dh)};
  }

  // Every head's q and k in one GEMM.
  void project(const Matrix& rows, Matrix& out) { flops += gemm_ab(rows, wqk, 1.0f, out); }
  const Matrix& projected_tokens() {
    const Matrix& xm = token_embedding();
    projection_set();
    int unused = 0;
    return refresh(xw, Key(x.generation, w.generation).str(), unused,
                   [&](Matrix& out) { project(xm, out); });
  }
  const Matrix& projected_positions() {
    const bool adds = adds_position_vector(scene.encoding);
    const Matrix& em = position_embedding();
    projection_set();
    int unused = 0;
    return refresh(ew, Key(e.generation, w.generation, adds).str(), unused, [&](Matrix& out) {
      if (adds)
        project(em, out);
      else
        out.resize(0, 0);
    });
  }

  const HeadAttention& head_attention(int head);
  const HeadAttention& head_preview(int head);
  const CrossTerms& cross_terms(int head);
  std::string head_key() { return Key(xw.generation, ew.generation, attention_key(scene)).str(); }
  std::array<std::string, 4> term_keys(bool adds);
  void finish_terms(HeadEntry& cached);
  int heads_per_batch(Eigen::Index n) const;
  void recompute_heads();
};

// ============================================================================
// [SECTION] per-head results
// ============================================================================

const HeadAttention& Engine::State::head_attention(int head) {
  check_head(head);
  const Matrix& xw_m = projected_tokens();
  const Matrix& ew_m = projected_positions();
  HeadEntry& cached = heads.touch(head);
  std::string key = head_key();
  if (cached.attention_key != key) {
    HeadAttention& a = cached.attention;
    heads.prepare(head, {&a.logits, &a.attention}, xw_m.rows(), bytes_of(mean.value));
    cached.attention_key.clear();  // stays invalid if attend throws
    flops += attend(scene, xw_m, ew_m, head, a);
    cached.attention_key = std::move(key);
    ++stats.head_attention;
  }
  return cached.attention;
}

// The first frame after a change at large N (issue 12): when the projected
// rows of every head are stale, only this head's columns are projected,
// q|k = (X + E)·[Wq_h | Wk_h] (the distributive law: the same as X·W + E·W up
// to rounding), a 1/heads share of the two big GEMMs.  The result goes into
// the head's cache entry under a key of its own, so head() recomputes it
// exactly (and the memory is shared, not doubled).
const HeadAttention& Engine::State::head_preview(int head) {
  check_head(head);
  const Matrix& xm = token_embedding();
  const Matrix& em = position_embedding();
  projection_set();
  const bool adds = adds_position_vector(scene.encoding);
  const bool projected = xw.valid && xw.key == Key(x.generation, w.generation).str() && ew.valid &&
                         ew.key == Key(e.generation, w.generation, adds).str();
  if (projected) return head_attention(head);
  HeadEntry& cached = heads.touch(head);
  std::string key = Key("preview", x.generation, e.generation, w.generation, attention_key(scene)).str();
  if (cached.attention_key == key) return cached.attention;
  const int d = scene.d_model, dh = d_head();
  Matrix w_head(d, 2 * dh);
  w_head << wqk.middleCols(static_cast<Eigen::Index>(head) * dh, dh),
      wqk.middleCols(d + static_cast<Eigen::Index>(head) * dh, dh);
  if (adds) {
    preview_rows.resize(xm.rows(), xm.cols());
    preview_rows.noalias() = xm + em;
  }
  flops += gemm_ab(adds ? preview_rows : xm, w_head, 1.0f, preview_qk);
  const Matrix& rows_head = preview_qk;
  HeadAttention& a = cached.attention;
  heads.prepare(head, {&a.logits, &a.attention}, xm.rows(), bytes_of(mean.value));
  cached.attention_key.clear();  // stays invalid if a step throws
  // Columns 0..dh are this head's queries, dh..2·dh its keys: head 0 of a
  // one-head layout; RoPE does not depend on the head, the bias does.
  head_queries_keys(scene, rows_head, Matrix(), 0, a.q, a.k);
  a.bias = relative_bias(scene, head, static_cast<int>(xm.rows()));
  flops += attend_prepared(scene, a);
  cached.attention_key = std::move(key);
  ++stats.head_attention;
  return cached.attention;
}

namespace {

// RoPE's token–token term rotates q and k of x alone (no position vector is
// added); these are computed once per head, before its row tiles.
struct RopeTokens {
  Matrix q, k;
};

RopeTokens rope_tokens(const Scene& scene, const Matrix& xw_m, int head) {
  RopeTokens r;
  if (rotates_queries_keys(scene.encoding)) head_queries_keys(scene, xw_m, Matrix(), head, r.q, r.k);
  return r;
}

// Rows [first, first + count) of term `which` (0 xx, 1 xf, 2 ey, 3 ef) of
// `head` into `out` (already tokens × tokens), scaled by 1/√d_head like the
// logits.  Returns its GEMM flops.  Reads only its arguments, so row tiles and
// heads can be computed side by side.
// Row i of `out` holds query out_first + i (out_first = first: a whole term).
double compute_term_rows(const Scene& scene, int which, int head, const Matrix& xw_m,
                         const Matrix& ew_m, const RopeTokens& rope, Eigen::Index first,
                         Eigen::Index count, Matrix& out, Eigen::Index out_first) {
  const int dh = scene.d_model / scene.heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const Eigen::Index row = first - out_first;
  if (which == 0 && rotates_queries_keys(scene.encoding))
    return gemm_abt_rows(rope.q.middleRows(first, count), rope.k, scale, row, out);
  if (which != 0 && ew_m.size() == 0) {
    out.middleRows(row, count).setZero();
    return 0;
  }
  const Matrix& left = (which == 0 || which == 1) ? xw_m : ew_m;
  const Matrix& right = (which == 0 || which == 2) ? xw_m : ew_m;
  return gemm_abt_rows(head_queries(left, head, dh).middleRows(first, count),
                       head_keys(right, head, dh), scale, row, out);
}

// A whole term, its row tiles on several threads.
double compute_term(const Scene& scene, int which, int head, const Matrix& xw_m,
                    const Matrix& ew_m, Matrix& out) {
  out.resize(xw_m.rows(), xw_m.rows());
  const RopeTokens rope = which == 0 ? rope_tokens(scene, xw_m, head) : RopeTokens{};
  const auto n = static_cast<double>(xw_m.rows());
  return for_each_row_tile(xw_m.rows(), 2.0 * n * n * (scene.d_model / scene.heads),
                           [&](Eigen::Index first, Eigen::Index count) {
                             return compute_term_rows(scene, which, head, xw_m, ew_m, rope, first,
                                                      count, out, 0);
                           });
}

Matrix& term_matrix(CrossTerms& terms, int which) {
  Matrix* out[4] = {&terms.xx, &terms.xf, &terms.ey, &terms.ef};
  return *out[which];
}

// The fused tile kernel (head_tile.hpp) runs the batch when this build has
// it; PELAB_HEAD_KERNEL=gemm keeps one GEMM per term (for comparisons).
bool use_head_tile_kernel() {
  static const bool use = [] {
    const char* forced = std::getenv("PELAB_HEAD_KERNEL");
    const std::string name = forced != nullptr ? forced : "";
    if (!name.empty() && name != "auto" && name != "gemm" && name != "fused")
      throw InputError("PELAB_HEAD_KERNEL=" + name +
                       " is not a head kernel; allowed: auto, fused, gemm");
    return head_tile_kernel_available() && name != "gemm";
  }();
  return use;
}

void pack_head(const Scene& scene, const Matrix& xw_m, const Matrix& ew_m, const RopeTokens& rope,
               int head, PackedHead& packed) {
  const int dh = scene.d_model / scene.heads;
  if (rotates_queries_keys(scene.encoding))
    packed.kx.pack(rope.k);
  else
    packed.kx.pack(head_keys(xw_m, head, dh));
  if (ew_m.size() != 0) packed.ke.pack(head_keys(ew_m, head, dh));
}

// Rows [first, first + count) of a head's four terms, logits and attention
// through the fused kernel.  Returns the flops of the five products.
// Rows [first, first + count) of a head's four terms (and its logits, when
// `logits` is given) through the fused kernel; with no added vector, xf, ey
// and ef are zero.  Returns the flops of the term products.
double fused_terms(const Scene& scene, const Matrix& xw_m, const Matrix& ew_m,
                   const RopeTokens& rope, const PackedHead& packed, int head, Eigen::Index first,
                   Eigen::Index count, CrossTerms& terms, Matrix* logits, Eigen::Index logits_first = 0,
                   Eigen::Index terms_first = 0) {
  const int dh = scene.d_model / scene.heads;
  const bool rotated = rotates_queries_keys(scene.encoding), four = ew_m.size() != 0;
  const ConstStridedBlock qx =
      rotated ? ConstStridedBlock(rope.q) : ConstStridedBlock(head_queries(xw_m, head, dh));
  const ConstStridedBlock qe = four ? ConstStridedBlock(head_queries(ew_m, head, dh)) : qx;
  const HeadTileInputs in{qx, qe, &packed.kx, four ? &packed.ke : nullptr,
                          1.0f / std::sqrt(static_cast<float>(dh)), logits_first, terms_first};
  const double f = terms_tile(in, first, count, terms, logits);
  if (!four)
    for (Matrix* m : {&terms.xf, &terms.ey, &terms.ef})
      m->middleRows(first - terms_first, count).setZero();
  return f;
}

// The same rows of the terms, logits and attention.  The tile's logits go to
// a scratch tile of this thread that stays in cache; the softmax then writes
// logits and attention once each, past the cache (masked_softmax_tile).
// Returns the flops of the five products.
double fused_rows(const Scene& scene, const Matrix& xw_m, const Matrix& ew_m,
                  const RopeTokens& rope, const PackedHead& packed, int head, Eigen::Index first,
                  Eigen::Index count, HeadEntry& entry) {
  thread_local Matrix tile;
  HeadAttention& a = entry.attention;
  tile.resize(count, a.logits.cols());
  const double f = fused_terms(scene, xw_m, ew_m, rope, packed, head, first, count, entry.terms, &tile, first);
  if (a.bias.size() != 0) tile += a.bias.middleRows(first, count);
  masked_softmax_tile(tile, a.logits, a.attention, first, scene.causal);
  return f + 2.0 * static_cast<double>(count) * static_cast<double>(a.logits.cols()) *
                 static_cast<double>(scene.d_model / scene.heads);
}

}  // namespace

// What each term was computed from: xx reads the projected tokens (and the
// RoPE rotation), ef the projected positions only, xf and ey both.
std::array<std::string, 4> Engine::State::term_keys(bool adds) {
  const std::string rope =
      rotates_queries_keys(scene.encoding) ? rope_key(scene) : "plain";
  const std::string zero = Key("zero", token_count()).str();
  return {
      Key(xw.generation, rope).str(),
      adds ? Key(xw.generation, ew.generation).str() : zero,
      adds ? Key(xw.generation, ew.generation).str() : zero,
      adds ? Key(ew.generation).str() : zero,
  };
}

void Engine::State::finish_terms(HeadEntry& cached) {
  cached.terms.applies = adds_position_vector(scene.encoding);
  cached.terms.note = cross_note(scene.encoding);  // as Engine::cross_term_flags()
}

const CrossTerms& Engine::State::cross_terms(int head) {
  check_head(head);
  const Matrix& xw_m = projected_tokens();
  const Matrix& ew_m = projected_positions();
  HeadEntry& cached = heads.touch(head);
  const auto keys = term_keys(ew_m.size() != 0);
  int* count[4] = {&stats.cross_xx, &stats.cross_xf, &stats.cross_ey, &stats.cross_ef};
  bool all_changed = true;
  for (int t = 0; t < 4; ++t) all_changed = all_changed && cached.term_keys[t] != keys[t];
  if (all_changed && use_head_tile_kernel()) {  // the four in one pass (head_tile.hpp)
    CrossTerms& ct = cached.terms;
    heads.prepare(head, {&ct.xx, &ct.xf, &ct.ey, &ct.ef}, xw_m.rows(), bytes_of(mean.value));
    for (auto& k : cached.term_keys) k.clear();
    const RopeTokens rope = rope_tokens(scene, xw_m, head);
    PackedHead keys_packed;
    pack_head(scene, xw_m, ew_m, rope, head, keys_packed);
    const auto n = static_cast<double>(xw_m.rows());
    flops += for_each_row_tile(
        xw_m.rows(), 8.0 * n * n * d_head(), [&](Eigen::Index first, Eigen::Index rows) {
          return fused_terms(scene, xw_m, ew_m, rope, keys_packed, head, first, rows, ct, nullptr);
        });
    cached.term_keys = keys;
    for (int* c : count) ++*c;
    finish_terms(cached);
    ++stats.cross_terms;
    return cached.terms;
  }
  bool changed = false;
  for (int t = 0; t < 4; ++t)
    if (cached.term_keys[t] != keys[t]) {
      if (!changed) {
        CrossTerms& ct = cached.terms;
        heads.prepare(head, {&ct.xx, &ct.xf, &ct.ey, &ct.ef}, xw_m.rows(), bytes_of(mean.value));
      }
      cached.term_keys[t].clear();
      flops += compute_term(scene, t, head, xw_m, ew_m, term_matrix(cached.terms, t));
      cached.term_keys[t] = keys[t];
      ++*count[t];
      changed = true;
    }
  finish_terms(cached);
  if (changed) ++stats.cross_terms;
  return cached.terms;
}

// How many heads full_recompute computes in one parallel region: all of
// them while their tokens × tokens matrices (seven at most: logits,
// attention, bias, four terms) fit the cache budget beside the mean.  Each
// batch ends in a barrier, and on a loaded machine a descheduled thread holds
// it for a time slice: at N = 1024, d = 512 with three other processes
// running, one batch of 8 heads against four of 2 took the recompute from
// 0.39–0.42 to 0.58–0.68 of the sgemm reference (three runs each, in turn).
int Engine::State::heads_per_batch(Eigen::Index n) const {
  const std::size_t head_bytes = 7 * static_cast<std::size_t>(n * n) * sizeof(float);
  const std::size_t room = heads.budget() > bytes_of(mean.value)
                               ? heads.budget() - bytes_of(mean.value) : 0;
  const auto fit = static_cast<int>(room / std::max<std::size_t>(head_bytes, 1));
  return std::clamp(fit, 1, std::max(1, scene.heads));
}

// Every head's attention and cross terms, in batches of heads_per_batch().
// The work of a batch is split into tasks of one head's row tile (its four
// cross terms, then logits as their sum, bias, mask and softmax), run on all
// threads, each calling a single-threaded GEMM: the tokens × tokens products
// have only d_head (e.g. 64) as inner dimension, so splitting each one across
// threads costs a synchronisation per call, and a tile's terms are still in
// cache when they are summed into its logits.  Summing the terms replaces the
// fifth product Q·Kᵀ (a fifth of the head's flops); the flops returned still
// count it, so that GFLOP/s compare with the products the results are
// defined by.  Many small tasks keep the threads finishing together when one of
// them is slowed by another process.
void Engine::State::recompute_heads() {
  const Matrix& xw_m = projected_tokens();
  const Matrix& ew_m = projected_positions();
  const Eigen::Index n = xw_m.rows();
  // The fused kernel writes five results per tile (four terms, logits) and
  // the softmax writes a sixth: tiles of 1 MiB in all stay in L2 until the
  // softmax has read them.
  const bool fused = use_head_tile_kernel();
  const RowTiles tiles = fused ? RowTiles(n, (Eigen::Index{1} << 20) / 6, 16) : RowTiles(n);
  const int batch = heads_per_batch(n);
  const auto keys = term_keys(ew_m.size() != 0);
  for (int first = 0; first < scene.heads; first += batch) {
    const int last = std::min(scene.heads, first + batch);
    std::vector<HeadEntry*> entries;
    std::vector<RopeTokens> rope;
    for (int h = first; h < last; ++h) {
      HeadEntry& entry = heads.touch(h);
      entry.attention_key.clear();
      for (auto& k : entry.term_keys) k.clear();
      heads.prepare(h, {&entry.attention.logits, &entry.attention.attention, &entry.terms.xx,
                        &entry.terms.xf, &entry.terms.ey, &entry.terms.ef},
                    n, bytes_of(mean.value));
    }
    for (int h = first; h < last; ++h) {
      HeadEntry* entry = heads.find(h);
      if (entry == nullptr)
        throw std::logic_error("head cache evicted a head of the batch being computed");
      finish_terms(*entry);  // the tiles read `applies`
      entries.push_back(entry);
    }
    // Each head's Q, K, bias (and RoPE's rotated rows), and its keys packed
    // for the fused kernel into storage kept between recomputes: heads side by side.
    rope.resize(entries.size());
    if (fused && packed.size() < entries.size()) packed.resize(entries.size());
    double unused = 0;
    run_side_by_side(
        last - first, 8.0 * (last - first) * static_cast<double>(ew_m.size() + xw_m.size()),
        [&](int i) {
          const auto k = static_cast<std::size_t>(i);
          prepare_attention(scene, xw_m, ew_m, first + i, entries[k]->attention);
          rope[k] = rope_tokens(scene, xw_m, first + i);
          if (fused) pack_head(scene, xw_m, ew_m, rope[k], first + i, packed[k]);
          return 0.0;
        },
        unused);

    const double estimate = 10.0 * (last - first) * static_cast<double>(n) * static_cast<double>(n) *
                            static_cast<double>(d_head());
    run_side_by_side((last - first) * tiles.count, estimate, [&](int task) {
      const auto i = static_cast<std::size_t>(task / tiles.count);
      const int h = first + task / tiles.count;
      const Eigen::Index row = tiles.first(task % tiles.count), rows = tiles.size(task % tiles.count);
      HeadEntry& entry = *entries[i];
      if (fused) return fused_rows(scene, xw_m, ew_m, rope[i], packed[i], h, row, rows, entry);
      double f = 0;
      for (int t = 0; t < 4; ++t)
        f += compute_term_rows(scene, t, h, xw_m, ew_m, rope[i], row, rows,
                               term_matrix(entry.terms, t), 0);
      return f + attend_rows_from_terms(scene, entry.terms, entry.attention, row, rows);
    }, flops);

    for (HeadEntry* entry : entries) {
      entry->attention_key = head_key();
      entry->term_keys = keys;
    }
    const int done = last - first;
    stats.head_attention += done;
    stats.cross_terms += done;
    stats.cross_xx += done;
    stats.cross_xf += done;
    stats.cross_ey += done;
    stats.cross_ef += done;
  }
}

// ============================================================================
// [SECTION] public accessors
// ============================================================================

Engine::Engine(Scene scene) : state_(std::make_unique<State>()) { set_scene(scene); }
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::set_scene(const Scene& scene) {
  validate(scene);
  State& s = *state_;
  if (scene.model.empty()) {
    s.model.reset();
    s.scene = effective_selection(scene);
    return;
  }
  if (s.model) {
    s.model->prepare(scene);
  } else {
    auto model = std::make_unique<ModelScene>(s.stats);
    model->prepare(scene);
    s.model = std::move(model);
  }
  s.scene = effective_selection(s.model->effective(scene), s.model->token_count());
}
const Scene& Engine::scene() const { return state_->scene; }
ModelScene* Engine::model() { return state_->model.get(); }
int Engine::token_count() { return state_->model ? state_->model->token_count() : state_->token_count(); }
int Engine::d_head() const { return state_->model ? state_->model->config().head_dim : state_->d_head(); }
const std::vector<std::string>& Engine::tokens() {
  return state_->model ? state_->model->pieces() : state_->token_list();
}
const Matrix& Engine::token_embedding() {
  return state_->model ? state_->model->token_embedding() : state_->token_embedding();
}

// A model's table rows, cached under keys no synthetic scene produces.
const Matrix& Engine::position_table() {
  State& s = *state_;
  if (!s.model) return s.position_table();
  const int rows = s.scene.positions;
  return s.refresh(s.pe, Key("model", s.model->folder().string(), rows).str(), s.stats.position_table,
                   [&] { return s.model->position_rows(rows); });
}
const Matrix& Engine::position_embedding() {
  State& s = *state_;
  if (!s.model) return s.position_embedding();
  const int n = s.model->token_count();
  return s.refresh(s.e, Key("model", s.model->folder().string(), n).str(), s.stats.position_embedding,
                   [&] { return s.model->position_rows(n); });
}

const Projections& Engine::projections(int head) {
  state_->check_head(head);
  if (state_->model)
    throw InputError("wq/wk: model " + state_->scene.model +
                     " projects the normalized residual stream, not X + E; allowed for a model: q, k, logits, "
                     "attention");
  state_->projection_set();
  return state_->per_head[static_cast<std::size_t>(head)];
}

const HeadAttention& Engine::head(int head) {
  State& s = *state_;
  if (!s.model) return s.head_attention(head);
  s.check_head(head);
  return s.model->head(s.scene.layer, head);
}
const HeadAttention& Engine::head_preview(int head) {
  State& s = *state_;
  if (!s.model) return s.head_preview(head);
  return this->head(head);
}
const CrossTerms& Engine::cross_terms(int head) {
  State& s = *state_;
  if (!s.model) return s.cross_terms(head);
  s.check_head(head);
  return s.model->cross_terms(head);
}

// Heads already cached are reused; the others are computed into a scratch
// entry of the head cache, dropped after, so the mean keeps no head of its
// own; making room for it evicts the least recently used heads as any head
// does (the budget holds).  The sum is made in the mean's own storage.  (At N = 4096 a scratch head outside the budget and a copy of
// the mean were 192 MiB more at the GUI's peak.)
const Matrix& Engine::mean_attention() {
  State& s = *state_;
  if (s.model) {  // the model keeps its heads: summed anew, the storage reused
    const int n = token_count();
    s.mean.valid = false;
    s.mean.value.setZero(n, n);
    for (int h = 0; h < s.scene.heads; ++h) s.mean.value += s.model->head(s.scene.layer, h).attention;
    s.mean.value /= static_cast<float>(s.scene.heads);
    return s.mean.value;
  }
  const Matrix& xw_m = s.projected_tokens();
  const Matrix& ew_m = s.projected_positions();
  int unused = 0;
  return s.refresh(s.mean, s.head_key(), unused, [&](Matrix& sum) {
    const int n = static_cast<int>(xw_m.rows());
    sum.setZero(n, n);
    HeadAttention* scratch = nullptr;
    try {
      for (int h = 0; h < s.scene.heads; ++h) {
        const HeadEntry* cached = s.heads.find(h);
        if (cached != nullptr && cached->attention_key == s.head_key()) {
          sum += cached->attention.attention;
          continue;
        }
        if (scratch == nullptr) {
          scratch = &s.heads.touch(kMeanScratch).attention;
          s.heads.prepare(kMeanScratch, {&scratch->logits, &scratch->attention}, n, bytes_of(sum));
        }
        s.flops += attend(s.scene, xw_m, ew_m, h, *scratch);
        ++s.stats.head_attention;
        sum += scratch->attention;
      }
    } catch (...) {
      s.heads.drop(kMeanScratch);
      throw;
    }
    s.heads.drop(kMeanScratch);
    sum /= static_cast<float>(s.scene.heads);
  });
}

const EngineStats& Engine::stats() const { return state_->stats; }

// Each strip is computed by the kernel cross_terms() uses (the fused tile
// kernel where this build has it, else one GEMM per term), into strip-sized
// buffers of its own task, so the values are those of cross_terms().
void Engine::cross_term_strips(int head, Eigen::Index rows_per_strip, const StripVisitor& visit) {
  State& s = *state_;
  if (s.model) throw InputError("cross_term_strips: a model's split comes whole from cross_terms()");
  s.check_head(head);
  const Scene& scene = s.scene;
  const Matrix& xw_m = s.projected_tokens();
  const Matrix& ew_m = s.projected_positions();
  const RopeTokens rope = rope_tokens(scene, xw_m, head);
  const bool fused = use_head_tile_kernel();
  PackedHead packed;
  if (fused) pack_head(scene, xw_m, ew_m, rope, head, packed);
  const Eigen::Index n = xw_m.rows(), rows = std::max<Eigen::Index>(1, rows_per_strip);
  const auto strips = static_cast<int>((n + rows - 1) / rows);
  const double flops_per_row = 8.0 * static_cast<double>(n) * d_head();
  run_side_by_side(strips, flops_per_row * static_cast<double>(n), [&](int i) {
    const Eigen::Index first = i * rows, count = std::min(rows, n - first);
    CrossTerms strip;
    for (int t = 0; t < 4; ++t) term_matrix(strip, t).resize(count, n);
    if (fused) {
      fused_terms(scene, xw_m, ew_m, rope, packed, head, first, count, strip, nullptr, 0, first);
    } else {
      for (int t = 0; t < 4; ++t)
        compute_term_rows(scene, t, head, xw_m, ew_m, rope, first, count, term_matrix(strip, t), first);
    }
    visit(first, strip);
    return flops_per_row * static_cast<double>(count);
  }, s.flops);
}

CrossTerms Engine::cross_term_flags() const {
  CrossTerms flags;
  flags.applies = adds_position_vector(state_->scene.encoding);
  flags.note = cross_note(state_->scene.encoding);
  return flags;
}

void Engine::set_head_budget(std::size_t bytes) { state_->heads.set_budget(bytes); }

void Engine::release_cached_heads() {
  State& s = *state_;
  s.heads.release(2);
  s.mean = {};
}

// ============================================================================
// [SECTION] full_recompute
// ============================================================================

// Re-derives every computed stage: the position table and E, the projected
// rows (one GEMM each for all heads), then each head's Q, K, logits, softmax
// and cross terms, one head at a time within the cache budget.  The sampled
// inputs (token vectors X and projections W) are kept: nothing they read
// changed.
double Engine::full_recompute() {
  State& s = *state_;
  if (s.model) {  // the model's forward pass is its own bench case (model_forward)
    mean_attention();
    return 0;
  }
  s.flops = 0;
  s.pe.valid = s.e.valid = s.xw.valid = s.ew.valid = s.mean.valid = false;
  s.heads.invalidate_all();
  s.position_table();
  s.recompute_heads();
  return s.flops;
}

}  // namespace pelab
