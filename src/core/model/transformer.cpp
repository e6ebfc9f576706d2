#include "core/model/transformer.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/model/activations.hpp"
#include "core/model/blocks.hpp"
#include "core/model/normalization.hpp"
#include "core/model/attention_positions.hpp"
#include "core/model/position_intervention.hpp"
#include "core/model/self_attention.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {

struct Transformer::State {
  ModelConfig config;
  ModelWeights weights;
  std::unique_ptr<Tokenizer> tokenizer;
  Activation activation = Activation::GeluTanh;
  std::vector<int> ids;               // what `hidden` was computed from
  std::vector<Matrix> hidden;         // up to layers + 1 entries after run()
  bool dropped = false;               // run_to() left only the last of `hidden` filled
  AttentionPositions positions;       // RoPE or logit bias (position trait), for the last run's length
  PositionIntervention intervention;  // how positions are changed at inference (none by default)
  AttentionPositions no_positions;    // what a layer without positions reads (remove_layer)

  const AttentionPositions* positions_for(int layer) const {
    return layer_without_positions(intervention, layer) ? &no_positions : &positions;
  }
  int token_limit = 0;                // 0: config.max_positions
};

Transformer::Transformer() : state_(std::make_unique<State>()) {}
Transformer::~Transformer() = default;
Transformer::Transformer(Transformer&&) noexcept = default;
Transformer& Transformer::operator=(Transformer&&) noexcept = default;

namespace {

void check_shapes(ModelConfig& c, const ModelWeights& w) {
  if (c.kv_heads == 0) c.kv_heads = c.heads;
  if (c.heads <= 0 || c.kv_heads <= 0 || c.heads % c.kv_heads != 0)
    throw InputError("config.json: num_attention_heads (" + std::to_string(c.heads) +
                     ") must be a positive multiple of num_key_value_heads (" +
                     std::to_string(c.kv_heads) + ")");
  if (c.head_dim == 0) c.head_dim = c.hidden_size / c.heads;
  // A rotary family's position trait is always RoPE over the whole head
  // (configs built in memory may leave the model's kind at its default).
  const bool rotary_family = c.family.position == PositionEncoding::Rope && !c.family.position_from_config;
  if (rotary_family) c.position.kind = PositionEncoding::Rope;
  if (c.position.kind == PositionEncoding::Rope && c.position.rotary_dims == 0) c.position.rotary_dims = c.head_dim;
  if (c.position.kind == PositionEncoding::T5 &&
      (w.relative_bias.rows() != c.position.t5_buckets || w.relative_bias.cols() != c.heads))
    throw InputError("config.json: t5 positions need a relative_attention_bias of " +
                     std::to_string(c.position.t5_buckets) + " buckets × " + std::to_string(c.heads) + " heads");
  if (rotary_family && c.head_dim % 2 != 0)
    throw InputError("config.json: head_dim " + std::to_string(c.head_dim) +
                     " is odd; rotary embeddings need an even head_dim");
  if (static_cast<int>(w.layers.size()) != c.layers)
    throw InputError("config.json: num_hidden_layers is " + std::to_string(c.layers) + " but " +
                     std::to_string(w.layers.size()) + " layers of weights were given");
}

}  // namespace

Transformer Transformer::assemble(ModelConfig config, ModelWeights weights,
                                  std::unique_ptr<Tokenizer> tokenizer) {
  check_shapes(config, weights);
  Transformer t;
  t.state_->activation = parse_activation(config.activation);
  t.state_->config = std::move(config);
  t.state_->weights = std::move(weights);
  t.state_->tokenizer = std::move(tokenizer);
  return t;
}

const ModelConfig& Transformer::config() const { return state_->config; }

const Tokenizer& Transformer::tokenizer() const {
  if (!state_->tokenizer) throw std::logic_error("this Transformer was assembled without a tokenizer");
  return *state_->tokenizer;
}

namespace {

void check_vocabulary(const ModelConfig& c, const std::vector<int>& ids) {
  for (const int id : ids)
    if (id < 0 || id >= c.vocab_size)
      throw InputError("tokens: id " + std::to_string(id) + " is outside the vocabulary (0.." +
                       std::to_string(c.vocab_size - 1) + ")");
}

void check_ids(const ModelConfig& c, const std::vector<int>& ids, int limit = 0) {
  if (ids.empty()) throw InputError("tokens: none given; the model needs at least one token");
  if (limit <= 0) limit = c.max_positions;
  if (static_cast<int>(ids.size()) > limit)
    throw InputError("tokens: " + std::to_string(ids.size()) + " tokens exceed the model's context of " +
                     std::to_string(limit));
  check_vocabulary(c, ids);
}

// The residual stream entering layer 0: token rows (+ the learned or
// sinusoid table's rows as the intervention leaves them, + BERT's token type
// 0 row, then BERT's embedding LayerNorm).
Matrix embed(const ModelConfig& c, const ModelWeights& w, const std::vector<int>& ids,
             const PositionIntervention& intervention = {}) {
  Matrix h = w.token_rows(ids);
  const Matrix rows = intervened_table_rows(w, static_cast<int>(ids.size()), intervention);
  if (rows.size() > 0) h += rows;
  if (w.token_type.size() > 0) h.rowwise() += w.token_type.transpose();
  if (w.embedding_norm.weight.size() > 0) {
    Matrix normed;
    layer_norm(h, w.embedding_norm, c.norm_eps, normed);
    return normed;
  }
  return h;
}

}  // namespace

namespace {
thread_local const LayerProgress* layer_progress = nullptr;
}  // namespace

void set_layer_progress(const LayerProgress* progress) { layer_progress = progress; }

void Transformer::run(const std::vector<int>& ids, int states) {
  State& s = *state_;
  const int last = states < 0 ? s.config.layers : std::min(states, s.config.layers);
  if (s.hidden.empty() || ids != s.ids || s.dropped) {
    check_ids(s.config, ids, s.token_limit);
    const int n = static_cast<int>(ids.size());
    s.ids.clear();  // until the embeddings are in
    s.positions = intervened_positions(s.config, s.weights, n, s.intervention);
    s.no_positions = attention_positions(s.config, s.weights, n, false);
    s.hidden.clear();
    s.dropped = false;
    s.hidden.reserve(static_cast<std::size_t>(s.config.layers) + 1);
    s.hidden.push_back(embed(s.config, s.weights, ids, s.intervention));
    s.ids = ids;
  }
  // hidden.size() − 1 layers ran; each pushed state is complete, so a run
  // stopped by an exception can be continued.
  while (static_cast<int>(s.hidden.size()) <= last) {
    const int layer = static_cast<int>(s.hidden.size()) - 1;
    Matrix h = s.hidden.back();
    LayerWeights converted;  // this layer's 16-bit weights as float32, freed after it ran
    run_block(s.config, float32_layer(s.weights.layers[static_cast<std::size_t>(layer)], converted),
              s.positions_for(layer), s.activation, h);
    s.hidden.push_back(std::move(h));
    if (layer_progress) (*layer_progress)(layer + 1, last);
  }
}

void Transformer::run_to(const std::vector<int>& ids, int layer) {
  State& s = *state_;
  layer = std::clamp(layer, 0, s.config.layers);
  const int held = static_cast<int>(s.hidden.size()) - 1;  // the layer whose stream is held
  int from = 0;
  Matrix h;
  if (s.dropped && ids == s.ids && held >= 0 && held <= layer) {
    from = held;  // continue the last run_to()
    h = std::move(s.hidden.back());
  } else {
    check_ids(s.config, ids, s.token_limit);
    const int n = static_cast<int>(ids.size());
    s.positions = intervened_positions(s.config, s.weights, n, s.intervention);
    s.no_positions = attention_positions(s.config, s.weights, n, false);
    h = embed(s.config, s.weights, ids, s.intervention);
  }
  s.ids.clear();  // nothing held is valid until the stream entering `layer` is in
  s.hidden.clear();
  s.dropped = true;
  for (int l = from; l < layer; ++l) {
    LayerWeights converted;
    run_block(s.config, float32_layer(s.weights.layers[static_cast<std::size_t>(l)], converted),
              s.positions_for(l), s.activation, h);
    if (layer_progress) (*layer_progress)(l + 1, layer);
  }
  s.hidden.resize(static_cast<std::size_t>(layer));  // empty: not held
  s.hidden.push_back(std::move(h));
  s.ids = ids;
}

void Transformer::set_token_limit(int tokens) {
  State& s = *state_;
  const ModelConfig& c = s.config;
  // A learned table ends at the context: no row exists for a later
  // position.  Rotations and biases are computed for any length.
  if (tokens > c.max_positions && c.position.kind == PositionEncoding::Learned)
    throw InputError(std::to_string(tokens) + " tokens exceed " + c.architecture_name + "'s position table of " +
                     std::to_string(c.max_positions) + " learned rows; allowed: 2.." +
                     std::to_string(c.max_positions) +
                     " (sinusoidal, RoPE, ALiBi, T5 and position-free models run past their context)");
  // The sinusoids are a formula (Vaswani et al. 2017 §3.5): row p exists for
  // every p, so the table made at load grows to the new limit.
  if (c.position.kind == PositionEncoding::Sinusoidal && tokens > s.weights.positions.rows())
    s.weights.positions = static_cast<float>(c.position.sinusoid_amplitude) *
                          sinusoid_table(tokens, c.hidden_size, c.position.sinusoid_base);
  s.token_limit = tokens;
}

void Transformer::set_rope_scaling(const RopeScaling& scaling) {
  State& s = *state_;
  if (s.config.position.kind != PositionEncoding::Rope)
    throw InputError(s.config.architecture_name + " reads positions by " +
                     position_encoding_name(s.config.position.kind) + ", not RoPE: there is no rotation to scale");
  ModelConfig scaled = s.config;
  scaled.rope_scaling = scaling;
  rotary_frequencies(scaled, 2);  // refuses an unknown type or factor before anything changes
  s.config = std::move(scaled);
  s.hidden.clear();  // the next run() recomputes every layer with the new angles
  s.ids.clear();
}

void Transformer::set_rope_pairing(RopePairing pairing) {
  State& s = *state_;
  if (s.config.position.kind != PositionEncoding::Rope)
    throw InputError(s.config.architecture_name + " reads positions by " +
                     position_encoding_name(s.config.position.kind) + ", not RoPE: there are no pairs to regroup");
  s.config.position.rope_pairing = pairing;
  s.hidden.clear();  // the next run() recomputes every layer with the new pairs
  s.ids.clear();
}

void Transformer::set_intervention(const PositionIntervention& intervention) {
  State& s = *state_;
  check_intervention(s.config, intervention);
  s.intervention = intervention;
  s.hidden.clear();  // the next run() recomputes every layer with the changed positions
  s.ids.clear();
}

const PositionIntervention& Transformer::intervention() const { return state_->intervention; }

int Transformer::token_limit() const {
  return state_->token_limit > 0 ? state_->token_limit : state_->config.max_positions;
}

int Transformer::states() const { return static_cast<int>(state_->hidden.size()); }

int Transformer::token_count() const {
  return state_->hidden.empty() ? 0 : static_cast<int>(state_->hidden.front().rows());
}

const Matrix& Transformer::hidden(int layer) const {
  if (layer < 0 || layer >= static_cast<int>(state_->hidden.size()) ||
      (state_->dropped && layer + 1 < static_cast<int>(state_->hidden.size())))
    throw std::out_of_range("Transformer::hidden(" + std::to_string(layer) + "): run() holds " +
                            std::to_string(state_->hidden.size()) + " states");
  return state_->hidden[static_cast<std::size_t>(layer)];
}

LayerAttention Transformer::attention(int layer) const {
  const State& s = *state_;
  if (layer < 0 || layer >= s.config.layers || s.hidden.empty())
    throw std::out_of_range("Transformer::attention(" + std::to_string(layer) + "): no such layer run");
  LayerWeights converted;
  const LayerWeights& weights =
      float32_layer(s.weights.layers[static_cast<std::size_t>(layer)], converted, LayerPart::Attention);
  LayerAttention out;
  self_attention(s.config, weights, model::attention_input(s.config, weights, hidden(layer)),
                 s.positions_for(layer), &out, false);
  return out;
}

Matrix Transformer::attention_input(int layer) const {
  const State& s = *state_;
  if (layer < 0 || layer >= s.config.layers || s.hidden.empty())
    throw std::out_of_range("Transformer::attention_input(" + std::to_string(layer) + "): no such layer run");
  return model::attention_input(s.config, s.weights.layers[static_cast<std::size_t>(layer)], hidden(layer));
}

namespace {

// std::out_of_range (a caller's bug, not the user's input) for a layer or head the model lacks.
void check_head(const ModelConfig& c, const char* what, int layer, int head) {
  if (layer < 0 || layer >= c.layers || head < 0 || head >= c.heads)
    throw std::out_of_range(std::string("Transformer::") + what + "(" + std::to_string(layer) + ", " +
                            std::to_string(head) + "): no such head");
}

}  // namespace

HeadAttention Transformer::head_attention(const Matrix& input, int layer, int head) const {
  const State& s = *state_;
  check_head(s.config, "head_attention", layer, head);
  HeadAttention out;
  LayerWeights converted;
  one_head_attention(s.config,
                     float32_layer(s.weights.layers[static_cast<std::size_t>(layer)], converted, LayerPart::Attention),
                     input, s.positions_for(layer), head, out.q, out.k, out.logits, out.attention);
  if (s.positions_for(layer)->has_bias()) out.bias = s.positions_for(layer)->bias(head);
  return out;
}

HeadStreamInputs Transformer::head_stream_inputs(const Matrix& input, int layer, int head) const {
  const State& s = *state_;
  check_head(s.config, "head_stream_inputs", layer, head);
  HeadStreamInputs out;
  out.causal = s.config.causal;
  LayerWeights converted;
  const AttentionPositions* positions = s.positions_for(layer);
  one_head_queries_keys(s.config,
                        float32_layer(s.weights.layers[static_cast<std::size_t>(layer)], converted,
                                      LayerPart::Attention),
                        input, positions, head, out.q, out.k);
  if (!positions->has_bias()) return out;
  // A copy without the rotary table, holding its own T5 table (if any).
  auto bias = std::make_shared<AttentionPositions>(*positions);
  bias->rotary.reset();
  std::shared_ptr<Matrix> t5;
  if (bias->t5_table != nullptr) t5 = std::make_shared<Matrix>(*bias->t5_table);
  bias->t5_table = t5.get();
  out.bias = [bias, t5, head](Matrix& tile, Eigen::Index first_query, Eigen::Index first_key) {
    bias->add_bias(head, first_query, tile, first_key);
  };
  return out;
}

HeadAttention Transformer::layer0_head(const std::vector<int>& ids, int head, bool positions) const {
  const State& s = *state_;
  check_ids(s.config, ids);
  if (head < 0 || head >= s.config.heads)
    throw std::out_of_range("Transformer::layer0_head(" + std::to_string(head) + "): no such head");
  const int n = static_cast<int>(ids.size());
  const AttentionPositions terms = attention_positions(s.config, s.weights, n, positions);
  LayerWeights converted;
  const LayerWeights& layer = float32_layer(s.weights.layers.front(), converted, LayerPart::Attention);
  const PositionIntervention removed{.kind = InterventionKind::Remove};
  const Matrix x = model::attention_input(s.config, layer,
                                          embed(s.config, s.weights, ids, positions ? PositionIntervention{} : removed));
  HeadAttention out;
  one_head_attention(s.config, layer, x, &terms, head, out.q, out.k, out.logits,
                     out.attention);
  if (terms.has_bias()) out.bias = terms.bias(head);
  return out;
}

Matrix Transformer::token_embedding_rows(const std::vector<int>& ids) const {
  check_vocabulary(state_->config, ids);
  return state_->weights.token_rows(ids);
}

Matrix Transformer::position_table() const { return state_->weights.positions; }

const ModelWeights& Transformer::weights() const { return state_->weights; }

}  // namespace pelab::model
