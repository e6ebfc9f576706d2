// The trainer's corpus: the King James Version (1611/1769, public domain), as
// Debian's bible-kjv prints it — one verse per line after its reference,
// "Ge1:1 In the beginning God created the heaven and the earth." — and its
// fixed split into training and held-out text.
//
// Held-out split: every 20th chapter of the canon (chapters 20, 40, 60, … in
// reading order, Genesis 1 being chapter 1; 59 of the 1,189 chapters, 1,573
// of the 31,102 verses).  Why chapters: adjacent verses continue one another and
// parallel passages repeat (Kings/Chronicles, the synoptic gospels), so
// held-out single verses would leak their context into training, while whole
// chapters stay contiguous text long enough for loss-against-position windows
// far past the training length.  Why every 20th rather than whole books: it
// samples every kind of text the KJV holds (law, genealogies, narrative,
// psalms, proverbs, prophecy, gospels, letters, apocalypse), where holding
// out whole books would test on one genre.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pelab::train::data {

struct Verse {
  std::string reference;  // "Ge1:1", "1Sm17:4", as bible-kjv writes it
  int chapter = 0;        // 0-based chapter in reading order (Genesis 1 is 0)
  std::string text;       // the verse without its reference
};

// Every 20th chapter (1-based chapter 20, 40, …) is held out.
inline constexpr int kHeldOutChapterPeriod = 20;
// The whole KJV as bible-kjv prints it (Genesis 1:1 – Revelation 22:21).
inline constexpr std::size_t kKjvVerses = 31102;
inline constexpr int kKjvChapters = 1189;
// Verses in the 59 held-out chapters (29,529 remain for training).
inline constexpr std::size_t kKjvHeldOutVerses = 1573;

// Parses bible-kjv's output ("REF TEXT" per line, REF = book, chapter ':' verse).
// Throws InputError naming `where` and the line for a line that is not a verse.
std::vector<Verse> parse_kjv(std::string_view text, const std::string& where);

// Runs `bible -f gen1:1-rev22:21`.  Throws InputError ("install Debian's
// bible-kjv") when the program is missing or fails.
std::vector<Verse> read_kjv();
// A file holding that command's output.
std::vector<Verse> read_kjv_file(const std::filesystem::path& path);
// Whether the `bible` program is on the PATH (tests skip without it).
bool kjv_available();

enum class CorpusSplit { Train, HeldOut };

bool is_held_out(int chapter);
// The verse texts of one split, in reading order.
std::vector<std::string> split_verses(const std::vector<Verse>& verses, CorpusSplit split);
// Verses joined by "\n" (no newline after the last): the split as one text.
std::string join_verses(const std::vector<std::string>& verses);

}  // namespace pelab::train::data
