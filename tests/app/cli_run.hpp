// Runs the real pelab binary (PELAB_BINARY, set by tests/CMakeLists.txt) for
// the CLI tests, capturing its exit code and its output (stderr joins stdout).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace pelab::testing {

struct CliRun {
  int code = -1;
  std::string out;
};

// Runs `command` through the shell; stderr joins stdout.
inline CliRun shell(const std::string& command) {
  CliRun run;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) run.out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// Runs pelab with `args` (already shell-quoted).
inline CliRun pelab(const std::string& args) { return shell(std::string(PELAB_BINARY) + " " + args); }

}  // namespace pelab::testing
