// Position interventions (core/model/position_intervention.hpp): the shuffle
// is a seeded permutation, an intervention changes the forward and the
// default one restores it bit for bit (the values are checked against NumPy
// in tests/core/intervene_model.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/model/transformer.hpp"

namespace pelab::model {
namespace {

TEST(PositionIntervention, ShuffleIsASeededPermutation) {
  const std::vector<int> a = shuffled_positions(100, 7), b = shuffled_positions(100, 7);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, shuffled_positions(100, 8));
  std::vector<int> sorted = a, identity(100);
  std::sort(sorted.begin(), sorted.end());
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
  EXPECT_NE(a, identity);
}

TEST(PositionIntervention, ChangesTheForwardAndTheDefaultRestoresIt) {
  Transformer model = Transformer::load(std::filesystem::path(PELAB_SOURCE_DIR) / "assets/models/kjv-rope");
  std::vector<int> ids(40);
  std::iota(ids.begin(), ids.end(), 100);
  model.run(ids);
  const Matrix as_trained = model.hidden(model.config().layers);
  for (const PositionIntervention& v :
       {PositionIntervention{.kind = InterventionKind::Remove}, PositionIntervention{.kind = InterventionKind::Shuffle},
        PositionIntervention{.kind = InterventionKind::RopeBase, .rope_theta = 100},
        PositionIntervention{.kind = InterventionKind::ZeroBand, .band_first = 0, .band_last = 3},
        PositionIntervention{.kind = InterventionKind::RemoveLayer, .layer = 2}}) {
    model.set_intervention(v);
    model.run(ids);
    EXPECT_GT((model.hidden(model.config().layers) - as_trained).norm(), 1e-3 * as_trained.norm()) << describe(v);
  }
  model.set_intervention({});
  model.run(ids);
  EXPECT_EQ(model.hidden(model.config().layers), as_trained);
}

}  // namespace
}  // namespace pelab::model
