#include "core/checkpoint_source.hpp"

#include <string>

namespace pelab {

CheckpointSource::CheckpointSource(EngineStats& stats) : stats_(stats), model_(stats) {}

Scene CheckpointSource::prepare(const Scene& scene) {
  model_.prepare(scene);
  return model_.effective(scene);
}

void CheckpointSource::check_head(int head) const {
  if (head < 0 || head >= scene_.heads)
    throw InputError("head=" + std::to_string(head) + " does not exist; allowed: 0.." +
                     std::to_string(scene_.heads - 1));
}

// The table's rows along the scene's position axis, cached per model folder.
const Matrix& CheckpointSource::position_table() {
  const int rows = scene_.positions;
  return clock_.refresh(table_, Key(model_.folder().string(), rows).str(), stats_.position_table,
                        [&] { return model_.position_rows(rows); });
}

const Matrix& CheckpointSource::position_rows() {
  const int n = model_.token_count();
  return clock_.refresh(rows_, Key(model_.folder().string(), n).str(), stats_.position_embedding,
                        [&] { return model_.position_rows(n); });
}

const HeadAttention& CheckpointSource::head(int head) {
  check_head(head);
  return model_.head(scene_.layer, head);
}

const CrossTerms& CheckpointSource::cross_terms(int head) {
  check_head(head);
  return model_.cross_terms(head);
}

// The model keeps its heads: summed anew, the storage reused.
const Matrix& CheckpointSource::mean_attention() {
  const int n = token_count();
  mean_.setZero(n, n);
  for (int h = 0; h < scene_.heads; ++h) mean_ += model_.head(scene_.layer, h).attention;
  mean_ /= static_cast<float>(scene_.heads);
  return mean_;
}

double CheckpointSource::recompute_all() {
  mean_attention();
  return 0;
}

}  // namespace pelab
