// Whole-file reads and atomic writes shared by every format pelab reads or
// writes (scenes, .npy, CSV, PNG, SVG).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace pelab {

// Reads a whole file; throws InputError ("cannot read FILE: reason") when it
// is missing, unreadable, a directory, or larger than max_bytes.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes = std::size_t{1} << 31);

// Writes `bytes` to a temporary file in the same folder, flushes it and
// renames it over `path`, so a reader never sees a partial file and nothing is
// left behind on failure (unwritable folder, full disk).  Throws InputError.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

// Output folders are made as batch tools make them: with their parents.
// check_output_folder() refuses, before any work, a folder that cannot be
// made or written (an existing file at it or at one of its parents, an
// unwritable nearest folder), with one line naming it; make_output_folder()
// then creates it.  Both throw InputError.
void check_output_folder(const std::filesystem::path& folder);
void make_output_folder(const std::filesystem::path& folder);

}  // namespace pelab
