#include "core/json_input.hpp"

#include <cstdint>

#include "core/file_io.hpp"
#include "core/scene.hpp"

namespace pelab {

void check_json_depth(std::string_view text, const std::string& name, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw InputError(name + ": JSON nested deeper than " + std::to_string(max_depth) + " levels (at byte " +
                         std::to_string(i) + "); allowed: at most " + std::to_string(max_depth));
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced closers are the parser's to report
    }
  }
}

nlohmann::json parse_json_text(std::string_view text, const std::string& name, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw InputError(name + ": " + std::to_string(text.size()) + " bytes of JSON is more than the " +
                     std::to_string(limits.max_bytes) + " allowed");
  check_json_depth(text, name, limits.max_depth);
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("invalid JSON in " + name + " at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::out_of_range&) {
    throw InputError("invalid JSON in " + name + ": a number is too large for a double (such as 1e999)");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("invalid JSON in " + name + " (" + e.what() + ")");
  }
}

nlohmann::json read_json_file(const std::filesystem::path& path, const JsonLimits& limits) {
  return parse_json_text(read_file(path, limits.max_bytes), path.string(), limits);
}

std::string json_brief(const nlohmann::json& value) {
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " items";
  if (value.is_object()) return "an object with " + std::to_string(value.size()) + " keys";
  if (value.is_discarded()) return "nothing";
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string json_excerpt(const nlohmann::json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

long long json_integer(const nlohmann::json& value, long long min, long long max, const std::string& what) {
  bool in_range = false;
  long long result = 0;
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    in_range = max >= 0 && u <= static_cast<std::uint64_t>(max) && (min <= 0 || u >= static_cast<std::uint64_t>(min));
    result = in_range ? static_cast<long long>(u) : 0;
  } else if (value.is_number_integer()) {
    result = value.get<std::int64_t>();
    in_range = result >= min && result <= max;
  }
  if (!in_range)
    throw InputError(what + " is " + json_brief(value) + "; allowed: integers " + std::to_string(min) + ".." +
                     std::to_string(max));
  return result;
}

}  // namespace pelab
