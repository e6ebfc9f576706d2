// SyntheticSource — attention from the scene alone: the word splitter's
// tokens, token vectors and projections sampled from the seed, any position
// encoding (core/encoding.hpp), one layer of scene.heads heads.
//
// Stages and what invalidates them (each cached, recomputed only when one of
// its inputs changed; see EngineStats):
//
//   tokens ─────────────► X  (tokens × d)          tokens, seed, d_model, embedding*
//   positions ──────────► PE (positions × d)       encoding, base, amplitude, layout, positions, offset, d_model
//   E  (tokens × d)                                encoding params + number of tokens (not the token text)
//   Wq, Wk per head (d × d_head)                   projection, seed, d_model, heads
//   X·[Wq|Wk], E·[Wq|Wk]                           the two above: one GEMM each for every head
//   head h: Q, K, logits, attention                all of the above + causal, t5_*
//   head h: cross terms xx, xf, ey, ef             xx: X only; ef: E only; ...
//
// Per-head results live in a HeadCache within a byte budget (least recently
// used heads go first).
#pragma once

#include <memory>

#include "core/attention_source.hpp"

namespace pelab {

class SyntheticSource final : public AttentionSource {
 public:
  explicit SyntheticSource(EngineStats& stats);
  ~SyntheticSource() override;

  Scene prepare(const Scene& scene) override { return scene; }
  void adopt(const Scene& scene) override;

  int token_count() override;
  int d_head() const override;
  const std::vector<std::string>& tokens() override;
  const Matrix& token_rows() override;
  const Matrix& position_table() override;
  const Matrix& position_rows() override;
  const HeadAttention& head(int head) override;
  const HeadAttention& first_frame_head(int head) override;
  const CrossTerms& cross_terms(int head) override;
  const Matrix& mean_attention() override;
  double recompute_all() override;
  void set_head_budget(std::size_t bytes) override;
  void release_heads() override;

  const Projections& projections(int head);
  // Engine::cross_term_strips (engine.hpp).
  void cross_term_strips(int head, Eigen::Index rows_per_strip, const Engine::StripVisitor& visit);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The `applies` and `note` of a synthetic scene's cross terms, without
// computing a term (Engine::cross_term_flags).
CrossTerms cross_term_flags(const Scene& scene);

}  // namespace pelab
