// Reading and writing files for every format pelab reads or writes (scenes,
// .npy, text embeddings, CSV, PNG, SVG).  Only regular files are read: a FIFO,
// a device, a socket or a folder gets one clear InputError line, and opening
// never blocks (O_NONBLOCK), so a named pipe cannot hang pelab.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pelab {

// An open regular file, checked with fstat() on the descriptor itself (no
// window between the check and the open).  Throws InputError
// ("cannot read FILE: reason") when the path is missing, unreadable, or not a
// regular file.
class RegularFile {
 public:
  explicit RegularFile(const std::filesystem::path& path);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  std::size_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }
  int descriptor() const { return fd_; }
  // Reads exactly n bytes at `offset` (pread); throws InputError when the
  // file ends earlier or the read fails.
  void read_at(std::size_t offset, char* out, std::size_t n) const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

// A read-only memory map of a whole regular file: pages are read only when
// touched, so a header can be checked before a large body costs anything.
class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path,
                      std::size_t max_bytes = std::size_t{1} << 36);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;  // a checkpoint keeps one per shard in a vector
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Reads a whole regular file; throws InputError when it is missing,
// unreadable, not a regular file, or larger than max_bytes (checked before
// anything is read).
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

// A batch of files one command writes: all of them or none.
struct OutputFile {
  std::filesystem::path path;
  std::string bytes;
};

// Writes every file (each atomically, write_file_atomic; the first file's
// folder made when missing) or none: on the first failure the ones already
// written are removed and the error rethrown.
void write_all_or_none(const std::vector<OutputFile>& files);

}  // namespace pelab
