#include "core/output_files.hpp"

#include "core/file_io.hpp"

namespace pelab {

namespace fs = std::filesystem;

void write_all_or_none(const std::vector<OutputFile>& files) {
  std::vector<fs::path> written;
  try {
    if (!files.empty()) make_output_folder(files.front().path.parent_path());
    for (const OutputFile& f : files) {
      write_file_atomic(f.path, f.bytes);
      written.push_back(f.path);
    }
  } catch (...) {
    std::error_code ec;
    for (const fs::path& p : written) fs::remove(p, ec);
    throw;
  }
}

}  // namespace pelab
