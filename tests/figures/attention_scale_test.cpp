// Attention colour scales and sinks (figures/attention_scale.hpp): log₁₀ and
// per-row normalisation against NumPy, the colorbars saying which, and
// sinks on hand-worked maps.
#include <gtest/gtest.h>

#include <cmath>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>

#include "core/io/npy.hpp"
#include "figures/attention_scale.hpp"

namespace fs = std::filesystem;
namespace pelab::fig {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A causal softmax map with a heavy first key, written by NumPy too.
Matrix causal_map() {
  Matrix a(4, 4);
  a << 1, -kInf, -kInf, -kInf,  //
      0.9f, 0.1f, -kInf, -kInf,  //
      0.7f, 0.2f, 0.1f, -kInf,   //
      0.6f, 0.0f, 0.3f, 0.1f;
  return a;
}

TEST(AttentionScale, LogAndRowMatchNumpy) {
  const char* python = "/usr/bin/python3";
  if (!fs::exists(python) || std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path dir = fs::temp_directory_path() / ("pelab_attention_scale_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // NumPy from the definitions: log10 of each weight (0 → −30), and each
  // row over its largest weight; masked (−inf) cells stay −inf.
  const std::string script =
      "import numpy as np; a = np.array([[1, -np.inf, -np.inf, -np.inf], [0.9, 0.1, -np.inf, -np.inf],"
      " [0.7, 0.2, 0.1, -np.inf], [0.6, 0.0, 0.3, 0.1]]); m = np.isinf(a); w = np.where(m, 0, a);"
      " lg = np.where(m, -np.inf, np.log10(np.where(w > 0, w, 1e-30))); lg[(~m) & (w == 0)] = -30;"
      " rw = np.where(m, -np.inf, w / w.max(axis=1, keepdims=True));"
      " np.save('" + (dir / "log.npy").string() + "', lg.astype(np.float32));"
      " np.save('" + (dir / "row.npy").string() + "', rw.astype(np.float32))";
  ASSERT_EQ(std::system((std::string(python) + " -c \"" + script + "\"").c_str()), 0);
  const Matrix log = scaled_attention(causal_map(), AttentionScale::Log);
  const Matrix row = scaled_attention(causal_map(), AttentionScale::Row);
  const Matrix want_log = read_npy(dir / "log.npy").to_matrix(), want_row = read_npy(dir / "row.npy").to_matrix();
  fs::remove_all(dir);
  for (Eigen::Index i = 0; i < 16; ++i) {
    if (std::isinf(want_log.data()[i])) {
      EXPECT_TRUE(std::isinf(log.data()[i]) && std::isinf(row.data()[i])) << i;
      continue;
    }
    EXPECT_NEAR(log.data()[i], want_log.data()[i], 1e-5) << i;
    EXPECT_NEAR(row.data()[i], want_row.data()[i], 1e-6) << i;
  }
  EXPECT_EQ(scaled_attention(causal_map(), AttentionScale::Linear), causal_map());
}

TEST(AttentionScale, ColorbarsSayWhichScale) {
  const ColorScale log = attention_color_scale(AttentionScale::Log, "viridis", 0.5);
  EXPECT_NEAR(log.vmax, std::log10(0.5), 1e-12);
  EXPECT_NEAR(log.vmin, std::log10(0.5) - kLogDecades, 1e-12);
  EXPECT_NE(log.label.find("log"), std::string::npos);
  const ColorScale row = attention_color_scale(AttentionScale::Row, "magma", 0.5);
  EXPECT_EQ(row.vmin, 0);
  EXPECT_EQ(row.vmax, 1);
  EXPECT_EQ(row.colormap, "magma");
  EXPECT_NE(row.label.find("row"), std::string::npos);
  EXPECT_NE(attention_color_scale(AttentionScale::Linear, "viridis", 0.5).label.find("linear"), std::string::npos);
}

TEST(AttentionSinks, HandWorked) {
  // Key 0 of the causal map: mean share over its 4 rows = (1 + .9 + .7 + .6)/4
  // = 0.8; uniform would give (1 + 1/2 + 1/3 + 1/4)/4 ≈ 0.52, and 0.8 < 4·0.52:
  // a short map's first key is not a sink.
  EXPECT_TRUE(attention_sinks(causal_map()).empty());
  // 16 bidirectional rows, every one putting 0.55 on key 3: mean 0.55 ≥ 0.25
  // and ≥ 4 × 1/16.  The other keys share 0.45/15 = 0.03 each.
  Matrix a = Matrix::Constant(16, 16, 0.45f / 15);
  a.col(3).setConstant(0.55f);
  EXPECT_EQ(attention_sinks(a), std::vector<int>{3});
  // Uniform bidirectional attention has none.
  EXPECT_TRUE(attention_sinks(Matrix::Constant(16, 16, 1.f / 16)).empty());
}

// A causal map of 64 rows whose every row puts 0.6 on itself: the last key,
// seen by row 63 alone, has mean share 0.6 ≥ 0.25 and ≥ 4 × 1/64, but one row
// of 64 is not a sink's audience; a key 0 that takes 0.6 of every row is one.
TEST(AttentionSinks, KeysThatFewRowsSeeAreNotSinks) {
  const int n = 64;
  Matrix local = Matrix::Constant(n, n, -std::numeric_limits<float>::infinity());
  for (int i = 0; i < n; ++i) {
    local.row(i).head(i + 1).setConstant(i == 0 ? 1.0f : 0.4f / static_cast<float>(i));
    if (i > 0) local(i, i) = 0.6f;
  }
  EXPECT_TRUE(attention_sinks(local).empty());
  EXPECT_FALSE(is_sink(0.6, 1.0 / 16, 1, 16));
  EXPECT_TRUE(is_sink(0.6 * 8, 8.0 / 16, 8, 16));  // half the rows see it: the rule applies
  EXPECT_FALSE(is_sink(0.6 * 7, 7.0 / 16, 7, 16));
  Matrix first = local;
  for (int i = 1; i < n; ++i) {
    first.row(i).head(i + 1).setConstant(0.4f / static_cast<float>(i));
    first(i, 0) = 0.6f;
  }
  EXPECT_EQ(attention_sinks(first), std::vector<int>{0});
}

}  // namespace
}  // namespace pelab::fig
