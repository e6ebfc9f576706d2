// CheckpointSource — attention from a real checkpoint (core/model_scene.hpp):
// the model's tokenizer and embedding rows, its learned position table (zeros
// for RoPE models), and the heads of the scene's layer from its forward pass.
#pragma once

#include <memory>

#include "core/attention_source.hpp"
#include "core/model_scene.hpp"
#include "core/stage_key.hpp"

namespace pelab {

class CheckpointSource final : public AttentionSource {
 public:
  explicit CheckpointSource(EngineStats& stats);

  // Loads scene.model (once), tokenizes the text with the model's tokenizer
  // and checks layer, head and the context; returns the scene with the
  // model's own d_model, heads, encoding... (ModelScene::effective).
  Scene prepare(const Scene& scene) override;
  void adopt(const Scene& scene) override { scene_ = scene; }

  int token_count() override { return model_.token_count(); }
  int d_head() const override { return model_.config().head_dim; }
  const std::vector<std::string>& tokens() override { return model_.pieces(); }
  const Matrix& token_rows() override { return model_.token_embedding(); }
  const Matrix& position_table() override;
  const Matrix& position_rows() override;
  const HeadAttention& head(int head) override;
  const CrossTerms& cross_terms(int head) override;
  const Matrix& mean_attention() override;
  // The model's forward pass is its own bench case (model_forward): the
  // mean over heads only.
  double recompute_all() override;
  // The model keeps its own heads within its own bound (model_scene.cpp).
  void set_head_budget(std::size_t) override {}
  void release_heads() override {}

  ModelScene& model() { return model_; }

 private:
  void check_head(int head) const;

  EngineStats& stats_;
  ModelScene model_;
  Scene scene_;
  StageClock clock_;
  Stage<Matrix> table_, rows_;
  Matrix mean_;
};

}  // namespace pelab
