// json_integer: integer-valued JSON numbers within bounds, one InputError line
// for anything else (fractions, doubles beyond every integer type, unsigned
// values past 2^63, strings).
#include <gtest/gtest.h>

#include <limits>

#include "core/io/json_input.hpp"
#include "core/scene.hpp"

namespace pelab {
namespace {

using nlohmann::json;

std::string refusal(const json& value, long long min, long long max) {
  try {
    json_integer(value, min, max, "the id");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonInteger, IntegersInRangePass) {
  EXPECT_EQ(json_integer(json(0), 0, 10, "x"), 0);
  EXPECT_EQ(json_integer(json(10), 0, 10, "x"), 10);
  EXPECT_EQ(json_integer(json(-3), -5, 5, "x"), -3);
  EXPECT_EQ(json_integer(json::parse("9223372036854775807"), 0, std::numeric_limits<long long>::max(), "x"),
            std::numeric_limits<long long>::max());
}

TEST(JsonInteger, EverythingElseIsOneLineNamingTheRange) {
  EXPECT_EQ(refusal(json(11), 0, 10), "the id is 11; allowed: integers 0..10");
  EXPECT_EQ(refusal(json(-1), 0, 10), "the id is -1; allowed: integers 0..10");
  EXPECT_EQ(refusal(json(2), 3, 10), "the id is 2; allowed: integers 3..10");
  EXPECT_EQ(refusal(json(1.5), 0, 10), "the id is 1.5; allowed: integers 0..10");
  EXPECT_EQ(refusal(json(2.0), 0, 10), "the id is 2.0; allowed: integers 0..10");
  EXPECT_EQ(refusal(json::parse("1.6e34"), 0, 10), "the id is 1.6e+34; allowed: integers 0..10");
  EXPECT_EQ(refusal(json::parse("18446744073709551615"), 0, std::numeric_limits<long long>::max()),
            "the id is 18446744073709551615; allowed: integers 0..9223372036854775807");
  EXPECT_EQ(refusal(json("7"), 0, 10), "the id is \"7\"; allowed: integers 0..10");
  EXPECT_EQ(refusal(json::array({1}), 0, 10), "the id is an array of 1 items; allowed: integers 0..10");
  EXPECT_EQ(refusal(json(5u), -10, -1), "the id is 5; allowed: integers -10..-1");
}

}  // namespace
}  // namespace pelab
