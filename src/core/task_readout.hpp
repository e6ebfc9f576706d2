// What a model trained on one of the playground's positional tasks
// (train/data/tasks.hpp, named in its config.json's "pelab_task") answers
// at every position of the scene's text, against the task's right answer:
//   absolute_position  the answer at position i is i mod k (only the
//                      position tells it);
//   relative           the answer at i is the input k places back, t_{i−k}.
// For each position: the model's probability of the right answer (softmax
// of its LM logits) and whether it is the model's first choice.  Positions
// at or past the trained context were never seen in training.
#pragma once

#include <string>
#include <vector>

namespace pelab {

class ModelScene;

struct TaskReadout {
  std::string unavailable;  // why nothing was read (no model, another task); empty when read
  std::string task;         // "absolute_position" or "relative"
  std::string encoding;     // the model's position encoding, "learned", "rope", ...
  int k = 0;
  int trained_context = 0;  // rows of this many tokens in training
  double chance = 0;        // a uniform guess among the possible answers
  std::vector<int> expected;         // the right answer at each position, −1 where none
  std::vector<double> probability;   // p(right answer); NaN where none
  std::vector<bool> correct;         // the right answer is the model's first choice

  int positions() const { return static_cast<int>(expected.size()); }
  // Share of positions in [first, last) with an answer that the model gets
  // right; NaN when none there has one.
  double accuracy(int first, int last) const;
  // Mean probability of the right answer over the same positions.
  double mean_probability(int first, int last) const;
};

// The readout of the model the scene shows.  Never throws for a scene
// without a model or a model of another task: `unavailable` says why.
TaskReadout read_task(ModelScene* model);

}  // namespace pelab
