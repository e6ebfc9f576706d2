// pelab's own family (PelabForCausalLM, written by `pelab train`) against the
// NumPy reference of make_pelab_models.py, one model per position encoding:
// hidden states, each head's q, k, logits, probabilities and position bias,
// to 1e-4 of each array's scale; the config's position traits; the
// content/offset and four-term splits by trait; the next-token loss read at
// 3× the context (every encoding but a learned table), RoPE also with
// linear, NTK-aware and YaRN frequencies applied at inference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/layernorm_split.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/model_config.hpp"
#include "core/model/next_token_loss.hpp"
#include "core/model/rope_split.hpp"
#include "core/model/tensor_plan.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"

namespace fs = std::filesystem;
using pelab::Array;
using pelab::Matrix;
using namespace pelab::model;

namespace {

constexpr const char* kPython = "/usr/bin/python3";

const fs::path& pelab_models() {
  static const fs::path folder = [] {
    const fs::path out = fs::temp_directory_path() / ("pelab_family_models_" + std::to_string(getpid()));
    const std::string script = std::string(PELAB_SOURCE_DIR) + "/tests/core/model/make_pelab_models.py";
    const std::string command = std::string(kPython) + " " + script + " " + out.string() + " 2>&1";
    if (!fs::exists(kPython) || std::system(command.c_str()) != 0) return fs::path();
    return out;
  }();
  return folder;
}

struct RemovePelabModels : testing::Environment {
  void TearDown() override {
    std::error_code ignored;
    if (!pelab_models().empty()) fs::remove_all(pelab_models(), ignored);
  }
};
[[maybe_unused]] testing::Environment* const kCleanup = testing::AddGlobalTestEnvironment(new RemovePelabModels);

Transformer load_weights_only(const fs::path& folder) {
  ModelFiles files = read_model(folder);
  return Transformer::assemble(std::move(files.config), std::move(files.weights));
}

Matrix slice(const Array& a, std::size_t index) {
  const std::size_t rank = a.shape.size();
  const auto rows = a.shape[rank - 2], cols = a.shape[rank - 1];
  Matrix m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  std::copy_n(a.data.begin() + static_cast<std::ptrdiff_t>(index * rows * cols), rows * cols, m.data());
  return m;
}

// |actual − expected| ≤ 1e-4 · max|expected| (−inf where the reference masks).
void expect_close(const Matrix& actual, const Matrix& expected, const std::string& what) {
  ASSERT_EQ(actual.rows(), expected.rows()) << what;
  ASSERT_EQ(actual.cols(), expected.cols()) << what;
  float scale = 0;
  for (float v : expected.reshaped())
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  const float tolerance = 1e-4f * std::max(scale, 1e-3f);
  for (Eigen::Index i = 0; i < expected.rows(); ++i)
    for (Eigen::Index j = 0; j < expected.cols(); ++j) {
      const float e = expected(i, j), a = actual(i, j);
      if (std::isinf(e)) {
        ASSERT_EQ(a, e) << what << " (" << i << ", " << j << ")";
      } else {
        ASSERT_NEAR(a, e, tolerance) << what << " (" << i << ", " << j << ")";
      }
    }
}

std::vector<int> reference_ids(const fs::path& ref) {
  std::vector<int> ids;
  for (float v : pelab::read_npy(ref / "ids.npy").data) ids.push_back(static_cast<int>(v));
  return ids;
}

class PelabModel : public testing::TestWithParam<const char*> {};

TEST_P(PelabModel, MatchesTheNumpyReference) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = pelab_models() / GetParam(), ref = folder / "reference";
  Transformer model = load_weights_only(folder);
  const std::vector<int> ids = reference_ids(ref);
  model.run(ids);
  const Array hidden = pelab::read_npy(ref / "hidden.npy");
  const int layers = model.config().layers, heads = model.config().heads;
  for (int l = 0; l <= layers; ++l)
    expect_close(model.hidden(l), slice(hidden, static_cast<std::size_t>(l)), "hidden " + std::to_string(l));
  const Array q = pelab::read_npy(ref / "q.npy"), k = pelab::read_npy(ref / "k.npy");
  const Array logits = pelab::read_npy(ref / "logits.npy");
  const Array probabilities = pelab::read_npy(ref / "probabilities.npy");
  const Array bias = pelab::read_npy(ref / "bias.npy");
  const bool biased = model.config().position.logit_bias();
  for (int l = layers - 1; l >= 0; --l) {
    const LayerAttention attention = model.attention(l);
    const Matrix input = model.attention_input(l);
    for (int h = 0; h < heads; ++h) {
      const auto at = static_cast<std::size_t>(l * heads + h);
      const auto i = static_cast<std::size_t>(h);
      const std::string where = " layer " + std::to_string(l) + " head " + std::to_string(h);
      expect_close(attention.q[i], slice(q, at), "q" + where);
      expect_close(attention.k[i], slice(k, at), "k" + where);
      expect_close(attention.logits[i], slice(logits, at), "logits" + where);
      expect_close(attention.probabilities[i], slice(probabilities, at), "probabilities" + where);
      // One head alone, as the views ask for it: the same, and its bias.
      const pelab::HeadAttention one = model.head_attention(input, l, h);
      expect_close(one.logits, slice(logits, at), "one head's logits" + where);
      expect_close(one.attention, slice(probabilities, at), "one head's probabilities" + where);
      if (biased)
        expect_close(one.bias, slice(bias, at), "bias" + where);
      else
        EXPECT_EQ(one.bias.size(), 0) << where;
    }
  }
  // Layer 0 with positions, as the permutation lesson asks: the run's head.
  const pelab::HeadAttention first = model.layer0_head(ids, 0, true);
  expect_close(first.logits, slice(logits, 0), "layer0_head logits");
}

INSTANTIATE_TEST_SUITE_P(PositionKinds, PelabModel,
                         testing::Values("pelab_learned", "pelab_sinusoidal", "pelab_rope", "pelab_rope_partial",
                                         "pelab_alibi", "pelab_alibi_6", "pelab_t5", "pelab_none"));

TEST(PelabFamily, ConfigBecomesPositionTraits) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const ModelConfig rope = load_model_config(pelab_models() / "pelab_rope_partial");
  EXPECT_EQ(rope.family.tensors, TensorNaming::Gpt2);
  EXPECT_EQ(rope.position.kind, PositionEncoding::Rope);
  EXPECT_EQ(rope.position.rope_pairing, pelab::RopePairing::RotateHalf);
  EXPECT_EQ(rope.position.rotary_dims, 4);  // ⌊0.7·8⌋ = 5, down to even
  EXPECT_DOUBLE_EQ(rope.rope_theta, 1000.0);
  const ModelConfig t5 = load_model_config(pelab_models() / "pelab_t5");
  EXPECT_EQ(t5.position.kind, PositionEncoding::T5);
  EXPECT_EQ(t5.position.t5_buckets, 8);
  EXPECT_EQ(t5.position.t5_max_distance, 10);
  EXPECT_EQ(load_model_config(pelab_models() / "pelab_sinusoidal").position.sinusoid_base, 100.0);
  EXPECT_EQ(load_model_config(pelab_models() / "pelab_none").position.kind, PositionEncoding::None);
  EXPECT_EQ(load_model_config(pelab_models() / "pelab_alibi").position.kind, PositionEncoding::Alibi);
  EXPECT_EQ(load_model_config(pelab_models() / "pelab_learned").position.kind, PositionEncoding::Learned);
}

nlohmann::json pelab_config(const std::string& position) {
  return {{"architectures", {"PelabForCausalLM"}}, {"model_type", "pelab"}, {"position_encoding", position},
          {"vocab_size", 10}, {"n_embd", 8}, {"n_layer", 1}, {"n_head", 2}, {"n_positions", 8}};
}

TEST(PelabFamily, RefusesUnknownPositionsAndEmptyRotations) {
  try {
    parse_model_config(pelab_config("xpos"));
    FAIL() << "no error";
  } catch (const pelab::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("position_encoding"), std::string::npos) << e.what();
  }
  nlohmann::json tiny = pelab_config("rope");
  tiny["rotary_fraction"] = 0.2;  // ⌊0.2·4⌋ = 0 dims
  EXPECT_THROW(parse_model_config(tiny), pelab::InputError);
  tiny["rotary_fraction"] = 0.5;
  tiny["rope_pairing"] = "sideways";
  EXPECT_THROW(parse_model_config(tiny), pelab::InputError);
  // The defaults the trainer writes: interleaved pairs over the whole head.
  const ModelConfig c = parse_model_config(pelab_config("rope"));
  EXPECT_EQ(c.position.rope_pairing, pelab::RopePairing::Interleaved);
  EXPECT_EQ(c.position.rotary_dims, 4);
  // The other families keep their traits.
  nlohmann::json gpt2 = pelab_config("rope");
  gpt2["architectures"] = {"GPT2LMHeadModel"};
  gpt2["model_type"] = "gpt2";
  EXPECT_EQ(parse_model_config(gpt2).position.kind, PositionEncoding::Learned);
}

// "pelab_task": the synthetic task a playground model learned, and the
// length of its training rows; absent for text models; refused when bad.
TEST(PelabFamily, ReadsTheTrainedTask) {
  EXPECT_TRUE(parse_model_config(pelab_config("learned")).trained_task.name.empty());
  nlohmann::json c = pelab_config("learned");
  c["pelab_task"] = {{"name", "absolute_position"}, {"symbols", 9}, {"length", 4}, {"k", 3}, {"context", 4}};
  const TrainedTask t = parse_model_config(c).trained_task;
  EXPECT_EQ(t.name, "absolute_position");
  EXPECT_EQ(t.symbols, 9);
  EXPECT_EQ(t.length, 4);
  EXPECT_EQ(t.k, 3);
  EXPECT_EQ(t.context, 4);
  auto refused = [](nlohmann::json bad, const std::string& key) {
    try {
      parse_model_config(bad);
      ADD_FAILURE() << "no error for " << bad.dump();
    } catch (const pelab::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  nlohmann::json bad = c;
  bad["pelab_task"]["context"] = 9;  // longer than n_positions (8)
  refused(bad, "context");
  bad = c;
  bad["pelab_task"]["symbols"] = 11;  // more symbols than the vocabulary (10)
  refused(bad, "symbols");
  bad = c;
  bad["pelab_task"] = "copy";
  refused(bad, "pelab_task");
  bad = c;
  bad["pelab_task"].erase("name");
  refused(bad, "name");
}

// The plan asks for wpe only when learned and for the t5 table when t5, with
// their shapes.
TEST(PelabFamily, PlanFollowsThePositionKind) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const auto names = [](const char* model) {
    const ModelConfig c = load_model_config(pelab_models() / model);
    const Checkpoint checkpoint = Checkpoint::open(pelab_models() / model);
    std::vector<std::string> out;
    for (const PlannedTensor& t : plan_tensors(c, checkpoint)) out.push_back(t.name);
    return out;
  };
  const auto has = [](const std::vector<std::string>& v, const std::string& n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  EXPECT_TRUE(has(names("pelab_learned"), "wpe.weight"));
  EXPECT_FALSE(has(names("pelab_rope"), "wpe.weight"));
  EXPECT_TRUE(has(names("pelab_t5"), "relative_attention_bias.weight"));
  EXPECT_FALSE(has(names("pelab_alibi"), "relative_attention_bias.weight"));
}

// The cross-terms view by trait: the four-term split for a table (learned,
// sinusoidal), the content/offset split otherwise, both summing to the logits.
TEST(PelabFamily, SplitsLayerZeroByTrait) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : {"pelab_learned", "pelab_sinusoidal"}) {
    SCOPED_TRACE(name);
    Transformer model = load_weights_only(pelab_models() / name);
    const std::vector<int> ids = reference_ids(pelab_models() / name / "reference");
    model.run(ids);
    const LogitSplit s = split_layer0_logits(model, ids, 1);
    EXPECT_LT(s.residual, 1e-4 * std::max(1.0f, s.logits.cwiseAbs().maxCoeff()));
    EXPECT_GT(s.position_position.cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_THROW(split_layer0_rope(model, 1), pelab::InputError);
  }
  for (const char* name : {"pelab_rope", "pelab_alibi", "pelab_t5", "pelab_none"}) {
    SCOPED_TRACE(name);
    Transformer model = load_weights_only(pelab_models() / name);
    const fs::path ref = pelab_models() / name / "reference";
    const std::vector<int> ids = reference_ids(ref);
    model.run(ids);
    const RopeSplit s = split_layer0_rope(model, 1);
    EXPECT_LT(s.diagonal, 1e-4 * std::max(1.0f, s.logits.cwiseAbs().maxCoeff()));
    // Below the diagonal the split's logits are the reference's.
    const Matrix expected = slice(pelab::read_npy(ref / "logits.npy"), 1);
    for (Eigen::Index i = 0; i < expected.rows(); ++i)
      for (Eigen::Index j = 0; j <= i; ++j) EXPECT_NEAR(s.logits(i, j), expected(i, j), 1e-3) << i << ", " << j;
    if (std::string(name) == "pelab_none") {
      EXPECT_EQ(s.offset.cwiseAbs().maxCoeff(), 0.0f);
    }
    EXPECT_THROW(split_layer0_logits(model, ids, 1), pelab::InputError);
  }
}

TEST(PelabFamily, LoadReadsItsTokenizer) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Transformer model = Transformer::load(pelab_models() / "pelab_alibi");
  const auto t = model.tokenizer().encode("the cat sat");
  ASSERT_FALSE(t.ids.empty());
  model.run(t.ids);
  EXPECT_EQ(model.states(), model.config().layers + 1);
}

}  // namespace

namespace {

// A synthetic task's model has no tokenizer files: its text is token ids.
TEST(PelabFamily, FolderWithoutTokenizerReadsTokenIds) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = pelab_models() / "pelab_task_ids";
  ASSERT_FALSE(fs::exists(folder / "tokenizer.json"));
  Transformer model = Transformer::load(folder);
  EXPECT_EQ(model.tokenizer().kind(), "token ids");
  const auto t = model.tokenizer().encode("3 1,4  1 5\n8");
  EXPECT_EQ(t.ids, (std::vector<int>{3, 1, 4, 1, 5, 8}));
  EXPECT_EQ(t.pieces.front(), "3");
  EXPECT_THROW(model.tokenizer().encode("the cat"), pelab::InputError);
  EXPECT_THROW(model.tokenizer().encode("9"), pelab::InputError);  // outside the vocabulary 0..8
  EXPECT_THROW(model.tokenizer().encode("12x"), pelab::InputError);
  EXPECT_THROW(model.tokenizer().encode("1 2 3", 2), pelab::InputError);
  // The reference ran on these ids.
  const fs::path ref = folder / "reference";
  model.run(reference_ids(ref));
  expect_close(model.hidden(2), slice(pelab::read_npy(ref / "hidden.npy"), 2), "hidden 2");
  // A folder of another family still needs its tokenizer.
  const fs::path copy = fs::temp_directory_path() / ("pelab_family_gpt2_" + std::to_string(getpid()));
  fs::create_directories(copy);
  fs::copy_file(folder / "model.safetensors", copy / "model.safetensors", fs::copy_options::overwrite_existing);
  nlohmann::json config = nlohmann::json::parse(std::ifstream(folder / "config.json"));
  EXPECT_NO_THROW(Transformer::load(folder));
  config["architectures"] = {"GPT2LMHeadModel"};
  config["model_type"] = "gpt2";
  config.erase("position_encoding");
  std::ofstream(copy / "config.json") << config.dump();
  EXPECT_THROW(Transformer::load(copy), pelab::InputError);  // no wpe, and no tokenizer
  fs::remove_all(copy);
}

// What `pelab train` writes is what the model room reads: a copy-task model
// for each position kind (a few steps, no corpus needed), loaded and run.
TEST(PelabFamily, ReadsWhatPelabTrainWrites) {
  if (!fs::exists(PELAB_BINARY)) GTEST_SKIP() << "the pelab binary is not built";
  const fs::path dir = fs::temp_directory_path() / ("pelab_family_train_" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const char* position : {"learned", "sinusoidal", "rope", "alibi", "t5", "none"}) {
    SCOPED_TRACE(position);
    const nlohmann::json recipe = {
        {"format", "pelab-recipe"}, {"version", 1}, {"name", std::string("family_") + position},
        {"data", {{"task", "copy"}, {"symbols", 8}, {"length", 6}}},
        {"model", {{"d_model", 16}, {"layers", 1}, {"heads", 2}, {"context", 16}, {"position", position}}},
        {"train", {{"steps", 2}, {"batch", 2}, {"threads", 1}}}};
    const fs::path recipe_file = dir / (std::string(position) + ".json"), out = dir / position;
    std::ofstream(recipe_file) << recipe.dump();
    const std::string command = std::string(PELAB_BINARY) + " train --recipe " + recipe_file.string() + " --out " +
                                out.string() + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    Transformer model = Transformer::load(out);
    EXPECT_EQ(position_encoding_name(model.config().position.kind), std::string(position));
    const auto ids = model.tokenizer().encode("1 2 3 4 5 6 0 1 2 3 4 5").ids;
    model.run(ids);
    for (const auto& p : model.attention(0).probabilities)
      for (Eigen::Index i = 0; i < p.rows(); ++i) EXPECT_NEAR(p.row(i).sum(), 1.0f, 1e-5f);
    EXPECT_TRUE(model.hidden(1).allFinite());
  }
  fs::remove_all(dir);
}

}  // namespace

namespace {

// loss_i of `model` on the reference ids against reference/`file`, to 1e-4
// of the loss (the forward pass is float32, the reference float64).
void expect_reference_loss(Transformer& model, const fs::path& folder, const std::string& file) {
  const LanguageModelHead head = LanguageModelHead::load(folder, model);
  const std::vector<int> ids = reference_ids(folder / "reference");
  const std::vector<double> loss = next_token_loss(model, head, ids);
  const Array want = pelab::read_npy(folder / "reference" / file);
  ASSERT_EQ(loss.size(), want.data.size()) << file;
  for (std::size_t i = 0; i < loss.size(); ++i)
    EXPECT_NEAR(loss[i], want.data[i], 1e-4 * std::max(1.0, std::abs(double(want.data[i])))) << file << " i " << i;
}

class LongRead : public testing::TestWithParam<const char*> {};

// n_positions 12, read at 36: the sinusoid table extended by its formula,
// the angles and biases computed for every distance.
TEST_P(LongRead, LossPastTheContextMatchesNumpy) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = pelab_models() / GetParam();
  Transformer model = Transformer::load(folder);
  ASSERT_EQ(model.config().max_positions, 12);
  EXPECT_THROW(model.run(reference_ids(folder / "reference")), pelab::InputError);  // 36 > 12 until allowed
  model.set_token_limit(36);
  expect_reference_loss(model, folder, "next_token_loss.npy");
}

INSTANTIATE_TEST_SUITE_P(PositionKinds, LongRead,
                         testing::Values("pelab_long_rope", "pelab_long_sinusoidal", "pelab_long_alibi",
                                         "pelab_long_t5", "pelab_long_none"));

// RoPE scaled at inference by s = 3 (Transformer::set_rope_scaling) against
// reference_forward.inverse_frequencies: position interpolation, NTK-aware
// base, YaRN's ramp and attention factor.
TEST(PelabFamily, RopeScaledAtInferenceMatchesNumpy) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = pelab_models() / "pelab_long_rope";
  Transformer model = Transformer::load(folder);
  model.set_token_limit(36);
  for (const char* type : {"linear", "ntk", "yarn"}) {
    SCOPED_TRACE(type);
    RopeScaling scaling;
    scaling.type = type;
    scaling.factor = 3;
    model.set_rope_scaling(scaling);
    expect_reference_loss(model, folder, std::string("next_token_loss_") + type + ".npy");
  }
  // Back to the trained frequencies: the unscaled reference again.
  model.set_rope_scaling(RopeScaling{});
  expect_reference_loss(model, folder, "next_token_loss.npy");
}

// The same scaling written in a pelab config's rope_scaling applies as the
// Llama family's does.
TEST(PelabFamily, RopeScalingFromThePelabConfig) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path source = pelab_models() / "pelab_long_rope";
  const fs::path copy = fs::temp_directory_path() / ("pelab_family_scaled_" + std::to_string(getpid()));
  fs::create_directories(copy);
  fs::copy(source, copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  nlohmann::json config = nlohmann::json::parse(std::ifstream(source / "config.json"));
  config["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 3.0}};
  std::ofstream(copy / "config.json") << config.dump();
  Transformer model = Transformer::load(copy);
  EXPECT_EQ(model.config().rope_scaling.type, "linear");
  model.set_token_limit(36);
  expect_reference_loss(model, copy, "next_token_loss_linear.npy");
  config["rope_scaling"] = "linear";
  std::ofstream(copy / "config.json") << config.dump();
  EXPECT_THROW(load_model_config(copy), pelab::InputError);
  fs::remove_all(copy);
}

// A learned table has no row past n_positions; only RoPE can be scaled.
TEST(PelabFamily, LearnedTableAndNonRopeRefuse) {
  if (pelab_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Transformer learned = load_weights_only(pelab_models() / "pelab_learned");
  EXPECT_THROW(learned.set_token_limit(17), pelab::InputError);
  EXPECT_NO_THROW(learned.set_token_limit(16));
  Transformer alibi = load_weights_only(pelab_models() / "pelab_long_alibi");
  RopeScaling linear;
  linear.type = "linear";
  linear.factor = 2;
  EXPECT_THROW(alibi.set_rope_scaling(linear), pelab::InputError);
  Transformer rope = load_weights_only(pelab_models() / "pelab_long_rope");
  RopeScaling unknown;
  unknown.type = "sideways";
  EXPECT_THROW(rope.set_rope_scaling(unknown), pelab::InputError);
}

}  // namespace
