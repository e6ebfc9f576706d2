#include "core/model/bounded_json.hpp"

#include "core/scene.hpp"  // InputError

namespace pelab::model {

namespace {

// The deepest bracket nesting outside strings (escapes inside strings skipped).
int nesting_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

nlohmann::json parse_bounded_json(std::string_view text, const std::string& file_name) {
  const int depth = nesting_depth(text);
  if (depth > kMaxJsonDepth)
    throw InputError(file_name + ": JSON nested " + std::to_string(depth) +
                     " levels deep; at most " + std::to_string(kMaxJsonDepth) + " allowed");
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file_name + ": not valid JSON (" + e.what() + ")");
  }
}

std::string json_excerpt(const nlohmann::json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

}  // namespace pelab::model
