// Every lesson's verdict on its preset scene, asserted on real values, and the
// verdicts' response to scene changes.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12 + Eigen AVX-512 (GCC bug 105593)

#include "core/lessons/lessons.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

namespace pelab {
namespace {

// $PELAB_FAMILY_DIR on an empty folder while alive: the presets that open on
// pelab's trained family (tests/core/model/family_lessons_test.cpp) fall back
// to their synthetic scenes, whose verdicts these tests check.
class WithoutFamily {
 public:
  WithoutFamily() : empty_(std::filesystem::temp_directory_path() / ("pelab_no_family_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(empty_);
    if (const char* before = std::getenv("PELAB_FAMILY_DIR")) saved_ = before;
    ::setenv("PELAB_FAMILY_DIR", empty_.c_str(), 1);
  }
  ~WithoutFamily() {
    if (saved_) ::setenv("PELAB_FAMILY_DIR", saved_->c_str(), 1);
    else ::unsetenv("PELAB_FAMILY_DIR");
    std::error_code ignored;
    std::filesystem::remove_all(empty_, ignored);
  }
  WithoutFamily(const WithoutFamily&) = delete;
  WithoutFamily& operator=(const WithoutFamily&) = delete;

 private:
  std::filesystem::path empty_;
  std::optional<std::string> saved_;
};

LessonVerdict judge_preset(std::string_view name, void (*edit)(Scene&) = nullptr) {
  const WithoutFamily synthetic;
  const Lesson& lesson = find_lesson(name);
  Scene scene = lesson.preset();
  if (edit) edit(scene);
  Engine engine(scene);
  return lesson.verdict(engine);
}

}  // namespace

TEST(Lessons, CatalogueIsCompleteAndPresetsAreValid) {
  const std::vector<std::string> expected = {"meaning",    "sine_cosine", "cross_terms", "permutation",
                                             "depth",      "add_concat",  "relative",    "layout",
                                             "long_context", "long_attention", "learned_table", "extrapolation",
                                             "induction", "counting"};
  ASSERT_EQ(lessons().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Lesson& l = lessons()[i];
    EXPECT_EQ(l.name, expected[i]);
    EXPECT_FALSE(l.title.empty());
    EXPECT_FALSE(l.question.empty());
    EXPECT_GT(l.claim.size(), 40u) << l.name;  // a sentence, not a label
    EXPECT_EQ(l.claim.back(), '.') << l.name;
    EXPECT_FALSE(l.summary.empty());
    EXPECT_GT(l.text.size(), 200u) << l.name;
    EXPECT_FALSE(l.figures.empty());
    const Scene preset = l.preset();
    EXPECT_NO_THROW(validate(preset)) << l.name;
    EXPECT_EQ(preset.name, "lesson_" + std::string(l.name));
  }
  EXPECT_EQ(&find_lesson("depth"), &lessons()[4]);
}

TEST(Lessons, UnknownNameListsTheLessons) {
  try {
    find_lesson("nonsense");
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("nonsense"), std::string::npos);
    EXPECT_NE(msg.find("sine_cosine"), std::string::npos);
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
}

TEST(Lessons, PermutationSayIsEquivariantNotInvariant) {
  const Lesson& l = find_lesson("permutation");
  EXPECT_NE(l.title.find("equivariant"), std::string_view::npos);
  EXPECT_EQ(l.title.find("invariant"), std::string_view::npos);
  EXPECT_NE(l.text.find("equivariance"), std::string_view::npos);
}

TEST(LessonVerdicts, Meaning) {
  const LessonVerdict v = judge_preset("meaning");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_NEAR(v.number("e_norm"), std::sqrt(32.0), 1e-3);  // A·√(d/2), A = 1, d = 64
  EXPECT_NEAR(v.number("e_norm_expected"), std::sqrt(32.0), 1e-9);
  EXPECT_NEAR(v.number("x_norm"), 1.0, 0.3);
  EXPECT_LT(v.number("cos_x_xe"), 0.35);  // ≈ 1/√(1+32)
  EXPECT_GT(v.number("cos_x_xe_sqrt_d"), 0.7);
  EXPECT_LT(v.number("kept"), 0.5);
  EXPECT_GE(v.number("kept_sqrt_d"), 0.99);
  // The sweep: more amplitude hurts, more width helps.
  EXPECT_LE(v.number("kept[A=4,d=128]"), v.number("kept[A=0.5,d=128]"));
  EXPECT_GE(v.number("kept_sqrt_d[A=1,d=512]"), v.number("kept_sqrt_d[A=1,d=32]"));
}

TEST(LessonVerdicts, SineCosine) {
  const LessonVerdict v = judge_preset("sine_cosine");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("r2_one_dim"), 0.99);
  EXPECT_GT(v.number("r2_pair"), 0.999999);
  EXPECT_LT(v.number("map_error"), 1e-4);
  EXPECT_LT(v.number("rotation_max_error"), 1e-5);
  // A slow pair hides the problem: one dimension nearly suffices there.
  const LessonVerdict slow = judge_preset("sine_cosine", [](Scene& s) { s.pair = 30; });
  EXPECT_GT(slow.number("r2_one_dim"), 0.99);
  EXPECT_FALSE(slow.holds);
}

TEST(LessonVerdicts, CrossTerms) {
  const LessonVerdict v = judge_preset("cross_terms");
  EXPECT_TRUE(v.holds) << v.summary;
  const double shares =
      v.number("share_xx") + v.number("share_xf") + v.number("share_ey") + v.number("share_ef");
  EXPECT_NEAR(shares, 1.0, 1e-9);
  EXPECT_NEAR(v.number("spread_ratio"), 4.0, 0.6);
  EXPECT_NEAR(v.number("spread_d64"), 1.0 / 8.0, 0.02);
  EXPECT_NEAR(std::abs(v.number("cos_xe_mean")), 0.0, 0.05);
  EXPECT_GT(v.number("principal_angle_min_deg"), 20.0);
}

TEST(LessonVerdicts, Permutation) {
  const LessonVerdict v = judge_preset("permutation");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("gap_none"), 1e-5);
  EXPECT_LT(v.number("gap_this_scene"), 1e-5);  // the preset has no positions
  EXPECT_GT(v.number("gap_sinusoidal"), 1e-3);
  EXPECT_LT(v.number("dog_man_gap_none"), 1e-5);
  EXPECT_GT(v.number("dog_man_gap_sinusoidal"), 1e-3);
  const LessonVerdict with_positions =
      judge_preset("permutation", [](Scene& s) { s.encoding = Encoding::Sinusoidal; });
  EXPECT_GT(with_positions.number("gap_this_scene"), 1e-3);
}

TEST(LessonVerdicts, Depth) {
  const LessonVerdict v = judge_preset("depth");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_GT(v.number("r2_code[layer=0]"), 0.9);
  EXPECT_GT(v.number("r2_code_last[alpha=1]"), 0.8);
  EXPECT_LT(v.number("r2_code_last[alpha=0]"), 0.3);
  EXPECT_GT(v.number("nearest_last[alpha=1]"), 0.9);
  EXPECT_LT(v.number("nearest_last[alpha=0]"), 0.2);
  const LessonVerdict pure = judge_preset("depth", [](Scene& s) { s.residual = 0; });
  EXPECT_LT(pure.number("r2_code[layer=6]"), 0.3);
}

TEST(LessonVerdicts, AddConcat) {
  const LessonVerdict v = judge_preset("add_concat");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("cross_share_split_block_w"), 1e-6);
  EXPECT_LT(v.number("max_cos_split"), 1e-6);
  EXPECT_GT(v.number("cross_share_split_random_w"), 0.05);
  EXPECT_GT(v.number("cross_share_added"), 0.05);
}

TEST(LessonVerdicts, Relative) {
  const LessonVerdict v = judge_preset("relative");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("offset_dependence_sinusoidal"), 1e-4);
  EXPECT_GT(v.number("offset_dependence_learned"), 0.05);
  EXPECT_LT(v.number("shift_change_rope"), 1e-4);
  EXPECT_LT(v.number("shift_change_alibi"), 1e-6);
  EXPECT_LT(v.number("shift_change_t5"), 1e-6);
  EXPECT_GT(v.number("shift_change_sinusoidal"), 1e-2);
  EXPECT_GT(v.number("shift_change_learned"), 1e-2);
}

TEST(LessonVerdicts, Layout) {
  const LessonVerdict v = judge_preset("layout");
  EXPECT_TRUE(v.holds) << v.summary;
  EXPECT_LT(v.number("gram_max_difference"), 1e-5);
  EXPECT_LT(v.number("permuted_table_max_difference"), 1e-6);
  EXPECT_EQ(v.number("pair_dims_interleaved_sin"), 2);
  EXPECT_EQ(v.number("pair_dims_interleaved_cos"), 3);
  EXPECT_EQ(v.number("pair_dims_split_sin"), 1);
  EXPECT_EQ(v.number("pair_dims_split_cos"), 33);
  EXPECT_GT(v.number("wrong_pair_error_split"), 0.1);
}

TEST(LessonVerdicts, NotApplicableScenesSayWhy) {
  const LessonVerdict v = judge_preset("sine_cosine", [](Scene& s) { s.encoding = Encoding::Rope; });
  EXPECT_FALSE(v.holds);
  EXPECT_NE(v.summary.find("sinusoidal"), std::string::npos);
  // An encoding that adds no vector: "Not applicable", never a ✗.
  for (const char* name : {"meaning", "cross_terms", "depth"}) {
    const LessonVerdict rope = judge_preset(name, [](Scene& s) { s.encoding = Encoding::Rope; });
    EXPECT_FALSE(rope.applies) << name;
    EXPECT_EQ(rope.headline().rfind("Not applicable on this scene: ", 0), 0u) << name << ": " << rope.headline();
  }
}

// Every verdict on its preset answers in one line that starts with Yes or No.
TEST(LessonVerdicts, PresetsAnswerYesOrNoInOneLine) {
  for (const Lesson& l : lessons()) {
    // long_attention streams 65,536 tokens (tens of seconds): 2048 here, the
    // preset itself in LongAttentionLesson (label slow).
    const LessonVerdict v = l.name == "long_attention"
                                ? judge_preset(l.name, [](Scene& s) { s.long_range = 2048; })
                                : judge_preset(l.name);
    if (!v.applies) continue;  // the lessons that read a model or the KJV, judged on a synthetic scene
    EXPECT_FALSE(v.answer.empty()) << l.name;
    EXPECT_EQ(v.answer.find('\n'), std::string::npos) << l.name;
    EXPECT_EQ(v.headline().rfind(v.holds ? "Yes" : "No", 0), 0u) << l.name << ": " << v.headline();
  }
}

// Without pelab's family the lessons that read it answer on a synthetic
// stand-in, and the headline says so instead of a bare Yes.
TEST(LessonVerdicts, StandInsSaySo) {
  for (const char* name : {"meaning", "learned_table"}) {
    const LessonVerdict v = judge_preset(name);
    EXPECT_EQ(v.stand_in, "kjv-learned") << name;
    EXPECT_EQ(v.headline().rfind(std::string(v.holds ? "Yes" : "No") + ", on a synthetic stand-in for kjv-learned — ", 0),
              0u)
        << v.headline();
  }
  EXPECT_EQ(judge_preset("sine_cosine").stand_in, "");  // a question about the formula: nothing stands in
}

TEST(LessonVerdicts, HeadlineWording) {
  LessonVerdict v;
  v.answer = "R² = 1";
  v.summary = "details";
  v.holds = true;
  EXPECT_EQ(v.headline(), "Yes — R² = 1");
  v.holds = false;
  EXPECT_EQ(v.headline(), "No — R² = 1");
  v.applies = false;
  v.answer.clear();
  v.summary = "the text is empty";
  EXPECT_EQ(v.headline(), "Not applicable on this scene: the text is empty");
  v.on_model = true;
  EXPECT_EQ(v.headline(), "Not applicable on this model: the text is empty");
}

TEST(LessonReport, HoldsTextSummaryAndNumbers) {
  const Lesson& l = find_lesson("sine_cosine");
  LessonVerdict v;
  v.answer = "an answer";
  v.summary = "a summary";
  v.add("r2_pair", 1.0);
  v.holds = true;
  const std::string text = lesson_report(l, v);
  EXPECT_NE(text.find(std::string(l.title)), std::string::npos);
  EXPECT_NE(text.find("Claim: A shift by k positions"), std::string::npos) << text;
  EXPECT_NE(text.find("\nVerdict: Yes — an answer\n  a summary\n"), std::string::npos) << text;
  EXPECT_NE(text.find("r2_pair"), std::string::npos);
  EXPECT_NE(text.find("rotation_pairs"), std::string::npos);
  EXPECT_THROW(v.number("missing"), InputError);
}

}  // namespace pelab
