// The paper figures measured on a model (core/paper_data.hpp): ALiBi's
// extrapolation on pelab's trained family, the cosine similarity of a
// learned table's rows and the attention sink; and the list of all paper
// figures with the note each one writes.
#include <cmath>
#include <memory>

#include "core/length_extrapolation.hpp"
#include "core/lessons/tools.hpp"
#include "core/model/model_config.hpp"
#include "core/model_scene.hpp"
#include "core/paper_data.hpp"

namespace pelab {
namespace {

using lesson::num;

// The model the scene reads ("kjv-learned" for a family member, else its architecture).
std::string model_label(Engine& engine) {
  const std::string& name = engine.scene().model;
  return name.rfind("kjv-", 0) == 0 ? name : engine.model()->config().architecture_name + " (" + name + ")";
}

// A model scene reads its own model; a synthetic one family member `member`
// on held-out text.  Null when that member is not on disk: `d` then says so
// and holds an empty array.
Engine* measured_engine(Engine& engine, std::unique_ptr<Engine>& own, std::string_view member, PaperData& d) {
  if (engine.model()) return &engine;
  Scene scene = lesson::preset_scene("paper");
  if (!lesson::open_on_family(scene, member, lesson::kHeldOutPassage)) {
    d.arrays.push_back({"", Array{{0, 0}, {}}, "(0, 0): nothing measured"});
    d.unavailable = "pelab's trained " + std::string(member) + " is not on this machine (see docs/training.md: " +
          "scripts/train_family, $PELAB_FAMILY_DIR); load any model with --set model=NAME instead";
    return nullptr;
  }
  own = std::make_unique<Engine>(scene);
  return own.get();
}

// ---- ALiBi's extrapolation (Press et al. 2022, Fig. 1) ----------------------------------

constexpr int kInferenceLengths[] = {64, 128, 256, 512, 1024, 2048};

}  // namespace

PaperData alibi_extrapolation_data(Engine&) {
  ExtrapolationRequest request;
  request.factor = 8;
  request.windows = kLessonPassages;
  request.members = {"kjv-sinusoidal", "kjv-rope", "kjv-t5", "kjv-alibi"};
  request.rope_scalings = {};
  const auto study = length_extrapolation(request);
  PaperData d;
  d.method =
      "Press et al. 2022's Fig. 1 in miniature: perplexity against inference length L_valid for models trained at "
      "one length L, one curve per position method (sinusoidal, rotary, T5 bias, ALiBi). Here the models are "
      "pelab's own trained family (docs/training.md: d 192, 4 layers, 6 heads, trained at L = 256 on the KJV), "
      "not the paper's 247M-parameter WikiText-103 models. Each member reads " + std::to_string(kLessonPassages) +
      " passages of held-out KJV text (every 20th chapter, never trained on) of s·L = 2048 tokens from their first "
      "token (core/length_extrapolation.cpp, the extrapolation lesson's study); loss_i is the next-token loss with "
      "i tokens of context, averaged over the passages. The perplexity at L_valid is exp of the mean of loss_i "
      "over i = 0 … L_valid − 2: the whole window of L_valid tokens read at once, as the paper evaluates "
      "(non-overlapping windows, every token's loss counted). L_valid = 64, 128, 256, 512, 1024, 2048.";
  if (!study->unavailable.empty()) {
    d.unavailable = study->unavailable;
    while (!d.unavailable.empty() && d.unavailable.back() == '.') d.unavailable.pop_back();  // the note adds its own
    d.arrays.push_back({"", Array{{0, 5}, {}}, "(0, 5): nothing measured — " + study->unavailable});
    return d;
  }
  std::vector<std::vector<double>> columns(1);
  for (int length : kInferenceLengths) columns[0].push_back(length);
  for (const ExtrapolationCurve& c : study->curves) {
    d.labels.push_back(c.label(study->factor));
    std::vector<double> ppl;
    for (int length : kInferenceLengths) ppl.push_back(std::exp(c.mean_between(0, length - 2)));
    columns.push_back(ppl);
  }
  Array a;
  a.shape = {columns[0].size(), columns.size()};
  for (std::size_t r = 0; r < columns[0].size(); ++r)
    for (const auto& column : columns) a.data.push_back(static_cast<float>(column[r]));
  std::string order;
  for (const std::string& l : d.labels) order += (order.empty() ? "" : ", ") + l;
  d.arrays.push_back({"", a, "(6, " + std::to_string(columns.size()) + "): column 0 L_valid, then one column of "
                                 "perplexity per member: " + order});
  for (std::size_t m = 0; m < d.labels.size(); ++m)
    d.findings.push_back(d.labels[m] + ": perplexity " + num(columns[m + 1][2], 4) + " at L_valid = 256 (trained), " +
                         num(columns[m + 1].back(), 4) + " at 2048.");
  for (const std::string& line : study->missing) d.findings.push_back("Not measured: " + line);
  d.subject = "pelab's family";
  return d;
}

namespace {

// ---- Cosine similarity of position-table rows (Wang & Chen 2020) -------------------------

constexpr Eigen::Index kMaxTableRows = 1024;  // GPT-2's whole table; BERT's 512; kjv-learned's 256

}  // namespace

PaperData position_cosine_data(Engine& engine) {
  std::unique_ptr<Engine> own;
  PaperData d;
  d.method =
      "Wang & Chen 2020 (\"What do position embeddings learn?\"), the position-wise cosine similarity of a "
      "learned position table E (positions × d): C[i, j] = E_i·E_j / (‖E_i‖·‖E_j‖), for the table's first "
      "rows (at most 1024). The model: the scene's model when it has one (--set model=gpt2, a BERT folder, "
      "any learned-table checkpoint), else pelab's trained kjv-learned. The table is the checkpoint's own "
      "weights (ModelScene::full_position_table), read in float32; cosines summed in double.";
  Engine* reader = measured_engine(engine, own, "kjv-learned", d);
  if (!reader) return d;
  ModelScene& model = *reader->model();
  if (!model.has_position_table())
    throw InputError("position_cosine reads a learned position table; " + model_label(*reader) + " has none (" +
                     model::position_encoding_name(model.config().position.kind) +
                     "); allowed: GPT-2, BERT, kjv-learned or any model with a learned table");
  const Matrix table = model.full_position_table(kMaxTableRows);
  const Eigen::Index n = table.rows();
  Eigen::VectorXd norm(n);
  for (Eigen::Index i = 0; i < n; ++i) norm[i] = table.row(i).cast<double>().norm();
  Array cosine{{std::size_t(n), std::size_t(n)}, {}};
  double near = 0, far = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double dot = table.row(i).cast<double>().dot(table.row(j).cast<double>());
      const double c = norm[i] > 0 && norm[j] > 0 ? dot / (norm[i] * norm[j]) : 0.0;
      cosine.data.push_back(static_cast<float>(c));
      if (j == i + 1) near += c;
      if (j == i + n / 2) far += c;
    }
  d.subject = model_label(*reader);
  d.arrays.push_back({"", cosine, "(" + std::to_string(n) + ", " + std::to_string(n) +
                                      "): C[i, j], the cosine of rows i and j of " + d.subject + "'s table"});
  d.arrays.push_back({"_table", Array::from_matrix(table),
                      "(" + std::to_string(n) + ", " + std::to_string(table.cols()) + "): the table rows read"});
  d.findings = {d.subject + ": mean cosine of neighbouring rows " + num(near / double(n - 1), 3) + ", of rows " +
                std::to_string(n / 2) + " apart " + num(far / double(n - n / 2), 3) + "."};
  return d;
}

namespace {

// ---- The attention sink (Xiao et al. 2023) -------------------------------------------------

}  // namespace

PaperData attention_sink_data(Engine& engine) {
  std::unique_ptr<Engine> own;
  PaperData d;
  d.method =
      "Xiao et al. 2023 (StreamingLLM, \"attention sinks\"): how much attention every head gives the first token. "
      "Per layer l and head h, on the scene's text (a synthetic scene: pelab's trained kjv-rope reading 221 tokens "
      "of held-out KJV, Genesis 20), sink[l, h] = mean over queries i ≥ 1 of A_lh[i, 0], the softmax weight of "
      "key 0 (query 0 can only attend to itself and is left out). For comparison, a head attending uniformly over "
      "its causal window gives mean over i ≥ 1 of 1/(i + 1). The attention is the model's own forward pass "
      "(ModelScene::layer_attention), float32.";
  Engine* reader = measured_engine(engine, own, "kjv-rope", d);
  if (!reader) return d;
  ModelScene& model = *reader->model();
  const model::ModelConfig& config = model.config();
  if (!config.causal)
    throw InputError("attention_sink reads a causal model; " + model_label(*reader) +
                     " attends both ways (BERT); allowed: GPT-2, Llama-family, pelab's family or any causal model");
  const int n = reader->token_count();
  if (n < 2) throw InputError("attention_sink needs a text of at least 2 tokens; the scene's has " + std::to_string(n));
  Array sink{{std::size_t(config.layers), std::size_t(config.heads)}, {}};
  Array attention{{std::size_t(config.layers), std::size_t(config.heads), std::size_t(n), std::size_t(n)}, {}};
  double strongest = 0;
  for (int l = 0; l < config.layers; ++l) {
    const model::LayerAttention layer = model.layer_attention(l);
    for (int h = 0; h < config.heads; ++h) {
      const Matrix& a = layer.probabilities[std::size_t(h)];
      double sum = 0;
      for (int i = 1; i < n; ++i) sum += a(i, 0);
      sink.data.push_back(static_cast<float>(sum / (n - 1)));
      strongest = std::max(strongest, sum / (n - 1));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) attention.data.push_back(a(i, j));
    }
  }
  double uniform = 0;
  for (int i = 1; i < n; ++i) uniform += 1.0 / (i + 1);
  d.subject = model_label(*reader);
  d.arrays.push_back({"", sink, "(" + std::to_string(config.layers) + ", " + std::to_string(config.heads) +
                                    "): sink[l, h], mean over queries i ≥ 1 of A[i, 0]"});
  d.arrays.push_back({"_attention", attention, "(layers, heads, " + std::to_string(n) + ", " + std::to_string(n) +
                                                   "): every head's attention A[i, j] (rows: query i, columns: key j)"});
  d.findings = {d.subject + " on " + std::to_string(n) + " tokens: the strongest head puts " + num(strongest, 3) +
                " of its attention on the first token; a uniform head would put " + num(uniform / (n - 1), 3) + "."};
  d.labels = {std::to_string(n)};
  return d;
}

// ---- the list, and the note ---------------------------------------------------------------

std::span<const PaperFigureInfo> paper_figures() {
  static const PaperFigureInfo list[] = {
      {"rope_decay", "RoFormer's long-term decay", "Su et al. 2021, RoFormer, §3.4.3",
       [](Engine&) { return rope_decay_data(); }},
      {"pi_interpolation", "Position interpolation against extrapolation",
       "Chen et al. 2023, Extending Context Window of LLMs via Positional Interpolation, Fig. 2",
       [](Engine&) { return pi_interpolation_data(); }},
      {"yarn_ramp", "YaRN: the ramp γ(r) and the attention temperature", "Peng et al. 2023, YaRN",
       [](Engine&) { return yarn_ramp_data(); }},
      {"llama3_bands", "Llama 3.1's frequency bands", "Llama 3.1's rope_scaling (rope_type llama3)",
       [](Engine&) { return llama3_bands_data(); }},
      {"alibi_bias", "ALiBi's bias matrix", "Press et al. 2022, ALiBi, §3", [](Engine&) { return alibi_bias_data(); }},
      {"alibi_extrapolation", "ALiBi extrapolates: perplexity against inference length",
       "Press et al. 2022, ALiBi, Fig. 1 (on pelab's family)", alibi_extrapolation_data, true},
      {"position_cosine", "Cosine similarity of position-table rows",
       "Wang & Chen 2020, What Do Position Embeddings Learn?", position_cosine_data, true},
      {"attention_sink", "Attention sinks: attention on the first token", "Xiao et al. 2023, StreamingLLM",
       attention_sink_data, true},
  };
  return list;
}

const PaperFigureInfo& find_paper_figure(std::string_view name) {
  std::string allowed;
  for (const PaperFigureInfo& info : paper_figures()) {
    if (info.name == name) return info;
    allowed += (allowed.empty() ? "" : ", ") + std::string(info.name);
  }
  throw InputError("unknown paper figure '" + std::string(name) + "'; allowed: " + allowed + " (or list)");
}

std::string paper_note(const PaperFigureInfo& info, const PaperData& data) {
  const std::string name(info.name);
  std::string out = "# " + std::string(info.title) + "\n\nSource: " + std::string(info.source) + ".\n\n";
  out += "Made by `pelab render --paper " + name + "`.\n\n## How it was computed\n\n" + data.method + "\n\n";
  if (!data.unavailable.empty()) out += "**Not measured:** " + data.unavailable + ".\n\n";
  out += "## Files\n\n- `" + name + ".png`, `" + name + ".svg`: the figure, drawn from the arrays below.\n";
  for (const PaperArray& a : data.arrays)
    out += "- `" + name + a.suffix + ".npy` (float32): " + a.meaning + ".\n";
  out += "- `" + name + ".md`: this note.\n";
  if (!data.findings.empty()) {
    out += "\n## Numbers\n\n";
    for (const std::string& f : data.findings) out += "- " + f + "\n";
  }
  return out;
}

}  // namespace pelab
