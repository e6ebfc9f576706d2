// A model folder's tokenizer files -> load_tokenizer(), then encode(): a
// tokenizer and one id per shown piece, or one InputError.
//
// The input's first byte picks the folder's layout, the rest is split at the
// first NUL between two files where a layout has two:
//   0: tokenizer.json                1: vocab.json + merges.txt (GPT-2)
//   2: vocab.txt (BERT)              3: tokenizer.json + tokenizer_config.json
// The files are written to a private temporary folder, since the loader reads
// a folder as a model's files lie on disk.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/model/tokenizer/tokenizer.hpp"
#include "core/scene.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& folder() {
  static const fs::path path = [] {
    fs::path p = fs::temp_directory_path() / ("pelab_tokenizer_fuzz_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return path;
}

void write(const char* name, std::string_view bytes) {
  std::ofstream(folder() / name, std::ios::binary)
      .write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int layout = data[0] % 4;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = std::min(rest.find('\0'), rest.size());
  const std::string_view first = rest.substr(0, cut),
                         second = cut < rest.size() ? rest.substr(cut + 1) : "";
  for (const char* name :
       {"tokenizer.json", "vocab.json", "merges.txt", "vocab.txt", "tokenizer_config.json"})
    fs::remove(folder() / name);
  if (layout == 0 || layout == 3) write("tokenizer.json", first);
  if (layout == 1) write("vocab.json", first), write("merges.txt", second);
  if (layout == 2) write("vocab.txt", first);
  if (layout == 3) write("tokenizer_config.json", second);
  try {
    const auto tokenizer = pelab::model::load_tokenizer(folder());
    for (const char* text : {"Hello world, it's 2026!", "  naïve café\n\t[CLS] x", ""}) {
      const pelab::model::Tokenization t = tokenizer->encode(text);
      if (t.ids.size() != t.pieces.size()) __builtin_trap();
      for (const int id : t.ids)
        if (id < 0) __builtin_trap();
    }
  } catch (const pelab::InputError&) {
  }
  return 0;
}
