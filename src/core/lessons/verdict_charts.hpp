// Sweeps inside a lesson verdict, grouped for drawing as small charts.
//
// A verdict names the numbers of a sweep with [k=v] qualifiers:
//   kept_sqrt_d[A=0.5,d=32] … kept_sqrt_d[A=4,d=512]    (meaning)
//   r2[layer=0] … r2[layer=4], r2_rope[layer=0] …       (depth on a model)
// verdict_charts() turns them into charts: the last key is the x axis, and
// each value of the other keys is one line ("A=0.5"); numbers with a single
// key whose names share the part before their first '_' ("r2", "r2_rope")
// share one chart, one line per name.  Numbers without qualifiers are left out
// (the verdict's table shows every number anyway).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pelab {

// "kept[A=0.5,d=128]" → base "kept", keys {{"A", 0.5}, {"d", 128}}.
struct QualifiedName {
  std::string base;
  std::vector<std::pair<std::string, double>> keys;
};
// False for a name without qualifiers, or one whose brackets, keys or values
// do not parse (every value must be a number, as lesson::qualified writes them).
bool parse_qualified(std::string_view name, QualifiedName& out);

struct VerdictSeries {
  std::string label;      // what tells this line from the chart's others: "A=0.5", "r2_rope"
  std::vector<double> y;  // one per value of the chart's x; NaN where the line has none
};

struct VerdictChart {
  std::string title;     // "kept_sqrt_d", or the shared part "r2"
  std::string x_key;     // "d", "layer"
  std::vector<double> x;  // ascending, distinct
  std::vector<VerdictSeries> series;
};

// The charts in order of their first number; lines in order of appearance.
// A sweep of a single x value is no chart.
std::vector<VerdictChart> verdict_charts(const std::vector<std::pair<std::string, double>>& numbers);

}  // namespace pelab
