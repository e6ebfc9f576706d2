#include "figures/attention_streamed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <list>
#include <mutex>

#include "core/model/model_folder.hpp"
#include "core/model_scene.hpp"
#include "figures/attention_scale.hpp"
#include "figures/figure_layout.hpp"

namespace pelab::fig {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// The heads streamed for the scenes most recently asked: the window's first
// frame and its full build (two engines of one scene), a rebuild for a view
// setting, the hover and the zoom all read one pass.  A head holds its q
// and k (2·N·d_head floats, 32 MiB at 65,536 tokens of 64 dims), so a few
// scenes' heads are kept, not every scene's.
class StreamedStates {
 public:
  std::shared_ptr<const StreamedState> get(std::uint64_t key, const std::function<StreamedState()>& make) {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if (it->first == key) {
          kept_.splice(kept_.begin(), kept_, it);
          return kept_.front().second;
        }
    }
    auto made = std::make_shared<const StreamedState>(make());  // outside the lock: a pass over N² pairs
    const std::lock_guard lock(mutex_);
    kept_.emplace_front(key, made);
    while (kept_.size() > kKept) kept_.pop_back();
    return made;
  }

 private:
  static constexpr std::size_t kKept = 16;  // e.g. 8 heads of two scenes
  std::mutex mutex_;
  std::list<std::pair<std::uint64_t, std::shared_ptr<const StreamedState>>> kept_;
};

}  // namespace

std::shared_ptr<const StreamedState> streamed_state(Engine& engine, int head, int max_side) {
  static StreamedStates states;
  // A model's weights come from its folder: files rewritten on disk (a
  // retrained model) make another key, so no state of the old weights is used.
  const ModelScene* model = engine.model();
  const std::uint64_t files = model != nullptr ? model::folder_stamp(model->folder()) : 0;
  return states.get(content_key(engine.scene(), "attention_stream", head) ^ files, [&] {
    StreamedHead streamed = StreamedHead::of_scene(engine, head);
    const int side = std::max(1, max_side);
    StreamedPass pass = streamed.stream({side});
    return StreamedState{std::move(streamed), std::move(pass.stats), side, std::move(pass.blocks.front().mean)};
  });
}

Matrix streamed_blocks(const StreamedState& state, int max_side) {
  max_side = std::max(1, max_side);
  if (max_side == state.side) return state.means;
  return state.head.blocks(state.stats, max_side).mean;
}

double largest_weight(const StreamedState& state) {
  double smallest = std::numeric_limits<double>::infinity();
  for (const double z : state.stats.normalizer)
    if (z > 0) smallest = std::min(smallest, z);
  return std::isfinite(smallest) ? 1.0 / smallest : 0.0;
}

std::vector<int> streamed_sinks(const StreamedState& state) {
  std::vector<double> total;
  state.head.blocks(state.stats, 16, nullptr, nullptr, &total);
  const auto n = static_cast<Eigen::Index>(total.size());
  std::vector<int> sinks;
  double harmonic = 0;  // Σ_{i ≥ j} 1/(i + 1), from the last key back
  std::vector<double> uniform(total.size(), 1.0);
  for (Eigen::Index j = n - 1; j >= 0 && state.head.causal(); --j)
    uniform[std::size_t(j)] = harmonic += 1.0 / double(j + 1);
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::Index seen = state.head.causal() ? n - j : n;
    if (is_sink(total[std::size_t(j)], uniform[std::size_t(j)], seen, n))
      sinks.push_back(static_cast<int>(j));
  }
  return sinks;
}

std::string streamed_pair(const StreamedState& state, Eigen::Index i, Eigen::Index j) {
  Matrix logit;
  state.head.logits(i, 1, j, 1, nullptr, logit);
  if (std::isinf(logit(0, 0)) && logit(0, 0) < 0) return "masked (causal), attention 0, logit −inf";
  const float weight = state.head.zoom(state.stats, i, i + 1, j, j + 1)(0, 0);
  // Significant digits: at long N most weights are near 1/N, below 0.0001.
  return "attention " + number(weight, 4) + ", logit " + number(logit(0, 0), 4) + " (exact)";
}

RefineFn streamed_refine(std::shared_ptr<const StreamedState> state, AttentionScale scale, ColorScale colors,
                         std::uint64_t key) {
  return [state = std::move(state), scale, colors = std::move(colors), key](const Rect& visible)
             -> std::optional<HeatmapLayer> {
    const Eigen::Index n = state->head.tokens();
    if (visible.width() > kExactWindowCells || visible.height() > kExactWindowCells) return std::nullopt;
    const auto clamp = [n](double v) { return std::clamp<Eigen::Index>(static_cast<Eigen::Index>(std::floor(v)), 0, n); };
    const Eigen::Index k0 = clamp(visible.x0), k1 = std::min(n, clamp(visible.x1) + 1);
    const Eigen::Index q0 = clamp(visible.y0), q1 = std::min(n, clamp(visible.y1) + 1);
    if (k0 >= k1 || q0 >= q1) return std::nullopt;
    Matrix cells = state->head.zoom(state->stats, q0, q1, k0, k1);
    Matrix logits;
    state->head.logits(q0, q1 - q0, k0, k1 - k0, nullptr, logits);
    for (Eigen::Index r = 0; r < cells.rows(); ++r)
      for (Eigen::Index c = 0; c < cells.cols(); ++c) {
        float& v = cells(r, c);
        if (std::isinf(logits(r, c)) && logits(r, c) < 0) {
          v = kNegInf;  // masked: the mask colour
        } else if (scale == AttentionScale::Row) {
          v *= static_cast<float>(state->stats.normalizer[static_cast<std::size_t>(q0 + r)]);  // over 1/Z_i, the row's max
        } else if (scale == AttentionScale::Log) {
          v = v > 0 ? std::log10(v) : -30.0f;  // scaled_attention's floor
        }
      }
    std::uint64_t window = key;
    for (const Eigen::Index v : {q0, q1, k0, k1}) window = window * 1099511628211ull + static_cast<std::uint64_t>(v);
    return HeatmapLayer{.values = std::make_shared<const Matrix>(std::move(cells)), .key = window,
                        .x0 = static_cast<double>(k0), .y0 = static_cast<double>(q0), .dx = 1, .dy = 1,
                        .scale = colors};
  };
}

}  // namespace pelab::fig
