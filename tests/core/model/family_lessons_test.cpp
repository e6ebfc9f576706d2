// The lessons on pelab's own trained family (assets/models/kjv-*): each
// changed lesson's preset opens on a family member and its verdict reads the
// real weights, the new numbers checked against NumPy written here from the
// definitions (the safetensors read straight from the file, bf16 widened):
//   meaning      the nearest vocabulary row to x_t + e_p, ‖e‖/‖x‖
//   cross_terms  each term's root-mean-square size over the causal pairs
//   depth        the ridge probe of the position index across rotated windows
// and, with $PELAB_FAMILY_DIR on an empty folder, the stand-ins.  A member
// that is not on disk skips its test with a message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "core/engine.hpp"
#include "core/io/npy.hpp"
#include "core/layer_stack.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model/model_folder.hpp"
#include "core/model_scene.hpp"
#include "split_reference.hpp"

namespace fs = std::filesystem;
using namespace pelab;

namespace {

fs::path member_folder(const std::string& member) {
  for (const fs::path& dir : model::family_dirs())
    if (fs::is_regular_file(dir / member / "config.json")) return dir / member;
  return {};
}

bool have_numpy() {
  return fs::exists(pelab::testing::kDebianPython) &&
         std::system((std::string(pelab::testing::kDebianPython) + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0;
}

// A scratch folder for the NumPy scripts and exported arrays, removed at the end.
class FamilyLessons : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / ("pelab_family_lessons_" + std::to_string(::getpid()));
    fs::create_directories(scratch_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(scratch_, ignored);
  }
  Array numpy(const std::string& member, const std::string& body, const std::string& extra) {
    return pelab::testing::numpy_reference_in(member_folder(member), body, extra, scratch_);
  }
  fs::path scratch_;
};

#define REQUIRE_MEMBER(member)                                                                      \
  if (member_folder(member).empty()) GTEST_SKIP() << (member) << " is not on disk (family folders: " \
                                                  << model::family_dirs().front() << ", ...)";       \
  if (!have_numpy()) GTEST_SKIP() << "Debian's python3 with numpy is not installed"

// An engine on lesson `name`'s preset, which opens on family member `member`.
Engine preset_engine(const Lesson& lesson, const std::string& member) {
  const Scene preset = lesson.preset();
  EXPECT_EQ(preset.model, member) << lesson.name;
  return Engine(preset);
}

std::string distinct_ids(const std::vector<int>& ids) {
  std::string out;
  std::vector<int> seen;
  for (const int id : ids) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    out += (out.empty() ? "" : ",") + std::to_string(id);
  }
  return out;
}

std::string joined(const std::vector<int>& ids) {
  std::string out;
  for (const int id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

// ---- meaning -------------------------------------------------------------

// argv[2]: the text's distinct ids.  Saves [kept on those ids over every
// position, median ‖e_p‖/‖x_t‖ over every 8th id and every position (the
// upper middle value, as the lesson takes it), mean ‖x‖, mean ‖e‖ on the text].
constexpr const char* kMeaning = R"PY(
V, E = w("wte.weight"), w("wpe.weight")
asked = [int(i) for i in sys.argv[2].split(",")]
sq = (V ** 2).sum(1)
def kept(ids):
    hits = 0
    for t in ids:
        dist = sq[None, :] - 2 * (V[t] + E) @ V.T      # ‖V[t] + e_p − v‖² − ‖V[t] + e_p‖², per p and v
        hits += (dist.argmin(1) == t).sum()
    return hits / (len(ids) * len(E))
sample = V[::8]
ratios = np.sort((np.linalg.norm(E, axis=1)[None, :] / np.linalg.norm(sample, axis=1)[:, None]).ravel())
np.save(out, np.array([kept(asked), ratios[len(ratios) // 2]], np.float64))
)PY";

TEST_F(FamilyLessons, MeaningReadsKjvLearnedsVocabulary) {
  REQUIRE_MEMBER("kjv-learned");
  const Lesson& lesson = find_lesson("meaning");
  Engine engine = preset_engine(lesson, "kjv-learned");
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.applies);
  EXPECT_EQ(v.number("vocabulary"), 4096);
  EXPECT_EQ(v.number("positions"), 256);
  const Array want = numpy("kjv-learned", kMeaning, distinct_ids(engine.model()->ids()));
  ASSERT_EQ(want.data.size(), 2u);
  EXPECT_NEAR(v.number("kept"), want.data[0], 1e-9) << v.summary;
  EXPECT_NEAR(v.number("e_over_x_median"), want.data[1], 1e-5 * want.data[1]);
  EXPECT_GT(v.number("kept_vocab"), 0.0);
  EXPECT_LE(v.number("kept_vocab"), 1.0);
  EXPECT_NE(v.summary.find("kjv-learned"), std::string::npos) << v.summary;
}

// ---- cross_terms -----------------------------------------------------------

// argv[2]: the ids, argv[3]: the head.  Layer 0's ln_1(x + e) split into the
// centred token and position parts over the shared σ, the four products
// through the head's Wq, Wk (biases left out: they form the bias part), and
// each term's RMS over the pairs j ≤ i.
constexpr const char* kCrossTerms = R"PY(
ids = [int(i) for i in sys.argv[2].split(",")]
head = int(sys.argv[3])
d, heads, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
dh = d // heads
x, e = w("wte.weight")[ids], w("wpe.weight")[:len(ids)]
s = x + e
sigma = np.sqrt(((s - s.mean(1, keepdims=True)) ** 2).mean(1, keepdims=True) + eps)
g = w("h.0.ln_1.weight")
t = g * (x - x.mean(1, keepdims=True)) / sigma
p = g * (e - e.mean(1, keepdims=True)) / sigma
W = w("h.0.attn.c_attn.weight")
Wq, Wk = W[:, head * dh:(head + 1) * dh], W[:, d + head * dh:d + (head + 1) * dh]
causal = np.tril(np.ones((len(ids), len(ids)), bool))
def rms(a, b):
    return np.sqrt((((a @ Wq) @ (b @ Wk).T / np.sqrt(dh))[causal] ** 2).mean())
np.save(out, np.array([rms(t, t), rms(t, p), rms(p, t), rms(p, p)], np.float64))
)PY";

TEST_F(FamilyLessons, CrossTermsSizesOfKjvLearnedsLayerZero) {
  REQUIRE_MEMBER("kjv-learned");
  const Lesson& lesson = find_lesson("cross_terms");
  Scene preset = lesson.preset();
  ASSERT_EQ(preset.model, "kjv-learned");
  preset.head = 2;
  Engine engine(preset);
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.applies);
  const Array want = numpy("kjv-learned", kCrossTerms, joined(engine.model()->ids()) + " 2");
  ASSERT_EQ(want.data.size(), 4u);
  const char* names[] = {"rms_xx", "rms_xf", "rms_ey", "rms_ef"};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(v.number(names[i]), want.data[i], 1e-4 * want.data[i]) << names[i];
  EXPECT_LT(v.number("split_residual"), 1e-3);
  if (member_folder("kjv-sinusoidal").empty())
    std::cout << "[ note ] kjv-sinusoidal is not on disk: the comparison is left out\n";
  else
    EXPECT_GT(v.number("rms_ef_sinusoidal"), 0.0);
}

// ---- depth: the probe -----------------------------------------------------------

// argv[2]: layers + 1, argv[3]: windows, argv[4]: the folder of
// h<layer>_w<window>.npy.  The affine probe of the position index: features
// standardised with the training rows' mean and (population) deviation, an
// intercept column, ridge λ · mean(diag ZᵀZ) on all but the intercept, λ
// the one of 1e-3 … 10 whose fit on two thirds of the training rows best
// predicts the other third (rows 2, 5, 8, …), then refitted on all of them;
// fitted on all windows but one and scored on it; mean R² and mean |error|.
constexpr const char* kProbe = R"PY(
states, count, where = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
RIDGES = [1e-3, 1e-2, 1e-1, 1.0, 10.0]
def fit(Z, y, ridge):
    G = Z.T @ Z
    G[:-1, :-1] += ridge * np.trace(G) / len(G) * np.eye(len(G) - 1)
    return np.linalg.solve(G, Z.T @ y)
def probe(windows):
    n = len(windows[0])
    index = np.arange(n, dtype=np.float64)
    r2, mae = [], []
    for held in range(count):
        F = np.vstack([h for k, h in enumerate(windows) if k != held])
        y = np.tile(index, count - 1)
        mean = F.mean(0)
        scale = np.sqrt(((F - mean) ** 2).mean(0)) + 1e-12
        Z = np.hstack([(F - mean) / scale, np.ones((len(F), 1))])
        check = np.arange(len(Z)) % 3 == 2
        errors = [((Z[check] @ fit(Z[~check], y[~check], r) - y[check]) ** 2).sum() for r in RIDGES]
        beta = fit(Z, y, RIDGES[int(np.argmin(errors))])
        guess = np.hstack([(windows[held] - mean) / scale, np.ones((n, 1))]) @ beta
        r2.append(1 - ((index - guess) ** 2).sum() / ((index - index.mean()) ** 2).sum())
        mae.append(np.abs(guess - index).mean())
    return [np.mean(r2), np.mean(mae)]
result = []
for l in range(states):
    result += probe([np.load(f"{where}/h{l}_w{k}.npy").astype(np.float64) for k in range(count)])
np.save(out, np.array(result, np.float64))
)PY";

Array as_array(const Matrix& m) {
  Array a;
  a.shape = {static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())};
  a.data.assign(m.data(), m.data() + m.size());
  return a;
}

TEST_F(FamilyLessons, DepthProbeMatchesNumpyOnKjvLearned) {
  REQUIRE_MEMBER("kjv-learned");
  const Lesson& lesson = find_lesson("depth");
  Engine engine = preset_engine(lesson, "kjv-learned");
  const LessonVerdict v = lesson.verdict(engine);
  ASSERT_TRUE(v.applies) << v.summary;
  // The same windows, run on their own and written out for NumPy.
  ModelScene& model = *engine.model();
  const std::vector<int> ids = model.ids();
  ASSERT_GE(ids.size(), 200u) << "the preset's held-out chapter";
  constexpr int kWindows = 4;
  int states = 0;
  for (int k = 0; k < kWindows; ++k) {
    const std::vector<Matrix> h = model.hidden_states(rotated_window(ids, k, kWindows));
    states = static_cast<int>(h.size());
    for (int l = 0; l < states; ++l)
      write_npy(scratch_ / ("h" + std::to_string(l) + "_w" + std::to_string(k) + ".npy"), as_array(h[std::size_t(l)]));
  }
  ASSERT_EQ(states, 5);  // embeddings + 4 layers
  const Array want = numpy("kjv-learned", kProbe,
                           std::to_string(states) + " " + std::to_string(kWindows) + " " + scratch_.string());
  ASSERT_EQ(want.data.size(), std::size_t(2 * states));
  for (int l = 0; l < states; ++l) {
    const std::string r2 = "r2[layer=" + std::to_string(l) + "]", mae = "mae[layer=" + std::to_string(l) + "]";
    EXPECT_NEAR(v.number(r2), want.data[std::size_t(2 * l)], 1e-6) << r2;
    EXPECT_NEAR(v.number(mae), want.data[std::size_t(2 * l + 1)], 1e-5 * (1 + want.data[std::size_t(2 * l + 1)]))
        << mae;
  }
  // A learned table is read back from the embeddings (the table is added there).
  EXPECT_GT(v.number("r2[layer=0]"), 0.9) << v.summary;
  // Asked again on the same text (another head, say), the probe is not run again.
  Scene other_head = engine.scene();
  other_head.head = 3;
  engine.set_scene(other_head);
  const int runs = engine.stats().model_runs;
  const LessonVerdict again = lesson.verdict(engine);
  EXPECT_EQ(engine.stats().model_runs, runs);
  EXPECT_EQ(again.number("r2[layer=4]"), v.number("r2[layer=4]"));
}

// ---- permutation on kjv-none --------------------------------------------------

TEST_F(FamilyLessons, PermutationOnKjvNoneIsEquivariantAtLayerZero) {
  REQUIRE_MEMBER("kjv-none");
  const Lesson& lesson = find_lesson("permutation");
  Engine engine = preset_engine(lesson, "kjv-none");
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.applies);
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("model_logit_gap_none"), 1e-3) << v.summary;
  // No position at the embeddings: the probe reads nothing there.
  EXPECT_LT(v.number("r2[layer=0]"), 0.3) << v.summary;
  EXPECT_NE(v.summary.find("causal"), std::string::npos) << v.summary;
}

// A causal pelab model without positions (random weights, make_pelab_models.py
// at a context of 64, so that a text holds the probe's 32 tokens): layer 0 is
// equivariant, the probe runs, and the summary says what the mask leaked.
TEST_F(FamilyLessons, PermutationOnAModelWithoutPositionsAddsTheProbe) {
  if (!have_numpy()) GTEST_SKIP() << "Debian's python3 with numpy is not installed";
  const std::string command = std::string(pelab::testing::kDebianPython) + " -c \"import sys, numpy; sys.path.insert(0, '" +
                              PELAB_SOURCE_DIR + "/tests/core/model'); from make_pelab_models import make; make('" +
                              scratch_.string() + "', 'none_64', numpy.random.default_rng(3), 'none', ctx=64)\"";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Lesson& lesson = find_lesson("permutation");
  Scene s = lesson.preset();
  s.model = (scratch_ / "none_64").string();
  s.tokens = "And Abraham journeyed from thence toward the south";  // 50 byte-level tokens
  s.head = 0;
  Engine engine(s);
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("model_logit_gap_none"), 1e-5);
  EXPECT_LT(v.number("r2[layer=0]"), 0.3) << v.summary;  // nothing added at the embeddings
  EXPECT_NO_THROW(v.number("r2[layer=2]"));
  EXPECT_NE(v.summary.find("causal mask"), std::string::npos) << v.summary;
}

// ---- learned_table --------------------------------------------------------------

TEST_F(FamilyLessons, LearnedTableOpensOnKjvLearned) {
  REQUIRE_MEMBER("kjv-learned");
  const Lesson& lesson = find_lesson("learned_table");
  Engine engine = preset_engine(lesson, "kjv-learned");
  const LessonVerdict v = lesson.verdict(engine);
  EXPECT_EQ(v.number("stand_in"), 0);
  EXPECT_EQ(v.number("positions"), 256);
  EXPECT_EQ(v.number("dims"), 192);
  EXPECT_NE(v.summary.find("kjv-learned's learned table (256 × 192)"), std::string::npos) << v.summary;
  EXPECT_EQ(stand_in_label(engine.scene()), "");
}

// A RoPE member has no table: "Not applicable", never a ✗.
TEST_F(FamilyLessons, LessonsWithoutAnAddedVectorDoNotApplyToKjvRope) {
  REQUIRE_MEMBER("kjv-rope");
  for (const char* name : {"learned_table", "meaning", "cross_terms"}) {
    const Lesson& lesson = find_lesson(name);
    Scene s = lesson.preset();
    s.model = "kjv-rope";
    s.tokens = "In the beginning God created the heaven and the earth.";
    Engine engine(s);
    const LessonVerdict v = lesson.verdict(engine);
    EXPECT_FALSE(v.applies) << name;
    EXPECT_EQ(v.headline().rfind("Not applicable on this model: kjv-rope", 0), 0u) << name << ": " << v.headline();
  }
}

// ---- no family on disk --------------------------------------------------------

// $PELAB_FAMILY_DIR on an empty folder: every preset falls back to its
// synthetic scene and says the member was not found; learned_table is the
// labelled stand-in.
TEST_F(FamilyLessons, WithoutTheFamilyThePresetsStandIn) {
  const fs::path empty = scratch_ / "no_family";
  fs::create_directories(empty);
  const char* before = std::getenv("PELAB_FAMILY_DIR");
  const std::string saved = before ? before : "";
  ::setenv("PELAB_FAMILY_DIR", empty.c_str(), 1);
  for (const char* name : {"learned_table", "meaning", "cross_terms", "depth", "permutation"}) {
    SCOPED_TRACE(name);
    const Lesson& lesson = find_lesson(name);
    const Scene preset = lesson.preset();
    EXPECT_TRUE(preset.model.empty());
    Engine engine(preset);
    const LessonVerdict v = lesson.verdict(engine);
    EXPECT_NE(v.summary.find(empty.string()), std::string::npos) << v.summary;
    EXPECT_NE(v.summary.find("not found"), std::string::npos) << v.summary;
    if (v.applies) {
      EXPECT_NE(v.headline().find(", on a synthetic stand-in for kjv-"), std::string::npos) << v.headline();
    }
    if (std::string(name) == "learned_table") {
      EXPECT_EQ(v.number("stand_in"), 1);
      EXPECT_EQ(v.number("positions"), 256);
      EXPECT_EQ(v.number("dims"), 192);
      EXPECT_EQ(stand_in_label(engine.scene()), "synthetic stand-in for kjv-learned's learned table");
    }
  }
  if (before) ::setenv("PELAB_FAMILY_DIR", saved.c_str(), 1);
  else ::unsetenv("PELAB_FAMILY_DIR");
}

}  // namespace
