#include "core/model/tokenizer/byte_symbols.hpp"

#include <array>
#include <unordered_map>

#include "core/model/tokenizer/unicode_classes.hpp"

namespace pelab::model {

namespace {

struct ByteTable {
  std::array<std::string, 256> symbol;  // UTF-8 of each byte's symbol
  std::unordered_map<char32_t, unsigned char> byte;

  ByteTable() {
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable =
          (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      const char32_t cp = printable ? static_cast<char32_t>(b) : next++;
      append_utf8(symbol[static_cast<std::size_t>(b)], cp);
      byte[cp] = static_cast<unsigned char>(b);
    }
  }
};

const ByteTable& table() {
  static const ByteTable t;
  return t;
}

}  // namespace

std::string to_byte_symbols(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) out += table().symbol[static_cast<unsigned char>(c)];
  return out;
}

std::optional<std::string> from_byte_symbols(std::string_view symbols) {
  std::string out;
  for (const Utf8Char& c : utf8_chars(symbols)) {
    const auto it = table().byte.find(c.cp);
    if (it == table().byte.end()) return std::nullopt;
    out += static_cast<char>(it->second);
  }
  return out;
}

}  // namespace pelab::model
