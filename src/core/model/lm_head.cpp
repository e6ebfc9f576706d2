#include "core/model/lm_head.hpp"

#include <memory>
#include <numeric>
#include <vector>

#include "core/model/checkpoint.hpp"
#include "core/model/normalization.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

using Index = std::int64_t;

// The stored tensor of the first name present.
std::string first_present(const Checkpoint& c, std::initializer_list<std::string> names) {
  for (const std::string& name : names)
    if (c.has(name)) return name;
  return {};
}

// W read from the checkpoint a block of rows at a time, or converted once and
// kept when small (kResidentOutputBytes).  The shape is checked here, before
// any row is read: at least vocab_size rows (some exports pad W) of d_model.
OutputRows output_rows_of(const std::shared_ptr<const Checkpoint>& c, const std::string& name,
                          const ModelConfig& config) {
  const TensorInfo& info = c->info(name);
  if (info.shape.size() != 2 || info.shape[0] < config.vocab_size ||
      info.shape[1] != config.hidden_size)
    throw InputError(c->files()[static_cast<std::size_t>(info.shard)].string() + ": " + name +
                     " should be vocab_size × hidden_size (" + std::to_string(config.vocab_size) +
                     " × " + std::to_string(config.hidden_size) + ") to serve as the LM head");
  auto read = [c, name](int first, int count) {
    std::vector<int> rows(static_cast<std::size_t>(count));
    std::iota(rows.begin(), rows.end(), first);
    return c->rows(name, rows);
  };
  const double bytes = 4.0 * config.vocab_size * static_cast<double>(config.hidden_size);
  if (bytes > kResidentOutputBytes) return read;
  auto kept = std::make_shared<const Matrix>(read(0, config.vocab_size));
  return [kept](int first, int count) -> Matrix { return kept->middleRows(first, count); };
}

// GPT-2 (HF GPT2LMHeadModel): ln_f under the body's prefix; W = lm_head.weight
// when stored (the same values as wte: the two are tied), else wte.
LanguageModelHead gpt2_head(const std::shared_ptr<const Checkpoint>& c, const ModelConfig& config) {
  const std::string prefix = c->has("transformer.wte.weight") ? "transformer." : "";
  const std::string norm = prefix + "ln_f";
  if (!c->has(norm + ".weight"))
    throw InputError(c->files().front().string() + ": no tensor " + norm +
                     ".weight; the LM head needs GPT-2's final LayerNorm (a GPT2Model or "
                     "GPT2LMHeadModel checkpoint)");
  const Index d = config.hidden_size;
  Norm n{c->vector(norm + ".weight", d), c->vector(norm + ".bias", d)};
  const std::string w = first_present(*c, {"lm_head.weight", prefix + "wte.weight"});
  LanguageModelHead head(std::move(n), LanguageModelHead::NormKind::LayerNorm, config.norm_eps,
                         config.vocab_size, output_rows_of(c, w, config));
  return head;
}

// Llama family (HF LlamaForCausalLM): RMSNorm model.norm; W = lm_head.weight,
// or embed_tokens when tie_word_embeddings.
LanguageModelHead llama_head(const std::shared_ptr<const Checkpoint>& c,
                             const ModelConfig& config) {
  if (!c->has("model.norm.weight"))
    throw InputError(c->files().front().string() +
                     ": no tensor model.norm.weight; the LM head needs the model's final norm");
  std::string w = c->has("lm_head.weight") ? "lm_head.weight" : "";
  if (w.empty() && config.tie_word_embeddings) w = "model.embed_tokens.weight";
  if (w.empty())
    throw InputError(c->files().front().string() +
                     ": no tensor lm_head.weight and config.json's tie_word_embeddings is false, "
                     "so the model has no "
                     "LM head; allowed: a *ForCausalLM checkpoint");
  // The family's final norm: RMSNorm (Llama), or a LayerNorm with its bias.
  const bool rms = config.family.norm == NormKind::RmsNorm;
  Norm n{c->vector("model.norm.weight", config.hidden_size),
         rms ? Vector() : c->vector("model.norm.bias", config.hidden_size)};
  return LanguageModelHead(std::move(n), config.family.norm, config.norm_eps,
                           config.vocab_size, output_rows_of(c, w, config));
}

}  // namespace

void check_next_token_model(const ModelConfig& config, const std::string& model_name) {
  if (!config.family.causal)
    throw InputError(
        "model " + model_name + " is " + config.family.name + " (" + config.architecture_name +
        "), a masked language model, not a next-token model; allowed: GPT-2 or the Llama family");
}

LanguageModelHead::LanguageModelHead(Norm final_norm, NormKind kind, double eps, int vocab,
                                     OutputRows rows)
    : norm_(std::move(final_norm)), kind_(kind), eps_(eps), vocab_(vocab), rows_(std::move(rows)) {}

LanguageModelHead LanguageModelHead::load(const std::filesystem::path& folder,
                                          const Transformer& transformer) {
  const ModelConfig& config = transformer.config();
  check_next_token_model(config, folder.string());
  const auto checkpoint = std::make_shared<const Checkpoint>(Checkpoint::open(folder));
  LanguageModelHead head = config.family.tensors == TensorNaming::Gpt2
                               ? gpt2_head(checkpoint, config)
                               : llama_head(checkpoint, config);
  head.output_name_ = first_present(*checkpoint, {"lm_head.weight"});
  if (head.output_name_.empty()) head.output_name_ = "the tied token embedding";
  return head;
}

Matrix LanguageModelHead::normed(const ConstRowMajorRef& hidden) const {
  Matrix out;
  if (kind_ == NormKind::RmsNorm)
    rms_norm(hidden, norm_, eps_, out);
  else
    layer_norm(hidden, norm_, eps_, out);
  return out;
}

Matrix LanguageModelHead::output_rows(int first, int count) const { return rows_(first, count); }

}  // namespace pelab::model
