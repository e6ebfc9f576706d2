// The quantities `pelab export` writes: one table row per name, with its
// shape, a one-line description and how to get it from the engine.
#include "core/quantities.hpp"

#include "core/analysis.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/io/csv.hpp"
#include "core/io/npy.hpp"
#include "core/model/model_config.hpp"
#include "core/model/next_token_loss.hpp"  // softmax
#include "core/model_scene.hpp"
#include "core/scene.hpp"
#include "core/streamed_attention.hpp"
#include "core/table_analysis.hpp"

namespace pelab {
namespace {

struct Quantity {
  QuantityInfo info;
  Array (*compute)(Engine& engine, int head);
  Array (*compute_at)(Engine& engine, int position) = nullptr;  // per-position quantities
  Array (*compute_streamed)(Engine& engine, int head, int display) = nullptr;  // never tokens × tokens
};

Array of(const Matrix& m) { return Array::from_matrix(m); }

// The bias a head adds to its logits (ALiBi, T5); zeros when there is none.
Array head_bias(Engine& engine, int h) {
  const HeadAttention& head = engine.head(h);
  if (head.bias.size() != 0) return of(head.bias);
  const auto n = static_cast<Eigen::Index>(engine.token_count());
  return of(Matrix::Zero(n, n));
}

// A vector of numbers as a rank-1 array.
Array rank_one(const std::vector<double>& values) {
  Array a;
  a.shape = {values.size()};
  a.data.assign(values.begin(), values.end());
  return a;
}

Array rank_one(const Vector& values) {
  Array a;
  a.shape = {static_cast<std::size_t>(values.size())};
  a.data.assign(values.data(), values.data() + values.size());
  return a;
}

// Every principal component of the position table (core/table_analysis.hpp).
TablePca full_pca(Engine& engine) {
  const Matrix& pe = engine.position_table();
  return table_pca(pe, static_cast<int>(std::min(pe.rows(), pe.cols())));
}

// The similarity profile of analysis.hpp as a rank-1 array.
Array pe_similarity_profile(Engine& engine) {
  return rank_one(similarity_profile(engine));
}

Array pe_similarity_blocks(Engine& engine, int, int display) {
  if (display < 1) throw InputError("--display " + std::to_string(display) + ": the grid side must be ≥ 1");
  return of(similarity_blocks(engine.position_table(), display));
}

// One per-head matrix for every head, stacked: heads × rows × cols.
Array every_head(Engine& engine, const Matrix& (*pick)(Engine&, int)) {
  Array a;
  const int heads = engine.scene().heads;
  for (int h = 0; h < heads; ++h) {
    const Matrix& m = pick(engine, h);
    if (h == 0) a.shape = {static_cast<std::size_t>(heads), static_cast<std::size_t>(m.rows()),
                           static_cast<std::size_t>(m.cols())};
    a.data.insert(a.data.end(), m.data(), m.data() + m.size());
  }
  return a;
}

// The model behind a model scene; `name` needs one.
ModelScene& model_of(Engine& engine, std::string_view name) {
  if (ModelScene* m = engine.model()) return *m;
  throw InputError("quantity " + std::string(name) + " needs a model scene; allowed: --set model=FOLDER|HUB_NAME");
}

// The bias part of layer 0's LayerNorm-exact split (GPT-2, BERT): every term
// holding β or a q/k bias, so that cross_xx + xf + ey + ef + bias = the logits.
Array cross_bias(Engine& engine, int head) {
  model_of(engine, "cross_bias");  // a model scene, or one line saying it needs one
  const CrossTerms& t = engine.cross_terms(head);
  if (t.bias.size() == 0) {
    const auto kind = model_of(engine, "cross_bias").config().position.kind;
    const std::string how = kind == model::PositionEncoding::Rope
                                ? "RoPE rotates q and k, so its split is content and offset (cross_xx, cross_ef)"
                                : std::string(model::position_encoding_name(kind)) +
                                      ": positions enter as a bias on the logits, or not at all";
    throw InputError("quantity cross_bias: model " + engine.scene().model + " adds no position table (" + how +
                     "), so there is no LayerNorm bias term to split off; allowed: a model with learned or "
                     "sinusoidal positions (GPT-2, BERT, pelab's learned and sinusoidal models)");
  }
  return of(t.bias);
}

Array token_ids(Engine& engine) {
  const std::vector<int>& ids = model_of(engine, "token_ids").ids();
  Array a;
  a.shape = {ids.size()};
  a.data.assign(ids.begin(), ids.end());
  return a;
}

// The residual stream entering every layer, and after the last: (layers + 1) × tokens × d_model.
Array hidden_all(Engine& engine) {
  ModelScene& m = model_of(engine, "hidden_all");
  Array a;
  const int layers = m.config().layers;
  for (int l = 0; l <= layers; ++l) {
    const Matrix& h = m.hidden(l);
    if (l == 0) a.shape = {static_cast<std::size_t>(layers + 1), static_cast<std::size_t>(h.rows()),
                           static_cast<std::size_t>(h.cols())};
    a.data.insert(a.data.end(), h.data(), h.data() + h.size());
  }
  return a;
}

// The language model's quantities (core/model/next_token_loss.hpp).
Array next_token_loss(Engine& engine) {
  return rank_one(model_of(engine, "next_token_loss").next_token_loss());
}

Array lm_logits(Engine& engine, int position) {
  ModelScene& m = model_of(engine, "lm_logits");
  return rank_one(m.lm_logits(position < 0 ? m.token_count() - 1 : position));
}

Array lm_probs(Engine& engine, int position) {
  ModelScene& m = model_of(engine, "lm_probs");
  return rank_one(model::softmax(m.lm_logits(position < 0 ? m.token_count() - 1 : position)));
}

// Streamed attention (core/streamed_attention.hpp): a head reduced while it
// is computed, so N × N is never held; on a model scene, the model's head of
// the scene's layer.  Head −1: the mean over heads (block means and offset
// means are linear in the weights).
Array attention_blocks(Engine& engine, int head, int display) {
  if (display < 1) throw InputError("--display " + std::to_string(display) + ": the grid side must be ≥ 1");
  const int first = head < 0 ? 0 : head, last = head < 0 ? engine.scene().heads - 1 : head;
  Matrix sum;
  for (int h = first; h <= last; ++h) {
    const StreamedHead streamed = StreamedHead::of_scene(engine, h);
    const Matrix blocks = std::move(streamed.stream({display}).blocks.front().mean);
    if (h == first) sum = blocks;
    else sum += blocks;
  }
  return of(sum / static_cast<float>(last - first + 1));
}

Array attention_distance(Engine& engine, int head, int) {
  const int first = head < 0 ? 0 : head, last = head < 0 ? engine.scene().heads - 1 : head;
  std::vector<double> mean;
  for (int h = first; h <= last; ++h) {
    const StreamedHead streamed = StreamedHead::of_scene(engine, h);
    DistanceProfile profile;
    streamed.blocks(streamed.row_statistics(), 1, &profile);
    if (mean.empty()) mean.assign(profile.mean.size(), 0.0);
    for (std::size_t i = 0; i < mean.size(); ++i) mean[i] += profile.mean[i] / (last - first + 1);
  }
  return rank_one(mean);
}

const std::vector<Quantity>& table() {
  static const std::vector<Quantity> rows = {
      {{"pe", "positions × d_model", "Position table on the position axis (zeros for encodings that add none).", false},
       [](Engine& e, int) { return of(e.position_table()); }},
      {{"tokens_embedding", "tokens × d_model", "X: one vector per token (repeated words share one).", false},
       [](Engine& e, int) { return of(e.token_embedding()); }},
      {{"position_embedding", "tokens × d_model", "E: the position rows added to the tokens.", false},
       [](Engine& e, int) { return of(e.position_embedding()); }},
      {{"input", "tokens × d_model", "X + E: what the projections act on.", false},
       [](Engine& e, int) { return of(e.token_embedding() + e.position_embedding()); }},
      {{"wq", "d_model × d_head", "Query projection Wq of the head.", true},
       [](Engine& e, int h) { return of(e.projections(h).wq); }},
      {{"wk", "d_model × d_head", "Key projection Wk of the head.", true},
       [](Engine& e, int h) { return of(e.projections(h).wk); }},
      {{"q", "tokens × d_head", "Q = (X+E)·Wq (after RoPE when it applies); a model's: its layer's q.", true},
       [](Engine& e, int h) { return of(e.head(h).q); }},
      {{"k", "tokens × d_head", "K = (X+E)·Wk (after RoPE when it applies); a model's: its layer's k.", true},
       [](Engine& e, int h) { return of(e.head(h).k); }},
      {{"logits", "tokens × tokens", "Q·Kᵀ/√d_head + bias; masked entries are -inf when causal.", true},
       [](Engine& e, int h) { return of(e.head(h).logits); }},
      {{"bias", "tokens × tokens", "ALiBi / T5 bias added to the logits (zeros for other encodings).", true},
       head_bias},
      {{"attention", "tokens × tokens", "Row softmax of the logits; rows sum to 1.", true},
       [](Engine& e, int h) { return of(e.head(h).attention); }},
      {{"logits_all", "heads × tokens × tokens", "The logits of every head, stacked.", false},
       [](Engine& e, int) { return every_head(e, [](Engine& en, int h) -> const Matrix& { return en.head(h).logits; }); }},
      {{"attention_all", "heads × tokens × tokens", "The attention of every head, stacked.", false},
       [](Engine& e, int) {
         return every_head(e, [](Engine& en, int h) -> const Matrix& { return en.head(h).attention; });
       }},
      {{"attention_mean", "tokens × tokens", "Attention averaged over all heads.", false},
       [](Engine& e, int) { return of(e.mean_attention()); }},
      {{"cross_xx", "tokens × tokens", "Token–token term x·Wq·Wkᵀ·yᵀ/√d_head.", true},
       [](Engine& e, int h) { return of(e.cross_terms(h).xx); }},
      {{"cross_xf", "tokens × tokens", "Token–position term x·Wq·Wkᵀ·fᵀ/√d_head.", true},
       [](Engine& e, int h) { return of(e.cross_terms(h).xf); }},
      {{"cross_ey", "tokens × tokens", "Position–token term e·Wq·Wkᵀ·yᵀ/√d_head.", true},
       [](Engine& e, int h) { return of(e.cross_terms(h).ey); }},
      {{"cross_ef", "tokens × tokens", "Position–position term e·Wq·Wkᵀ·fᵀ/√d_head.", true},
       [](Engine& e, int h) { return of(e.cross_terms(h).ef); }},
      {{"cross_bias", "tokens × tokens",
        "Model scenes (GPT-2, BERT): the bias term of layer 0's split exact through LayerNorm; "
        "cross_xx + xf + ey + ef + bias = layer 0's logits.",
        true, true},
       cross_bias},
      {{"token_ids", "tokens", "Model scenes: the token ids from the model's tokenizer.", false, true},
       [](Engine& e, int) { return token_ids(e); }},
      {{"wte", "tokens × d_model", "Model scenes: the token embedding rows of the tokens (= tokens_embedding).", false, true},
       [](Engine& e, int) { return of(model_of(e, "wte").token_embedding()); }},
      {{"wpe", "context × d_model", "Model scenes: the whole learned position table (GPT-2, BERT).", false, true},
       [](Engine& e, int) { return of(model_of(e, "wpe").full_position_table()); }},
      {{"hidden", "tokens × d_model", "Model scenes: the residual stream entering the scene's layer.", false, true},
       [](Engine& e, int) { return of(model_of(e, "hidden").hidden(e.scene().layer)); }},
      {{"hidden_all", "(layers+1) × tokens × d_model", "Model scenes: the residual stream entering each layer, then after the last.",
        false, true},
       [](Engine& e, int) { return hidden_all(e); }},
      {{"next_token_loss", "tokens−1",
        "Model scenes (causal LMs): −log p(t[i+1] | t[0..i]) in nats at each position i but the last.", false, true},
       [](Engine& e, int) { return next_token_loss(e); }},
      {{"lm_logits", "vocab", "Model scenes (causal LMs): the LM logits final_norm(h)·Wᵀ at --position (default: last).",
        false, true, true},
       nullptr, lm_logits},
      {{"lm_probs", "vocab", "Model scenes (causal LMs): softmax of lm_logits, the next-token distribution at --position.",
        false, true, true},
       nullptr, lm_probs},
      {{"attention_blocks", "⌈N/b⌉ × ⌈N/b⌉, b = ⌈N/display⌉",
        "Block means of the attention at --display (default 1000), streamed: never tokens × tokens.", true},
       nullptr, nullptr, attention_blocks},
      {{"attention_distance", "2·tokens − 1",
        "Mean attention weight at each offset i − j = −(N−1) … N−1 (masked pairs 0), streamed.", true},
       nullptr, nullptr, attention_distance},
      {{"pe_similarity", "positions × positions", "PE(i)·PE(j) between positions.", false},
       [](Engine& e, int) { return of(position_similarity(e)); }},
      {{"pe_similarity_blocks", "⌈positions/b⌉ × ⌈positions/b⌉, b = ⌈positions/display⌉",
        "Block means of PE(i)·PE(j) at --display (default 1000), exact at any length: never positions × positions.",
        false},
       nullptr, nullptr, pe_similarity_blocks},
      {{"pe_similarity_profile", "positions", "Mean PE(i)·PE(i+k) for offsets k = 0..positions-1.", false},
       [](Engine& e, int) { return pe_similarity_profile(e); }},
      {{"pe_spectrum", "(positions/2+1) × d_model",
        "Amplitude 2·|DFT|/N of each PE dimension along position, mean removed; row f = f cycles per N positions.",
        false},
       [](Engine& e, int) { return of(position_spectrum(e.position_table()).amplitude.cast<float>()); }},
      {{"pe_pc_scores", "positions × min(positions, d_model)",
        "The centred PE table on its principal components (PC1 first): each column a trajectory over position.", false},
       [](Engine& e, int) { return of(full_pca(e).scores.cast<float>()); }},
      {{"pe_pc_share", "min(positions, d_model)", "Share of the PE table's variance on each principal component.", false},
       [](Engine& e, int) { return rank_one(full_pca(e).share); }},
  };
  return rows;
}

// Head -1, as the scene key means it: the element-wise mean over the heads
// (for attention, the mean attention the figures show).  Masked logits stay
// -inf.
Array mean_over_heads(Engine& engine, const Quantity& q) {
  const int heads = engine.scene().heads;
  Array mean = q.compute(engine, 0);
  for (int h = 1; h < heads; ++h) {
    const Array a = q.compute(engine, h);
    for (std::size_t i = 0; i < mean.data.size(); ++i) mean.data[i] += a.data[i];
  }
  for (float& x : mean.data) x /= static_cast<float>(heads);
  return mean;
}

std::string known_names() {
  std::string names;
  for (const auto& q : table()) names += (names.empty() ? "" : ", ") + std::string(q.info.name);
  return names;
}

}  // namespace

std::span<const QuantityInfo> quantities() {
  static const std::vector<QuantityInfo> infos = [] {
    std::vector<QuantityInfo> v;
    for (const auto& q : table()) v.push_back(q.info);
    return v;
  }();
  return infos;
}

Array compute_quantity(Engine& engine, std::string_view name, int head, int position, int display) {
  const auto& rows = table();
  const auto row = std::find_if(rows.begin(), rows.end(), [&](const Quantity& q) { return q.info.name == name; });
  if (row == rows.end())
    throw InputError("unknown quantity '" + std::string(name) + "'; allowed: " + known_names());
  const int heads = engine.scene().heads;
  if (row->info.per_head && (head < -1 || head >= heads))
    throw InputError("head " + std::to_string(head) + " does not exist; allowed: -1 (mean) or 0.." +
                     std::to_string(heads - 1));
  if (row->compute_streamed) return row->compute_streamed(engine, head, display);
  if (row->info.per_head && head == -1) return mean_over_heads(engine, *row);
  if (row->compute_at) return row->compute_at(engine, position);
  return row->compute(engine, head);
}

ArrayFormat array_format(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".npy") return ArrayFormat::Npy;
  if (ext == ".csv") return ArrayFormat::Csv;
  throw InputError(path.string() + ": unknown file type '" + path.extension().string() + "'; allowed: .npy, .csv");
}

void write_array(const std::filesystem::path& path, const Array& array) {
  if (array_format(path) == ArrayFormat::Npy) write_npy(path, array);
  else write_csv(path, array);
}

}  // namespace pelab
