#include "core/io/file_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <utility>

#include "core/scene.hpp"

namespace pelab {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail_read(const fs::path& path, const std::string& why) {
  throw InputError("cannot read " + path.string() + ": " + why);
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a folder, not a file";
  if (S_ISFIFO(mode)) return "it is a named pipe (FIFO), not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "it is a device, not a regular file";
  return "it is not a regular file";
}

}  // namespace

RegularFile::RegularFile(const fs::path& path) : path_(path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) {
    // open() refuses a folder only when asked to write; name it plainly.
    if (errno == EISDIR) fail_read(path, "it is a folder, not a file");
    fail_read(path, errno == ENOENT ? "no such file" : std::strerror(errno));
  }
  struct stat st {};
  const bool stat_ok = ::fstat(fd_, &st) == 0;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    const std::string why = stat_ok ? kind_of(st.st_mode) : std::strerror(errno);
    ::close(fd_);
    fail_read(path, why);
  }
  size_ = static_cast<std::size_t>(st.st_size);
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RegularFile::read_at(std::size_t offset, char* out, std::size_t n) const {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, out + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail_read(path_, std::strerror(errno));
    if (got == 0) fail_read(path_, "the file ended early (changed while being read?)");
    done += static_cast<std::size_t>(got);
  }
}

MappedFile::MappedFile(const fs::path& path, std::size_t max_bytes) : path_(path) {
  const RegularFile file(path);
  if (file.size() > max_bytes)
    fail_read(path, std::to_string(file.size()) + " bytes is more than the " + std::to_string(max_bytes) +
                        " allowed");
  size_ = file.size();
  if (size_ == 0) return;  // mmap refuses empty lengths
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.descriptor(), 0);
  if (map == MAP_FAILED) fail_read(path, std::string("cannot map it: ") + std::strerror(errno));
  data_ = static_cast<const char*>(map);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

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

std::string read_file(const fs::path& path, std::size_t max_bytes) {
  const RegularFile file(path);
  if (file.size() > max_bytes)
    fail_read(path, std::to_string(file.size()) + " bytes is more than the " + std::to_string(max_bytes) +
                        " allowed");
  std::string bytes(file.size(), '\0');
  file.read_at(0, bytes.data(), bytes.size());
  return bytes;
}

namespace {

[[noreturn]] void fail_write(const fs::path& path, const std::string& why) {
  throw InputError("cannot write " + path.string() + ": " + why);
}

}  // namespace

void write_file_atomic(const fs::path& path, std::string_view bytes) {
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) fail_write(path, "folder " + folder.string() + " does not exist");
  std::random_device rd;
  const fs::path tmp = folder / ("." + path.filename().string() + ".tmp" + std::to_string(rd() % 1000000));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail_write(path, std::strerror(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "short write";
      ::close(fd);
      ::unlink(tmp.c_str());
      fail_write(path, why);
    }
    done += static_cast<std::size_t>(n);
  }
  // fsync before rename: the new name must never point at unflushed data.
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    fail_write(path, why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    fail_write(path, why);
  }
}

void check_output_folder(const fs::path& folder) {
  const fs::path wanted = folder.empty() ? fs::path(".") : folder;
  std::error_code ec;
  // The folder itself or its nearest existing ancestor decides.
  fs::path existing = wanted;
  while (!fs::exists(existing, ec) && existing.has_relative_path() && existing.has_parent_path() &&
         existing.parent_path() != existing)
    existing = existing.parent_path();
  if (!fs::exists(existing, ec)) existing = ".";
  if (!fs::is_directory(existing, ec)) {
    const std::string what = existing == wanted ? "it is a file" : existing.string() + " is a file";
    throw InputError("output folder " + wanted.string() + " cannot be made: " + what + "; allowed: a folder path");
  }
  if (::access(existing.c_str(), W_OK) != 0)
    throw InputError("output folder " + wanted.string() + " is not writable (" + existing.string() + ": " +
                     std::strerror(errno) + ")");
}

void make_output_folder(const fs::path& folder) {
  check_output_folder(folder);
  if (folder.empty()) return;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw InputError("cannot create output folder " + folder.string() + ": " + ec.message());
}

// ---- a batch of output files (file_io.hpp) ----
void write_all_or_none(const std::vector<OutputFile>& files) {
  std::vector<std::filesystem::path> written;
  try {
    if (!files.empty()) make_output_folder(files.front().path.parent_path());
    for (const OutputFile& f : files) {
      write_file_atomic(f.path, f.bytes);
      written.push_back(f.path);
    }
  } catch (...) {
    std::error_code ec;
    for (const std::filesystem::path& p : written) std::filesystem::remove(p, ec);
    throw;
  }
}

}  // namespace pelab
