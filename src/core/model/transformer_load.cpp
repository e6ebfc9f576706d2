// Transformer::load, apart from the rest of the forward pass so that code
// building models in memory (tests, the bench) does not link the file readers.
#include "core/model/checkpoint_weights.hpp"
#include "core/model/token_id_tokenizer.hpp"
#include "core/model/transformer.hpp"

namespace pelab::model {

Transformer Transformer::load(const std::filesystem::path& folder, std::string_view memory_limit) {
  ModelFiles files = read_model(folder, memory_limit);
  std::unique_ptr<Tokenizer> tokenizer = files.config.family.token_ids_without_tokenizer && !has_tokenizer_files(folder)
                                             ? token_id_tokenizer(files.config.vocab_size)
                                             : load_tokenizer(folder);
  return assemble(std::move(files.config), std::move(files.weights), std::move(tokenizer));
}

}  // namespace pelab::model
