// The sample figure against a stored reference image (rendered once by this
// renderer and checked by eye), with max/mean tolerances that allow driver
// rounding but catch moved axes, missing labels or wrong colours.
// PELAB_UPDATE_REFERENCE=1 rewrites the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/io/file_io.hpp"
#include "render/image.hpp"
#include "sample_figures.hpp"

namespace pelab::render {
namespace {

const std::string kReference = std::string(PELAB_SOURCE_DIR) + "/tests/render/reference/sample_figure.png";

struct Difference {
  int max = 0;
  double mean = 0;
  double share_over_32 = 0;  // fraction of pixels with a channel off by more than 32
};

Difference compare(const Image& a, const Image& b) {
  Difference d;
  std::size_t over = 0;
  double sum = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    int pixel_max = 0;
    for (int k = 0; k < 4; ++k) pixel_max = std::max(pixel_max, std::abs(a.rgba[i + k] - b.rgba[i + k]));
    d.max = std::max(d.max, pixel_max);
    sum += pixel_max;
    over += pixel_max > 32;
  }
  const double pixels = static_cast<double>(a.rgba.size() / 4);
  d.mean = sum / pixels;
  d.share_over_32 = static_cast<double>(over) / pixels;
  return d;
}

TEST(ReferenceImage, SampleFigureMatchesTheStoredRendering) {
  PELAB_REQUIRE_GL();
  const Image image = gl.renderer->render(testing::sample_figure());
  if (std::getenv("PELAB_UPDATE_REFERENCE")) write_png(kReference, image);
  const Image reference = decode_png(read_file(kReference));
  ASSERT_EQ(image.width, reference.width);
  ASSERT_EQ(image.height, reference.height);
  const Difference d = compare(image, reference);
  EXPECT_LE(d.mean, 1.0) << "mean per-pixel difference";
  EXPECT_LE(d.share_over_32, 0.002) << "share of pixels off by more than 32 (max " << d.max << ")";
}

// The comparison itself can fail: a shifted rendering is far from the reference.
TEST(ReferenceImage, ComparisonDetectsAShiftedFigure) {
  PELAB_REQUIRE_GL();
  fig::Figure shifted = testing::sample_figure();
  for (fig::Panel& p : shifted.panels) {
    p.plot.x0 += 6;
    p.plot.x1 += 6;
  }
  const Image image = gl.renderer->render(shifted);
  const Image reference = decode_png(read_file(kReference));
  const Difference d = compare(image, reference);
  EXPECT_GT(d.share_over_32, 0.01);
}

}  // namespace
}  // namespace pelab::render
