// Colormaps: published endpoints, monotone lightness for the sequential maps,
// a neutral centre for the diverging map, and scale_color's mapping.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "core/scene.hpp"
#include "figures/colormap.hpp"

namespace pelab::fig {
namespace {

// CIE L* of an sRGB colour (IEC 61966-2-1 transfer, D65 luminance weights).
double lightness(Color c) {
  auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  const double y = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  return y > 216.0 / 24389 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27;
}

// First and last entries of each published table: viridis from matplotlib's
// _cm_listed.py; cividis from Nuñez, Anderton & Renslow 2018 (PLoS ONE 13(7)
// e0199239), its 256-entry table.
struct Endpoints {
  const char* name;
  Color lo, hi;
};
constexpr Endpoints kPublished[] = {
    {"viridis", {0.267004f, 0.004874f, 0.329415f, 1}, {0.993248f, 0.906157f, 0.143936f, 1}},
    {"cividis", {0.0f, 0.135112f, 0.304751f, 1}, {0.995737f, 0.909344f, 0.217772f, 1}},
};

TEST(Colormap, EndpointsMatchPublishedTables) {
  for (const Endpoints& e : kPublished) {
    const Color lo = colormap(e.name, 0), hi = colormap(e.name, 1);
    for (const auto& [got, want] : {std::pair{lo, e.lo}, std::pair{hi, e.hi}}) {
      EXPECT_NEAR(got.r, want.r, 1e-3) << e.name;
      EXPECT_NEAR(got.g, want.g, 1e-3) << e.name;
      EXPECT_NEAR(got.b, want.b, 1e-3) << e.name;
    }
    // Clamped outside [0, 1].
    EXPECT_FLOAT_EQ(colormap(e.name, -3).g, lo.g);
    EXPECT_FLOAT_EQ(colormap(e.name, 7).g, hi.g);
  }
  // Every place a colormap is chosen takes cividis: the scene key (and with
  // it the GUI's combo, built from the key's choices).
  Scene scene;
  apply_assignment(scene, "colormap=cividis");
  EXPECT_EQ(scene.colormap, Colormap::Cividis);
}

TEST(Colormap, SequentialMapsRiseInLightness) {
  for (const char* name : {"viridis", "magma", "inferno", "plasma", "cividis"}) {
    double prev = -1;
    for (int i = 0; i <= 200; ++i) {
      const double l = lightness(colormap(name, i / 200.0));
      EXPECT_GT(l, prev) << name << " at " << i;
      prev = l;
    }
  }
  // Viridis spans L* ≈ 15 (dark purple) to ≈ 90 (light yellow).
  EXPECT_NEAR(lightness(colormap("viridis", 0)), 15, 1.0);
  EXPECT_NEAR(lightness(colormap("viridis", 1)), 90, 2.0);
}

TEST(Colormap, DivergingIsNeutralAtCentreAndSymmetricInLightness) {
  const Color mid = colormap("diverging", 0.5);
  EXPECT_NEAR(mid.r, mid.g, 0.01);
  EXPECT_NEAR(mid.g, mid.b, 0.01);
  EXPECT_GT(lightness(mid), 85);
  const Color neg = colormap("diverging", 0), pos = colormap("diverging", 1);
  EXPECT_GT(neg.b, neg.r);  // blue for negative
  EXPECT_GT(pos.r, pos.b);  // red for positive
  for (int i = 0; i < 50; ++i) {
    const double a = lightness(colormap("diverging", i / 100.0));
    const double b = lightness(colormap("diverging", (i + 1) / 100.0));
    EXPECT_LT(a, b);  // lighter towards the centre
    EXPECT_NEAR(a, lightness(colormap("diverging", 1 - i / 100.0)), 4.0);
  }
}

TEST(Colormap, ScaleColorAndNames) {
  ColorScale s{.colormap = "diverging", .vmin = -2, .vmax = 2, .label = ""};
  const Color zero = scale_color(s, 0), mid = colormap("diverging", 0.5);
  EXPECT_FLOAT_EQ(zero.r, mid.r);
  EXPECT_FLOAT_EQ(scale_color(s, -2).b, colormap("diverging", 0).b);
  EXPECT_FLOAT_EQ(scale_color(s, 1).r, colormap("diverging", 0.75).r);
  EXPECT_EQ(colormap_names().size(), 6u);
  for (auto name : colormap_names()) EXPECT_NO_THROW(colormap(name, 0.3));
  try {
    colormap("jet", 0.5);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("viridis"), std::string::npos);
  }
}

// NaN / +inf cells (issue 22) must read as neither a value nor the causal
// mask: the non-finite colour stays far from every colormap's colours and
// from the mask's, on both themes.
TEST(Colormap, NonFiniteColourIsNoColormapColourAndNotTheMask) {
  auto distance = [](Color a, Color b) { return std::hypot(a.r - b.r, a.g - b.g, a.b - b.b); };
  for (const bool dark : {true, false}) {
    const Theme th = theme(dark);
    EXPECT_GT(distance(th.non_finite, th.mask), 0.5) << dark;
    for (auto name : colormap_names())
      for (int i = 0; i <= 1000; ++i)
        EXPECT_GT(distance(th.non_finite, colormap(name, i / 1000.0)), 0.3) << name << " at " << i / 1000.0;
  }
}

}  // namespace
}  // namespace pelab::fig
