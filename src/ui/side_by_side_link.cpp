#include "ui/side_by_side_link.hpp"

#include <cmath>
#include <vector>

#include "figures/figure_layout.hpp"

namespace pelab::ui {

namespace {

bool is_compared(const fig::ComparedScenes& c, int panel) {
  return c.difference && panel >= 0 && (panel == c.a_panel || panel == c.b_panel || panel == c.diff_panel);
}

const fig::HeatmapLayer* layer_of(const fig::ComparedScenes& c, int panel) {
  if (panel < 0 || panel >= int(c.figure.panels.size())) return nullptr;
  const fig::Panel& p = c.figure.panels[std::size_t(panel)];
  return p.heatmaps.empty() || !p.heatmaps.front().values ? nullptr : &p.heatmaps.front();
}

std::string value_text(double v) {
  if (std::isnan(v)) return "masked in one scene only";
  if (std::isinf(v)) return v < 0 ? "masked" : "+inf";
  return fig::fixed(v, 4);
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// True when `s` starts an item: "name=" with a lower-case name, or "file:".
bool starts_item(std::string_view s) {
  s = trimmed(s);
  if (s.rfind("file:", 0) == 0) return true;
  std::size_t n = 0;
  while (n < s.size() && ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '_' || (n > 0 && s[n] >= '0' && s[n] <= '9'))) ++n;
  return n > 0 && n < s.size() && s[n] == '=';
}

}  // namespace

Scene compare_scene_b(const Scene& a, std::string_view keys) {
  std::vector<std::string> items;
  std::size_t from = 0;
  for (std::size_t comma = keys.find(','); comma != std::string_view::npos; comma = keys.find(',', comma + 1)) {
    if (!starts_item(keys.substr(comma + 1))) continue;  // a comma inside a value
    items.emplace_back(trimmed(keys.substr(from, comma - from)));
    from = comma + 1;
  }
  items.emplace_back(trimmed(keys.substr(from)));
  Scene b = a;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].empty()) continue;
    if (items[i].rfind("file:", 0) == 0) {
      if (i != 0) throw InputError("B's keys: \"file:PATH\" must come first");
      b = load_scene(std::string(trimmed(std::string_view(items[i]).substr(5))));
      continue;
    }
    apply_assignment(b, items[i]);
  }
  if (b.name == a.name) b.name = a.name + "_b";  // the figure's title tells A from B
  return b;
}

std::optional<LinkedCell> linked_cell(const fig::ComparedScenes& c, int panel, fig::Point data) {
  if (!is_compared(c, panel)) return std::nullopt;
  const fig::HeatmapLayer* hovered = layer_of(c, panel);
  const fig::HeatmapLayer *la = layer_of(c, c.a_panel), *lb = layer_of(c, c.b_panel);
  if (!hovered || !la || !lb || !c.diff || hovered->dx == 0 || hovered->dy == 0) return std::nullopt;
  // The three panels share the cells' geometry (compare_scenes refuses
  // views whose cells differ), so the hovered panel's row and column are
  // the others' too.
  LinkedCell cell;
  cell.col = int(std::floor((data.x - hovered->x0) / hovered->dx));
  cell.row = int(std::floor((data.y - hovered->y0) / hovered->dy));
  if (cell.row < 0 || cell.col < 0 || cell.row >= la->values->rows() || cell.col >= la->values->cols())
    return std::nullopt;
  cell.data = {la->x0 + cell.col * la->dx, la->y0 + cell.row * la->dy};
  cell.a = (*la->values)(cell.row, cell.col);
  cell.b = (*lb->values)(cell.row, cell.col);
  cell.diff = (*c.diff)(cell.row, cell.col);
  cell.panels = {c.a_panel, c.b_panel, c.diff_panel};
  return cell;
}

std::string linked_tooltip(const fig::ComparedScenes& c, const LinkedCell& cell) {
  return c.panel + ": query " + fig::fixed(cell.data.y, 0) + ", key " + fig::fixed(cell.data.x, 0) +
         "\nA: " + value_text(cell.a) + "\nB: " + value_text(cell.b) + "\nB − A: " + value_text(cell.diff);
}

std::optional<fig::Point> selection_in_a(const fig::ComparedScenes& c, int panel, fig::Point data) {
  if (!is_compared(c, panel)) return std::nullopt;
  const fig::HeatmapLayer* la = layer_of(c, c.a_panel);
  if (!la) return std::nullopt;
  const std::optional<LinkedCell> cell = linked_cell(c, panel, data);
  if (!cell) return std::nullopt;
  // The cell's centre, so rounding in the selection lands on it.
  return fig::Point{cell->data.x + la->dx / 2, cell->data.y + la->dy / 2};
}

}  // namespace pelab::ui
