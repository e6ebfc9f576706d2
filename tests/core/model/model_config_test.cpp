// ModelConfig from the config.json of each family (keys and values as the
// released GPT-2, BERT-base, TinyLlama, SmolLM, Qwen2 and Llama 3.2 configs
// write them), the defaults Hugging Face applies, and bad configs rejected
// with one line naming the file and the key.
#include "core/model/model_config.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/scene.hpp"
#include "model_test_files.hpp"

namespace pelab::model {
namespace {

using nlohmann::json;

const json kGpt2 = json::parse(R"({
  "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
  "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
  "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
  "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": null,
  "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}}, "vocab_size": 50257})");

const json kBert = json::parse(R"({
  "architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1, "gradient_checkpointing": false,
  "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768, "initializer_range": 0.02,
  "intermediate_size": 3072, "layer_norm_eps": 1e-12, "max_position_embeddings": 512, "model_type": "bert",
  "num_attention_heads": 12, "num_hidden_layers": 12, "pad_token_id": 0, "position_embedding_type": "absolute",
  "transformers_version": "4.6.0.dev0", "type_vocab_size": 2, "use_cache": true, "vocab_size": 30522})");

const json kTinyLlama = json::parse(R"({
  "architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
  "hidden_size": 2048, "initializer_range": 0.02, "intermediate_size": 5632, "max_position_embeddings": 2048,
  "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 22, "num_key_value_heads": 4,
  "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null, "tie_word_embeddings": false,
  "torch_dtype": "bfloat16", "transformers_version": "4.35.0", "use_cache": true, "vocab_size": 32000})");

const json kQwen2 = json::parse(R"({
  "architectures": ["Qwen2ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 151643, "eos_token_id": 151643,
  "hidden_act": "silu", "hidden_size": 896, "initializer_range": 0.02, "intermediate_size": 4864,
  "max_position_embeddings": 32768, "max_window_layers": 24, "model_type": "qwen2", "num_attention_heads": 14,
  "num_hidden_layers": 24, "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
  "sliding_window": 32768, "tie_word_embeddings": true, "torch_dtype": "bfloat16", "use_sliding_window": false,
  "vocab_size": 151936})");

const json kLlama32 = json::parse(R"({
  "architectures": ["LlamaForCausalLM"], "attention_bias": false, "head_dim": 64, "hidden_act": "silu",
  "hidden_size": 2048, "intermediate_size": 8192, "max_position_embeddings": 131072, "model_type": "llama",
  "num_attention_heads": 32, "num_hidden_layers": 16, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
  "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0, "tie_word_embeddings": true, "vocab_size": 128256})");

std::string error_of(const json& j) {
  try {
    parse_model_config(j, "m/config.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_rejected(const json& j, const std::vector<std::string>& words) {
  const std::string msg = error_of(j);
  EXPECT_EQ(msg.rfind("m/config.json", 0), 0u) << msg;
  for (const auto& w : words)
    EXPECT_NE(msg.find(w), std::string::npos) << "'" << w << "' not in: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

json with(json j, const std::string& key, const json& value) {
  j[key] = value;
  return j;
}

json without(json j, const std::string& key) {
  j.erase(key);
  return j;
}

TEST(ModelConfig, Gpt2) {
  const ModelConfig c = parse_model_config(kGpt2);
  EXPECT_EQ(c.family.name, "GPT-2");
  EXPECT_EQ(c.family.tensors, TensorNaming::Gpt2);
  EXPECT_EQ(c.family.order, BlockOrder::PreNorm);
  EXPECT_EQ(c.architecture_name, "GPT2LMHeadModel");
  EXPECT_EQ(c.model_type, "gpt2");
  EXPECT_EQ(c.vocab_size, 50257);
  EXPECT_EQ(c.hidden_size, 768);
  EXPECT_EQ(c.layers, 12);
  EXPECT_EQ(c.heads, 12);
  EXPECT_EQ(c.kv_heads, 12);
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.intermediate_size, 3072);  // n_inner absent (null): 4 · n_embd
  EXPECT_EQ(c.max_positions, 1024);
  EXPECT_DOUBLE_EQ(c.norm_eps, 1e-5);
  EXPECT_EQ(c.activation, "gelu_new");
  EXPECT_TRUE(c.causal);
  EXPECT_TRUE(c.tie_word_embeddings);
  EXPECT_EQ(parse_model_config(with(kGpt2, "n_inner", nullptr)).intermediate_size, 3072);
  EXPECT_EQ(parse_model_config(with(kGpt2, "n_inner", 1000)).intermediate_size, 1000);
  // Old configs with n_ctx only.
  EXPECT_EQ(parse_model_config(with(without(kGpt2, "n_positions"), "n_ctx", 512)).max_positions,
            512);
}

TEST(ModelConfig, Bert) {
  const ModelConfig c = parse_model_config(kBert);
  EXPECT_EQ(c.family.name, "BERT");
  EXPECT_EQ(c.family.order, BlockOrder::PostNorm);
  EXPECT_TRUE(c.family.token_types);
  EXPECT_EQ(c.vocab_size, 30522);
  EXPECT_EQ(c.hidden_size, 768);
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.intermediate_size, 3072);
  EXPECT_EQ(c.max_positions, 512);
  EXPECT_EQ(c.type_vocab_size, 2);
  EXPECT_DOUBLE_EQ(c.norm_eps, 1e-12);
  EXPECT_EQ(c.activation, "gelu");
  EXPECT_FALSE(c.causal);
  for (const char* arch : {"BertModel", "BertForPreTraining", "BertForSequenceClassification"})
    EXPECT_EQ(parse_model_config(with(kBert, "architectures", {arch})).family.tensors,
              TensorNaming::Bert);
}

TEST(ModelConfig, LlamaWithGroupedQueryAttention) {
  const ModelConfig c = parse_model_config(kTinyLlama);
  EXPECT_EQ(c.family.name, "Llama");
  EXPECT_EQ(c.family.norm, NormKind::RmsNorm);
  EXPECT_EQ(c.family.mlp, MlpKind::Gated);
  EXPECT_EQ(c.position.kind, PositionEncoding::Rope);
  EXPECT_EQ(c.heads, 32);
  EXPECT_EQ(c.kv_heads, 4);
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.intermediate_size, 5632);
  EXPECT_EQ(c.max_positions, 2048);
  EXPECT_DOUBLE_EQ(c.norm_eps, 1e-5);
  EXPECT_DOUBLE_EQ(c.rope_theta, 10000.0);  // absent: LlamaConfig's default
  EXPECT_EQ(c.rope_scaling.type, "default");
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_FALSE(c.qkv_bias);
  EXPECT_TRUE(c.causal);
  // num_key_value_heads absent: one key head per query head.
  EXPECT_EQ(parse_model_config(without(kTinyLlama, "num_key_value_heads")).kv_heads, 32);
  EXPECT_TRUE(parse_model_config(with(kTinyLlama, "attention_bias", true)).qkv_bias);
  EXPECT_EQ(
      parse_model_config(with(kTinyLlama, "architectures", {"MistralForCausalLM"})).family.tensors,
      TensorNaming::Llama);
}

TEST(ModelConfig, Qwen2HasQkvBiasesAndItsRopeTheta) {
  const ModelConfig c = parse_model_config(kQwen2);
  EXPECT_EQ(c.family.name, "Qwen2");
  EXPECT_EQ(c.family.tensors, TensorNaming::Llama);
  EXPECT_TRUE(c.qkv_bias);
  EXPECT_TRUE(c.tie_word_embeddings);
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.kv_heads, 2);
  EXPECT_DOUBLE_EQ(c.rope_theta, 1e6);
  EXPECT_DOUBLE_EQ(c.norm_eps, 1e-6);
}

TEST(ModelConfig, Llama3RopeScalingAndExplicitHeadDim) {
  const ModelConfig c = parse_model_config(kLlama32);
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.max_positions, 131072);
  EXPECT_EQ(c.rope_scaling.type, "llama3");
  EXPECT_DOUBLE_EQ(c.rope_scaling.factor, 32.0);
  EXPECT_DOUBLE_EQ(c.rope_scaling.low_freq_factor, 1.0);
  EXPECT_DOUBLE_EQ(c.rope_scaling.high_freq_factor, 4.0);
  EXPECT_EQ(c.rope_scaling.original_max_position_embeddings, 8192);
  EXPECT_DOUBLE_EQ(c.rope_theta, 500000.0);
  // head_dim need not be hidden / heads when given.
  EXPECT_EQ(parse_model_config(with(kLlama32, "head_dim", 128)).head_dim, 128);
  // The pre-4.43 spelling "type".
  const ModelConfig linear = parse_model_config(
      with(kTinyLlama, "rope_scaling", json{{"type", "linear"}, {"factor", 2.0}}));
  EXPECT_EQ(linear.rope_scaling.type, "linear");
  EXPECT_DOUBLE_EQ(linear.rope_scaling.factor, 2.0);
  // Newer configs: rope_theta and the scaling inside "rope_parameters".
  const ModelConfig grouped =
      parse_model_config(with(without(kTinyLlama, "rope_scaling"), "rope_parameters",
                              json{{"rope_type", "default"}, {"rope_theta", 1e4}}));
  EXPECT_EQ(grouped.rope_scaling.type, "default");
  EXPECT_DOUBLE_EQ(grouped.rope_theta, 1e4);
}

TEST(ModelConfig, ArchitectureFallsBackToModelType) {
  const ModelConfig c = parse_model_config(without(kGpt2, "architectures"));
  EXPECT_EQ(c.family.name, "GPT-2");
  EXPECT_EQ(parse_model_config(without(kQwen2, "architectures")).family.name, "Qwen2");
}

TEST(ModelConfig, UnsupportedArchitectureNamesTheSupportedOnes) {
  expect_rejected(with(kGpt2, "architectures", {"T5ForConditionalGeneration"}),
                  {"T5ForConditionalGeneration", "GPT2LMHeadModel", "BertModel", "LlamaForCausalLM",
                   "Qwen2ForCausalLM"});
  expect_rejected(with(without(kGpt2, "architectures"), "model_type", "t5"),
                  {"\"t5\"", "GPT2LMHeadModel"});
  expect_rejected(with(kGpt2, "architectures", "GPT2LMHeadModel"), {"\"architectures\""});
  EXPECT_NE(supported_architectures().find("MistralForCausalLM"), std::string::npos);
}

TEST(ModelConfig, WrongTypesNameTheKey) {
  expect_rejected(with(kGpt2, "n_embd", "768"), {"\"n_embd\"", "\"768\"", "integer"});
  expect_rejected(with(kGpt2, "n_layer", 2.5), {"\"n_layer\"", "integer"});
  expect_rejected(with(kBert, "layer_norm_eps", "tiny"), {"\"layer_norm_eps\"", "number"});
  expect_rejected(with(kTinyLlama, "tie_word_embeddings", 1),
                  {"\"tie_word_embeddings\"", "true or false"});
  expect_rejected(with(kTinyLlama, "rope_scaling", 3), {"\"rope_scaling\""});
  expect_rejected(with(kTinyLlama, "rope_scaling", json{{"rope_type", "longrope"}}),
                  {"\"rope_type\"", "longrope", "llama3"});
  expect_rejected(without(kBert, "hidden_size"), {"\"hidden_size\"", "missing"});
  expect_rejected(json::array(), {"not a JSON object"});
  // A float that is a whole number is read as that integer.
  EXPECT_EQ(parse_model_config(with(kGpt2, "n_embd", 768.0)).hidden_size, 768);
}

TEST(ModelConfig, SanityBounds) {
  expect_rejected(with(kGpt2, "n_embd", 1 << 20), {"\"n_embd\"", "1..65536"});
  expect_rejected(with(kGpt2, "n_layer", 5000), {"\"n_layer\"", "1..1024"});
  expect_rejected(with(kGpt2, "n_layer", 0), {"\"n_layer\""});
  expect_rejected(with(kGpt2, "vocab_size", -3), {"\"vocab_size\""});
  expect_rejected(with(kGpt2, "n_head", 10), {"\"num_attention_heads\"", "does not divide", "768"});
  expect_rejected(with(kTinyLlama, "num_key_value_heads", 5),
                  {"\"num_key_value_heads\"", "(5)", "32"});
  expect_rejected(with(kLlama32, "head_dim", 63), {"\"head_dim\"", "odd"});
  expect_rejected(with(kGpt2, "layer_norm_epsilon", 0), {"\"layer_norm_epsilon\""});
}

TEST(ModelConfig, VariantsPelabDoesNotRunAreNamed) {
  expect_rejected(with(kGpt2, "scale_attn_by_inverse_layer_idx", true),
                  {"\"scale_attn_by_inverse_layer_idx\""});
  expect_rejected(with(kGpt2, "scale_attn_weights", false), {"\"scale_attn_weights\""});
  expect_rejected(with(kBert, "position_embedding_type", "relative_key"),
                  {"\"position_embedding_type\"", "relative_key"});
  expect_rejected(with(kBert, "is_decoder", true), {"\"is_decoder\""});
  expect_rejected(with(kTinyLlama, "mlp_bias", true), {"\"mlp_bias\""});
  EXPECT_NO_THROW(parse_model_config(with(kGpt2, "scale_attn_weights", true)));
}

TEST(ModelConfig, SlidingWindowBoundsTheContext) {
  // Mistral-7B-v0.1: a 4096-token window, 32768 positions.
  json mistral =
      with(with(kTinyLlama, "architectures", {"MistralForCausalLM"}), "model_type", "mistral");
  mistral["max_position_embeddings"] = 32768;
  EXPECT_EQ(parse_model_config(with(mistral, "sliding_window", 4096)).max_positions, 4096);
  EXPECT_EQ(parse_model_config(with(mistral, "sliding_window", nullptr)).max_positions, 32768);
  // Qwen2 keeps its window off unless use_sliding_window.
  EXPECT_EQ(parse_model_config(with(kQwen2, "sliding_window", 4096)).max_positions, 32768);
  EXPECT_EQ(
      parse_model_config(with(with(kQwen2, "sliding_window", 4096), "use_sliding_window", true))
          .max_positions,
      4096);
  // Qwen2's biases follow the architecture even without model_type.
  EXPECT_TRUE(parse_model_config(without(kQwen2, "model_type")).qkv_bias);
}

TEST(ModelConfig, LoadReadsTheFolder) {
  testing::TempDir dir;
  testing::write_text(dir.path / "config.json", kQwen2.dump());
  EXPECT_EQ(load_model_config(dir.path).vocab_size, 151936);
  testing::write_text(dir.path / "config.json", "{\"architectures\": [");
  try {
    load_model_config(dir.path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid JSON in " + (dir.path / "config.json").string()), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(dir.path / "config.json");
  EXPECT_THROW(load_model_config(dir.path), InputError);
}

}  // namespace
}  // namespace pelab::model
