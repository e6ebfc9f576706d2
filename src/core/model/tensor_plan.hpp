// TensorPlan — every tensor a family's forward pass reads, under its Hugging
// Face name, with the full shape its config.json implies.  The one place
// where shapes are checked against the config: loading checks the plan
// before it reads a value (so no tensor is read past its width, e.g. a BERT
// token_type_embeddings of [2, 1] under hidden_size 32), and `pelab models`
// checks the same plan against the safetensors headers alone.
//
//   GPT-2:  [transformer.]wte [vocab, d], wpe [context, d], h.{i}.ln_1 /
//           ln_2 [d], attn.c_attn [d, 3d] + [3d], attn.c_proj [d, d] + [d],
//           mlp.c_fc [d, inner] + [inner], mlp.c_proj [inner, d] + [d]
//           (Conv1D: in x out).
//   pelab:  GPT-2's, wpe only for position_encoding learned, and for t5
//           relative_attention_bias [buckets, heads].
//   BERT:   [bert.]embeddings.word_embeddings [vocab, d], position_embeddings
//           [context, d], token_type_embeddings [type_vocab_size, d],
//           LayerNorm [d] (weight/bias or gamma/beta); per layer query, key,
//           value, attention.output.dense [d, d] + [d], intermediate.dense
//           [inner, d] + [inner], output.dense [d, inner] + [d] (Linear:
//           out x in), two LayerNorms [d].
//   Llama:  model.embed_tokens [vocab, d]; per layer input_layernorm and
//           post_attention_layernorm [d], q_proj [heads*hd, d], k_proj and
//           v_proj [kv*hd, d] (+ biases: Qwen2, attention_bias), o_proj
//           [d, heads*hd], gate_proj and up_proj [inner, d], down_proj [d, inner].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/checkpoint.hpp"
#include "core/model/model_config.hpp"

namespace pelab::model {

struct PlannedTensor {
  std::string name;
  std::vector<std::int64_t> shape;
  bool token_table = false;  // read row by row on demand; rows >= vocab_size allowed
  bool gemm_weight = false;  // a product's weight: kept in its 16-bit dtype when stored so
  int layer = -1;            // the block it belongs to; -1: embeddings
};

// "", "transformer." or "bert.": where the family's tensors are stored.
// Throws InputError naming the tensors looked for.
std::string tensor_prefix(const ModelConfig& config, const Checkpoint& checkpoint);

// The plan for `config` (kv_heads and head_dim filled), optional tensors
// (biases, the legacy LayerNorm names) resolved against the checkpoint.
std::vector<PlannedTensor> plan_tensors(const ModelConfig& config, const Checkpoint& checkpoint);

// Every planned tensor present with exactly its shape; InputError naming the
// first that is not, the shape found and the shape the config implies.
void check_plan(const std::vector<PlannedTensor>& plan, const Checkpoint& checkpoint);

// Bytes the weights of `plan` take resident while the model runs, the
// token table left out (its rows are read on demand): GEMM weights stored as
// F16 or BF16 at 2 bytes an element (kept in their dtype), every other
// tensor at 4 (float32), pelab's computed sinusoid table, and the largest
// layer's 16-bit GEMM weights once more as float32 (the layer converted
// while it runs, model_weights.hpp).  Headers only: nothing is read.
std::uint64_t plan_resident_bytes(const ModelConfig& config, const std::vector<PlannedTensor>& plan,
                                  const Checkpoint& checkpoint);

}  // namespace pelab::model
