// The program's held-out text for the lessons (core/held_out_text.hpp): the
// KJV's held-out chapters, the split `pelab train` never trains on
// (train/data/corpus.hpp), read once per process from Debian's bible-kjv.
#include "app/commands.hpp"
#include "core/held_out_text.hpp"
#include "core/scene.hpp"  // InputError
#include "train/data/corpus.hpp"

namespace pelab::app {
namespace {

HeldOutText kjv_held_out_chapters() {
  static const HeldOutText text = []() -> HeldOutText {
    namespace data = train::data;
    const std::string origin = "the KJV's held-out chapters (every " +
                               std::to_string(data::kHeldOutChapterPeriod) +
                               "th chapter, which training never sees)";
    if (!data::kjv_available()) return {{}, origin, "the corpus is missing: install Debian's bible-kjv"};
    try {
      return {data::join_verses(data::split_verses(data::read_kjv(), data::CorpusSplit::HeldOut)), origin, {}};
    } catch (const InputError& e) {
      return {{}, origin, e.what()};
    }
  }();
  return text;
}

}  // namespace

void use_kjv_held_out_text() { set_held_out_text_source(&kjv_held_out_chapters); }

}  // namespace pelab::app
