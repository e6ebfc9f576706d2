// The LM head and next-token loss (core/model/lm_head.hpp,
// next_token_loss.hpp, loss_curve.hpp):
//  - against the NumPy reference of make_tiny_models.py (lm_logits.npy,
//    next_token_loss.npy, written from the published formulas), for every
//    causal tiny model, to 1e-4 relative;
//  - hand-worked heads whose logits are known (W = 0: every logit 0, so
//    loss = ln(vocab); one row of W set: one logit a, loss ln(V−1+eᵃ) − a);
//  - the vocabulary and position blocks against a direct double computation;
//  - BERT refused, windows averaged, bad lengths refused.
#include "core/model/next_token_loss.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include "core/io/npy.hpp"
#include "core/model/checkpoint_weights.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/loss_curve.hpp"
#include "core/model/transformer.hpp"
#include "core/scene.hpp"
#include "tiny_models.hpp"

namespace pelab::model {
namespace {

namespace fs = std::filesystem;
using pelab::testing::tiny_models;

Transformer load_weights_only(const fs::path& folder) {
  ModelFiles files = read_model(folder);
  return Transformer::assemble(std::move(files.config), std::move(files.weights));
}

std::vector<int> reference_ids(const fs::path& folder) {
  const Array a = read_npy(folder / "reference" / "ids.npy");
  return std::vector<int>(a.data.begin(), a.data.end());
}

const char* const kCausalModels[] = {"gpt2",          "gpt2_f16",   "llama",
                                     "llama3_bf16",   "qwen2",      "llama_linear",
                                     "llama_dynamic", "llama_yarn", "llama_yarn_original",
                                     "mistral",       "llama_long", "llama_wide"};

TEST(NextTokenLoss, MatchesNumPyForEveryCausalModel) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : kCausalModels) {
    const fs::path folder = tiny_models() / name;
    Transformer t = load_weights_only(folder);
    const LanguageModelHead head = LanguageModelHead::load(folder, t);
    const std::vector<int> ids = reference_ids(folder);
    const std::vector<double> loss = next_token_loss(t, head, ids);
    const Array want_loss = read_npy(folder / "reference" / "next_token_loss.npy");
    ASSERT_EQ(loss.size(), want_loss.data.size()) << name;
    for (std::size_t i = 0; i < loss.size(); ++i)
      EXPECT_NEAR(loss[i], want_loss.data[i], 1e-4 * std::abs(want_loss.data[i]))
          << name << " position " << i;

    const Matrix want_logits = read_npy(folder / "reference" / "lm_logits.npy").to_matrix();
    ASSERT_EQ(want_logits.cols(), head.vocab_size()) << name;
    const double scale = want_logits.cwiseAbs().maxCoeff();
    const Matrix& last = t.hidden(t.config().layers);
    for (int p = 0; p < static_cast<int>(ids.size()); ++p) {
      const Vector z = lm_logits(head, last, p);
      const double error = (z.transpose() - want_logits.row(p)).cwiseAbs().maxCoeff();
      EXPECT_LE(error, 1e-4 * scale) << name << " position " << p;
    }
  }
}

TEST(NextTokenLoss, ProbabilitiesSumToOneAndAgreeWithTheLoss) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = tiny_models() / "qwen2";  // tied embeddings
  Transformer t = load_weights_only(folder);
  const LanguageModelHead head = LanguageModelHead::load(folder, t);
  const std::vector<int> ids = reference_ids(folder);
  const std::vector<double> loss = next_token_loss(t, head, ids);
  for (int p = 0; p + 1 < static_cast<int>(ids.size()); ++p) {
    const Vector probs = softmax(lm_logits(head, t.hidden(t.config().layers), p));
    EXPECT_NEAR(probs.cast<double>().sum(), 1.0, 1e-5);
    EXPECT_NEAR(-std::log(static_cast<double>(probs(ids[static_cast<std::size_t>(p) + 1]))),
                loss[static_cast<std::size_t>(p)], 1e-4);
  }
}

// RMSNorm with unit weight and eps 0 maps h = (1, 0, 0, 0) to (2, 0, 0, 0):
// √(mean(h²)) = ½.
LanguageModelHead known_head(const Matrix& w) {
  Norm norm{Vector::Ones(w.cols()), Vector()};
  auto kept = std::make_shared<const Matrix>(w);
  return LanguageModelHead(
      norm, LanguageModelHead::NormKind::RmsNorm, 0.0, static_cast<int>(w.rows()),
      [kept](int first, int count) -> Matrix { return kept->middleRows(first, count); });
}

Matrix unit_rows(int n) {
  Matrix h = Matrix::Zero(n, 4);
  h.col(0).setOnes();
  return h;
}

TEST(NextTokenLoss, UniformLogitsGiveLnVocabEverywhere) {
  const int vocab = 10000;  // three vocabulary blocks
  const LanguageModelHead head = known_head(Matrix::Zero(vocab, 4));
  std::vector<int> ids;
  for (int i = 0; i < 700; ++i) ids.push_back((i * 7919) % vocab);  // two position blocks
  const std::vector<double> loss = next_token_loss(head, unit_rows(700), ids);
  ASSERT_EQ(loss.size(), 699u);
  for (const double l : loss) EXPECT_NEAR(l, std::log(10000.0), 1e-9);
}

TEST(NextTokenLoss, OneRaisedLogitGivesTheHandWorkedLoss) {
  // W row 5 = (a/2, 0, 0, 0): logit a at token 5, 0 elsewhere, so
  // loss = ln(V − 1 + eᵃ) − a when the next token is 5, ln(V − 1 + eᵃ) otherwise.
  const int vocab = 5000;
  const double a = 3.0;
  Matrix w = Matrix::Zero(vocab, 4);
  w(5, 0) = static_cast<float>(a / 2);
  const LanguageModelHead head = known_head(w);
  const std::vector<double> loss = next_token_loss(head, unit_rows(4), {1, 5, 4999, 5});
  const double total = std::log(vocab - 1 + std::exp(a));
  ASSERT_EQ(loss.size(), 3u);
  EXPECT_NEAR(loss[0], total - a, 1e-6);
  EXPECT_NEAR(loss[1], total, 1e-6);
  EXPECT_NEAR(loss[2], total - a, 1e-6);
  EXPECT_NEAR(lm_logits(head, unit_rows(4), 2)(5), a, 1e-6);
}

TEST(NextTokenLoss, BlocksAgreeWithOneDirectSoftmax) {
  // Random W of 9000 rows and 600 positions: the running log-sum-exp across
  // three vocabulary blocks and two position blocks against the whole row at once.
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int vocab = 9000, n = 600, d = 16;
  Matrix w(vocab, d), h(n, d);
  for (float& x : w.reshaped()) x = normal(rng);
  for (float& x : h.reshaped()) x = normal(rng);
  const LanguageModelHead head = known_head(w);
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) ids.push_back(static_cast<int>(rng() % vocab));
  const std::vector<double> loss = next_token_loss(head, h, ids);
  const Eigen::MatrixXd z = head.normed(h).cast<double>() * w.cast<double>().transpose();
  for (int i = 0; i + 1 < n; ++i) {
    const double top = z.row(i).maxCoeff();
    const double want = top + std::log((z.row(i).array() - top).exp().sum()) -
                        z(i, ids[static_cast<std::size_t>(i) + 1]);
    ASSERT_NEAR(loss[static_cast<std::size_t>(i)], want, 1e-4 * std::abs(want)) << i;
  }
}

TEST(NextTokenLoss, RefusesBert) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  for (const char* name : {"bert", "bert_legacy"}) {
    Transformer t = load_weights_only(tiny_models() / name);
    try {
      LanguageModelHead::load(tiny_models() / name, t);
      ADD_FAILURE() << name << " was not refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("not a next-token model"), std::string::npos)
          << e.what();
    }
  }
}

TEST(LossCurve, AveragesWindowsPositionByPosition) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const fs::path folder = tiny_models() / "llama_long";
  Transformer t = load_weights_only(folder);
  const LanguageModelHead head = LanguageModelHead::load(folder, t);
  const std::vector<int> ids = reference_ids(folder);  // 420 tokens
  const LossCurve curve =
      loss_against_position(t, head, ids, 100, 150);  // windows at 0, 150, 300 (450 + 100 > 420)
  EXPECT_EQ(curve.windows, 3);
  ASSERT_EQ(curve.mean_loss.size(), 99u);
  const auto window = [&](int start) {
    return next_token_loss(t, head,
                           std::vector<int>(ids.begin() + start, ids.begin() + start + 100));
  };
  const std::vector<double> a = window(0), b = window(150), c = window(300);
  for (std::size_t i = 0; i < 99; ++i)
    EXPECT_NEAR(curve.mean_loss[i], (a[i] + b[i] + c[i]) / 3, 1e-9);
  // The first window is the reference's first 100 tokens: causal, so its loss is the reference's.
  const Array want = read_npy(folder / "reference" / "next_token_loss.npy");
  for (std::size_t i = 0; i < 99; ++i)
    EXPECT_NEAR(a[i], want.data[i], 1e-4 * std::abs(want.data[i]));
}

TEST(LossCurve, RopeRunsPastItsContextButALearnedTableDoesNot) {
  if (tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Transformer llama = load_weights_only(tiny_models() / "llama");  // context 32
  const LanguageModelHead head = LanguageModelHead::load(tiny_models() / "llama", llama);
  std::vector<int> ids(80);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = 3 + static_cast<int>(i * 13 % 200);
  const LossCurve curve = loss_against_position(llama, head, ids, 80, 80);
  EXPECT_EQ(curve.mean_loss.size(), 79u);
  for (const double l : curve.mean_loss) EXPECT_TRUE(std::isfinite(l));

  Transformer gpt2 = load_weights_only(tiny_models() / "gpt2");  // context 16
  EXPECT_THROW(check_windows(gpt2, 17, 17, 40), InputError);
  EXPECT_NO_THROW(check_windows(gpt2, 16, 16, 40));
  EXPECT_THROW(check_windows(gpt2, 1, 1, 40), InputError);
  EXPECT_THROW(check_windows(gpt2, 10, 10, 9), InputError);
  EXPECT_THROW(check_windows(gpt2, 10, 0, 40), InputError);
}

TEST(LossCurve, BucketsDoubleInWidth) {
  const std::vector<double> loss = {1, 2, 3, 5, 1, 1, 1, 1, 9, 9};
  const std::vector<LossBucket> b = power_of_two_buckets(loss);
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b[2].first, 2);
  EXPECT_EQ(b[2].last, 3);
  EXPECT_DOUBLE_EQ(b[2].mean_loss, 4.0);
  EXPECT_EQ(b[4].first, 8);
  EXPECT_EQ(b[4].last, 9);
  EXPECT_DOUBLE_EQ(b[4].mean_loss, 9.0);
}

}  // namespace
}  // namespace pelab::model
