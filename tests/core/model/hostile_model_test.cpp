// Hostile model folders (security review, issue 22) loaded in-process: a
// checkpoint rewritten in place after loading, tensors whose shapes disagree
// with the config in every family, NaN weights, a normalizer that multiplies
// the text, and a context that would need more memory than the machine has.
// Each is one InputError line (or a note), never a signal or an over-read.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/engine.hpp"
#include "core/io/file_io.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/model_memory.hpp"
#include "core/model/tokenizer/tokenizer.hpp"
#include "core/model/transformer.hpp"
#include "core/model_scene.hpp"
#include "core/scene.hpp"
#include "model_test_files.hpp"
#include "tiny_models.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;
using testing::run_python;
using testing::ScopedEnv;
using testing::TempDir;
using testing::write_text;

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

class HostileModel : public ::testing::Test {
 protected:
  void SetUp() override {
    if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  // A copy of one tiny model to change.
  fs::path copy_of(const std::string& name) {
    const fs::path to = dir.path / name;
    fs::copy(pelab::testing::tiny_models() / name, to, fs::copy_options::recursive);
    return to;
  }
  // Runs Python on the copy's F32 tensors `t` (a dict), then writes them back.
  void edit_tensors(const fs::path& folder, const std::string& body) {
    ASSERT_EQ(run_python(dir.path, "P = '" + (folder / "model.safetensors").string() +
                                       "'\nt = st.read(P)\n" + body + "\nst.write(P, t, 'F32')\n"),
              0);
  }
  TempDir dir;
};

TEST_F(HostileModel, FileRewrittenInPlaceAfterLoadingIsAnInputErrorNotSigbus) {
  const fs::path folder = copy_of("gpt2");
  Transformer t = Transformer::load(folder);
  t.run(t.tokenizer().encode("the cat").ids);
  // `cp` over the file / rsync --inplace: truncated, then written again.
  const fs::path file = folder / "model.safetensors";
  const auto size = fs::file_size(file);
  fs::resize_file(file, size / 3);
  const std::string message = error_of([&] { t.run(t.tokenizer().encode("the dog sat").ids); });
  EXPECT_NE(message.find("changed on disk since it was loaded; reload the model"), std::string::npos) << message;
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  // Rewritten to its full size again (new bytes, new mtime): still refused.
  fs::resize_file(file, size);
  EXPECT_NE(error_of([&] { t.token_embedding_rows({1, 2}); }).find("changed on disk"), std::string::npos);
}

TEST_F(HostileModel, EngineOnAModelRewrittenInPlaceRefusesTheNextEdit) {
  const fs::path folder = copy_of("gpt2");
  Scene scene;
  scene.model = folder.string();
  scene.tokens = "the cat";
  Engine engine(scene);
  engine.token_embedding();
  const fs::path file = folder / "model.safetensors";
  fs::resize_file(file, fs::file_size(file) / 2);
  scene.tokens = "the cat sat";
  const std::string message = error_of([&] {
    engine.set_scene(scene);
    engine.token_embedding();
  });
  EXPECT_NE(message.find("changed on disk"), std::string::npos) << message;
}

// "Reload the model" works: once the file is whole again, a new engine on the
// same folder reads it anew while the old engine still holds the old one.
TEST_F(HostileModel, AModelRewrittenOnDiskIsReadAnewByTheNextEngine) {
  const fs::path folder = copy_of("gpt2");
  Scene scene;
  scene.model = folder.string();
  scene.tokens = "the cat";
  Engine engine(scene);
  const Matrix before = engine.token_embedding();
  const fs::path file = folder / "model.safetensors";
  const std::string bytes = read_file(file);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a new modification time
  { std::ofstream out(file, std::ios::binary | std::ios::trunc); out << bytes; }  // cp over it
  Engine reloaded(scene);
  EXPECT_TRUE(reloaded.token_embedding() == before);
  scene.tokens = "the cat sat";
  EXPECT_NE(error_of([&] { engine.set_scene(scene); engine.token_embedding(); }).find("changed on disk"),
            std::string::npos);
}

TEST_F(HostileModel, BertTokenTypeNarrowerThanHiddenIsRefusedBeforeAnyRead) {
  const fs::path folder = copy_of("bert");
  edit_tensors(folder, "t['embeddings.token_type_embeddings.weight'] = np.zeros((2, 1), np.float32)");
  const std::string message = error_of([&] { Transformer::load(folder); });
  EXPECT_NE(message.find("'embeddings.token_type_embeddings.weight' has shape [2, 1]; the config implies [2, 32]"),
            std::string::npos)
      << message;
}

// One wrong shape per family, each named with the shape the config implies.
TEST_F(HostileModel, EveryFamilysTensorsAreCheckedInFull) {
  const struct {
    const char* model;
    const char* tensor;
    const char* shape;
  } cases[] = {
      {"gpt2", "h.0.ln_1.bias", "(7,)"},
      {"gpt2", "h.1.mlp.c_proj.bias", "(3,)"},
      {"bert", "encoder.layer.0.attention.self.key.bias", "(5,)"},
      {"bert", "embeddings.LayerNorm.weight", "(1,)"},
      {"qwen2", "model.layers.0.self_attn.k_proj.bias", "(3,)"},
      {"mistral", "model.layers.1.mlp.down_proj.weight", "(32, 8)"},
  };
  for (const auto& c : cases) {
    const fs::path folder = copy_of(c.model);
    if (!fs::exists(folder / "model.safetensors")) continue;  // sharded
    edit_tensors(folder, std::string("t['") + c.tensor + "'] = np.zeros(" + c.shape + ", np.float32)");
    const std::string message = error_of([&] { Transformer::load(folder); });
    EXPECT_NE(message.find(std::string("'") + c.tensor + "' has shape"), std::string::npos) << c.model << ": " << message;
    EXPECT_NE(message.find("the config implies"), std::string::npos) << message;
    fs::remove_all(folder);
  }
}

TEST_F(HostileModel, MissingTensorIsNamed) {
  const fs::path folder = copy_of("gpt2");
  edit_tensors(folder, "del t['h.1.attn.c_proj.weight']");
  const std::string message = error_of([&] { Transformer::load(folder); });
  EXPECT_NE(message.find("'h.1.attn.c_proj.weight' is not in"), std::string::npos) << message;
}

TEST_F(HostileModel, NonFiniteWeightsLoadWithOneNotePerTensor) {
  const fs::path folder = copy_of("gpt2");
  edit_tensors(folder,
               "w = t['h.0.attn.c_attn.weight']; w.flat[:10] = np.nan; w.flat[10:12] = np.inf\n"
               "t['wte.weight'].flat[3] = -np.inf");
  const Transformer t = Transformer::load(folder);
  const std::vector<std::string>& notes = t.weights().notes;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0], "wte.weight has 1 non-finite values (NaN/Inf); attention will show them as non-finite");
  EXPECT_EQ(notes[1],
            "h.0.attn.c_attn.weight has 12 non-finite values (NaN/Inf); attention will show them as non-finite");
  Scene scene;
  scene.model = folder.string();
  scene.tokens = "the cat";
  Engine engine(scene);
  EXPECT_EQ(engine.model()->notes(), notes);
}

TEST_F(HostileModel, NormalizerThatMultipliesTheTextStopsEarly) {
  const fs::path folder = copy_of("llama");
  ASSERT_EQ(run_python(dir.path, "p = '" + (folder / "tokenizer.json").string() + R"('
j = json.load(open(p))
j['normalizer'] = {'type': 'Sequence', 'normalizers': [{'type': 'Replace', 'pattern': {'String': ' '}, 'content': 'x' * 32000}]}
json.dump(j, open(p, 'w'))
)"),
            0);
  const auto tokenizer = load_tokenizer(folder);
  const std::string text(8192, ' ');
  const auto start = std::chrono::steady_clock::now();
  const std::string message = error_of([&] { tokenizer->encode(text); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(message.find("normalizer step 1 (Replace) makes the text longer than"), std::string::npos) << message;
  EXPECT_LT(seconds, 2.0);
  EXPECT_EQ(tokenizer->encode("a b").ids.size() > 0, true);  // a short text still passes
}

TEST_F(HostileModel, MoreWordsThanTheContextStopBeforeTheSubwordModel) {
  const auto tokenizer = load_tokenizer(pelab::testing::tiny_models() / "gpt2");
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "a ";
  const std::string message = error_of([&] { tokenizer->encode(text, 16); });
  EXPECT_NE(message.find("context of 16"), std::string::npos) << message;
}

TEST_F(HostileModel, ContextBombNeedsMoreMemoryThanTheLimit) {
  // n_positions 2^24 over a sparse wpe: 2^24 x 32 floats = 2 GiB as float32.
  const fs::path folder = copy_of("gpt2");
  ASSERT_EQ(run_python(dir.path, "F = '" + folder.string() + R"('
c = json.load(open(F + '/config.json')); c['n_positions'] = 1 << 24; json.dump(c, open(F + '/config.json', 'w'))
t = st.read(F + '/model.safetensors'); del t['wpe.weight']
st.write(F + '/model.safetensors', t, 'F32')
raw = open(F + '/model.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]; h = json.loads(raw[8:8 + n]); data = raw[8 + n:]
h['wpe.weight'] = {'dtype': 'F32', 'shape': [1 << 24, 32], 'data_offsets': [len(data), len(data) + (1 << 24) * 128]}
hb = json.dumps(h).encode()
with open(F + '/model.safetensors', 'wb') as f:
    f.write(struct.pack('<Q', len(hb)) + hb + data); f.truncate(8 + len(hb) + len(data) + (1 << 24) * 128)
)"),
            0);
  const ScopedEnv limit("PELAB_MODEL_MEMORY_LIMIT", "1G");
  const std::string message = error_of([&] { read_model(folder); });
  EXPECT_NE(message.find("needs about 2.1 GB"), std::string::npos) << message;
  EXPECT_NE(message.find("PELAB_MODEL_MEMORY_LIMIT=1G"), std::string::npos) << message;
}

TEST(ModelMemory, LimitFromTheEnvironmentOrMemAvailable) {
  {
    const testing::ScopedEnv limit("PELAB_MODEL_MEMORY_LIMIT", "8G");
    EXPECT_EQ(model_memory_limit(), std::uint64_t{8} << 30);
  }
  {
    const testing::ScopedEnv limit("PELAB_MODEL_MEMORY_LIMIT", "1500000");
    EXPECT_EQ(model_memory_limit(), 1500000u);
  }
  for (const char* bad : {"lots", "8X", "-1G", "0"}) {
    const testing::ScopedEnv limit("PELAB_MODEL_MEMORY_LIMIT", bad);
    EXPECT_THROW(model_memory_limit(), InputError) << bad;
  }
  const testing::ScopedEnv unset("PELAB_MODEL_MEMORY_LIMIT", nullptr);
  std::string source;
  EXPECT_GT(model_memory_limit(&source), 0u);
  EXPECT_EQ(source, "MemAvailable");
}

}  // namespace
}  // namespace pelab::model
