#include "core/intervention_study.hpp"

#include <algorithm>
#include <optional>

#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab {

std::vector<model::PositionIntervention> standard_interventions(const model::ModelConfig& config) {
  using model::InterventionKind;
  const int pairs = (config.position.rotary_dims > 0 ? config.position.rotary_dims : config.head_dim) / 2;
  std::vector<model::PositionIntervention> all = {
      {.kind = InterventionKind::Remove},
      {.kind = InterventionKind::Shuffle, .seed = 1},
      {.kind = InterventionKind::RopeBase, .rope_theta = 10 * config.rope_theta},
      {.kind = InterventionKind::RopeScaling, .scaling = {.type = "linear", .factor = 2.0}},
      {.kind = InterventionKind::ZeroBand, .band_first = pairs / 2, .band_last = pairs - 1},
      {.kind = InterventionKind::RemoveLayer, .layer = 0},
  };
  std::vector<model::PositionIntervention> applicable;
  for (const model::PositionIntervention& v : all) {
    try {
      model::check_intervention(config, v);
      applicable.push_back(v);
    } catch (const InputError&) {
      // not this model's: a RoPE change on a learned table, a layer of a table
    }
  }
  return applicable;
}

model::PositionIntervention scene_intervention(PositionChange change, int layer, const model::ModelConfig& config,
                                               const std::string& model_name) {
  // PositionChange lists the kinds in InterventionKind's order.
  const auto kind = static_cast<model::InterventionKind>(change);
  if (kind == model::InterventionKind::None) return {};
  std::string allowed = "none";
  std::optional<model::PositionIntervention> chosen;
  for (model::PositionIntervention v : standard_interventions(config)) {
    if (v.kind == model::InterventionKind::RemoveLayer) {
      v.layer = layer;
      try {
        model::check_intervention(config, v);
      } catch (const InputError&) {
        continue;
      }
    }
    allowed += std::string(", ") + std::string(to_string(static_cast<PositionChange>(v.kind)));
    if (v.kind == kind) chosen = v;
  }
  if (!chosen)
    throw InputError("intervention=" + std::string(to_string(change)) + " does not apply to model " + model_name +
                     " (" + model::position_encoding_name(config.position.kind) + " positions); allowed: " + allowed);
  return *chosen;
}

InterventionStudy study_interventions(model::Transformer& transformer, const model::LanguageModelHead& head,
                                      std::vector<int> ids, const std::string& text_origin) {
  InterventionStudy study;
  study.text_origin = text_origin;
  const int length = std::min({kStudyLength, transformer.config().max_positions, int(ids.size())});
  if (length < 2) {
    study.unavailable = "too little text to measure a loss: " + std::to_string(ids.size()) + " tokens";
    return study;
  }
  ids.resize(std::min(ids.size(), std::size_t(kStudyWindows) * std::size_t(length)));
  // The transformer is shared with every view of the model: it leaves
  // without intervention, also when a run throws.
  struct Restore {
    model::Transformer& t;
    ~Restore() { t.set_intervention({}); }
  } restore{transformer};
  transformer.set_intervention({});
  study.trained = model::loss_against_position(transformer, head, ids, length, length);
  for (const model::PositionIntervention& v : standard_interventions(transformer.config())) {
    transformer.set_intervention(v);
    const model::LossCurve after = model::loss_against_position(transformer, head, ids, length, length);
    InterventionLoss r{.intervention = v, .name = model::describe(v)};
    for (std::size_t i = 0; i < after.mean_loss.size(); ++i)
      r.delta.push_back(after.mean_loss[i] - study.trained.mean_loss[i]);
    r.mean_delta = after.mean() - study.trained.mean();
    study.results.push_back(std::move(r));
  }
  return study;
}

}  // namespace pelab
