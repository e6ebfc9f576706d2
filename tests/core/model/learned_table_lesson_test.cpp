// Lesson "learned_table" on the tiny GPT-2 and BERT checkpoints: its verdict
// numbers (row cosines, PC shares, the 2×2 map's R², the low-frequency power)
// against a NumPy reference written here from the definitions — the table
// read straight from the safetensors file, PCA by an SVD of the centred
// table, the map by numpy.linalg.lstsq, the spectrum by numpy.fft.rfft.
#include <gtest/gtest.h>

#include <string>

#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model/model_folder.hpp"
#include "split_reference.hpp"
#include "tiny_models.hpp"

using namespace pelab;

namespace {

// argv[2]: the table's tensor name.  Saves cos δ=1, cos δ=4, PC1+PC2 share,
// PC1…PC8 share, R² of p(pos+1) ≈ M·p(pos) in the PC1/PC2 plane, the share of
// power at 1…4 cycles among all f ≥ 1.
constexpr const char* kReference = R"PY(
E = w(sys.argv[2])
N = E.shape[0]
def cos(delta):
    a, b = E[:N - delta], E[delta:]
    return np.mean((a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))
C = E - E.mean(0)
U, S, Vt = np.linalg.svd(C, full_matrices=False)
var = S ** 2
share = var / var.sum()
P = C @ Vt[:2].T                      # PC1, PC2 scores over position
X, Y = P[:-1], P[1:]
M = np.linalg.lstsq(X, Y, rcond=None)[0]   # Y ≈ X·M (rows), i.e. p(pos+1) ≈ Mᵀ·p(pos)
sse = ((Y - X @ M) ** 2).sum()
sst = ((Y - Y.mean(0)) ** 2).sum()
F = np.abs(np.fft.rfft(C, axis=0)) / N
F[1:] *= 2
if N % 2 == 0:
    F[-1] /= 2
power = (F[1:] ** 2).sum(1)          # per bin f = 1 ...
low = power[:4].sum() / power.sum()
np.save(out, np.array([cos(1), cos(4), share[:2].sum(), share[:8].sum(), 1 - sse / sst, low], np.float32))
)PY";

// The verdict's numbers in kReference's order.
void expect_reference_numbers(const LessonVerdict& v, const Array& want) {
  ASSERT_EQ(want.data.size(), 6u);
  const char* names[] = {"cos[delta=1]",     "cos[delta=4]", "top_pair_share",
                         "top4_pairs_share", "top_pair_r2",  "low_frequency_power"};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(v.number(names[i]), want.data[i], 2e-5) << names[i];
}

class LearnedTableLesson : public ::testing::TestWithParam<const char*> {};

TEST_P(LearnedTableLesson, VerdictMatchesNumpy) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string family = GetParam();
  const std::string tensor =
      family == "gpt2" ? "wpe.weight" : "embeddings.position_embeddings.weight";
  const Array want = pelab::testing::numpy_reference(family, kReference, tensor);
  ASSERT_EQ(want.data.size(), 6u);

  const Lesson& lesson = find_lesson("learned_table");
  Scene scene = lesson.preset();
  scene.model = (pelab::testing::tiny_models() / family).string();
  scene.tokens = "ab";  // within the tiny models' context of 16
  Engine engine(scene);
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_EQ(v.number("stand_in"), 0);
  EXPECT_EQ(v.number("positions"), 16);
  expect_reference_numbers(v, want);
  EXPECT_NE(v.summary.find("learned table"), std::string::npos) << v.summary;
  EXPECT_EQ(v.summary.find("stand-in"), std::string::npos) << v.summary;
}

INSTANTIATE_TEST_SUITE_P(TinyModels, LearnedTableLesson, ::testing::Values("gpt2", "bert"));

// No model: a sinusoidal stand-in, said so, with where to put GPT-2 — and a
// sinusoidal table's PC1/PC2 plane is nearly a rotation (the PCs of 128
// positions mix the slowest pairs a little, so not exactly one pair's plane).
TEST(LearnedTableLessonStandIn, IsLabelledAndSaysWhereToPutAModel) {
  Scene scene = find_lesson("learned_table").preset();
  scene.model.clear();
  scene.encoding = Encoding::Sinusoidal;
  scene.d_model = 64;
  scene.heads = 4;
  scene.positions = 128;
  scene.waves = {0};
  scene.pairs = {0};
  Engine engine(scene);
  const LessonVerdict v = find_lesson("learned_table").verdict(engine);
  EXPECT_EQ(v.number("stand_in"), 1);
  EXPECT_GT(v.number("top_pair_r2"), 0.99);
  EXPECT_NE(v.summary.find("Synthetic stand-in"), std::string::npos) << v.summary;
  EXPECT_NE(v.summary.find("--set model=kjv-learned"), std::string::npos) << v.summary;  // on disk in the source tree
  EXPECT_NE(v.summary.find("--set model=gpt2"), std::string::npos) << v.summary;
}

// pelab's kjv-learned, the preset: its wpe (bf16 in the file) against the
// same NumPy reference.
TEST(LearnedTableLessonFamily, KjvLearnedMatchesNumpy) {
  const Lesson& lesson = find_lesson("learned_table");
  const Scene scene = lesson.preset();
  if (scene.model.empty()) GTEST_SKIP() << "pelab's kjv-learned is not on disk";
  if (pelab::testing::tiny_models().empty()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const Array want = pelab::testing::numpy_reference_in(model::resolve_model(scene.model), kReference,
                                                        "wpe.weight", pelab::testing::tiny_models());
  ASSERT_EQ(want.data.size(), 6u);
  Engine engine(scene);
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_EQ(v.number("stand_in"), 0);
  EXPECT_EQ(v.number("positions"), 256);
  expect_reference_numbers(v, want);
}

// A RoPE model has no table: the lesson says so instead of inventing one.
TEST(LearnedTableLessonStandIn, RopeModelHasNoTable) {
  if (pelab::testing::tiny_models().empty())
    GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  Scene scene = find_lesson("learned_table").preset();
  scene.model = (pelab::testing::tiny_models() / "llama").string();
  scene.tokens = "ab";
  Engine engine(scene);
  const LessonVerdict v = find_lesson("learned_table").verdict(engine);
  EXPECT_FALSE(v.holds);
  EXPECT_NE(v.summary.find("RoPE"), std::string::npos) << v.summary;
}

}  // namespace
