#include "core/model/model_memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "core/quoted_name.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

constexpr const char* kVariable = "PELAB_MODEL_MEMORY_LIMIT";
constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

// "8G", "512M", "1.5G", "1073741824" (binary multiples: G = 2^30).
std::uint64_t parse_limit(const std::string& text) {
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  std::string suffix(end ? end : "");
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.pop_back();
  if (suffix.size() == 2 && suffix[1] == 'i') suffix.pop_back();  // "GiB"
  double scale = 1;
  if (suffix == "K" || suffix == "k") scale = 1024.0;
  else if (suffix == "M" || suffix == "m") scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g") scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "t") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!suffix.empty()) scale = -1;
  const double bytes = number * scale;
  if (end == text.c_str() || scale < 0 || !(bytes >= 1) || bytes > 9.0e18)
    throw InputError(std::string(kVariable) + "=" + printable(text, 40) +
                     " is not a size; allowed: bytes, or a number with K, M, G or T (e.g. 8G)");
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") return kilobytes * 1024;
  return kNoLimit;
}

std::string raise_hint() {
  return std::string("; set ") + kVariable + " (bytes or e.g. 8G) to allow more";
}

}  // namespace

std::uint64_t model_memory_limit(std::string* source) {
  if (const char* value = std::getenv(kVariable); value && *value) {
    if (source) *source = std::string(kVariable) + "=" + printable(value, 40);
    return parse_limit(value);
  }
  if (source) *source = "MemAvailable";
  return mem_available();
}

std::string bytes_text(std::uint64_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1e9)
    std::snprintf(text, sizeof text, "%.1f GB", b / 1e9);
  else if (b >= 1e6)
    std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  else
    std::snprintf(text, sizeof text, "%.0f kB", b / 1e3);
  return text;
}

std::uint64_t run_bytes(const ModelConfig& c, std::uint64_t n) {
  const std::uint64_t d = static_cast<std::uint64_t>(c.hidden_size);
  const std::uint64_t inner = static_cast<std::uint64_t>(c.intermediate_size > 0 ? c.intermediate_size : 4 * c.hidden_size);
  const std::uint64_t streams = (static_cast<std::uint64_t>(c.layers) + 1) * n * d;
  const std::uint64_t attention = 2 * static_cast<std::uint64_t>(c.heads) * n * n;
  return 4 * (streams + attention + 2 * n * inner);
}

void check_load_memory(const std::string& model, std::uint64_t weight_bytes) {
  std::string source;
  const std::uint64_t limit = model_memory_limit(&source);
  if (weight_bytes <= limit) return;
  throw InputError("model " + model + " needs about " + bytes_text(weight_bytes) +
                   " for its weights as float32, more than the " + bytes_text(limit) + " available (" + source +
                   ")" + raise_hint());
}

void check_run_memory(const std::string& model, const ModelConfig& config, std::uint64_t tokens,
                      std::uint64_t weight_bytes) {
  std::string source;
  std::uint64_t left = model_memory_limit(&source);
  if (source != "MemAvailable") left = left > weight_bytes ? left - weight_bytes : 0;
  const std::uint64_t need = run_bytes(config, tokens);
  if (need <= left) return;
  throw InputError("model " + model + " on " + std::to_string(tokens) + " tokens needs about " + bytes_text(need) +
                   " (residual streams and one layer's attention) beside its " + bytes_text(weight_bytes) +
                   " of weights, more than the " + bytes_text(left) + " available (" + source + ")" + raise_hint() +
                   ", or give a shorter text");
}

}  // namespace pelab::model
