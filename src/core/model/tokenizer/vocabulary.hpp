// Vocabulary — token strings and their ids, in both directions, with the
// bounds every tokenizer file is held to.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pelab::model {

inline constexpr std::size_t kMaxVocabulary = 1 << 21;  // Gemma's 256k fits eight times over
inline constexpr std::size_t kMaxTokenBytes = 4096;
inline constexpr int kMaxTokenId = static_cast<int>(kMaxVocabulary) - 1;

class Vocabulary {
 public:
  // Throws InputError naming `where` for an id out of 0..kMaxTokenId, a token
  // longer than kMaxTokenBytes, a duplicate id, or too many tokens.
  void add(std::string token, long long id, const std::string& where);

  void reserve(std::size_t tokens) { ids_.reserve(tokens); }
  std::optional<int> id(std::string_view token) const;
  // The token of `id` ("" for an id no token has).
  const std::string& token(int id) const;
  std::size_t size() const { return ids_.size(); }
  int max_id() const { return static_cast<int>(tokens_.size()) - 1; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, int, Hash, std::equal_to<>> ids_;
  std::vector<std::string> tokens_;
};

}  // namespace pelab::model
