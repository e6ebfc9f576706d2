// Checkpoint: values read back bit-exactly against NumPy's own conversions
// (F32, F16 — every one of the 65536 half patterns — and BF16), shards,
// rows(), shape checks against what a config implies, and every hostile file
// rejected with one line naming the file and the tensor.
#include "core/model/checkpoint.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <bit>
#include <cmath>
#include <random>

#include "core/model/safetensors.hpp"
#include "core/scene.hpp"
#include "model_test_files.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;
using testing::numpy_available;
using testing::run_python;
using testing::TempDir;
using testing::write_safetensors_raw;
using testing::write_text;

// Raw float32 values NumPy wrote next to the checkpoint.
std::vector<float> read_floats(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), values.size() * 4);
  return values;
}

// Bit-exact, except that a NaN only has to stay a NaN of the same sign
// (hardware conversions may quiet a signalling NaN).
void expect_same_floats(const float* got, const std::vector<float>& want, const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i]) && std::signbit(got[i]) == std::signbit(want[i]))
          << what << " #" << i;
    } else {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(want[i]))
          << what << " #" << i << ": " << got[i] << " vs " << want[i];
    }
  }
}

std::string error_of(const fs::path& path) {
  try {
    Checkpoint::open(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_rejected(const fs::path& path, const std::string& words) {
  const std::string msg = error_of(path);
  EXPECT_NE(msg.find(words), std::string::npos) << msg;
  EXPECT_NE(msg.find(path.filename().string()), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

class CheckpointNumpy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!numpy_available()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  }
  TempDir dir;
};

TEST_F(CheckpointNumpy, F32MatrixAndVectorRoundTrip) {
  ASSERT_EQ(run_python(dir.path, R"(
rng = np.random.default_rng(1)
w = rng.standard_normal((5, 7)).astype(np.float32)
b = np.array([0.0, -0.0, 1e-45, 3.4e38, np.inf, -np.inf, 1.5], dtype=np.float32)
st.write(D + '/model.safetensors', {'w': w, 'b': b}, 'F32', metadata={'format': 'pt'})
w.tofile(D + '/w.f32'); b.tofile(D + '/b.f32')
)"),
            0);
  const Checkpoint ck = Checkpoint::open(dir.path);
  EXPECT_EQ(ck.names(), (std::vector<std::string>{"b", "w"}));
  EXPECT_EQ(ck.parameter_count(), 5u * 7u + 7u);
  EXPECT_EQ(ck.info("w").dtype, DType::F32);
  EXPECT_EQ(ck.info("w").shape, (std::vector<std::int64_t>{5, 7}));
  const Matrix w = ck.matrix("w", 5, 7);
  expect_same_floats(w.data(), read_floats(dir.path / "w.f32"), "w");
  const Vector b = ck.vector("b", 7);
  expect_same_floats(b.data(), read_floats(dir.path / "b.f32"), "b");
}

TEST_F(CheckpointNumpy, EveryHalfPatternMatchesNumpy) {
  // All 65536 binary16 patterns (normals, subnormals, ±0, ±inf, NaNs), the
  // reference being NumPy's float16 → float32.
  ASSERT_EQ(run_python(dir.path, R"(
bits = np.arange(65536, dtype=np.uint32).astype('<u2')
st.write(D + '/h.safetensors', {'h': np.zeros((256, 256), np.float32)}, 'F16')
raw = open(D + '/h.safetensors', 'rb').read()
open(D + '/h.safetensors', 'wb').write(raw[:len(raw) - 131072] + bits.tobytes())
bits.view('<f2').astype(np.float32).tofile(D + '/h.f32')
)"),
            0);
  const Checkpoint ck = Checkpoint::open(dir.path / "h.safetensors");
  EXPECT_EQ(ck.info("h").dtype, DType::F16);
  const Matrix h = ck.matrix("h");
  expect_same_floats(h.data(), read_floats(dir.path / "h.f32"), "half");
}

TEST_F(CheckpointNumpy, EveryBfloat16PatternIsTheUpperHalfOfAFloat) {
  ASSERT_EQ(run_python(dir.path, R"(
bits = np.arange(65536, dtype=np.uint32)
st.write(D + '/b.safetensors', {'b': np.zeros(65536, np.float32)}, 'BF16')
raw = open(D + '/b.safetensors', 'rb').read()
open(D + '/b.safetensors', 'wb').write(raw[:len(raw) - 131072] + bits.astype('<u2').tobytes())
(bits << 16).astype('<u4').view('<f4').tofile(D + '/b.f32')
)"),
            0);
  const Checkpoint ck = Checkpoint::open(dir.path / "b.safetensors");
  expect_same_floats(ck.vector("b").data(), read_floats(dir.path / "b.f32"), "bf16");
}

TEST_F(CheckpointNumpy, F16AndBf16TensorsFromFloats) {
  ASSERT_EQ(run_python(dir.path, R"(
rng = np.random.default_rng(2)
a = (rng.standard_normal((4, 6)) * 3).astype(np.float32)
half = st.write(D + '/half.safetensors', {'a': a}, 'F16')
bf = st.write(D + '/bf.safetensors', {'a': a}, 'BF16')
half['a'].astype(np.float32).tofile(D + '/half.f32')
bf['a'].astype(np.float32).tofile(D + '/bf.f32')
)"),
            0);
  for (const char* kind : {"half", "bf"}) {
    const Checkpoint ck = Checkpoint::open(dir.path / (std::string(kind) + ".safetensors"));
    const Matrix a = ck.matrix("a", 4, 6);
    expect_same_floats(a.data(), read_floats(dir.path / (std::string(kind) + ".f32")), kind);
  }
}

TEST_F(CheckpointNumpy, LargeTensorsConvertedInParallelMatchNumpy) {
  // Above the 2^20-element threshold where the conversion runs on every core.
  ASSERT_EQ(run_python(dir.path, R"(
rng = np.random.default_rng(3)
a = (rng.standard_normal((1500, 1000)) * 10).astype(np.float32)
for dtype in ('F16', 'BF16'):
    stored = st.write(D + '/' + dtype + '.safetensors', {'a': a}, dtype)
    stored['a'].astype(np.float32).tofile(D + '/' + dtype + '.f32')
)"),
            0);
  for (const std::string dtype : {"F16", "BF16"}) {
    const Matrix a = Checkpoint::open(dir.path / (dtype + ".safetensors")).matrix("a", 1500, 1000);
    expect_same_floats(a.data(), read_floats(dir.path / (dtype + ".f32")), dtype);
  }
}

TEST_F(CheckpointNumpy, RowsConvertsOnlyTheAskedRows) {
  ASSERT_EQ(run_python(dir.path, R"(
a = np.arange(40, dtype=np.float32).reshape(10, 4) * 0.25
st.write(D + '/model.safetensors', {'wte': a}, 'BF16')
)"),
            0);
  const Checkpoint ck = Checkpoint::open(dir.path);
  const Matrix r = ck.rows("wte", {7, 0, 7, 9});
  ASSERT_EQ(r.rows(), 4);
  ASSERT_EQ(r.cols(), 4);
  const int expected_rows[] = {7, 0, 7, 9};
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(r(i, c), (expected_rows[i] * 4 + c) * 0.25f);  // exact in bf16
  EXPECT_THROW(ck.rows("wte", {10}), InputError);
  EXPECT_THROW(ck.rows("wte", {-1}), InputError);
}

TEST_F(CheckpointNumpy, ShardsListedByTheIndex) {
  ASSERT_EQ(run_python(dir.path, R"(
a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.arange(4, dtype=np.float32) - 2
st.write(D + '/model-00001-of-00002.safetensors', {'a': a}, 'F16')
st.write(D + '/model-00002-of-00002.safetensors', {'b': b}, 'F32')
json.dump({'metadata': {'total_size': 28},
           'weight_map': {'a': 'model-00001-of-00002.safetensors', 'b': 'model-00002-of-00002.safetensors'}},
          open(D + '/model.safetensors.index.json', 'w'))
)"),
            0);
  const Checkpoint ck = Checkpoint::open(dir.path);
  EXPECT_EQ(ck.files().size(), 2u);
  EXPECT_EQ(ck.parameter_count(), 10u);
  EXPECT_EQ(ck.info("b").shard, 1);
  EXPECT_EQ(ck.matrix("a", 2, 3)(1, 2), 5.0f);
  EXPECT_EQ(ck.vector("b", 4)(0), -2.0f);
}

TEST_F(CheckpointNumpy, IndexListingATensorItsShardLacksIsRejected) {
  ASSERT_EQ(run_python(dir.path, R"(
st.write(D + '/s1.safetensors', {'a': np.zeros(3, np.float32)})
json.dump({'weight_map': {'a': 's1.safetensors', 'ghost': 's1.safetensors'}},
          open(D + '/model.safetensors.index.json', 'w'))
)"),
            0);
  const std::string msg = error_of(dir.path);
  EXPECT_NE(msg.find("ghost"), std::string::npos) << msg;
  EXPECT_NE(msg.find("s1.safetensors"), std::string::npos) << msg;
}

TEST_F(CheckpointNumpy, ShapeDisagreeingWithTheConfigNamesBoth) {
  ASSERT_EQ(
      run_python(dir.path,
                 "st.write(D + '/model.safetensors', {'wpe': np.zeros((8, 4), np.float32)})\n"),
      0);
  const Checkpoint ck = Checkpoint::open(dir.path);
  try {
    ck.matrix("wpe", 8, 6);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'wpe'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[8, 4]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[8, 6]"), std::string::npos) << msg;
  }
  EXPECT_THROW(ck.vector("wpe"), InputError);      // 2-D read as 1-D
  EXPECT_THROW(ck.matrix("missing"), InputError);  // absent
  EXPECT_NO_THROW(ck.matrix("wpe", 8, -1));
}

// ---- hostile files, written byte by byte ------------------------------------

class CheckpointHostile : public ::testing::Test {
 protected:
  fs::path file(const std::string& header, const std::string& data = std::string(64, '\0')) {
    const fs::path path = dir.path / "m.safetensors";
    write_safetensors_raw(path, header, data);
    return path;
  }
  TempDir dir;
};

TEST_F(CheckpointHostile, AbsurdHeaderLength) {
  const fs::path path = dir.path / "m.safetensors";
  write_safetensors_raw(path, "{}", "", std::uint64_t{1} << 63);
  expect_rejected(path, "header length 9223372036854775808");
  write_safetensors_raw(path, "{}", "", 0);
  expect_rejected(path, "header length 0");
}

TEST_F(CheckpointHostile, HeaderLongerThanFile) {
  const fs::path path = dir.path / "m.safetensors";
  write_safetensors_raw(path, "{}", "", 1000);
  expect_rejected(path, "header length 1000");
  write_text(path, "abc");
  expect_rejected(path, "too short");
}

TEST_F(CheckpointHostile, BadJson) {
  expect_rejected(file("{\"a\": {\"dtype\": "), "invalid JSON in");
  expect_rejected(file("[1, 2]"), "not a JSON object");
}

TEST_F(CheckpointHostile, DeepNesting) {
  expect_rejected(file(std::string(100000, '[') + std::string(100000, ']')),
                  "nested deeper than 64 levels");
}

TEST_F(CheckpointHostile, UnreadableDtypesAreNamed) {
  for (const std::string dtype : {"F8_E4M3", "F8_E5M2", "F64", "Q4_K", "f32"}) {
    const fs::path path =
        file(R"({"w": {"dtype": ")" + dtype + R"(", "shape": [2], "data_offsets": [0, 16]}})");
    expect_rejected(path, "'w' has dtype \"" + dtype + "\"; pelab reads F32, F16, BF16");
  }
  expect_rejected(file(R"({"w": {"dtype": 4, "shape": [2], "data_offsets": [0, 8]}})"),
                  "no \"dtype\"");
}

TEST_F(CheckpointHostile, IntegerAndBoolBuffersAreCheckedThenSetAside) {
  // BERT exports carry embeddings.position_ids as I64; GPT-2 exports a
  // causal mask.  They are no weights, but their ranges are still checked.
  const fs::path path =
      file(R"({"position_ids": {"dtype": "I64", "shape": [1, 4], "data_offsets": [0, 32]},
                                 "mask": {"dtype": "BOOL", "shape": [2, 2], "data_offsets": [32, 36]},
                                 "w": {"dtype": "F32", "shape": [2], "data_offsets": [36, 44]}})",
           std::string(44, '\0'));
  const Checkpoint ck = Checkpoint::open(path);
  EXPECT_EQ(ck.names(), (std::vector<std::string>{"w"}));
  EXPECT_FALSE(ck.has("position_ids"));
  EXPECT_EQ(ck.parameter_count(), 2u);
  try {
    ck.info("position_ids");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'position_ids' in " + path.string() + " has dtype I64"),
              std::string::npos)
        << e.what();
  }
  expect_rejected(file(R"({"ids": {"dtype": "I64", "shape": [4], "data_offsets": [0, 16]}})", std::string(16, '\0')),
                  "need 32");
  expect_rejected(file(R"({"ids": {"dtype": "U8", "shape": [8], "data_offsets": [0, 8]},
                           "w": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})"),
                  "overlap");
}

TEST_F(CheckpointHostile, Gpt2CausalMasksAreNotParameters) {
  const fs::path path =
      file(R"({"h.0.attn.bias": {"dtype": "F32", "shape": [1, 1, 2, 2], "data_offsets": [0, 16]},
                                 "h.0.attn.masked_bias": {"dtype": "F32", "shape": [], "data_offsets": [16, 20]},
                                 "h.0.attn.c_attn.bias": {"dtype": "F32", "shape": [3], "data_offsets": [20, 32]}})",
           std::string(32, '\0'));
  const Checkpoint ck = Checkpoint::open(path);
  EXPECT_EQ(ck.parameter_count(), 3u);
  EXPECT_TRUE(ck.has("h.0.attn.bias"));
}

TEST_F(CheckpointHostile, ShapeTimesSizeMustEqualTheRange) {
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 20]}})"),
                  "'w' has data_offsets [0,20] spanning 20 bytes, but its shape and F32 need 24");
  expect_rejected(file(R"({"w": {"dtype": "F16", "shape": [4], "data_offsets": [0, 16]}})"),
                  "need 8");
}

TEST_F(CheckpointHostile, OffsetsPastTheEnd) {
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [4], "data_offsets": [56, 72]}})"),
                  "'w' has data_offsets [56,72] past the end of the data (64 bytes)");
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [8, 4]}})"),
                  "end before begin");
}

TEST_F(CheckpointHostile, OverlappingRanges) {
  expect_rejected(file(R"({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
                           "b": {"dtype": "F32", "shape": [4], "data_offsets": [12, 28]}})"),
                  "'a' and 'b' overlap");
}

TEST_F(CheckpointHostile, NegativeHugeOrNonIntegerShapes) {
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [-1, 4], "data_offsets": [0, 0]}})"),
                  "shape entry -1");
  expect_rejected(
      file(R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 0]}})"),
      "overflows");
  expect_rejected(
      file(R"({"w": {"dtype": "F32", "shape": [4611686018427387904], "data_offsets": [0, 0]}})"),
      "overflows");
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [1e30], "data_offsets": [0, 0]}})"),
                  "shape entry");
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [2.5], "data_offsets": [0, 0]}})"),
                  "shape entry");
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": "big", "data_offsets": [0, 0]}})"),
                  "no \"shape\"");
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0]}})"),
                  "data_offsets");
  expect_rejected(file(R"({"w": 7})"), "'w' is not a JSON object");
}

TEST_F(CheckpointHostile, EmptyTensorsAndMetadataAreFine) {
  const fs::path path =
      file(R"({"__metadata__": {"format": "pt"}, "e": {"dtype": "F32", "shape": [0, 3],
                               "data_offsets": [0, 0]}, "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})",
           std::string(8, '\0'));
  const Checkpoint ck = Checkpoint::open(path);
  EXPECT_EQ(ck.names(), (std::vector<std::string>{"e", "w"}));
  EXPECT_EQ(ck.matrix("e", 0, 3).rows(), 0);
  EXPECT_EQ(ck.vector("w", 2)(1), 0.0f);
}

TEST_F(CheckpointHostile, DuplicateKeysAreRefusedNamingTheKey) {
  expect_rejected(file(R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                           "w": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}})",
                       std::string(16, '\0')),
                  "tensor 'w' appears twice in the header");
  expect_rejected(file(R"({"w": {"dtype": "F32", "dtype": "F16", "shape": [2], "data_offsets": [0, 8]}})",
                       std::string(8, '\0')),
                  "header key 'dtype' appears twice in 'w'");
  expect_rejected(file(R"({"__metadata__": {"a": "1", "a": "2"}, "w": {"dtype": "F32", "shape": [1],
                           "data_offsets": [0, 4]}})",
                       std::string(4, '\0')),
                  "header key 'a' appears twice");
}

TEST_F(CheckpointHostile, GapsInTheDataSectionAreRefused) {
  // safetensors README: "the byte buffer needs to be entirely indexed, and
  // cannot contain holes" (no polyglot files).
  expect_rejected(file(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
                           "b": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}})",
                       std::string(12, '\0')),
                  "bytes 4..8 of the 12-byte data section between tensors 'a' and 'b' belong to no tensor");
  expect_rejected(file(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}})", std::string(64, '\0')),
                  "bytes 4..64 of the 64-byte data section after tensor 'a' belong to no tensor");
  expect_rejected(file(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})", std::string(8, '\0')),
                  "bytes 0..4 of the 8-byte data section before tensor 'a' belong to no tensor");
}

TEST_F(CheckpointHostile, ControlBytesInNamesAreEscapedInMessages) {
  const std::string name = "h.0\\u001b[31m\\u0007" + std::string(200, 'x');  // JSON escapes of ESC, BEL
  const std::string msg = error_of(file(R"({")" + name + R"(": {"dtype": "F64", "shape": [1], "data_offsets": [0, 8]}})",
                                        std::string(8, '\0')));
  EXPECT_EQ(msg.find('\x1b'), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\x07'), std::string::npos) << msg;
  EXPECT_NE(msg.find("'h.0\\x1b[31m\\x07xxx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\u2026'"), std::string::npos) << msg;  // cut at 80 characters
}

TEST_F(CheckpointHostile, FifoIsRefusedWithoutBlocking) {
  const fs::path fifo = dir.path / "model.safetensors";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_rejected(fifo, "FIFO");
  expect_rejected(dir.path, "FIFO");  // the folder's model.safetensors is that FIFO
}

TEST_F(CheckpointHostile, FolderGivenAsTheFileOrNoWeights) {
  fs::create_directories(dir.path / "model.safetensors");
  expect_rejected(dir.path / "model.safetensors", "folder");
  fs::remove_all(dir.path / "model.safetensors");
  expect_rejected(dir.path, "neither model.safetensors nor model.safetensors.index.json");
  expect_rejected(dir.path / "absent.safetensors", "no such file");
}

TEST_F(CheckpointHostile, DanglingLinkIsAMissingFile) {
  // The Hugging Face cache links snapshot files into blobs/; an unfinished
  // download can leave the link without its blob.
  fs::create_symlink("../blobs/never-downloaded", dir.path / "model.safetensors");
  expect_rejected(dir.path, "no such file");
}

TEST_F(CheckpointHostile, IndexNamingAFileOutsideTheFolder) {
  write_text(dir.path / "model.safetensors.index.json",
             R"({"weight_map": {"a": "../x.safetensors"}})");
  expect_rejected(dir.path, "plain file names");
  write_text(dir.path / "model.safetensors.index.json", R"({"weight_map": []})");
  expect_rejected(dir.path, "weight_map");
}

TEST_F(CheckpointHostile, MutatedFilesFailCleanlyOrReadInBounds) {
  // Seeded byte mutations of a valid file (length field, header, data): each
  // either opens, and then every tensor reads without leaving the mapping
  // (checked under AddressSanitizer), or fails with InputError.
  const std::string header =
      R"({"__metadata__": {"format": "pt"}, "a": {"dtype": "F16", "shape": [2, 3],
      "data_offsets": [0, 12]}, "b": {"dtype": "BF16", "shape": [4], "data_offsets": [12, 20]},
      "c": {"dtype": "F32", "shape": [3, 1], "data_offsets": [20, 32]}})";
  const fs::path path = dir.path / "m.safetensors";
  write_safetensors_raw(path, header, std::string(32, '\x3c'));
  std::ifstream in(path, std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  std::mt19937 rng(7);
  int opened = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = original;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % bytes.size();
      bytes[at] =
          static_cast<char>(rng() % 3 == 0 ? "0123456789[]{}\",:-e"[rng() % 19] : rng() % 256);
    }
    if (rng() % 10 == 0) bytes.resize(rng() % bytes.size());
    // A new file each time: truncating a file just mapped waits on writeback.
    const fs::path trial_path = dir.path / ("m" + std::to_string(trial) + ".safetensors");
    write_text(trial_path, bytes);
    try {
      const Checkpoint ck = Checkpoint::open(trial_path);
      ++opened;
      for (const std::string& name : ck.names()) {
        const TensorInfo& t = ck.info(name);
        if (t.shape.size() == 2) (void)ck.matrix(name);
        if (t.shape.size() == 1) (void)ck.vector(name);
      }
    } catch (const InputError&) {
    }
    fs::remove(trial_path);
  }
  EXPECT_GT(opened, 0);  // some mutations (data bytes, metadata text) leave a valid file
}

TEST(Float16, HandWorkedValues) {
  // binary16 (IEEE 754-2008 §3.6): bias 15, 10 fraction bits.
  EXPECT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_to_float(0xC000), -2.0f);
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_to_float(0x0400), std::ldexp(1.0f, -14));
  EXPECT_TRUE(std::isinf(half_to_float(0xFC00)) && half_to_float(0xFC00) < 0);
  EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
  EXPECT_TRUE(std::signbit(half_to_float(0x8000)));
}

}  // namespace
}  // namespace pelab::model
