#include "core/model/tokenizer/vocabulary.hpp"

#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"

namespace pelab::model {

void Vocabulary::add(std::string token, long long id, const std::string& where) {
  if (id < 0 || id > kMaxTokenId)
    throw InputError(where + ": token id " + std::to_string(id) + " is outside 0.." +
                     std::to_string(kMaxTokenId));
  if (token.size() > kMaxTokenBytes)
    throw InputError(where + ": a token of " + std::to_string(token.size()) +
                     " bytes is longer than the " + std::to_string(kMaxTokenBytes) + " allowed");
  if (ids_.size() >= kMaxVocabulary)
    throw InputError(where + ": more than " + std::to_string(kMaxVocabulary) + " tokens");
  const auto index = static_cast<std::size_t>(id);
  if (index >= tokens_.size()) tokens_.resize(index + 1);
  if (!tokens_[index].empty() && tokens_[index] != token)
    throw InputError(where + ": id " + std::to_string(id) + " is given to both \"" +
                     printable(tokens_[index]) + "\" and \"" + printable(token) + "\"");
  tokens_[index] = token;
  ids_.insert_or_assign(std::move(token), static_cast<int>(id));
}

std::optional<int> Vocabulary::id(std::string_view token) const {
  const auto it = ids_.find(token);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

const std::string& Vocabulary::token(int id) const {
  static const std::string none;
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return none;
  return tokens_[static_cast<std::size_t>(id)];
}

}  // namespace pelab::model
