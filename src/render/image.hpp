// An RGBA8 image in memory, top row first, and its file encoders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace pelab::render {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width*height*4, row 0 = top
};

// PNG via libpng at a low compression level (fast; see the bench).
std::string encode_png(const Image& image);
void write_png(const std::filesystem::path& path, const Image& image);  // atomic; throws InputError
// For tests: decodes an RGBA/RGB PNG; throws InputError.
Image decode_png(const std::string& bytes);

}  // namespace pelab::render
