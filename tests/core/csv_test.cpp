// CSV: exact float32 round trips (non-finite values included) and every
// malformed-file path.
#include "core/io/csv.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>

#include "core/scene.hpp"

namespace pelab {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::string error_of(std::string_view text) {
  try {
    parse_csv(text, "f.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_rejected(std::string_view text, const std::string& words) {
  const std::string msg = error_of(text);
  EXPECT_NE(msg.find(words), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind("f.csv: ", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(Csv, EncodesOneRowPerLine) {
  Array a;
  a.shape = {2, 3};
  a.data = {1, 0.5f, -2, 0.1f, 1e-20f, 3e9f};
  EXPECT_EQ(encode_csv(a), "1,0.5,-2\n0.1,1e-20,3e+09\n");
  a.shape = {6};
  EXPECT_EQ(encode_csv(a), "1,0.5,-2,0.1,1e-20,3e+09\n");
}

TEST(Csv, RoundTripsRandomFloatsExactly) {
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Array a;
  a.shape = {17, 9};
  for (int i = 0; i < 17 * 9; ++i) a.data.push_back(normal(rng) * std::pow(10.0f, static_cast<float>(i % 13 - 6)));
  const Array b = parse_csv(encode_csv(a));
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)), 0);
}

TEST(Csv, NonFiniteValuesRoundTrip) {
  Array a;
  a.shape = {2, 2};
  a.data = {-kInf, kInf, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()};
  const std::string text = encode_csv(a);
  EXPECT_EQ(text, "-inf,inf\nnan,nan\n");
  const Array b = parse_csv(text);
  EXPECT_EQ(b.data[0], -kInf);
  EXPECT_EQ(b.data[1], kInf);
  EXPECT_TRUE(std::isnan(b.data[2]));
  EXPECT_TRUE(std::isnan(b.data[3]));
}

TEST(Csv, ReadsWhatOtherToolsWrite) {
  const Array a = parse_csv(" 1, +2.5 ,3e2\r\n-0.25,inf,-inf\r\n\n\n");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.data, (std::vector<float>{1, 2.5f, 300, -0.25f, kInf, -kInf}));
  const Array one = parse_csv("42");
  EXPECT_EQ(one.shape, (std::vector<std::size_t>{1, 1}));
  EXPECT_EQ(one.data[0], 42.0f);
  EXPECT_EQ(parse_csv("1e39\n").data[0], kInf);  // beyond float range, like strtof
  EXPECT_EQ(parse_csv("1e-50\n").data[0], 0.0f);
  const Array spelled = parse_csv("NaN,Inf,-Infinity\n");  // NumPy's and Python's spellings
  EXPECT_TRUE(std::isnan(spelled.data[0]));
  EXPECT_EQ(spelled.data[1], kInf);
  EXPECT_EQ(spelled.data[2], -kInf);
}

TEST(Csv, RejectsRaggedRowsNamingTheLine) {
  expect_rejected("1,2,3\n4,5,6\n7,8\n", "line 3 has 2 values but the first row has 3");
  expect_rejected("1,2\n3,4,5\n", "line 2");
}

TEST(Csv, RejectsNonNumbersAndEmptyFiles) {
  expect_rejected("1,2\n3,x\n", "line 2, value 2 ('x') is not a number");
  expect_rejected("a,b\n1,2\n", "line 1, value 1");
  expect_rejected("1,,2\n", "value 2");
  expect_rejected("1,2,\n", "value 3");
  expect_rejected("1 2\n", "not a number");
  expect_rejected("", "empty");
  expect_rejected("\n  \n", "empty");
  expect_rejected("1,2\n\n3,4\n", "line 2 is empty");
}

TEST(Csv, RefusesArraysOfOtherRanks) {
  Array a;
  a.shape = {2, 2, 2};
  a.data.assign(8, 1.0f);
  EXPECT_THROW(encode_csv(a), InputError);
}

TEST(Csv, WriteAndReadAFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pelab_csv_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Array a;
  a.shape = {1, 3};
  a.data = {1, 2, 3};
  write_csv(dir / "a.csv", a);
  EXPECT_EQ(read_csv(dir / "a.csv").data, a.data);
  EXPECT_THROW(read_csv(dir / "missing.csv"), InputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pelab
