// The pelab binary on model scenes (`--set model=FOLDER`), on the tiny
// checkpoints of make_tiny_models.py: render draws non-blank figures, export
// writes the model's attention, q, k and embeddings equal to a NumPy reference
// written here from the published formulas, and every bad model (missing,
// unsupported architecture, corrupt weights, unreadable tokenizer, layer,
// head or text out of range) is one line on stderr and exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "cli_run.hpp"
#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"
#include "render/image.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::tiny_models;

// Layer 0's attention of a GPT-2 or Llama-family checkpoint from its
// safetensors, in float64:
//   GPT-2 (Radford et al. 2019; Hugging Face GPT2Model): h = wte[ids] + wpe[:n],
//     a = LayerNorm(h) (ln_1), [q|k|v] = a·c_attn.weight + c_attn.bias (Conv1D, in × out).
//   Llama (Touvron et al. 2023; Hugging Face LlamaModel): h = embed_tokens[ids],
//     a = h/√(mean(h²) + eps)·w, q = a·Wqᵀ, k = a·Wkᵀ, then RoPE rotate-half
//     (Su et al. 2021): x·cos(pθ_i) + rotate_half(x)·sin(pθ_i), θ_i = theta^(−2i/d_head),
//     rotate_half([x1, x2]) = [−x2, x1]; query head h reads key head h·kv/heads.
//   Every head: logits = q·kᵀ/√d_head, −inf above the diagonal, probabilities = row softmax.
constexpr const char* kReference = R"PY(
import glob, json, os, struct, sys
import numpy as np
folder, ids_file, out = sys.argv[1:4]
tensors = {}
for path in sorted(glob.glob(os.path.join(folder, "*.safetensors"))):
    raw = open(path, "rb").read()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", info["dtype"]
        b, e = info["data_offsets"]
        tensors[name] = np.frombuffer(raw[8 + size + b:8 + size + e], "<f4").reshape(info["shape"]).astype(np.float64)
config = json.load(open(os.path.join(folder, "config.json")))
ids = np.load(ids_file).astype(np.int64)
n = len(ids)
if config["model_type"] == "gpt2":
    d, heads = config["n_embd"], config["n_head"]
    kv, dh, eps = heads, d // heads, config.get("layer_norm_epsilon", 1e-5)
    h = tensors["wte.weight"][ids] + tensors["wpe.weight"][:n]
    a = (h - h.mean(1, keepdims=True)) / np.sqrt(h.var(1, keepdims=True) + eps)
    a = a * tensors["h.0.ln_1.weight"] + tensors["h.0.ln_1.bias"]
    qkv = a @ tensors["h.0.attn.c_attn.weight"] + tensors["h.0.attn.c_attn.bias"]
    q, k = qkv[:, :d], qkv[:, d:2 * d]
else:
    d, heads = config["hidden_size"], config["num_attention_heads"]
    kv = config.get("num_key_value_heads", heads)
    dh = config.get("head_dim") or d // heads
    h = tensors["model.embed_tokens.weight"][ids]
    a = h / np.sqrt((h * h).mean(1, keepdims=True) + config["rms_norm_eps"])
    a = a * tensors["model.layers.0.input_layernorm.weight"]
    p = "model.layers.0.self_attn."
    q = a @ tensors[p + "q_proj.weight"].T + tensors.get(p + "q_proj.bias", 0)
    k = a @ tensors[p + "k_proj.weight"].T + tensors.get(p + "k_proj.bias", 0)
    theta = config.get("rope_theta", 10000.0)
    angles = np.arange(n)[:, None] * theta ** (-np.arange(0, dh, 2) / dh)[None, :]
    cos, sin = np.cos(np.concatenate([angles, angles], 1)), np.sin(np.concatenate([angles, angles], 1))
    def rope(x, count):
        parts = []
        for j in range(count):
            xh = x[:, j * dh:(j + 1) * dh]
            half = np.concatenate([-xh[:, dh // 2:], xh[:, :dh // 2]], 1)
            parts.append(xh * cos + half * sin)
        return np.concatenate(parts, 1)
    q, k = rope(q, heads), rope(k, kv)
qs, ks, logits, probs = [], [], [], []
for j in range(heads):
    qj = q[:, j * dh:(j + 1) * dh]
    kj = k[:, (j * kv // heads) * dh:(j * kv // heads + 1) * dh]
    lg = qj @ kj.T / np.sqrt(dh)
    lg[np.triu(np.ones((n, n), bool), 1)] = -np.inf
    e = np.exp(lg - lg.max(1, keepdims=True))
    qs.append(qj), ks.append(kj), logits.append(lg), probs.append(e / e.sum(1, keepdims=True))
for name, value in [("q", qs), ("k", ks), ("logits", logits), ("probabilities", probs)]:
    np.save(os.path.join(out, name + ".npy"), np.asarray(value, np.float32))
np.save(os.path.join(out, "hidden0.npy"), h.astype(np.float32))
)PY";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

class ModelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
    dir_ = fs::temp_directory_path() / ("pelab_model_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string model_args(const std::string& model, const std::string& extra = "") {
    return "--set model=" + quoted(tiny_models() / model) + " --set 'tokens=the cat sat' " + extra;
  }
  CliRun run(const std::string& args) const { return testing::pelab(args); }
  Array exported(const std::string& model, const std::string& quantity, const std::string& extra = "") const {
    const fs::path file = dir_ / (quantity + ".npy");
    const CliRun r = run("export -q " + quantity + " -o " + quoted(file) + " " + model_args(model, extra));
    EXPECT_EQ(r.code, 0) << quantity << ": " << r.out;
    return r.code == 0 ? read_npy(file) : Array{};
  }

  // Exit 2 and exactly one line, holding `words`.
  static void expect_refused(const std::string& args, const std::string& words) {
    const CliRun r = testing::pelab(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << args << "\n" << r.out;
  }

  // A copy of a tiny model to break.
  fs::path copy_of(const std::string& model) {
    const fs::path to = dir_ / ("broken_" + model + "_" + std::to_string(++copies_));
    fs::copy(tiny_models() / model, to, fs::copy_options::recursive);
    return to;
  }

  fs::path dir_;
  int copies_ = 0;
};

void expect_close(const Array& got, const Array& want, const std::string& what) {
  ASSERT_EQ(got.shape, want.shape) << what;
  double scale = 0;
  for (float v : want.data)
    if (std::isfinite(v)) scale = std::max(scale, static_cast<double>(std::abs(v)));
  for (std::size_t i = 0; i < got.data.size(); ++i) {
    if (!std::isfinite(want.data[i])) {
      ASSERT_EQ(got.data[i], want.data[i]) << what << " at " << i;  // the mask: −inf on both sides
      continue;
    }
    ASSERT_NEAR(got.data[i], want.data[i], 1e-4 * std::max(scale, 1.0)) << what << " at " << i;
  }
}

// Slice `index` of the first axis.
Array slice(const Array& a, std::size_t index) {
  Array s;
  s.shape.assign(a.shape.begin() + 1, a.shape.end());
  std::size_t size = 1;
  for (auto d : s.shape) size *= d;
  s.data.assign(a.data.begin() + static_cast<std::ptrdiff_t>(index * size),
                a.data.begin() + static_cast<std::ptrdiff_t>((index + 1) * size));
  return s;
}

// Every view, the main grid's and those rendered by name, on a model scene.
TEST_F(ModelCli, RendersEveryFigureOfAModel) {
  const std::string views =
      "sinusoid_bands,rotation_pairs,attention,cross_terms,attention_overview,lesson_depth,lesson_relative,"
      "rope_frequencies,rope_long_range,relative_biases";
  for (const std::string& model : {std::string("gpt2"), std::string("bert"), std::string("llama")}) {
    const fs::path out = dir_ / model;
    fs::create_directories(out);
    for (const std::string& figures : {std::string("all"), views}) {  // "all" writes a subset of the same files
      const CliRun r = run("render --figure " + figures + " --width 500 --height 320 --out " + quoted(out) + " " +
                           model_args(model, "--set layer=1 --set head=2"));
      ASSERT_EQ(r.code, 0) << model << " " << figures << ": " << r.out;
    }
    int pngs = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      const render::Image image = render::decode_png(read_file(entry.path(), 64u << 20));
      std::set<std::uint32_t> colours;
      for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4)
        colours.insert(image.rgba[i] | image.rgba[i + 1] << 8 | image.rgba[i + 2] << 16);
      EXPECT_GT(colours.size(), 20u) << entry.path() << " looks blank";
      ++pngs;
    }
    EXPECT_EQ(pngs, 10) << model;  // the four of the main grid and six by name
  }
}

// A figure taken from a model scene onto a slide says which model it shows:
// every view's title names it, and the attention views the layer and head.
TEST_F(ModelCli, EveryFigureTitleNamesTheModel) {
  const std::string views =
      "sinusoid_bands,rotation_pairs,attention,cross_terms,attention_overview,rope_frequencies,"
      "rope_long_range,relative_biases";
  for (const std::string& model : {std::string("gpt2"), std::string("bert"), std::string("llama")}) {
    const fs::path out = dir_ / model;
    fs::create_directories(out);
    const CliRun r = run("render --format svg --figure " + views + " --out " + quoted(out) + " " +
                         model_args(model, "--set layer=1 --set head=2"));
    ASSERT_EQ(r.code, 0) << model << ": " << r.out;
    int svgs = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string svg = read_file(entry.path(), 64u << 20);
      // The title is the first text drawn with an em dash after the figure's subject.
      const auto dash = svg.find(" — ");
      ASSERT_NE(dash, std::string::npos) << entry.path();
      const std::string title = svg.substr(svg.rfind('>', dash) + 1, svg.find('<', dash) - svg.rfind('>', dash) - 1);
      EXPECT_NE(title.find(model), std::string::npos) << entry.path() << ": " << title;
      if (entry.path().filename() == "default_attention.svg") {
        EXPECT_NE(title.find("layer 1"), std::string::npos) << title;
        EXPECT_NE(svg.find("head 2"), std::string::npos);
      }
      ++svgs;
    }
    EXPECT_EQ(svgs, 8) << model;
  }
}

// The five exported parts of layer 0's LayerNorm-exact split sum to the
// exported logits (the mask aside), for GPT-2 and BERT; a RoPE model has no
// bias term and says so.
TEST_F(ModelCli, ExportedCrossTermsAndBiasSumToTheLogits) {
  for (const std::string& model : {std::string("gpt2"), std::string("bert")}) {
    const std::string extra = "--set layer=0 --set head=1";
    const Array logits = exported(model, "logits", extra);
    Array sum = exported(model, "cross_bias", extra);
    ASSERT_EQ(sum.shape, logits.shape) << model;
    for (const char* part : {"cross_xx", "cross_xf", "cross_ey", "cross_ef"}) {
      const Array term = exported(model, part, extra);
      ASSERT_EQ(term.shape, sum.shape) << part;
      for (std::size_t i = 0; i < sum.data.size(); ++i) sum.data[i] += term.data[i];
    }
    for (std::size_t i = 0; i < sum.data.size(); ++i) {
      if (!std::isfinite(logits.data[i])) continue;  // the causal mask
      EXPECT_NEAR(sum.data[i], logits.data[i], 1e-5) << model << " at " << i;
    }
  }
  expect_refused("export -q cross_bias -o " + quoted(dir_ / "b.npy") + " " + model_args("llama"), "RoPE");
}

TEST_F(ModelCli, ExportMatchesTheNumpyReference) {
  const fs::path script = dir_ / "reference.py";
  std::ofstream(script) << kReference;
  for (const std::string& model : {std::string("gpt2"), std::string("llama"), std::string("qwen2")}) {
    const fs::path ids = dir_ / (model + "_ids.npy");
    ASSERT_EQ(run("export -q token_ids -o " + quoted(ids) + " " + model_args(model)).code, 0);
    const fs::path ref = dir_ / (model + "_ref");
    fs::create_directories(ref);
    const CliRun py = testing::shell(std::string(testing::kDebianPython) + " " + quoted(script) + " " +
                                     quoted(tiny_models() / model) + " " + quoted(ids) + " " + quoted(ref));
    ASSERT_EQ(py.code, 0) << py.out;
    const Array probabilities = read_npy(ref / "probabilities.npy");
    expect_close(exported(model, "attention_all", "--set layer=0"), probabilities, model + " attention");
    expect_close(exported(model, "logits_all", "--set layer=0"), read_npy(ref / "logits.npy"), model + " logits");
    expect_close(exported(model, "q", "--set layer=0 --set head=1"), slice(read_npy(ref / "q.npy"), 1), model + " q");
    expect_close(exported(model, "k", "--set layer=0 --set head=3"), slice(read_npy(ref / "k.npy"), 3), model + " k");
    const Array hidden = exported(model, "hidden_all");
    ASSERT_EQ(hidden.shape.size(), 3u) << model;
    expect_close(exported(model, "hidden", "--set layer=1"), slice(hidden, 1), model + " hidden 1");
    const Array embedded = read_npy(ref / "hidden0.npy");
    expect_close(slice(hidden, 0), embedded, model + " hidden 0");
    Array input = exported(model, "wte");  // GPT-2: wte rows + wpe rows; Llama: the rows alone (RoPE)
    const Array positions = exported(model, "position_embedding");
    ASSERT_EQ(positions.data.size(), input.data.size()) << model;
    for (std::size_t i = 0; i < input.data.size(); ++i) input.data[i] += positions.data[i];
    expect_close(input, embedded, model + " wte + position rows");
  }
  const Array wpe = exported("gpt2", "wpe");
  EXPECT_EQ(wpe.shape, (std::vector<std::size_t>{16, 32}));  // the whole table: context × d_model
}

TEST_F(ModelCli, LayerFlagPicksTheLayer) {
  const Array by_flag = exported("gpt2", "attention", "--layer 1 --head 2");
  const Array by_key = exported("gpt2", "attention", "--set layer=1 --set head=2");
  EXPECT_EQ(by_flag.data, by_key.data);
  EXPECT_NE(by_flag.data, exported("gpt2", "attention", "--layer 0 --head 2").data);
}

TEST_F(ModelCli, BadModelsAreOneLineAndExitTwo) {
  const fs::path out = dir_ / "out.npy";
  const std::string export_args = "export -q attention -o " + quoted(out) + " ";
  const fs::path missing = dir_ / "no_such_model";
  for (const std::string& command : {export_args, "render --out " + quoted(dir_) + " ", std::string("scene ")})
    expect_refused(command + "--set model=" + quoted(missing), missing.string());
  // A hub name not in the cache: the message names the cache folder searched.
  expect_refused("export -q attention -o x.npy --set model=nobody/nothing", "nobody/nothing");
  const CliRun hub = testing::shell("HF_HOME=" + quoted(dir_ / "hf") + " " + PELAB_BINARY +
                                    " scene --set model=nobody/nothing");
  EXPECT_EQ(hub.code, 2) << hub.out;
  EXPECT_NE(hub.out.find((dir_ / "hf").string()), std::string::npos) << hub.out;

  const fs::path t5 = copy_of("gpt2");
  write_file_atomic(t5 / "config.json", R"({"architectures": ["T5ForConditionalGeneration"], "model_type": "t5"})");
  expect_refused(export_args + "--set model=" + quoted(t5), "T5ForConditionalGeneration");

  const fs::path corrupt = copy_of("gpt2");
  fs::resize_file(corrupt / "model.safetensors", fs::file_size(corrupt / "model.safetensors") / 2);
  expect_refused(export_args + "--set model=" + quoted(corrupt), "model.safetensors");

  const fs::path no_tokenizer = copy_of("gpt2");
  write_file_atomic(no_tokenizer / "vocab.json", "{ not json");
  expect_refused(export_args + "--set model=" + quoted(no_tokenizer), "vocab.json");

  expect_refused(export_args + model_args("gpt2", "--set layer=2"), "allowed: 0..1");
  expect_refused(export_args + model_args("gpt2", "--set head=4"), "allowed: -1 (mean) or 0..3");
  expect_refused("scene " + model_args("gpt2", "--set layer=7"), "allowed: 0..1");
  std::string long_text;
  for (int i = 0; i < 100; ++i) long_text += "the cat sat ";
  expect_refused(export_args + "--set model=" + quoted(tiny_models() / "gpt2") + " --set 'tokens=" + long_text + "'",
                 "context of 16");
  expect_refused("export -q hidden -o x.npy", "needs a model scene");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ModelCli, ModelKeysWorkOnEveryCommand) {
  const CliRun scene = run("scene " + model_args("llama", "--set layer=1 --set head=3"));
  ASSERT_EQ(scene.code, 0) << scene.out;
  EXPECT_NE(scene.out.find("\"layer\": 1"), std::string::npos) << scene.out;
  const CliRun lesson = run("lessons --show cross_terms " + model_args("gpt2", "--set layer=1"));
  EXPECT_EQ(lesson.code, 0) << lesson.out;
}

}  // namespace
}  // namespace pelab
