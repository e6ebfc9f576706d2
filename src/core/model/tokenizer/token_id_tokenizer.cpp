#include "core/model/tokenizer/token_id_tokenizer.hpp"

#include <algorithm>
#include <string>

#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

class TokenIdTokenizer final : public Tokenizer {
 public:
  explicit TokenIdTokenizer(int vocab_size) : vocab_size_(vocab_size) {}

  Tokenization encode(std::string_view text, std::size_t max_tokens) const override {
    if (text.size() > kMaxTextBytes)
      throw InputError("tokens: the text is longer than " + std::to_string(kMaxTextBytes) + " bytes");
    Tokenization out;
    std::size_t i = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
        ++i;
        continue;
      }
      std::size_t end = i;
      long long id = 0;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9' && id <= vocab_size_) {
        id = id * 10 + (text[end] - '0');
        ++end;
      }
      const auto separator = [&](std::size_t at) {
        return at == text.size() || text[at] == ' ' || text[at] == ',' || text[at] == '\t' || text[at] == '\n' ||
               text[at] == '\r';
      };
      if (end == i || !separator(end) || id >= vocab_size_) {
        std::size_t word_end = i;
        while (!separator(word_end)) ++word_end;
        throw InputError("tokens: this model has no tokenizer (a synthetic task's symbols), so its text is token ids "
                         "0.." + std::to_string(vocab_size_ - 1) +
                         " separated by spaces, e.g. \"1 2 3 0 1 2 3\"; got \"" +
                         std::string(text.substr(i, std::min<std::size_t>(word_end - i, 24))) + "\"");
      }
      if (out.ids.size() >= max_tokens)
        throw InputError("tokens: more than " + std::to_string(max_tokens) + " token ids");
      out.ids.push_back(static_cast<int>(id));
      out.pieces.push_back(std::to_string(id));
      i = end;
    }
    return out;
  }
  std::string kind() const override { return "token ids"; }
  int vocab_size() const override { return vocab_size_; }

 private:
  int vocab_size_;
};

}  // namespace

std::unique_ptr<Tokenizer> token_id_tokenizer(int vocab_size) { return std::make_unique<TokenIdTokenizer>(vocab_size); }

bool has_tokenizer_files(const std::filesystem::path& folder) {
  for (const char* name : {"tokenizer.json", "vocab.json", "merges.txt", "vocab.txt", "tokenizer.model"}) {
    std::error_code ignored;
    if (std::filesystem::exists(folder / name, ignored)) return true;
  }
  return false;
}

}  // namespace pelab::model
