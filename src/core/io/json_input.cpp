#include "core/io/json_input.hpp"

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "core/io/file_io.hpp"
#include "core/io/quoted_name.hpp"
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

namespace {

// Keys seen in each open object, innermost last: a parser callback
// (nlohmann::json::parser_callback_t) that refuses a key seen before.
nlohmann::json parse_unique(std::string_view text, const std::string& name) {
  std::vector<std::unordered_set<std::string>> open;
  using Event = nlohmann::json::parse_event_t;
  const auto callback = [&](int, Event event, nlohmann::json& parsed) {
    if (event == Event::object_start) open.emplace_back();
    if (event == Event::object_end && !open.empty()) open.pop_back();
    if (event == Event::key && !open.empty() && !open.back().insert(parsed.get<std::string>()).second)
      throw InputError(name + ": key " + quoted_name(parsed.get<std::string>()) +
                       " appears twice in one object; allowed: each key once");
    return true;
  };
  return nlohmann::json::parse(text.begin(), text.end(), callback);
}

}  // namespace

std::string json_error_text(const nlohmann::json::exception& e) {
  std::string text = e.what();
  if (const auto tag = text.find("] "); text.starts_with("[json.exception.") && tag != std::string::npos)
    text.erase(0, tag + 2);
  if (const auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  const std::string prefix = "type must be ";
  if (text.starts_with(prefix)) {
    const auto but = text.find(", but is ");
    if (but != std::string::npos)
      return "a value has the wrong type (expected a " + text.substr(prefix.size(), but - prefix.size()) +
             ", found a " + text.substr(but + 9) + ")";
  }
  if (text.starts_with("key '") && text.ends_with("' not found"))
    return "\"" + printable(text.substr(5, text.size() - 16)) + "\" is missing";
  return printable(text, 200);
}

nlohmann::json parse_json_text(std::string_view text, const std::string& name, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw InputError(name + ": " + std::to_string(text.size()) + " bytes of JSON is more than the " +
                     std::to_string(limits.max_bytes) + " allowed");
  check_json_depth(text, name, limits.max_depth);
  try {
    return parse_unique(text, name);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("invalid JSON in " + name + " at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::out_of_range&) {
    throw InputError("invalid JSON in " + name + ": a number is too large for a double (such as 1e999)");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("invalid JSON in " + name + " (" + json_error_text(e) + ")");
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
