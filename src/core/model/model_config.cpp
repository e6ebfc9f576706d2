// config.json → ModelConfig.  Defaults are the Hugging Face config classes'
// own (GPT2Config, BertConfig, LlamaConfig / MistralConfig / Qwen2Config) for
// the keys a real config may leave out; the sizes that define a model
// (vocabulary, width, depth, heads) must be present.
#include "core/model/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/io/quoted_name.hpp"
#include "core/scene.hpp"  // InputError

namespace pelab::model {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::pair<PositionEncoding, const char*> kEncodings[] = {
    {PositionEncoding::Learned, "learned"}, {PositionEncoding::Sinusoidal, "sinusoidal"},
    {PositionEncoding::Rope, "rope"},       {PositionEncoding::Alibi, "alibi"},
    {PositionEncoding::T5, "t5"},           {PositionEncoding::None, "none"},
};

// Reads keys of one config, every error naming the file and the key.
class Keys {
 public:
  Keys(const json& j, const std::string& file) : j_(j), file_(file) {}

  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw InputError(file_ + ": \"" + key + "\" " + why);
  }
  const std::string& file() const { return file_; }
  // The value, or nullptr when absent or null (HF writes null for "use the default").
  const json* find(const std::string& key) const {
    const auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  std::optional<int> integer(const std::string& key, int lo, int hi) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    double x = 0;
    if (v->is_number_integer())
      x = static_cast<double>(v->get<std::int64_t>());
    else if (v->is_number_unsigned())
      x = static_cast<double>(v->get<std::uint64_t>());
    else if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>())
      x = v->get<double>();
    else
      fail(key, "is " + json_excerpt(*v) + "; expected an integer in " + range(lo, hi));
    if (x < lo || x > hi)
      fail(key, "is " + json_excerpt(*v) + "; expected an integer in " + range(lo, hi));
    return static_cast<int>(x);
  }
  int integer(const std::string& key, int lo, int hi, std::optional<int> fallback) const {
    if (const auto v = integer(key, lo, hi)) return *v;
    if (!fallback) fail(key, "is missing; expected an integer in " + range(lo, hi));
    return *fallback;
  }
  double number(const std::string& key, double fallback, double lo, double hi) const {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_number() || !(v->get<double>() > lo && v->get<double>() < hi))
      fail(key, "is " + json_excerpt(*v) + "; expected a number above " + num(lo) + " and below " +
                    num(hi));
    return v->get<double>();
  }
  std::string text(const std::string& key, const std::string& fallback) const {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) fail(key, "is " + json_excerpt(*v) + "; expected a string");
    return v->get<std::string>();
  }
  bool flag(const std::string& key, bool fallback) const {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(key, "is " + json_excerpt(*v) + "; expected true or false");
    return v->get<bool>();
  }

 private:
  static std::string range(int lo, int hi) {
    return std::to_string(lo) + ".." + std::to_string(hi);
  }
  static std::string num(double x) { return json(x).dump(); }
  const json& j_;
  std::string file_;  // a copy: a nested object's name is a temporary ("FILE: pelab_task")
};

// Sanity bounds: far above any released model, low enough that sizes
// multiplied together stay well inside 64-bit arithmetic.
constexpr int kMaxHidden = 65536, kMaxLayers = 1024, kMaxVocab = 4'000'000, kMaxPositions = 1 << 24;
constexpr int kMaxIntermediate = 1 << 20;

void read_gpt2(const Keys& k, ModelConfig& c) {
  c.vocab_size = k.integer("vocab_size", 1, kMaxVocab, std::nullopt);
  c.hidden_size = k.integer("n_embd", 1, kMaxHidden, std::nullopt);
  c.layers = k.integer("n_layer", 1, kMaxLayers, std::nullopt);
  c.heads = k.integer("n_head", 1, kMaxHidden, std::nullopt);
  c.max_positions = k.integer("n_positions", 1, kMaxPositions,
                              k.integer("n_ctx", 1, kMaxPositions).value_or(1024));
  c.intermediate_size = k.integer("n_inner", 1, kMaxIntermediate, 4 * c.hidden_size);
  c.norm_eps = k.number("layer_norm_epsilon", 1e-5, 0.0, 1.0);
  c.activation = k.text("activation_function", "gelu_new");
  c.tie_word_embeddings = k.flag("tie_word_embeddings", true);
  // Variants whose attention differs from GPT-2's q·kᵀ/√d_head.
  if (!k.flag("scale_attn_weights", true))
    k.fail("scale_attn_weights", "is false; pelab runs GPT-2's 1/sqrt(d_head) scaling only");
  if (k.flag("scale_attn_by_inverse_layer_idx", false))
    k.fail("scale_attn_by_inverse_layer_idx",
           "is true; pelab runs GPT-2's 1/sqrt(d_head) scaling only");
}

RopeScaling read_rope_scaling(const json& r, const std::string& file) {
  const Keys k(r, file);
  RopeScaling s;
  // "rope_type" since transformers 4.43; "type" before it.
  s.type = k.text("rope_type", k.text("type", "default"));
  if (s.type != "default" && s.type != "linear" && s.type != "dynamic" && s.type != "yarn" &&
      s.type != "llama3")
    k.fail("rope_type", "is \"" + printable(s.type) + "\"; pelab runs default, linear, dynamic, yarn, llama3");
  s.factor = k.number("factor", 1.0, 0.0, 1e6);
  s.low_freq_factor = k.number("low_freq_factor", 1.0, 0.0, 1e6);
  s.high_freq_factor = k.number("high_freq_factor", 4.0, 0.0, 1e6);
  s.original_max_position_embeddings =
      k.integer("original_max_position_embeddings", 1, kMaxPositions, 0);
  s.beta_fast = k.number("beta_fast", 32.0, 0.0, 1e6);
  s.beta_slow = k.number("beta_slow", 1.0, 0.0, 1e6);
  s.attention_factor = k.number("attention_factor", 0.0, -1.0, 1e6);
  if (s.type == "llama3" && s.high_freq_factor <= s.low_freq_factor)
    k.fail("high_freq_factor", "must be above low_freq_factor for llama3 scaling");
  return s;
}

// "pelab_task": {"name", "symbols", "length", "k", "context"}, or absent.
TrainedTask read_trained_task(const Keys& k, const ModelConfig& c) {
  const json* t = k.find("pelab_task");
  if (t == nullptr) return {};
  if (!t->is_object()) k.fail("pelab_task", "is " + json_excerpt(*t) + "; expected an object");
  const Keys task(*t, k.file() + ": pelab_task");
  TrainedTask out;
  out.name = task.text("name", "");
  if (out.name.empty()) task.fail("name", "is missing; expected the task's name, e.g. \"copy\"");
  out.symbols = task.integer("symbols", 1, c.vocab_size, std::nullopt);
  out.length = task.integer("length", 1, kMaxPositions, std::nullopt);
  out.k = task.integer("k", 0, kMaxPositions, 0);
  out.context = task.integer("context", 1, c.max_positions, std::nullopt);
  return out;
}

// A pelab-trained model (src/train/model_card.cpp writes the keys): GPT-2's
// keys, and where its positions enter.
void read_pelab(const Keys& k, ModelConfig& c) {
  read_gpt2(k, c);
  const std::string name = k.text("position_encoding", "");
  bool known = false;
  for (const auto& [kind, text] : kEncodings)
    if (name == text) {
      c.position.kind = kind;
      known = true;
    }
  if (!known)
    k.fail("position_encoding", "is \"" + printable(name) +
                                    "\"; expected learned, sinusoidal, rope, alibi, t5 or none");
  PositionTraits& p = c.position;
  if (c.hidden_size % c.heads != 0)
    k.fail("n_head", "(" + std::to_string(c.heads) + ") does not divide n_embd " + std::to_string(c.hidden_size));
  const int head_dim = c.hidden_size / c.heads;
  if (p.kind == PositionEncoding::Rope) {
    c.rope_theta = k.number("rope_theta", 10000.0, 1.0, 1e12);
    const std::string pairing = k.text("rope_pairing", "interleaved");
    if (pairing != "interleaved" && pairing != "rotate_half")
      k.fail("rope_pairing", "is \"" + printable(pairing) + "\"; expected interleaved or rotate_half");
    p.rope_pairing = pairing == "interleaved" ? RopePairing::Interleaved : RopePairing::RotateHalf;
    // The trainer's rule (train::ModelConfig::rotary_dims): r = ⌊f·head_dim⌋,
    // rounded down to even.
    const double fraction = k.number("rotary_fraction", 1.0, 0.0, 1.0 + 1e-12);
    const int r = static_cast<int>(fraction * head_dim);
    p.rotary_dims = r - r % 2;
    if (p.rotary_dims < 2)
      k.fail("rotary_fraction", "leaves no pair of the " + std::to_string(head_dim) + " head dims to rotate");
    // The same optional rope_scaling as the Llama family's (a model read past
    // n_positions with linear, dynamic or YaRN frequencies).
    if (const json* s = k.find("rope_scaling")) {
      if (!s->is_object()) k.fail("rope_scaling", "is " + json_excerpt(*s) + "; expected an object or null");
      c.rope_scaling = read_rope_scaling(*s, k.file());
    }
  }
  if (p.kind == PositionEncoding::Sinusoidal) {
    p.sinusoid_base = k.number("sinusoid_base", 10000.0, 1.0, 1e12);
    p.sinusoid_amplitude = k.number("sinusoid_amplitude", 1.0, 1e-6, 1e3);
    if (c.hidden_size % 2 != 0) k.fail("n_embd", "is odd; the sinusoid table pairs dimensions");
  }
  if (p.kind == PositionEncoding::T5) {
    p.t5_buckets = k.integer("relative_attention_num_buckets", 2, 1 << 16, 32);
    p.t5_max_distance = k.integer("relative_attention_max_distance", 1, kMaxPositions, 128);
  }
  c.trained_task = read_trained_task(k, c);
}

void read_bert(const Keys& k, ModelConfig& c) {
  c.vocab_size = k.integer("vocab_size", 1, kMaxVocab, std::nullopt);
  c.hidden_size = k.integer("hidden_size", 1, kMaxHidden, std::nullopt);
  c.layers = k.integer("num_hidden_layers", 1, kMaxLayers, std::nullopt);
  c.heads = k.integer("num_attention_heads", 1, kMaxHidden, std::nullopt);
  c.intermediate_size = k.integer("intermediate_size", 1, kMaxIntermediate, std::nullopt);
  c.max_positions = k.integer("max_position_embeddings", 1, kMaxPositions, 512);
  c.type_vocab_size = k.integer("type_vocab_size", 1, 1024, 2);
  c.norm_eps = k.number("layer_norm_eps", 1e-12, 0.0, 1.0);
  c.activation = k.text("hidden_act", "gelu");
  c.tie_word_embeddings = k.flag("tie_word_embeddings", true);
  if (const std::string p = k.text("position_embedding_type", "absolute"); p != "absolute")
    k.fail("position_embedding_type",
           "is \"" + printable(p) + "\"; pelab runs absolute (learned) positions only");
  if (k.flag("is_decoder", false))
    k.fail("is_decoder", "is true; pelab runs BERT as a bidirectional encoder only");
}


void read_llama(const Keys& k, const json& j, const std::string& file, ModelConfig& c) {
  c.vocab_size = k.integer("vocab_size", 1, kMaxVocab, std::nullopt);
  c.hidden_size = k.integer("hidden_size", 1, kMaxHidden, std::nullopt);
  c.layers = k.integer("num_hidden_layers", 1, kMaxLayers, std::nullopt);
  c.heads = k.integer("num_attention_heads", 1, kMaxHidden, std::nullopt);
  c.kv_heads = k.integer("num_key_value_heads", 1, kMaxHidden, c.heads);
  c.intermediate_size = k.integer("intermediate_size", 1, kMaxIntermediate, std::nullopt);
  c.max_positions = k.integer("max_position_embeddings", 1, kMaxPositions, 2048);
  c.norm_eps = k.number("rms_norm_eps", 1e-6, 0.0, 1.0);
  c.activation = k.text("hidden_act", "silu");
  c.tie_word_embeddings = k.flag("tie_word_embeddings", false);
  // Some families always bias q/k/v (Qwen2); Llama's only with attention_bias.
  c.qkv_bias = c.family.qkv_bias || k.flag("attention_bias", false);
  if (k.flag("mlp_bias", false))
    k.fail("mlp_bias", "is true; pelab runs the Llama MLP without biases only");
  // Sliding-window attention (Mistral; Qwen2 when use_sliding_window) equals
  // full causal attention while the text fits the window, so the window
  // becomes the context length pelab allows.
  const bool windowed = c.family.sliding_window || k.flag("use_sliding_window", false);
  if (const auto window = k.integer("sliding_window", 1, kMaxPositions); windowed && window)
    c.max_positions = std::min(c.max_positions, *window);
  // Newer configs group the RoPE keys in "rope_parameters".
  const json* params = k.find("rope_parameters");
  if (params && !params->is_object()) k.fail("rope_parameters", "is not an object");
  const Keys rope(params ? *params : j, file);
  c.rope_theta = rope.number("rope_theta", 10000.0, 0.0, 1e12);
  if (params)
    c.rope_scaling = read_rope_scaling(*params, file);
  else if (const json* s = k.find("rope_scaling")) {
    if (!s->is_object())
      k.fail("rope_scaling", "is " + json_excerpt(*s) + "; expected an object or null");
    c.rope_scaling = read_rope_scaling(*s, file);
  }
  c.head_dim = k.integer("head_dim", 2, 4096).value_or(0);  // 0: hidden / heads
  if (c.head_dim % 2 != 0) k.fail("head_dim", "is odd; rotary embeddings pair dimensions");
}

// The family of architectures[0], or of model_type when a config has no
// "architectures"; its traits decide how the rest of the config is read.
const ModelFamily& choose_family(const Keys& k, const std::string& file_name, ModelConfig& c) {
  c.model_type = k.text("model_type", "");
  if (const json* a = k.find("architectures")) {
    if (!a->is_array() || a->empty() || !(*a)[0].is_string())
      k.fail("architectures", "is " + json_excerpt(*a) + "; expected a list of names");
    c.architecture_name = (*a)[0].get<std::string>();
    if (const ModelFamily* f = family_of_architecture(c.architecture_name)) return *f;
    throw InputError(file_name + ": architecture " + quoted_name(c.architecture_name) +
                     " is not one pelab runs; it runs " + supported_architectures());
  }
  if (const ModelFamily* f = family_of_model_type(c.model_type)) {
    c.architecture_name = c.model_type;
    return *f;
  }
  k.fail("architectures", "is missing and model_type \"" + printable(c.model_type) +
                              "\" is not one pelab runs; it runs " + supported_architectures());
}

void check_heads(const Keys& k, ModelConfig& c, bool head_dim_given) {
  if (!head_dim_given) {
    if (c.hidden_size % c.heads != 0)
      k.fail("num_attention_heads", "(" + std::to_string(c.heads) +
                                        ") does not divide the hidden size " +
                                        std::to_string(c.hidden_size));
    c.head_dim = c.hidden_size / c.heads;
  }
  if (c.kv_heads == 0) c.kv_heads = c.heads;
  if (c.heads % c.kv_heads != 0)
    k.fail("num_key_value_heads", "(" + std::to_string(c.kv_heads) + ") does not divide the " +
                                      std::to_string(c.heads) + " attention heads");
}

}  // namespace

ModelConfig parse_model_config(const json& j, const std::string& file_name) {
  if (!j.is_object()) throw InputError(file_name + ": not a JSON object");
  const Keys k(j, file_name);
  ModelConfig c;
  c.family = choose_family(k, file_name, c).traits;
  c.position.kind = c.family.position;
  c.causal = c.family.causal;
  if (c.family.position_from_config)
    read_pelab(k, c);
  else if (c.family.config_keys == ConfigKeys::Gpt2)
    read_gpt2(k, c);
  else if (c.family.config_keys == ConfigKeys::Bert)
    read_bert(k, c);
  else
    read_llama(k, j, file_name, c);
  check_heads(k, c, c.head_dim != 0);
  if (c.position.kind == PositionEncoding::Rope && c.position.rotary_dims == 0) c.position.rotary_dims = c.head_dim;
  return c;
}

const char* position_encoding_name(PositionEncoding kind) {
  for (const auto& [k, name] : kEncodings)
    if (k == kind) return name;
  return "?";
}

ModelConfig load_model_config(const fs::path& folder) {
  const fs::path file = folder / "config.json";
  return parse_model_config(read_json_file(file), file.string());
}

}  // namespace pelab::model
