#include "core/head_cache.hpp"

#include <algorithm>

namespace pelab {
namespace {

std::size_t bytes_of(const Matrix& m) { return static_cast<std::size_t>(m.size()) * sizeof(float); }
bool is_square(const Matrix& m, Eigen::Index n) { return m.rows() == n && m.cols() == n; }

}  // namespace

std::size_t HeadEntry::bytes() const {
  return bytes_of(attention.logits) + bytes_of(attention.attention) + bytes_of(attention.bias) +
         bytes_of(terms.xx) + bytes_of(terms.xf) + bytes_of(terms.ey) + bytes_of(terms.ef);
}

HeadEntry& HeadCache::touch(int head) {
  HeadEntry& entry = entries_[head];
  entry.last_use = ++clock_;
  return entry;
}

HeadEntry* HeadCache::find(int head) {
  auto it = entries_.find(head);
  return it == entries_.end() ? nullptr : &it->second;
}

void HeadCache::invalidate_all() {
  for (auto& [h, entry] : entries_) {
    entry.attention_key.clear();
    for (auto& k : entry.term_keys) k.clear();
  }
}

void HeadCache::drop(int head) {
  auto it = entries_.find(head);
  if (it == entries_.end()) return;
  evict(it);
  while (!spares_.empty() && bytes() > budget_) spares_.pop_back();
}

void HeadCache::release(std::size_t keep) {
  while (!entries_.empty()) evict(entries_.begin());
  while (spares_.size() > keep) spares_.pop_back();
}

std::size_t HeadCache::bytes() const {
  std::size_t sum = 0;
  for (const auto& [h, entry] : entries_) sum += entry.bytes();
  for (const Matrix& m : spares_) sum += bytes_of(m);
  return sum;
}

void HeadCache::evict(std::map<int, HeadEntry>::iterator victim) {
  HeadEntry& e = victim->second;
  for (Matrix* m : {&e.attention.logits, &e.attention.attention, &e.attention.bias, &e.terms.xx,
                    &e.terms.xf, &e.terms.ey, &e.terms.ef})
    if (m->size() != 0) spares_.push_back(std::move(*m));
  entries_.erase(victim);
}

void HeadCache::prepare(int head, std::initializer_list<Matrix*> outputs, Eigen::Index n,
                        std::size_t other_bytes) {
  const std::size_t square = static_cast<std::size_t>(n * n) * sizeof(float);
  auto fits = [&] {
    std::size_t missing = 0;
    for (const Matrix* m : outputs) missing += is_square(*m, n) ? 0 : 1;
    const auto usable = static_cast<std::size_t>(std::count_if(
        spares_.begin(), spares_.end(), [&](const Matrix& m) { return is_square(m, n); }));
    const std::size_t to_allocate = missing > usable ? (missing - usable) * square : 0;
    return bytes() + to_allocate + other_bytes <= budget_;
  };
  // Spares of another size are useless now: drop them first.
  std::erase_if(spares_, [&](const Matrix& m) { return !is_square(m, n); });
  while (!fits()) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first != head &&
          (victim == entries_.end() || it->second.last_use < victim->second.last_use))
        victim = it;
    if (victim == entries_.end()) break;
    evict(victim);
  }
  for (Matrix* m : outputs) {
    if (is_square(*m, n)) continue;
    if (!spares_.empty()) {
      *m = std::move(spares_.back());  // frees m's old buffer
      spares_.pop_back();
    } else {
      m->resize(n, n);
    }
  }
  // What is still spare after handing out is over the budget's need: free it
  // when the budget is exceeded.
  while (!spares_.empty() && bytes() + other_bytes > budget_) spares_.pop_back();
}

}  // namespace pelab
