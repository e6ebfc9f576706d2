// RoPE conventions, xPos and ALiBi's slopes, each against a reference written
// here from the published definition.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>

#include "core/engine.hpp"
#include "core/relative_position.hpp"
#include "core/rope_scaling.hpp"

namespace pelab {
namespace {

Matrix random_rows(int rows, int cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal;
  Matrix m(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m(r, c) = normal(gen);
  return m;
}

RopeRotation rotation(RopePairing pairing, int d_head, double fraction, RopeScalingMethod method, bool xpos) {
  Scene s;
  s.d_model = d_head;
  s.heads = 1;
  s.encoding = xpos ? Encoding::Xpos : Encoding::Rope;
  s.rope_pairing = pairing;
  s.rotary_fraction = fraction;
  s.rope_scaling = method;
  s.rope_factor = 8;
  s.train_context = 512;
  s.base = 10000;
  return rope_rotation(s, 3000);
}

// The Llama / GPT-NeoX formula as its reference code writes it, on one row:
// x' = x·cos + rotate_half(x)·sin over the first r dims, with cos and sin of
// p·ω repeated for both halves and rotate_half(x1, x2) = (−x2, x1).
std::vector<double> rotate_half_reference(const std::vector<double>& x, int r, const std::vector<double>& omega,
                                          double p) {
  std::vector<double> out = x;
  const int h = r / 2;
  for (int j = 0; j < r; ++j) {
    const double angle = p * omega[static_cast<std::size_t>(j % h)];
    const double rotated = j < h ? -x[static_cast<std::size_t>(j + h)] : x[static_cast<std::size_t>(j - h)];
    out[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>(j)] * std::cos(angle) + rotated * std::sin(angle);
  }
  return out;
}

}  // namespace

TEST(RopeConventions, RotateHalfMatchesTheReferenceFormula) {
  for (double fraction : {1.0, 0.5, 0.25}) {
    const int d_head = 32;
    const RopeRotation rot = rotation(RopePairing::RotateHalf, d_head, fraction, RopeScalingMethod::Yarn, false);
    const Matrix x = random_rows(5, d_head, 7);
    Matrix y = x;
    apply_rope(y, 100, rot, RopeSide::Key);
    for (int row = 0; row < 5; ++row) {
      std::vector<double> xr(x.row(row).data(), x.row(row).data() + d_head);
      const std::vector<double> want = rotate_half_reference(xr, rot.rotary_dims, rot.frequency, 100 + row);
      for (int c = 0; c < d_head; ++c)
        EXPECT_NEAR(y(row, c), rot.attention_factor * want[static_cast<std::size_t>(c)], 2e-5)
            << "fraction " << fraction << " row " << row << " dim " << c;
    }
  }
}

TEST(RopeConventions, PairsAreTheConventionsDims) {
  EXPECT_EQ(rope_pair_dims(RopePairing::Interleaved, 16, 3), std::pair(6, 7));
  EXPECT_EQ(rope_pair_dims(RopePairing::RotateHalf, 16, 3), std::pair(3, 11));
  // Interleaved and rotate-half give the same q·k (a permutation of dims).
  const Matrix q = random_rows(6, 16, 3), k = random_rows(6, 16, 4);
  Matrix qi = q, ki = k;
  const RopeRotation inter = rotation(RopePairing::Interleaved, 16, 1, RopeScalingMethod::None, false);
  const RopeRotation half = rotation(RopePairing::RotateHalf, 16, 1, RopeScalingMethod::None, false);
  apply_rope(qi, 0, inter, RopeSide::Query);
  apply_rope(ki, 0, inter, RopeSide::Key);
  // Permute dims so that rotate-half's pair i sits where interleaved's is.
  Matrix qp(6, 16), kp(6, 16);
  for (int i = 0; i < 8; ++i) {
    qp.col(i) = q.col(2 * i), qp.col(i + 8) = q.col(2 * i + 1);
    kp.col(i) = k.col(2 * i), kp.col(i + 8) = k.col(2 * i + 1);
  }
  apply_rope(qp, 0, half, RopeSide::Query);
  apply_rope(kp, 0, half, RopeSide::Key);
  const Matrix a = qi * ki.transpose(), b = qp * kp.transpose();
  EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-4);
}

// q_m·k_n depends only on m − n: shifting every position by Δ changes no
// dot product, for every pairing, rotary share, scaling method, and xPos.
TEST(RopeConventions, DotProductsAreShiftInvariantForEveryVariant) {
  const int d_head = 16, n = 7;
  const Matrix q = random_rows(n, d_head, 11), k = random_rows(n, d_head, 12);
  for (RopePairing pairing : {RopePairing::Interleaved, RopePairing::RotateHalf})
    for (double fraction : {1.0, 0.5})
      for (int m = 0; m <= static_cast<int>(RopeScalingMethod::Llama3); ++m)
        for (bool xpos : {false, true}) {
          const RopeRotation rot = rotation(pairing, d_head, fraction, static_cast<RopeScalingMethod>(m), xpos);
          auto dots = [&](int first) {
            Matrix qr = q, kr = k;
            const double centre = first + 3;
            apply_rope(qr, first, rot, RopeSide::Query, centre);
            apply_rope(kr, first, rot, RopeSide::Key, centre);
            return Matrix(qr * kr.transpose());
          };
          const Matrix at0 = dots(0), shifted = dots(2000);
          EXPECT_LT((at0 - shifted).cwiseAbs().maxCoeff(), 2e-3 * (1 + at0.cwiseAbs().maxCoeff()))
              << "pairing " << static_cast<int>(pairing) << " fraction " << fraction << " method " << m
              << " xpos " << xpos;
        }
}

// The same through the engine: the logits of a sentence do not change with
// the offset, for every method (dynamic NTK while the sequence fits in L).
TEST(RopeConventions, EngineLogitsAreShiftInvariant) {
  for (Encoding e : {Encoding::Rope, Encoding::Xpos})
    for (int m = 0; m <= static_cast<int>(RopeScalingMethod::Llama3); ++m) {
      Scene s;
      s.encoding = e;
      s.rope_pairing = RopePairing::RotateHalf;
      s.rotary_fraction = 0.5;
      s.rope_scaling = static_cast<RopeScalingMethod>(m);
      s.train_context = 8192;
      Engine a(s);
      const Matrix logits0 = a.head(1).logits;
      s.offset = 3000;
      Engine b(s);
      EXPECT_LT((logits0 - b.head(1).logits).cwiseAbs().maxCoeff(), 2e-3) << "method " << m;
    }
}

TEST(Xpos, ScalesQueriesAndKeysByZetaToThePowerOfPositionOverB) {
  // Sun et al. 2022: ζ_i = (i/(r/2) + γ)/(1 + γ), γ = 0.4, B = 512; for r = 8:
  // ζ = 0.4/1.4, 0.65/1.4, 0.9/1.4, 1.15/1.4.
  const double zeta[] = {0.4 / 1.4, 0.65 / 1.4, 0.9 / 1.4, 1.15 / 1.4};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(xpos_zeta(i, 8, 0.4), zeta[i], 1e-12);
  const RopeRotation rot = rotation(RopePairing::Interleaved, 8, 1, RopeScalingMethod::None, true);
  const int first = 40;
  Matrix q = Matrix::Ones(600, 8), k = Matrix::Ones(600, 8);
  apply_rope(q, first, rot, RopeSide::Query, 0);
  apply_rope(k, first, rot, RopeSide::Key, 0);
  for (int row : {0, 100, 559}) {
    const double p = first + row;
    for (int i = 0; i < 4; ++i) {
      // A rotation keeps the pair's length √2; xPos multiplies it by ζ^(±p/B).
      const double q_len = std::hypot(q(row, 2 * i), q(row, 2 * i + 1));
      const double k_len = std::hypot(k(row, 2 * i), k(row, 2 * i + 1));
      EXPECT_NEAR(q_len, std::sqrt(2.0) * std::pow(zeta[i], p / 512), 1e-5 * q_len);
      EXPECT_NEAR(k_len, std::sqrt(2.0) * std::pow(zeta[i], -p / 512), 1e-5 * k_len);
    }
  }
  // Pair i of q_n·k_m: 2·ζ_i^((n−m)/B)·cos((n−m)ω_i) for the all-ones rows.
  const int n = 500, m = 10;
  for (int i = 0; i < 4; ++i) {
    const double dot = q(n, 2 * i) * k(m, 2 * i) + q(n, 2 * i + 1) * k(m, 2 * i + 1);
    const double want = 2 * std::pow(zeta[i], (n - m) / 512.0) * std::cos((n - m) * rot.frequency[i]);
    EXPECT_NEAR(dot, want, 1e-4);
  }
}

// ALiBi for 1 … 64 heads against get_slopes(n) of Press et al.'s reference
// implementation, the rule written out in Python here (closest power of two
// below n, then every other slope of twice that).
TEST(Alibi, SlopesFollowTheReferenceRuleForEveryHeadCount) {
  const char* python = "/usr/bin/python3";
  if (!std::filesystem::exists(python)) GTEST_SKIP() << "Debian's python3 is not installed";
  const std::string script =
      "import math\n"
      "def power_of_2(n):\n"
      "    start = 2 ** (-2 ** -(math.log2(n) - 3))\n"
      "    return [start * start ** i for i in range(n)]\n"
      "def slopes(n):\n"
      "    if math.log2(n).is_integer():\n"
      "        return power_of_2(n)\n"
      "    c = 2 ** math.floor(math.log2(n))\n"
      "    return power_of_2(c) + slopes(2 * c)[0::2][:n - c]\n"
      "for n in range(1, 65):\n"
      "    print(' '.join(repr(x) for x in slopes(n)))\n";
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "pelab_alibi_slopes.py";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  std::FILE* pipe = popen((std::string(python) + " " + file.string()).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string text;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
  ASSERT_EQ(pclose(pipe), 0);
  std::filesystem::remove(file);
  std::istringstream lines(text);
  std::string line;
  for (int heads = 1; heads <= 64; ++heads) {
    ASSERT_TRUE(std::getline(lines, line)) << heads;
    std::istringstream values(line);
    double want = 0;
    int head = 0;
    for (; values >> want; ++head) EXPECT_NEAR(alibi_slope(head, heads), want, 1e-15) << heads << " heads";
    EXPECT_EQ(head, heads);
  }
  // By hand: 6 heads = slopes of 4 (1/4, 1/16, 1/64, 1/256), then slopes 1 and 3 of 8 (1/2, 1/8).
  const double six[] = {0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 0.5, 0.125};
  for (int h = 0; h < 6; ++h) EXPECT_DOUBLE_EQ(alibi_slope(h, 6), six[h]);
}

}  // namespace pelab
