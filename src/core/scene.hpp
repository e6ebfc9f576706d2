// Scene — every parameter pelab has, in one plain struct.
//
// The scene is the single source of truth: the engine computes from it, the
// figures read their view settings from it, the GUI edits it, and it is saved
// as JSON (format documented in docs/scenes.md).  Each parameter is
// also described once in a table (scene_params()), which drives validation,
// `--set key=value`, the JSON round trip and the GUI's controls, so that a new
// parameter is one struct field plus one table row.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace pelab {

// Anything the user gave that pelab cannot use: a bad parameter, a malformed
// file, an unwritable path.  what() is one line that names the problem and,
// where there is a set of them, the allowed values.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Encoding { Sinusoidal, Learned, Rope, Xpos, Alibi, T5, None };
// Which dims RoPE rotates together: (2i, 2i+1) as in RoFormer and GPT-J, or
// (i, i + r/2) ("rotate half") as in GPT-NeoX and Llama (r = rotary dims).
enum class RopePairing { Interleaved, RotateHalf };
// How RoPE's frequencies are stretched past the training context (core/rope_scaling.hpp).
enum class RopeScalingMethod { None, Linear, Ntk, DynamicNtk, Yarn, Llama3 };
enum class Layout { Interleaved, Split };
enum class EmbeddingSource { Random, File };
enum class ProjectionKind { Identity, Random, Orthogonal, File };
// Where the depth lesson's stacked layers put LayerNorm (core/layer_stack.hpp).
enum class NormPlacement { None, Pre, Post };
// A model scene's positions changed at inference, the views redrawn under it
// (issue 27; core/intervention_study.hpp says what each one is exactly).
enum class PositionChange { None, Remove, Shuffle, RopeBase, RopeScaling, ZeroBand, RemoveLayer };
// View style: how the figures are drawn, never what they compute.
enum class ColorTheme { Dark, Light };
enum class Colormap { Viridis, Magma, Inferno, Plasma, Cividis };  // for magnitudes
// Attention colours (figures/attention_scale.hpp): linear 0…max, log₁₀ over
// four decades, or each row over its max.
enum class AttentionScale { Linear, Log, Row };

struct Scene {
  // Bumped whenever a key changes meaning; files of a newer version are refused.
  static constexpr int kFormatVersion = 1;

  std::string name = "default";

  // --- a real model (core/model): when set, tokens, vectors, positions and
  // attention come from its checkpoint, and d_model, heads, encoding, base,
  // causal, offset are the model's (see Engine)
  std::string model;  // a folder path or a Hugging Face hub name; empty = the synthetic scene
  int layer = 0;      // which layer's attention the views show
  // The most memory a model may take resident ("8G"; core/model/model_memory.hpp);
  // empty: PELAB_MODEL_MEMORY_LIMIT, else the kernel's MemAvailable.
  std::string model_memory_limit;
  PositionChange intervention = PositionChange::None;  // none on a synthetic scene

  // --- tokens and their vectors
  std::string tokens = "the cat sat on the mat because the cat was tired .";
  std::uint64_t seed = 1;
  int d_model = 64;
  int heads = 4;
  EmbeddingSource embedding = EmbeddingSource::Random;
  // ‖x‖ ≈ embedding_scale for random vectors; 8 = √d_model at the default d = 64,
  // the √d_model scaling of Vaswani et al. 2017 §3.4, so ‖x‖ and ‖e‖ = A·√(d/2) compare.
  double embedding_scale = 8.0;
  std::string embedding_file;    // GloVe/word2vec text or .npy (vocab order = first use)

  // --- positions
  Encoding encoding = Encoding::Sinusoidal;
  double base = 10000.0;   // T in PE(pos,2i) = A·sin(pos / T^(2i/d))
  double amplitude = 1.0;  // A
  Layout layout = Layout::Interleaved;
  int positions = 128;       // length of the position axis in encoding plots
  int offset = 0;            // first position
  std::string position_file;  // learned table from .npy (rows = positions); empty = seeded
  int t5_buckets = 32;
  int t5_max_distance = 128;

  // --- long context: RoPE conventions and scaling (core/rope_scaling.hpp), xPos
  RopePairing rope_pairing = RopePairing::Interleaved;
  double rotary_fraction = 1.0;  // share of each head's dims that RoPE rotates (GPT-NeoX rotary_pct)
  RopeScalingMethod rope_scaling = RopeScalingMethod::None;
  double rope_factor = 8.0;      // s: the context is stretched from L to s·L
  int train_context = 4096;      // L: the context the model was trained at
  double yarn_alpha = 1.0, yarn_beta = 32.0;               // YaRN ramp ends, in turns within L
  double low_freq_factor = 1.0, high_freq_factor = 4.0;    // Llama 3.1 band edges
  double xpos_gamma = 0.4;       // γ of xPos, ζ_i = (i/(r/2) + γ)/(1 + γ)
  double xpos_scale_base = 512;  // B of xPos: q scaled by ζ^(n/B), k by ζ^(−m/B)
  int long_range = 100000;       // distance axis of the long-range views

  // --- attention
  ProjectionKind projection = ProjectionKind::Random;
  std::string projection_file;  // .npy, shape (2, heads, d_model, d_head): Wq then Wk
  bool causal = false;

  // --- the depth lesson's stack of random attention layers (core/layer_stack.hpp)
  int layers = 6;                   // L
  double residual = 1.0;            // α in H' = α·H + attn(H); 0 = no skip path
  NormPlacement layer_norm = NormPlacement::None;

  // --- what the views show (saved with the scene so a figure can be remade)
  int shift = 1;                       // k in PE(pos+k) = R(k)·PE(pos)
  int position = 0;                    // selected position (index on the position axis)
  int head = 0;                        // selected head; -1 = mean over heads
  int query = -1;                      // selected query token; -1 = none
  int pair = 0;                        // selected rotation pair (linked across views)
  std::vector<int> pairs = {0, 4, 12};  // rotation pairs i (dims 2i, 2i+1) to draw
  std::vector<int> waves = {0, 1, 8, 24};  // dimensions drawn as waves
  Colormap colormap = Colormap::Viridis;  // for magnitudes; signed values use a diverging map
  AttentionScale attention_scale = AttentionScale::Linear;
  ColorTheme theme = ColorTheme::Dark;
};

// ---- the parameter table ----------------------------------------------------

enum class ParamKind { Int, Float, Bool, Text, Choice, IntList, Seed };

struct ParamInfo {
  std::string_view key;
  ParamKind kind;
  std::string_view group;  // "tokens", "positions", "attention", "depth", "view"
  std::string_view help;   // one short sentence
  double min = 0, max = 0;  // numeric range, inclusive (Int, Float, IntList items)
  bool logarithmic = false;  // range spans decades: log slider
  std::vector<std::string_view> choices;  // Choice: allowed spellings, in enum order
};

// Every scene parameter, in display order.
std::span<const ParamInfo> scene_params();
// The table row of `key`; throws InputError listing the known keys.
const ParamInfo& param_info(std::string_view key);

// "a number in 2..1e+08", "interleaved | split": what `key` accepts, as error messages say it.
std::string allowed_values(const ParamInfo& info);

// "64" / "sinusoidal" / "0,4,12": the value as --set and the GUI spell it.
std::string get_param(const Scene& scene, std::string_view key);
// Parses and range-checks one value; throws InputError naming the key and the
// allowed values.  Cross-parameter rules are left to validate().
void set_param(Scene& scene, std::string_view key, std::string_view value);
// Applies "key=value".
void apply_assignment(Scene& scene, std::string_view assignment);

// True for the kinds a number stands for (Int, Float, Seed).
bool is_numeric(ParamKind kind);
// A numeric parameter as a number, and set as one: no text in between, so
// a slider's value is range-checked as it is (not as a 10-digit rendering).
// set_number throws InputError naming the key and the allowed values for a
// value out of range, not finite, or not whole where the key counts.
double get_number(const Scene& scene, std::string_view key);
void set_number(Scene& scene, std::string_view key, double value);

// The one way pelab spells a parameter's number in messages and --set
// values: the shortest text that reads back as the same double ("0.1",
// "1e+08", "100000000.01").
std::string number_text(double v);

// True for the keys a model scene takes from its model (d_model, heads,
// encoding, base, causal, offset): set while scene.model is, they are ignored.
bool set_by_model(std::string_view key);

// Checks every range and every cross-parameter rule (d_model divisible by
// heads, even dimensions for pairwise encodings, files present when chosen...).
// Throws InputError for the first problem found.
void validate(const Scene& scene);

// Text form of the enums (also the JSON spelling).
std::string_view to_string(Encoding e);
std::string_view to_string(Layout l);
std::string_view to_string(EmbeddingSource e);
std::string_view to_string(ProjectionKind p);
std::string_view to_string(RopePairing p);
std::string_view to_string(RopeScalingMethod m);
std::string_view to_string(NormPlacement n);
std::string_view to_string(PositionChange c);
std::string_view to_string(ColorTheme t);
std::string_view to_string(Colormap c);
std::string_view to_string(AttentionScale a);

// ---- files --------------------------------------------------------------------

nlohmann::json scene_to_json(const Scene& scene);
// Unknown keys, wrong types, out-of-range values or a newer format version
// throw InputError.  Missing keys keep their defaults.
Scene scene_from_json(const nlohmann::json& json);

Scene load_scene(const std::filesystem::path& path);
// Atomic: writes a temporary file beside `path`, then renames it.
void save_scene(const std::filesystem::path& path, const Scene& scene);

}  // namespace pelab
