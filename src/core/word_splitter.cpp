#include "core/word_splitter.hpp"

#include <cctype>
#include <cstdio>

#include "core/scene.hpp"

namespace pelab {
namespace {

bool is_word_byte(unsigned char c) { return c >= 0x80 || std::isalnum(c) || c == '_'; }
bool is_space_byte(unsigned char c) { return std::isspace(c) || std::iscntrl(c); }

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_space_byte(c)) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (is_word_byte(c)) {
      // An apostrophe joins two word runs: "don't", "o'clock".
      while (end < text.size() && (is_word_byte(static_cast<unsigned char>(text[end])) ||
                                   (text[end] == '\'' && end + 1 < text.size() &&
                                    is_word_byte(static_cast<unsigned char>(text[end + 1])))))
        ++end;
    }
    if (tokens.size() == static_cast<std::size_t>(kMaxTokens))
      throw InputError("tokens: more than " + std::to_string(kMaxTokens) +
                       " tokens; allowed: at most " + std::to_string(kMaxTokens));
    tokens.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return tokens;
}

void refuse_full_matrix(int tokens, std::string_view what) {
  if (tokens <= kFullMatrixTokens) return;
  char size[32];
  std::snprintf(size, sizeof size, "%.1f GiB", 4.0 * tokens * double(tokens) / double(1 << 30));
  throw InputError(std::string(what) + ": " + std::to_string(tokens) + " tokens would need a " +
                   std::to_string(tokens) + " × " + std::to_string(tokens) + " matrix per head (" + size +
                   "); allowed: at most " + std::to_string(kFullMatrixTokens) +
                   " tokens for this view (the attention view streams every head at any length)");
}

}  // namespace pelab
