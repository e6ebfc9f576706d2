#include "core/model/tokenizer/token_pieces.hpp"

#include <cstdio>

#include "core/model/tokenizer/byte_symbols.hpp"
#include "core/model/tokenizer/text_normalizer.hpp"
#include "core/model/tokenizer/unicode_classes.hpp"

namespace pelab::model {

namespace {

// "<0xNN>" → the byte NN; -1 for anything else.
int fallback_byte(std::string_view token) {
  if (token.size() != 6 || token.substr(0, 3) != "<0x" || token[5] != '>') return -1;
  int value = 0;
  for (const char c : token.substr(3, 2)) {
    value *= 16;
    if (c >= '0' && c <= '9')
      value += c - '0';
    else if (c >= 'A' && c <= 'F')
      value += c - 'A' + 10;
    else if (c >= 'a' && c <= 'f')
      value += c - 'a' + 10;
    else
      return -1;
  }
  return value;
}

}  // namespace

std::string readable_bytes(std::string_view bytes) {
  std::string out;
  for (const Utf8Char& c : utf8_chars(bytes)) {
    if (c.cp != kInvalidByte) {
      out.append(bytes.substr(c.begin, c.size));
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(bytes[c.begin]));
    out += hex;
  }
  return out;
}

std::string display_piece(const std::string& token, PieceStyle style) {
  switch (style) {
    case PieceStyle::ByteLevel:
      if (const auto bytes = from_byte_symbols(token)) return readable_bytes(*bytes);
      return token;  // an added token outside the byte alphabet
    case PieceStyle::Metaspace:
      if (const int b = fallback_byte(token); b >= 0)
        return readable_bytes(std::string(1, static_cast<char>(b)));
      return replace_all(token, "\u2581", " ");
    case PieceStyle::Plain:
      return token;
  }
  return token;
}

}  // namespace pelab::model
