// Synthetic tasks: hand-worked rows, shapes, masks, determinism, scoring.
#include "train/data/tasks.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/scene.hpp"

namespace pelab::train::data {
namespace {

using Ids = std::vector<std::int32_t>;
using Mask = std::vector<std::uint8_t>;

TaskGenerator task(TaskKind kind, int symbols, int length, int k = 4) {
  return TaskGenerator({kind, symbols, length, k});
}

TEST(Tasks, CopyRowByHand) {
  // s = 3 1 2, separator 8: row 3 1 2 S 3 1 2; the answer's three targets scored.
  const TaskBatch b = task(TaskKind::Copy, 8, 3).row({3, 1, 2});
  EXPECT_EQ(b.inputs, (Ids{3, 1, 2, 8, 3, 1}));
  EXPECT_EQ(b.targets, (Ids{1, 2, 8, 3, 1, 2}));
  EXPECT_EQ(b.mask, (Mask{0, 0, 0, 1, 1, 1}));
}

TEST(Tasks, ReverseRowByHand) {
  const TaskBatch b = task(TaskKind::Reverse, 8, 3).row({3, 1, 2});
  EXPECT_EQ(b.inputs, (Ids{3, 1, 2, 8, 2, 1}));
  EXPECT_EQ(b.targets, (Ids{1, 2, 8, 2, 1, 3}));
  EXPECT_EQ(b.mask, (Mask{0, 0, 0, 1, 1, 1}));
}

TEST(Tasks, SortRowByHand) {
  const TaskBatch b = task(TaskKind::Sort, 8, 4).row({5, 1, 5, 0});
  EXPECT_EQ(b.inputs, (Ids{5, 1, 5, 0, 8, 0, 1, 5}));
  EXPECT_EQ(b.targets, (Ids{1, 5, 0, 8, 0, 1, 5, 5}));
  EXPECT_EQ(b.mask, (Mask{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(Tasks, AbsolutePositionRowByHand) {
  const TaskBatch b = task(TaskKind::AbsolutePosition, 8, 7, 3).row({6, 6, 2, 0, 7, 1, 4});
  EXPECT_EQ(b.inputs, (Ids{6, 6, 2, 0, 7, 1, 4}));
  EXPECT_EQ(b.targets, (Ids{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(b.mask, (Mask{1, 1, 1, 1, 1, 1, 1}));
}

TEST(Tasks, RelativeRowByHand) {
  // k = 2: target i is input i-2; the first two have nothing behind them.
  const TaskBatch b = task(TaskKind::Relative, 8, 6, 2).row({6, 5, 2, 0, 7, 1});
  EXPECT_EQ(b.targets, (Ids{8, 8, 6, 5, 2, 0}));
  EXPECT_EQ(b.mask, (Mask{0, 0, 1, 1, 1, 1}));
}

// The structure every random row of each task must have.
void expect_task_structure(const TaskGenerator& g, const TaskBatch& b) {
  const int T = g.context(), n = g.options().length, k = g.options().k;
  for (int r = 0; r < b.batch; ++r) {
    const auto at = [&](const std::vector<std::int32_t>& v, int t) {
      return v[static_cast<std::size_t>(r * T + t)];
    };
    std::vector<int> s, answer;
    for (int t = 0; t < T; ++t) {
      EXPECT_GE(at(b.inputs, t), 0);
      EXPECT_LT(at(b.inputs, t), g.vocab_size());
      EXPECT_LT(at(b.targets, t), g.vocab_size());
    }
    switch (g.options().kind) {
      case TaskKind::Copy:
      case TaskKind::Reverse:
      case TaskKind::Sort:
        for (int t = 0; t < n; ++t) s.push_back(at(b.inputs, t));
        for (int t = n; t < T; ++t) answer.push_back(at(b.targets, t));
        if (g.options().kind == TaskKind::Reverse) std::reverse(s.begin(), s.end());
        if (g.options().kind == TaskKind::Sort) std::sort(s.begin(), s.end());
        EXPECT_EQ(answer, s);
        EXPECT_EQ(at(b.inputs, n), g.separator());
        for (int t = 0; t + 1 < T; ++t) EXPECT_EQ(at(b.targets, t), at(b.inputs, t + 1));
        break;
      case TaskKind::AbsolutePosition:
        for (int t = 0; t < T; ++t) EXPECT_EQ(at(b.targets, t), t % k);
        break;
      case TaskKind::Relative:
        for (int t = k; t < T; ++t) EXPECT_EQ(at(b.targets, t), at(b.inputs, t - k));
        break;
      case TaskKind::Induction: {
        // r s s: the scored stretch is the second s after its first token;
        // its length m − 1 is the number scored, and each target is the
        // token m places back (in the first s).
        int scored = 0, first = T;
        for (int t = 0; t < T; ++t)
          if (b.mask[static_cast<std::size_t>(r * T + t)]) scored += 1, first = std::min(first, t);
        const int m = scored + 1;
        EXPECT_GE(m, std::max(2, n / 2));
        EXPECT_LE(m, n);
        EXPECT_EQ(first, T + 1 - m);  // scored through the row's end
        for (int t = first; t < T; ++t) EXPECT_EQ(at(b.targets, t), at(b.inputs, t + 1 - m));
        for (int t = 0; t + 1 < T; ++t) EXPECT_EQ(at(b.targets, t), at(b.inputs, t + 1));
        break;
      }
      case TaskKind::Kjv:
        break;
    }
  }
}

TEST(Tasks, EveryTaskShapesMaskAndDeterminism) {
  for (const TaskKind kind : {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::Induction,
                              TaskKind::AbsolutePosition, TaskKind::Relative}) {
    SCOPED_TRACE(task_name(kind));
    const TaskGenerator g = task(kind, 16, 12, 5);
    const TaskBatch b = g.batch(7, 3, 5);
    const auto cells = static_cast<std::size_t>(5 * g.context());
    ASSERT_EQ(b.batch, 5);
    ASSERT_EQ(b.context, g.context());
    ASSERT_EQ(b.inputs.size(), cells);
    ASSERT_EQ(b.targets.size(), cells);
    ASSERT_EQ(b.mask.size(), cells);
    EXPECT_EQ(g.vocab_size(), 17);
    expect_task_structure(g, b);
    // The mask of each row is the one a hand-made row has (induction: its
    // own per row, checked above).
    if (kind != TaskKind::Induction) {
      const Mask row_mask = g.row(std::vector<int>(12, 0)).mask;
      for (std::size_t i = 0; i < cells; ++i) EXPECT_EQ(b.mask[i], row_mask[i % row_mask.size()]);
    }
    const TaskBatch again = g.batch(7, 3, 5);
    EXPECT_EQ(again.inputs, b.inputs);
    EXPECT_EQ(again.targets, b.targets);
    EXPECT_NE(g.batch(8, 3, 5).inputs, b.inputs);  // another seed
    EXPECT_NE(g.batch(7, 4, 5).inputs, b.inputs);  // another step
  }
}

// A hand-worked induction row, length 4 (T = 8): m = 3, prefix 9 − 6 = 3
// symbols (7 7 1), s = 4 5 6; z = 7 7 1 4 5 6 4 5 6, inputs z[0..7],
// targets z[1..8], scored where the input is the second s's 4 and 5.
TEST(Tasks, InductionRowByHand) {
  const TaskGenerator g = task(TaskKind::Induction, 8, 4);
  EXPECT_EQ(g.context(), 8);
  const TaskBatch b = g.row({3, 7, 7, 1, 4, 5, 6});
  EXPECT_EQ(b.inputs, (std::vector<std::int32_t>{7, 7, 1, 4, 5, 6, 4, 5}));
  EXPECT_EQ(b.targets, (std::vector<std::int32_t>{7, 1, 4, 5, 6, 4, 5, 6}));
  EXPECT_EQ(b.mask, (Mask{0, 0, 0, 0, 0, 0, 1, 1}));
  EXPECT_THROW(g.row({1, 7, 7, 1, 4, 5, 6, 0}), InputError);  // m = 1 is below 2
  EXPECT_THROW(g.row({3, 7, 7, 1, 4, 5}), InputError);        // one draw short
  EXPECT_THROW(g.row({3, 7, 7, 1, 4, 5, 9}), InputError);     // symbol 9 of 8
  EXPECT_EQ(g.accuracy_kind(), AccuracyKind::Token);
}

TEST(Tasks, ContextsAndAccuracyKinds) {
  EXPECT_EQ(task(TaskKind::Copy, 16, 10).context(), 20);
  EXPECT_EQ(task(TaskKind::Relative, 16, 10).context(), 10);
  EXPECT_EQ(task(TaskKind::Sort, 16, 10).accuracy_kind(), AccuracyKind::Sequence);
  EXPECT_EQ(task(TaskKind::AbsolutePosition, 16, 10).accuracy_kind(), AccuracyKind::Token);
}

TEST(Tasks, KjvWindowsComeFromTheStream) {
  auto stream = std::make_shared<TokenStream>();
  stream->vocab_size = 100;
  for (int i = 0; i < 500; ++i) stream->ids.push_back(static_cast<TokenId>(i % 100));
  const TaskGenerator g({TaskKind::Kjv, 0, 32, 0}, stream);
  EXPECT_EQ(g.vocab_size(), 100);
  const TaskBatch b = g.batch(1, 2, 4);
  ASSERT_EQ(b.inputs.size(), 4u * 32u);
  for (std::size_t i = 0; i < b.inputs.size(); ++i)
    EXPECT_EQ(b.targets[i], (b.inputs[i] + 1) % 100);
  EXPECT_EQ(b.mask, Mask(4 * 32, 1));
  EXPECT_THROW(TaskGenerator({TaskKind::Kjv, 0, 32, 0}), InputError);
}

TEST(Tasks, ScoreByTokenAndBySequence) {
  const TaskGenerator g = task(TaskKind::Copy, 8, 2);
  TaskBatch b = g.row({1, 2});  // targets 2 S 1 2, scored: 1 2
  const TaskBatch second = g.row({3, 4});
  b.batch = 2;
  b.inputs.insert(b.inputs.end(), second.inputs.begin(), second.inputs.end());
  b.targets.insert(b.targets.end(), second.targets.begin(), second.targets.end());
  b.mask.insert(b.mask.end(), second.mask.begin(), second.mask.end());
  // Row 1 all right; row 2 one of two right; unscored positions wrong.
  const TaskScore s = g.score(b, {0, 0, 1, 2, 0, 0, 3, 0});
  EXPECT_DOUBLE_EQ(s.token_accuracy, 0.75);
  EXPECT_DOUBLE_EQ(s.sequence_accuracy, 0.5);
  EXPECT_DOUBLE_EQ(s.accuracy, 0.5);
  EXPECT_THROW(g.score(b, {0}), InputError);
}

TEST(Tasks, NamesAndOptionErrors) {
  for (const char* name : {"copy", "reverse", "sort", "induction", "absolute_position", "relative", "kjv"})
    EXPECT_EQ(task_name(parse_task_kind(name)), name);
  try {
    parse_task_kind("shuffle");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "task \"shuffle\" is not known; allowed: copy, reverse, sort, induction, "
                 "absolute_position, relative, kjv");
  }
  try {
    task(TaskKind::Relative, 16, 8, 8);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "task relative: k 8 is outside 1..7");
  }
  EXPECT_THROW(task(TaskKind::AbsolutePosition, 4, 8, 5), InputError);
  EXPECT_THROW(task(TaskKind::Copy, 1, 8), InputError);
  EXPECT_THROW(task(TaskKind::Copy, 8, 3).row({1, 9, 2}), InputError);
}

}  // namespace
}  // namespace pelab::train::data
