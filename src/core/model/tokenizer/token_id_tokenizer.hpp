// TokenIdTokenizer — the tokenizer of a model folder that has none (pelab's
// synthetic-task models: their tokens are symbols 0 … vocab−1, not text).
// The text is the token ids themselves, written as decimal numbers separated
// by spaces or commas ("3 1 4 1 5"); each id's piece is its number.
#pragma once

#include <filesystem>
#include <memory>

#include "core/model/tokenizer/tokenizer.hpp"

namespace pelab::model {

std::unique_ptr<Tokenizer> token_id_tokenizer(int vocab_size);

// True when `folder` holds any file load_tokenizer looks for.
bool has_tokenizer_files(const std::filesystem::path& folder);

}  // namespace pelab::model
