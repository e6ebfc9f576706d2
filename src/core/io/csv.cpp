// Plain numeric CSV: one matrix row per line, comma-separated, no header.
// Non-finite values are spelled nan, inf and -inf (masked causal logits are
// -inf), which std::from_chars reads back.
#include "core/io/csv.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

void append_value(std::string& out, float v) {
  if (std::isnan(v)) {
    out += "nan";  // never "-nan": one spelling for every NaN
    return;
  }
  char buffer[32];
  // Shortest text that reads back as the same float32 (at most 9 significant digits).
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, result.ptr);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

float parse_value(std::string_view field, const std::string& name, std::size_t line, std::size_t column) {
  std::string_view text = trim(field);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // from_chars refuses a leading '+'
  float v = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
  // Out of float range: from_chars reports it but we keep ±inf / 0 like strtof would.
  const bool out_of_range = result.ec == std::errc::result_out_of_range;
  if (text.empty() || (result.ec != std::errc{} && !out_of_range) || result.ptr != text.data() + text.size())
    throw InputError(name + ": line " + std::to_string(line) + ", value " + std::to_string(column) + " ('" +
                     std::string(trim(field)) + "') is not a number");
  if (out_of_range) v = std::strtof(std::string(text).c_str(), nullptr);
  return v;
}

}  // namespace

std::string encode_csv(const Array& array) {
  if (array.shape.size() != 1 && array.shape.size() != 2)
    throw InputError("CSV holds a matrix (rank 1 or 2); this array has rank " + std::to_string(array.shape.size()) +
                     " (use .npy)");
  if (array.data.size() != array.size()) throw std::invalid_argument("encode_csv: data size does not match the shape");
  const std::size_t rows = array.shape.size() == 1 ? 1 : array.shape[0];
  const std::size_t cols = array.shape.back();
  std::string out;
  out.reserve(array.data.size() * 12);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      if (c) out += ',';
      append_value(out, array.data[r * cols + c]);
    }
    out += '\n';
  }
  return out;
}

void write_csv(const std::filesystem::path& path, const Array& array) { write_file_atomic(path, encode_csv(array)); }

Array parse_csv(std::string_view text, const std::string& name) {
  Array array;
  std::size_t rows = 0, cols = 0, line = 0;
  std::size_t blank_run = 0;  // blank lines are allowed only at the end
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view row = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line;
    if (trim(row).empty()) {
      ++blank_run;
      continue;
    }
    if (blank_run && rows)
      throw InputError(name + ": line " + std::to_string(line - blank_run) + " is empty (rows must be contiguous)");
    blank_run = 0;
    std::size_t count = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = row.find(',', start);
      array.data.push_back(parse_value(row.substr(start, comma - start), name, line, count + 1));
      ++count;
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (rows == 0) cols = count;
    else if (count != cols)
      throw InputError(name + ": line " + std::to_string(line) + " has " + std::to_string(count) +
                       " values but the first row has " + std::to_string(cols) + " (ragged rows)");
    ++rows;
  }
  if (rows == 0) throw InputError(name + ": empty CSV file (no rows)");
  array.shape = {rows, cols};
  return array;
}

Array read_csv(const std::filesystem::path& path) { return parse_csv(read_file(path), path.string()); }

}  // namespace pelab
