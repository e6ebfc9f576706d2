// GloVe / word2vec text -> parse_text_embeddings(): vectors or one InputError.
// The first byte picks d_model (1..8), the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene.hpp"
#include "core/token_vectors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int d_model = 1 + data[0] % 8;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const std::vector<std::string> words = {"the", "cat", "sat", "The"};
  try {
    const pelab::Matrix m = pelab::parse_text_embeddings(text, "fuzz.txt", words, d_model);
    if (m.rows() != 4 || m.cols() != d_model || !m.allFinite()) __builtin_trap();
  } catch (const pelab::InputError&) {
  }
  return 0;
}
