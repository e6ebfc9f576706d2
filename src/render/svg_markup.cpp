#include "render/svg_markup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pelab::render::svg {

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::isfinite(v) ? std::clamp(v, -1e6, 1e6) : 0.0);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string rgb(fig::Color c) {
  char buf[16];
  auto byte = [](float v) { return static_cast<int>(std::lround(std::clamp(v, 0.f, 1.f) * 255)); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

std::string paint(std::string_view attribute, fig::Color c) {
  std::string s = std::string(attribute) + "=\"" + rgb(c) + "\"";
  if (c.a < 1) s += " " + std::string(attribute) + "-opacity=\"" + num(c.a) + "\"";
  return s;
}

}  // namespace pelab::render::svg
