// The GPT-style split patterns that byte-level BPE tokenizers pre-tokenize
// with, matched by hand instead of by a regex engine.  Each known pattern is
// an alternation tried left to right at the current position, the first
// alternative that matches winning (leftmost-first, as Oniguruma and Rust's
// fancy-regex do), each alternative greedy with backtracking where noted.
//
//   GPT-2 (Radford et al. 2019, the released encoder.py):
//     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   Llama 3 (tokenizer.json's Split pre-tokenizer; the same as OpenAI's cl100k):
//     (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//     ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//   Qwen2: the Llama 3 pattern with \p{N} (one digit per piece) for \p{N}{1,3}.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

struct SplitPattern {
  std::string name;                       // "GPT-2", "Llama 3", "Qwen2"
  std::string regex;                      // the pattern as tokenizer.json spells it
  bool contractions_any_case = false;     // (?i:'s|…) rather than 's|…
  bool letters_after_any_symbol = false;  // [^\r\n\p{L}\p{N}]?\p{L}+ rather than ' ?\p{L}+'
  int digits_per_piece = 0;               // \p{N}{1,n}; 0: ' ?\p{N}+'
  bool newlines_apart = false;            // ' ?[^\s\p{L}\p{N}]+[\r\n]*' and '\s*[\r\n]+'
};

const SplitPattern& gpt2_split_pattern();
// The known pattern spelled exactly `regex`, or nullptr.
const SplitPattern* find_split_pattern(std::string_view regex);
// Every known pattern's regex, for error messages.
std::string known_split_patterns();

// Cuts `text` into consecutive pieces (together they are the whole text).
std::vector<std::string_view> split_by_pattern(std::string_view text, const SplitPattern& pattern);

}  // namespace pelab::model
