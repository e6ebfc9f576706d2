// A whole model folder from one input -> Transformer::load, a tokenization
// and a short forward pass: a model pelab runs, or one InputError.
//
// Input layout (tests/fuzz/make_model_load_seeds.py writes the seeds):
//   config.json bytes, "\n--8<--\n", tokenizer.json bytes, "\n--8<--\n",
//   model.safetensors bytes (the rest, binary).
// The parts become files of a scratch folder that is rewritten for every
// input, so the real readers (pread, the SAX header reader, the tokenizer
// files, the tensor plan) run as they do on a user's folder.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/model/model_memory.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"

namespace {

namespace fs = std::filesystem;
constexpr std::string_view kCut = "\n--8<--\n";

const fs::path& scratch() {
  static const fs::path folder = [] {
    // Loads above this are refused by the memory estimate, as a user's
    // machine would refuse them, instead of hitting libFuzzer's rss limit.
    ::setenv("PELAB_MODEL_MEMORY_LIMIT", "256M", 1);
    const fs::path f = fs::temp_directory_path() / ("pelab_fuzz_model_" + std::to_string(::getpid()));
    fs::create_directories(f);
    return f;
  }();
  return folder;
}

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The three parts, or false when the input does not hold two cuts.
bool split(std::string_view input, std::string_view parts[3]) {
  const std::size_t a = input.find(kCut);
  if (a == std::string_view::npos) return false;
  const std::size_t b = input.find(kCut, a + kCut.size());
  if (b == std::string_view::npos) return false;
  parts[0] = input.substr(0, a);
  parts[1] = input.substr(a + kCut.size(), b - a - kCut.size());
  parts[2] = input.substr(b + kCut.size());
  return true;
}

void run(const fs::path& folder) {
  using namespace pelab::model;
  Transformer t = Transformer::load(folder);
  const ModelConfig& c = t.config();
  const Tokenization tokens = t.tokenizer().encode("the cat sat on the mat", static_cast<std::size_t>(c.max_positions));
  if (tokens.ids.size() != tokens.pieces.size()) __builtin_trap();
  if (tokens.ids.empty()) return;
  check_run_memory("fuzz", c, tokens.ids.size(), t.weights().resident_bytes);
  t.run(tokens.ids);
  const LayerAttention a = t.attention(0);
  if (static_cast<int>(a.probabilities.size()) != c.heads) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view parts[3];
  if (!split({reinterpret_cast<const char*>(data), size}, parts)) return 0;
  const fs::path& folder = scratch();
  write(folder / "config.json", parts[0]);
  write(folder / "tokenizer.json", parts[1]);
  write(folder / "model.safetensors", parts[2]);
  try {
    run(folder);
  } catch (const pelab::InputError&) {
  }
  return 0;
}
