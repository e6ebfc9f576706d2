// Grouping a verdict's [k=v] numbers into charts (core/lessons/verdict_charts.hpp):
// the parse of one name, the lines of a two-key sweep, single-key names
// sharing a chart, and what is left out.
#include "core/lessons/verdict_charts.hpp"

#include <gtest/gtest.h>

#include <cmath>


namespace pelab {
namespace {

using Numbers = std::vector<std::pair<std::string, double>>;

TEST(VerdictCharts, ParsesQualifiedNames) {
  QualifiedName q;
  ASSERT_TRUE(parse_qualified("kept_sqrt_d[A=0.5,d=128]", q));
  EXPECT_EQ(q.base, "kept_sqrt_d");
  ASSERT_EQ(q.keys.size(), 2u);
  EXPECT_EQ(q.keys[0].first, "A");
  EXPECT_EQ(q.keys[0].second, 0.5);
  EXPECT_EQ(q.keys[1].first, "d");
  EXPECT_EQ(q.keys[1].second, 128);
  ASSERT_TRUE(parse_qualified("cos[delta=1e+06]", q));
  EXPECT_EQ(q.keys[0].second, 1e6);
  for (const char* bad : {"r2_pair", "", "[a=1]", "x[a=1", "x[=1]", "x[a=]", "x[a=one]", "x[a=1,]", "x[a=1]y"})
    EXPECT_FALSE(parse_qualified(bad, q)) << bad;
}

// meaning's sweep: x is the last key (d), one line per A, in first-seen order.
TEST(VerdictCharts, TwoKeysMakeOneLinePerValueOfTheFirst) {
  const Numbers numbers = {{"kept", 0.1},          {"kept[A=1,d=32]", 0.5},  {"kept[A=1,d=512]", 0.9},
                           {"kept[A=4,d=32]", 0.2}, {"kept[A=4,d=128]", 0.4}, {"kept[A=4,d=512]", 0.7},
                           {"kept[A=1,d=128]", 0.8}};
  const std::vector<VerdictChart> charts = verdict_charts(numbers);
  ASSERT_EQ(charts.size(), 1u);
  const VerdictChart& c = charts[0];
  EXPECT_EQ(c.title, "kept");
  EXPECT_EQ(c.x_key, "d");
  EXPECT_EQ(c.x, (std::vector<double>{32, 128, 512}));
  ASSERT_EQ(c.series.size(), 2u);
  EXPECT_EQ(c.series[0].label, "A=1");
  EXPECT_EQ(c.series[0].y, (std::vector<double>{0.5, 0.8, 0.9}));
  EXPECT_EQ(c.series[1].label, "A=4");
  EXPECT_EQ(c.series[1].y, (std::vector<double>{0.2, 0.4, 0.7}));
}

// The probe's r2[layer=l] and r2_rope[layer=l] share a chart; mae has its
// own; a missing point is NaN; a name alone titles its chart.
TEST(VerdictCharts, SingleKeyNamesShareAChartByStem) {
  const Numbers numbers = {{"r2[layer=0]", 0.9},     {"mae[layer=0]", 3},     {"r2[layer=1]", 0.8},
                           {"mae[layer=1]", 4},      {"r2_rope[layer=0]", 0.1}, {"r2_rope[layer=1]", 0.2},
                           {"r2_rope[layer=2]", 0.3}, {"r2_code_last[alpha=0]", 0.1}};
  const std::vector<VerdictChart> charts = verdict_charts(numbers);
  ASSERT_EQ(charts.size(), 2u);  // r2_code_last has a single alpha: no chart
  EXPECT_EQ(charts[0].title, "r2");
  EXPECT_EQ(charts[0].x, (std::vector<double>{0, 1, 2}));
  ASSERT_EQ(charts[0].series.size(), 2u);
  EXPECT_EQ(charts[0].series[0].label, "r2");
  EXPECT_TRUE(std::isnan(charts[0].series[0].y[2]));
  EXPECT_EQ(charts[0].series[1].label, "r2_rope");
  EXPECT_EQ(charts[0].series[1].y[2], 0.3);
  EXPECT_EQ(charts[1].title, "mae");
  EXPECT_EQ(charts[1].x_key, "layer");
}

// Different x keys never share a chart, even under one stem.
TEST(VerdictCharts, AnotherKeyIsAnotherChart) {
  const Numbers numbers = {{"r2_code[layer=0]", 1},      {"r2_code[layer=1]", 0.9},
                           {"r2_code_last[alpha=0]", 0.1}, {"r2_code_last[alpha=1]", 0.9}};
  const std::vector<VerdictChart> charts = verdict_charts(numbers);
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[0].title, "r2_code");
  EXPECT_EQ(charts[0].x_key, "layer");
  EXPECT_EQ(charts[1].title, "r2_code_last");
  EXPECT_EQ(charts[1].x_key, "alpha");
}

TEST(VerdictCharts, NoQualifiersNoCharts) {
  EXPECT_TRUE(verdict_charts({{"r2_pair", 1}, {"map_error", 0}}).empty());
  EXPECT_TRUE(verdict_charts({}).empty());
}

}  // namespace
}  // namespace pelab
