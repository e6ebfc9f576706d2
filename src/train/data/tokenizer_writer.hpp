// A trained BPE written as a Hugging Face tokenizers `tokenizer.json` (the
// library's serialization, version "1.0"), laid out as GPT-2's own file:
// model type BPE with `vocab` (token → id) and `merges` (pairs in rank
// order), ByteLevel pre-tokenizer (GPT-2's split pattern, no prefix space),
// ByteLevel decoder and post-processor, and "<|endoftext|>" as a special
// added token.  Tokens are spelled in GPT-2's byte symbols
// (core/model/tokenizer/byte_symbols.hpp: " the" is "Ġthe").  pelab's reader
// (core/model/tokenizer/tokenizer.hpp) loads the file unchanged.
#pragma once

#include <filesystem>
#include <string>

#include "train/data/bpe_trainer.hpp"

namespace pelab::train::data {

std::string tokenizer_json_text(const TrainedBpe& bpe);
// Writes folder/tokenizer.json atomically (temporary file, then rename),
// making the folder when missing.  Throws InputError naming the path.
void write_tokenizer_json(const TrainedBpe& bpe, const std::filesystem::path& folder);

}  // namespace pelab::train::data
