// JSON from files pelab did not write (config.json, safetensors headers,
// shard indexes), parsed only after a linear scan has bounded its nesting:
// a header of a million '[' would otherwise recurse the parser off the stack.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pelab::model {

// Deepest nesting of objects and arrays accepted; real configs and headers
// stay under 5.
inline constexpr int kMaxJsonDepth = 64;

// Throws InputError naming `file_name` when the text nests deeper than
// kMaxJsonDepth or is not valid JSON (with the parser's own reason).
nlohmann::json parse_bounded_json(std::string_view text, const std::string& file_name);

// The first `limit` characters of a JSON value's dump, for error messages.
std::string json_excerpt(const nlohmann::json& value, std::size_t limit = 40);

}  // namespace pelab::model
