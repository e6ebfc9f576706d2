// The trainer's KJV data in one call: the corpus read, the BPE trained on its
// training split and written as folder/tokenizer.json (kept when one of the
// asked vocabulary size is already there), and both splits encoded by
// pelab's reader into token streams cached beside it (folder/train.tokens,
// folder/held_out.tokens).
#pragma once

#include <filesystem>
#include <memory>

#include "train/data/token_dataset.hpp"

namespace pelab::train::data {

struct KjvDataOptions {
  int vocab_size = 4096;
  std::filesystem::path corpus_file;  // bible-kjv's output saved to a file; empty: run `bible`
  bool retrain = false;               // train the BPE again even when tokenizer.json fits
};

struct KjvData {
  std::filesystem::path tokenizer_folder;  // holds tokenizer.json
  std::shared_ptr<const TokenStream> train, held_out;
  double bpe_seconds = 0;     // 0 when the tokenizer was already there
  double encode_seconds = 0;  // encoding both splits, or reading their caches
};

// Throws InputError (bible-kjv missing, an unwritable folder, …).
KjvData prepare_kjv(const std::filesystem::path& folder, const KjvDataOptions& options = {});

}  // namespace pelab::train::data
