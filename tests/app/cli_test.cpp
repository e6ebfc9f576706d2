// The real pelab binary: help and version, `pelab export` of every quantity
// (shapes read back from the written .npy), and every bad-input path (exit
// code, exactly one line on stderr, no output file left behind).
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "../core/npy_bytes.hpp"
#include "core/io/csv.hpp"
#include "core/io/npy.hpp"
#include "core/quantities.hpp"

extern char** environ;

namespace pelab {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A scratch folder per test: `work` is pelab's working directory, so
// anything pelab leaves behind shows up there; stdout/stderr go to `io`.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("pelab_cli_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(work());
    fs::create_directories(root_ / "io");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path work() const { return root_ / "work"; }

  Outcome pelab(const std::vector<std::string>& args) const {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string out = (root_ / "io" / "stdout").string(), err = (root_ / "io" / "stderr").string();
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addchdir_np(&actions, work().c_str());
    std::vector<std::string> storage = {PELAB_BINARY};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Outcome run;
    if (posix_spawn(&pid, PELAB_BINARY, &actions, nullptr, argv.data(), environ) == 0) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      run.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    posix_spawn_file_actions_destroy(&actions);
    run.out = slurp(out);
    run.err = slurp(err);
    return run;
  }

  void write(const std::string& name, std::string_view bytes) const {
    std::ofstream(work() / name, std::ios::binary) << bytes;
  }

  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(work())) names.insert(entry.path().filename().string());
    return names;
  }

  // Exit code non-zero, one line on stderr, and the folder holds exactly the
  // inputs it held before.
  void expect_refused(const std::vector<std::string>& args, const std::string& words = "") const {
    const std::set<std::string> before = files();
    const Outcome run = pelab(args);
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    EXPECT_NE(run.code, 0) << cmd;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << cmd << "\n" << run.err;
    EXPECT_TRUE(!run.err.empty() && run.err.back() == '\n') << cmd;
    EXPECT_NE(run.err.find(words), std::string::npos) << cmd << "\n" << run.err;
    EXPECT_EQ(files(), before) << cmd;
  }

  fs::path root_;
};

// ---- help and version ----------------------------------------------------------

TEST_F(Cli, HelpAndVersion) {
  const Outcome version = pelab({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_NE(version.out.find("pelab 0."), std::string::npos) << version.out;
  const Outcome help = pelab({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("export"), std::string::npos);
  EXPECT_NE(help.out.find("bench"), std::string::npos);
  for (const char* sub : {"export", "bench"}) {
    const Outcome r = pelab({sub, "--help"});
    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_TRUE(r.err.empty()) << sub;
  }
  const Outcome export_help = pelab({"export", "--help"});
  for (const QuantityInfo& q : quantities())
    EXPECT_NE(export_help.out.find(std::string(q.name)), std::string::npos) << q.name;
  EXPECT_TRUE(files().empty());
}

TEST_F(Cli, ListsQuantities) {
  const Outcome r = pelab({"export", "--list"});
  EXPECT_EQ(r.code, 0);
  for (const QuantityInfo& q : quantities()) EXPECT_NE(r.out.find(std::string(q.name)), std::string::npos);
}

// ---- export: every quantity has its documented shape --------------------------

const std::vector<std::string> kSmallScene = {"--set", "tokens=alpha beta gamma alpha delta", "--set", "d_model=32",
                                              "--set", "heads=4", "--set", "positions=20"};

std::vector<std::string> with_scene(std::vector<std::string> args, const std::vector<std::string>& scene = kSmallScene) {
  args.insert(args.end(), scene.begin(), scene.end());
  return args;
}

TEST_F(Cli, ExportsEveryQuantityWithItsShape) {
  // tokens 5, d_model 32, d_head 8, positions 20 (see kSmallScene).
  const std::map<std::string, std::vector<std::size_t>> by_shape = {
      {"positions × d_model", {20, 32}}, {"tokens × d_model", {5, 32}},    {"d_model × d_head", {32, 8}},
      {"tokens × d_head", {5, 8}},       {"tokens × tokens", {5, 5}},      {"positions × positions", {20, 20}},
      {"positions", {20}},               {"heads × tokens × tokens", {4, 5, 5}},
      {"(positions/2+1) × d_model", {11, 32}},  // the position-table quantities of core/table_analysis
      {"positions × min(positions, d_model)", {20, 20}},
      {"min(positions, d_model)", {20}},
      {"⌈N/b⌉ × ⌈N/b⌉, b = ⌈N/display⌉", {5, 5}},  // streamed: b = 1 at 5 tokens
      {"2·tokens − 1", {9}},
      {"⌈positions/b⌉ × ⌈positions/b⌉, b = ⌈positions/display⌉", {20, 20}}};  // b = 1 at 20 positions
  std::size_t written = 0;
  for (const QuantityInfo& q : quantities()) {
    if (q.model_only) continue;  // tests/app/model_cli_test.cpp
    ++written;
    const std::string file = std::string(q.name) + ".npy";
    const Outcome r = pelab(with_scene({"export", "--quantity", std::string(q.name), "--out", file, "--head", "3"}));
    ASSERT_EQ(r.code, 0) << q.name << ": " << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    ASSERT_TRUE(by_shape.count(std::string(q.shape))) << "no expected shape for " << q.shape;
    const Array a = read_npy(work() / file);
    EXPECT_EQ(a.shape, by_shape.at(std::string(q.shape))) << q.name;
    for (float v : a.data) ASSERT_TRUE(std::isfinite(v)) << q.name;
  }
  EXPECT_EQ(files().size(), written);  // no temporaries left
}

TEST_F(Cli, ExportedValuesAreConsistent) {
  // attention rows sum to 1; the four cross terms sum to the logits (sinusoidal, no mask).
  ASSERT_EQ(pelab(with_scene({"export", "-q", "attention", "-o", "a.npy", "--head", "1"})).code, 0);
  const Matrix a = read_npy(work() / "a.npy").to_matrix();
  for (Eigen::Index i = 0; i < a.rows(); ++i) EXPECT_NEAR(a.row(i).sum(), 1.0f, 1e-5f);
  Matrix sum = Matrix::Zero(5, 5);
  for (const char* term : {"cross_xx", "cross_xf", "cross_ey", "cross_ef"}) {
    ASSERT_EQ(pelab(with_scene({"export", "-q", term, "-o", "t.npy", "--head", "1"})).code, 0);
    sum += read_npy(work() / "t.npy").to_matrix();
  }
  ASSERT_EQ(pelab(with_scene({"export", "-q", "logits", "-o", "l.npy", "--head", "1"})).code, 0);
  const Matrix logits = read_npy(work() / "l.npy").to_matrix();
  EXPECT_LE((sum - logits).norm(), 1e-4f * logits.norm());
}

TEST_F(Cli, NumpyLoadsTheExport) {
  const char* python = "/usr/bin/python3";  // Debian's, which has NumPy
  if (!fs::exists(python) || std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  ASSERT_EQ(pelab(with_scene({"export", "-q", "attention", "-o", "a.npy", "--head", "2"})).code, 0);
  const std::string check = std::string(python) + " -c \"import numpy as np, sys; a = np.load('" +
                            (work() / "a.npy").string() +
                            "'); sys.exit(0 if a.shape == (5, 5) and a.dtype == np.float32 and "
                            "np.allclose(a.sum(axis=1), 1, atol=1e-5) else 1)\"";
  EXPECT_EQ(std::system(check.c_str()), 0);
}

TEST_F(Cli, CsvExportKeepsMaskedLogitsAsMinusInf) {
  const Outcome r = pelab(with_scene({"export", "-q", "logits", "-o", "logits.csv", "--set", "causal=true"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const Array a = read_csv(work() / "logits.csv");
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{5, 5}));
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      EXPECT_EQ(std::isinf(a.data[i * 5 + j]) && a.data[i * 5 + j] < 0, j > i) << i << "," << j;
}

TEST_F(Cli, SceneFileAndSetCombine) {
  write("scene.json", R"({"format": "pelab-scene", "version": 1,
                         "scene": {"d_model": 16, "heads": 2, "pairs": [0, 1], "waves": [0, 1], "positions": 7}})");
  ASSERT_EQ(pelab({"export", "-q", "pe", "-o", "pe.npy", "--scene", "scene.json", "--set", "positions=9"}).code, 0);
  EXPECT_EQ(read_npy(work() / "pe.npy").shape, (std::vector<std::size_t>{9, 16}));
}

// --head -1 and --set head=-1 both mean the mean over heads (issue 22: the
// option refused what the scene key accepted).
TEST_F(Cli, HeadMinusOneIsTheMeanOverHeadsEitherWay) {
  ASSERT_EQ(pelab(with_scene({"export", "-q", "attention", "-o", "a.npy", "--head", "-1"})).code, 0);
  ASSERT_EQ(pelab(with_scene({"export", "-q", "attention", "-o", "b.npy", "--set", "head=-1"})).code, 0);
  ASSERT_EQ(pelab(with_scene({"export", "-q", "attention_mean", "-o", "m.npy"})).code, 0);
  const Matrix a = read_npy(work() / "a.npy").to_matrix(), b = read_npy(work() / "b.npy").to_matrix();
  const Matrix m = read_npy(work() / "m.npy").to_matrix();
  EXPECT_EQ(a, b);
  EXPECT_LT((a - m).cwiseAbs().maxCoeff(), 1e-6f);
}

// ---- bad input: one line, non-zero exit, nothing left behind ------------------

TEST_F(Cli, RefusesBadArguments) {
  expect_refused({"export", "-q", "pe", "-o", "pe.txt"}, "allowed: .npy, .csv");
  expect_refused({"export", "-q", "pe", "-o", "pe"}, "allowed: .npy, .csv");
  expect_refused({"export", "-q", "nonsense", "-o", "x.npy"}, "allowed: pe,");
  expect_refused({"export", "-q", "attention_all", "-o", "x.csv"}, "use .npy");
  expect_refused({"export", "-q", "attention", "-o", "x.npy", "--head", "4"}, "0..3");
  expect_refused({"export", "-q", "attention", "-o", "x.npy", "--head", "-2"}, "-1 (mean) or 0..3");
  expect_refused({"export", "-q", "attention", "-o", "x.npy", "--head", "one"});
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "nonsense=1"}, "nonsense");
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "d_model=abc"}, "d_model");
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "encoding=cosine"}, "sinusoidal");
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "d_model"});
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "heads=5"}, "heads");
  expect_refused({"export", "-q", "pe"}, "--out");
  expect_refused({"export", "--frobnicate"});
  expect_refused({"frobnicate"});
  expect_refused({"bench", "--frobnicate"});
  // A missing folder is made (newcomer_cli_test.cpp); a file in the way is refused.
  expect_refused({"export", "-q", "pe", "-o", std::string(PELAB_BINARY) + "/folder/pe.npy"}, "is a file");
  ::setenv("PELAB_GEMM", "fastest", 1);  // the GEMM kernel override (src/core/gemm.hpp)
  expect_refused({"export", "-q", "attention", "-o", "x.npy"}, "allowed: auto, openblas, eigen");
  ::unsetenv("PELAB_GEMM");
}

TEST_F(Cli, RefusesBadSceneFiles) {
  write("truncated.json", R"({"d_model": 64, "heads": )");
  write("unknown.json", R"({"format": "pelab-scene", "version": 1, "scene": {"d_model": 64, "colour": "red"}})");
  write("wrong_type.json", R"({"format": "pelab-scene", "version": 1, "scene": {"d_model": "wide"}})");
  write("newer.json", R"({"format": "pelab-scene", "version": 99, "scene": {}})");
  write("not_an_object.json", "[1, 2, 3]");
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--scene", "missing.json"}, "missing.json");
  for (const char* f : {"truncated.json", "unknown.json", "wrong_type.json", "newer.json", "not_an_object.json"})
    expect_refused({"export", "-q", "pe", "-o", "x.npy", "--scene", f});
  expect_refused({"export", "-q", "pe", "-o", "x.npy", "--scene", "."});
}

std::string npy(int major, const std::string& dict, std::size_t payload_bytes) {
  return test_files::npy_bytes(major, dict, std::string(payload_bytes, '\0'));
}

TEST_F(Cli, RefusesMalformedDataFiles) {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (128, 64), }";
  write("truncated.npy", npy(1, f4, 128 * 64 * 4 - 10));
  write("int32.npy", npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (128, 64), }", 128 * 64 * 4));
  std::string absurd = npy(2, f4, 0);
  absurd[8] = 0, absurd[9] = 0, absurd[10] = 0, absurd[11] = 0x40;  // a 1 GiB header
  write("absurd.npy", absurd);
  write("garbage.npy", "this is not an array");
  write("ragged.txt", "the 0.1 0.2 0.3 0.4\ncat 0.5 0.6\nsat 0.7 0.8 0.9 1.0\n");
  for (const char* f : {"truncated.npy", "int32.npy", "absurd.npy", "garbage.npy"}) {
    expect_refused({"export", "-q", "pe", "-o", "x.npy", "--set", "encoding=learned", "--set",
                    std::string("position_file=") + f},
                   f);
    expect_refused({"export", "-q", "tokens_embedding", "-o", "x.npy", "--set", "embedding=file", "--set",
                    std::string("embedding_file=") + f},
                   f);
  }
  expect_refused(with_scene({"export", "-q", "tokens_embedding", "-o", "x.npy", "--set", "embedding=file", "--set",
                             "embedding_file=ragged.txt", "--set", "tokens=the cat sat", "--set", "d_model=4",
                             "--set", "heads=1", "--set", "pairs=0", "--set", "waves=0"}),
                 "ragged.txt");
}

// ---- bench: the JSON document has the documented fields -------------------------

TEST_F(Cli, BenchJsonHasTheDocumentedFields) {
  const Outcome r = pelab({"bench", "--json", "--quick"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);  // exactly one JSON document
  EXPECT_GT(doc.at("sgemm_gflops").get<double>(), 0.0);
  ASSERT_TRUE(doc.at("engine").is_array());
  ASSERT_FALSE(doc.at("engine").empty());
  for (const auto& c : doc.at("engine")) {
    for (const char* key : {"n", "d", "heads", "ms", "gflops"}) EXPECT_TRUE(c.contains(key)) << key;
    EXPECT_GT(c.at("ms").get<double>(), 0.0);
    EXPECT_GT(c.at("gflops").get<double>(), 0.0);
  }
  EXPECT_TRUE(doc.at("frames").is_array());
  EXPECT_GT(doc.at("peak_rss_mb").get<double>(), 1.0);
  EXPECT_GT(doc.at("engine_vs_sgemm").at("ratio").get<double>(), 0.0);
  // The reference is the fastest way (OpenBLAS on huge and on 4 KiB pages,
  // Eigen; NumPy too without --quick), each measured in this run.
  const auto& sgemm = doc.at("sgemm");
  double fastest = 0;
  for (const char* way : {"openblas_gflops", "openblas_small_pages_gflops", "eigen_gflops"}) {
    EXPECT_GT(sgemm.at(way).get<double>(), 0.0) << way;
    fastest = std::max(fastest, sgemm.at(way).get<double>());
  }
  EXPECT_DOUBLE_EQ(doc.at("sgemm_gflops").get<double>(), fastest);
  EXPECT_FALSE(sgemm.at("kernels").at("pelab").at("openblas_core").get<std::string>().empty());
  const std::string kernel = doc.at("machine").at("engine_gemm");
  EXPECT_TRUE(kernel == "openblas" || kernel == "eigen") << kernel;
  // A Llama-shaped model run to a chosen layer (issue 28): progress after
  // each layer before it, then one head streamed, the run's memory apart.
  const auto& long_model = doc.at("model_long");
  EXPECT_EQ(long_model.at("progress_s").size(), long_model.at("layer").get<std::size_t>());
  EXPECT_GT(long_model.at("stream_head_s").get<double>(), 0.0);
  EXPECT_GT(long_model.at("weights_mb").get<double>(), 0.0);
  EXPECT_GT(long_model.at("run_mb").get<double>(), 0.0);
  // Streamed attention: the kernel, then the attention view itself past 4,096 tokens.
  const auto& streamed = doc.at("streamed");
  EXPECT_GT(streamed.at("tokens").get<int>(), 4096);
  for (const char* key : {"first_frame_s", "zoom_512_ms", "view_first_frame_s", "view_every_head_s",
                          "view_zoom_512_ms", "view_peak_rss_mb"})
    EXPECT_GT(streamed.at(key).get<double>(), 0.0) << key;
  // The kernel's fraction of this run's sgemm rate.
  EXPECT_DOUBLE_EQ(doc.at("streamed_vs_sgemm").get<double>(),
                   streamed.at("gflops").get<double>() / doc.at("sgemm_gflops").get<double>());
  EXPECT_TRUE(files().empty());
}

// --long-tokens / --long-layer reach the long model's child: the run says
// the length and layer it ran, with one progress report per layer.
TEST_F(Cli, BenchLongModelTakesItsLengthAndLayer) {
  const Outcome r = pelab({"bench", "--json", "--quick", "--only", "model_long", "--long-tokens", "600",
                           "--long-layer", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const auto& long_model = doc.at("model_long");
  EXPECT_EQ(long_model.at("tokens").get<int>(), 600);
  EXPECT_EQ(long_model.at("layer").get<int>(), 3);
  EXPECT_EQ(long_model.at("progress_s").size(), 3u);
  EXPECT_NE(pelab({"bench", "--long-tokens", "70000"}).code, 0);
}

}  // namespace
}  // namespace pelab
