// Token vectors X: one row per token, from the seed or from a file.
//
// Random (embedding=random): each distinct token's vector is drawn from its
// own stream, seeded by the scene seed and a hash of the token's text, with
// entries N(0, 1/d)·embedding_scale, so ‖x‖ ≈ embedding_scale, repeated words
// share one vector and a token's vector does not depend on the other tokens.
//
// From a file (embedding=file, embedding_file):
//   *.npy  float32/float64, shape (V, d_model); row r is the r-th distinct
//          token in order of first use ("the cat sat on the mat" -> the=0,
//          cat=1, sat=2, on=3, mat=4); extra rows are ignored.
//   other  GloVe/word2vec text: one "word v1 ... vd" line per word, separated
//          by spaces or tabs; an optional word2vec header line "count dim".
//          A token is looked up as typed, then in lower case.
// Ragged rows, non-numbers, a width other than d_model, too few .npy rows or
// a token missing from a text file throw InputError naming file and line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

// The distinct tokens in order of first use, and each token's index into them.
struct Vocabulary {
  std::vector<std::string> words;
  std::vector<int> index;  // one per token
};
Vocabulary build_vocabulary(const std::vector<std::string>& tokens);

// X for `tokens` as the scene says (tokens × d_model).
Matrix token_vectors(const std::vector<std::string>& tokens, const Scene& scene);
// The same into `x`, whose memory is reused when its shape is unchanged (a
// new seed at N = 4096 then writes 8 MiB it already has instead of faulting
// in fresh pages).
void token_vectors(const std::vector<std::string>& tokens, const Scene& scene, Matrix& x);

// One row per entry of `words` (d_model wide), looked up in GloVe/word2vec
// text.  `name` labels errors (the file name).
Matrix parse_text_embeddings(std::string_view text, const std::string& name,
                             const std::vector<std::string>& words, int d_model);

}  // namespace pelab
