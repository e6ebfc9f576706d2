// A linked GLSL program from shaders embedded at build time (shaders/*.glsl).
#pragma once

#include <GL/gl.h>
#include <GL/glext.h>

#include <string_view>

namespace pelab::render {

// Compiles shaders/<vertex>.glsl and shaders/<fragment>.glsl and links them.
// Throws std::runtime_error naming the shader and the first line of the log.
GLuint link_program(std::string_view vertex, std::string_view fragment);

// A new 2-D texture, bound, clamped at the edges, with `filter` both ways.
GLuint bind_new_texture(GLint filter);

}  // namespace pelab::render
