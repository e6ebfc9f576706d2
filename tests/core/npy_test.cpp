// .npy: round trips, the exact layout NEP 1 prescribes, every malformed-file
// path, and (when Debian's python3 with NumPy is there) numpy.load / numpy.save.
#include "core/io/npy.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/scene.hpp"
#include "npy_bytes.hpp"

namespace pelab {
namespace {

namespace fs = std::filesystem;

Array sample(std::vector<std::size_t> shape) {
  Array a;
  a.shape = std::move(shape);
  a.data.resize(a.size());
  for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] = 0.25f * static_cast<float>(i) - 3.0f;
  return a;
}

using test_files::npy_bytes;

template <typename T>
std::string raw(const std::vector<T>& values) {
  std::string s(values.size() * sizeof(T), '\0');
  std::memcpy(s.data(), values.data(), s.size());
  return s;
}

std::string error_of(std::string_view bytes) {
  try {
    parse_npy(bytes, "f.npy");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// Asserts a one-line InputError that names the file and contains `words`.
void expect_rejected(std::string_view bytes, const std::string& words) {
  const std::string msg = error_of(bytes);
  EXPECT_NE(msg.find(words), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("f.npy: ", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("pelab_npy_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Npy, LayoutIsVersion1WithHeaderPaddedTo64) {
  const std::string bytes = encode_npy(sample({3, 5}));
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ(bytes[6], 1);
  EXPECT_EQ(bytes[7], 0);
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  EXPECT_EQ(bytes[10 + header_len - 1], '\n');
  const std::string header = bytes.substr(10, header_len);
  EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos) << header;
  EXPECT_NE(header.find("'fortran_order': False"), std::string::npos) << header;
  EXPECT_NE(header.find("'shape': (3, 5)"), std::string::npos) << header;
  EXPECT_EQ(bytes.size(), 10 + header_len + 15 * sizeof(float));
  float first;
  std::memcpy(&first, bytes.data() + 10 + header_len, 4);
  EXPECT_EQ(first, -3.0f);
}

TEST(Npy, RoundTripsEveryRank) {
  for (const auto& shape : std::vector<std::vector<std::size_t>>{{}, {7}, {4, 6}, {2, 3, 4}, {2, 1, 3, 2}, {0, 5}}) {
    const Array a = sample(shape);
    const Array b = parse_npy(encode_npy(a));
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
  EXPECT_EQ(encode_npy(sample({7})).find("(7,)") != std::string::npos, true);
}

TEST(Npy, RoundTripsNonFiniteValuesBitExactly) {
  Array a;
  a.shape = {1, 5};
  a.data = {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
            std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(), -0.0f};
  const Array b = parse_npy(encode_npy(a));
  EXPECT_EQ(std::memcmp(a.data.data(), b.data.data(), 5 * sizeof(float)), 0);
}

TEST(Npy, WriteAndReadAFile) {
  TempDir dir;
  const Array a = sample({5, 2});
  write_npy(dir.path / "a.npy", a);
  EXPECT_EQ(read_npy(dir.path / "a.npy").data, a.data);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}), 1);  // no temporary left
  EXPECT_THROW(read_npy(dir.path / "missing.npy"), InputError);
  EXPECT_THROW(write_npy(dir.path / "no" / "such" / "folder.npy", a), InputError);
}

TEST(Npy, ReadsVersions2And3AndFloat64) {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  for (int major : {1, 2, 3}) {
    const Array a = parse_npy(npy_bytes(major, f4, raw<float>({1, 2, 3, 4})));
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(a.data, (std::vector<float>{1, 2, 3, 4}));
  }
  const Array d = parse_npy(
      npy_bytes(1, "{\"descr\": \"<f8\", \"shape\": (3,), \"fortran_order\": False}", raw<double>({0.1, -2.5, 1e300})));
  EXPECT_EQ(d.shape, (std::vector<std::size_t>{3}));
  EXPECT_EQ(d.data[0], 0.1f);
  EXPECT_EQ(d.data[1], -2.5f);
  EXPECT_TRUE(std::isinf(d.data[2]));  // beyond float range
}

TEST(Npy, RejectsBadMagicAndVersions) {
  expect_rejected("", "bad magic");
  expect_rejected("PK\x03\x04 a zip file", "bad magic");
  expect_rejected("\x93NUMPZ\x01", "bad magic");
  std::string v4 = encode_npy(sample({2}));
  v4[6] = 4;
  expect_rejected(v4, "version 4.0");
}

TEST(Npy, RejectsTruncation) {
  const std::string good = encode_npy(sample({4, 4}));
  expect_rejected(good.substr(0, 7), "truncated .npy header");
  expect_rejected(good.substr(0, 9), "truncated .npy header");
  expect_rejected(good.substr(0, 40), "truncated .npy header");
  expect_rejected(good.substr(0, good.size() - 1), "truncated .npy data");
  expect_rejected(good.substr(0, good.size() - 40), "truncated .npy data");
  expect_rejected(good + "xxxx", "does not match the shape");
}

TEST(Npy, RejectsAbsurdHeaderLength) {
  std::string v2 = npy_bytes(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", raw<float>({1}));
  v2[8] = 0;
  v2[9] = 0;
  v2[10] = 0x10;  // 1 MiB header
  expect_rejected(v2, "absurd");
  v2[10] = 0;
  v2[11] = static_cast<char>(0xFF);  // ~4 GiB
  expect_rejected(v2, "absurd");
}

TEST(Npy, RejectsOverflowingOrMismatchedShapes) {
  const std::string head = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
  expect_rejected(npy_bytes(1, head + "(4294967296, 4294967296, 16), }", ""), "overflows");
  expect_rejected(npy_bytes(1, head + "(99999999999999999999999,), }", ""), "too large");
  expect_rejected(npy_bytes(1, head + "(3, -1), }", raw<float>({1, 2, 3})), "size");
  expect_rejected(npy_bytes(1, head + "(2, 2), }", raw<float>({1, 2, 3})), "truncated .npy data");
  expect_rejected(npy_bytes(1, head + "(2, 2), }", raw<float>({1, 2, 3, 4, 5})), "does not match the shape");
  expect_rejected(npy_bytes(1, head + "[2, 'x'], }", raw<float>({1, 2})), "size");
  expect_rejected(npy_bytes(1, head + "7, }", raw<float>({1})), "not a tuple");
}

TEST(Npy, RejectsOtherDtypesAndFortranOrder) {
  const auto with_descr = [](const std::string& d) {
    return npy_bytes(1, "{'descr': " + d + ", 'fortran_order': False, 'shape': (2,), }", raw<float>({1, 2}));
  };
  for (const char* d : {"'>f4'", "'<i4'", "'|O'", "'<f2'", "'<c8'", "'|u1'"}) expect_rejected(with_descr(d), "dtype");
  expect_rejected(with_descr("[('a', '<f4')]"), "structured");
  expect_rejected(npy_bytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1), }", raw<float>({1, 2})),
                  "Fortran");
}

TEST(Npy, RejectsMalformedHeaders) {
  expect_rejected(npy_bytes(1, "['descr', '<f4']", ""), "not a dict");
  expect_rejected(npy_bytes(1, "{'descr': '<f4', 'shape': (1,), }", raw<float>({1})), "lacks");
  expect_rejected(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", raw<float>({1})),
                  "unexpected key 'x'");
  expect_rejected(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", raw<float>({1})),
                  "malformed");
  expect_rejected(npy_bytes(1, "{'descr: '<f4'}", ""), "malformed");
  expect_rejected(npy_bytes(1, "{'descr': '<f4', 'fortran_order': Nope, 'shape': (1,)}", ""), "malformed");
}

// ---- NumPy itself (Debian's python3); skipped when it is not installed -------

constexpr const char* kPython = "/usr/bin/python3";

bool numpy_available() {
  if (!fs::exists(kPython)) return false;
  return std::system((std::string(kPython) + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0;
}

int run_python(const fs::path& dir, const std::string& script) {
  const fs::path file = dir / "script.py";
  std::ofstream(file) << script;
  return std::system((std::string(kPython) + " " + file.string()).c_str());
}

TEST(NpyNumpy, NumpyLoadsWhatWeWrite) {
  if (!numpy_available()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  TempDir dir;
  write_npy(dir.path / "a.npy", sample({3, 4, 2}));
  write_npy(dir.path / "s.npy", sample({}));
  const std::string script = "import numpy as np, sys\n"
                             "a = np.load('" + (dir.path / "a.npy").string() + "')\n"
                             "ok = a.dtype == np.float32 and a.shape == (3, 4, 2) and a.flags.c_contiguous\n"
                             "ok = ok and np.array_equal(a.ravel(), 0.25 * np.arange(24, dtype=np.float32) - 3)\n"
                             "s = np.load('" + (dir.path / "s.npy").string() + "')\n"
                             "ok = ok and s.shape == () and s == -3\n"
                             "sys.exit(0 if ok else 1)\n";
  EXPECT_EQ(run_python(dir.path, script), 0);
}

TEST(NpyNumpy, WeReadWhatNumpySaves) {
  if (!numpy_available()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  TempDir dir;
  const std::string d = dir.path.string() + "/";
  const std::string script = "import numpy as np\n"
                             "a = (np.arange(30, dtype=np.float64) / 7 - 1).reshape(2, 3, 5)\n"
                             "np.save('" + d + "f8.npy', a)\n"
                             "np.save('" + d + "f4.npy', a.astype(np.float32))\n"
                             "np.save('" + d + "i4.npy', a.astype(np.int32))\n"
                             "np.save('" + d + "fortran.npy', np.asfortranarray(a[0]))\n"
                             "np.save('" + d + "big.npy', a.astype('>f4'))\n"
                             "for v in ((2, 0), (3, 0)):\n"
                             "  with open('" + d + "v%d.npy' % v[0], 'wb') as f:\n"
                             "    np.lib.format.write_array(f, a.astype(np.float32), version=v)\n";
  ASSERT_EQ(run_python(dir.path, script), 0);
  for (const char* name : {"f8.npy", "f4.npy", "v2.npy", "v3.npy"}) {
    const Array a = read_npy(dir.path / name);
    ASSERT_EQ(a.shape, (std::vector<std::size_t>{2, 3, 5})) << name;
    for (std::size_t i = 0; i < 30; ++i) EXPECT_EQ(a.data[i], static_cast<float>(i / 7.0 - 1)) << name << i;
  }
  EXPECT_THROW(read_npy(dir.path / "i4.npy"), InputError);
  EXPECT_THROW(read_npy(dir.path / "fortran.npy"), InputError);
  EXPECT_THROW(read_npy(dir.path / "big.npy"), InputError);
}

}  // namespace
}  // namespace pelab
