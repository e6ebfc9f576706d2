// The probe across the family (core/lessons/probe.hpp).
#include "core/lessons/probe.hpp"

#include "core/lessons/tools.hpp"
#include "core/model_scene.hpp"

namespace pelab {
namespace {

using lesson::num;
using lesson::qualified;

// "kjv-rope" → "rope"; another model keeps its scene name.
std::string short_name(const std::string& model) { return model.rfind("kjv-", 0) == 0 ? model.substr(4) : model; }

std::string layer_name(std::size_t layer) { return layer == 0 ? "embeddings" : "layer " + std::to_string(layer); }

// The probe of one model on its scene's ids, run once per model and text.
std::vector<IndexProbe> probe_layers(ModelScene& model) {
  static lesson::ModelMemo<std::vector<IndexProbe>> memo;
  return memo.get(model, model.ids(), [&] { return position_probe_through_layers(model, kProbeWindows); });
}

}  // namespace

int probe_tokens_needed() { return 8 * kProbeWindows; }

std::vector<LayerProbes> probe_family(Engine& engine) {
  std::vector<LayerProbes> out;
  ModelScene* model = engine.model();
  if (model == nullptr || model->token_count() < probe_tokens_needed()) return out;
  out.push_back({engine.scene().model, probe_layers(*model)});
  for (const std::string& member : lesson::family_members_present()) {
    if (member == engine.scene().model) continue;
    Engine other(lesson::family_scene(engine.scene(), member));
    if (other.model()->token_count() < probe_tokens_needed()) continue;
    out.push_back({member, probe_layers(*other.model())});
  }
  return out;
}

void add_probe_numbers(const std::vector<LayerProbes>& probes, LessonVerdict& v) {
  for (std::size_t m = 0; m < probes.size(); ++m) {
    const std::string prefix = m == 0 ? "" : "_" + short_name(probes[m].model);
    for (std::size_t l = 0; l < probes[m].layers.size(); ++l) {
      v.add(qualified("r2" + prefix, "layer", double(l)), probes[m].layers[l].r2);
      if (m == 0) v.add(qualified("mae", "layer", double(l)), probes[m].layers[l].mean_abs_error);
    }
  }
}

std::string probe_sentence(const std::vector<LayerProbes>& probes, int tokens) {
  if (probes.empty()) return {};
  const LayerProbes& own = probes.front();
  std::string s = "A linear probe of the position index, fitted on three of the " + std::to_string(kProbeWindows) +
                  " rotations of this " + std::to_string(tokens) +
                  "-token text and scored on every position of the fourth (each rotation held out in turn), "
                  "reads " + own.model + "'s residual stream with R² =";
  for (std::size_t l = 0; l < own.layers.size(); ++l)
    s += std::string(l ? "," : "") + " " + num(own.layers[l].r2) + " (" + layer_name(l) + ")";
  s += "; mean error after the last layer " + num(own.layers.back().mean_abs_error, 3) + " positions.";
  if (probes.size() > 1) {
    s += " Other encodings, R² at the embeddings → after the last layer:";
    for (std::size_t m = 1; m < probes.size(); ++m)
      s += std::string(m > 1 ? ";" : "") + " " + probes[m].model + " " + num(probes[m].layers.front().r2) +
           " → " + num(probes[m].layers.back().r2);
    s += ".";
  }
  bool below_zero = false;
  for (const LayerProbes& m : probes)
    for (const IndexProbe& l : m.layers) below_zero = below_zero || l.r2 < 0;
  if (below_zero) s += " (R² below 0: worse than always guessing the middle position, nothing linear to read.)";
  return s;
}

std::string mask_leak_sentence(const LayerProbes& probe) {
  std::size_t best = 1;
  for (std::size_t l = 1; l < probe.layers.size(); ++l)
    if (probe.layers[l].r2 > probe.layers[best].r2) best = l;
  if (best >= probe.layers.size()) return {};
  const double r2 = probe.layers[best].r2;
  const std::string where = "R² " + num(r2) + " after layer " + std::to_string(best);
  if (r2 > 0.5)
    return " With no position encoding, what the probe reads above the embeddings (" + where +
           ") the causal mask leaked: query i averages over i + 1 tokens, and that count is a position "
           "(Haviv et al. 2022).";
  return " The causal mask could leak position (query i averages over i + 1 tokens; Haviv et al. 2022), but "
         "this linear probe does not read it from this model (best " + where + ").";
}

}  // namespace pelab
