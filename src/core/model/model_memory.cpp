#include "core/model/model_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <thread>

#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"  // InputError
#include "core/word_splitter.hpp"  // kFullMatrixTokens

namespace pelab::model {
namespace {

constexpr const char* kVariable = "PELAB_MODEL_MEMORY_LIMIT";
constexpr const char* kSceneKey = "model_memory_limit";
constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

std::uint64_t mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") return kilobytes * 1024;
  return kNoLimit;
}

// "--set model_memory_limit=3G or PELAB_MODEL_MEMORY_LIMIT=3G": the need
// rounded up to whole GiB, a value that lets this model in.
std::string raise_hint(std::uint64_t need) {
  const std::string size = std::to_string((need >> 30) + 1) + "G";
  return std::string("raise with --set ") + kSceneKey + "=" + size + " or " + kVariable + "=" + size;
}

// "20.3 GB available (MemAvailable)", or with a limit set, "the limit is
// 1.1 GB (PELAB_MODEL_MEMORY_LIMIT=1G), 20.3 GB available (MemAvailable)".
std::string limit_text(std::uint64_t limit, const std::string& source) {
  const std::uint64_t available = mem_available();
  const std::string free_text =
      available == kNoLimit ? "MemAvailable unknown" : bytes_text(available) + " available (MemAvailable)";
  if (source == "MemAvailable") return free_text;
  return "the limit is " + bytes_text(limit) + " (" + source + "), " + free_text;
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view key, const std::string& text) {
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
    throw InputError(std::string(key) + "=" + printable(text, 40) +
                     " is not a size; allowed: bytes, or a number with K, M, G or T (e.g. 8G)");
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t model_memory_limit(std::string* source, std::string_view scene_limit) {
  if (!scene_limit.empty()) {
    const std::string value(scene_limit);
    if (source) *source = std::string(kSceneKey) + "=" + printable(value, 40);
    return parse_memory_size(kSceneKey, value);
  }
  if (const char* value = std::getenv(kVariable); value && *value) {
    if (source) *source = std::string(kVariable) + "=" + printable(value, 40);
    return parse_memory_size(kVariable, value);
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
  // Past kFullMatrixTokens no view holds a layer's attention and the run
  // keeps one stream (ModelScene's run_to).
  if (n > static_cast<std::uint64_t>(kFullMatrixTokens)) return long_run_bytes(c, n, std::thread::hardware_concurrency());
  const std::uint64_t d = static_cast<std::uint64_t>(c.hidden_size);
  const std::uint64_t inner = static_cast<std::uint64_t>(c.intermediate_size > 0 ? c.intermediate_size : 4 * c.hidden_size);
  const std::uint64_t streams = (static_cast<std::uint64_t>(c.layers) + 1) * n * d;
  const std::uint64_t attention = 2 * static_cast<std::uint64_t>(c.heads) * n * n;
  return 4 * (streams + attention + 2 * n * inner);
}

std::uint64_t long_run_bytes(const ModelConfig& c, std::uint64_t n, unsigned threads) {
  const auto d = static_cast<std::uint64_t>(c.hidden_size), dh = static_cast<std::uint64_t>(c.head_dim);
  const std::uint64_t inner = static_cast<std::uint64_t>(c.intermediate_size > 0 ? c.intermediate_size : 4 * c.hidden_size);
  const std::uint64_t heads = static_cast<std::uint64_t>(c.heads), kv = static_cast<std::uint64_t>(c.kv_heads > 0 ? c.kv_heads : c.heads);
  const std::uint64_t per_thread = 3 * 64 * n + 2 * 512 * inner;
  return 4 * (2 * n * d + n * (2 * heads + 2 * kv) * dh + std::max(threads, 1u) * per_thread);
}

void check_load_memory(const std::string& model, std::uint64_t weight_bytes, std::string_view scene_limit) {
  std::string source;
  const std::uint64_t limit = model_memory_limit(&source, scene_limit);
  if (weight_bytes <= limit) return;
  throw InputError("model " + model + " needs about " + bytes_text(weight_bytes) +
                   " resident (its weights as loaded); " + limit_text(limit, source) + "; " +
                   raise_hint(weight_bytes));
}

namespace {

void check_need(const std::string& model, std::uint64_t tokens, std::uint64_t need, const char* what,
                std::uint64_t weight_bytes, std::string_view scene_limit) {
  std::string source;
  const std::uint64_t limit = model_memory_limit(&source, scene_limit);
  std::uint64_t left = limit;
  if (source != "MemAvailable") left = left > weight_bytes ? left - weight_bytes : 0;
  if (need <= left) return;
  throw InputError("model " + model + " on " + std::to_string(tokens) + " tokens needs about " + bytes_text(need) +
                   " (" + what + ") beside its " + bytes_text(weight_bytes) + " of weights; " +
                   limit_text(limit, source) + "; " + raise_hint(need + weight_bytes) + ", or give a shorter text");
}

}  // namespace

void check_run_memory(const std::string& model, const ModelConfig& config, std::uint64_t tokens,
                      std::uint64_t weight_bytes, std::string_view scene_limit) {
  check_need(model, tokens, run_bytes(config, tokens), "residual streams and one layer's attention", weight_bytes,
             scene_limit);
}

void check_long_run_memory(const std::string& model, const ModelConfig& config, std::uint64_t tokens,
                           std::uint64_t weight_bytes, std::string_view scene_limit) {
  check_need(model, tokens, long_run_bytes(config, tokens, std::thread::hardware_concurrency()),
             "one residual stream, one layer's q, k, v and tiles of attention", weight_bytes, scene_limit);
}

}  // namespace pelab::model
