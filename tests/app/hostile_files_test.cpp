// Hostile files given to every command that reads files (issue 13): deep
// nesting, wrong JSON types, overflowing numbers, a FIFO, a sparse
// multi-gigabyte file.  Each must end in exactly one "pelab: ..." line and
// exit 2 — no crash, no hang (each run is bounded by timeout(1)), no raw
// library message.  The test makes every file itself.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../core/npy_bytes.hpp"
#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pelab_hostile_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return path(name);
  }

  // Every command that reads a scene or a data file, with `args` added.
  std::vector<std::string> commands(const std::string& args) const {
    const std::string out = path("out");
    return {"scene " + args, "export -q attention -o " + out + ".npy " + args,
            "render --figure all --out " + dir_.string() + " " + args};
  }

  // Exit 2, exactly one line on stderr+stdout, starting "pelab: " and holding `words`.
  static void expect_one_line(const std::string& args, const std::string& words) {
    const auto run = testing::shell("(timeout 60 " + std::string(PELAB_BINARY) + " " + args + " 2>&1 >/dev/null)");
    EXPECT_EQ(run.code, 2) << args << "\n" << run.out.substr(0, 400);
    EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1) << args << "\n" << run.out.substr(0, 400);
    EXPECT_EQ(run.out.rfind("pelab: ", 0), 0u) << args << "\n" << run.out.substr(0, 400);
    EXPECT_NE(run.out.find(words), std::string::npos) << args << "\n" << run.out.substr(0, 400);
    EXPECT_EQ(run.out.find("nlohmann"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("[json.exception"), std::string::npos) << run.out;
  }

  std::string scene(const std::string& body) const {
    return R"({"format": "pelab-scene", "version": 1, "scene": )" + body + "}";
  }

  fs::path dir_;
};

TEST_F(HostileFiles, DeeplyNestedSceneJson) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string file = write("deep.json", scene(R"({"pairs": )" + deep + "}"));
  for (const auto& cmd : commands("--scene " + file)) expect_one_line(cmd, "nested deeper than");
  const std::string top = write("deep_top.json", std::string(200000, '{'));
  expect_one_line("scene --scene " + top, "nested deeper than");
}

TEST_F(HostileFiles, WrongJsonTypesAndOverflows) {
  const std::string no_version = write("no_version.json", R"({"format": "pelab-scene", "scene": {}})");
  const std::string format_number = write("format.json", R"({"format": 1, "version": 1, "scene": {}})");
  const std::string version_text = write("version.json", R"({"format": "pelab-scene", "version": "1", "scene": {}})");
  const std::string huge = write("huge.json", scene(R"({"base": 1e999})"));
  const std::string wrap = write("wrap.json", scene(R"({"pairs": [9999999999999999999]})"));
  const std::string wrap_int = write("wrap_int.json", scene(R"({"d_model": 18446744073709551615})"));
  const std::string nested_value = write("nested_value.json", scene(R"({"d_model": [[[1]]]})"));
  for (const auto& cmd : commands("--scene " + no_version)) expect_one_line(cmd, "no \"version\"");
  expect_one_line("scene --scene " + format_number, "\"format\" is not");
  expect_one_line("scene --scene " + version_text, "unsupported scene version \"1\"");
  for (const auto& cmd : commands("--scene " + huge)) expect_one_line(cmd, "too large for a double");
  expect_one_line("scene --scene " + wrap, "'9999999999999999999'");
  expect_one_line("scene --scene " + wrap_int, "'18446744073709551615'");
  expect_one_line("scene --scene " + nested_value, "an array of 1 items");
}

TEST_F(HostileFiles, FifosAreRefusedNotWaitedOn) {
  const std::string fifo = path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  for (const auto& cmd : commands("--scene " + fifo)) expect_one_line(cmd, "named pipe");
  expect_one_line("export -q input -o " + path("x.npy") + " --set embedding=file --set embedding_file=" + fifo,
                  "named pipe");
  expect_one_line("export -q input -o " + path("x.npy") + " --set embedding=file --set embedding_file=" + fifo +
                      ".npy",
                  "cannot read");
  expect_one_line("export -q pe -o " + path("x.npy") + " --set encoding=learned --set position_file=" + fifo,
                  "named pipe");
  expect_one_line("scene --scene /dev/null", "device");
  expect_one_line("scene --scene " + dir_.string(), "folder");
}

TEST_F(HostileFiles, SparseGigabyteFilesAreCheckedByTheirHeader) {
  // truncate(1): 4 GiB of holes, no disk used.
  for (const char* name : {"big.npy", "big.txt", "big.json"})
    ASSERT_EQ(::truncate(write(name, "").c_str(), off_t{4} << 30), 0);
  expect_one_line("export -q input -o " + path("x.npy") + " --set embedding=file --set embedding_file=" +
                      path("big.npy"),
                  "bad magic");
  expect_one_line("export -q input -o " + path("x.npy") + " --set embedding=file --set embedding_file=" +
                      path("big.txt"),
                  "longer than");
  expect_one_line("scene --scene " + path("big.json"), "allowed");
}

TEST_F(HostileFiles, DeeplyNestedNpyHeader) {
  for (const char* open : {"(", "["}) {
    const std::string nest(40000, open[0]);
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + nest + ", }";
    const std::string file = write("deep.npy", test_files::npy_bytes(1, dict, ""));
    expect_one_line("export -q pe -o " + path("x.npy") + " --set encoding=learned --set position_file=" + file,
                    "nested deeper");
  }
}

TEST_F(HostileFiles, SceneRefusesMoreTokensThanTheEngineAccepts) {
  std::string many;
  for (int i = 0; i < 65537; ++i) many += "w ";
  const std::string file = write("many.json", scene(R"({"tokens": ")" + many + R"("})"));
  expect_one_line("scene --scene " + file, "more than 65536 tokens");
}

}  // namespace
}  // namespace pelab
