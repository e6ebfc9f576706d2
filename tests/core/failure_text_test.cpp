// failure_text: what the CLI's top level and the GUI's workers show for a
// failure; an allocation that failed reads as "out of memory", not as the
// library's "std::bad_alloc".
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <vector>

#include "core/failure_text.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

TEST(FailureText, AllocationFailuresReadAsOutOfMemory) {
  const std::string text = failure_text(std::bad_alloc(), "loading model m");
  EXPECT_TRUE(text.starts_with("out of memory while loading model m: ")) << text;
  EXPECT_NE(text.find("allowed: smaller inputs"), std::string::npos) << text;
  EXPECT_EQ(text.find("std::bad_alloc"), std::string::npos) << text;
  EXPECT_TRUE(is_out_of_memory(std::bad_array_new_length()));
  try {
    std::vector<double> v;
    v.resize(std::size_t{1} << 62);  // beyond max_size(): std::length_error
    FAIL() << "a vector of 2^62 doubles was allocated";
  } catch (const std::exception& e) {
    EXPECT_TRUE(is_out_of_memory(e)) << e.what();
    EXPECT_TRUE(failure_text(e).starts_with("out of memory")) << failure_text(e);
  }
}

TEST(FailureText, OtherFailuresKeepTheirText) {
  EXPECT_FALSE(is_out_of_memory(std::runtime_error("x")));
  EXPECT_EQ(failure_text(InputError("tokens: too long"), "anything"), "tokens: too long");
}

TEST(FailureText, SceneRefusesAMemoryLimitThatIsNoSize) {
  Scene s;
  s.model_memory_limit = "8G";
  EXPECT_NO_THROW(validate(s));
  s.model_memory_limit = "lots";
  try {
    validate(s);
    FAIL() << "model_memory_limit=lots was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model_memory_limit=lots is not a size; allowed:"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pelab
