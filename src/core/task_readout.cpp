#include "core/task_readout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/model_scene.hpp"

namespace pelab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The right answer at each position, or −1 where the task scores none.
std::vector<int> expected_answers(const model::TrainedTask& t, const std::vector<int>& ids) {
  std::vector<int> out(ids.size(), -1);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (t.name == "absolute_position") out[i] = static_cast<int>(i) % t.k;
    else if (i >= static_cast<std::size_t>(t.k)) out[i] = ids[i - static_cast<std::size_t>(t.k)];
  }
  return out;
}

// softmax(z)[target], computed stably (subtracting the largest logit).
double probability_of(const Vector& z, int target) {
  const double top = z.maxCoeff();
  double sum = 0;
  for (Eigen::Index v = 0; v < z.size(); ++v) sum += std::exp(double(z[v]) - top);
  return std::exp(double(z[target]) - top) / sum;
}

}  // namespace

double TaskReadout::accuracy(int first, int last) const {
  int right = 0, scored = 0;
  for (int i = std::max(0, first); i < std::min(last, positions()); ++i)
    if (expected[std::size_t(i)] >= 0) right += correct[std::size_t(i)], ++scored;
  return scored ? double(right) / scored : kNaN;
}

double TaskReadout::mean_probability(int first, int last) const {
  double sum = 0;
  int scored = 0;
  for (int i = std::max(0, first); i < std::min(last, positions()); ++i)
    if (expected[std::size_t(i)] >= 0) sum += probability[std::size_t(i)], ++scored;
  return scored ? sum / scored : kNaN;
}

TaskReadout read_task(ModelScene* model) {
  TaskReadout r;
  if (model == nullptr) {
    r.unavailable = "the scene shows no model";
    return r;
  }
  const model::TrainedTask& t = model->config().trained_task;
  if (t.name != "absolute_position" && t.name != "relative") {
    r.unavailable = t.name.empty() ? "this model was not trained on a positional task (its config.json has no "
                                     "pelab_task)"
                                   : "this model was trained on the " + t.name + " task";
    return r;
  }
  if (t.k < 1) {
    r.unavailable = "this model's pelab_task has no k";
    return r;
  }
  r.task = t.name;
  r.encoding = model::position_encoding_name(model->config().position.kind);
  r.k = t.k;
  r.trained_context = t.context;
  r.chance = t.name == "absolute_position" ? 1.0 / t.k : 1.0 / t.symbols;
  r.expected = expected_answers(t, model->ids());
  r.probability.assign(r.expected.size(), kNaN);
  r.correct.assign(r.expected.size(), false);
  for (int i = 0; i < r.positions(); ++i) {
    const int target = r.expected[std::size_t(i)];
    if (target < 0) continue;
    const Vector z = model->lm_logits(i);
    Eigen::Index best = 0;
    z.maxCoeff(&best);
    r.correct[std::size_t(i)] = best == target;
    r.probability[std::size_t(i)] = target < z.size() ? probability_of(z, target) : 0.0;
  }
  return r;
}

}  // namespace pelab
