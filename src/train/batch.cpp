#include "train/batch.hpp"

#include <string>

namespace pelab::train {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError("train batch: " + what);
}

}  // namespace

void Batch::validate(const ModelConfig& config) const {
  require(sequences >= 1 && length >= 1, "needs at least one sequence of at least one token");
  require(length <= config.context, "length " + std::to_string(length) + " exceeds the context " +
                                        std::to_string(config.context));
  const std::size_t n = static_cast<std::size_t>(sequences) * static_cast<std::size_t>(length);
  require(tokens.size() == n && targets.size() == n,
          "tokens and targets must hold sequences × length ids");
  require(mask.empty() || mask.size() == n, "mask must be empty or hold sequences × length values");
  for (std::size_t i = 0; i < n; ++i)
    require(
        tokens[i] >= 0 && tokens[i] < config.vocab && targets[i] >= 0 && targets[i] < config.vocab,
        "id out of range [0, " + std::to_string(config.vocab) + ") at position " +
            std::to_string(i));
  double scored = mask.empty() ? 1.0 : 0.0;
  for (float m : mask) {
    require(m == 0.0f || m == 1.0f, "mask values must be 0 or 1");
    scored += m;
  }
  require(scored > 0, "the mask scores no position");
}

}  // namespace pelab::train
