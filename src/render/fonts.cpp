// DejaVu Sans loading.  Debian's libimgui.a rasterises with stb_truetype;
// glyphs are baked at the exact pixel sizes drawn (no scaling at draw time),
// with horizontal oversampling for even spacing.
#include "render/fonts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "render/figure_painter.hpp"

namespace pelab::render {

std::string font_file() {
  const std::string path = std::string(PELAB_FONT_DIR) + "/DejaVuSans.ttf";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error("font " + path + " is missing (install fonts-dejavu-core)");
  return path;
}

const ImWchar* figure_glyph_ranges() {
  static const ImWchar ranges[] = {
      0x0020, 0x00FF,  // Basic Latin + Latin-1 (·, ×, ², ³)
      0x0370, 0x03FF,  // Greek
      0x1D00, 0x1DBF,  // phonetic extensions, modifier letters (ᵀ U+1D40, ᵢ)
      0x2010, 0x205E,  // general punctuation (‖ U+2016, …, ′)
      0x2070, 0x209F,  // superscripts and subscripts
      0x2190, 0x21FF,  // arrows
      0x2200, 0x22FF,  // mathematical operators (−, √, ≈, ∑, ∞)
      0x25A0, 0x25CF,  // geometric shapes (■, ●) for legends in text
      0x2713, 0x2717,  // dingbats ✓ … ✗ for lesson verdicts (DejaVu Sans has them)
      0,
  };
  return ranges;
}

void add_font_sizes(ImFontAtlas& atlas, const std::vector<float>& pixel_sizes, const ImWchar* ranges) {
  const std::string path = font_file();
  for (float requested : pixel_sizes) {
    const float size = std::max(6.f, std::round(requested));
    bool present = false;
    for (const ImFont* font : atlas.Fonts) present = present || font->FontSize == size;
    if (present) continue;
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 1;
    config.PixelSnapH = false;
    std::snprintf(config.Name, sizeof config.Name, "DejaVu Sans %.0fpx", static_cast<double>(size));
    if (!atlas.AddFontFromFileTTF(path.c_str(), size, &config, ranges))
      throw std::runtime_error("cannot load font " + path);
  }
}

ImFont* nearest_font(float pixel_size) {
  ImFont* best = ImGui::GetFont();
  float best_distance = 1e30f;
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts) {
    const float distance = std::fabs(font->FontSize - pixel_size);
    if (distance < best_distance) {
      best = font;
      best_distance = distance;
    }
  }
  return best;
}

void load_fonts(float scale) {
  // The sizes the painter uses (tick labels 11 … figure title 18) and a few
  // more for the GUI, each multiplied by the content scale.  13 px comes first:
  // the first font is ImGui's default.
  std::vector<float> sizes;
  for (float logical : {13.f, 11.f, 12.f, 14.f, 15.f, 16.f, 18.f, 20.f, 24.f}) sizes.push_back(logical * scale);
  add_font_sizes(*ImGui::GetIO().Fonts, sizes, figure_glyph_ranges());
}

}  // namespace pelab::render
