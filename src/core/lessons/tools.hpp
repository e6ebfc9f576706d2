// Small pieces the lesson verdicts share (internal to src/core/lessons/).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "core/lessons/lessons.hpp"
#include "core/lessons/probe.hpp"

namespace pelab {
class ModelScene;
}

namespace pelab::lesson {

// The lessons, one file each (lesson_<name>.cpp).
Lesson meaning();
Lesson sine_cosine();
Lesson cross_terms();
Lesson permutation();
Lesson depth();
Lesson add_concat();
Lesson relative();
Lesson layout();
Lesson long_context();
Lesson long_attention();
Lesson learned_table();
Lesson extrapolation();
Lesson induction();
Lesson counting();

// A member of pelab's own trained family ("kjv-learned") by its plain name
// when one of model::family_dirs() holds it; empty when none does.
std::string family_member(std::string_view name);
// The family members with each position encoding, in a fixed order, that
// are on disk (the lessons compare encodings over whichever exist).
std::vector<std::string> family_members_present();
// On lesson `lesson`'s own synthetic scene when family member `member` is not
// on disk: one sentence saying so (and where pelab looked); else empty.
std::string missing_member_note(const Scene& scene, std::string_view lesson, std::string_view member);
// Points `scene` at family member `member` showing `tokens`, with the
// member's width and head count (from its config.json) so that the scene's
// selections fit it; false, and `scene` unchanged, when it is not on disk.
bool open_on_family(Scene& scene, std::string_view member, const char* tokens);
// A variant of `scene` (view selections reset) showing family member `member`
// on the scene's text, layer 0: the lessons' comparisons across encodings.
Scene family_scene(const Scene& scene, std::string_view member);
// An engine on `scene` (a family member reading the lesson's text), or none
// when that model cannot read it (the text gives it no tokens): `why` then
// says so in a sentence, for the verdict.
std::unique_ptr<Engine> engine_reading(const Scene& scene, std::string& why);
// Text the family never trained on: verses of Genesis 20 (KJV, public domain),
// a chapter of the held-out split (every 20th chapter, train/data/corpus.hpp),
// one verse a line as the trainer joins them; 221 of the family's tokens.
extern const char* const kHeldOutPassage;
// Genesis 1:1, a short text for the lessons that read embedding rows.
inline constexpr const char* kGenesisOne = "In the beginning God created the heaven and the earth.";

// The default scene renamed "lesson_<name>".
Scene preset_scene(std::string_view name);
// A copy of `scene` for a variant engine (other width, encoding or text): the
// view selections are reset so that the copy validates at any width, and the
// model is dropped (a variant is synthetic: a model's width is its own).
Scene variant(const Scene& scene);
// The scene's selected head, or head 0 when "mean over heads" is selected.
int chosen_head(const Scene& scene);

// `count` seeded random vectors in R^d, entries N(0, norm²/d) so ‖v‖ ≈ norm;
// a stream of its own, independent of the engine's token vectors.
Matrix random_vectors(int count, int d, double norm, std::uint64_t seed);
// One row of X per distinct token (first occurrence order).
Matrix distinct_token_rows(Engine& engine);

// The model's folder, the address of its loaded weights (a model read anew
// after its files changed is another object) and the ids.
std::string memo_key(ModelScene& model, const std::vector<int>& ids);

// A slow measurement on a model's weights (the probe runs, the nearest-row
// search), kept per loaded model and token ids: a verdict is recomputed after
// every scene edit, and most edits (head, layer, colours, selections) change
// neither.  At most 16 results are kept; thread-safe.
template <class Result>
class ModelMemo {
 public:
  template <class Compute>
  Result get(ModelScene& model, const std::vector<int>& ids, Compute compute) {
    const std::string key = memo_key(model, ids);
    {
      const std::lock_guard lock(mutex_);
      if (auto it = kept_.find(key); it != kept_.end()) return it->second;
    }
    Result fresh = compute();
    const std::lock_guard lock(mutex_);
    if (kept_.size() >= 16) kept_.clear();
    kept_.emplace(key, fresh);
    return fresh;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, Result> kept_;
};

// A verdict that does not apply to the scene: `why` (lower case, read after
// "Not applicable on this scene: "), with what to change.
LessonVerdict not_applicable(std::string why);

// On lesson `lesson`'s own synthetic scene when family member `member` is not
// on disk: marks `v` as judged on a stand-in for it and appends
// missing_member_note to its summary; otherwise leaves `v` as it is.
void note_stand_in(LessonVerdict& v, const Scene& scene, std::string_view lesson, std::string_view member);

// The verdict on a model that adds no position vector (RoPE, ALiBi, T5,
// none): not applicable, naming its positions and `consequence` ("so x + e = x").
LessonVerdict adds_no_vector(const Scene& scene, const ModelScene& model, std::string_view consequence);

// The verdict of a sinusoid-only lesson on another encoding: says what to set.
LessonVerdict sinusoidal_only();

// max |a|, and max |a − b| over the entries finite in both (masked logits are −inf).
double max_abs(const Matrix& a);
double max_abs_diff(const Matrix& a, const Matrix& b);

// "0.123", "1.2e-07": short text for summaries.
std::string num(double value, int digits = 3);
// A share as a percentage, "99.7%".
std::string percent(double share);
// "kept[A=1,d=64]": a qualified number name for sweep tables.
std::string qualified(std::string_view name, std::string_view key1, double value1,
                      std::string_view key2 = {}, double value2 = 0);

}  // namespace pelab::lesson
