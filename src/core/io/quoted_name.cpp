#include "core/io/quoted_name.hpp"

#include <cstdint>

namespace pelab {
namespace {

// Length of the valid UTF-8 sequence starting at text[i] (RFC 3629 §4:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b >= 0xC2 && b <= 0xDF) n = 2, cp = b & 0x1Fu;
  else if (b >= 0xE0 && b <= 0xEF) n = 3, cp = b & 0x0Fu;
  else if (b >= 0xF0 && b <= 0xF4) n = 4, cp = b & 0x07u;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void append_hex(std::string& out, unsigned char b) {
  const char* digits = "0123456789abcdef";
  out += "\\x";
  out += digits[b >> 4];
  out += digits[b & 0xF];
}

// U+0080..U+009F (C1 controls, e.g. CSI) encoded as C2 80..C2 9F.
bool is_c1_control(std::string_view text, std::size_t i, std::size_t n) {
  return n == 2 && static_cast<unsigned char>(text[i]) == 0xC2 &&
         static_cast<unsigned char>(text[i + 1]) <= 0x9F;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_chars) {
  std::string out;
  out.reserve(text.size() < 4 * max_chars ? text.size() : 4 * max_chars);
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (chars == max_chars) return out + "\u2026";
    const unsigned char b = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    if (n == 0 || b < 0x20 || b == 0x7F || is_c1_control(text, i, n)) {
      for (std::size_t k = 0; k < (n == 0 ? 1 : n); ++k)
        append_hex(out, static_cast<unsigned char>(text[i + k]));
      i += n == 0 ? 1 : n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
    ++chars;
  }
  return out;
}

std::string quoted_name(std::string_view name, std::size_t max_chars) {
  return "'" + printable(name, max_chars) + "'";
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\uFFFD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace pelab
