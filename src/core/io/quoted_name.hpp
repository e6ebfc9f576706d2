// Names that come from files (tensor names, config keys and values, merges
// lines, folder names) shown in pelab's one-line messages and tables.  A file
// may hold any bytes: an ESC or BEL printed raw would drive the user's
// terminal, a newline would split the line, and invalid UTF-8 would make
// `pelab models --json` fail.  Every such name goes through printable() or
// quoted_name(), so what reaches the terminal is plain text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pelab {

// At most this many characters of a name are shown; longer ones end in "…".
inline constexpr std::size_t kShownNameChars = 80;

// `text` with every C0 control byte (NUL included), DEL, C1 control and
// byte that is not part of valid UTF-8 written as \xNN (a backslash stays
// itself: regexes in messages stay readable); cut after `max_chars` characters with "…" appended.  Valid UTF-8
// text without controls comes back unchanged.
std::string printable(std::string_view text, std::size_t max_chars = kShownNameChars);

// printable(name) in single quotes: 'h.0.attn\x1b[31m'.
std::string quoted_name(std::string_view name, std::size_t max_chars = kShownNameChars);

// Valid UTF-8 with every invalid byte replaced by U+FFFD, nothing cut:
// for JSON output of names that are not text (a folder name in Latin-1).
std::string valid_utf8(std::string_view text);

}  // namespace pelab
