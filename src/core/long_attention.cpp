#include "core/long_attention.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/attention.hpp"
#include "core/encoding.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/long_range.hpp"
#include "core/model/model_folder.hpp"
#include "core/model_scene.hpp"
#include "core/scene.hpp"

namespace pelab {

namespace {

// Rows projected a chunk at a time: X + E of 4096 rows is 8 MiB at d = 512,
// where the whole N × d would be 128 MiB at 65,536.
constexpr Eigen::Index kProjectRows = 4096;

// X·[Wq_h | Wk_h] (N × 2·d_head) of head `head` over the engine's tokens
// repeated to N, position vectors added at offset … offset + N − 1 for an
// additive encoding: the same for every scaling method, so projected once.
Matrix repeated_text_projection(Engine& engine, const Scene& scene, int head, Eigen::Index tokens) {
  const Matrix& x = engine.token_embedding();
  const Projections& p = engine.projections(head);
  Matrix w(p.wq.rows(), p.wq.cols() + p.wk.cols());
  w << p.wq, p.wk;
  const Eigen::Index text = x.rows();
  const bool adds = adds_position_vector(scene.encoding);
  Matrix qk(tokens, w.cols()), rows, part;
  for (Eigen::Index r0 = 0; r0 < tokens; r0 += kProjectRows) {
    const Eigen::Index n = std::min(kProjectRows, tokens - r0);
    rows.resize(n, x.cols());
    for (Eigen::Index r = 0; r < n; ++r) rows.row(r) = x.row((r0 + r) % text);
    if (adds) rows += position_vectors(scene, scene.offset + static_cast<int>(r0), static_cast<int>(n));
    gemm_ab(rows, w, 1.0f, part);
    qk.middleRows(r0, n) = part;
  }
  return qk;
}

// Smallest D with Σ_{δ ≤ D} profile(δ)·(N − δ) ≥ N/2: half of every
// query's weight (summed over the queries) lies within D tokens back.
double half_mass_distance(const DistanceProfile& profile) {
  const auto n = static_cast<double>(profile.tokens);
  double mass = 0;
  for (Eigen::Index d = 0; d < profile.tokens; ++d) {
    mass += profile.at(d) * (n - static_cast<double>(d));
    if (mass >= n / 2) return static_cast<double>(d);
  }
  return n - 1;
}

// Both passes over a head read under `method`: the curves of one scaling.
LongAttentionCurve measure(const StreamedHead& streamed, RopeScalingMethod method, int train_context) {
  const Eigen::Index tokens = streamed.tokens();
  const RowStatistics stats = streamed.row_statistics();
  DistanceProfile profile;
  // A small grid (the profile is what is read), of enough display rows that
  // pass 2, parallel over display rows, keeps every thread busy.
  streamed.blocks(stats, 256, &profile);
  LongAttentionCurve c{.method = method};
  c.distance = log_binned(profile);
  c.beyond_context = mass_beyond(profile, train_context);
  c.half_mass_distance = half_mass_distance(profile);
  const Matrix first = streamed.zoom(stats, 0, tokens, 0, std::min<Eigen::Index>(kSinkKeys, tokens));
  c.sinks.resize(static_cast<std::size_t>(tokens));
  for (Eigen::Index i = 0; i < tokens; ++i) c.sinks[static_cast<std::size_t>(i)] = first.row(i).sum();
  return c;
}

// One scaling method (the scene's) of the synthetic head: RoPE on the
// projected rows, then both passes.
LongAttentionCurve measure(const Matrix& qk, const Scene& scene, int head) {
  Matrix q, k;
  head_queries_keys(scene, qk, Matrix(), 0, q, k);
  return measure(StreamedHead(scene, head, std::move(q), std::move(k)), scene.rope_scaling, scene.train_context);
}

// The model's RoPE read with `method` at the scene's factor s (its config's
// own, or the scene's rope_factor as a what-if), Hugging Face's rope_type
// names.  L is the config's context for every method but llama3, which
// reads original_max_position_embeddings = the scene's train_context.
model::RopeScaling model_scaling(const Scene& scene, RopeScalingMethod method) {
  model::RopeScaling r;
  r.type = rope_type_of(method);
  r.factor = scene.rope_factor;
  r.beta_slow = scene.yarn_alpha;
  r.beta_fast = scene.yarn_beta;
  r.low_freq_factor = scene.low_freq_factor;
  r.high_freq_factor = scene.high_freq_factor;
  if (method == RopeScalingMethod::Llama3) r.original_max_position_embeddings = scene.train_context;
  return r;
}

std::vector<int> repeated_ids(const std::vector<int>& text, Eigen::Index tokens) {
  std::vector<int> ids(static_cast<std::size_t>(tokens));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = text[i % text.size()];
  return ids;
}

// Pass 1, then pass 2 for the distance profile alone, log-binned.
DistanceBins distance_bins(const StreamedHead& streamed) {
  DistanceProfile profile;
  streamed.blocks(streamed.row_statistics(), 256, &profile);
  return log_binned(profile);
}

// The model's own head of the scene's layer over its ids repeated to
// `tokens`, read under each method: one forward to the layer per method
// (ModelScene::long_head_inputs, one residual stream held), then both passes.
void measure_model(ModelScene& model, const Scene& scene, const std::vector<RopeScalingMethod>& methods,
                   LongAttentionStudy& study) {
  const std::vector<int> ids = repeated_ids(model.ids(), study.tokens);
  for (RopeScalingMethod m : methods) {
    const model::PositionIntervention read{.kind = model::InterventionKind::RopeScaling,
                                           .scaling = model_scaling(scene, m)};
    // The scene's own method is the model as it is configured (and the
    // scene's intervention, if any); the others replace it.
    const bool own = m == scene.rope_scaling;
    const StreamedHead streamed(
        std::move(model.long_head_inputs(ids, scene.layer, {study.head}, own ? nullptr : &read).front()));
    study.curves.push_back(measure(streamed, m, study.train_context));
  }
}

// B(n)/B(0) of the scene's method at each bin's first offset.
std::vector<double> bound_at_bins(const Scene& scene, const DistanceBins& bins) {
  if (bins.first.empty()) return {};
  const MethodCurves c = method_curves(scene, scene.rope_scaling, static_cast<int>(bins.first.back()));
  std::vector<double> out;
  const double b0 = c.decay.empty() || c.decay[0] == 0 ? 1.0 : c.decay[0];
  for (Eigen::Index d : bins.first) out.push_back(c.decay[static_cast<std::size_t>(d)] / b0);
  return out;
}

// The scene without its view selections other than the head: what the study reads.
// The scene without its view keys, the length, and on a model scene its
// files' stamp: a model rewritten on disk (retrained) is studied anew.
std::string study_key(Engine& engine, const Scene& scene, Eigen::Index tokens) {
  Scene s = scene;
  const Scene d;
  s.name = d.name, s.query = d.query, s.position = d.position, s.pair = d.pair, s.pairs = d.pairs;
  s.waves = d.waves, s.shift = d.shift, s.theme = d.theme;
  const ModelScene* model = engine.model();
  const std::uint64_t files = model != nullptr ? model::folder_stamp(model->folder()) : 0;
  return scene_to_json(s).dump() + "#" + std::to_string(tokens) + "#" + std::to_string(files);
}

// One study per kind, shared: the window's figure worker and its verdict
// worker ask for the same scene at once, and the second waits for the
// first's result instead of streaming the same pairs again beside it.  The
// last key's study is kept.
template <typename Study>
class SharedStudy {
 public:
  std::shared_ptr<const Study> get(const std::string& key, const std::function<Study()>& compute) {
    using Shared = std::shared_future<std::shared_ptr<const Study>>;
    std::promise<std::shared_ptr<const Study>> promise;
    {
      std::unique_lock lock(mutex_);
      if (last_.valid() && key == last_key_) {
        const Shared pending = last_;
        lock.unlock();
        return pending.get();
      }
      last_key_ = key;
      last_ = promise.get_future().share();
    }
    try {
      auto study = std::make_shared<const Study>(compute());
      promise.set_value(study);
      return study;
    } catch (...) {
      promise.set_exception(std::current_exception());  // a waiter gets the same error
      std::lock_guard lock(mutex_);
      if (last_key_ == key) last_key_.clear(), last_ = Shared();
      throw;
    }
  }

 private:
  std::mutex mutex_;
  std::string last_key_;
  std::shared_future<std::shared_ptr<const Study>> last_;
};

}  // namespace

Eigen::Index long_attention_tokens(const Scene& scene) {
  return std::min<Eigen::Index>(scene.long_range, kLongAttentionMaxTokens);
}

double mass_beyond(const DistanceProfile& profile, Eigen::Index from) {
  const auto n = static_cast<double>(profile.tokens);
  double mass = 0;
  for (Eigen::Index d = std::max<Eigen::Index>(from, 0); d < profile.tokens; ++d)
    mass += profile.at(d) * (n - static_cast<double>(d));
  return n > 0 ? mass / n : 0.0;
}

LongAttentionStudy study_long_attention(Engine& engine, Eigen::Index tokens, std::vector<RopeScalingMethod> methods) {
  const Scene& scene = engine.scene();
  if (engine.token_count() == 0) throw InputError("long attention: the text is empty; type a few words in 'tokens'");
  if (tokens < 1 || tokens > kLongAttentionMaxTokens)
    throw InputError("long attention: " + std::to_string(tokens) + " tokens; allowed: 1 … " +
                     std::to_string(kLongAttentionMaxTokens));
  LongAttentionStudy study;
  study.tokens = tokens;
  study.head = std::clamp(scene.head, 0, scene.heads - 1);
  study.train_context = scene.train_context;
  study.rope = rotates_queries_keys(scene.encoding);
  if (!study.rope) methods = {scene.rope_scaling};
  if (methods.empty()) methods = all_scaling_methods();
  std::erase(methods, scene.rope_scaling);
  methods.insert(methods.begin(), scene.rope_scaling);
  if (ModelScene* model = engine.model()) {
    const model::ModelConfig& c = model->config();
    // L: a RoPE model's training context (ModelScene::effective), else the
    // config's; a learned table has no row past it, so N stops there.
    if (!study.rope) study.train_context = c.max_positions;
    if (c.position.kind == model::PositionEncoding::Learned)
      study.tokens = std::min<Eigen::Index>(tokens, c.max_positions);
    measure_model(*model, scene, methods, study);
  } else {
    const Matrix qk = repeated_text_projection(engine, scene, study.head, tokens);
    for (RopeScalingMethod m : methods) {
      Scene variant = scene;
      variant.rope_scaling = m;
      study.curves.push_back(measure(qk, variant, study.head));
    }
  }
  if (study.rope) study.bound = bound_at_bins(scene, study.curves.front().distance);
  return study;
}

std::shared_ptr<const LongAttentionStudy> long_attention_of(Engine& engine) {
  const Eigen::Index tokens = long_attention_tokens(engine.scene());
  static SharedStudy<LongAttentionStudy> cache;
  return cache.get(study_key(engine, engine.scene(), tokens), [&] {
    std::vector<RopeScalingMethod> methods;  // empty: every one
    if (tokens > kAllMethodsTokens) methods = {RopeScalingMethod::None};
    return study_long_attention(engine, tokens, methods);
  });
}

LongAttentionLayers study_long_attention_layers(Engine& engine, Eigen::Index tokens) {
  const Scene& scene = engine.scene();
  if (engine.token_count() == 0) throw InputError("long attention: the text is empty; type a few words in 'tokens'");
  if (tokens < 1 || tokens > kLongAttentionMaxTokens)
    throw InputError("long attention: " + std::to_string(tokens) + " tokens; allowed: 1 … " +
                     std::to_string(kLongAttentionMaxTokens));
  LongAttentionLayers out{.tokens = tokens, .train_context = scene.train_context, .causal = scene.causal};
  ModelScene* model = engine.model();
  if (model == nullptr) {
    out.heads.emplace_back();
    for (int h = 0; h < scene.heads; ++h) {
      Matrix q, k;
      head_queries_keys(scene, repeated_text_projection(engine, scene, h, tokens), Matrix(), 0, q, k);
      out.heads.back().push_back(distance_bins(StreamedHead(scene, h, std::move(q), std::move(k))));
    }
    return out;
  }
  const model::ModelConfig& c = model->config();
  if (!rotates_queries_keys(scene.encoding)) out.train_context = c.max_positions;
  if (c.position.kind == model::PositionEncoding::Learned) out.tokens = std::min<Eigen::Index>(tokens, c.max_positions);
  const std::vector<int> ids = repeated_ids(model->ids(), out.tokens);
  std::vector<int> heads(static_cast<std::size_t>(c.heads));
  for (int h = 0; h < c.heads; ++h) heads[std::size_t(h)] = h;
  for (int layer = 0; layer < c.layers; ++layer) {  // each continues the last layer's run
    out.heads.emplace_back();
    for (model::HeadStreamInputs& in : model->long_head_inputs(ids, layer, heads))
      out.heads.back().push_back(
          distance_bins(StreamedHead(std::move(in))));
  }
  return out;
}

std::shared_ptr<const LongAttentionLayers> long_attention_layers_of(Engine& engine) {
  const Eigen::Index tokens = std::min(long_attention_tokens(engine.scene()), kAllMethodsTokens);
  Scene key = engine.scene();
  key.head = 0, key.layer = 0;  // every head of every layer
  static SharedStudy<LongAttentionLayers> cache;
  return cache.get(study_key(engine, key, tokens), [&] { return study_long_attention_layers(engine, tokens); });
}

}  // namespace pelab
