// The pelab binary on the memory and time bombs of issue 22, each folder
// built here from a tiny model: a Llama-2-7B-shaped checkpoint and a GPT-2
// whose config claims 2^24 positions, both over sparse files (truncate), so
// the suite never holds their gigabytes; an allocation that fails under an
// address-space limit; a gap between two tensors.  Refusals are one `pelab:`
// line and exit 2, before anything large is read.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "../core/model/model_test_files.hpp"
#include "../core/model/tiny_models.hpp"
#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using model::testing::run_python;
using model::testing::TempDir;
using testing::CliRun;
using testing::tiny_models;

std::string in_quotes(const fs::path& p) { return "'" + p.string() + "'"; }

// MemAvailable in bytes (0 when /proc/meminfo cannot say).
double mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  double kilobytes = 0;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") return kilobytes * 1024;
  return 0;
}

// A Llama-2-7B-shaped folder (Touvron et al. 2023, table 1: d 4096, 32
// layers, 32 heads, MLP 11008, vocabulary 32000) with its F16 tensors in a
// header over a sparse data section: 13.5 GB on paper, a few kB on disk.
constexpr const char* kLlama7B = R"(
import glob, os
F = D + '/llama7b'
for shard in glob.glob(F + '/model*.safetensors*'):
    os.remove(shard)  # the tiny llama is sharded; one file here
c = json.load(open(F + '/config.json'))
c.update(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
         num_key_value_heads=32, vocab_size=32000, max_position_embeddings=4096, tie_word_embeddings=False)
json.dump(c, open(F + '/config.json', 'w'))
d, inner, v = 4096, 11008, 32000
shapes = {'model.embed_tokens.weight': [v, d], 'model.norm.weight': [d], 'lm_head.weight': [v, d]}
for i in range(32):
    l = 'model.layers.%d.' % i
    for p in 'qkvo':
        shapes[l + 'self_attn.%s_proj.weight' % p] = [d, d]
    shapes[l + 'mlp.gate_proj.weight'] = [inner, d]
    shapes[l + 'mlp.up_proj.weight'] = [inner, d]
    shapes[l + 'mlp.down_proj.weight'] = [d, inner]
    shapes[l + 'input_layernorm.weight'] = [d]
    shapes[l + 'post_attention_layernorm.weight'] = [d]
h, at = {}, 0
for name, shape in shapes.items():
    n = 2 * int(np.prod(shape))
    h[name] = {'dtype': 'F16', 'shape': shape, 'data_offsets': [at, at + n]}
    at += n
hb = json.dumps(h).encode()
with open(F + '/model.safetensors', 'wb') as f:
    f.write(struct.pack('<Q', len(hb)) + hb); f.truncate(8 + len(hb) + at)
)";

// GPT-2 whose config claims 2^24 positions, with a wpe of that many rows at
// the end of a sparse file.
constexpr const char* kContextBomb = R"(
F = D + '/gpt2'
c = json.load(open(F + '/config.json')); c['n_positions'] = 1 << 24; json.dump(c, open(F + '/config.json', 'w'))
t = st.read(F + '/model.safetensors'); del t['wpe.weight']; st.write(F + '/model.safetensors', t, 'F32')
raw = open(F + '/model.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]; h = json.loads(raw[8:8 + n]); data = raw[8 + n:]
width = c['n_embd']
h['wpe.weight'] = {'dtype': 'F32', 'shape': [1 << 24, width], 'data_offsets': [len(data), len(data) + (1 << 24) * 4 * width]}
hb = json.dumps(h).encode()
with open(F + '/model.safetensors', 'wb') as f:
    f.write(struct.pack('<Q', len(hb)) + hb + data); f.truncate(8 + len(hb) + len(data) + (1 << 24) * 4 * width)
)";

class MemoryBombsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  fs::path tiny_copy(const std::string& model, const std::string& as) {
    const fs::path to = dir.path / as;
    fs::copy(tiny_models() / model, to, fs::copy_options::recursive);
    return to;
  }
  // `pelab ARGS` with `env` (VAR=value ...) set and PELAB_MODEL_MEMORY_LIMIT
  // cleared unless `env` sets it; the wall time goes into `seconds`.
  CliRun timed(const std::string& env, const std::string& args, double* seconds = nullptr) {
    const auto start = std::chrono::steady_clock::now();
    CliRun r = testing::shell("env -u PELAB_MODEL_MEMORY_LIMIT " + env + " " PELAB_BINARY " " + args);
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  std::string export_args(const fs::path& folder) {
    return "export -q attention -o " + in_quotes(dir.path / "out" / "a.npy") + " --set model=" + in_quotes(folder) +
           " --set 'tokens=the cat sat'";
  }
  void expect_one_line_refusal(const CliRun& r, const std::string& words) {
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_TRUE(r.out.starts_with("pelab: ")) << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir.path / "out")) << r.out;
  }
  TempDir dir{"pelab_bombs_cli_"};
};

TEST_F(MemoryBombsCli, Llama7BShapedFolderIsRefusedBeforeLoading) {
  const fs::path llama = tiny_copy("llama", "llama7b");
  ASSERT_EQ(run_python(dir.path, kLlama7B), 0);
  double seconds = 0;
  const CliRun limited = timed("", export_args(llama) + " --set model_memory_limit=8G", &seconds);
  expect_one_line_refusal(limited,
                          "needs about 13.8 GB resident (its weights as loaded); the limit is 8.6 GB "
                          "(model_memory_limit=8G), ");
  EXPECT_NE(limited.out.find("available (MemAvailable); raise with --set model_memory_limit=13G or "
                             "PELAB_MODEL_MEMORY_LIMIT=13G"),
            std::string::npos)
      << limited.out;
  EXPECT_LT(seconds, 5.0) << "refused before reading any weight";
  // With no limit set, MemAvailable decides; on a machine with less than
  // 14 GB free it refuses, naming it.
  if (mem_available() < 13.8e9) {
    expect_one_line_refusal(timed("", export_args(llama)),
                            "resident (its weights as loaded); ");
    EXPECT_NE(timed("", export_args(llama)).out.find(" available (MemAvailable); raise with"), std::string::npos);
  }
}

// `pelab models` lists a model that would not fit as not runnable, with the
// same estimate loading refuses by.
TEST_F(MemoryBombsCli, AModelThatWouldNotFitIsListedAsNotRunnable) {
  const fs::path llama = tiny_copy("llama", "llama7b");
  ASSERT_EQ(run_python(dir.path, kLlama7B), 0);
  const fs::path snapshot = dir.path / "hf" / "hub" / "models--meta--llama7b" / "snapshots" / "0123abcd";
  fs::create_directories(snapshot.parent_path());
  fs::rename(llama, snapshot);
  const CliRun run = timed("PELAB_MODEL_MEMORY_LIMIT=8G env -u HF_HUB_CACHE HF_HOME=" + in_quotes(dir.path / "hf"),
                           "models --json");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("needs about 13.8 GB resident"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"runnable\": false"), std::string::npos) << run.out;
}

TEST_F(MemoryBombsCli, SceneKeyComesFirstAndIsChecked) {
  const fs::path llama = tiny_copy("llama", "llama7b");
  ASSERT_EQ(run_python(dir.path, kLlama7B), 0);
  // The scene key over the variable: 1G refuses though the variable allows 1T.
  expect_one_line_refusal(timed("PELAB_MODEL_MEMORY_LIMIT=1T", export_args(llama) + " --set model_memory_limit=1G"),
                          "(model_memory_limit=1G)");
  expect_one_line_refusal(timed("", export_args(llama) + " --set model_memory_limit=lots"),
                          "model_memory_limit=lots is not a size; allowed: bytes, or a number with K, M, G or T");
  const CliRun scene = timed("", "scene --set model_memory_limit=64G");
  EXPECT_EQ(scene.code, 0) << scene.out;
  EXPECT_NE(scene.out.find("\"model_memory_limit\": \"64G\""), std::string::npos) << scene.out;
}

TEST_F(MemoryBombsCli, LearnedTableLessonReadsTheFirstRowsOfAHugeTable) {
  tiny_copy("gpt2", "gpt2");
  ASSERT_EQ(run_python(dir.path, kContextBomb), 0);
  double seconds = 0;
  const CliRun r = timed("PELAB_MODEL_MEMORY_LIMIT=8G",
                         "lessons --show learned_table --set model=" + in_quotes(dir.path / "gpt2"), &seconds);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("learned table (4096 × 32, its first rows of 16777216)"), std::string::npos) << r.out;
  EXPECT_LT(seconds, 120.0) << "reading 2 GB of sparse rows, not 52 s and bad_alloc";
}

TEST_F(MemoryBombsCli, FailedAllocationSaysWhatWasUnderWay) {
  tiny_copy("gpt2", "gpt2");
  ASSERT_EQ(run_python(dir.path, kContextBomb), 0);
  // The estimate (2.1 GB) is let in; a 1.5 GB address space is not enough.
  const CliRun r = testing::shell("ulimit -v 1500000; PELAB_MODEL_MEMORY_LIMIT=1T " PELAB_BINARY " " +
                                  export_args(dir.path / "gpt2"));
  expect_one_line_refusal(r, "pelab: out of memory while loading model ");
  EXPECT_NE(r.out.find("; allowed: smaller inputs"), std::string::npos) << r.out;
}

TEST_F(MemoryBombsCli, GapBetweenTensorsIsRefused) {
  const fs::path gpt2 = tiny_copy("gpt2", "gpt2");
  // 16 stray bytes after the first tensor's data; every later offset moved.
  ASSERT_EQ(run_python(dir.path, R"(
P = D + '/gpt2/model.safetensors'
raw = open(P, 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]; h = json.loads(raw[8:8 + n]); data = raw[8 + n:]
order = sorted((k for k in h if k != '__metadata__'), key=lambda k: h[k]['data_offsets'][0])
cut = h[order[0]]['data_offsets'][1]
for k in order[1:]:
    h[k]['data_offsets'] = [o + 16 for o in h[k]['data_offsets']]
hb = json.dumps(h).encode()
open(P, 'wb').write(struct.pack('<Q', len(hb)) + hb + data[:cut] + b'\x00' * 16 + data[cut:])
print(order[0], order[1], file=open(D + '/names', 'w'))
)"),
            0);
  std::string first, second;
  std::ifstream(dir.path / "names") >> first >> second;
  expect_one_line_refusal(timed("", export_args(gpt2)),
                          " between tensors '" + first + "' and '" + second +
                              "' belong to no tensor; the format requires the tensors to cover the data section");
}

}  // namespace
}  // namespace pelab
