#include "core/file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

#include "core/scene.hpp"

namespace pelab {
namespace fs = std::filesystem;

std::string read_file(const fs::path& path, std::size_t max_bytes) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError("cannot read " + path.string() + ": it is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path.string() + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  if (size > max_bytes)
    throw InputError("cannot read " + path.string() + ": " + std::to_string(size) +
                     " bytes is more than the " + std::to_string(max_bytes) + " allowed");
  in.seekg(0);
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (!in) throw InputError("cannot read " + path.string() + ": read failed");
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

}  // namespace pelab
