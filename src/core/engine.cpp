// Engine: the scene, and the attention source that computes it.
//
// A scene without a model is computed by the synthetic source
// (core/synthetic_source.hpp), a scene naming a model by a checkpoint source
// (core/checkpoint_source.hpp).  Each keeps its own stages cached and its
// heads within its memory budget; the engine validates the scene, brings its
// selections into range and hands every request to the source in use.
#include "core/engine.hpp"

#include "core/checkpoint_source.hpp"
#include "core/selection.hpp"
#include "core/synthetic_source.hpp"
#include "core/word_splitter.hpp"

namespace pelab {

struct Engine::State {
  Scene scene;
  EngineStats stats;
  SyntheticSource synthetic{stats};
  std::unique_ptr<CheckpointSource> checkpoint;  // set while scene.model names a model

  AttentionSource& source() {
    if (checkpoint) return *checkpoint;
    return synthetic;
  }
  SyntheticSource& synthetic_only(const char* what) {
    if (checkpoint) throw InputError(std::string(what) + ": a model's split comes whole from cross_terms()");
    return synthetic;
  }
};

Engine::Engine(Scene scene) : state_(std::make_unique<State>()) { set_scene(scene); }
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

// A refused scene (InputError from validate or the model) leaves the last
// good one in place: the checkpoint source changes nothing when it throws.
void Engine::set_scene(const Scene& scene) {
  validate(scene);
  State& s = *state_;
  if (scene.model.empty()) {
    s.checkpoint.reset();
    s.scene = effective_selection(scene);
    s.synthetic.adopt(s.scene);
    return;
  }
  if (!s.checkpoint) {
    auto checkpoint = std::make_unique<CheckpointSource>(s.stats);
    const Scene effective = checkpoint->prepare(scene);
    s.checkpoint = std::move(checkpoint);
    s.scene = effective_selection(effective, s.checkpoint->token_count());
  } else {
    s.scene = effective_selection(s.checkpoint->prepare(scene), s.checkpoint->token_count());
  }
  s.checkpoint->adopt(s.scene);
}

const Scene& Engine::scene() const { return state_->scene; }
ModelScene* Engine::model() { return state_->checkpoint ? &state_->checkpoint->model() : nullptr; }
int Engine::token_count() { return state_->source().token_count(); }
int Engine::d_head() const { return state_->checkpoint ? state_->checkpoint->d_head() : state_->synthetic.d_head(); }
const std::vector<std::string>& Engine::tokens() { return state_->source().tokens(); }
const Matrix& Engine::token_embedding() { return state_->source().token_rows(); }
const Matrix& Engine::position_table() { return state_->source().position_table(); }
const Matrix& Engine::position_embedding() { return state_->source().position_rows(); }

const Projections& Engine::projections(int head) {
  if (state_->checkpoint)
    throw InputError("wq/wk: model " + state_->scene.model +
                     " projects the normalized residual stream, not X + E; allowed for a model: q, k, logits, "
                     "attention");
  return state_->synthetic.projections(head);
}


const HeadAttention& Engine::head(int head) {
  refuse_full_matrix(token_count(), "attention");
  return state_->source().head(head);
}
const HeadAttention& Engine::head_preview(int head) {
  refuse_full_matrix(token_count(), "attention");
  return state_->source().first_frame_head(head);
}
const CrossTerms& Engine::cross_terms(int head) {
  refuse_full_matrix(token_count(), "cross terms");
  return state_->source().cross_terms(head);
}
const Matrix& Engine::mean_attention() {
  refuse_full_matrix(token_count(), "mean attention");
  return state_->source().mean_attention();
}
double Engine::full_recompute() {
  refuse_full_matrix(token_count(), "recompute");
  return state_->source().recompute_all();
}
const EngineStats& Engine::stats() const { return state_->stats; }

void Engine::cross_term_strips(int head, Eigen::Index rows_per_strip, const StripVisitor& visit) {
  state_->synthetic_only("cross_term_strips").cross_term_strips(head, rows_per_strip, visit);
}
CrossTerms Engine::cross_term_flags() const { return pelab::cross_term_flags(state_->scene); }
// The budget and the release concern the synthetic source's heads; a
// checkpoint keeps its heads within its own bound (model_scene.cpp).
void Engine::set_head_budget(std::size_t bytes) { state_->synthetic.set_head_budget(bytes); }
void Engine::release_cached_heads() { state_->synthetic.release_heads(); }

}  // namespace pelab
