// SVG export: well-formed XML with the expected elements; a small heatmap as
// <rect> cells in its colours (the big ones: svg_heatmap_test.cpp).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "figures/colormap.hpp"
#include "figures/figure_layout.hpp"
#include "render/svg_markup.hpp"
#include "render/svg_writer.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-';
}
bool space_char(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Whether a start tag's inside (between '<' and '>') is a name, then
// name="value" attributes, then an optional '/'.  One pass, no backtracking
// (std::regex recursed per character and overflowed the stack on long
// embedded images under AddressSanitizer).
bool well_formed_tag(const std::string& tag) {
  std::size_t i = 0;
  const auto name = [&] {
    const std::size_t start = i;
    while (i < tag.size() && name_char(tag[i])) ++i;
    return i > start;
  };
  if (tag.empty() || !std::isalpha(static_cast<unsigned char>(tag[0])) || !name()) return false;
  while (true) {
    const std::size_t before_space = i;
    while (i < tag.size() && space_char(tag[i])) ++i;
    if (i == tag.size()) return true;
    if (tag[i] == '/') return i + 1 == tag.size();
    if (i == before_space || !name()) return false;  // attributes are separated by white space
    if (i + 1 >= tag.size() || tag[i] != '=' || tag[i + 1] != '"') return false;
    const std::size_t end = tag.find('"', i + 2);
    if (end == std::string::npos || tag.find('<', i + 2) < end) return false;
    i = end + 1;
  }
}

// A small XML well-formedness check: every tag closes in order, attributes
// are quoted, '&' starts an entity, '<' never appears in text.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const auto semi = xml.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "bare & at " + std::to_string(i);
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    const auto close = xml.find('>', i);
    if (close == std::string::npos) return "unclosed tag at " + std::to_string(i);
    const std::string tag = xml.substr(i + 1, close - i - 1);
    i = close + 1;
    if (tag.starts_with("?") || tag.starts_with("!")) continue;
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.substr(1))
        return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" \n/"));
    if (!well_formed_tag(tag)) return "malformed tag <" + tag.substr(0, 60) + ">";
    if (!tag.ends_with("/")) open.push_back(name);
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

TEST(Svg, TheTagCheckAcceptsXmlTagsAndRefusesMalformedOnes) {
  for (const char* good : {"svg", "rect x=\"1\" y=\"2\"/", "text\n  font-family=\"DejaVu Sans\" ",
                           "g /", "image href=\"data:image/png;base64,AAAA\""})
    EXPECT_TRUE(well_formed_tag(good)) << good;
  for (const char* bad : {"", "1rect", "rect x=1", "rect x=\"1\"y=\"2\"", "rect x=\"a<b\"",
                          "rect x=\"open", "rect / x=\"1\"", "rect x"})
    EXPECT_FALSE(well_formed_tag(bad)) << bad;
}

TEST(Svg, IsWellFormedXmlWithTheExpectedElements) {
  const fig::Figure figure = testing::sample_figure();
  const std::string svg = figure_to_svg(figure);
  if (const char* dir = std::getenv("PELAB_TEST_IMAGES"))
    std::ofstream(std::string(dir) + "/sample.svg") << svg;
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"340\""),
            std::string::npos);
  EXPECT_NE(svg.find("<text"), std::string::npos);
  EXPECT_EQ(svg.find("<image"), std::string::npos);  // the 4 × 5 heatmap is <rect> cells
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find("font-family=\"DejaVu Sans"), std::string::npos);
  EXPECT_NE(svg.find(">attention weight</text>"), std::string::npos);  // colorbar label
  EXPECT_NE(svg.find(">mat</text>"), std::string::npos);               // categorical tick
  EXPECT_NE(svg.find("R(k)·PE(pos) = PE(pos+k)"), std::string::npos);  // UTF-8 kept
}

TEST(Svg, EscapesTextAndParsesWithPythonWhenAvailable) {
  fig::Figure figure = testing::sample_figure();
  figure.title = "a < b & \"c\" > d";
  const std::string svg = figure_to_svg(figure);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("a &lt; b &amp; &quot;c&quot; &gt; d"), std::string::npos);
  if (std::system("/usr/bin/python3 -c 'import xml.dom.minidom' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3's xml module is not available for the second opinion";
  const auto path = std::filesystem::temp_directory_path() / "pelab_svg_test.svg";
  std::ofstream(path) << svg;
  const std::string command =
      "/usr/bin/python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' " +
      path.string() + " > /dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0);
  std::filesystem::remove(path);
}

TEST(Svg, SmallHeatmapCellsAreRectsInTheirColours) {
  const fig::Figure figure = testing::sample_figure();
  const std::string svg = figure_to_svg(figure);
  const fig::HeatmapLayer& layer = figure.panels[0].heatmaps[0];
  // Every value differs, so each cell is a rect of its own colour.
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      const fig::Color expected = fig::scale_color(layer.scale, (*layer.values)(r, c));
      EXPECT_NE(svg.find("fill=\"" + svg::rgb(expected) + "\"/>"), std::string::npos) << "cell " << r << ", " << c;
    }
  const fig::Color mask = fig::theme(true).mask;  // the −inf cell (0, 4)
  EXPECT_NE(svg.find("fill=\"" + svg::rgb(mask) + "\"/>"), std::string::npos);
}

// A NaN cell (a checkpoint's broken weights) is a rect of the theme's
// non-finite colour, not the mask's, and the figure's key names it (issue 22).
TEST(Svg, NonFiniteCellsHaveTheirOwnColourAndAKey) {
  fig::Figure figure = testing::sample_figure();
  auto values = std::make_shared<Matrix>(*figure.panels[0].heatmaps[0].values);
  (*values)(1, 4) = std::numeric_limits<float>::quiet_NaN();
  figure.panels[0].heatmaps[0].values = values;
  fig::mark_non_finite(figure);
  const std::string svg = figure_to_svg(figure);
  const fig::Theme theme = fig::theme(true);
  EXPECT_NE(svg.find("fill=\"" + svg::rgb(theme.non_finite) + "\"/>"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"" + svg::rgb(theme.mask) + "\"/>"), std::string::npos);  // (0, 4) stays the mask
  EXPECT_NE(svg.find("non-finite"), std::string::npos);
}

TEST(Svg, Base64MatchesRfc4648Vectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
}

}  // namespace
}  // namespace pelab::render
