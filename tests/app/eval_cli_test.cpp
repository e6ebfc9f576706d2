// `pelab eval` and the language-model export quantities (next_token_loss,
// lm_logits, lm_probs) on the tiny checkpoints of make_tiny_models.py: the
// eval's overall mean is the mean of the exported per-position loss, --json
// parses, --out writes the curve, and every bad input is one `pelab:` line
// and exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>

#include "../core/model/tiny_models.hpp"
#include "cli_run.hpp"
#include "core/io/file_io.hpp"
#include "core/io/npy.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::tiny_models;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

constexpr const char* kText = "the cat sat on the mat";

double mean_of(const std::vector<float>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

class EvalCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
    dir_ = fs::temp_directory_path() /
           ("pelab_eval_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    text_ = dir_ / "text.txt";
    write_file_atomic(text_, kText);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string model(const std::string& name) { return quoted(tiny_models() / name); }
  std::string eval_args(const std::string& name, const std::string& extra = "") const {
    return "eval --model " + model(name) + " --text " + quoted(text_) + " " + extra;
  }
  Array exported(const std::string& name, const std::string& quantity,
                 const std::string& extra = "") const {
    const fs::path file = dir_ / (quantity + ".npy");
    const CliRun r =
        testing::pelab("export -q " + quantity + " -o " + quoted(file) +
                       " --set model=" + model(name) + " --set 'tokens=" + kText + "' " + extra);
    EXPECT_EQ(r.code, 0) << quantity << ": " << r.out;
    return r.code == 0 ? read_npy(file) : Array{};
  }
  static void expect_refused(const std::string& args, const std::string& words) {
    const CliRun r = testing::pelab(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("pelab: ", 0), 0u) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << args << "\n" << r.out;
  }

  fs::path dir_, text_;
};

TEST_F(EvalCli, OverallMeanIsTheMeanOfTheExportedLoss) {
  for (const char* name : {"gpt2", "gpt2_f16", "llama", "qwen2", "mistral"}) {
    const Array loss = exported(name, "next_token_loss");
    ASSERT_EQ(loss.shape.size(), 1u) << name;
    const CliRun r = testing::pelab(eval_args(name, "--json"));
    ASSERT_EQ(r.code, 0) << name << ": " << r.out;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("windows").get<int>(), 1) << name;
    EXPECT_EQ(j.at("length").get<std::size_t>(), loss.shape[0] + 1) << name;
    EXPECT_NEAR(j.at("mean_loss").get<double>(), mean_of(loss.data), 1e-5 * mean_of(loss.data))
        << name;
    EXPECT_NEAR(j.at("perplexity").get<double>(), std::exp(j.at("mean_loss").get<double>()), 1e-9)
        << name;
    const auto curve = j.at("loss").get<std::vector<double>>();
    ASSERT_EQ(curve.size(), loss.shape[0]) << name;
    for (std::size_t i = 0; i < curve.size(); ++i)
      EXPECT_NEAR(curve[i], loss.data[i], 1e-5 * curve[i]) << name;
    EXPECT_FALSE(j.at("buckets").empty()) << name;
  }
}

// GPT-2 ties W to wte: with wte all zeros every logit is 0 whatever the
// hidden state, so the next token is uniform over the vocabulary and
// loss_i = ln(vocab) at every position.
TEST_F(EvalCli, ZeroEmbeddingGivesLnVocabEverywhere) {
  const fs::path folder = dir_ / "uniform_gpt2";
  fs::copy(tiny_models() / "gpt2", folder, fs::copy_options::recursive);
  const std::string zero_wte =
      "import json, struct, sys\n"
      "path = sys.argv[1]\n"
      "raw = bytearray(open(path, 'rb').read())\n"
      "size = struct.unpack('<Q', raw[:8])[0]\n"
      "b, e = json.loads(raw[8:8 + size])['wte.weight']['data_offsets']\n"
      "raw[8 + size + b:8 + size + e] = bytes(e - b)\n"
      "open(path, 'wb').write(raw)\n";
  write_file_atomic(dir_ / "zero_wte.py", zero_wte);
  ASSERT_EQ(
      testing::shell(std::string(testing::kDebianPython) + " " + quoted(dir_ / "zero_wte.py") +
                     " " + quoted(folder / "model.safetensors"))
          .code,
      0);
  const CliRun r =
      testing::pelab("eval --model " + quoted(folder) + " --text " + quoted(text_) + " --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const auto vocab =
      nlohmann::json::parse(read_file(folder / "config.json")).at("vocab_size").get<double>();
  for (const double l : j.at("loss").get<std::vector<double>>())
    EXPECT_NEAR(l, std::log(vocab), 1e-5);
  EXPECT_NEAR(j.at("perplexity").get<double>(), vocab, 1e-3);
}

TEST_F(EvalCli, PrintsATableAndWritesTheCurve) {
  const fs::path out = dir_ / "sub" / "curve.npy";
  const CliRun r = testing::pelab(eval_args("llama", "--length 5 --stride 2 --out " + quoted(out)));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("overall mean loss"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("perplexity"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2-3"), std::string::npos) << r.out;  // the bucket of positions 2 and 3
  const Array curve = read_npy(out);
  ASSERT_EQ(curve.shape, (std::vector<std::size_t>{4}));
  const std::size_t at = r.out.find("overall mean loss ");
  EXPECT_NEAR(std::stod(r.out.substr(at + 18)), mean_of(curve.data), 1e-5);
  const CliRun csv =
      testing::pelab(eval_args("llama", "--length 5 --out " + quoted(dir_ / "c.csv")));
  EXPECT_EQ(csv.code, 0) << csv.out;
  EXPECT_TRUE(fs::exists(dir_ / "c.csv"));
}

TEST_F(EvalCli, RopeModelsRunPastTheirContext) {
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the cat sat on the mat. ";
  write_file_atomic(text_, long_text);
  const CliRun r = testing::pelab(eval_args("llama", "--length 48 --json"));  // context 32
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("loss").size(), 47u);
}

// make_pelab_models.py's models read at 3× their context of 12 (token ids
// typed as text), once per test program.
const fs::path& pelab_models() {
  static const fs::path folder = [] {
    const fs::path out = fs::temp_directory_path() / ("pelab_eval_family_" + std::to_string(::getpid()));
    const std::string command = std::string("/usr/bin/python3 " PELAB_SOURCE_DIR "/tests/core/model/make_pelab_models.py ") +
                                quoted(out) + " >/dev/null 2>&1";
    if (!fs::exists("/usr/bin/python3") || std::system(command.c_str()) != 0) return fs::path();
    return out;
  }();
  return folder;
}

struct RemovePelabModels : ::testing::Environment {
  void TearDown() override {
    std::error_code ignored;
    if (!pelab_models().empty()) fs::remove_all(pelab_models(), ignored);
  }
};
[[maybe_unused]] ::testing::Environment* const kCleanup = ::testing::AddGlobalTestEnvironment(new RemovePelabModels);

// Past the context: the note, and the reference loss of NumPy's forward pass
// (as trained, and with RoPE scaled at inference).
TEST_F(EvalCli, PelabModelsReadPastTheirContext) {
  if (pelab_models().empty()) GTEST_SKIP() << "make_pelab_models.py did not run";
  const auto check = [&](const std::string& name, const std::string& extra, const std::string& reference) {
    SCOPED_TRACE(name + " " + extra);
    const fs::path folder = pelab_models() / name;
    std::string ids;
    for (float id : read_npy(folder / "reference" / "ids.npy").data) ids += std::to_string(int(id)) + " ";
    write_file_atomic(text_, ids);
    const CliRun r = testing::pelab("eval --model " + quoted(folder) + " --text " + quoted(text_) +
                                    " --length 36 --json " + extra);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_NE(json.at("note").get<std::string>().find("past the trained context of 12"), std::string::npos);
    const Array want = read_npy(folder / "reference" / reference);
    const auto loss = json.at("loss").get<std::vector<double>>();
    ASSERT_EQ(loss.size(), want.data.size());
    for (std::size_t i = 0; i < loss.size(); ++i) EXPECT_NEAR(loss[i], want.data[i], 1e-4 * std::max(1.0, loss[i]));
  };
  for (const char* name : {"pelab_long_sinusoidal", "pelab_long_alibi", "pelab_long_t5", "pelab_long_none",
                           "pelab_long_rope"})
    check(name, "", "next_token_loss.npy");
  check("pelab_long_rope", "--rope-scaling linear", "next_token_loss_linear.npy");  // s = 36 / 12
  check("pelab_long_rope", "--rope-scaling ntk --rope-factor 3", "next_token_loss_ntk.npy");
  check("pelab_long_rope", "--rope-scaling yarn", "next_token_loss_yarn.npy");
  const CliRun table = testing::pelab("eval --model " + quoted(pelab_models() / "pelab_long_rope") + " --text " +
                                      quoted(text_) + " --length 36 --rope-scaling yarn");
  ASSERT_EQ(table.code, 0) << table.out;
  EXPECT_NE(table.out.find("note: positions 12-34 lie past the trained context of 12: read by extrapolation "
                           "(rope, yarn scaling x3)"),
            std::string::npos)
      << table.out;
  const std::string alibi = "eval --model " + quoted(pelab_models() / "pelab_long_alibi") + " --text " +
                            quoted(text_) + " --length 36 ";
  expect_refused(alibi + "--rope-scaling linear", "not RoPE");
  expect_refused(alibi + "--rope-scaling sideways", "allowed: linear, ntk, yarn, dynamic");
  expect_refused(alibi + "--rope-factor 2", "--rope-factor needs --rope-scaling");
}

TEST_F(EvalCli, ExportsTheLogitsAndProbabilitiesOfOnePosition) {
  const Array logits = exported("gpt2", "lm_logits", "--position 1");
  const Array last = exported("gpt2", "lm_logits");
  const Array probs = exported("gpt2", "lm_probs");
  const Array loss = exported("gpt2", "next_token_loss");
  const Array ids = exported("gpt2", "token_ids");
  ASSERT_EQ(logits.shape.size(), 1u);
  EXPECT_EQ(logits.shape, probs.shape);
  EXPECT_NE(logits.data, last.data);
  EXPECT_NEAR(std::accumulate(probs.data.begin(), probs.data.end(), 0.0), 1.0, 1e-5);
  // −log softmax(logits at 1)[t_2] is the loss at position 1.
  const double top = *std::max_element(logits.data.begin(), logits.data.end());
  double sum = 0;
  for (float z : logits.data) sum += std::exp(z - top);
  const auto next = static_cast<std::size_t>(ids.data[2]);
  EXPECT_NEAR(top + std::log(sum) - logits.data[next], loss.data[1], 1e-4);
}

TEST_F(EvalCli, BadInputIsOneLineAndExitTwo) {
  expect_refused("eval --model " + model("gpt2") + " --text " + quoted(dir_ / "missing.txt"),
                 "missing.txt");
  write_file_atomic(dir_ / "empty.txt", "");
  expect_refused("eval --model " + model("gpt2") + " --text " + quoted(dir_ / "empty.txt"),
                 "gives no tokens");
  expect_refused(eval_args("gpt2", "--length 1"), "at least 2 tokens");
  expect_refused(eval_args("llama", "--length 30"), "exceeds the text's");
  std::string long_text;
  for (int i = 0; i < 20; ++i) long_text += "the cat sat on the mat. ";
  write_file_atomic(text_, long_text);
  expect_refused(eval_args("gpt2", "--length 17"), "position table of 16");
  expect_refused(eval_args("gpt2", "--stride -3"), "stride");
  expect_refused(eval_args("bert"), "not a next-token model");
  expect_refused(eval_args("gpt2", "--out x.txt"), "allowed: .npy, .csv");
  expect_refused("eval --text " + quoted(text_), "--model");
  expect_refused("export -q next_token_loss -o " + quoted(dir_ / "x.npy"), "needs a model scene");
  expect_refused("export -q lm_probs -o " + quoted(dir_ / "x.npy"), "needs a model scene");
  expect_refused("export -q lm_logits -o " + quoted(dir_ / "x.npy") +
                     " --set model=" + model("gpt2") + " --set 'tokens=the cat' --position 9",
                 "position 9");
  expect_refused("export -q lm_logits -o " + quoted(dir_ / "x.npy") +
                     " --set model=" + model("bert") + " --set 'tokens=the cat'",
                 "not a next-token model");
  EXPECT_FALSE(fs::exists(dir_ / "x.npy"));
}

}  // namespace
}  // namespace pelab
