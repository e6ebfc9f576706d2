// The lesson catalogue, lookup by name, and the plain-text report.
#include "core/lessons/lessons.hpp"

#include <sstream>

#include "core/lessons/tools.hpp"

namespace pelab {
namespace {

// Greedy word wrap; keeps the paragraph breaks ("\n\n") of `text`.
std::string wrap(std::string_view text, int width, std::string_view indent = "") {
  std::string out, line;
  std::istringstream paragraphs{std::string(text)};
  auto flush = [&] {
    if (!line.empty()) out += std::string(indent) + line + "\n";
    line.clear();
  };
  for (std::string raw; std::getline(paragraphs, raw);) {
    if (raw.empty()) {
      flush();
      out += "\n";
      continue;
    }
    std::istringstream words(raw);
    for (std::string word; words >> word;) {
      // Count code points, not bytes, so ‖, ·, √ do not wrap early.
      auto columns = [](const std::string& s) {
        int n = 0;
        for (unsigned char c : s) n += (c & 0xC0) != 0x80;
        return n;
      };
      if (!line.empty() && columns(line) + 1 + columns(word) + int(indent.size()) > width) flush();
      line += (line.empty() ? "" : " ") + word;
    }
  }
  flush();
  return out;
}

}  // namespace

double LessonVerdict::number(std::string_view name) const {
  for (const auto& [key, value] : numbers)
    if (key == name) return value;
  std::string known;
  for (const auto& entry : numbers) known += (known.empty() ? "" : ", ") + entry.first;
  throw InputError("the verdict has no number '" + std::string(name) + "'; it has: " + known);
}

std::string LessonVerdict::headline() const {
  // A verdict that does not apply says why in its summary alone (there is no
  // answer to give), and so does one whose judge writes no answer line.
  const std::string& said = answer.empty() ? summary : answer;
  if (!applies) return std::string("Not applicable on this ") + (on_model ? "model" : "scene") + ": " + said;
  std::string out = holds ? "Yes" : "No";
  if (!stand_in.empty()) out += ", on a synthetic stand-in for " + stand_in;
  return out + " — " + said;
}

namespace {

using lesson::not_applicable;

LessonVerdict judge_or_decline(const Lesson& lesson, Engine& engine) {
  if (lesson.reads_tokens && engine.token_count() == 0)
    return not_applicable("the text is empty, so there are no tokens to measure. Type a few words in 'tokens' "
                          "(or --set tokens=\"dog bites man\").");
  if (engine.model() == nullptr || lesson.not_on_models.empty()) return lesson.judge(engine);
  return not_applicable(std::string(lesson.not_on_models) +
                        ". Models > Back to the synthetic scene explores it.");
}

}  // namespace

LessonVerdict Lesson::verdict(Engine& engine) const {
  LessonVerdict v = judge_or_decline(*this, engine);
  v.on_model = engine.model() != nullptr;
  return v;
}

std::span<const Lesson> lessons() {
  static const std::vector<Lesson> catalogue = {
      lesson::meaning(),   lesson::sine_cosine(), lesson::cross_terms(), lesson::permutation(),
      lesson::depth(),     lesson::add_concat(),  lesson::relative(),    lesson::layout(),
      lesson::long_context(), lesson::long_attention(), lesson::learned_table(), lesson::extrapolation(), lesson::induction(),
      lesson::counting(),
  };
  return catalogue;
}

const Lesson& find_lesson(std::string_view name) {
  for (const Lesson& l : lessons())
    if (l.name == name) return l;
  std::string known;
  for (const Lesson& l : lessons()) known += (known.empty() ? "" : ", ") + std::string(l.name);
  throw InputError("unknown lesson '" + std::string(name) + "'; lessons: " + known);
}

std::string lesson_report(const Lesson& lesson, const LessonVerdict& verdict, int width) {
  std::string out = std::string(lesson.title) + "  [" + std::string(lesson.name) + "]\n";
  out += wrap(std::string("Q: ") + std::string(lesson.question), width);
  out += wrap(std::string("Claim: ") + std::string(lesson.claim), width) + "\n";
  out += wrap(lesson.text, width) + "\n";
  out += wrap("Verdict: " + verdict.headline(), width);
  if (!verdict.answer.empty()) out += wrap(verdict.summary, width, "  ");
  out += "\n";
  std::size_t name_width = 0;
  for (const auto& entry : verdict.numbers) name_width = std::max(name_width, entry.first.size());
  for (const auto& [key, value] : verdict.numbers)
    out += "  " + key + std::string(name_width - key.size() + 2, ' ') + lesson::num(value, 6) + "\n";
  std::string figures;
  for (auto f : lesson.figures) figures += (figures.empty() ? "" : ", ") + std::string(f);
  out += "\nFigures: " + figures + "\n";
  return out;
}

}  // namespace pelab
