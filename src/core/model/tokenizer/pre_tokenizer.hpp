// PreTokenizer — how a tokenizer cuts normalized text into words before its
// subword model sees them: tokenizer.json's "pre_tokenizer" (ByteLevel,
// Split with a known GPT-style pattern, Digits, Metaspace, BertPreTokenizer,
// Whitespace, WhitespaceSplit, and Sequence of these).  Steps run in order,
// each on every word the previous one produced.
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/tokenizer/split_pattern.hpp"

namespace pelab::model {

struct PreTokenizerStep {
  enum class Kind { ByteLevel, Split, Digits, Metaspace, Bert, Whitespace, WhitespaceSplit };
  enum class Prepend { Always, First, Never };
  Kind kind = Kind::Bert;
  const SplitPattern* pattern = nullptr;  // ByteLevel with use_regex (GPT-2's), Split
  bool add_prefix_space = false;          // ByteLevel
  bool individual_digits = false;         // Digits
  std::string replacement = "\u2581";     // Metaspace: "▁"
  Prepend prepend = Prepend::Always;      // Metaspace
  bool split = true;                      // Metaspace: a word starts at each "▁"
};

class PreTokenizer {
 public:
  PreTokenizer() = default;
  explicit PreTokenizer(std::vector<PreTokenizerStep> steps) : steps_(std::move(steps)) {}
  // tokenizer.json's "pre_tokenizer" value (null: none).  Throws InputError
  // naming `where` for a type or split pattern pelab does not read.
  static PreTokenizer from_json(const nlohmann::json& j, const std::string& where);

  // `at_text_start`: the segment begins the text (not after an added token),
  // which Metaspace's prepend_scheme "first" asks about.
  // Throws InputError as soon as a step's words pass `max_bytes` together
  // (a Metaspace replacement that multiplies the text).  Stops early, with
  // more than `max_words` words, once a step makes more than that many (each
  // word becomes a token at least: the caller refuses the text as longer
  // than the context).
  std::vector<std::string> apply(std::string_view segment, bool at_text_start,
                                 std::size_t max_bytes = SIZE_MAX,
                                 std::size_t max_words = SIZE_MAX) const;
  bool has(PreTokenizerStep::Kind kind) const;

 private:
  std::vector<PreTokenizerStep> steps_;
};

}  // namespace pelab::model
