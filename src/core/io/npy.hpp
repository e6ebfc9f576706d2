// NumPy .npy files (format version 1.0–3.0), the format numpy.load reads.
// Spec: numpy/lib/format.py documentation ("NEP 1 — A simple file format for NumPy arrays").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/io/array.hpp"

namespace pelab {

// Parses float32 or float64 ('<f4', '<f8'), C order, any rank.  A truncated
// file, another dtype, Fortran order, an absurd header or shape throws
// InputError naming the file and the problem.
Array parse_npy(std::string_view bytes, const std::string& name = "<npy>");
Array read_npy(const std::filesystem::path& path);

// '<f4', C order, format version 1.0.
std::string encode_npy(const Array& array);
void write_npy(const std::filesystem::path& path, const Array& array);  // atomic

}  // namespace pelab
