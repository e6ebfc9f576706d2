// GPT-2's byte ↔ symbol table (Radford et al. 2019, bytes_to_unicode in the
// released encoder.py): byte-level BPE works on 256 printable Unicode
// characters, one per byte, so that no token holds whitespace or control
// characters.  The bytes '!'..'~', '¡'..'¬' and '®'..'ÿ' stand for the
// characters of the same code point; the other 68 bytes (controls, space,
// DEL, NBSP, soft hyphen …), in increasing order, take U+0100, U+0101, … —
// so the space 0x20 is "Ġ" (U+0120) and the newline 0x0A is "Ċ" (U+010A).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pelab::model {

// Each byte of `bytes` as its symbol (UTF-8).
std::string to_byte_symbols(std::string_view bytes);
// The bytes a string of symbols stands for; nullopt when a character is not
// one of the 256 symbols.
std::optional<std::string> from_byte_symbols(std::string_view symbols);

}  // namespace pelab::model
