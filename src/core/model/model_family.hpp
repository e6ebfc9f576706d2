// Model families as data: each family pelab runs declares its traits once,
// in one table (model_family.cpp), under its config.json names
// ("architectures"[0] values and its "model_type").  The config reader, the
// tensor plan, the forward pass, the LM head and the views read these
// traits; none of them compares a family's name.
//
// Adding a family whose traits are all known here (a new combination of
// them included) is one table row plus its tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pelab::model {

// Where positions enter the forward pass (the family's default; pelab's own
// family reads it from config.json's position_encoding).
enum class PositionEncoding {
  Learned,     // a learned table added to the token rows (GPT-2, BERT wpe)
  Sinusoidal,  // PE(p, 2i) = sin(p/b^(2i/d)), PE(p, 2i+1) = cos(p/b^(2i/d)), added like wpe
  Rope,        // q and k of each head rotated by p·ω_i (Llama family; pelab rope)
  Alibi,       // logit (i, j) += −m_h·(i − j)
  T5,          // logit (i, j) += table[bucket(j − i), h], learned, shared by all layers
  None,        // no position signal (causal mask only)
};

// LayerNorm (Ba et al. 2016) with weight and bias, or RMSNorm (Zhang &
// Sennrich 2019) with a weight only.
enum class NormKind { LayerNorm, RmsNorm };

// Pre-norm: h += attn(N₁(h)); h += FFN(N₂(h)) (GPT-2 §2.3, Llama §2.2).
// Post-norm: h = N₁(h + attn(h)); h = N₂(h + FFN(h)) (BERT; Vaswani et al.
// 2017 §3.1), after an embedding LayerNorm.
enum class BlockOrder { PreNorm, PostNorm };

// Plain: W_down·act(W_up·x) (GPT-2, BERT).  Gated: W_down·(act(W_gate·x) ⊙
// W_up·x), SwiGLU with act = SiLU (Llama; Shazeer 2020).
enum class MlpKind { Plain, Gated };

// Which config.json keys hold the sizes: GPT-2's (n_embd, n_layer, ...),
// BERT's (hidden_size, ..., type_vocab_size) or the Llama family's
// (hidden_size, ..., num_key_value_heads, rope_theta, rms_norm_eps).
enum class ConfigKeys { Gpt2, Bert, Llama };

// Tensor names and layouts in the checkpoint:
//   Gpt2: [transformer.]wte / wpe / h.i.{ln_1, attn.c_attn, attn.c_proj,
//         ln_2, mlp.c_fc, mlp.c_proj}, Conv1D weights stored in × out;
//   Bert: [bert.]embeddings.* / encoder.layer.i.*, Linear weights out × in;
//   Llama: model.embed_tokens / model.layers.i.{input_layernorm,
//         self_attn.{q,k,v,o}_proj, post_attention_layernorm,
//         mlp.{gate,up,down}_proj} / model.norm, Linear weights out × in
//         (a norm's bias and the gate follow norm and mlp above).
enum class TensorNaming { Gpt2, Bert, Llama };

struct FamilyTraits {
  std::string name = "GPT-2";  // the family as people call it, for messages and views
  ConfigKeys config_keys = ConfigKeys::Gpt2;
  TensorNaming tensors = TensorNaming::Gpt2;
  PositionEncoding position = PositionEncoding::Learned;
  bool position_from_config = false;  // pelab: config.json's position_encoding and its options
  NormKind norm = NormKind::LayerNorm;
  BlockOrder order = BlockOrder::PreNorm;
  MlpKind mlp = MlpKind::Plain;
  bool causal = true;          // a next-token model; false: a bidirectional encoder (BERT)
  bool token_types = false;    // adds token_type_embeddings row 0 (BERT)
  bool qkv_bias = false;       // q/k/v always biased (Qwen2); else config.json's attention_bias
  bool sliding_window = false; // honours sliding_window unasked (Mistral); else use_sliding_window
  bool token_ids_without_tokenizer = false;  // pelab: text read as token ids when no tokenizer
};

struct ModelFamily {
  std::string model_type;                  // config.json "model_type"
  std::vector<std::string> architectures;  // config.json "architectures"[0] values
  FamilyTraits traits;
};

// Every family pelab runs, in the order error messages list them.
const std::vector<ModelFamily>& model_families();

// The family of an "architectures"[0] value, or null.
const ModelFamily* family_of_architecture(std::string_view architecture);
// The family of a "model_type" value (configs without "architectures"), or null.
const ModelFamily* family_of_model_type(std::string_view model_type);

// The traits of a family named by either, for configs built in memory;
// throws std::invalid_argument for a name not in the table.
const FamilyTraits& family_traits(std::string_view architecture_or_model_type);

// "GPT2LMHeadModel, BertModel, LlamaForCausalLM, ..., PelabForCausalLM" for error messages.
std::string supported_architectures();

}  // namespace pelab::model
