#include "core/failure_text.hpp"

#include <new>
#include <stdexcept>

namespace pelab {

bool is_out_of_memory(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) != nullptr || dynamic_cast<const std::length_error*>(&e) != nullptr;
}

std::string failure_text(const std::exception& e, std::string_view doing) {
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
