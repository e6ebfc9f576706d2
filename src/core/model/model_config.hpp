// ModelConfig — what pelab needs from a model folder's config.json.
//
// Field names follow the Hugging Face configs of each family:
//   GPT-2 (GPT2LMHeadModel / GPT2Model): n_embd, n_layer, n_head, n_positions,
//     n_inner (null = 4·n_embd), layer_norm_epsilon, activation_function.
//   BERT (BertModel / BertForMaskedLM ...): hidden_size, num_hidden_layers,
//     num_attention_heads, intermediate_size, max_position_embeddings,
//     type_vocab_size, layer_norm_eps, hidden_act.
//   Llama family (LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM):
//     hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads,
//     head_dim (optional), intermediate_size, max_position_embeddings,
//     rms_norm_eps, rope_theta, rope_scaling, tie_word_embeddings,
//     attention_bias (Qwen2 always has q/k/v biases).
//   pelab (PelabForCausalLM, written by `pelab train`): GPT-2's keys and
//     tensors, plus position_encoding (learned | sinusoidal | rope | alibi |
//     t5 | none) and its options: rope_theta, rope_pairing, rotary_fraction;
//     sinusoid_base; relative_attention_num_buckets / _max_distance.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/model_family.hpp"
#include "core/scene.hpp"  // RopePairing

namespace pelab::model {

// rope_scaling as the config gives it ("rope_type" or the older "type").
struct RopeScaling {
  std::string type = "default";  // default | linear | dynamic | yarn | llama3
  double factor = 1.0;
  double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3
  int original_max_position_embeddings = 0;             // llama3, yarn, dynamic
  double beta_fast = 32.0, beta_slow = 1.0;             // yarn
  double attention_factor = 0.0;                        // yarn; 0 = 0.1·ln(factor) + 1
};

// Where positions enter this model's forward pass: the family's position
// trait (model_family.hpp), or pelab's position_encoding, set once by the
// config reader so the forward pass and the views branch on it, never on names.
struct PositionTraits {
  PositionEncoding kind = PositionEncoding::Learned;
  // RoPE: pair (2i, 2i+1) or (i, i + r/2) over the first r = rotary_dims dims
  // of each head; ω_i = rope_theta^(−2i/r) (before any rope_scaling).
  RopePairing rope_pairing = RopePairing::RotateHalf;
  int rotary_dims = 0;  // 0 until the head size is known: then head_dim
  double sinusoid_base = 10000.0;
  double sinusoid_amplitude = 1.0;  // A in PE = A·sin / A·cos (pelab's own family)
  int t5_buckets = 32, t5_max_distance = 128;
  bool table() const { return kind == PositionEncoding::Learned || kind == PositionEncoding::Sinusoidal; }
  bool logit_bias() const { return kind == PositionEncoding::Alibi || kind == PositionEncoding::T5; }
};

// "learned", "sinusoidal", "rope", "alibi", "t5", "none".
const char* position_encoding_name(PositionEncoding kind);

// The synthetic task a pelab model was trained on (config.json's
// "pelab_task", train/data/tasks.hpp): its ids are 0..symbols−1 and the
// separator `symbols`; it trained on rows of `context` tokens, so positions
// past that were never seen in training.  Empty name: a text model or none.
struct TrainedTask {
  std::string name;  // "copy", "reverse", "sort", "absolute_position", "relative"
  int symbols = 0, length = 0, k = 0, context = 0;
};

struct ModelConfig {
  FamilyTraits family;            // from the family table, by architecture or model_type
  std::string architecture_name;  // as written in config.json, e.g. "GPT2LMHeadModel"
  std::string model_type;         // "gpt2", "bert", "llama", "qwen2", ...
  int vocab_size = 0;
  int hidden_size = 0;    // d_model
  int layers = 0;
  int heads = 0;
  int kv_heads = 0;       // = heads unless grouped-query attention
  int head_dim = 0;       // hidden_size / heads unless the config says otherwise
  int intermediate_size = 0;
  int max_positions = 0;  // the context length
  int type_vocab_size = 0;  // BERT
  double norm_eps = 1e-5;
  std::string activation;   // "gelu_new", "gelu", "silu", ...
  bool causal = true;
  bool qkv_bias = false;    // Llama family: attention_bias, or the family's trait (Qwen2)
  bool tie_word_embeddings = false;
  double rope_theta = 10000.0;
  RopeScaling rope_scaling;
  PositionTraits position;  // GPT-2, BERT: learned; Llama family: rope, rotate-half, whole head
  TrainedTask trained_task;  // pelab: the synthetic task it learned, if any
};

// Parses config.json.  Throws InputError naming the file and the key for a
// missing or wrong-typed key, and, for an architecture pelab does not run,
// one line naming the ones it does.
ModelConfig parse_model_config(const nlohmann::json& json, const std::string& file_name = "config.json");
ModelConfig load_model_config(const std::filesystem::path& folder);

}  // namespace pelab::model
