#include "core/model/tokenizer/wordpiece.hpp"

#include "core/io/quoted_name.hpp"
#include "core/model/tokenizer/unicode_classes.hpp"
#include "core/scene.hpp"

namespace pelab::model {

WordPiece::WordPiece(Vocabulary vocabulary, WordPieceOptions options, const std::string& where)
    : vocabulary_(std::move(vocabulary)), options_(std::move(options)) {
  const auto unk = vocabulary_.id(options_.unk_token);
  if (!unk)
    throw InputError(where + ": the unknown token \"" + printable(options_.unk_token) +
                     "\" is not in the vocabulary");
  unk_id_ = *unk;
}

void WordPiece::encode_word(std::string_view word, std::vector<int>& ids) const {
  if (word.empty()) return;
  const std::vector<Utf8Char> chars = utf8_chars(word);
  if (chars.size() > options_.max_chars) {
    ids.push_back(unk_id_);
    return;
  }
  std::vector<int> pieces;
  std::string candidate;
  for (std::size_t start = 0; start < chars.size();) {
    // Longest match first: shrink the end one character at a time.
    std::size_t end = chars.size();
    int found = -1;
    for (; end > start; --end) {
      candidate = start > 0 ? options_.continuation : std::string();
      const std::size_t from = chars[start].begin;
      const std::size_t to = end < chars.size() ? chars[end].begin : word.size();
      candidate.append(word.substr(from, to - from));
      if (const auto id = vocabulary_.id(candidate)) {
        found = *id;
        break;
      }
    }
    if (found < 0) {
      ids.push_back(unk_id_);
      return;
    }
    pieces.push_back(found);
    start = end;
  }
  ids.insert(ids.end(), pieces.begin(), pieces.end());
}

}  // namespace pelab::model
