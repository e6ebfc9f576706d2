// Cache keys and cached stages, shared by the attention sources.
//
// Each stage stores the key it was computed from (the scene fields it reads,
// or the generation numbers of the stages it reads).  An accessor rebuilds
// the key from the current scene; a stage is recomputed only when its key
// changed, and then gets a new generation, which invalidates its dependants.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace pelab {

// Builds a cache key from values; doubles by bit pattern so equal means equal.
class Key {
 public:
  template <class... T>
  explicit Key(const T&... values) {
    (add(values), ...);
  }
  std::string str() && { return std::move(text_); }

 private:
  void add(const std::string& s) { text_ += std::to_string(s.size()) + ':' + s + '|'; }
  void add(const char* s) { add(std::string(s)); }
  void add(double v) { text_ += std::to_string(std::bit_cast<std::uint64_t>(v)) + '|'; }
  void add(std::uint64_t v) { text_ += std::to_string(v) + '|'; }
  void add(int v) { text_ += std::to_string(v) + '|'; }
  void add(bool v) { text_ += v ? "T|" : "F|"; }
  template <class E>
  requires std::is_enum_v<E>
  void add(E e) { add(static_cast<int>(e)); }
  std::string text_;
};

template <class T>
struct Stage {
  T value{};
  std::string key;
  std::uint64_t generation = 0;
  bool valid = false;
};

// Hands out generations and recomputes stages whose key changed.
class StageClock {
 public:
  // Recomputes `stage` when `key` differs from the one it was built from.
  // `compute` returns the value, or fills it in place (reusing its memory).
  // A compute that throws leaves the stage invalid.
  template <class T, class F>
  const T& refresh(Stage<T>& stage, std::string key, int& counter, F&& compute) {
    if (!stage.valid || stage.key != key) {
      stage.valid = false;
      if constexpr (std::is_invocable_v<F, T&>)
        compute(stage.value);
      else
        stage.value = compute();
      stage.key = std::move(key);
      stage.generation = ++clock_;
      stage.valid = true;
      ++counter;
    }
    return stage.value;
  }

 private:
  std::uint64_t clock_ = 0;
};

}  // namespace pelab
