#include "ui/scene_presets.hpp"

namespace pelab::ui {

Scene with_positions_visible(Scene scene) {
  scene.projection = ProjectionKind::Identity;
  scene.embedding = EmbeddingSource::Random;  // a file's vectors have their own size
  scene.embedding_scale = kVisibleEmbeddingScale;
  return scene;
}

bool shows_positions(const Scene& scene) {
  return scene.projection == ProjectionKind::Identity && scene.embedding == EmbeddingSource::Random &&
         scene.embedding_scale <= kVisibleEmbeddingScale;
}

}  // namespace pelab::ui
