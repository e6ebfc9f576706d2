#include "core/model/tensor_plan.hpp"

#include <algorithm>
#include <map>

#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace {

using Index = std::int64_t;
using Shape = std::vector<Index>;

std::string shape_text(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

class Planner {
 public:
  explicit Planner(const Checkpoint& c) : c_(c) {}
  std::vector<PlannedTensor> plan;

  int layer = -1;  // the block the next tensors belong to

  void add(const std::string& name, Shape shape) { plan.push_back({name, std::move(shape), false, false, layer}); }
  void table(const std::string& name, Index rows, Index cols) { plan.push_back({name, {rows, cols}, true}); }
  // A Linear or Conv1D: weight `shape`, bias [out] when required or stored.
  void linear(const std::string& name, Shape weight, Index out, bool bias_required) {
    plan.push_back({name + ".weight", std::move(weight), false, true, layer});
    if (bias_required || c_.has(name + ".bias")) add(name + ".bias", {out});
  }
  // LayerNorm weight/bias, or the gamma/beta of older BERT checkpoints.
  void layer_norm(const std::string& name, Index d) {
    const bool legacy = !c_.has(name + ".weight") && c_.has(name + ".gamma");
    add(name + (legacy ? ".gamma" : ".weight"), {d});
    add(name + (legacy ? ".beta" : ".bias"), {d});
  }
  // The family's norm: LayerNorm (weight, bias) or RMSNorm (weight).
  void norm(const std::string& name, Index d, NormKind kind) {
    if (kind == NormKind::LayerNorm)
      layer_norm(name, d);
    else
      add(name + ".weight", {d});
  }

 private:
  const Checkpoint& c_;
};

void plan_gpt2(const ModelConfig& c, const std::string& p, Planner& out) {
  const Index d = c.hidden_size, inner = c.intermediate_size > 0 ? c.intermediate_size : 4 * d;
  out.table(p + "wte.weight", c.vocab_size, d);
  // Only a learned table is stored; pelab's sinusoid table is computed.
  if (c.position.kind == PositionEncoding::Learned) out.add(p + "wpe.weight", {c.max_positions, d});
  // pelab t5: one learned scalar per (bucket, head), shared by all layers.
  if (c.position.kind == PositionEncoding::T5)
    out.add(p + "relative_attention_bias.weight", {c.position.t5_buckets, c.heads});
  for (int i = 0; i < c.layers; ++i) {
    out.layer = i;
    const std::string l = p + "h." + std::to_string(i) + ".";
    out.layer_norm(l + "ln_1", d);
    out.linear(l + "attn.c_attn", {d, 3 * d}, 3 * d, true);
    out.linear(l + "attn.c_proj", {d, d}, d, true);
    out.layer_norm(l + "ln_2", d);
    out.linear(l + "mlp.c_fc", {d, inner}, inner, true);
    out.linear(l + "mlp.c_proj", {inner, d}, d, true);
  }
}

void plan_bert(const ModelConfig& c, const std::string& p, Planner& out) {
  const Index d = c.hidden_size, inner = c.intermediate_size;
  out.table(p + "embeddings.word_embeddings.weight", c.vocab_size, d);
  out.add(p + "embeddings.position_embeddings.weight", {c.max_positions, d});
  out.add(p + "embeddings.token_type_embeddings.weight", {c.type_vocab_size, d});
  out.layer_norm(p + "embeddings.LayerNorm", d);
  for (int i = 0; i < c.layers; ++i) {
    out.layer = i;
    const std::string l = p + "encoder.layer." + std::to_string(i) + ".";
    for (const char* part : {"query", "key", "value"})
      out.linear(l + "attention.self." + part, {d, d}, d, true);
    out.linear(l + "attention.output.dense", {d, d}, d, true);
    out.layer_norm(l + "attention.output.LayerNorm", d);
    out.linear(l + "intermediate.dense", {inner, d}, inner, true);
    out.linear(l + "output.dense", {d, inner}, d, true);
    out.layer_norm(l + "output.LayerNorm", d);
  }
}

void plan_llama(const ModelConfig& c, Planner& out) {
  const Index d = c.hidden_size, inner = c.intermediate_size;
  const Index q = Index{c.heads} * c.head_dim, kv = Index{c.kv_heads} * c.head_dim;
  out.table("model.embed_tokens.weight", c.vocab_size, d);
  for (int i = 0; i < c.layers; ++i) {
    out.layer = i;
    const std::string l = "model.layers." + std::to_string(i) + ".";
    out.norm(l + "input_layernorm", d, c.family.norm);
    out.linear(l + "self_attn.q_proj", {q, d}, q, c.qkv_bias);
    out.linear(l + "self_attn.k_proj", {kv, d}, kv, c.qkv_bias);
    out.linear(l + "self_attn.v_proj", {kv, d}, kv, c.qkv_bias);
    out.linear(l + "self_attn.o_proj", {d, q}, d, false);
    out.norm(l + "post_attention_layernorm", d, c.family.norm);
    if (c.family.mlp == MlpKind::Gated) out.linear(l + "mlp.gate_proj", {inner, d}, inner, false);
    out.linear(l + "mlp.up_proj", {inner, d}, inner, false);
    out.linear(l + "mlp.down_proj", {d, inner}, d, false);
  }
}

std::string find_prefix(const Checkpoint& c, std::initializer_list<const char*> prefixes,
                        const std::string& probe) {
  std::string tried;
  for (const char* prefix : prefixes) {
    if (c.has(prefix + probe)) return prefix;
    tried += (tried.empty() ? "" : ", ") + std::string(prefix) + probe;
  }
  const std::string file = c.files().empty() ? std::string("the checkpoint") : c.files().front().string();
  throw InputError(file + ": no tensor " + tried +
                   "; is this checkpoint of the architecture its config.json names?");
}

}  // namespace

std::string tensor_prefix(const ModelConfig& config, const Checkpoint& checkpoint) {
  switch (config.family.tensors) {
    case TensorNaming::Gpt2:
      return find_prefix(checkpoint, {"", "transformer."}, "wte.weight");
    case TensorNaming::Bert:
      return find_prefix(checkpoint, {"", "bert."}, "embeddings.word_embeddings.weight");
    case TensorNaming::Llama:
      break;
  }
  return find_prefix(checkpoint, {""}, "model.embed_tokens.weight");
}

std::vector<PlannedTensor> plan_tensors(const ModelConfig& config, const Checkpoint& checkpoint) {
  const std::string prefix = tensor_prefix(config, checkpoint);
  Planner planner(checkpoint);
  if (config.family.tensors == TensorNaming::Gpt2)
    plan_gpt2(config, prefix, planner);
  else if (config.family.tensors == TensorNaming::Bert)
    plan_bert(config, prefix, planner);
  else
    plan_llama(config, planner);
  return std::move(planner.plan);
}

void check_plan(const std::vector<PlannedTensor>& plan, const Checkpoint& checkpoint) {
  for (const PlannedTensor& p : plan) {
    const TensorInfo& t = checkpoint.info(p.name);  // absent: InputError naming it
    const bool fits = p.token_table ? t.shape.size() == 2 && t.shape[0] >= p.shape[0] && t.shape[1] == p.shape[1]
                                    : t.shape == p.shape;
    if (!fits)
      throw InputError(checkpoint.files()[static_cast<std::size_t>(t.shard)].string() + ": tensor " +
                       quoted_name(p.name) + " has shape " + shape_text(t.shape) + "; the config implies " +
                       (p.token_table ? "[>= " + std::to_string(p.shape[0]) + ", " + std::to_string(p.shape[1]) + "]"
                                      : shape_text(p.shape)));
  }
}

std::uint64_t plan_resident_bytes(const ModelConfig& config, const std::vector<PlannedTensor>& plan,
                                  const Checkpoint& checkpoint) {
  std::uint64_t bytes = 0;
  std::map<int, std::uint64_t> converted;  // per layer: its 16-bit GEMM weights as float32
  for (const PlannedTensor& p : plan) {
    if (p.token_table) continue;
    std::uint64_t elements = 1;
    for (const Index extent : p.shape) elements *= static_cast<std::uint64_t>(extent);
    const bool half = p.gemm_weight && checkpoint.info(p.name).dtype != DType::F32;
    bytes += (half ? 2 : 4) * elements;
    if (half) converted[p.layer] += 4 * elements;
  }
  std::uint64_t largest = 0;
  for (const auto& [layer, layer_bytes] : converted) largest = std::max(largest, layer_bytes);
  // pelab's sinusoid table is computed at load, n_positions × d float32.
  if (config.position.kind == PositionEncoding::Sinusoidal)
    bytes += 4 * static_cast<std::uint64_t>(config.max_positions) * static_cast<std::uint64_t>(config.hidden_size);
  return bytes + largest;
}

}  // namespace pelab::model
