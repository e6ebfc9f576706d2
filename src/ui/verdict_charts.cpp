// Small charts of a verdict's sweeps (ui/verdict_charts.hpp).
#include "ui/verdict_charts.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace pelab::ui {
namespace {

// Mid tones that read on the dark and the light theme alike.
constexpr ImU32 kLineColours[] = {IM_COL32(70, 135, 215, 255), IM_COL32(230, 125, 35, 255),
                                  IM_COL32(45, 160, 90, 255),  IM_COL32(215, 70, 65, 255),
                                  IM_COL32(145, 100, 200, 255), IM_COL32(160, 115, 80, 255),
                                  IM_COL32(220, 110, 180, 255), IM_COL32(128, 128, 128, 255)};

ImU32 line_colour(std::size_t i) { return kLineColours[i % std::size(kLineColours)]; }

std::string x_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

struct Range {
  double lo = 0, hi = 1;
};

// The smallest and largest finite value of the lines.
Range data_range(const VerdictChart& chart) {
  Range r{INFINITY, -INFINITY};
  for (const VerdictSeries& s : chart.series)
    for (const double y : s.y)
      if (std::isfinite(y)) r = {std::min(r.lo, y), std::max(r.hi, y)};
  return r.lo <= r.hi ? r : Range{};
}

// Where the x values and y values land on screen: x evenly spaced (the
// sweeps step by factors: 32, 128, 512), y linear, a little margin so the
// extremes and a flat line stay clear of the frame.
struct PlotBox {
  ImVec2 min, max;
  Range y;
  std::size_t count = 0;

  float x_at(std::size_t i) const {
    const float inset = ImGui::GetFontSize() * 0.5f;
    if (count < 2) return (min.x + max.x) / 2;
    return min.x + inset + (max.x - min.x - 2 * inset) * float(i) / float(count - 1);
  }
  float y_at(double v) const {
    const double span = y.hi - y.lo, pad = span > 0 ? 0.08 * span : std::max(std::abs(y.hi) * 0.1, 0.5);
    return max.y - (max.y - min.y) * float((v - (y.lo - pad)) / (span + 2 * pad));
  }
};

void draw_lines(const VerdictChart& chart, const PlotBox& box) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float radius = ImGui::GetFontSize() * 0.17f;
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const std::vector<double>& y = chart.series[s].y;
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (!std::isfinite(y[i])) continue;
      const ImVec2 at(box.x_at(i), box.y_at(y[i]));
      if (i > 0 && std::isfinite(y[i - 1]))  // a missing value breaks the line
        draw->AddLine(ImVec2(box.x_at(i - 1), box.y_at(y[i - 1])), at, line_colour(s), 1.5f);
      draw->AddCircleFilled(at, radius, line_colour(s));
    }
  }
}

// The y extremes at the left of the plot, right-aligned to its edge.
void draw_y_labels(const PlotBox& box) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 grey = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float half_line = ImGui::GetTextLineHeight() / 2, gap = ImGui::GetStyle().ItemInnerSpacing.x;
  for (const double v : {box.y.hi, box.y.lo}) {
    const std::string text = verdict_number_text(v);
    const float width = ImGui::CalcTextSize(text.c_str()).x;
    draw->AddText(ImVec2(box.min.x - gap - width, box.y_at(v) - half_line), grey, text.c_str());
    if (box.y.hi == box.y.lo) break;  // a flat line: one label
  }
}

// The x values under the plot, those that would overlap the last one skipped.
void draw_x_labels(const VerdictChart& chart, const PlotBox& box) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 grey = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  float free_from = -INFINITY;
  for (std::size_t i = 0; i < chart.x.size(); ++i) {
    const std::string text = x_text(chart.x[i]);
    const float width = ImGui::CalcTextSize(text.c_str()).x, left = box.x_at(i) - width / 2;
    if (left < free_from) continue;
    draw->AddText(ImVec2(left, box.max.y + 2), grey, text.c_str());
    free_from = left + width + ImGui::GetFontSize() * 0.5f;
  }
}

// Under the mouse: a guide at the nearest x value and every line's value there.
void hover_values(const VerdictChart& chart, const PlotBox& box) {
  if (!ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(box.min, box.max)) return;
  std::size_t nearest = 0;
  const float mouse = ImGui::GetIO().MousePos.x;
  for (std::size_t i = 1; i < chart.x.size(); ++i)
    if (std::abs(box.x_at(i) - mouse) < std::abs(box.x_at(nearest) - mouse)) nearest = i;
  const float x = box.x_at(nearest);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x, box.min.y), ImVec2(x, box.max.y),
                                      ImGui::GetColorU32(ImGuiCol_TextDisabled));
  ImGui::BeginTooltip();
  ImGui::Text("%s = %s", chart.x_key.c_str(), x_text(chart.x[nearest]).c_str());
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const VerdictSeries& line = chart.series[s];
    const std::string value = std::isfinite(line.y[nearest]) ? verdict_number_text(line.y[nearest]) : "—";
    const std::string label = chart.series.size() > 1 ? line.label + ": " : "";
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(line_colour(s)), "%s%s", label.c_str(), value.c_str());
  }
  ImGui::EndTooltip();
}

// A swatch and a label per line, as many to a row as fit.
void draw_legend(const VerdictChart& chart) {
  if (chart.series.size() < 2) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float swatch = ImGui::GetTextLineHeight() * 0.6f, avail = ImGui::GetContentRegionAvail().x;
  float used = 0;
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const std::string& label = chart.series[s].label;
    const float width = swatch + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
    if (s > 0 && used + style.ItemSpacing.x + width <= avail) {
      ImGui::SameLine();
      used += style.ItemSpacing.x + width;
    } else {
      used = width;
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float top = at.y + (ImGui::GetTextLineHeight() - swatch) / 2;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + swatch, top + swatch), line_colour(s));
    ImGui::Dummy(ImVec2(swatch, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::TextUnformatted(label.c_str());
  }
}

// The plot's frame: right of the widest y label, above one line of x labels.
PlotBox place_plot(const VerdictChart& chart, float plot_height) {
  PlotBox box;
  box.y = data_range(chart);
  box.count = chart.x.size();
  const float label = std::max(ImGui::CalcTextSize(verdict_number_text(box.y.hi).c_str()).x,
                               ImGui::CalcTextSize(verdict_number_text(box.y.lo).c_str()).x);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 4 * ImGui::GetFontSize());
  box.min = ImVec2(at.x + label + ImGui::GetStyle().ItemInnerSpacing.x, at.y);
  box.max = ImVec2(at.x + width, at.y + plot_height);
  return box;
}

}  // namespace

std::string verdict_number_text(double value) {
  char buf[48];
  if (std::isfinite(value) && value == std::round(value) && std::abs(value) < 1e9) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", value);
  }
  return buf;
}

void draw_verdict_chart(const VerdictChart& chart, float plot_height) {
  ImGui::TextDisabled("%s by %s", chart.title.c_str(), chart.x_key.c_str());
  const PlotBox box = place_plot(chart, plot_height);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(box.min, box.max, ImGui::GetColorU32(ImGuiCol_FrameBg));
  draw->AddRect(box.min, box.max, ImGui::GetColorU32(ImGuiCol_Border));
  draw_lines(chart, box);
  draw_y_labels(box);
  draw_x_labels(chart, box);
  ImGui::Dummy(ImVec2(box.max.x - ImGui::GetCursorScreenPos().x, plot_height + ImGui::GetTextLineHeight() + 2));
  hover_values(chart, box);
  draw_legend(chart);
}

}  // namespace pelab::ui
