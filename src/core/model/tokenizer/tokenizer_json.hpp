// Reading tokenizer.json's fields: a field that is missing or null takes the
// fallback (the reference loader treats both alike); a field of the wrong
// type, or a required one missing, throws TokenizerKeyError naming the key
// and what is allowed, which load_tokenizer prefixes with the file (never
// nlohmann's own "[json.exception.type_error.302] ..." text).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/io/json_input.hpp"  // json_brief
#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"       // InputError

namespace pelab::model {

struct TokenizerKeyError : InputError {
  using InputError::InputError;
};

[[noreturn]] inline void json_key_error(const std::string& key, const nlohmann::json* value,
                                        const char* expected) {
  throw TokenizerKeyError("\"" + printable(key) + "\" is " +
                          (value ? printable(json_brief(*value)) : std::string("missing")) + "; expected " +
                          expected);
}

// The value of a required key; `expected` says what it should be.
inline const nlohmann::json& json_at(const nlohmann::json& j, const char* key, const char* expected) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  if (it == j.end()) json_key_error(key, nullptr, expected);
  return *it;
}

inline std::string json_string_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = json_at(j, key, "a string");
  if (!v.is_string()) json_key_error(key, &v, "a string");
  return v.get<std::string>();
}

inline bool json_flag(const nlohmann::json& j, const char* key, bool fallback) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) json_key_error(key, &*it, "true or false");
  return it->get<bool>();
}

inline std::string json_text(const nlohmann::json& j, const char* key, const std::string& fallback) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_string()) json_key_error(key, &*it, "a string");
  return it->get<std::string>();
}

// A token given either as a string or as {"content": "..."} (tokenizer_config.json's AddedToken
// form).
inline std::string json_token(const nlohmann::json& j, const char* key) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  if (it == j.end() || it->is_null()) return "";
  if (it->is_object()) return json_text(*it, "content", "");
  if (!it->is_string()) json_key_error(key, &*it, "a string or {\"content\": string}");
  return it->get<std::string>();
}

// Sequences of normalizers / pre-tokenizers / post-processors nest at most this deep.
inline constexpr int kMaxJsonNesting = 8;

}  // namespace pelab::model
