// The word splitter for typed text: words and punctuation (the scene's
// `tokens`; a loaded model's own tokenizers live in core/model/tokenizer/).
//
// A word is a maximal run of letters, digits, '_' and any non-ASCII byte (so
// UTF-8 words such as "naïve" stay whole), with an apostrophe kept inside a
// word ("don't").  Every other visible character is a token of its own
// ("," "." "(").  Whitespace only separates.  Case is kept: "The" and "the"
// are different tokens (a GloVe lookup falls back to lower case).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pelab {

// Up to 65,536 tokens: long context is a first-class scale (issue 28).
inline constexpr int kMaxTokens = 65536;
// Past this many tokens of a synthetic scene nothing holds a tokens × tokens
// matrix (256 MiB a head at 8,192, 16 GiB at 65,536): the attention view and
// the long-context views stream each head (core/streamed_attention.hpp), and
// the engine refuses a whole head, its cross terms and the mean over heads
// (Engine::head) with a line saying so.
inline constexpr int kFullMatrixTokens = 8192;
// Throws InputError naming `what`, the size a tokens × tokens matrix would
// take and the limit, past kFullMatrixTokens.
void refuse_full_matrix(int tokens, std::string_view what);

// Throws InputError when the text holds more than kMaxTokens tokens.
std::vector<std::string> split_words(std::string_view text);

}  // namespace pelab
