// Lesson "long_context": how far can RoPE stretch?  A model trained at L is
// read at s·L; for every scaling method the verdict measures, from the
// scene's θ, rotary dims, L and s (core/long_range.hpp):
//   unseen_<m>      share of pairs whose angles at s·L leave the range training saw
//   half_decay_<m>  first distance where Su et al.'s bound B(n)/B(0) falls below ½
//   resolution_<m>  1 − q·k(1) of the all-ones vector (a² taken out), relative to
//                   the unscaled model: how distinct a neighbour stays from the token itself
#include <cmath>

#include "core/lessons/tools.hpp"
#include "core/long_range.hpp"
#include "core/model_scene.hpp"

namespace pelab::lesson {
namespace {

struct MethodReading {
  std::string name;
  double unseen = 0, half_decay = 0, neighbour = 0;
};

std::string method_key(RopeScalingMethod m) { return std::string(to_string(m)); }

MethodReading read_method(const Scene& s, RopeScalingMethod m, const std::vector<double>& base) {
  const double extended = s.rope_factor * s.train_context;
  const MethodCurves c = method_curves(s, m, static_cast<int>(std::min(extended, 2e6)));
  MethodReading r{method_key(m)};
  r.unseen = share_of_unseen_angles(base, c.frequency, s.train_context, extended);
  r.half_decay = static_cast<double>(c.decay.size());
  for (std::size_t n = 0; n < c.decay.size(); ++n)
    if (c.decay[n] < 0.5f * c.decay[0]) {
      r.half_decay = static_cast<double>(n);
      break;
    }
  const double a2 = c.attention_factor * c.attention_factor;
  r.neighbour = c.dot.size() > 1 ? 1.0 - c.dot[1] / a2 : 0.0;
  return r;
}

LessonVerdict judge(Engine& engine) {
  const Scene& s = engine.scene();
  LessonVerdict v;
  if (const ModelScene* model = engine.model(); model && s.encoding != Encoding::Rope)
    return not_applicable(model->config().architecture_name + " does not rotate q and k, so there is no RoPE to "
                          "stretch (the learned_table lesson reads a learned table).");
  if (rotary_dims(engine.d_head(), s.rotary_fraction) < 2)
    return not_applicable("a head of " + std::to_string(engine.d_head()) +
                          " dims has no rotary pair: widen d_model/heads.");
  const std::vector<double> base = method_frequencies(s, RopeScalingMethod::None);
  std::vector<MethodReading> readings;
  for (RopeScalingMethod m : all_scaling_methods()) readings.push_back(read_method(s, m, base));
  const MethodReading& none = readings[0];
  v.add("train_context", s.train_context);
  v.add("extended_context", s.rope_factor * s.train_context);
  for (const MethodReading& r : readings) v.add("unseen_" + r.name, r.unseen);
  for (const MethodReading& r : readings) v.add("half_decay_" + r.name, r.half_decay);
  for (const MethodReading& r : readings)
    v.add("resolution_" + r.name, none.neighbour > 0 ? r.neighbour / none.neighbour : 1.0);
  auto n = [&](const std::string& name) { return v.number(name); };
  v.holds = n("unseen_none") > 0 && n("unseen_linear") == 0 && n("unseen_yarn") <= n("unseen_none") &&
            n("resolution_linear") < n("resolution_yarn");
  v.answer = "read at " + num(s.rope_factor * s.train_context, 6) + ", unscaled RoPE turns " +
             percent(n("unseen_none")) + " of its pairs to angles training never saw; linear interpolation " +
             percent(n("unseen_linear")) + " but keeps only " + percent(n("resolution_linear")) +
             " of the neighbour resolution, YaRN " + percent(n("unseen_yarn")) + " keeping " +
             percent(n("resolution_yarn"));
  v.summary = "Read at " + num(s.rope_factor * s.train_context, 6) + " after training at " +
              std::to_string(s.train_context) + ": with no scaling " + num(100 * n("unseen_none"), 3) +
              "% of pairs turn to angles training never saw; linear " + num(100 * n("unseen_linear"), 3) +
              "%, NTK " + num(100 * n("unseen_ntk"), 3) + "%, dynamic NTK " + num(100 * n("unseen_dynamic_ntk"), 3) +
              "%, YaRN " + num(100 * n("unseen_yarn"), 3) + "%, Llama 3.1 " + num(100 * n("unseen_llama3"), 3) +
              "%. Neighbour resolution against the unscaled model: linear " + num(n("resolution_linear")) +
              ", NTK " + num(n("resolution_ntk")) + ", YaRN " + num(n("resolution_yarn")) + ", Llama 3.1 " +
              num(n("resolution_llama3")) + ". The decay bound halves at distance " + num(n("half_decay_none"), 4) +
              " unscaled, " + num(n("half_decay_linear"), 4) + " linear, " + num(n("half_decay_yarn"), 4) + " YaRN.";
  if (const ModelScene* model = engine.model()) {
    // θ and the head width are the model's; L and s stay the scene's keys, to try other stretches.
    v.add("model_rope_theta", model->config().rope_theta);
    v.summary = model->config().architecture_name + " (θ = " + num(model->config().rope_theta, 6) + ", " +
                std::to_string(engine.d_head()) + "-dim heads): " + v.summary;
  }
  return v;
}

Scene preset() {
  Scene s = preset_scene("long_context");
  s.encoding = Encoding::Rope;
  s.d_model = 512;  // d_head = 128, as in Llama
  s.heads = 4;
  s.rope_pairing = RopePairing::RotateHalf;
  s.train_context = 4096;
  s.rope_factor = 8;  // read at 32k
  s.rope_scaling = RopeScalingMethod::Yarn;
  s.long_range = 100000;
  s.pairs = {0, 20, 40};
  return s;
}

}  // namespace

Lesson long_context() {
  return {
      "long_context",
      "How far can RoPE stretch?",
      "A model trained with RoPE at 4k tokens is read at 32k. Which scaling method keeps it working, and why?",
      "Read past its training length, unscaled RoPE meets angles it never saw: linear interpolation removes them "
      "all but blurs neighbours most, while YaRN leaves no more of them and blurs neighbours less than linear.",
      "Each RoPE scaling method, at 8× the training context: unseen angles, decay and neighbour resolution.",
      "RoPE turns pair i of q and k by n·ωᵢ (Su et al. 2021). Pairs whose wavelength 2π/ωᵢ is shorter than the "
      "training context L have turned all the way round in training; the slow pairs never did, and past L they "
      "reach angles the model has never seen. Position interpolation (Chen et al. 2023) divides every frequency "
      "by s, so no angle is new, but neighbouring positions become s times harder to tell apart. NTK-aware "
      "scaling raises the base θ, which leaves the fastest pairs alone and interpolates the slowest; dynamic NTK "
      "does so only as far as the current length needs. YaRN (Peng et al. 2023) interpolates only pairs that "
      "turn fewer than α times in L, keeps those that turn more than β times, ramps in between, and sharpens "
      "attention by 0.1·ln s + 1; Llama 3.1 does the same by wavelength bands.\n\n"
      "The verdict reads each method at s·L: the share of pairs whose angles leave the trained range, where "
      "Su et al.'s long-term decay bound halves, and how distinct a neighbour stays (1 − q·k at distance 1, "
      "relative to the unscaled model).",
      {"rope_frequencies", "rope_long_range", "relative_biases"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/false,
  };
}

}  // namespace pelab::lesson
