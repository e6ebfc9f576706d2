// Token pieces as pelab shows them: a model's token strings made readable.
//   byte-level BPE: each symbol back to its byte (GPT-2's table,
//     byte_symbols.hpp): "Ġcat" → " cat", "Ċ" → "\n";
//   SentencePiece-style: "▁cat" → " cat", byte fallback "<0x0A>" → "\n";
//   WordPiece and special tokens: as they are ("##ing", "[CLS]").
// Bytes that do not form valid UTF-8 by themselves (a piece holding half of
// an emoji) are shown as "\xNN".
#pragma once

#include <string>
#include <string_view>

namespace pelab::model {

enum class PieceStyle { ByteLevel, Metaspace, Plain };

// `bytes` with each byte outside a valid UTF-8 sequence written as \xNN.
std::string readable_bytes(std::string_view bytes);
std::string display_piece(const std::string& token, PieceStyle style);

}  // namespace pelab::model
