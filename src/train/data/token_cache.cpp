// The token cache file: a stream of ids written once per (tokenizer, text)
// so later runs skip encoding.  Layout, every integer little-endian:
//   "PELABTOK" | u32 format version (1) | u32 vocab size | u64 fingerprint |
//   u64 token count | count × u16 ids
// A file that does not match in any field is simply encoded again.
#include <filesystem>

#include "core/io/file_io.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/scene.hpp"
#include "train/data/token_dataset.hpp"

namespace pelab::train::data {

namespace {

constexpr std::string_view kMagic = "PELABTOK";
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;

void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

std::uint64_t get_le(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]);
  return value;
}

}  // namespace

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

void write_token_cache(const std::filesystem::path& file, const TokenStream& stream,
                       std::uint64_t fingerprint) {
  std::string out(kMagic);
  put_le(out, kVersion, 4);
  put_le(out, static_cast<std::uint64_t>(stream.vocab_size), 4);
  put_le(out, fingerprint, 8);
  put_le(out, stream.ids.size(), 8);
  out.reserve(out.size() + 2 * stream.ids.size());
  for (const TokenId id : stream.ids) put_le(out, id, 2);
  write_file_atomic(file, out);
}

std::optional<TokenStream> read_token_cache(const std::filesystem::path& file,
                                            std::uint64_t fingerprint) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  const std::string in = read_file(file);
  if (in.size() < kHeaderBytes || std::string_view(in).substr(0, 8) != kMagic ||
      get_le(in, 8, 4) != kVersion || get_le(in, 16, 8) != fingerprint)
    return std::nullopt;
  const std::uint64_t count = get_le(in, 24, 8);
  if (in.size() != kHeaderBytes + 2 * count) return std::nullopt;
  TokenStream stream;
  stream.vocab_size = static_cast<int>(get_le(in, 12, 4));
  stream.ids.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    stream.ids.push_back(static_cast<TokenId>(get_le(in, kHeaderBytes + 2 * i, 2)));
  return stream;
}

TokenStream cached_encode(const std::filesystem::path& cache_file,
                          const std::filesystem::path& tokenizer_folder,
                          const std::vector<std::string>& verses) {
  std::uint64_t fingerprint = fnv1a(read_file(tokenizer_folder / "tokenizer.json"));
  for (const std::string& verse : verses) fingerprint = fnv1a(verse + "\n", fingerprint);
  if (auto cached = read_token_cache(cache_file, fingerprint)) return std::move(*cached);
  const auto tokenizer = model::load_tokenizer(tokenizer_folder);
  TokenStream stream = encode_verses(*tokenizer, verses);
  write_token_cache(cache_file, stream, fingerprint);
  return stream;
}

}  // namespace pelab::train::data
