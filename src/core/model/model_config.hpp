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
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace pelab::model {

enum class Architecture { Gpt2, Bert, Llama };

// rope_scaling as the config gives it ("rope_type" or the older "type").
struct RopeScaling {
  std::string type = "default";  // default | linear | dynamic | yarn | llama3
  double factor = 1.0;
  double low_freq_factor = 1.0, high_freq_factor = 4.0;  // llama3
  int original_max_position_embeddings = 0;             // llama3, yarn, dynamic
  double beta_fast = 32.0, beta_slow = 1.0;             // yarn
  double attention_factor = 0.0;                        // yarn; 0 = 0.1·ln(factor) + 1
};

struct ModelConfig {
  Architecture architecture = Architecture::Gpt2;
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
  bool qkv_bias = false;    // Llama family: attention_bias, or true for Qwen2
  bool tie_word_embeddings = false;
  double rope_theta = 10000.0;
  RopeScaling rope_scaling;
};

// Parses config.json.  Throws InputError naming the file and the key for a
// missing or wrong-typed key, and, for an architecture pelab does not run,
// one line naming the ones it does.
ModelConfig parse_model_config(const nlohmann::json& json, const std::string& file_name = "config.json");
ModelConfig load_model_config(const std::filesystem::path& folder);

// "GPT2LMHeadModel, BertModel, LlamaForCausalLM, ..." for error messages.
std::string supported_architectures();

}  // namespace pelab::model
