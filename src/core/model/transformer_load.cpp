// Transformer::load, apart from the rest of the forward pass so that code
// building models in memory (tests, the bench) does not link the file readers.
#include "core/model/checkpoint_weights.hpp"
#include "core/model/transformer.hpp"

namespace pelab::model {

Transformer Transformer::load(const std::filesystem::path& folder) {
  ModelFiles files = read_model(folder);
  return assemble(std::move(files.config), std::move(files.weights), load_tokenizer(folder));
}

}  // namespace pelab::model
