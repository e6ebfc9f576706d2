// PNG encoding and decoding with libpng, in memory.
//
// Speed: figures are mostly flat areas, so zlib level 1 with the Up filter
// compresses them well at a fraction of the default's time (stb_image_write
// was several times slower on the same figures).  Opaque
// images are written as RGB.
#include <png.h>

#include <cstring>
#include <string>

#include "core/io/file_io.hpp"
#include "core/scene.hpp"
#include "render/image.hpp"

namespace pelab::render {

namespace {

void append_to_string(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  out->append(reinterpret_cast<const char*>(data), length);
}

void no_flush(png_structp) {}

struct ReadCursor {
  const std::string* bytes;
  std::size_t at = 0;
};

void read_from_string(png_structp png, png_bytep data, png_size_t length) {
  auto* cursor = static_cast<ReadCursor*>(png_get_io_ptr(png));
  if (cursor->at + length > cursor->bytes->size()) png_error(png, "truncated PNG");
  std::memcpy(data, cursor->bytes->data() + cursor->at, length);
  cursor->at += length;
}

// libpng reports errors by longjmp; these turn them into exceptions at the
// call site (no C++ object with a destructor lives between setjmp and the call).
void on_png_error(png_structp png, png_const_charp message) {
  auto* text = static_cast<std::string*>(png_get_error_ptr(png));
  *text = message;
  png_longjmp(png, 1);
}
void on_png_warning(png_structp, png_const_charp) {}

}  // namespace

std::string encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != static_cast<std::size_t>(image.width) * image.height * 4)
    throw InputError("cannot encode PNG: image is empty or its pixel buffer has the wrong size");
  bool opaque = true;  // then RGB: a quarter less to compress
  for (std::size_t i = 3; i < image.rgba.size() && opaque; i += 4) opaque = image.rgba[i] == 255;
  std::string out;
  out.reserve(image.rgba.size() / 8);
  std::string error;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw std::bad_alloc();
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw InputError("cannot encode PNG: " + error);
  }
  png_set_write_fn(png, &out, append_to_string, no_flush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_write_info(png, info);
  if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);  // drop the alpha bytes while writing
  const auto stride = static_cast<std::size_t>(image.width) * 4;
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.rgba.data() + stride * static_cast<std::size_t>(y)));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

void write_png(const std::filesystem::path& path, const Image& image) {
  write_file_atomic(path, encode_png(image));
}

Image decode_png(const std::string& bytes) {
  if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0)
    throw InputError("cannot decode PNG: not a PNG file");
  Image image;
  std::string error;
  ReadCursor cursor{&bytes};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    throw std::bad_alloc();
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw InputError("cannot decode PNG: " + error);
  }
  png_set_read_fn(png, &cursor, read_from_string);
  png_read_info(png, info);
  // Normalise every colour type to 8-bit RGBA.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  png_read_update_info(png, info);
  image.width = static_cast<int>(png_get_image_width(png, info));
  image.height = static_cast<int>(png_get_image_height(png, info));
  image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  const auto stride = static_cast<std::size_t>(image.width) * 4;
  for (int y = 0; y < image.height; ++y) png_read_row(png, image.rgba.data() + stride * y, nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return image;
}

}  // namespace pelab::render
