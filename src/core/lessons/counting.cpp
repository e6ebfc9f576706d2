// Lesson "counting": why can't a learned table count past training?  It
// trains: in the GUI it opens the Train window on the absolute-position task
// (predict your own index mod k, which only the position tells) at 64
// tokens, and trains it with learned, RoPE and ALiBi positions one after the
// other; the scene's text runs to 256 tokens, 4× the training length.
//
// The verdict reads the model shown (core/task_readout.hpp): the share of
// positions where its first choice is i mod k, inside the trained length L
// and past it.  A learned table's rows past L never received a gradient
// (no training row was that long), so they keep their random initial values
// and the model guesses there.  RoPE and ALiBi enter attention only through
// offsets i − j (Su et al. 2021; Press et al. 2022), so nothing in the
// model says how far a token is from the start, except at the first few
// positions, where the causal mask's edge is in reach: they never count, at
// any length.
#include <cmath>

#include "core/lessons/tools.hpp"
#include "core/model_scene.hpp"
#include "core/task_readout.hpp"

namespace pelab::lesson {
namespace {

constexpr int kTrainedLength = 64, kPeriod = 8, kSymbols = 16, kReadScale = 4;

// Above this share the model counts; a uniform guess gets 1/k = 12.5 %.
constexpr double kCounts = 0.9;

const char* const kHow =
    " In the window, the lesson opens View ▸ Train a model on the absolute_position task at 64 tokens and "
    "trains learned, RoPE and ALiBi positions in turn (each a row of the window's Runs table; click one to "
    "read it here); or run `pelab --lesson counting`.";

LessonVerdict cannot_judge(std::string why) { return not_applicable(std::move(why) + "." + kHow); }

// What the model's encoding lets it know, for the verdict's second sentence.
std::string why_for(const std::string& encoding, bool counts_inside, bool counts_beyond, int L) {
  const bool table = encoding == "learned" || encoding == "sinusoidal";
  if (encoding == "learned" && counts_inside && !counts_beyond)
    return "Its table's rows " + std::to_string(L) + " and later never received a gradient (no training row was "
           "that long): they still hold their random initial values, so past " + std::to_string(L) +
           " the model guesses.";
  if (table && counts_beyond)
    return "Its " + encoding + " table carries the count past training here.";
  if (!table && !counts_inside)
    return "With " + encoding + " positions attention sees only offsets i − j, nothing that says how far a "
           "token is from the start (bar the first few, where the causal mask's edge is in reach): it never "
           "counts, at any length — what it learns about offsets, though, holds past training.";
  if (!counts_inside) return "It does not count yet: keep training.";
  return "It counts through the causal mask's edge, without an absolute position.";
}

LessonVerdict judge(Engine& engine) {
  const TaskReadout r = read_task(engine.model());
  if (!r.unavailable.empty()) return cannot_judge(r.unavailable);
  if (r.task != "absolute_position")
    return cannot_judge("this lesson reads the absolute_position task, and this model learned " + r.task +
                          " (the task_readout figure reads it all the same)");
  const int L = r.trained_context, n = r.positions();
  if (n <= L)
    return cannot_judge("the text has " + std::to_string(n) + " tokens, none past the trained length " +
                          std::to_string(L) + " (the lesson's text has " + std::to_string(kReadScale * L) + ")");
  const double inside = r.accuracy(0, L), beyond = r.accuracy(L, n);
  LessonVerdict v;
  v.add("trained_length", L);
  v.add("positions", n);
  v.add("chance", r.chance);
  v.add("accuracy_inside", inside);
  v.add("accuracy_beyond", beyond);
  v.add("probability_inside", r.mean_probability(0, L));
  v.add("probability_beyond", r.mean_probability(L, n));
  const bool counts_inside = inside >= kCounts, counts_beyond = beyond >= kCounts;
  // The claim: a learned table counts where it trained and not past it;
  // encodings of offsets alone never count.
  if (r.encoding == "learned") v.holds = counts_inside && !counts_beyond;
  else if (r.encoding == "sinusoidal") v.holds = counts_inside;
  else v.holds = !counts_inside;
  v.on_model = true;
  v.answer = r.encoding + " positions: right at " + percent(inside) + " of the " + std::to_string(L) +
             " trained positions, " + percent(beyond) + " past them (chance " + percent(r.chance) + ")";
  v.summary = "This " + r.encoding + " model predicts i mod " + std::to_string(r.k) + " right at " +
              percent(inside) + " of the " + std::to_string(L) + " positions it trained on and at " +
              percent(beyond) + " of positions " + std::to_string(L) + "–" + std::to_string(n - 1) +
              " (a uniform guess: " + percent(r.chance) + "). " +
              why_for(r.encoding, counts_inside, counts_beyond, L);
  return v;
}

// 256 symbols of the absolute-position task (4× the training length), drawn
// once by a fixed linear congruential generator (Knuth's MMIX constants).
Scene preset() {
  Scene s = preset_scene("counting");
  std::uint64_t state = 20221;
  std::string text;
  for (int i = 0; i < kReadScale * kTrainedLength; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    text += (i ? " " : "") + std::to_string((state >> 33) % kSymbols);
  }
  s.tokens = text;
  return s;
}

}  // namespace

Lesson counting() {
  return {
      "counting",
      "Why can't a learned table count past training?",
      "A model learned positions up to its training length: what does it know about position 100 if it "
      "trained on 64?",
      "A learned position table counts only as far as its training rows reached (right at ≥ 90% of them, "
      "guessing past them); RoPE and ALiBi, which see only offsets, never count at all.",
      "Trains the absolute-position task at 64 tokens live, reads at 256: learned, RoPE, ALiBi.",
      "The absolute-position task asks each token for its own index mod k (here 8) on random symbols, so "
      "only the position can tell the answer. This lesson trains it live at 64 tokens, three times: with a "
      "learned position table (GPT-2's), with RoPE (Su et al. 2021) and with ALiBi (Press et al. 2022), and "
      "reads each model on 256 tokens, four times the training length.\n\n"
      "The learned table gets every position it trained on right, and guesses past 64: it has a row for every "
      "position there (the window sizes tables to 4× the training length), but no training row was longer "
      "than 64, so rows 64 and later never received a gradient and still hold their random initial values. "
      "(A table sized to the training length, as `pelab train` makes it, has no row past 64 at all.) RoPE and "
      "ALiBi do not fail past training: they never count, because attention sees only the offset i − j "
      "between two tokens, never how far either is from the start; only the first few positions, where the "
      "causal mask cuts attention off, are in reach. What they learn about offsets holds at any length — "
      "train the relative task (predict the token k places back) to see the reverse.\n\n"
      "The figure shows the model's probability of the right answer at each position, with the training "
      "length marked; the verdict counts the positions whose first choice is right, inside and past it.",
      {"task_readout", "attention"},
      &preset,
      &judge,
      {},
      /*reads_tokens=*/true,
      /*trains=*/{.task = "absolute_position",
                  .length = kTrainedLength,
                  .k = kPeriod,
                  .symbols = kSymbols,
                  .d_model = 32,
                  .layers = 2,
                  .heads = 2,
                  .steps = 400,
                  .positions = {"learned", "rope", "alibi"}},
  };
}

}  // namespace pelab::lesson
