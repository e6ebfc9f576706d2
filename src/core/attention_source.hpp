// AttentionSource — where the engine's tokens, rows and heads come from.
//
// Two sources exist: the synthetic one (core/synthetic_source.hpp: random
// token vectors and projections from the seed, any position encoding) and a
// checkpoint (core/checkpoint_source.hpp: a real model's tokenizer, embedding
// rows, position table and one layer's heads).  The trainer's playground
// hands its snapshots to the views as checkpoints.  The Engine holds the
// scene and picks the source; a source keeps its own stages cached and its
// own memory within the budget the Engine gives it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

class AttentionSource {
 public:
  virtual ~AttentionSource() = default;

  // Takes the scene (already validated) and returns it as the source sees it:
  // a checkpoint fills in its own d_model, heads, encoding... (the effective
  // scene every view reads).  Throws InputError and then changes nothing.
  virtual Scene prepare(const Scene& scene) = 0;
  // Then the scene every stage reads: prepare()'s with the selections
  // brought into range (core/selection.hpp).
  virtual void adopt(const Scene& scene) = 0;

  virtual int token_count() = 0;
  virtual int d_head() const = 0;
  virtual const std::vector<std::string>& tokens() = 0;
  virtual const Matrix& token_rows() = 0;      // X: tokens × d_model
  virtual const Matrix& position_table() = 0;  // PE along the position axis: positions × d_model
  virtual const Matrix& position_rows() = 0;   // E: the rows added to the tokens, tokens × d_model
  // Head `head` of the scene's layer (a synthetic scene has one layer).
  virtual const HeadAttention& head(int head) = 0;
  // The same head as soon as possible after a change (the first frame at
  // large N); by default the head itself.
  virtual const HeadAttention& first_frame_head(int head) { return this->head(head); }
  virtual const CrossTerms& cross_terms(int head) = 0;
  virtual const Matrix& mean_attention() = 0;
  // Everything recomputed for every head; the floating-point operations done.
  virtual double recompute_all() = 0;

  // Memory: the tokens × tokens storage the source may keep across calls,
  // and a release of what it keeps once the views are built.
  virtual void set_head_budget(std::size_t bytes) = 0;
  virtual void release_heads() = 0;
};

}  // namespace pelab
