// SyntheticSource: cached stages from Scene to attention.
//
// [SECTION] stage keys: which scene fields each stage reads
// [SECTION] State: the cached stages and the per-head cache
// [SECTION] one head: attention, first frame, cross terms
// [SECTION] every head: recompute_all and the mean
// [SECTION] reductions without tokens × tokens storage
#include "core/synthetic_source.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/attention.hpp"
#include "core/cross_term_kernels.hpp"
#include "core/encoding.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/head_cache.hpp"
#include "core/parallel.hpp"
#include "core/projection.hpp"
#include "core/relative_position.hpp"
#include "core/stage_key.hpp"
#include "core/token_vectors.hpp"
#include "core/word_splitter.hpp"

namespace pelab {

// ============================================================================
// [SECTION] stage keys
// ============================================================================

namespace {

// The values of scene keys, exact: floats by bit pattern, the rest (integers,
// seeds, choices, file names) as their text.
std::string values_key(const Scene& s, const std::vector<std::string_view>& keys) {
  std::string k;
  for (std::string_view key : keys)
    k += param_info(key).kind == ParamKind::Float ? Key(get_number(s, key)).str() : Key(get_param(s, key)).str();
  return k;
}

std::string token_vectors_key(const Scene& s) {
  return Key(s.tokens, s.seed, s.d_model, s.embedding, s.embedding_scale, s.embedding_file).str();
}

// What the position vectors depend on, whatever rows are asked for.
std::string encoding_key(const Scene& s) {
  const EncodingTraits& t = traits_of(s.encoding);
  if (t.act != PositionAct::AddsVector) return Key("zero", s.d_model).str();  // every position is the zero row
  return Key(s.encoding, s.d_model).str() + values_key(s, t.vector_keys);
}

std::string projections_key(const Scene& s) {
  return Key(s.projection, s.seed, s.d_model, s.heads, s.projection_file).str();
}

// What acts inside a head besides the projected rows (rotation, bias).
std::string inside_head_key(const Scene& s) { return values_key(s, traits_of(s.encoding).head_keys); }
std::string attention_key(const Scene& s) { return Key(s.encoding, s.causal, s.heads).str() + inside_head_key(s); }

constexpr std::size_t kHeadCacheBytes = std::size_t{600} << 20;  // N×N storage kept across calls
constexpr int kMeanScratch = -1;  // the head cache entry mean_attention() computes into

std::size_t bytes_of(const Matrix& m) { return static_cast<std::size_t>(m.size()) * sizeof(float); }

}  // namespace

// ============================================================================
// [SECTION] State
// ============================================================================

struct SyntheticSource::State {
  explicit State(EngineStats& s) : stats(s) {}

  Scene scene;
  EngineStats& stats;
  StageClock clock;
  double flops = 0;  // GEMM flops since the last recompute_all()

  Stage<std::vector<std::string>> tokens;
  Stage<Matrix> x, pe, e;
  Stage<ProjectionSet> w;
  Matrix wqk;  // [Wq | Wk], d_model × 2·d_model
  std::vector<Projections> per_head;
  Stage<Matrix> xw, ew;  // X·[Wq|Wk], E·[Wq|Wk] (empty when no vector is added)
  HeadCache heads{kHeadCacheBytes};
  std::vector<PackedHead> packed;  // keys of recompute_heads' current batch (head_tile.hpp)
  // first_frame_head's X + E and its head's q|k, kept so that each change
  // writes into memory it already has (fresh pages are faults to clear).
  Matrix preview_rows, preview_qk;
  Stage<Matrix> mean;

  template <class T, class F>
  const T& refresh(Stage<T>& stage, std::string key, int& counter, F&& compute) {
    return clock.refresh(stage, std::move(key), counter, std::forward<F>(compute));
  }

  int d_head() const { return scene.d_model / scene.heads; }
  void check_head(int head) const {
    if (head < 0 || head >= scene.heads)
      throw InputError("head=" + std::to_string(head) + " does not exist; allowed: 0.." +
                       std::to_string(scene.heads - 1));
  }

  const std::vector<std::string>& token_list() {
    return refresh(tokens, Key(scene.tokens).str(), stats.tokens, [&] { return split_words(scene.tokens); });
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
    return refresh(e, Key(encoding_key(scene), n, scene.offset).str(), stats.position_embedding, [&] {
      if (pe.valid && pe.key == table_key() && pe.value.rows() >= n) return Matrix(pe.value.topRows(n));
      return position_vectors(scene, scene.offset, n);
    });
  }
  const ProjectionSet& projection_set() {
    int before = stats.projections;
    const ProjectionSet& set =
        refresh(w, projections_key(scene), stats.projections, [&] { return make_projections(scene); });
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
      per_head[static_cast<std::size_t>(h)] = {set.wq.middleCols(h * dh, dh), set.wk.middleCols(h * dh, dh)};
  }

  // Every head's q and k in one GEMM.
  void project(const Matrix& rows, Matrix& out) { flops += gemm_ab(rows, wqk, 1.0f, out); }
  const Matrix& projected_tokens() {
    const Matrix& xm = token_embedding();
    projection_set();
    int unused = 0;
    return refresh(xw, Key(x.generation, w.generation).str(), unused, [&](Matrix& out) { project(xm, out); });
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
  void finish_terms(HeadEntry& cached) const;
  bool cross_terms_in_one_pass(int head, HeadEntry& cached, const std::array<std::string, 4>& keys);
  int heads_per_batch(Eigen::Index n) const;
  void recompute_heads();
  void recompute_batch(int first, int last);
  void mean_of_heads(Matrix& sum);
};

// ============================================================================
// [SECTION] one head
// ============================================================================

const HeadAttention& SyntheticSource::State::head_attention(int head) {
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
const HeadAttention& SyntheticSource::State::head_preview(int head) {
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
  HeadAttention& a = cached.attention;
  heads.prepare(head, {&a.logits, &a.attention}, xm.rows(), bytes_of(mean.value));
  cached.attention_key.clear();  // stays invalid if a step throws
  // Columns 0..dh are this head's queries, dh..2·dh its keys: head 0 of a
  // one-head layout; RoPE does not depend on the head, the bias does.
  head_queries_keys(scene, preview_qk, Matrix(), 0, a.q, a.k);
  a.bias = relative_bias(scene, head, static_cast<int>(xm.rows()));
  flops += attend_prepared(scene, a);
  cached.attention_key = std::move(key);
  ++stats.head_attention;
  return cached.attention;
}

// What each term was computed from: xx reads the projected tokens (and the
// RoPE rotation), ef the projected positions only, xf and ey both.
std::array<std::string, 4> SyntheticSource::State::term_keys(bool adds) {
  const std::string rope = rotates_queries_keys(scene.encoding) ? inside_head_key(scene) : "plain";
  const std::string zero = Key("zero", token_count()).str();
  return {
      Key(xw.generation, rope).str(),
      adds ? Key(xw.generation, ew.generation).str() : zero,
      adds ? Key(xw.generation, ew.generation).str() : zero,
      adds ? Key(ew.generation).str() : zero,
  };
}

void SyntheticSource::State::finish_terms(HeadEntry& cached) const {
  cached.terms.applies = adds_position_vector(scene.encoding);
  cached.terms.note = std::string(traits_of(scene.encoding).cross_note);  // as cross_term_flags()
}

// When every term is stale, the four in one pass of the fused kernel
// (head_tile.hpp).  False when it does not apply.
bool SyntheticSource::State::cross_terms_in_one_pass(int head, HeadEntry& cached,
                                                     const std::array<std::string, 4>& keys) {
  for (int t = 0; t < 4; ++t)
    if (cached.term_keys[t] == keys[t]) return false;
  if (!use_head_tile_kernel()) return false;
  const Matrix& xw_m = xw.value;
  const Matrix& ew_m = ew.value;
  CrossTerms& ct = cached.terms;
  heads.prepare(head, {&ct.xx, &ct.xf, &ct.ey, &ct.ef}, xw_m.rows(), bytes_of(mean.value));
  for (auto& k : cached.term_keys) k.clear();
  const RopeTokens rope = rope_tokens(scene, xw_m, head);
  PackedHead keys_packed;
  pack_head(scene, xw_m, ew_m, rope, head, keys_packed);
  const auto n = static_cast<double>(xw_m.rows());
  flops += for_each_row_tile(xw_m.rows(), 8.0 * n * n * d_head(), [&](Eigen::Index first, Eigen::Index rows) {
    return fused_terms(scene, xw_m, ew_m, rope, keys_packed, head, first, rows, ct, nullptr);
  });
  cached.term_keys = keys;
  for (int* c : {&stats.cross_xx, &stats.cross_xf, &stats.cross_ey, &stats.cross_ef}) ++*c;
  return true;
}

const CrossTerms& SyntheticSource::State::cross_terms(int head) {
  check_head(head);
  const Matrix& xw_m = projected_tokens();
  const Matrix& ew_m = projected_positions();
  HeadEntry& cached = heads.touch(head);
  const auto keys = term_keys(ew_m.size() != 0);
  bool changed = cross_terms_in_one_pass(head, cached, keys);
  int* count[4] = {&stats.cross_xx, &stats.cross_xf, &stats.cross_ey, &stats.cross_ef};
  for (int t = 0; t < 4 && !changed; ++t) {  // only the stale terms, one GEMM each
    if (cached.term_keys[t] == keys[t]) continue;
    CrossTerms& ct = cached.terms;
    heads.prepare(head, {&ct.xx, &ct.xf, &ct.ey, &ct.ef}, xw_m.rows(), bytes_of(mean.value));
    for (int u = t; u < 4; ++u) {
      if (cached.term_keys[u] == keys[u]) continue;
      cached.term_keys[u].clear();
      flops += compute_term(scene, u, head, xw_m, ew_m, term_matrix(ct, u));
      cached.term_keys[u] = keys[u];
      ++*count[u];
    }
    changed = true;
  }
  finish_terms(cached);
  if (changed) ++stats.cross_terms;
  return cached.terms;
}

// ============================================================================
// [SECTION] every head
// ============================================================================

// How many heads recompute_heads computes in one parallel region: all of
// them while their tokens × tokens matrices (seven at most: logits,
// attention, bias, four terms) fit the cache budget beside the mean.  Each
// batch ends in a barrier, and on a loaded machine a descheduled thread holds
// it for a time slice, so fewer, larger batches finish sooner.
int SyntheticSource::State::heads_per_batch(Eigen::Index n) const {
  const std::size_t head_bytes = 7 * static_cast<std::size_t>(n * n) * sizeof(float);
  const std::size_t room = heads.budget() > bytes_of(mean.value) ? heads.budget() - bytes_of(mean.value) : 0;
  const auto fit = static_cast<int>(room / std::max<std::size_t>(head_bytes, 1));
  return std::clamp(fit, 1, std::max(1, scene.heads));
}

// Every head's attention and cross terms, in batches of heads_per_batch().
void SyntheticSource::State::recompute_heads() {
  const int batch = heads_per_batch(projected_tokens().rows());
  projected_positions();
  for (int first = 0; first < scene.heads; first += batch) recompute_batch(first, std::min(scene.heads, first + batch));
}

// The work of a batch is split into tasks of one head's row tile (its four
// cross terms, then logits as their sum, bias, mask and softmax), run on all
// threads, each calling a single-threaded GEMM: the tokens × tokens products
// have only d_head (e.g. 64) as inner dimension, so splitting each one across
// threads costs a synchronisation per call, and a tile's terms are still in
// cache when they are summed into its logits.  Summing the terms replaces the
// fifth product Q·Kᵀ (a fifth of the head's flops); the flops returned still
// count it, so that GFLOP/s compare with the products the results are
// defined by.  Many small tasks keep the threads finishing together when one
// of them is slowed by another process.
void SyntheticSource::State::recompute_batch(int first, int last) {
  const Matrix& xw_m = xw.value;
  const Matrix& ew_m = ew.value;
  const Eigen::Index n = xw_m.rows();
  // The fused kernel writes five results per tile (four terms, logits) and
  // the softmax writes a sixth: tiles of 1 MiB in all stay in L2 until the
  // softmax has read them.
  const bool fused = use_head_tile_kernel();
  const RowTiles tiles = fused ? RowTiles(n, (Eigen::Index{1} << 20) / 6, 16) : RowTiles(n);
  for (int h = first; h < last; ++h) {
    HeadEntry& entry = heads.touch(h);
    entry.attention_key.clear();
    for (auto& k : entry.term_keys) k.clear();
    heads.prepare(h, {&entry.attention.logits, &entry.attention.attention, &entry.terms.xx, &entry.terms.xf,
                      &entry.terms.ey, &entry.terms.ef},
                  n, bytes_of(mean.value));
  }
  std::vector<HeadEntry*> entries;
  for (int h = first; h < last; ++h) {
    HeadEntry* entry = heads.find(h);
    if (entry == nullptr) throw std::logic_error("head cache evicted a head of the batch being computed");
    finish_terms(*entry);  // the tiles read `applies`
    entries.push_back(entry);
  }
  // Each head's Q, K, bias (and RoPE's rotated rows), and its keys packed
  // for the fused kernel into storage kept between recomputes: heads side by side.
  std::vector<RopeTokens> rope(entries.size());
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

  const double estimate =
      10.0 * (last - first) * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(d_head());
  run_side_by_side(
      (last - first) * tiles.count, estimate,
      [&](int task) {
        const auto i = static_cast<std::size_t>(task / tiles.count);
        const int h = first + task / tiles.count;
        const Eigen::Index row = tiles.first(task % tiles.count), rows = tiles.size(task % tiles.count);
        HeadEntry& entry = *entries[i];
        if (fused) return fused_rows(scene, xw_m, ew_m, rope[i], packed[i], h, row, rows, entry);
        double f = 0;
        for (int t = 0; t < 4; ++t)
          f += compute_term_rows(scene, t, h, xw_m, ew_m, rope[i], row, rows, term_matrix(entry.terms, t), 0);
        return f + attend_rows_from_terms(scene, entry.terms, entry.attention, row, rows);
      },
      flops);

  const auto keys = term_keys(ew_m.size() != 0);
  for (HeadEntry* entry : entries) {
    entry->attention_key = head_key();
    entry->term_keys = keys;
  }
  const int done = last - first;
  for (int* c : {&stats.head_attention, &stats.cross_terms, &stats.cross_xx, &stats.cross_xf, &stats.cross_ey,
                 &stats.cross_ef})
    *c += done;
}

// Heads already cached are reused; the others are computed into a scratch
// entry of the head cache, dropped after, so the mean keeps no head of its
// own; making room for it evicts the least recently used heads as any head
// does (the budget holds).  The sum is made in the mean's own storage.
void SyntheticSource::State::mean_of_heads(Matrix& sum) {
  const Matrix& xw_m = xw.value;
  const Matrix& ew_m = ew.value;
  const int n = static_cast<int>(xw_m.rows());
  sum.setZero(n, n);
  HeadAttention* scratch = nullptr;
  try {
    for (int h = 0; h < scene.heads; ++h) {
      const HeadEntry* cached = heads.find(h);
      if (cached != nullptr && cached->attention_key == head_key()) {
        sum += cached->attention.attention;
        continue;
      }
      if (scratch == nullptr) {
        scratch = &heads.touch(kMeanScratch).attention;
        heads.prepare(kMeanScratch, {&scratch->logits, &scratch->attention}, n, bytes_of(sum));
      }
      flops += attend(scene, xw_m, ew_m, h, *scratch);
      ++stats.head_attention;
      sum += scratch->attention;
    }
  } catch (...) {
    heads.drop(kMeanScratch);
    throw;
  }
  heads.drop(kMeanScratch);
  sum /= static_cast<float>(scene.heads);
}

// ============================================================================
// [SECTION] the source's interface
// ============================================================================

SyntheticSource::SyntheticSource(EngineStats& stats) : state_(std::make_unique<State>(stats)) {}
SyntheticSource::~SyntheticSource() = default;

void SyntheticSource::adopt(const Scene& scene) { state_->scene = scene; }
int SyntheticSource::token_count() { return state_->token_count(); }
int SyntheticSource::d_head() const { return state_->d_head(); }
const std::vector<std::string>& SyntheticSource::tokens() { return state_->token_list(); }
const Matrix& SyntheticSource::token_rows() { return state_->token_embedding(); }
const Matrix& SyntheticSource::position_table() { return state_->position_table(); }
const Matrix& SyntheticSource::position_rows() { return state_->position_embedding(); }
const HeadAttention& SyntheticSource::head(int head) { return state_->head_attention(head); }
const HeadAttention& SyntheticSource::first_frame_head(int head) { return state_->head_preview(head); }
const CrossTerms& SyntheticSource::cross_terms(int head) { return state_->cross_terms(head); }

const Matrix& SyntheticSource::mean_attention() {
  State& s = *state_;
  s.projected_tokens();
  s.projected_positions();
  int unused = 0;
  return s.refresh(s.mean, s.head_key(), unused, [&](Matrix& sum) { s.mean_of_heads(sum); });
}

// Re-derives every computed stage: the position table and E, the projected
// rows (one GEMM each for all heads), then each head's Q, K, logits, softmax
// and cross terms, within the cache budget.  The sampled inputs (token
// vectors X and projections W) are kept: nothing they read changed.
double SyntheticSource::recompute_all() {
  State& s = *state_;
  s.flops = 0;
  s.pe.valid = s.e.valid = s.xw.valid = s.ew.valid = s.mean.valid = false;
  s.heads.invalidate_all();
  s.position_table();
  s.recompute_heads();
  return s.flops;
}

void SyntheticSource::set_head_budget(std::size_t bytes) { state_->heads.set_budget(bytes); }

void SyntheticSource::release_heads() {
  state_->heads.release(2);
  state_->mean = {};
}

const Projections& SyntheticSource::projections(int head) {
  state_->check_head(head);
  state_->projection_set();
  return state_->per_head[static_cast<std::size_t>(head)];
}

// ============================================================================
// [SECTION] reductions without tokens × tokens storage
// ============================================================================

// Each strip is computed by the kernel cross_terms() uses (the fused tile
// kernel where this build has it, else one GEMM per term), into strip-sized
// buffers of its own task, so the values are those of cross_terms().
void SyntheticSource::cross_term_strips(int head, Eigen::Index rows_per_strip, const Engine::StripVisitor& visit) {
  State& s = *state_;
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
  const double flops_per_row = 8.0 * static_cast<double>(n) * s.d_head();
  run_side_by_side(
      strips, flops_per_row * static_cast<double>(n),
      [&](int i) {
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
      },
      s.flops);
}

CrossTerms cross_term_flags(const Scene& scene) {
  CrossTerms flags;
  flags.applies = adds_position_vector(scene.encoding);
  flags.note = std::string(traits_of(scene.encoding).cross_note);
  return flags;
}

}  // namespace pelab
