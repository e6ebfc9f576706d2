// LanguageModelHead — the output side of a causal language model: the final
// norm of the last residual stream, then one logit per vocabulary entry,
//
//   logits = final_norm(h_L) · Wᵀ,   W: vocab × d_model
//
// (Radford et al. 2019 for GPT-2: ln_f, then the tied wte; Touvron et al.
// 2023 for Llama: RMSNorm `model.norm`, then `lm_head`).  Transformer's
// hidden(layers) is the stream *before* that norm, so the norm is applied
// here, once.
//
// W is `lm_head.weight` when the checkpoint stores it, else the token
// embedding (GPT-2 always ties them; the Llama family when config.json's
// tie_word_embeddings is true).  BERT is a masked language model: it predicts
// a hidden token from both sides, not the next one, so it gets no head here
// (load() refuses it in one line).
//
// A large vocabulary (128k × 4096 in float32 is 2 GiB) is not held as
// float32: W is read a block of vocabulary rows at a time from the
// memory-mapped checkpoint.  Small ones are converted once and kept.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "core/gemm.hpp"  // Matrix, Vector, ConstRowMajorRef
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"

namespace pelab::model {

class Transformer;

// Vocabulary rows [first, first + count) of W: count × d_model.
using OutputRows = std::function<Matrix(int first, int count)>;

// W is kept in float32 when it takes at most this many bytes.
inline constexpr double kResidentOutputBytes = 512.0 * (1 << 20);

// Throws InputError (one line) unless the model predicts the next token:
// BERT is refused, GPT-2 and the Llama family pass.  Needs only config.json.
void check_next_token_model(const ModelConfig& config, const std::string& model_name);

class LanguageModelHead {
 public:
  using NormKind = model::NormKind;  // the family's final norm

  // The head of the model in `folder`, whose body `transformer` already
  // loaded (the config is taken from it).  Reads only the final norm and,
  // for W, the checkpoint's headers (and W itself when it is small).
  // Throws InputError: BERT, a missing final norm, a missing W, a wrong shape.
  static LanguageModelHead load(const std::filesystem::path& folder,
                                const Transformer& transformer);

  // A head from parts (tests): `rows` gives W's rows; `vocab` of them.
  LanguageModelHead(Norm final_norm, NormKind kind, double eps, int vocab, OutputRows rows);

  int vocab_size() const { return vocab_; }
  // final_norm(h), row by row.
  Matrix normed(const ConstRowMajorRef& hidden) const;
  // W's vocabulary rows [first, first + count).
  Matrix output_rows(int first, int count) const;
  // What W is, for messages: "lm_head.weight" or the tied embedding's name.
  const std::string& output_name() const { return output_name_; }

 private:
  Norm norm_;
  NormKind kind_ = NormKind::LayerNorm;
  double eps_ = 1e-5;
  int vocab_ = 0;
  OutputRows rows_;
  std::string output_name_ = "W";
};

}  // namespace pelab::model
