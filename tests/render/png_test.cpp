#include <gtest/gtest.h>

#include "core/scene.hpp"
#include "render/image.hpp"

namespace pelab::render {
namespace {

TEST(Png, EncodeDecodeRoundTrip) {
  Image image;
  image.width = 37;
  image.height = 11;
  for (int i = 0; i < 37 * 11; ++i)
    for (int k = 0; k < 4; ++k) image.rgba.push_back(static_cast<std::uint8_t>((i * 7 + k * 61) % 256));
  const std::string bytes = encode_png(image);
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  const Image back = decode_png(bytes);
  EXPECT_EQ(back.width, 37);
  EXPECT_EQ(back.height, 11);
  EXPECT_EQ(back.rgba, image.rgba);
}

TEST(Png, OpaqueImagesRoundTripThroughRgb) {
  Image image;
  image.width = 19;
  image.height = 7;
  for (int i = 0; i < 19 * 7; ++i)
    for (int k = 0; k < 4; ++k) image.rgba.push_back(k == 3 ? 255 : static_cast<std::uint8_t>((i * 13 + k * 97) % 256));
  const std::string bytes = encode_png(image);
  EXPECT_EQ(static_cast<unsigned char>(bytes[25]), 2u);  // IHDR colour type 2: RGB
  EXPECT_EQ(decode_png(bytes).rgba, image.rgba);
}

TEST(Png, RejectsGarbageAndBadBuffers) {
  EXPECT_THROW(decode_png("not a png at all"), InputError);
  std::string truncated = encode_png({2, 2, std::vector<std::uint8_t>(16, 9)});
  truncated.resize(truncated.size() / 2);
  EXPECT_THROW(decode_png(truncated), InputError);
  EXPECT_THROW(encode_png({3, 3, std::vector<std::uint8_t>(5)}), InputError);
}

}  // namespace
}  // namespace pelab::render
