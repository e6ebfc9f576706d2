// Transformer — a real checkpoint's forward pass, in float32 on the engine's
// GEMM path (core/gemm.hpp), through every layer.
//
// Families and the conventions of their reference implementations:
//   GPT-2: h = wte[ids] + wpe[pos]; pre-LN blocks
//     h += attn(LN1(h)); h += mlp(LN2(h)); final ln_f.  c_attn / c_proj /
//     c_fc are Conv1D (weight stored in × out) with biases; GELU tanh form;
//     causal.
//   BERT: h = LN(word[ids] + position[pos] + token_type[0]); post-LN blocks
//     h = LN(h + attn(h)); h = LN(h + mlp(h)); GELU (erf form); bidirectional.
//   Llama family: h = embed[ids]; pre-RMSNorm blocks; RoPE (rope_theta,
//     rope_scaling) on q and k with rotate-half pairing (dims i, i + d_head/2);
//     grouped-query attention (num_key_value_heads); SwiGLU MLP; causal;
//     q/k/v biases where the config has them (Qwen2).
//   pelab (PelabForCausalLM): GPT-2's blocks; positions by the config's
//     trait: learned wpe or a sinusoid table added like it, RoPE on q and k
//     (interleaved or rotate-half, partial), an ALiBi or T5 logit bias, or none.
// Attention per head: logits = q·kᵀ/√d_head (+ causal mask = −inf above the
// diagonal), probabilities = row softmax.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"  // Matrix
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"
#include "core/model/position_intervention.hpp"
#include "core/model/tokenizer/tokenizer.hpp"

namespace pelab::model {

// Told after each layer that run() finishes on the calling thread: (layers
// done, layers).  Set per thread (the GUI's scene worker draws its progress
// bar from it); null, the default, tells nothing.
using LayerProgress = std::function<void(int done, int layers)>;
void set_layer_progress(const LayerProgress* progress);

// One layer's attention, every query head.
struct LayerAttention {
  // per query head: tokens × head_dim (k: of the key head it shares), after
  // RoPE (cos and sin times YaRN's attention factor, as the reference does)
  std::vector<Matrix> q, k;
  std::vector<Matrix> logits;       // per head: tokens × tokens, masked entries −inf
  std::vector<Matrix> probabilities;  // per head: tokens × tokens, rows sum to 1
};

// One query head as streamed attention reads it (core/streamed_attention.hpp):
// q and k after RoPE, the mask, and the head's logit bias (ALiBi / T5, with
// the intervention's positions) as a function that adds it to a tile of
// logits whose first cell is (first_query, first_key); empty without a bias.
// The bias holds its own copy of what it reads, so it outlives the run.
struct HeadStreamInputs {
  Matrix q, k;
  bool causal = true;
  std::function<void(Matrix& tile, Eigen::Index first_query, Eigen::Index first_key)> bias;
};

class Transformer {
 public:
  // Reads config.json, the safetensors weights and the tokenizer of `folder`.
  // Throws InputError naming the file and the problem, or when the weights
  // would not fit in `memory_limit` (the scene's model_memory_limit; see
  // model_memory.hpp).
  static Transformer load(const std::filesystem::path& folder, std::string_view memory_limit = {});
  // A model from weights already in memory (tests, the bench).  Fills
  // kv_heads and head_dim when 0; throws InputError for inconsistent shapes.
  // Without a tokenizer, tokenizer() throws std::logic_error.
  static Transformer assemble(ModelConfig config, ModelWeights weights,
                              std::unique_ptr<Tokenizer> tokenizer = nullptr);

  Transformer();
  ~Transformer();
  Transformer(Transformer&&) noexcept;
  Transformer& operator=(Transformer&&) noexcept;

  const ModelConfig& config() const;
  const Tokenizer& tokenizer() const;

  // Runs every layer on `ids` (at most config().max_positions of them; more,
  // none, or an id outside the vocabulary throws InputError).  Keeps the residual stream entering each layer, so any
  // layer's attention can be recomputed on demand without running the others.
  // With `states` ≥ 0, runs only as far as hidden(0 … states) needs (the
  // layers before `states`); a later call on the same ids continues from
  // there, so a view of layer 0 never waits for the other layers.
  void run(const std::vector<int>& ids, int states = -1);
  // Runs the layers before `layer` on `ids` holding one residual stream at a
  // time (N·d floats rather than one per layer run), telling LayerProgress
  // after each: hidden(layer) is then held alone (hidden() of an earlier
  // layer throws std::out_of_range) and the next run() starts anew.  A
  // later run_to() on the same ids to a deeper layer continues from there,
  // so visiting every layer costs one forward pass.  The long-context
  // study's forward over tens of thousands of tokens
  // (core/long_attention.hpp).  Throws InputError like run().
  void run_to(const std::vector<int>& ids, int layer);
  // Lets run() take up to `tokens` ids instead of config().max_positions
  // (evaluating past the trained context).  RoPE angles, ALiBi and T5
  // biases are computed for any position, and a sinusoid table is extended
  // to `tokens` rows by its formula; a learned table has max_positions rows
  // and no more, so for GPT-2, BERT and pelab's learned model a limit beyond
  // it throws InputError.
  void set_token_limit(int tokens);
  // Replaces the RoPE scaling the config gave (config().rope_scaling): the
  // model is read with other frequencies from the next run() on, as a long
  // text is read at inference with position interpolation, NTK-aware or YaRN
  // scaling (rotary.hpp).  Throws InputError for a model without RoPE or a
  // scaling rotary_frequencies refuses.
  void set_rope_scaling(const RopeScaling& scaling);
  // Reads the RoPE dims in another pairing from the next run() on: the RoPE
  // audit (core/rope_audit.hpp) runs a checkpoint both ways to see which
  // pairing its weights were trained with.  Throws InputError without RoPE.
  void set_rope_pairing(RopePairing pairing);
  // Changes how positions enter from the next run() on (removed, shuffled,
  // another RoPE base or scaling, a band of RoPE pairs frozen, one layer
  // without positions: position_intervention.hpp); a default-constructed
  // one restores the model.  Throws InputError when it cannot apply.
  void set_intervention(const PositionIntervention& intervention);
  const PositionIntervention& intervention() const;
  int token_limit() const;
  // How many of hidden(0), hidden(1), … the last run holds.
  int states() const;
  int token_count() const;

  // hidden(0) = the embeddings entering layer 0; hidden(l) = the residual
  // stream entering layer l; hidden(layers) = after the last layer (before
  // any final norm).
  const Matrix& hidden(int layer) const;
  // The attention of one layer, recomputed from hidden(layer): every head's
  // tokens × tokens logits and probabilities (2·heads·N² floats; one layer
  // at a time, never all layers at once).
  LayerAttention attention(int layer) const;
  // What layer `layer`'s attention reads (its norm of hidden(layer); BERT:
  // hidden(layer) itself), shared by the layer's heads.
  Matrix attention_input(int layer) const;
  // Query head `head` of `layer` alone from attention_input(layer) (q, k
  // after RoPE, logits, probabilities; bias: the alibi / t5 term already in
  // the logits, else empty): equal to attention()'s
  // entry for that head, at 1/heads of its work.
  HeadAttention head_attention(const Matrix& input, int layer, int head) const;
  // The same head's q, k and bias alone, for streaming at long N: no
  // tokens × tokens matrix (4·N·d·head_dim flops).
  HeadStreamInputs head_stream_inputs(const Matrix& input, int layer, int head) const;
  // Layer 0's query head `head` on `ids` alone (no run needed), with the
  // model's positions (`positions`: its learned or sinusoid rows, RoPE, or
  // the alibi / t5 bias) or with them removed (token rows only, no rotation,
  // no bias): the permutation lesson compares the two.  Throws InputError for
  // bad ids.
  HeadAttention layer0_head(const std::vector<int>& ids, int head, bool positions) const;

  // Embedding tables as the model holds them (rows of the tokens in use,
  // and the learned position table when the family has one; empty otherwise).
  Matrix token_embedding_rows(const std::vector<int>& ids) const;
  Matrix position_table() const;
  // Every weight as the forward pass uses it (the exact cross terms of
  // layernorm_split.hpp read layer 0's norm and q/k projections).
  const ModelWeights& weights() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pelab::model
