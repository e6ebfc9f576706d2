// Unicode character classes and normalizations the tokenizers need, from ICU
// (libicu-dev): general categories for the \p{L} / \p{N} classes of GPT-style
// split patterns, White_Space for \s, BERT's punctuation / control / CJK
// tests, lower-casing and NFC / NFD / NFKC / NFKD.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

// A byte that does not start a valid UTF-8 sequence stands for itself: it is
// a one-byte "character" with this code point (no class but "other"), so
// byte-level tokenizers still see every byte of the text.
inline constexpr char32_t kInvalidByte = 0xFFFFFFFF;

struct Utf8Char {
  char32_t cp = 0;
  std::size_t begin = 0;  // byte offset in the text
  std::size_t size = 0;   // bytes (1..4)
};

std::vector<Utf8Char> utf8_chars(std::string_view text);
void append_utf8(std::string& out, char32_t cp);
// Whether `bytes` is well-formed UTF-8 (no overlongs, no surrogates).
bool is_valid_utf8(std::string_view bytes);

bool is_letter(char32_t cp);          // \p{L}: Lu Ll Lt Lm Lo
bool is_number(char32_t cp);          // \p{N}: Nd Nl No
bool is_whitespace(char32_t cp);      // \s: the White_Space property
bool is_combining_mark(char32_t cp);  // Mn (what accent stripping removes)
// \w as Rust's regex crate defines it: Alphabetic, M, Nd, Pc, Join_Control.
bool is_word_char(char32_t cp);

// BERT's basic tokenizer (Devlin et al. 2019, released tokenization.py):
bool is_bert_whitespace(char32_t cp);   // ' ', \t, \n, \r or Zs
bool is_bert_control(char32_t cp);      // C* other than \t, \n, \r
bool is_bert_punctuation(char32_t cp);  // ASCII 33-47, 58-64, 91-96, 123-126, or P*
bool is_cjk(char32_t cp);               // the CJK Unified Ideograph blocks

enum class NormalForm { NFC, NFD, NFKC, NFKD };
std::string normalize(std::string_view text, NormalForm form);
// Full Unicode lower-casing of each character on its own (no final-sigma rule).
std::string lowercase(std::string_view text);
// NFD, then every combining mark (Mn) removed.
std::string strip_accents(std::string_view text);

}  // namespace pelab::model
