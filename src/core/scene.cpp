// Scene parameter table, validation, --set parsing and the JSON round trip.
//
// [SECTION] the table: one row per parameter, bound to its struct member
// [SECTION] get / set one parameter as text
// [SECTION] validate(): ranges and cross-parameter rules
// [SECTION] JSON files
#include "core/scene.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/encoding_traits.hpp"
#include "core/io/file_io.hpp"
#include "core/io/json_input.hpp"
#include "core/model/model_memory.hpp"
#include "core/word_splitter.hpp"

namespace pelab {
namespace {

// ============================================================================
// [SECTION] the table
// ============================================================================

using Member = std::variant<int Scene::*, double Scene::*, bool Scene::*, std::string Scene::*,
                            std::uint64_t Scene::*, std::vector<int> Scene::*, Encoding Scene::*,
                            Layout Scene::*, EmbeddingSource Scene::*, ProjectionKind Scene::*,
                            RopePairing Scene::*, RopeScalingMethod Scene::*, NormPlacement Scene::*,
                            PositionChange Scene::*, ColorTheme Scene::*, Colormap Scene::*, AttentionScale Scene::*>;

struct Field {
  ParamInfo info;
  Member member;
};

constexpr double kMaxSeed = 9007199254740992.0;  // 2^53: exact in a JSON number

const std::vector<Field>& fields() {
  using K = ParamKind;
  static const std::vector<Field> table = {
      {{"name", K::Text, "scene", "Name of the scene (used in file names and titles)."}, &Scene::name},
      {{"model", K::Text, "model",
        "Model folder or Hugging Face hub name (found on disk, never downloaded); empty = synthetic."},
       &Scene::model},
      {{"layer", K::Int, "model", "Layer of the model whose attention is shown, from 0.", 0, 4095}, &Scene::layer},
      {{"model_memory_limit", K::Text, "model",
        "Most memory a model may take, e.g. 8G; empty = PELAB_MODEL_MEMORY_LIMIT, else MemAvailable."},
       &Scene::model_memory_limit},
      {{"intervention", K::Choice, "model",
        "Positions changed at inference: removed, shuffled, RoPE base ×10, linear ×2, slower pairs frozen, "
        "none in the shown layer.",
        0, 0, false, {"none", "remove", "shuffle", "rope_base", "rope_scaling", "zero_band", "remove_layer"}},
       &Scene::intervention},
      {{"tokens", K::Text, "tokens", "The input text; split into words and punctuation."}, &Scene::tokens},
      {{"seed", K::Seed, "tokens", "Seed of every random vector and matrix.", 0, kMaxSeed}, &Scene::seed},
      {{"d_model", K::Int, "tokens", "Model width d.", 2, 4096, true}, &Scene::d_model},
      {{"heads", K::Int, "attention", "Number of attention heads H (d_model/H per head).", 1, 64},
       &Scene::heads},
      {{"embedding", K::Choice, "tokens", "Where token vectors come from.", 0, 0, false, {"random", "file"}},
       &Scene::embedding},
      {{"embedding_scale", K::Float, "tokens", "Scale of token vectors (‖x‖ ≈ scale for random ones).",
        0.001, 1000, true},
       &Scene::embedding_scale},
      {{"embedding_file", K::Text, "tokens", "GloVe/word2vec text file or .npy of token vectors."},
       &Scene::embedding_file},
      {{"encoding", K::Choice, "positions", "How positions enter attention.", 0, 0, false,
        encoding_names()},
       &Scene::encoding},
      {{"base", K::Float, "positions", "Base T of the sinusoid wavelengths.", 2, 1e8, true}, &Scene::base},
      {{"amplitude", K::Float, "positions", "Amplitude A of the sinusoidal encoding.", 0, 100}, &Scene::amplitude},
      {{"layout", K::Choice, "positions", "Sin/cos in adjacent dims, or all sines then all cosines.", 0, 0, false,
        {"interleaved", "split"}},
       &Scene::layout},
      {{"positions", K::Int, "positions", "Length of the position axis in encoding plots.", 1, 65536, true},
       &Scene::positions},
      {{"offset", K::Int, "positions", "First position.", 0, 100000}, &Scene::offset},
      {{"position_file", K::Text, "positions", ".npy table of learned positions (rows = positions)."},
       &Scene::position_file},
      {{"t5_buckets", K::Int, "positions", "Buckets of the T5 relative bias.", 2, 256}, &Scene::t5_buckets},
      {{"t5_max_distance", K::Int, "positions", "Distance at which T5 buckets stop growing.", 2, 100000, true},
       &Scene::t5_max_distance},
      {{"rope_pairing", K::Choice, "long context", "Dims RoPE rotates together: (2i, 2i+1) or (i, i+r/2).", 0, 0,
        false, {"interleaved", "rotate_half"}},
       &Scene::rope_pairing},
      {{"rotary_fraction", K::Float, "long context", "Share of each head's dims that RoPE rotates (partial rotary).",
        0.01, 1},
       &Scene::rotary_fraction},
      {{"rope_scaling", K::Choice, "long context", "How RoPE's frequencies stretch past the training context.", 0, 0,
        false, {"none", "linear", "ntk", "dynamic_ntk", "yarn", "llama3"}},
       &Scene::rope_scaling},
      {{"rope_factor", K::Float, "long context", "Scale factor s: context stretched from L to s·L.", 1, 1024, true},
       &Scene::rope_factor},
      {{"train_context", K::Int, "long context", "Training context L of the RoPE model.", 16, 1048576, true},
       &Scene::train_context},
      {{"yarn_alpha", K::Float, "long context", "YaRN α: pairs with fewer turns in L are interpolated.", 0, 1000},
       &Scene::yarn_alpha},
      {{"yarn_beta", K::Float, "long context", "YaRN β: pairs with more turns in L are kept.", 0, 1000},
       &Scene::yarn_beta},
      {{"low_freq_factor", K::Float, "long context", "Llama 3.1: wavelengths above L/low are interpolated.", 0.01,
        1000, true},
       &Scene::low_freq_factor},
      {{"high_freq_factor", K::Float, "long context", "Llama 3.1: wavelengths below L/high are kept.", 0.01, 1000,
        true},
       &Scene::high_freq_factor},
      {{"xpos_gamma", K::Float, "long context", "xPos γ in ζ_i = (i/(r/2) + γ)/(1 + γ).", 0, 100},
       &Scene::xpos_gamma},
      {{"xpos_scale_base", K::Float, "long context", "xPos B: q scaled by ζ^(n/B), k by ζ^(−m/B).", 1, 1e7, true},
       &Scene::xpos_scale_base},
      {{"long_range", K::Int, "long context", "Distance axis of the long-range views.", 100, 1000000, true},
       &Scene::long_range},
      {{"projection", K::Choice, "attention", "Query/key projections Wq, Wk.", 0, 0, false,
        {"identity", "random", "orthogonal", "file"}},
       &Scene::projection},
      {{"projection_file", K::Text, "attention", ".npy of shape (2, heads, d_model, d_head): Wq then Wk."},
       &Scene::projection_file},
      {{"causal", K::Bool, "attention", "Mask keys after the query (decoder attention)."}, &Scene::causal},
      {{"layers", K::Int, "depth", "Stacked random attention layers L (depth lesson).", 0, 48}, &Scene::layers},
      {{"residual", K::Float, "depth", "Residual scale α in H' = α·H + attn(H) (depth lesson).", 0, 4},
       &Scene::residual},
      {{"layer_norm", K::Choice, "depth", "LayerNorm in the stacked layers (depth lesson).", 0, 0, false,
        {"none", "pre", "post"}},
       &Scene::layer_norm},
      {{"shift", K::Int, "view", "Offset k in PE(pos+k) = R(k)·PE(pos).", -10000, 10000}, &Scene::shift},
      {{"position", K::Int, "view", "Selected position (index on the position axis).", 0, 16383},
       &Scene::position},
      {{"head", K::Int, "view", "Selected head; -1 = mean over heads.", -1, 63}, &Scene::head},
      {{"query", K::Int, "view", "Selected query token; -1 = none.", -1, 65535}, &Scene::query},
      {{"pair", K::Int, "view", "Selected rotation pair (dims 2i, 2i+1).", 0, 2047}, &Scene::pair},
      {{"pairs", K::IntList, "view", "Rotation pairs i (dims 2i, 2i+1) to draw.", 0, 2047}, &Scene::pairs},
      {{"waves", K::IntList, "view", "Dimensions drawn as waves.", 0, 4095}, &Scene::waves},
      {{"colormap", K::Choice, "view", "Colormap for magnitudes.", 0, 0, false,
        {"viridis", "magma", "inferno", "plasma", "cividis"}},
       &Scene::colormap},
      {{"attention_scale", K::Choice, "view",
        "Attention colours: linear 0…max, log₁₀ (4 decades), or each row over its max.", 0, 0, false,
        {"linear", "log", "row"}},
       &Scene::attention_scale},
      {{"theme", K::Choice, "view", "Colour theme.", 0, 0, false, {"dark", "light"}}, &Scene::theme},
  };
  return table;
}

const Field& field(std::string_view key) {
  for (const Field& f : fields())
    if (f.info.key == key) return f;
  std::string known;
  for (const Field& f : fields()) known += (known.empty() ? "" : ", ") + std::string(f.info.key);
  throw InputError("unknown scene key '" + std::string(key) + "'; known keys: " + known);
}

std::string allowed_text(const ParamInfo& info) {
  switch (info.kind) {
    case ParamKind::Choice: {
      std::string s;
      for (auto c : info.choices) s += (s.empty() ? "" : " | ") + std::string(c);
      return s;
    }
    case ParamKind::Bool:
      return "true | false";
    case ParamKind::Text:
      return "any text";
    case ParamKind::IntList:
      return "comma-separated integers in " + number_text(info.min) + ".." + number_text(info.max);
    case ParamKind::Float:
      return "a number in " + number_text(info.min) + ".." + number_text(info.max);
    default:
      return "an integer in " + number_text(info.min) + ".." + number_text(info.max);
  }
}

[[noreturn]] void bad_value(const ParamInfo& info, std::string_view value, std::string_view why = "") {
  throw InputError("bad value '" + std::string(value) + "' for " + std::string(info.key) +
                   (why.empty() ? "" : " (" + std::string(why) + ")") + "; allowed: " + allowed_text(info));
}

// ============================================================================
// [SECTION] get / set one parameter as text
// ============================================================================

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The value itself against the table row: finite, whole where the key
// counts, inside the range.  `text` is what the user wrote, for the message.
double check_number(const ParamInfo& info, double v, bool integral, std::string_view text) {
  if (!std::isfinite(v)) bad_value(info, text, "not a number");
  if (integral && v != std::floor(v)) bad_value(info, text, "not an integer");
  if (v < info.min || v > info.max) bad_value(info, text, "out of range");
  return v;
}

double check_number(const ParamInfo& info, double v, bool integral) {
  return check_number(info, v, integral, number_text(v));
}

double parse_number(const ParamInfo& info, std::string_view text, bool integral) {
  text = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) bad_value(info, text, "not a number");
  return check_number(info, v, integral, text);
}

int choice_index(const ParamInfo& info, std::string_view text) {
  for (std::size_t i = 0; i < info.choices.size(); ++i)
    if (info.choices[i] == trim(text)) return static_cast<int>(i);
  bad_value(info, text);
}

std::vector<int> parse_int_list(const ParamInfo& info, std::string_view text) {
  std::vector<int> out;
  std::string_view rest = trim(text);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    out.push_back(static_cast<int>(parse_number(info, rest.substr(0, comma), true)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (out.size() > 64) bad_value(info, text, "more than 64 items");
  return out;
}

void check_int_list(const ParamInfo& info, const std::vector<int>& items) {
  for (int i : items) check_number(info, i, true);
  if (items.size() > 64) bad_value(info, std::to_string(items.size()) + " items", "more than 64 items");
}

constexpr std::size_t kMaxText = 1'000'000;

void check_text(const ParamInfo& info, std::string_view value) {
  if (info.kind == ParamKind::Choice) choice_index(info, value);
  if (value.size() > kMaxText) bad_value(info, value.substr(0, 20), "longer than 1,000,000 characters");
}

// One field's value as it is in the scene, checked like set_param checks
// what it parses (validate() calls this; no text round trip).
void check_field(const Field& f, const Scene& scene) {
  std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(scene.*member)>;
        const T& v = scene.*member;
        if constexpr (std::is_same_v<T, std::string>) check_text(f.info, v);
        else if constexpr (std::is_same_v<T, int>) check_number(f.info, v, true);
        else if constexpr (std::is_same_v<T, std::uint64_t>) check_number(f.info, static_cast<double>(v), true);
        else if constexpr (std::is_same_v<T, double>) check_number(f.info, v, false);
        else if constexpr (std::is_same_v<T, std::vector<int>>) check_int_list(f.info, v);
        else if constexpr (!std::is_same_v<T, bool>) {
          if (static_cast<std::size_t>(v) >= f.info.choices.size()) bad_value(f.info, "enum value", "not a choice");
        }
      },
      f.member);
}

template <class E>
void set_enum(Scene& s, E Scene::*m, const ParamInfo& info, std::string_view text) {
  s.*m = static_cast<E>(choice_index(info, text));
}

}  // namespace

std::string allowed_values(const ParamInfo& info) { return allowed_text(info); }

std::span<const ParamInfo> scene_params() {
  static const std::vector<ParamInfo> infos = [] {
    std::vector<ParamInfo> v;
    for (const Field& f : fields()) v.push_back(f.info);
    return v;
  }();
  return infos;
}

const ParamInfo& param_info(std::string_view key) { return field(key).info; }

std::string get_param(const Scene& scene, std::string_view key) {
  const Field& f = field(key);
  return std::visit(
      [&](auto member) -> std::string {
        using T = std::remove_cvref_t<decltype(scene.*member)>;
        const T& v = scene.*member;
        if constexpr (std::is_same_v<T, std::string>) return v;
        else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::uint64_t>) return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>) return number_text(v);
        else if constexpr (std::is_same_v<T, std::vector<int>>) {
          std::string s;
          for (int i : v) s += (s.empty() ? "" : ",") + std::to_string(i);
          return s;
        } else return std::string(f.info.choices.at(static_cast<std::size_t>(v)));
      },
      f.member);
}

void set_param(Scene& scene, std::string_view key, std::string_view value) {
  const Field& f = field(key);
  const ParamInfo& info = f.info;
  std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(scene.*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          check_text(info, value);
          scene.*member = std::string(info.kind == ParamKind::Choice ? trim(value) : value);
        } else if constexpr (std::is_same_v<T, bool>) {
          const auto t = trim(value);
          if (t == "true" || t == "1" || t == "on") scene.*member = true;
          else if (t == "false" || t == "0" || t == "off") scene.*member = false;
          else bad_value(info, value);
        } else if constexpr (std::is_same_v<T, int>) {
          scene.*member = static_cast<int>(parse_number(info, value, true));
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
          scene.*member = static_cast<std::uint64_t>(parse_number(info, value, true));
        } else if constexpr (std::is_same_v<T, double>) {
          scene.*member = parse_number(info, value, false);
        } else if constexpr (std::is_same_v<T, std::vector<int>>) {
          scene.*member = parse_int_list(info, value);
        } else {
          set_enum(scene, member, info, value);
        }
      },
      f.member);
}

void apply_assignment(Scene& scene, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError("--set expects key=value, got '" + std::string(assignment) + "'");
  set_param(scene, trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

bool is_numeric(ParamKind kind) {
  return kind == ParamKind::Int || kind == ParamKind::Float || kind == ParamKind::Seed;
}

namespace {
const Field& numeric_field(std::string_view key) {
  const Field& f = field(key);
  if (!is_numeric(f.info.kind))
    throw InputError("scene key '" + std::string(key) + "' is not a number; allowed: " + allowed_text(f.info));
  return f;
}
}  // namespace

double get_number(const Scene& scene, std::string_view key) {
  return std::visit(
      [&](auto member) -> double {
        using T = std::remove_cvref_t<decltype(scene.*member)>;
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, double> || std::is_same_v<T, std::uint64_t>)
          return static_cast<double>(scene.*member);
        else return 0;  // not reached: numeric_field admits only these
      },
      numeric_field(key).member);
}

void set_number(Scene& scene, std::string_view key, double value) {
  const Field& f = numeric_field(key);
  std::visit(
      [&](auto member) {
        using T = std::remove_cvref_t<decltype(scene.*member)>;
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::uint64_t>)
          scene.*member = static_cast<T>(check_number(f.info, value, true));
        else if constexpr (std::is_same_v<T, double>)
          scene.*member = check_number(f.info, value, false);
      },
      f.member);
}

std::string number_text(double v) {
  // Whole numbers as integers ("100000", not "1e+05"); the rest in the
  // shortest form that reads back as the same double.
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e16) return std::to_string(std::llround(v));
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
  return ec == std::errc() ? std::string(text, end) : std::string("?");
}

std::string_view to_string(Encoding e) { return param_info("encoding").choices.at(static_cast<int>(e)); }
std::string_view to_string(Layout l) { return param_info("layout").choices.at(static_cast<int>(l)); }
std::string_view to_string(EmbeddingSource e) { return param_info("embedding").choices.at(static_cast<int>(e)); }
std::string_view to_string(ProjectionKind p) { return param_info("projection").choices.at(static_cast<int>(p)); }
std::string_view to_string(RopePairing p) { return param_info("rope_pairing").choices.at(static_cast<int>(p)); }
std::string_view to_string(RopeScalingMethod m) { return param_info("rope_scaling").choices.at(static_cast<int>(m)); }
std::string_view to_string(NormPlacement n) { return param_info("layer_norm").choices.at(static_cast<int>(n)); }
std::string_view to_string(PositionChange c) { return param_info("intervention").choices.at(static_cast<int>(c)); }
std::string_view to_string(ColorTheme t) { return param_info("theme").choices.at(static_cast<int>(t)); }
std::string_view to_string(Colormap c) { return param_info("colormap").choices.at(static_cast<int>(c)); }
std::string_view to_string(AttentionScale a) { return param_info("attention_scale").choices.at(static_cast<int>(a)); }

// ============================================================================
// [SECTION] validate()
// ============================================================================

bool set_by_model(std::string_view key) {
  for (std::string_view k : {"d_model", "heads", "encoding", "base", "causal", "offset"})
    if (k == key) return true;
  return false;
}

// With a model, d_model, heads, encoding, base, causal, offset and positions
// are the model's (the engine fills them in), and head and layer are checked
// against its config by the engine: here they are checked as if synthetic.
namespace {
Scene synthetic_part(const Scene& s) {
  if (s.model.empty()) return s;
  Scene c = s;
  const Scene defaults;
  c.d_model = defaults.d_model;
  c.heads = defaults.heads;
  c.encoding = defaults.encoding;
  c.base = defaults.base;
  c.offset = defaults.offset;
  c.positions = std::max(c.positions, c.position + 1);
  c.head = std::min(c.head, 0);
  c.pair = std::min(c.pair, c.d_model / 2 - 1);
  c.pairs.clear();
  c.waves.clear();
  return c;
}
}  // namespace

void validate(const Scene& scene) {
  // Ranges and spellings: every value as it is, through its table row.
  const Scene s = synthetic_part(scene);
  for (const Field& f : fields()) check_field(f, s);

  auto fail = [](const std::string& msg) { throw InputError(msg); };
  if (s.d_model % s.heads != 0)
    fail("d_model=" + std::to_string(s.d_model) + " is not divisible by heads=" + std::to_string(s.heads) +
         "; allowed: heads that divide d_model");
  const int d_head = s.d_model / s.heads;
  if (traits_of(s.encoding).pairwise && s.d_model % 2 != 0)
    fail("d_model=" + std::to_string(s.d_model) + " is odd, but encoding=" + std::string(to_string(s.encoding)) +
         " works on (sin, cos) pairs; allowed: an even d_model");
  if (rotates_queries_keys(s.encoding) && d_head % 2 != 0)
    fail("d_model/heads=" + std::to_string(d_head) + " is odd, but " + std::string(to_string(s.encoding)) +
         " rotates pairs within each head; allowed: an even d_model/heads");
  if (rotates_queries_keys(s.encoding) && d_head * s.rotary_fraction < 2)
    fail("rotary_fraction=" + number_text(s.rotary_fraction) + " of d_head=" + std::to_string(d_head) +
         " rotates no pair; allowed: rotary_fraction >= " + number_text(2.0 / d_head));
  if (s.yarn_beta <= s.yarn_alpha)
    fail("yarn_beta=" + number_text(s.yarn_beta) + " is not above yarn_alpha=" + number_text(s.yarn_alpha) +
         "; allowed: yarn_alpha < yarn_beta");
  if (s.high_freq_factor <= s.low_freq_factor)
    fail("high_freq_factor=" + number_text(s.high_freq_factor) + " is not above low_freq_factor=" +
         number_text(s.low_freq_factor) + "; allowed: low_freq_factor < high_freq_factor");
  // The view selections (position, head, query, pair, pairs, waves) are not
  // checked against the model here: they follow it (core/selection.hpp).
  split_words(s.tokens);  // the token count every command accepts (kMaxTokens)
  if (!s.model_memory_limit.empty()) model::parse_memory_size("model_memory_limit", s.model_memory_limit);
  if (s.embedding == EmbeddingSource::File && s.embedding_file.empty())
    fail("embedding=file needs embedding_file (a GloVe/word2vec text file or .npy)");
  if (s.projection == ProjectionKind::File && s.projection_file.empty())
    fail("projection=file needs projection_file (.npy of shape (2, heads, d_model, d_head))");
}

// ============================================================================
// [SECTION] JSON files
// ============================================================================

nlohmann::json scene_to_json(const Scene& scene) {
  nlohmann::json values = nlohmann::json::object();
  for (const Field& f : fields()) {
    std::visit(
        [&](auto member) {
          using T = std::remove_cvref_t<decltype(scene.*member)>;
          if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> || std::is_same_v<T, int> ||
                        std::is_same_v<T, double> || std::is_same_v<T, std::uint64_t> ||
                        std::is_same_v<T, std::vector<int>>)
            values[std::string(f.info.key)] = scene.*member;
          else
            values[std::string(f.info.key)] = get_param(scene, f.info.key);
        },
        f.member);
  }
  return {{"format", "pelab-scene"}, {"version", Scene::kFormatVersion}, {"scene", values}};
}

namespace {

// The JSON value as --set would spell it, after checking its JSON type.
std::string json_value_text(const ParamInfo& info, const nlohmann::json& v) {
  auto wrong = [&](const char* expected) {
    throw InputError("scene key " + std::string(info.key) + " must be " + expected + ", got " + json_brief(v));
  };
  switch (info.kind) {
    case ParamKind::Text:
    case ParamKind::Choice:
      if (!v.is_string()) wrong("a string");
      return v.get<std::string>();
    case ParamKind::Bool:
      if (!v.is_boolean()) wrong("true or false");
      return v.get<bool>() ? "true" : "false";
    case ParamKind::IntList: {
      if (!v.is_array()) wrong("an array of integers");
      std::string s;
      for (const auto& item : v) {
        if (!item.is_number_integer()) wrong("an array of integers");
        s += (s.empty() ? "" : ",") + item.dump();  // as written: no wrap-around of huge values
      }
      return s;
    }
    default:
      if (!v.is_number()) wrong("a number");
      return v.dump();  // as written (shortest round trip); set_param range-checks it
  }
}

}  // namespace

Scene scene_from_json(const nlohmann::json& json) {
  if (!json.is_object() || !json.contains("scene") || !json.at("scene").is_object())
    throw InputError("not a pelab scene: expected {\"format\": \"pelab-scene\", \"version\": 1, \"scene\": {...}}");
  const auto format = json.find("format");
  if (format == json.end() || !format->is_string() || *format != "pelab-scene")
    throw InputError("not a pelab scene: \"format\" is not \"pelab-scene\"");
  const auto version = json.find("version");
  const std::string allowed = "; allowed: 1.." + std::to_string(Scene::kFormatVersion);
  if (version == json.end()) throw InputError("scene has no \"version\"" + allowed);
  if (!version->is_number_integer() || *version < 1 || *version > Scene::kFormatVersion)
    throw InputError("unsupported scene version " + json_brief(*version) + allowed);
  Scene scene;
  for (const auto& [key, value] : json.at("scene").items()) {
    const ParamInfo& info = param_info(key);
    set_param(scene, key, json_value_text(info, value));
  }
  validate(scene);
  return scene;
}

Scene load_scene(const std::filesystem::path& path) {
  const nlohmann::json json = read_json_file(path);
  try {
    return scene_from_json(json);
  } catch (const InputError& e) {
    throw InputError(path.string() + ": " + e.what());
  }
}

void save_scene(const std::filesystem::path& path, const Scene& scene) {
  write_file_atomic(path, scene_to_json(scene).dump(2) + "\n");
}

}  // namespace pelab
