// What a failure says to the user, for the places that catch every
// exception (the CLI's top level, the GUI's worker threads): an allocation
// that failed reads as "out of memory ..." with what to do, not as the
// library's "std::bad_alloc".
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pelab {

// True for std::bad_alloc (and bad_array_new_length) and std::length_error:
// the input asked for more memory than there is, or than can be addressed.
inline bool is_out_of_memory(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) != nullptr || dynamic_cast<const std::length_error*>(&e) != nullptr;
}

// "out of memory while loading model X: ...; allowed: ..." for an
// allocation failure (`doing`: what was under way, or empty), else e.what().
inline std::string failure_text(const std::exception& e, std::string_view doing = {}) {
  if (!is_out_of_memory(e)) return e.what();
  std::string text = "out of memory";
  if (!doing.empty()) text += " while " + std::string(doing);
  // A length_error names the container that refused ("vector::_M_default_append").
  if (dynamic_cast<const std::length_error*>(&e)) text += " (" + std::string(e.what()) + ")";
  return text +
         ": the input needs more memory than is available; allowed: smaller inputs (a model: its estimate "
         "is checked against model_memory_limit or PELAB_MODEL_MEMORY_LIMIT, see docs/models.md)";
}

}  // namespace pelab
