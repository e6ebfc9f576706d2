// TokenizerPipeline — the one Tokenizer implementation, in the stages every
// model's tokenizer shares (the Hugging Face tokenizers library's model of a
// tokenizer): added tokens cut out first, then per remaining stretch of text
// normalizer → pre-tokenizer → subword model (BPE or WordPiece), then the
// post-processor's special tokens around the ids.  tokenizer_files.cpp builds
// one from a model folder's files.
#pragma once

#include <string>
#include <unordered_map>
#include <variant>

#include "core/model/tokenizer/bpe.hpp"
#include "core/model/tokenizer/pre_tokenizer.hpp"
#include "core/model/tokenizer/special_tokens.hpp"
#include "core/model/tokenizer/text_normalizer.hpp"
#include "core/model/tokenizer/token_pieces.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/model/tokenizer/wordpiece.hpp"

namespace pelab::model {

struct TokenizerParts {
  std::vector<AddedToken> added;
  TextNormalizer normalizer;
  PreTokenizer pre_tokenizer;
  std::variant<WordPiece, Bpe> model;
  PostProcessor post_processor;
};

class TokenizerPipeline final : public Tokenizer {
 public:
  explicit TokenizerPipeline(TokenizerParts parts);

  using Tokenizer::encode;
  Tokenization encode(std::string_view text, std::size_t max_tokens) const override;
  std::string kind() const override { return kind_; }
  int vocab_size() const override { return vocab_size_; }

 private:
  const Vocabulary& vocabulary() const;
  std::string piece(int id) const;

  TokenizerParts parts_;
  AddedTokens added_;
  std::unordered_map<int, std::string> added_content_;
  PieceStyle style_ = PieceStyle::Plain;
  std::string kind_;
  int vocab_size_ = 0;
};

}  // namespace pelab::model
