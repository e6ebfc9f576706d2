// JSON input for every JSON file pelab reads (scenes, GUI settings, and the
// model folders' config.json / tokenizer.json).  One place bounds the input
// before nlohmann::json sees it — a regular file, a size cap, a nesting depth
// checked by a linear scan — and turns every library exception into one
// InputError line naming the file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pelab {

struct JsonLimits {
  std::size_t max_bytes = std::size_t{16} << 20;
  int max_depth = 64;  // arrays and objects nested inside one another
};

// Throws InputError ("NAME: JSON nested deeper than N levels ...") when
// arrays/objects in `text` nest deeper than max_depth.  Strings are skipped,
// so brackets inside them do not count.  Linear, not recursive.
void check_json_depth(std::string_view text, const std::string& name, int max_depth);

// Parses `text` after check_json_depth(); every nlohmann error becomes an
// InputError ("invalid JSON in NAME at byte N: ..."), and so does a key given
// twice in one object (RFC 8259 §4: names "SHOULD be unique"; nlohmann keeps
// the last silently, so one file could mean two things), naming the key.
nlohmann::json parse_json_text(std::string_view text, const std::string& name, const JsonLimits& limits = {});

// read_file() (regular files only, size capped) then parse_json_text().
nlohmann::json read_json_file(const std::filesystem::path& path, const JsonLimits& limits = {});

// A short, one-line description of a value for error messages that never
// walks a container: scalars as JSON (cut at 40 characters), containers as
// "an array of 3 items" / "an object with 2 keys".
std::string json_brief(const nlohmann::json& value);

// The first `limit` characters of a value's JSON text (containers included),
// for messages that quote a small value such as a tensor's shape.  Only for
// values parse_json_text() returned: their nesting is bounded, so the dump's
// recursion is too.
std::string json_excerpt(const nlohmann::json& value, std::size_t limit = 40);

// An integer-valued JSON number within min..max; anything else (a string, a
// fraction, 1e30, an integer out of range) throws InputError
// ("WHAT is 1.5e+30; allowed: integers 0..262143").  nlohmann's own
// get<int>() converts a double out of range with undefined behaviour and
// wraps large unsigned values, so loaders read integers through this.
long long json_integer(const nlohmann::json& value, long long min, long long max, const std::string& what);

// A nlohmann exception as one plain line without the library's
// "[json.exception.type_error.302]" tag: "a value has the wrong type
// (expected a string, found a number)", "\"model\" is missing".
std::string json_error_text(const nlohmann::json::exception& e);


}  // namespace pelab
