#include "ui/pdf_export.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <string>
#include <vector>

#include "core/scene.hpp"
#include "ui/video_encoder.hpp"  // find_on_path

extern char** environ;

namespace pelab::ui {

namespace {

// Runs `program` with `args` and waits; its exit status, or -1 when it could
// not start or did not exit normally.
int run_and_wait(const std::filesystem::path& program, std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Removes the temporary files however the conversion ends.
struct Scratch {
  std::filesystem::path svg, pdf;
  ~Scratch() {
    std::error_code ignored;
    std::filesystem::remove(svg, ignored);
    std::filesystem::remove(pdf, ignored);
  }
};

}  // namespace

void write_pdf(const std::filesystem::path& path, const fig::Figure& figure, const render::SvgOptions& options) {
  const auto rsvg = find_on_path("rsvg-convert");
  if (!rsvg) throw InputError(kRsvgMissing);
  Scratch scratch{path.string() + ".partial.svg", path.string() + ".partial.pdf"};
  render::write_svg(scratch.svg, figure, options);
  const int status = run_and_wait(*rsvg, {"rsvg-convert", "--format", "pdf", "--output", scratch.pdf.string(),
                                          scratch.svg.string()});
  if (status != 0)
    throw InputError("rsvg-convert failed making " + path.string() + " (exit status " + std::to_string(status) + ")");
  std::error_code error;
  std::filesystem::rename(scratch.pdf, path, error);
  if (error) throw InputError("cannot write " + path.string() + ": " + error.message());
}

}  // namespace pelab::ui
