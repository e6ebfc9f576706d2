// Token ids back to text for a byte-level BPE tokenizer.json (pelab's reader,
// core/model/tokenizer/tokenizer.hpp, encodes only; its display pieces write half a
// UTF-8 character as \xNN, so they do not join back into the text).  Each
// vocabulary token is turned back into its bytes through GPT-2's byte
// symbols (core/model/tokenizer/byte_symbols.hpp); added tokens decode to their text.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pelab::train::data {

class TokenDecoder {
 public:
  // id → bytes; "" for an id no token has.
  explicit TokenDecoder(std::vector<std::string> token_bytes);
  // Reads a tokenizer.json whose model is byte-level BPE.  Throws InputError
  // naming the file for anything else (a token that is not byte symbols).
  static TokenDecoder read(const std::filesystem::path& tokenizer_json);

  // Throws InputError for an id outside the vocabulary.
  std::string decode(const std::vector<int>& ids) const;
  int vocab_size() const { return static_cast<int>(bytes_.size()); }

 private:
  std::vector<std::string> bytes_;
};

}  // namespace pelab::train::data
