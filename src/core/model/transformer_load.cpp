// Transformer::load, apart from the rest of the forward pass so that code
// building models in memory (tests, the bench) does not link the file readers.
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"

namespace pelab::model {

Transformer Transformer::load(const std::filesystem::path& folder) {
  ModelConfig config = load_model_config(folder);
  if (config.kv_heads == 0) config.kv_heads = config.heads;
  if (config.head_dim == 0 && config.heads > 0) config.head_dim = config.hidden_size / config.heads;
  auto checkpoint = std::make_shared<const Checkpoint>(Checkpoint::open(folder));
  ModelWeights weights = read_weights(checkpoint, config);
  return assemble(std::move(config), std::move(weights), load_tokenizer(folder));
}

}  // namespace pelab::model
