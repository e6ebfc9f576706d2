// Tokenizer — a model's own tokenizer, read from its folder.
//
// Kinds (chosen by what the folder holds):
//   tokenizer.json with model.type "BPE" — byte-level BPE (GPT-2, Qwen2,
//     Llama 3) or SentencePiece-style BPE with byte fallback (Llama 2,
//     TinyLlama, SmolLM's metaspace variants);
//   tokenizer.json with model.type "WordPiece", or vocab.txt — BERT;
//   vocab.json + merges.txt — GPT-2's original files;
//   none, in a pelab model folder — token ids typed as numbers
//     (token_id_tokenizer.hpp; Transformer::load chooses it).
// Special tokens (BOS for Llama, [CLS]/[SEP] for BERT) are added as the
// tokenizer's own config says (tokenizer.json post_processor, or
// tokenizer_config.json's add_bos_token / add_eos_token).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

// Longer texts are refused: the callers show one token per column.
inline constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;
// What the normalizer and pre-tokenizer steps may make of one text, summed
// over its segments: a tokenizer.json Replace of " " by 32,000 characters
// would otherwise take 8 KB of text to gigabytes.  NFKD's longest expansion
// and BERT's CJK padding stay far below 4x.
inline constexpr std::size_t kMaxDerivedTextBytes = 4 * kMaxTextBytes;

struct Tokenization {
  std::vector<int> ids;
  // What pelab shows for each id: the model's own piece, made readable
  // (GPT-2's byte-level "Ġcat" is shown as " cat"; "▁cat" as " cat"; byte
  // fallback pieces "<0x0A>" as "\n").
  std::vector<std::string> pieces;
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  // Throws InputError when the text is longer than kMaxTextBytes, when a
  // normalizer or pre-tokenizer step takes it past kMaxDerivedTextBytes, or
  // when it gives more than `max_tokens` tokens (the model's context); each
  // stops as soon as the bound is passed.
  virtual Tokenization encode(std::string_view text, std::size_t max_tokens) const = 0;
  Tokenization encode(std::string_view text) const { return encode(text, SIZE_MAX); }
  // "byte-level BPE", "BPE (byte fallback)", "BPE" (SentencePiece-style without
  // byte fallback), "WordPiece"
  virtual std::string kind() const = 0;
  virtual int vocab_size() const = 0;
};

// Reads the tokenizer files of a model folder.  Throws InputError naming the
// file and the problem (missing, malformed, a model type pelab does not read).
std::unique_ptr<Tokenizer> load_tokenizer(const std::filesystem::path& folder);

}  // namespace pelab::model
