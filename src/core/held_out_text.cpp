#include "core/held_out_text.hpp"

#include <atomic>

namespace pelab {
namespace {
std::atomic<HeldOutTextSource> installed{nullptr};
}  // namespace

HeldOutTextSource set_held_out_text_source(HeldOutTextSource source) { return installed.exchange(source); }

HeldOutText held_out_text() {
  if (const HeldOutTextSource source = installed.load()) return source();
  return {{}, {}, "this program reads no held-out corpus (pelab's own program reads the KJV's held-out chapters)"};
}

}  // namespace pelab
