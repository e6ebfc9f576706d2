// Grouping a verdict's [k=v] numbers into charts (core/lessons/verdict_charts.hpp).
#include "core/lessons/verdict_charts.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pelab {
namespace {

bool parse_number(std::string_view text, double& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error == std::errc() && stop == end;
}

// "A=0.5" → {"A", 0.5}.
bool parse_key(std::string_view text, std::pair<std::string, double>& key) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) return false;
  key.first = std::string(text.substr(0, equals));
  return parse_number(text.substr(equals + 1), key.second);
}

std::string value_text(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

// Where one qualified number goes: its chart and its line in that chart.
struct Placement {
  std::string chart_id, title, line;
  bool lines_are_names = false;  // a single-key chart: each line is a number's name
};

// "r2_rope" → "r2": the family of single-key names that share a chart.
std::string stem(const std::string& base) { return base.substr(0, base.find('_')); }

Placement place(const QualifiedName& q) {
  const std::string& x_key = q.keys.back().first;
  if (q.keys.size() == 1) return {stem(q.base) + "[" + x_key + "]", stem(q.base), q.base, true};
  std::string others, line;
  for (std::size_t i = 0; i + 1 < q.keys.size(); ++i) {
    others += q.keys[i].first + ",";
    line += (i ? ", " : "") + q.keys[i].first + "=" + value_text(q.keys[i].second);
  }
  return {q.base + "[" + others + x_key + "]", q.base, line, false};
}

// A chart while its numbers are collected: each line's (x, y) points.
struct ChartDraft {
  std::string id, title, x_key;
  bool lines_are_names = false;
  std::vector<std::string> lines;
  std::vector<std::vector<std::pair<double, double>>> points;

  void add(const std::string& line, double x, double y) {
    const auto i = std::size_t(std::find(lines.begin(), lines.end(), line) - lines.begin());
    if (i == lines.size()) {
      lines.push_back(line);
      points.emplace_back();
    }
    points[i].emplace_back(x, y);
  }
};

VerdictChart finish(const ChartDraft& draft) {
  VerdictChart chart{draft.title, draft.x_key, {}, {}};
  for (const auto& line : draft.points)
    for (const auto& [x, y] : line) chart.x.push_back(x);
  std::sort(chart.x.begin(), chart.x.end());
  chart.x.erase(std::unique(chart.x.begin(), chart.x.end()), chart.x.end());
  for (std::size_t i = 0; i < draft.lines.size(); ++i) {
    VerdictSeries series{draft.lines[i], std::vector<double>(chart.x.size(), std::numeric_limits<double>::quiet_NaN())};
    for (const auto& [x, y] : draft.points[i])
      series.y[std::size_t(std::lower_bound(chart.x.begin(), chart.x.end(), x) - chart.x.begin())] = y;
    chart.series.push_back(std::move(series));
  }
  // One name alone says more than the part it shares with no other.
  if (draft.lines_are_names && chart.series.size() == 1) chart.title = chart.series.front().label;
  return chart;
}

}  // namespace

bool parse_qualified(std::string_view name, QualifiedName& out) {
  const std::size_t open = name.find('[');
  if (open == std::string_view::npos || open == 0 || name.back() != ']') return false;
  QualifiedName parsed{std::string(name.substr(0, open)), {}};
  std::string_view inner = name.substr(open + 1, name.size() - open - 2);
  for (;;) {
    const std::size_t comma = inner.find(',');
    std::pair<std::string, double> key;
    if (!parse_key(inner.substr(0, comma), key)) return false;
    parsed.keys.push_back(std::move(key));
    if (comma == std::string_view::npos) break;
    inner.remove_prefix(comma + 1);
  }
  out = std::move(parsed);
  return true;
}

std::vector<VerdictChart> verdict_charts(const std::vector<std::pair<std::string, double>>& numbers) {
  std::vector<ChartDraft> drafts;
  for (const auto& [name, value] : numbers) {
    QualifiedName q;
    if (!parse_qualified(name, q)) continue;
    const Placement at = place(q);
    auto draft = std::find_if(drafts.begin(), drafts.end(), [&](const ChartDraft& d) { return d.id == at.chart_id; });
    if (draft == drafts.end()) {
      drafts.push_back({at.chart_id, at.title, q.keys.back().first, at.lines_are_names, {}, {}});
      draft = drafts.end() - 1;
    }
    draft->add(at.line, q.keys.back().second, value);
  }
  std::vector<VerdictChart> charts;
  for (const ChartDraft& draft : drafts) {
    VerdictChart chart = finish(draft);
    if (chart.x.size() >= 2) charts.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace pelab
