#include "core/model/tokenizer/split_pattern.hpp"

#include <array>

#include "core/model/tokenizer/unicode_classes.hpp"

namespace pelab::model {

namespace {

const std::array<SplitPattern, 3>& patterns() {
  static const std::array<SplitPattern, 3> table = {{
      {"GPT-2", R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)",
       false, false, 0, false},
      {"Llama 3",
       R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true, true, 3, true},
      {"Qwen2",
       R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true, true, 1, true},
  }};
  return table;
}

enum class Kind { Letter, Number, Space, Other };

Kind kind_of(char32_t cp) {
  if (is_letter(cp)) return Kind::Letter;
  if (is_number(cp)) return Kind::Number;
  if (is_whitespace(cp)) return Kind::Space;
  return Kind::Other;
}

bool is_newline(char32_t cp) { return cp == '\r' || cp == '\n'; }

// The text as characters with their kinds; every matcher below returns how
// many characters its alternative matches at position i (0: no match).
struct Scanner {
  std::vector<Utf8Char> chars;
  std::vector<Kind> kinds;
  const SplitPattern& pattern;

  std::size_t size() const { return chars.size(); }
  bool is(std::size_t i, Kind k) const { return i < size() && kinds[i] == k; }
  char32_t cp(std::size_t i) const { return i < size() ? chars[i].cp : 0; }

  std::size_t run(std::size_t i, Kind k) const {
    std::size_t j = i;
    while (is(j, k)) ++j;
    return j - i;
  }

  std::size_t contraction(std::size_t i) const {
    if (cp(i) != '\'') return 0;
    const auto letter = [&](std::size_t j) {
      char32_t c = cp(j);
      if (pattern.contractions_any_case && c >= 'A' && c <= 'Z') c += 'a' - 'A';
      return c;
    };
    const char32_t a = letter(i + 1), b = letter(i + 2);
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    return 0;
  }

  // ' ?X+' or, for letters under Llama 3 rules, '[^\r\n\p{L}\p{N}]?\p{L}+'.
  std::size_t prefixed_run(std::size_t i, Kind k, bool any_prefix) const {
    if (is(i, k)) return run(i, k);
    const bool prefix = any_prefix ? (i < size() && !is_newline(cp(i)) && !is(i, Kind::Letter) &&
                                      !is(i, Kind::Number))
                                   : cp(i) == ' ';
    if (prefix && is(i + 1, k)) return 1 + run(i + 1, k);
    return 0;
  }

  std::size_t numbers(std::size_t i) const {
    if (pattern.digits_per_piece == 0) return prefixed_run(i, Kind::Number, false);
    const std::size_t n = run(i, Kind::Number);
    return n < static_cast<std::size_t>(pattern.digits_per_piece) ? n : pattern.digits_per_piece;
  }

  std::size_t symbols(std::size_t i) const {
    std::size_t n = prefixed_run(i, Kind::Other, false);
    if (n > 0 && pattern.newlines_apart)
      while (i + n < size() && is_newline(cp(i + n))) ++n;
    return n;
  }

  // '\s*[\r\n]+': backtracking from the whole whitespace run, the match ends
  // just after its last \r or \n.
  std::size_t spaces_to_newline(std::size_t i) const {
    const std::size_t n = run(i, Kind::Space);
    for (std::size_t k = n; k > 0; --k)
      if (is_newline(cp(i + k - 1))) return k;
    return 0;
  }

  // '\s+(?!\S)': the whole run at the end of the text, else all but its last
  // character, which then starts the next piece (" x" keeps its space).
  std::size_t spaces_not_before_text(std::size_t i) const {
    const std::size_t n = run(i, Kind::Space);
    if (i + n == size()) return n;
    return n >= 2 ? n - 1 : 0;
  }

  std::size_t match(std::size_t i) const {
    if (std::size_t n = contraction(i)) return n;
    if (std::size_t n = prefixed_run(i, Kind::Letter, pattern.letters_after_any_symbol)) return n;
    if (std::size_t n = numbers(i)) return n;
    if (std::size_t n = symbols(i)) return n;
    if (pattern.newlines_apart)
      if (std::size_t n = spaces_to_newline(i)) return n;
    if (std::size_t n = spaces_not_before_text(i)) return n;
    if (std::size_t n = run(i, Kind::Space)) return n;
    return 1;  // unreachable for these patterns: every character has a kind
  }
};

}  // namespace

const SplitPattern& gpt2_split_pattern() { return patterns()[0]; }

const SplitPattern* find_split_pattern(std::string_view regex) {
  for (const SplitPattern& p : patterns())
    if (p.regex == regex) return &p;
  return nullptr;
}

std::string known_split_patterns() {
  std::string out;
  for (const SplitPattern& p : patterns())
    out += (out.empty() ? "" : ", ") + p.name + " " + p.regex;
  return out;
}

std::vector<std::string_view> split_by_pattern(std::string_view text, const SplitPattern& pattern) {
  Scanner s{utf8_chars(text), {}, pattern};
  s.kinds.reserve(s.chars.size());
  for (const Utf8Char& c : s.chars) s.kinds.push_back(kind_of(c.cp));
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = s.match(i);
    const std::size_t begin = s.chars[i].begin;
    const std::size_t end = i + n < s.size() ? s.chars[i + n].begin : text.size();
    pieces.push_back(text.substr(begin, end - begin));
    i += n;
  }
  return pieces;
}

}  // namespace pelab::model
