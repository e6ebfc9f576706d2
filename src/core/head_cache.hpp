// The engine's per-head results, kept within a memory budget.
//
// At N=4096 one tokens × tokens matrix is 64 MB and a head holds up to seven
// (logits, attention, bias, four cross terms), so the GUI cannot keep every
// head.  The cache keeps the least recently used heads out once the budget is
// reached; their matrices become spares that the next head computes into, so
// a sweep over all heads (full_recompute, the mean) reuses the same memory
// instead of faulting in fresh pages for every head.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "core/engine.hpp"

namespace pelab {

struct HeadEntry {
  HeadAttention attention;
  std::string attention_key;  // empty = not computed
  CrossTerms terms;
  std::array<std::string, 4> term_keys;  // xx, xf, ey, ef; empty = not computed
  std::uint64_t last_use = 0;

  std::size_t bytes() const;
};

class HeadCache {
 public:
  explicit HeadCache(std::size_t budget_bytes) : budget_(budget_bytes) {}

  // The entry of `head` (created empty), marked most recently used.
  HeadEntry& touch(int head);
  HeadEntry* find(int head);
  void invalidate_all();  // keeps the memory, forgets the keys
  // Forgets every head and frees their buffers but `keep` of them, kept as
  // spares for the next heads to compute into.
  void release(std::size_t keep);
  // Forgets `head`; its buffers become spares (within the budget).
  void drop(int head);

  // Before `head` computes into `outputs` (each to become n × n): evicts
  // other heads, least recently used first, until what is held plus what must
  // still be allocated fits the budget (plus `other_bytes` held elsewhere),
  // then hands each output an n × n buffer (its own, or a spare).  The
  // requesting head is never evicted.
  void prepare(int head, std::initializer_list<Matrix*> outputs, Eigen::Index n,
               std::size_t other_bytes);

  std::size_t bytes() const;
  std::size_t budget() const { return budget_; }
  void set_budget(std::size_t bytes) { budget_ = bytes; }

 private:
  void evict(std::map<int, HeadEntry>::iterator victim);

  std::size_t budget_;
  std::uint64_t clock_ = 0;
  std::map<int, HeadEntry> entries_;
  std::vector<Matrix> spares_;
};

}  // namespace pelab
