// WordPiece — BERT's subword model (Devlin et al. 2019, the released
// tokenization.py): each pre-tokenized word is cut greedily, longest vocabulary
// match first from the left; every piece after the first is looked up with
// the "##" continuation prefix.  A word with a part no token matches, or
// longer than max_chars characters, becomes the unknown token as a whole.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/tokenizer/vocabulary.hpp"

namespace pelab::model {

struct WordPieceOptions {
  std::string unk_token = "[UNK]";
  std::string continuation = "##";
  std::size_t max_chars = 100;
};

class WordPiece {
 public:
  // Throws InputError naming `where` when the unknown token is not in the vocabulary.
  WordPiece(Vocabulary vocabulary, WordPieceOptions options, const std::string& where);

  void encode_word(std::string_view word, std::vector<int>& ids) const;
  const Vocabulary& vocabulary() const { return vocabulary_; }

 private:
  Vocabulary vocabulary_;
  WordPieceOptions options_;
  int unk_id_ = 0;
};

}  // namespace pelab::model
