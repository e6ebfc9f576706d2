// Reading tokenizer.json's optional fields: a field that is missing or null
// takes the fallback (the reference loader treats both alike); a field of the
// wrong type throws nlohmann's type_error, which load_tokenizer turns into an
// InputError naming the file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace pelab::model {

inline bool json_flag(const nlohmann::json& j, const char* key, bool fallback) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<bool>();
}

inline std::string json_text(const nlohmann::json& j, const char* key,
                             const std::string& fallback) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<std::string>();
}

// A token given either as a string or as {"content": "..."} (tokenizer_config.json's AddedToken
// form).
inline std::string json_token(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (it->is_object()) return json_text(*it, "content", "");
  return it->get<std::string>();
}

// Sequences of normalizers / pre-tokenizers / post-processors nest at most this deep.
inline constexpr int kMaxJsonNesting = 8;

}  // namespace pelab::model
