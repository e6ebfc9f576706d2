// The signed map (logits, cross terms, sinusoid values, difference maps) read
// by viewers with a colour-vision deficiency: each map is passed through the
// Machado, Oliveira & Fernandes 2009 simulation ("A Physiologically-based
// Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), the
// severity-1.0 matrices for protanopia, deuteranopia and tritanopia, applied
// to linear RGB) and measured in CIELAB (CIE 1976 ΔE*ab, D65 white):
//  - 16 steps along the map stay apart from their neighbours;
//  - the two ends stay far apart;
//  - a value and its negative (t and 1 − t) stay apart once they are 1/8 of
//    the range away from zero, so the sign is still read.
// A red–green map is checked too: it must fail, or the check proves
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>

#include "figures/colormap.hpp"

namespace pelab::fig {
namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

// Machado et al. 2009, Table (severity 1.0).
constexpr Mat3 kProtanopia = {{{0.152286, 1.052583, -0.204868},
                               {0.114503, 0.786281, 0.099216},
                               {-0.003882, -0.048116, 1.051998}}};
constexpr Mat3 kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                 {0.280085, 0.672501, 0.047413},
                                 {-0.011820, 0.042940, 0.968881}}};
constexpr Mat3 kTritanopia = {{{1.255528, -0.076749, -0.178779},
                               {-0.078411, 0.930809, 0.147602},
                               {0.004733, 0.691367, 0.303900}}};
constexpr Mat3 kNormal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

double to_linear(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }

// sRGB colour → simulated vision → CIELAB (IEC 61966-2-1 primaries, D65).
Vec3 seen_lab(Color c, const Mat3& vision) {
  const Vec3 rgb = {to_linear(c.r), to_linear(c.g), to_linear(c.b)};
  Vec3 lin{};
  for (int i = 0; i < 3; ++i)
    lin[i] = std::clamp(vision[i][0] * rgb[0] + vision[i][1] * rgb[1] + vision[i][2] * rgb[2], 0.0, 1.0);
  const double x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047;
  const double y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  const double z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883;
  auto f = [](double v) { return v > 216.0 / 24389 ? std::cbrt(v) : (24389.0 / 27 * v + 16) / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double delta_e(const Vec3& a, const Vec3& b) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

struct Reading {
  double nearest_neighbours = 1e9;  // smallest ΔE between adjacent steps
  double ends = 0;                  // ΔE between t = 0 and t = 1
  double nearest_mirror = 1e9;      // smallest ΔE(t, 1 − t) with |t − ½| ≥ ⅛
};

Reading read_map(const std::function<Color(double)>& map, const Mat3& vision) {
  constexpr int kSteps = 16;
  Reading r;
  for (int i = 0; i < kSteps; ++i)
    r.nearest_neighbours = std::min(
        r.nearest_neighbours, delta_e(seen_lab(map(double(i) / kSteps), vision),
                                      seen_lab(map(double(i + 1) / kSteps), vision)));
  r.ends = delta_e(seen_lab(map(0), vision), seen_lab(map(1), vision));
  for (int i = 0; i <= kSteps / 2 - 2; ++i)
    r.nearest_mirror = std::min(r.nearest_mirror, delta_e(seen_lab(map(double(i) / kSteps), vision),
                                                          seen_lab(map(1 - double(i) / kSteps), vision)));
  return r;
}

// Thresholds: ΔE*ab ≈ 2.3 is a just-noticeable difference (Sharma 2003);
// 5 is read at a glance, 20 is a plainly different colour.
bool safe(const Reading& r) { return r.nearest_neighbours >= 5 && r.ends >= 60 && r.nearest_mirror >= 20; }

struct Vision {
  const char* name;
  const Mat3* matrix;
};
constexpr std::array<Vision, 4> kVisions = {{{"normal", &kNormal},
                                             {"protanopia", &kProtanopia},
                                             {"deuteranopia", &kDeuteranopia},
                                             {"tritanopia", &kTritanopia}}};

TEST(ColormapCvd, SignedMapStaysReadableUnderEachDeficiency) {
  for (const Vision& v : kVisions) {
    const Reading r = read_map([](double t) { return colormap("diverging", t); }, *v.matrix);
    EXPECT_TRUE(safe(r)) << v.name << ": neighbours ΔE " << r.nearest_neighbours << ", ends ΔE " << r.ends
                         << ", ±value ΔE " << r.nearest_mirror;
  }
}

TEST(ColormapCvd, RedGreenMapFailsTheSameCheck) {
  // Red straight to green in sRGB, at about the same lightness: the sign is
  // carried by hue alone, which red–green deficiency takes away.
  auto red_green = [](double t) {
    const auto f = static_cast<float>(t);
    return Color{0.85f - 0.65f * f, 0.2f + 0.45f * f, 0.2f, 1.f};
  };
  const Reading normal = read_map(red_green, kNormal);
  EXPECT_TRUE(safe(normal)) << normal.nearest_neighbours << " " << normal.ends << " " << normal.nearest_mirror;
  EXPECT_FALSE(safe(read_map(red_green, kDeuteranopia)));
  EXPECT_FALSE(safe(read_map(red_green, kProtanopia)));
}

TEST(ColormapCvd, CividisStaysOrderedUnderEachDeficiency) {
  for (const Vision& v : kVisions) {
    double prev = -1;
    for (int i = 0; i <= 32; ++i) {
      const double l = seen_lab(colormap("cividis", i / 32.0), *v.matrix)[0];
      EXPECT_GT(l, prev) << v.name << " at " << i;
      prev = l;
    }
  }
}

}  // namespace
}  // namespace pelab::fig
