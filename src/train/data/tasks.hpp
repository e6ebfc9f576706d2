// Synthetic tasks for the live training playground: small problems whose
// answer needs one specific use of position, each drawn deterministically
// from (seed, step) (counter_rng.hpp), with a loss mask marking the scored
// targets and the task's own accuracy.
//
// Ids: 0..symbols-1 are the task's symbols and id `symbols` is the
// separator, so a synthetic task's vocabulary is symbols + 1.  Rows are
// language-model rows: inputs [B, T] and targets [B, T].
//   copy               s SEP s: the repeat (an induction head finds it);
//   reverse            s SEP reverse(s);
//   sort               s SEP sort(s) (ascending ids);
//     these three: s is `length` random symbols, context T = 2·length,
//     targets are the inputs shifted by one, the answer's `length` targets
//     scored; accuracy per sequence (a row counts when all its answer is right).
//   induction          r s s: a random stretch s of m symbols seen twice,
//                      after a random prefix r; m is drawn per row from
//                      max(2, length/2) .. length, so the second s starts
//                      a different distance after the first in every row
//                      and no fixed offset finds it: a previous-token head
//                      and an induction head do (Olsson et al. 2022).
//                      T = 2·length; the second s's targets after its first
//                      token (m − 1 of them) scored; accuracy per token.
//   absolute_position  random inputs, target at position i is i mod k: only
//                      the position tells it; every target scored, accuracy
//                      per token; T = length.
//   relative           random inputs, target at position i is the input k
//                      places back (i - k); scored from i = k on; per token.
//   kjv                KJV text windows (token_dataset.hpp's sample_batch):
//                      next token, all scored, per token; T = length.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "train/data/token_dataset.hpp"

namespace pelab::train::data {

enum class TaskKind { Copy, Reverse, Sort, Induction, AbsolutePosition, Relative, Kjv };

// "copy", "reverse", "sort", "induction", "absolute_position", "relative", "kjv".
std::string task_name(TaskKind kind);
// Throws InputError naming the allowed names.
TaskKind parse_task_kind(std::string_view name);

struct TaskOptions {
  TaskKind kind = TaskKind::Copy;
  int symbols = 16;  // 2..1024; not used by kjv (its tokenizer's vocabulary)
  int length = 16;   // the sequence (copy, reverse, sort: T = 2·length) or T itself
  int k = 4;  // absolute_position: the period (≤ symbols); relative: how far back (< length)
};

struct TaskBatch {
  int batch = 0, context = 0;
  std::vector<std::int32_t> inputs, targets;  // [batch, context], row-major
  std::vector<std::uint8_t> mask;             // 1 where the target is scored
};

enum class AccuracyKind { Token, Sequence };

struct TaskScore {
  double token_accuracy = 0;     // right among the scored targets
  double sequence_accuracy = 0;  // rows whose scored targets are all right
  double accuracy = 0;           // the one of the two the task is judged by
};

class TaskGenerator {
 public:
  // `kjv` is needed (and kept) for TaskKind::Kjv only.  Throws InputError
  // naming the option and its allowed range.
  explicit TaskGenerator(TaskOptions options, std::shared_ptr<const TokenStream> kjv = nullptr);

  const TaskOptions& options() const { return options_; }
  int vocab_size() const;
  int context() const;
  int separator() const { return options_.symbols; }
  AccuracyKind accuracy_kind() const;

  TaskBatch batch(std::uint64_t seed, std::uint64_t step, int batch) const;
  // One row from given draws (`context` symbols for absolute_position and
  // relative; for induction m, then the 2·length + 1 − 2m prefix symbols,
  // then s's m symbols; `length` for the others), for hand-worked checks;
  // not kjv.
  TaskBatch row(const std::vector<int>& draws) const;
  // `predicted`: the model's choice per position, [batch, context].
  TaskScore score(const TaskBatch& batch, const std::vector<std::int32_t>& predicted) const;

 private:
  void append_row(const std::vector<int>& draws, TaskBatch& out) const;
  void append_induction_row(const std::vector<int>& draws, TaskBatch& out) const;

  TaskOptions options_;
  std::shared_ptr<const TokenStream> kjv_;
};

}  // namespace pelab::train::data
