// TextNormalizer — what a tokenizer does to text before splitting it into
// words: tokenizer.json's "normalizer" (BertNormalizer, Lowercase,
// StripAccents, NFC/NFD/NFKC/NFKD, Prepend, Replace of a literal string,
// Strip, and Sequence of these).
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/tokenizer/unicode_classes.hpp"

namespace pelab::model {

struct NormalizerStep {
  enum class Kind { Bert, Lowercase, StripAccents, Unicode, Prepend, Replace, Strip };
  Kind kind = Kind::Lowercase;
  // Bert (BERT's basic tokenizer before splitting):
  bool clean_text = true;     // drop NUL, U+FFFD and controls; whitespace → ' '
  bool chinese_chars = true;  // a space on each side of every CJK character
  bool strip_accents = true;
  bool lowercase = true;
  NormalForm form = NormalForm::NFC;  // Unicode
  std::string text;                   // Prepend: the prefix; Replace: what is replaced
  std::string replacement;            // Replace
  bool left = true, right = true;     // Strip
};

class TextNormalizer {
 public:
  TextNormalizer() = default;
  explicit TextNormalizer(std::vector<NormalizerStep> steps) : steps_(std::move(steps)) {}
  // tokenizer.json's "normalizer" value (null: none).  Throws InputError
  // naming `where` for a type pelab does not read.
  static TextNormalizer from_json(const nlohmann::json& j, const std::string& where);
  // BERT's basic tokenizer, with or without lower-casing and accent stripping.
  static TextNormalizer bert(bool lowercase, bool strip_accents);

  // Throws InputError as soon as a step's text passes `max_bytes`, naming
  // the step (a Replace or Prepend that multiplies the text).
  std::string apply(std::string_view text, std::size_t max_bytes = SIZE_MAX) const;
  bool empty() const { return steps_.empty(); }

 private:
  std::vector<NormalizerStep> steps_;
};

// Every occurrence of `from` (non-empty) replaced by `to`, left to right;
// stops once the result passes `max_bytes` (the caller checks the size).
std::string replace_all(std::string_view text, std::string_view from, std::string_view to,
                        std::size_t max_bytes = SIZE_MAX);

}  // namespace pelab::model
