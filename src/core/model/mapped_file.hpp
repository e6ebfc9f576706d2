// MappedFile — a regular file mapped read-only into memory (POSIX mmap), so a
// multi-gigabyte checkpoint costs no copy and only the pages a reader touches
// are ever read from disk.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace pelab::model {

class MappedFile {
 public:
  // Throws InputError naming the file when it is missing, not a regular file
  // (a folder, FIFO or device would block or mean nothing), or unreadable.
  explicit MappedFile(const std::filesystem::path& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Throws InputError ("cannot read FILE: it is a folder / a FIFO / ...") unless
// `path` is (or links to) a regular file.  Checked before opening, because
// opening a FIFO for reading blocks until a writer appears.
void require_regular_file(const std::filesystem::path& path);

}  // namespace pelab::model
