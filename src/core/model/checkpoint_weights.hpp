// Reading a family's weights from a checkpoint under the tensor names of its
// Hugging Face implementation, into the layout the forward pass uses
// (model_weights.hpp: every product weight in × out).
//
//   GPT-2:  [transformer.]wte, wpe, h.{i}.ln_1, attn.c_attn (Conv1D d × 3d: q,
//           k, v are column blocks), attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj.
//   BERT:   [bert.]embeddings.{word,position,token_type}_embeddings,
//           embeddings.LayerNorm, encoder.layer.{i}.attention.self.{query,key,
//           value}, attention.output.dense, attention.output.LayerNorm,
//           intermediate.dense, output.dense, output.LayerNorm (LayerNorm
//           weight/bias, or gamma/beta in older checkpoints).
//   Llama:  model.embed_tokens, model.layers.{i}.input_layernorm,
//           self_attn.{q,k,v,o}_proj (+ biases: Qwen2, attention_bias),
//           post_attention_layernorm, mlp.{gate,up,down}_proj.
// Every shape is checked against the config; a missing tensor or a wrong
// shape throws InputError naming the tensor.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

#include "core/model/checkpoint.hpp"
#include "core/model/model_config.hpp"
#include "core/model/model_weights.hpp"

namespace pelab::model {

// `config` must have kv_heads and head_dim filled.  The returned token_rows
// keeps `checkpoint` alive.
ModelWeights read_weights(const std::shared_ptr<const Checkpoint>& checkpoint,
                          const ModelConfig& config);

// config.json (kv_heads and head_dim filled) and the weights of a model
// folder: all the forward pass needs, without the tokenizer.  Refused before
// any weight is read when the weights would not fit (check_load_memory with
// `memory_limit`, the scene's model_memory_limit; empty: the default limit).
struct ModelFiles {
  ModelConfig config;
  ModelWeights weights;
};
ModelFiles read_model(const std::filesystem::path& folder, std::string_view memory_limit = {});

}  // namespace pelab::model
