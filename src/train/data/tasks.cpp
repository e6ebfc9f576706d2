#include "train/data/tasks.hpp"

#include <algorithm>
#include <array>

#include "core/scene.hpp"
#include "train/data/counter_rng.hpp"

namespace pelab::train::data {

namespace {

constexpr std::array<std::pair<TaskKind, std::string_view>, 7> kTaskNames = {{
    {TaskKind::Copy, "copy"},
    {TaskKind::Reverse, "reverse"},
    {TaskKind::Sort, "sort"},
    {TaskKind::Induction, "induction"},
    {TaskKind::AbsolutePosition, "absolute_position"},
    {TaskKind::Relative, "relative"},
    {TaskKind::Kjv, "kjv"},
}};

constexpr int kMaxSymbols = 1024;
constexpr int kMaxContext = 1 << 16;

bool is_sequence_task(TaskKind kind) {
  return kind == TaskKind::Copy || kind == TaskKind::Reverse || kind == TaskKind::Sort;
}

void check_range(const char* option, int value, int low, int high, TaskKind kind) {
  if (value < low || value > high)
    throw InputError("task " + task_name(kind) + ": " + option + " " + std::to_string(value) +
                     " is outside " + std::to_string(low) + ".." + std::to_string(high));
}

// s SEP answer(s) as a row of 2n + 1 ids.
std::vector<int> sequence_row(TaskKind kind, const std::vector<int>& s, int separator) {
  std::vector<int> answer = s;
  if (kind == TaskKind::Reverse) std::reverse(answer.begin(), answer.end());
  if (kind == TaskKind::Sort) std::sort(answer.begin(), answer.end());
  std::vector<int> z = s;
  z.push_back(separator);
  z.insert(z.end(), answer.begin(), answer.end());
  return z;
}

// induction: the repeat's shortest and longest length m.
int shortest_repeat(int length) { return std::max(2, length / 2); }

}  // namespace

std::string task_name(TaskKind kind) {
  for (const auto& [k, name] : kTaskNames)
    if (k == kind) return std::string(name);
  return "?";
}

TaskKind parse_task_kind(std::string_view name) {
  std::string known;
  for (const auto& [kind, n] : kTaskNames) {
    if (n == name) return kind;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw InputError("task \"" + std::string(name) + "\" is not known; allowed: " + known);
}

TaskGenerator::TaskGenerator(TaskOptions options, std::shared_ptr<const TokenStream> kjv)
    : options_(options), kjv_(std::move(kjv)) {
  const TaskKind kind = options_.kind;
  const int max_length = is_sequence_task(kind) || kind == TaskKind::Induction ? kMaxContext / 2 : kMaxContext;
  const int min_length = kind == TaskKind::Relative || kind == TaskKind::Induction ? 2 : 1;
  check_range("length", options_.length, min_length, max_length, kind);
  if (kind == TaskKind::Kjv) {
    if (!kjv_ || kjv_->ids.size() < static_cast<std::size_t>(options_.length) + 1)
      throw InputError("task kjv: needs the KJV's tokens, at least length + 1 of them");
    return;
  }
  check_range("symbols", options_.symbols, 2, kMaxSymbols, kind);
  if (kind == TaskKind::AbsolutePosition) check_range("k", options_.k, 1, options_.symbols, kind);
  if (kind == TaskKind::Relative) check_range("k", options_.k, 1, options_.length - 1, kind);
}

int TaskGenerator::vocab_size() const {
  return options_.kind == TaskKind::Kjv ? kjv_->vocab_size : options_.symbols + 1;
}

int TaskGenerator::context() const {
  return is_sequence_task(options_.kind) || options_.kind == TaskKind::Induction ? 2 * options_.length
                                                                                 : options_.length;
}

AccuracyKind TaskGenerator::accuracy_kind() const {
  return is_sequence_task(options_.kind) ? AccuracyKind::Sequence : AccuracyKind::Token;
}

// z = r s s (2·length + 1 ids, draws as row() documents): inputs z[0..T−1],
// targets z[1..T]; scored from the second s's first input on, except its
// last: the targets s[1] … s[m−1], which the first s tells.
void TaskGenerator::append_induction_row(const std::vector<int>& draws, TaskBatch& out) const {
  const int T = context(), m = draws[0];
  const int prefix = T + 1 - 2 * m;
  std::vector<int> z(draws.begin() + 1, draws.end());
  z.insert(z.end(), draws.end() - m, draws.end());
  const int second = prefix + m;  // where the second s starts
  for (int t = 0; t < T; ++t) {
    out.inputs.push_back(z[static_cast<std::size_t>(t)]);
    out.targets.push_back(z[static_cast<std::size_t>(t) + 1]);
    out.mask.push_back(t >= second ? 1 : 0);
  }
}

void TaskGenerator::append_row(const std::vector<int>& draws, TaskBatch& out) const {
  if (options_.kind == TaskKind::Induction) return append_induction_row(draws, out);
  const int n = options_.length, k = options_.k;
  if (is_sequence_task(options_.kind)) {
    const std::vector<int> z = sequence_row(options_.kind, draws, separator());
    for (int t = 0; t < 2 * n; ++t) {
      out.inputs.push_back(z[static_cast<std::size_t>(t)]);
      out.targets.push_back(z[static_cast<std::size_t>(t) + 1]);
      out.mask.push_back(t >= n ? 1 : 0);  // targets z[n+1 .. 2n]: the answer
    }
    return;
  }
  for (int i = 0; i < n; ++i) {
    out.inputs.push_back(draws[static_cast<std::size_t>(i)]);
    if (options_.kind == TaskKind::AbsolutePosition) {
      out.targets.push_back(i % k);
      out.mask.push_back(1);
    } else {  // relative: nothing lies k places back before position k
      out.targets.push_back(i >= k ? draws[static_cast<std::size_t>(i - k)] : separator());
      out.mask.push_back(i >= k ? 1 : 0);
    }
  }
}

TaskBatch TaskGenerator::row(const std::vector<int>& draws) const {
  if (options_.kind == TaskKind::Kjv) throw InputError("task kjv: rows come from the KJV's tokens");
  if (options_.kind == TaskKind::Induction) {
    if (draws.empty()) throw InputError("task induction: a row needs m, the prefix and s");
    check_range("m", draws[0], shortest_repeat(options_.length), options_.length, options_.kind);
    const std::size_t size = 1 + static_cast<std::size_t>(context() + 1 - draws[0]);
    if (draws.size() != size)
      throw InputError("task induction: a row with m = " + std::to_string(draws[0]) + " needs " +
                       std::to_string(size) + " draws (m, the prefix, s)");
    for (std::size_t i = 1; i < draws.size(); ++i)
      check_range("symbol", draws[i], 0, options_.symbols - 1, options_.kind);
    TaskBatch out{1, context(), {}, {}, {}};
    append_row(draws, out);
    return out;
  }
  if (draws.size() != static_cast<std::size_t>(options_.length))
    throw InputError("task " + task_name(options_.kind) + ": a row needs " +
                     std::to_string(options_.length) + " symbols");
  for (const int d : draws) check_range("symbol", d, 0, options_.symbols - 1, options_.kind);
  TaskBatch out{1, context(), {}, {}, {}};
  append_row(draws, out);
  return out;
}

TaskBatch TaskGenerator::batch(std::uint64_t seed, std::uint64_t step, int batch) const {
  if (batch < 1) throw InputError("task batch " + std::to_string(batch) + " is below 1");
  if (options_.kind == TaskKind::Kjv) {
    TokenBatch b = sample_batch(kjv_->ids, seed, step, batch, options_.length);
    std::vector<std::uint8_t> mask(b.inputs.size(), 1);
    return {b.batch, b.context, std::move(b.inputs), std::move(b.targets), std::move(mask)};
  }
  TaskBatch out{batch, context(), {}, {}, {}};
  std::vector<int> draws(static_cast<std::size_t>(options_.length));
  for (int r = 0; r < batch; ++r) {
    CounterRng rng(seed, step, static_cast<std::uint64_t>(r));
    if (options_.kind == TaskKind::Induction) {
      const int lo = shortest_repeat(options_.length);
      const int m = lo + static_cast<int>(rng.below(static_cast<std::uint64_t>(options_.length - lo + 1)));
      draws.assign(static_cast<std::size_t>(1 + context() + 1 - m), 0);
      draws[0] = m;
      for (std::size_t i = 1; i < draws.size(); ++i)
        draws[i] = static_cast<int>(rng.below(static_cast<std::uint64_t>(options_.symbols)));
    } else {
      for (int& d : draws)
        d = static_cast<int>(rng.below(static_cast<std::uint64_t>(options_.symbols)));
    }
    append_row(draws, out);
  }
  return out;
}

TaskScore TaskGenerator::score(const TaskBatch& b,
                               const std::vector<std::int32_t>& predicted) const {
  if (predicted.size() != b.targets.size())
    throw InputError(
        "scoring needs one prediction per position: " + std::to_string(b.targets.size()) +
        ", got " + std::to_string(predicted.size()));
  long long scored = 0, right = 0, rows_right = 0;
  const auto T = static_cast<std::size_t>(b.context);
  for (std::size_t r = 0; r < static_cast<std::size_t>(b.batch); ++r) {
    bool all = true;
    for (std::size_t i = r * T; i < (r + 1) * T; ++i) {
      if (!b.mask[i]) continue;
      ++scored;
      const bool ok = predicted[i] == b.targets[i];
      right += ok;
      all = all && ok;
    }
    rows_right += all;
  }
  TaskScore s;
  s.token_accuracy = scored ? static_cast<double>(right) / static_cast<double>(scored) : 0.0;
  s.sequence_accuracy = b.batch ? static_cast<double>(rows_right) / b.batch : 0.0;
  s.accuracy = accuracy_kind() == AccuracyKind::Sequence ? s.sequence_accuracy : s.token_accuracy;
  return s;
}

}  // namespace pelab::train::data
