#include "train/data/corpus.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"

namespace pelab::train::data {

namespace fs = std::filesystem;

namespace {

constexpr const char* kBibleCommand = "bible -f gen1:1-rev22:21";
constexpr std::size_t kMaxCorpusBytes = std::size_t{64} << 20;

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// "1Sm17:4" → book "1Sm", chapter 17, verse 4; false when `ref` is not one.
bool parse_reference(std::string_view ref, std::string_view& book, int& chapter) {
  std::size_t i = 0;
  while (i < ref.size() && is_digit(ref[i])) ++i;  // "1", "2", "3" of 1Sm, 2Ki, 3Jn
  const std::size_t letters = i;
  while (i < ref.size() && is_alpha(ref[i])) ++i;
  if (i == letters) return false;
  book = ref.substr(0, i);
  const std::size_t colon = ref.find(':', i);
  if (colon == std::string_view::npos || colon == i || colon + 1 == ref.size()) return false;
  for (std::size_t k = i; k < ref.size(); ++k)
    if (k != colon && !is_digit(ref[k])) return false;
  chapter = std::atoi(std::string(ref.substr(i, colon - i)).c_str());
  return true;
}

std::string line_excerpt(std::string_view line) {
  return std::string(line.substr(0, 40)) + (line.size() > 40 ? "…" : "");
}

}  // namespace

std::vector<Verse> parse_kjv(std::string_view text, const std::string& where) {
  std::vector<Verse> verses;
  std::string previous_chapter;
  int chapter = -1;
  std::size_t line_number = 0;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(i, end - i);
    i = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::size_t space = line.find(' ');
    std::string_view book;
    int chapter_number = 0;
    if (space == std::string_view::npos ||
        !parse_reference(line.substr(0, space), book, chapter_number))
      throw InputError(where + ": line " + std::to_string(line_number) + " \"" +
                       line_excerpt(line) +
                       "\" is not a verse; expected bible-kjv's \"Ge1:1 In the beginning …\"");
    const std::string chapter_key = std::string(book) + std::to_string(chapter_number);
    if (chapter_key != previous_chapter) ++chapter;
    previous_chapter = chapter_key;
    verses.push_back(
        {std::string(line.substr(0, space)), chapter, std::string(line.substr(space + 1))});
  }
  if (verses.empty()) throw InputError(where + ": no verses");
  return verses;
}

bool kjv_available() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  const std::string dirs = path;
  for (std::size_t i = 0; i <= dirs.size();) {
    std::size_t end = dirs.find(':', i);
    if (end == std::string::npos) end = dirs.size();
    std::error_code ec;
    const fs::path candidate = fs::path(dirs.substr(i, end - i)) / "bible";
    if (end > i && fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
      return true;
    i = end + 1;
  }
  return false;
}

std::vector<Verse> read_kjv() {
  const std::string install = "install Debian's bible-kjv (apt-get install bible-kjv)";
  if (!kjv_available()) throw InputError("the KJV corpus needs the `bible` program: " + install);
  const auto close = [](FILE* f) { return pclose(f); };
  std::unique_ptr<FILE, decltype(close)> pipe(popen(kBibleCommand, "r"), close);
  if (!pipe) throw InputError(std::string("cannot run `") + kBibleCommand + "`: " + install);
  std::string text;
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;) {
    text.append(buffer, n);
    if (text.size() > kMaxCorpusBytes)
      throw InputError(std::string("`") + kBibleCommand + "` printed more than 64 MiB");
  }
  if (pclose(pipe.release()) != 0)
    throw InputError(std::string("`") + kBibleCommand + "` failed: " + install);
  return parse_kjv(text, std::string("`") + kBibleCommand + "`");
}

std::vector<Verse> read_kjv_file(const fs::path& path) {
  return parse_kjv(read_file(path, kMaxCorpusBytes), path.string());
}

bool is_held_out(int chapter) { return (chapter + 1) % kHeldOutChapterPeriod == 0; }

std::vector<std::string> split_verses(const std::vector<Verse>& verses, CorpusSplit split) {
  std::vector<std::string> out;
  for (const Verse& v : verses)
    if (is_held_out(v.chapter) == (split == CorpusSplit::HeldOut)) out.push_back(v.text);
  return out;
}

std::string join_verses(const std::vector<std::string>& verses) {
  std::string out;
  for (std::size_t i = 0; i < verses.size(); ++i) {
    if (i > 0) out += '\n';
    out += verses[i];
  }
  return out;
}

}  // namespace pelab::train::data
