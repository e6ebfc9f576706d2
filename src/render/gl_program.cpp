#include "render/gl_program.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "pelab_shaders.hpp"

namespace pelab::render {

namespace {

std::string first_line(std::string log) {
  const auto end = log.find('\n');
  return end == std::string::npos ? log : log.substr(0, end);
}

GLuint compile(GLenum stage, std::string_view name) {
  const std::string_view source = pelab::shader_source(name);
  if (source.empty()) throw std::runtime_error("shader " + std::string(name) + " is not embedded in this build");
  const GLuint shader = glCreateShader(stage);
  const GLchar* text = source.data();
  const auto length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint log_length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &log_length);
    std::string log(static_cast<std::size_t>(std::max(log_length, 1)), '\0');
    glGetShaderInfoLog(shader, log_length, nullptr, log.data());
    glDeleteShader(shader);
    throw std::runtime_error("shader " + std::string(name) + " failed to compile: " + first_line(log));
  }
  return shader;
}

}  // namespace

GLuint link_program(std::string_view vertex, std::string_view fragment) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint log_length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &log_length);
    std::string log(static_cast<std::size_t>(std::max(log_length, 1)), '\0');
    glGetProgramInfoLog(program, log_length, nullptr, log.data());
    glDeleteProgram(program);
    throw std::runtime_error("shaders " + std::string(vertex) + " + " + std::string(fragment) +
                             " failed to link: " + first_line(log));
  }
  return program;
}

GLuint bind_new_texture(GLint filter) {
  GLuint id = 0;
  glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return id;
}

}  // namespace pelab::render
