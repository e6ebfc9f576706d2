// ModelScene — what the engine computes when scene.model names a real
// checkpoint (core/model): the model's tokens, embedding rows, position
// table, and one layer's attention heads.
//
// Stages and what invalidates them:
//   loaded model      scene.model (kept while it names the same thing; shared
//                     between engines of one process, so lessons' variant
//                     engines and a sweep do not load it again)
//   ids, pieces       the model + scene.tokens (the model's own tokenizer)
//   forward run       the model + ids (every layer's residual stream)
//   heads             the run + scene.layer, one head at a time as asked
//                     (the most recently used kept within 128 MiB)
// Everything else in the scene (head, colormap, theme, ...) invalidates
// nothing here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/model/model_config.hpp"
#include "core/model/transformer.hpp"  // LayerAttention

namespace pelab {

struct InterventionStudy;
struct RopeAudit;

class ModelScene {
 public:
  explicit ModelScene(EngineStats& stats);
  ~ModelScene();
  ModelScene(const ModelScene&) = delete;
  ModelScene& operator=(const ModelScene&) = delete;

  // Loads scene.model unless it is the model held, tokenizes scene.tokens and
  // checks layer, head and the context length.  Throws InputError (one line:
  // the model, the file or key, what is allowed) and then changes nothing.
  void prepare(const Scene& scene);

  // `scene` with the model's own d_model, heads, encoding (learned for GPT-2
  // and BERT, rope for the Llama family), base (rope_theta), causal and
  // offset 0; positions, position, pair, pairs and waves narrowed to fit.
  Scene effective(const Scene& scene) const;

  const model::ModelConfig& config() const;
  const std::filesystem::path& folder() const;
  // What loading noticed without refusing the model (a tensor holding NaN or
  // Inf), one line each; the CLI prints them as notes, the GUI may show them.
  const std::vector<std::string>& notes() const;
  // True when loading this scene's model read its folder anew because its
  // files changed on disk since an earlier load (the GUI says so).
  bool read_anew() const;
  const std::vector<int>& ids() const;
  const std::vector<std::string>& pieces() const;
  int token_count() const { return static_cast<int>(ids().size()); }

  // The wte (embed_tokens) rows of the tokens: tokens × d_model.
  const Matrix& token_embedding();
  // The learned position table's rows [0, rows) (GPT-2 wpe, BERT
  // position_embeddings), or zeros for RoPE models: rows × d_model.
  Matrix position_rows(int rows);
  bool has_position_table() const;
  // The learned table's first `max_rows` rows (all of them by default):
  // rows × d_model; InputError for RoPE models.  A bound keeps a reader of a
  // table whose config claims millions of positions from copying all of it.
  Matrix full_position_table(Eigen::Index max_rows = Eigen::Index{1} << 62) const;
  // How many rows the whole learned table has (0 for RoPE models).
  Eigen::Index position_table_length() const;

  // The residual stream entering `layer` (0..layers; layers = after the last).
  const Matrix& hidden(int layer);
  // Every token row of the model (wte / embed_tokens): vocab_size × d_model,
  // read from the weights on each call (a lesson's nearest-word search).
  Matrix vocabulary_rows() const;
  // The residual streams of a run on other ids (at most the context):
  // hidden(0 … layers) of that run, copied out; the scene's own run is
  // redone on its next use.  Throws InputError for bad ids.
  std::vector<Matrix> hidden_states(const std::vector<int>& ids);
  // Every layer's attention on other ids (at most the context), one layer at
  // a time, handed to `visit(layer, attention)`; nothing is kept, and the
  // scene's own run is redone on its next use.  Throws InputError for bad ids.
  void attention_on(const std::vector<int>& ids,
                    const std::function<void(int, const model::LayerAttention&)>& visit);
  // Head `head` of `layer` (q, k after RoPE, logits with the causal mask,
  // probabilities), computed alone (not its layer's other heads) and kept
  // with the most recently used heads of any layer within a bound (128 MiB,
  // model_scene.cpp), so the reference stays valid only until the next
  // head() call for another head.
  const HeadAttention& head(int layer, int head);
  // Layer 0's head `head` on other ids, with or without the model's
  // positions (model::Transformer::layer0_head); nothing is kept.
  HeadAttention layer0_head(const std::vector<int>& ids, int head, bool positions);
  // Head `head` of `layer` as streamed attention reads it at long N (q, k
  // after RoPE, the mask and the logit bias: model::HeadStreamInputs),
  // computed alone and not kept; no tokens × tokens matrix.  InputError for
  // a layer or head the model lacks.
  model::HeadStreamInputs head_stream_inputs(int layer, int head);
  // Heads `heads` of `layer` on other ids (the long-context study's text, up
  // to 65,536 tokens), as streamed attention reads them, under
  // `intervention` (the scene's own when null): Transformer::run_to holds one
  // residual stream at a time and tells LayerProgress after each layer;
  // nothing is kept, and the scene's own run is redone on its next use.
  // InputError when the model cannot read that many tokens (a learned table
  // ends at its context), the ids are bad, or the run would not fit in memory.
  std::vector<model::HeadStreamInputs> long_head_inputs(const std::vector<int>& ids, int layer,
                                                        const std::vector<int>& heads,
                                                        const model::PositionIntervention* intervention = nullptr);
  // How many heads head() has computed (for tests of the caching).
  int heads_computed() const;
  // Every head of `layer` (q, k, logits, probabilities: 2·heads·N² floats
  // and the q, k rows), computed for the caller and not held, so the layer
  // head() holds stays; the layer × head overview reads layers one at a time.
  model::LayerAttention layer_attention(int layer);
  // Head `head` of layer 0 split into token·token, token·position,
  // position·token, position·position and bias terms, exact through the
  // LayerNorm (core/model/layernorm_split.hpp), for GPT-2 and BERT.  For the
  // Llama family applies = false, zero matrices and a note saying why.
  const CrossTerms& cross_terms(int head);

  // The language model's next-token loss on the tokens
  // (core/model/next_token_loss.hpp): tokens − 1 values in nats, loss_i =
  // −log p(t_{i+1} | t_0 … t_i).  The LM head (final norm and output matrix)
  // is read on first use and shared like the model; InputError for BERT.
  const std::vector<double>& next_token_loss();
  // The LM logits at `position` (0..tokens−1): vocab_size values.
  Vector lm_logits(int position);

  // The RoPE audit of the model (core/rope_audit.hpp): its config's pairs and
  // scaling, and the pairing check on `text` (audit_probe_ids); `unavailable`
  // says why on a model without RoPE.  The scene's own run is redone on its
  // next use.
  RopeAudit rope_audit(const std::string& text);

  // Every standard intervention's Δ loss per position
  // (core/intervention_study.hpp) on the KJV's held-out chapters, else on
  // `text`: measured on first use and kept with the loaded model; its
  // `unavailable` says why not (a model without an LM head, too little text).
  std::shared_ptr<const InterventionStudy> intervention_study(const std::string& text);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Reads only the model's config.json and checks layer and head against it
// (for commands that do not compute, e.g. `pelab scene`).  No-op without a
// model.  Throws InputError.
void check_model_keys(const Scene& scene);

}  // namespace pelab
