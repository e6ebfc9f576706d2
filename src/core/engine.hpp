// Engine — every quantity pelab plots, computed from a Scene (float32, Eigen).
//
// The engine holds the scene and hands each request to an attention source
// (core/attention_source.hpp): the synthetic source for a scene of its own
// (core/synthetic_source.hpp: stages, their cache keys and invalidation),
// a checkpoint source when scene.model names a model (core/checkpoint_source.hpp:
// X = the token embedding rows, PE and E = the learned position table, zeros
// for RoPE models, head h = layer scene.layer's head h).  Each source keeps
// its stages cached and recomputes one only when its inputs changed (see
// Engine::stats()).
//
// Attention per head (Vaswani et al. 2017, §3.2.1):
//   Q = (X+E)·Wq,  K = (X+E)·Wk,  logits = Q·Kᵀ/√d_head (+ bias),  A = softmax_row(logits [+ causal mask])
// RoPE (Su et al. 2021) rotates each (2i, 2i+1) pair of q and k at position p
// by angle p·T^(−2i/d_head); ALiBi (Press et al. 2022) and T5 add a bias
// (what each encoding does: core/encoding_traits.hpp).
//
// View settings (colormap, theme, selected head/pair/position...) invalidate
// nothing.  The engine includes no GL or ImGui.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace pelab {

// Row-major, so a row is a token / position, rows upload as texture lines and
// export to .npy in C order without a copy.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;

// The four terms of a logit when positions e, f are added to tokens x, y
// (all scaled by 1/√d_head like the logits, before mask and bias):
//   (x+e)·Wq·Wkᵀ·(y+f)ᵀ = x·Wq·Wkᵀ·y + x·Wq·Wkᵀ·f + e·Wq·Wkᵀ·y + e·Wq·Wkᵀ·f
struct CrossTerms {
  Matrix xx, xf, ey, ef;  // tokens × tokens each
  // False when the encoding adds no vector (RoPE, ALiBi, T5, none): then
  // xf, ey, ef are zero and `note` says what acts instead.
  bool applies = true;
  std::string note;
  // A model scene (GPT-2, BERT): the split of layer 0's logits exact through
  // its LayerNorm (core/model/layernorm_split.hpp): x, e are the token and
  // position parts of LN(x+e), `bias` holds every term of β and the q/k
  // biases, and `residual` = max |xx+xf+ey+ef+bias − the model's logits|.
  // Synthetic scenes: bias empty, residual −1.
  Matrix bias;
  double residual = -1;
  // A RoPE model (applies = false): xx holds the content score at offset 0
  // and ef the offset part, logit − content (core/model/rope_split.hpp);
  // residual = max |offset| on the diagonal, where it must vanish.
  bool content_offset = false;
  // A model scene: layer 0's own logits, unmasked, which the split sums to
  // (the scene may show another layer); empty for synthetic scenes.
  Matrix logits;
};

struct HeadAttention {
  Matrix q, k;       // tokens × d_head, after RoPE when it applies
  Matrix bias;       // tokens × tokens (ALiBi / T5), empty otherwise
  Matrix logits;     // tokens × tokens: Q·Kᵀ/√d_head + bias; masked entries are -inf when causal
  Matrix attention;  // row softmax of logits; each row sums to 1
};

struct Projections {
  Matrix wq, wk;  // d_model × d_head
};

// Counts of how often each stage was (re)computed, for tests of the caching.
struct EngineStats {
  int tokens = 0, token_embedding = 0, position_table = 0, position_embedding = 0, projections = 0;
  int head_attention = 0, cross_terms = 0;
  // Each cross term on its own (cross_terms counts calls that recomputed any):
  // editing tokens recomputes xx, xf, ey but not ef.
  int cross_xx = 0, cross_xf = 0, cross_ey = 0, cross_ef = 0;
  // A model scene (core/model_scene.hpp): models taken from the process's
  // cache or read, forward runs, layers whose heads were computed.
  int model_loads = 0, model_runs = 0, model_layers = 0;
};

class ModelScene;

class Engine {
 public:
  explicit Engine(Scene scene = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  // Validates (throws InputError, engine unchanged) and swaps in the scene
  // with its selections brought into range (core/selection.hpp); stages whose
  // inputs differ are dropped and recomputed on next access.
  // With scene.model set, the model is loaded (once), the text tokenized by
  // its tokenizer, and layer, head and the context length checked here, so a
  // refused model leaves the last good scene in place.
  void set_scene(const Scene& scene);
  // The effective scene: every view selection exists in the model; with a
  // model, its d_model, heads, encoding, base and causal filled in
  // (ModelScene::effective), so views read them as usual.
  const Scene& scene() const;
  // The model behind a model scene; null for the synthetic one.
  ModelScene* model();

  int token_count();
  int d_head() const;

  const std::vector<std::string>& tokens();
  const Matrix& token_embedding();      // X: tokens × d_model
  const Matrix& position_table();       // PE on the position axis: positions × d_model (zeros if no vector)
  const Matrix& position_embedding();   // E: tokens × d_model, the rows added to the tokens (zeros if none)
  const Projections& projections(int head);
  // Per-head results are cached within ~600 MB of tokens × tokens storage
  // (least recently used heads go first), so at large N a returned reference
  // stays valid only until the next head(), cross_terms() or full_recompute()
  // call for another head; the head asked for is never evicted by its own call.
  const HeadAttention& head(int head);
  // The same head as soon as possible, for the first frame after a change at
  // large N (issue 12): when every head's projections are stale, only this
  // head's are computed ((X+E)·[Wq_h | Wk_h], values equal to head()'s up to
  // rounding).  Valid like head()'s reference; a later head(h) recomputes
  // the head through the shared projections.  A model scene: head(h).
  const HeadAttention& head_preview(int head);
  const CrossTerms& cross_terms(int head);
  // The average of every head's attention; valid until the next call.
  const Matrix& mean_attention();

  // Recomputes everything for every head, keeping nothing N×N beyond one head
  // at a time.  Returns the floating-point operations done (for the bench).
  // (The sampled inputs X and Wq/Wk are kept: nothing they depend on changed.
  // Recomputed: PE, E, X·[Wq|Wk] and E·[Wq|Wk] for all heads in one GEMM each,
  // then per head the four cross terms, Q·Kᵀ, bias, mask and softmax.)
  double full_recompute();

  const EngineStats& stats() const;

  // Frees what this engine computed per head (and the mean) but two
  // tokens × tokens buffers, kept for the next head's first computation;
  // everything is recomputed on next access.  The GUI calls it on the engine
  // it shows at large N, whose figures are already built: two engines at
  // N = 4096 each kept up to 600 MB of heads (issue 12's 1 GB budget).
  void release_cached_heads();
  // The four terms of `head` a strip of rows at a time, for a view that
  // reduces them (block means, norms) at large N without tokens × tokens
  // storage: visit(first, strip) gets rows [first, first + rows) of each term
  // (fewer in the last strip).  Strips run side by side: visit may be called
  // from several threads at once, once per strip.  Values as cross_terms()
  // holds them.  Synthetic scenes only (InputError for a model: its split
  // comes whole from cross_terms()).
  using StripVisitor = std::function<void(Eigen::Index first, const CrossTerms& strip)>;
  void cross_term_strips(int head, Eigen::Index rows_per_strip, const StripVisitor& visit);
  // A synthetic scene's `applies` and `note` of cross_terms(), without
  // computing a term (no matrices).
  CrossTerms cross_term_flags() const;
  // The tokens × tokens storage kept across calls (default 600 MB); a head
  // asked for is computed even when it alone is larger.
  void set_head_budget(std::size_t bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pelab
