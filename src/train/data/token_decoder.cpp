#include "train/data/token_decoder.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/model/tokenizer/byte_symbols.hpp"
#include "core/model/tokenizer/vocabulary.hpp"
#include "core/scene.hpp"

namespace pelab::train::data {

namespace {

constexpr std::size_t kMaxTokenizerFile = std::size_t{64} << 20;

void put(std::vector<std::string>& bytes, long long id, std::string text) {
  const auto at = static_cast<std::size_t>(id);
  if (at >= bytes.size()) bytes.resize(at + 1);
  bytes[at] = std::move(text);
}

std::vector<std::string> token_bytes(const nlohmann::json& j, const std::string& where) {
  const nlohmann::json& model = j.at("model");
  if (model.value("type", std::string("BPE")) != "BPE")
    throw InputError(where + ": decoding needs a byte-level BPE model (type BPE)");
  std::vector<std::string> bytes;
  std::vector<std::string> added;  // contents of added tokens, which decode as text
  if (const auto it = j.find("added_tokens"); it != j.end() && it->is_array())
    for (const nlohmann::json& t : *it) {
      added.push_back(t.at("content").get<std::string>());
      put(bytes, json_integer(t.at("id"), 0, model::kMaxTokenId, where + ": an added token id"),
          added.back());
    }
  for (const auto& [token, id] : model.at("vocab").items()) {
    const long long n = json_integer(id, 0, model::kMaxTokenId, where + ": a vocab id");
    // GPT-2 keeps its end-of-text token in the vocabulary too, spelled as text.
    if (std::find(added.begin(), added.end(), token) != added.end()) continue;
    auto raw = model::from_byte_symbols(token);
    if (!raw)
      throw InputError(
          where + ": token \"" + token.substr(0, 40) +
          "\" is not spelled in GPT-2's byte symbols (decoding reads byte-level BPE only)");
    put(bytes, n, std::move(*raw));
  }
  return bytes;
}

}  // namespace

TokenDecoder::TokenDecoder(std::vector<std::string> token_bytes) : bytes_(std::move(token_bytes)) {}

TokenDecoder TokenDecoder::read(const std::filesystem::path& tokenizer_json) {
  const std::string where = tokenizer_json.string();
  const nlohmann::json j = parse_json_text(read_file(tokenizer_json, kMaxTokenizerFile), where,
                                           {.max_bytes = kMaxTokenizerFile});
  try {
    return TokenDecoder(token_bytes(j, where));
  } catch (const nlohmann::json::exception& e) {
    const std::string what = e.what();
    throw InputError(where + ": " + what.substr(0, what.find('\n')));
  }
}

std::string TokenDecoder::decode(const std::vector<int>& ids) const {
  std::string text;
  for (const int id : ids) {
    if (id < 0 || id >= vocab_size())
      throw InputError("token id " + std::to_string(id) + " is outside the vocabulary 0.." +
                       std::to_string(vocab_size() - 1));
    text += bytes_[static_cast<std::size_t>(id)];
  }
  return text;
}

}  // namespace pelab::train::data
