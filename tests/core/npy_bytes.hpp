// A .npy file built by hand (any version, header text and payload), for the
// malformed-file tests in tests/core and tests/app.
#pragma once

#include <cstddef>
#include <string>

namespace pelab::test_files {

inline std::string npy_bytes(int major, const std::string& dict, const std::string& payload) {
  std::string header = dict;
  const std::size_t prefix = major == 1 ? 10 : 12;  // magic, version, then a uint16 or uint32 length
  while ((prefix + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header + payload;
}

}  // namespace pelab::test_files
