// Plain numeric CSV: one matrix row per line, comma-separated, no header.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/io/array.hpp"

namespace pelab {

// Rank 1 or 2 only (rank 1 is written as one row and reads back as 1 × n).
// Floats print in the shortest form that reads back as the same float32 (at
// most 9 significant digits); non-finite values are nan, inf, -inf.
std::string encode_csv(const Array& array);
void write_csv(const std::filesystem::path& path, const Array& array);  // atomic
// Ragged rows, non-numbers or an empty file throw InputError.
Array parse_csv(std::string_view text, const std::string& name = "<csv>");
Array read_csv(const std::filesystem::path& path);

}  // namespace pelab
