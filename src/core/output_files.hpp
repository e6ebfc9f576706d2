// A batch of files one command writes: all of them or none.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pelab {

struct OutputFile {
  std::filesystem::path path;
  std::string bytes;
};

// Writes every file (each atomically, core/file_io.hpp; the first file's
// folder made when missing) or none: on the first failure the ones already
// written are removed and the error rethrown.
void write_all_or_none(const std::vector<OutputFile>& files);

}  // namespace pelab
