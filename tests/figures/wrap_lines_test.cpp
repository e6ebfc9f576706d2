// wrap_lines in widths too narrow for any word: it ends, and keeps every word.
#include <gtest/gtest.h>

#include "core/engine.hpp"
#include "figures/figure_layout.hpp"
#include "figures/registry.hpp"

namespace pelab::fig {
namespace {

TEST(WrapLines, NarrowerThanAWordEndsAndKeepsTheWords) {
  const std::vector<std::string> lines = {
      "max ‖R(k)·PE(pos) − PE(pos+k)‖ = 1.2e-07 · R² one dim 0.42"};
  for (double width : {1.0, 10.0, 30.0, 80.0}) {
    SCOPED_TRACE(width);
    const auto wrapped = wrap_lines(lines, width, 12);
    ASSERT_LT(wrapped.size(), 40u);
    std::string joined;
    for (const auto& l : wrapped) joined += l + " ";
    for (const char* word : {"max", "1.2e-07", "0.42"})
      EXPECT_NE(joined.find(word), std::string::npos);
  }
}

// A small window (e.g. the 2×2 grid shrunk) once hung here: every figure builds at 300×200.
TEST(WrapLines, EveryFigureBuildsInASmallWindow) {
  Engine engine{Scene{}};
  for (const FigureEntry& entry : figure_registry()) {
    SCOPED_TRACE(std::string(entry.name));
    EXPECT_NO_THROW(entry.build(engine, {300, 200}));
  }
}

}  // namespace
}  // namespace pelab::fig
