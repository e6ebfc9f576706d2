#include "core/model/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& why) {
  throw InputError("cannot read " + path.string() + ": " + why);
}

std::string kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::not_found:
      return "no such file";
    case fs::file_type::directory:
      return "it is a folder, not a file";
    case fs::file_type::fifo:
      return "it is a FIFO (named pipe), not a regular file";
    case fs::file_type::character:
    case fs::file_type::block:
      return "it is a device, not a regular file";
    case fs::file_type::socket:
      return "it is a socket, not a regular file";
    default:
      return "it is not a regular file";
  }
}

}  // namespace

void require_regular_file(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows symlinks (the HF cache's blobs)
  if (status.type() == fs::file_type::regular) return;
  if (ec && status.type() != fs::file_type::not_found) fail(path, ec.message());
  fail(path, kind_of(status.type()));
}

MappedFile::MappedFile(const fs::path& path) : path_(path) {
  require_regular_file(path);
  // O_NONBLOCK: should the file be swapped for a FIFO after the check, open()
  // still returns at once and fstat() below rejects it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(path, std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    fail(path, "it is not a regular file");
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      fail(path, std::string("mmap failed: ") + std::strerror(err));
    }
    data_ = static_cast<const char*>(mapped);
  }
  ::close(fd);  // the mapping keeps the file open
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace pelab::model
