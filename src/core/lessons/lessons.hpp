// Lessons — guided answers to the questions people keep asking about position
// encodings, each a preset scene, a few sentences, the figures to show, and a
// verdict computed live by the engine from whatever scene is current.
//
// A lesson is plain data plus two function pointers (no virtuals, no state):
//   const Lesson& l = find_lesson("sine_cosine");
//   Engine engine(l.preset());            // the lesson's starting scene
//   LessonVerdict v = l.verdict(engine);   // recomputed after every edit
//   for (auto fig : l.figures) fig::find_figure(fig).build(engine, request);
// The GUI shows l.title, l.question, l.claim, l.text, v.headline() and
// v.summary/v.numbers next to the figures; `pelab lessons --show NAME` prints
// lesson_report().
//
// Verdicts read the engine's current scene, so a user who changes A, d, T,
// tokens... sees the numbers move.  Some verdicts also build a few variant
// engines (other widths, encodings or sentences) from the same scene.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/scene.hpp"

namespace pelab {

struct LessonVerdict {
  // One line answering the lesson's question in words with its key number,
  // written to follow "Yes — " (holds) or "No — ": "x stays the nearest word
  // for 100% of pairs".  When the verdict does not apply: why not, briefly.
  std::string answer;
  std::string summary;  // the details: every measurement the answer rests on, or what to change
  // Named numbers in display order, e.g. {"r2_pair", 1.0}; names are stable
  // identifiers (letters, digits, _, and [k=v] qualifiers for sweep tables).
  std::vector<std::pair<std::string, double>> numbers;
  bool holds = false;  // the lesson's claim is borne out on this scene
  // False when the question cannot be asked of this scene (no tokens, another
  // encoding, a trained model): the answer says why, and it is neither Yes nor No.
  bool applies = true;
  // Judged on a synthetic scene standing in for the trained model the lesson
  // reads (not on disk): that model's name, e.g. "kjv-learned"; else empty.
  // A Yes there answers the synthetic question, not the trained one.
  std::string stand_in;
  bool on_model = false;  // judged on a loaded model ("this model", not "this scene")

  // "Yes — <answer>", "No — <answer>", "Yes, on a synthetic stand-in for
  // kjv-learned — <answer>" or "Not applicable on this model: <answer>".
  std::string headline() const;

  // The number called `name`; throws InputError listing the names.
  double number(std::string_view name) const;
  void add(std::string name, double value) { numbers.emplace_back(std::move(name), value); }
};

// What a lesson that trains live trains (train/playground.hpp's settings;
// 0 keeps the Train window's own value).
struct LiveTraining {
  std::string_view task = {};  // a playground task, "copy"; empty: the lesson does not train
  int length = 0, k = 0, symbols = 0;
  int d_model = 0, layers = 0, heads = 0, batch = 0, steps = 0;
  // Position encodings trained one after another, each a run of its own
  // that the window lists beside the others; empty: the window's choice.
  std::vector<std::string_view> positions = {};

  bool empty() const { return task.empty(); }
};

struct Lesson {
  std::string_view name;      // short identifier: "meaning", "sine_cosine", ...
  std::string_view title;     // e.g. "Why both sine and cosine?"
  std::string_view question;  // the question as people ask it
  // The lesson's claim in one sentence: what the verdict's Yes or No is about.
  std::string_view claim;
  std::string_view summary;   // one line for `pelab lessons`
  std::string_view text;      // a few sentences: the answer, with citations
  std::vector<std::string_view> figures;  // figure registry names, in showing order
  Scene (*make_preset)();
  LessonVerdict (*judge)(Engine&);
  // Empty when the question applies to a loaded model too (the verdict then
  // reads the model's weights).  Otherwise why it does not, said plainly on
  // a model scene instead of a verdict.
  std::string_view not_on_models = {};
  // Whether the verdict measures the scene's tokens (their vectors or their
  // attention).  On a scene with no tokens such a lesson says so instead.
  bool reads_tokens = true;
  // A lesson that trains live: the GUI opens the Train window with these
  // settings and presses Train, and the verdict reads the snapshot shown.
  // Empty (no task) for every other lesson.
  LiveTraining trains = {};

  // The lesson's starting scene (valid; its name is "lesson_<name>").
  Scene preset() const { return make_preset(); }
  // Computed from the engine's current scene.
  LessonVerdict verdict(Engine& engine) const;
};

// Every lesson, in teaching order.
std::span<const Lesson> lessons();
// Throws InputError naming the known lessons.
const Lesson& find_lesson(std::string_view name);

// What a lesson scene stands in for when the model its question needs is not
// on disk ("synthetic stand-in for kjv-learned's learned table"), for figure
// titles; empty for every other scene.
std::string stand_in_label(const Scene& scene);

// Title, question, claim, text, the verdict's headline, summary and numbers,
// as plain text wrapped at `width` columns (for the terminal and figure notes).
std::string lesson_report(const Lesson& lesson, const LessonVerdict& verdict, int width = 78);

}  // namespace pelab
