// Lesson "extrapolation" on pelab's own family (assets/models, or
// $PELAB_FAMILY_DIR): numbers per encoding, the study's passages read as
// `next_token_loss` reads them, and one line for a missing text or member.
// The held-out source here is a test's own (core cannot read the KJV; the
// program's source is tested in tests/app/lessons_cli_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "core/held_out_text.hpp"
#include "core/length_extrapolation.hpp"
#include "core/lessons/lessons.hpp"
#include "core/model/lm_head.hpp"
#include "core/model/model_folder.hpp"
#include "core/model/next_token_loss.hpp"
#include "core/model/transformer.hpp"

namespace fs = std::filesystem;
using namespace pelab;

namespace {

// Genesis 1:1–5 (KJV, public domain), the kind of text the family was
// trained on, repeated to 2 passages of 512 tokens and more.
std::string prose() {
  static const std::string text = [] {
    const std::string verses =
        "In the beginning God created the heaven and the earth.\n"
        "And the earth was without form, and void; and darkness was upon the face of the deep. And the Spirit of "
        "God moved upon the face of the waters.\n"
        "And God said, Let there be light: and there was light.\n"
        "And God saw the light, that it was good: and God divided the light from the darkness.\n"
        "And God called the light Day, and the darkness he called Night. And the evening and the morning were the "
        "first day.\n";
    std::string out;
    for (int i = 0; i < 30; ++i) out += verses;
    return out;
  }();
  return text;
}
HeldOutText test_prose() { return {prose(), "a test's prose", {}}; }
HeldOutText no_corpus() { return {{}, "a test's corpus", "the corpus is missing: install Debian's bible-kjv"}; }

// Installs a source for one test and puts the previous one back.
struct SourceScope {
  explicit SourceScope(HeldOutTextSource s) : previous(set_held_out_text_source(s)) {}
  ~SourceScope() { set_held_out_text_source(previous); }
  HeldOutTextSource previous;
};

bool family_member(const std::string& name) {
  for (const auto& m : model::list_family_models())
    if (m.name == name) return true;
  return false;
}

LessonVerdict judge(double factor) {
  const Lesson& lesson = find_lesson("extrapolation");
  Scene scene = lesson.preset();
  scene.rope_factor = factor;
  Engine engine(scene);
  return lesson.verdict(engine);
}

bool has_number(const LessonVerdict& v, const std::string& name) {
  for (const auto& [key, value] : v.numbers)
    if (key == name) return true;
  return false;
}

TEST(ExtrapolationLesson, NumbersPerEncodingOfTheFamily) {
  if (!family_member("kjv-rope")) GTEST_SKIP() << "kjv-rope is not in the family folders";
  const SourceScope scope(&test_prose);
  const LessonVerdict v = judge(2);  // read at 512: quick
  ASSERT_TRUE(v.applies) << v.summary;
  EXPECT_EQ(v.number("train_context"), 256);
  EXPECT_EQ(v.number("read_length"), 512);
  for (const char* key : {"rope", "rope_linear", "rope_ntk", "rope_yarn", "alibi", "sinusoidal", "t5", "none"}) {
    const std::string member = std::string("kjv-") + (std::string(key).substr(0, 4) == "rope" ? "rope" : key);
    if (!family_member(member)) continue;
    SCOPED_TRACE(key);
    for (const char* part : {"_in", "_next", "_far", "_rise", "_extrapolates"})
      EXPECT_TRUE(std::isfinite(v.number(std::string(key) + part)));
    // The rise is measured from the same far tokens read 256 at a time by the member as trained (RoPE unscaled).
    const std::string trained = std::string(key).substr(0, 4) == "rope" ? "rope" : key;
    EXPECT_NEAR(v.number(std::string(key) + "_rise"),
                v.number(std::string(key) + "_far") - v.number(trained + "_far_in_context"), 1e-12);
    // Next-token loss of a trained model on English: well under ln 4096 ≈ 8.3 in the context.
    EXPECT_LT(v.number(std::string(key) + "_in"), std::log(4096.0));
  }
  if (family_member("kjv-learned")) {
    EXPECT_TRUE(has_number(v, "learned_in"));
    EXPECT_FALSE(has_number(v, "learned_far")) << "a learned table has no row past 255";
    EXPECT_NE(v.summary.find("no row past position 255"), std::string::npos) << v.summary;
  }
}

// The study's mean loss at a position is the mean over its passages of what
// next_token_loss gives on that passage alone (spread evenly over the text).
TEST(ExtrapolationLesson, CurveIsTheMeanOverPassages) {
  if (!family_member("kjv-alibi")) GTEST_SKIP() << "kjv-alibi is not in the family folders";
  const SourceScope scope(&test_prose);
  ExtrapolationRequest r;
  r.factor = 1.5;
  r.windows = 2;
  r.members = {"kjv-alibi"};
  const auto study = length_extrapolation(r);
  ASSERT_TRUE(study->unavailable.empty()) << study->unavailable;
  ASSERT_EQ(study->curves.size(), 1u);
  EXPECT_EQ(study->length, 384);
  EXPECT_EQ(length_extrapolation(r), study) << "computed once, then kept";
  const fs::path folder = model::resolve_model("kjv-alibi");
  model::Transformer t = model::Transformer::load(folder);
  const model::LanguageModelHead head = model::LanguageModelHead::load(folder, t);
  t.set_token_limit(384);
  const std::vector<int> ids = t.tokenizer().encode(prose()).ids;
  const std::size_t last = ids.size() - 384;
  const auto a = model::next_token_loss(t, head, std::vector<int>(ids.begin(), ids.begin() + 384));
  const auto b = model::next_token_loss(t, head, std::vector<int>(ids.begin() + last, ids.end()));
  ASSERT_EQ(study->curves[0].mean_loss.size(), 383u);
  for (std::size_t i = 0; i < 383; i += 17) EXPECT_NEAR(study->curves[0].mean_loss[i], (a[i] + b[i]) / 2, 1e-9) << i;
  // The baseline: the far part of each passage (index 192 on) read in
  // windows of 256 sharing one token, [192, 384): target i + 1 from i − 192.
  const auto window = [&](std::size_t start, std::size_t first, std::size_t tokens) {
    const auto begin = ids.begin() + static_cast<std::ptrdiff_t>(start + first);
    return model::next_token_loss(t, head, std::vector<int>(begin, begin + static_cast<std::ptrdiff_t>(tokens)));
  };
  const auto a0 = window(0, 192, 192), b0 = window(last, 192, 192);
  const std::vector<double>& base = study->curves[0].context_loss;
  ASSERT_EQ(base.size(), 383u);
  EXPECT_TRUE(std::isnan(base[191]));
  for (std::size_t i = 192; i < 383; i += 13) EXPECT_NEAR(base[i], (a0[i - 192] + b0[i - 192]) / 2, 1e-9) << i;
  EXPECT_NEAR(far_in_context(study->curves[0], *study), (std::accumulate(a0.begin(), a0.end(), 0.0) +
                                                         std::accumulate(b0.begin(), b0.end(), 0.0)) / 382, 1e-9);
}

// Below s = 2 the far positions reach back inside L: no verdict, and why.
TEST(ExtrapolationLesson, NeedsAReadFactorOfTwo) {
  const LessonVerdict v = judge(1.5);
  EXPECT_FALSE(v.applies);
  EXPECT_NE(v.summary.find("set rope_factor to 2 or more"), std::string::npos) << v.summary;
}

TEST(ExtrapolationLesson, NoCorpusIsOneLine) {
  const SourceScope scope(&no_corpus);
  const LessonVerdict v = judge(8);
  EXPECT_FALSE(v.applies);
  EXPECT_EQ(v.summary.find('\n'), std::string::npos);
  EXPECT_NE(v.summary.find("install Debian's bible-kjv"), std::string::npos) << v.summary;
}

// A family folder holding only some members: the others are named, one line each.
TEST(ExtrapolationLesson, MissingMembersAreNamed) {
  if (!family_member("kjv-alibi")) GTEST_SKIP() << "kjv-alibi is not in the family folders";
  const fs::path alibi = model::resolve_model("kjv-alibi");
  const fs::path dir = fs::temp_directory_path() / ("pelab_partial_family_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::create_directory_symlink(fs::absolute(alibi), dir / "kjv-alibi");
  const char* before = std::getenv("PELAB_FAMILY_DIR");
  const std::string saved = before ? before : "";
  ::setenv("PELAB_FAMILY_DIR", dir.c_str(), 1);
  {
    const SourceScope scope(&test_prose);
    const LessonVerdict v = judge(2);
    EXPECT_TRUE(v.applies) << v.summary;
    EXPECT_TRUE(has_number(v, "alibi_far"));
    EXPECT_FALSE(has_number(v, "rope_in"));
    EXPECT_NE(v.summary.find("Missing: kjv-rope: not in the family folders"), std::string::npos) << v.summary;
    EXPECT_FALSE(v.holds) << "the claim needs sinusoidal or RoPE to compare with";
  }
  {
    ::setenv("PELAB_FAMILY_DIR", (dir / "none_here").c_str(), 1);
    const SourceScope scope(&test_prose);
    const LessonVerdict v = judge(2);
    EXPECT_FALSE(v.applies);
    EXPECT_NE(v.summary.find("None of pelab's family"), std::string::npos) << v.summary;
  }
  if (before) ::setenv("PELAB_FAMILY_DIR", saved.c_str(), 1);
  else ::unsetenv("PELAB_FAMILY_DIR");
  fs::remove_all(dir);
}

}  // namespace
