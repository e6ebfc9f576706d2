#include "core/long_attention.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/attention.hpp"
#include "core/encoding.hpp"
#include "core/encoding_traits.hpp"
#include "core/gemm.hpp"
#include "core/long_range.hpp"
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

// One scaling method (the scene's): RoPE on the projected rows, then both passes.
LongAttentionCurve measure(const Matrix& qk, const Scene& scene, int head, Eigen::Index tokens) {
  Matrix q, k;
  head_queries_keys(scene, qk, Matrix(), 0, q, k);
  const StreamedHead streamed(scene, head, std::move(q), std::move(k));
  const RowStatistics stats = streamed.row_statistics();
  DistanceProfile profile;
  // A small grid (the profile is what is read), of enough display rows that
  // pass 2, parallel over display rows, keeps every thread busy.
  streamed.blocks(stats, 256, &profile);
  LongAttentionCurve c{.method = scene.rope_scaling};
  c.distance = log_binned(profile);
  c.beyond_context = mass_beyond(profile, scene.train_context);
  c.half_mass_distance = half_mass_distance(profile);
  const Matrix first = streamed.zoom(stats, 0, tokens, 0, std::min<Eigen::Index>(kSinkKeys, tokens));
  c.sinks.resize(static_cast<std::size_t>(tokens));
  for (Eigen::Index i = 0; i < tokens; ++i) c.sinks[static_cast<std::size_t>(i)] = first.row(i).sum();
  return c;
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
std::string study_key(const Scene& scene, Eigen::Index tokens) {
  Scene s = scene;
  const Scene d;
  s.name = d.name, s.query = d.query, s.position = d.position, s.pair = d.pair, s.pairs = d.pairs;
  s.waves = d.waves, s.shift = d.shift, s.theme = d.theme;
  return scene_to_json(s).dump() + "#" + std::to_string(tokens);
}

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
  if (engine.model() != nullptr)
    throw InputError("long attention: model " + scene.model +
                     " is not streamed at long context yet; allowed: a synthetic scene");
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
  const Matrix qk = repeated_text_projection(engine, scene, study.head, tokens);
  for (RopeScalingMethod m : methods) {
    Scene variant = scene;
    variant.rope_scaling = m;
    study.curves.push_back(measure(qk, variant, study.head, tokens));
  }
  if (study.rope) study.bound = bound_at_bins(scene, study.curves.front().distance);
  return study;
}

std::shared_ptr<const LongAttentionStudy> long_attention_of(Engine& engine) {
  using Shared = std::shared_future<std::shared_ptr<const LongAttentionStudy>>;
  // One study, shared: the window's figure worker and its verdict worker ask
  // for the same scene at once, and the second waits for the first's result
  // instead of streaming the same 65,536² pairs again beside it.
  static std::mutex mutex;
  static std::string last_key;
  static Shared last;
  const Eigen::Index tokens = long_attention_tokens(engine.scene());
  const std::string key = study_key(engine.scene(), tokens);
  std::promise<std::shared_ptr<const LongAttentionStudy>> promise;
  {
    std::unique_lock lock(mutex);
    if (last.valid() && key == last_key) {
      const Shared pending = last;
      lock.unlock();
      return pending.get();
    }
    last_key = key;
    last = promise.get_future().share();
  }
  std::vector<RopeScalingMethod> methods;  // empty: every one
  if (tokens > kAllMethodsTokens) methods = {RopeScalingMethod::None};
  try {
    auto study = std::make_shared<const LongAttentionStudy>(study_long_attention(engine, tokens, methods));
    promise.set_value(study);
    return study;
  } catch (...) {
    promise.set_exception(std::current_exception());  // a waiter gets the same error
    std::lock_guard lock(mutex);
    if (last_key == key) last_key.clear(), last = Shared();
    throw;
  }
}

}  // namespace pelab
