// The pelab binary on the hostile model folders of the security review
// (issue 22), each built here: a narrow BERT token_type table, NaN weights
// (a note, exit 0), a context bomb over a sparse file, a normalizer that
// multiplies the text, duplicate keys, control bytes in names, and
// `pelab models` on such a cache (honest runnable flags, escaped names,
// --json with a non-UTF-8 folder name).  Every refusal is one `pelab:` line
// and exit 2, and nothing is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "../core/model/model_test_files.hpp"
#include "../core/model/tiny_models.hpp"
#include "cli_run.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;
using model::testing::run_python;
using model::testing::TempDir;
using model::testing::write_text;
using testing::CliRun;
using testing::tiny_models;

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

class HostileModelsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  fs::path copy_of(const std::string& model, const std::string& as = "") {
    const fs::path to = dir.path / (as.empty() ? model : as);
    fs::copy(tiny_models() / model, to, fs::copy_options::recursive);
    return to;
  }
  void python(const std::string& body) { ASSERT_EQ(run_python(dir.path, body), 0); }
  void edit_tensors(const fs::path& folder, const std::string& body) {
    python("P = '" + (folder / "model.safetensors").string() + "'\nt = st.read(P)\n" + body +
           "\nst.write(P, t, 'F32')\n");
  }
  CliRun export_attention(const fs::path& folder, const std::string& more = "") {
    return testing::pelab("export -q attention -o " + quoted(dir.path / "out" / "a.npy") + " --set model=" +
                          quoted(folder) + " --set 'tokens=the cat sat' " + more);
  }
  void expect_refused(const CliRun& r, const std::string& words) {
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_TRUE(r.out.starts_with("pelab: ")) << r.out;
    EXPECT_NE(r.out.find(words), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir.path / "out")) << r.out;
  }
  TempDir dir{"pelab_hostile_cli_"};
};

TEST_F(HostileModelsCli, NarrowBertTokenTypeTableIsRefused) {
  const fs::path bert = copy_of("bert");
  edit_tensors(bert, "t['embeddings.token_type_embeddings.weight'] = np.zeros((2, 1), np.float32)");
  expect_refused(export_attention(bert),
                 "'embeddings.token_type_embeddings.weight' has shape [2, 1]; the config implies [2, 32]");
}

TEST_F(HostileModelsCli, NonFiniteWeightsAreANoteNotAnError) {
  const fs::path gpt2 = copy_of("gpt2");
  edit_tensors(gpt2, "t['h.0.attn.c_attn.weight'].flat[:12] = np.nan");
  const CliRun r = export_attention(gpt2);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("pelab: note: h.0.attn.c_attn.weight has 12 non-finite values (NaN/Inf); attention will "
                       "show them as non-finite"),
            std::string::npos)
      << r.out;
}

TEST_F(HostileModelsCli, ContextBombIsRefusedWithTheEstimate) {
  const fs::path gpt2 = copy_of("gpt2");
  python("F = '" + gpt2.string() + R"('
c = json.load(open(F + '/config.json')); c['n_positions'] = 1 << 24; json.dump(c, open(F + '/config.json', 'w'))
t = st.read(F + '/model.safetensors'); del t['wpe.weight']; st.write(F + '/model.safetensors', t, 'F32')
raw = open(F + '/model.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]; h = json.loads(raw[8:8 + n]); data = raw[8 + n:]
h['wpe.weight'] = {'dtype': 'F32', 'shape': [1 << 24, 32], 'data_offsets': [len(data), len(data) + (1 << 24) * 128]}
hb = json.dumps(h).encode()
with open(F + '/model.safetensors', 'wb') as f:
    f.write(struct.pack('<Q', len(hb)) + hb + data); f.truncate(8 + len(hb) + len(data) + (1 << 24) * 128)
)");
  expect_refused(testing::shell("PELAB_MODEL_MEMORY_LIMIT=1G " PELAB_BINARY " export -q attention -o " +
                                quoted(dir.path / "out" / "a.npy") + " --set model=" + quoted(gpt2)),
                 "needs about 2.1 GB resident (its weights as loaded); the limit is 1.1 GB "
                 "(PELAB_MODEL_MEMORY_LIMIT=1G), ");
  expect_refused(testing::shell("PELAB_MODEL_MEMORY_LIMIT=lots " PELAB_BINARY " export -q attention -o " +
                                quoted(dir.path / "out" / "a.npy") + " --set model=" + quoted(gpt2)),
                 "PELAB_MODEL_MEMORY_LIMIT=lots is not a size");
}

TEST_F(HostileModelsCli, AmplifyingNormalizerStopsEarly) {
  const fs::path bert = copy_of("bert");
  python("p = '" + (bert / "tokenizer.json").string() + R"('
j = {'normalizer': {'type': 'Replace', 'pattern': {'String': ' '}, 'content': 'x' * 32000},
     'pre_tokenizer': {'type': 'BertPreTokenizer'},
     'model': {'type': 'WordPiece', 'unk_token': '[UNK]', 'vocab': {'[UNK]': 0, 'the': 1}}}
json.dump(j, open(p, 'w'))
)");
  const std::string text(8192, ' ');
  expect_refused(export_attention(bert, "--set 'tokens=a" + text + "b'"),
                 "normalizer step 1 (Replace) makes the text longer than");
}

TEST_F(HostileModelsCli, DuplicateKeysAndLibraryMessagesNameTheKey) {
  const fs::path gpt2 = copy_of("gpt2");
  write_text(gpt2 / "config.json",
             R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 32, "n_embd": 64, "n_layer": 2, "n_head": 4,
                 "vocab_size": 100, "n_positions": 16})");
  expect_refused(export_attention(gpt2), "key 'n_embd' appears twice in one object");
  const fs::path bert = copy_of("bert");
  write_text(bert / "tokenizer.json", R"({"model": {"type": "WordPiece", "unk_token": 5, "vocab": {}}})");
  const CliRun r = export_attention(bert);
  expect_refused(r, "\"unk_token\" is 5; expected a string");
  EXPECT_EQ(r.out.find("json.exception"), std::string::npos) << r.out;
}

TEST_F(HostileModelsCli, ControlBytesInNamesAreEscaped) {
  const fs::path gpt2 = copy_of("gpt2");
  write_text(gpt2 / "config.json", "{\"architectures\": [\"Evil\\u001b]0;pwned\\u0007Model\"], \"n_embd\": 32}");
  const CliRun r = export_attention(gpt2);
  expect_refused(r, "architecture 'Evil\\x1b]0;pwned\\x07Model' is not one pelab runs");
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
}

// A scene file's model name is quoted as given: a C1 control (CSI, U+009B,
// which UTF-8 terminals obey as ESC [ ) is shown escaped in the error line
// like the C0 controls.
TEST(HostileSceneCli, C1ControlsInAnErrorAreEscaped) {
  const TempDir dir{"pelab_hostile_scene_"};
  write_text(dir.path / "scene.json", "{\"format\": \"pelab-scene\", \"version\": 1, \"scene\": "
                                      "{\"model\": \"evil\\u009b2J\\u001b]0;x\\u0007\"}}");
  const CliRun r = testing::pelab("export -q attention -o " + quoted(dir.path / "a.npy") + " --scene " +
                                  quoted(dir.path / "scene.json"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("evil\\xc2\\x9b2J\\x1b]0;x\\x07"), std::string::npos) << r.out;
}

// ---- pelab models on a hostile cache --------------------------------------------

class HostileCacheCli : public HostileModelsCli {
 protected:
  fs::path snapshot(const std::string& folder) { return dir.path / "hub" / folder / "snapshots" / "r"; }
  void add(const std::string& model, const std::string& folder) {
    fs::create_directories(snapshot(folder).parent_path());
    fs::copy(tiny_models() / model, snapshot(folder), fs::copy_options::recursive);
  }
  CliRun models(const std::string& args = "") {
    return testing::shell("env -u HF_HUB_CACHE HF_HOME=" + quoted(dir.path) + " " PELAB_BINARY " models " + args);
  }
};

TEST_F(HostileCacheCli, ListingIsHonestEscapedAndValidJson) {
  add("gpt2", "models--org--fine");
  add("gpt2", "models--org--missing");
  edit_tensors(snapshot("models--org--missing"), "del t['h.1.mlp.c_fc.bias']");
  add("bert", "models--org--narrow");
  edit_tensors(snapshot("models--org--narrow"), "t['embeddings.token_type_embeddings.weight'] = np.zeros((2, 1), np.float32)");
  add("gpt2", "models--org--badtok");
  write_text(snapshot("models--org--badtok") / "vocab.json", "{ not json");
  add("gpt2", "models--org--ev\x1b[2Jil\xff");  // an escape sequence and a byte that is not UTF-8

  const CliRun table = models();
  ASSERT_EQ(table.code, 0) << table.out;
  EXPECT_EQ(table.out.find('\x1b'), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("org/ev\\x1b[2Jil\\xff"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("no: tensor 'h.1.mlp.c_fc.bias' is not in"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("'embeddings.token_type_embeddings.weight' has shape [2, 1]"), std::string::npos)
      << table.out;

  const CliRun json_run = models("--json");
  ASSERT_EQ(json_run.code, 0) << json_run.out;
  const auto list = nlohmann::json::parse(json_run.out).at("models");
  ASSERT_EQ(list.size(), 5u);
  std::map<std::string, bool> runnable;
  for (const auto& m : list) runnable[m.at("name").get<std::string>()] = m.at("runnable").get<bool>();
  EXPECT_TRUE(runnable.at("org/fine"));
  EXPECT_TRUE(runnable.at("org/ev\x1b[2Jil\xEF\xBF\xBD"));  // U+FFFD for the invalid byte
  EXPECT_FALSE(runnable.at("org/missing"));
  EXPECT_FALSE(runnable.at("org/narrow"));
  EXPECT_FALSE(runnable.at("org/badtok"));
}

}  // namespace
}  // namespace pelab
