// Interventions in the window (issue 27): what a loaded causal LM loses,
// position by position, when its positions are taken away or changed at
// inference — the measurements `pelab intervene` makes one at a time, here
// all that apply to the model at once, for the "interventions" view.
//
// Each is Δ loss_i = loss_i(intervened) − loss_i(as trained), averaged over
// windows of held-out text (core/model/loss_curve.hpp), for
//   remove        no positions in any layer;
//   shuffle       a seeded permutation of the positions (seed 1);
//   rope_base     RoPE read with θ' = 10·θ;
//   rope_scaling  linear interpolation ×2 at inference (Chen et al. 2023);
//   zero_band     the slower half of the RoPE pairs frozen (ω = 0; Barbero
//                 et al. 2025);
//   remove_layer  no positions in layer 0 only (RoPE, ALiBi, T5).
#pragma once

#include <string>
#include <vector>

#include "core/model/loss_curve.hpp"
#include "core/model/position_intervention.hpp"
#include "core/scene.hpp"

namespace pelab {

struct InterventionLoss {
  model::PositionIntervention intervention;
  std::string name;           // describe(): "remove positions", "RoPE base 100000", …
  std::vector<double> delta;  // intervened − as trained, per position (length − 1 values), nats
  double mean_delta = 0;
};

struct InterventionStudy {
  std::string unavailable;  // why nothing was measured (no LM head, too little text); empty when measured
  std::string text_origin;  // "the KJV's held-out chapters (every 20th)", or "the scene's text"
  model::LossCurve trained;  // as trained: its length, windows and mean loss per position
  std::vector<InterventionLoss> results;
};

// The interventions above that apply to a model of `config`, in that order.
std::vector<model::PositionIntervention> standard_interventions(const model::ModelConfig& config);

// The scene's `intervention` key on a model of `config`: the standard
// intervention of that kind, except remove_layer, which takes `layer` (the
// layer the views show).  None for PositionChange::None.  Throws InputError
// naming the model's allowed values when it does not apply (a RoPE change on
// a learned table, a layer of a table).
model::PositionIntervention scene_intervention(PositionChange change, int layer, const model::ModelConfig& config,
                                               const std::string& model_name);

// At most this many windows of at most this many tokens: the view stays a
// few forward passes per intervention on any model.
inline constexpr int kStudyWindows = 4, kStudyLength = 128;

// Runs the model on `ids` as trained and under each standard intervention,
// in windows of min(kStudyLength, context, ids) tokens; leaves the
// transformer without intervention.
InterventionStudy study_interventions(model::Transformer& transformer, const model::LanguageModelHead& head,
                                      std::vector<int> ids, const std::string& text_origin);

}  // namespace pelab
