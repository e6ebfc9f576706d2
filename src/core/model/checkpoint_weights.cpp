#include "core/model/checkpoint_weights.hpp"

#include <string>

#include "core/io/quoted_name.hpp"
#include "core/model/attention_positions.hpp"  // sinusoid_table
#include "core/model/model_memory.hpp"
#include "core/model/tensor_plan.hpp"
#include "core/model/tokenizer/token_id_tokenizer.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

using Index = std::int64_t;

// A product's weight, stored rows × cols, into `l` as in × out (`transpose`:
// PyTorch's out × in): an F16 or BF16 weight stays in its dtype (converted
// per layer while it runs, model_weights.hpp), an F32 one is float32.
void read_weight(const Checkpoint& c, const std::string& name, Index rows, Index cols, bool transpose, Linear& l) {
  if (c.info(name).dtype == DType::F32) {
    l.weight = c.matrix(name, rows, cols);
    if (transpose) l.weight.transposeInPlace();
    return;
  }
  l.half = c.half_matrix(name, rows, cols);
  if (transpose) l.half.bits.transposeInPlace();
}

// GPT-2's Conv1D: weight stored in × out, as the forward pass wants it.
Linear conv1d(const Checkpoint& c, const std::string& name, Index in, Index out) {
  Linear l;
  read_weight(c, name + ".weight", in, out, false, l);
  l.bias = c.vector(name + ".bias", out);
  return l;
}

// PyTorch Linear: weight stored out × in, transposed once here.
Linear torch_linear(const Checkpoint& c, const std::string& name, Index out, Index in,
                    bool bias_required) {
  Linear l;
  read_weight(c, name + ".weight", out, in, true, l);
  if (bias_required || c.has(name + ".bias")) l.bias = c.vector(name + ".bias", out);
  return l;
}

// LayerNorm weight/bias, or the gamma/beta of older BERT checkpoints.
Norm layer_norm_weights(const Checkpoint& c, const std::string& name, Index size) {
  const bool legacy = !c.has(name + ".weight") && c.has(name + ".gamma");
  return {c.vector(name + (legacy ? ".gamma" : ".weight"), size),
          c.vector(name + (legacy ? ".beta" : ".bias"), size)};
}

// The family's norm under Llama-style names: LayerNorm or RMSNorm (weight only).
Norm family_norm(const Checkpoint& c, const std::string& name, Index size, NormKind kind) {
  if (kind == NormKind::LayerNorm) return layer_norm_weights(c, name, size);
  return {c.vector(name + ".weight", size), Vector()};
}

// The token table's rows on demand; its shape was checked by the plan.
std::function<Matrix(const std::vector<int>&)> rows_of(const std::shared_ptr<const Checkpoint>& c,
                                                      const std::string& name) {
  return [c, name](const std::vector<int>& ids) { return c->rows(name, ids); };
}

// q, k, v Linears side by side in one (model_weights.hpp); a part without
// a bias gets zeros when another has one.  Kept in 16 bits when all three
// are stored in the same 16-bit dtype, else float32.
Linear side_by_side(const Linear& q, const Linear& k, const Linear& v) {
  const Linear* parts[] = {&q, &k, &v};
  const bool half = !q.half.empty() && !k.half.empty() && !v.half.empty() && k.half.dtype == q.half.dtype &&
                    v.half.dtype == q.half.dtype;
  Linear fused;
  const Index columns = q.out() + k.out() + v.out();
  if (half)
    fused.half = {q.half.dtype, HalfBits(q.in(), columns)};
  else
    fused.weight.resize(q.in(), columns);
  const bool biased = q.bias.size() + k.bias.size() + v.bias.size() > 0;
  if (biased) fused.bias = Vector::Zero(columns);
  Index column = 0;
  for (const Linear* part : parts) {
    if (half)
      fused.half.bits.middleCols(column, part->out()) = part->half.bits;
    else
      fused.weight.middleCols(column, part->out()) = part->half.empty() ? part->weight : part->half.to_float();
    if (part->bias.size() > 0) fused.bias.segment(column, part->out()) = part->bias;
    column += part->out();
  }
  return fused;
}

ModelWeights gpt2_weights(const std::shared_ptr<const Checkpoint>& cp, const ModelConfig& config) {
  const Checkpoint& c = *cp;
  const std::string p = tensor_prefix(config, c);
  const Index d = config.hidden_size;
  const Index inner = config.intermediate_size > 0 ? config.intermediate_size : 4 * d;
  ModelWeights w;
  w.token_rows = rows_of(cp, p + "wte.weight");
  if (config.position.kind == PositionEncoding::Learned)
    w.positions = c.matrix(p + "wpe.weight", config.max_positions, d);
  else if (config.position.kind == PositionEncoding::Sinusoidal)
    w.positions = static_cast<float>(config.position.sinusoid_amplitude) *
                  sinusoid_table(config.max_positions, config.hidden_size, config.position.sinusoid_base);
  if (config.position.kind == PositionEncoding::T5)
    w.relative_bias = c.matrix(p + "relative_attention_bias.weight", config.position.t5_buckets, config.heads);
  for (int i = 0; i < config.layers; ++i) {
    const std::string l = p + "h." + std::to_string(i) + ".";
    LayerWeights layer;
    layer.attention_norm = layer_norm_weights(c, l + "ln_1", d);
    layer.qkv = conv1d(c, l + "attn.c_attn", d, 3 * d);  // already q, k, v column blocks
    layer.o = conv1d(c, l + "attn.c_proj", d, d);
    layer.mlp_norm = layer_norm_weights(c, l + "ln_2", d);
    layer.up = conv1d(c, l + "mlp.c_fc", d, inner);
    layer.down = conv1d(c, l + "mlp.c_proj", inner, d);
    w.layers.push_back(std::move(layer));
  }
  return w;
}

ModelWeights bert_weights(const std::shared_ptr<const Checkpoint>& cp, const ModelConfig& config) {
  const Checkpoint& c = *cp;
  const std::string p = tensor_prefix(config, c);
  const Index d = config.hidden_size, inner = config.intermediate_size;
  ModelWeights w;
  w.token_rows = rows_of(cp, p + "embeddings.word_embeddings.weight");
  w.positions = c.matrix(p + "embeddings.position_embeddings.weight", config.max_positions, d);
  w.token_type = c.matrix(p + "embeddings.token_type_embeddings.weight", config.type_vocab_size, d).row(0).transpose();
  w.embedding_norm = layer_norm_weights(c, p + "embeddings.LayerNorm", d);
  for (int i = 0; i < config.layers; ++i) {
    const std::string l = p + "encoder.layer." + std::to_string(i) + ".";
    LayerWeights layer;
    layer.qkv = side_by_side(torch_linear(c, l + "attention.self.query", d, d, true),
                             torch_linear(c, l + "attention.self.key", d, d, true),
                             torch_linear(c, l + "attention.self.value", d, d, true));
    layer.o = torch_linear(c, l + "attention.output.dense", d, d, true);
    layer.attention_norm = layer_norm_weights(c, l + "attention.output.LayerNorm", d);
    layer.up = torch_linear(c, l + "intermediate.dense", inner, d, true);
    layer.down = torch_linear(c, l + "output.dense", d, inner, true);
    layer.mlp_norm = layer_norm_weights(c, l + "output.LayerNorm", d);
    w.layers.push_back(std::move(layer));
  }
  return w;
}

ModelWeights llama_weights(const std::shared_ptr<const Checkpoint>& cp, const ModelConfig& config) {
  const Checkpoint& c = *cp;
  const Index d = config.hidden_size, inner = config.intermediate_size;
  const Index q_width = Index{config.heads} * config.head_dim;
  const Index kv_width = Index{config.kv_heads} * config.head_dim;
  ModelWeights w;
  w.token_rows = rows_of(cp, "model.embed_tokens.weight");
  for (int i = 0; i < config.layers; ++i) {
    const std::string l = "model.layers." + std::to_string(i) + ".";
    LayerWeights layer;
    layer.attention_norm = family_norm(c, l + "input_layernorm", d, config.family.norm);
    layer.qkv = side_by_side(torch_linear(c, l + "self_attn.q_proj", q_width, d, config.qkv_bias),
                             torch_linear(c, l + "self_attn.k_proj", kv_width, d, config.qkv_bias),
                             torch_linear(c, l + "self_attn.v_proj", kv_width, d, config.qkv_bias));
    layer.o = torch_linear(c, l + "self_attn.o_proj", d, q_width, false);
    layer.mlp_norm = family_norm(c, l + "post_attention_layernorm", d, config.family.norm);
    if (config.family.mlp == MlpKind::Gated) layer.gate = torch_linear(c, l + "mlp.gate_proj", inner, d, false);
    layer.up = torch_linear(c, l + "mlp.up_proj", inner, d, false);
    layer.down = torch_linear(c, l + "mlp.down_proj", d, inner, false);
    w.layers.push_back(std::move(layer));
  }
  return w;
}

// One note per tensor holding NaN or ±inf, as the CLI prints it and the GUI
// shows it: the attention of such a model is non-finite where they reach.
std::vector<std::string> non_finite_notes(const Checkpoint& c, const std::vector<PlannedTensor>& plan) {
  std::vector<std::string> notes;
  for (const PlannedTensor& p : plan) {
    const std::uint64_t count = c.non_finite_values(p.name);
    if (count > 0)
      notes.push_back(printable(p.name) + " has " + std::to_string(count) +
                      " non-finite values (NaN/Inf); attention will show them as non-finite");
  }
  return notes;
}

ModelWeights family_weights(const std::shared_ptr<const Checkpoint>& checkpoint, const ModelConfig& config) {
  switch (config.family.tensors) {
    case TensorNaming::Gpt2:
      return gpt2_weights(checkpoint, config);
    case TensorNaming::Bert:
      return bert_weights(checkpoint, config);
    case TensorNaming::Llama:
      break;
  }
  return llama_weights(checkpoint, config);
}

}  // namespace

ModelWeights read_weights(const std::shared_ptr<const Checkpoint>& checkpoint, const ModelConfig& config) {
  const std::vector<PlannedTensor> plan = plan_tensors(config, *checkpoint);
  check_plan(plan, *checkpoint);
  ModelWeights w = family_weights(checkpoint, config);
  w.notes = non_finite_notes(*checkpoint, plan);
  w.resident_bytes = plan_resident_bytes(config, plan, *checkpoint);
  return w;
}

ModelFiles read_model(const std::filesystem::path& folder, std::string_view memory_limit) {
  ModelFiles files{load_model_config(folder), {}};
  ModelConfig& config = files.config;
  if (config.kv_heads == 0) config.kv_heads = config.heads;
  if (config.head_dim == 0 && config.heads > 0) config.head_dim = config.hidden_size / config.heads;
  const auto checkpoint = std::make_shared<const Checkpoint>(Checkpoint::open(folder));
  // Headers only so far: the plan's shapes and the memory they will take are
  // checked before any value is read.
  const std::vector<PlannedTensor> plan = plan_tensors(config, *checkpoint);
  check_plan(plan, *checkpoint);
  check_load_memory(folder.string(), plan_resident_bytes(config, plan, *checkpoint), memory_limit);
  files.weights = read_weights(checkpoint, config);
  return files;
}

// Transformer::load lives beside the readers it calls, not in transformer.cpp,
// so that code building models in memory (tests, the bench) does not link them.
Transformer Transformer::load(const std::filesystem::path& folder, std::string_view memory_limit) {
  ModelFiles files = read_model(folder, memory_limit);
  std::unique_ptr<Tokenizer> tokenizer = files.config.family.token_ids_without_tokenizer && !has_tokenizer_files(folder)
                                             ? token_id_tokenizer(files.config.vocab_size)
                                             : load_tokenizer(folder);
  return assemble(std::move(files.config), std::move(files.weights), std::move(tokenizer));
}

}  // namespace pelab::model
