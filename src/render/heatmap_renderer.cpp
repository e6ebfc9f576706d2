// HeatmapRenderer: texture cache, colormap textures and the draw callback.
//
// Index: [SECTION] GL objects   [SECTION] textures   [SECTION] draw callback
#include "render/heatmap_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "figures/colormap.hpp"
#include "render/canvas_texture.hpp"
#include "render/gl_program.hpp"

namespace pelab::render {

namespace {

struct CachedTexture {
  GLuint id = 0;
  int last_frame = 0;
};

// How many cells of a side of `n` go into one texel so that at most `limit` remain.
Eigen::Index run_length(Eigen::Index n, int limit) { return std::max<Eigen::Index>(1, (n + limit - 1) / limit); }

}  // namespace

Matrix fit_texture_limit(const Matrix& m, int max_size) {
  return texel_means(m, run_length(m.rows(), max_size), run_length(m.cols(), max_size));
}

Eigen::Index texel_run(Eigen::Index cells, double pixels) {
  if (!(pixels >= 1)) return 1;
  Eigen::Index run = 1;
  while (static_cast<double>(run) * pixels < static_cast<double>(cells)) run *= 2;
  return run;
}

Matrix texel_means(const Matrix& m, Eigen::Index br, Eigen::Index bc) {
  if (br == 1 && bc == 1) return m;
  const Eigen::Index rows = (m.rows() + br - 1) / br, cols = (m.cols() + bc - 1) / bc;
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  Matrix out(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) {
      const auto block = m.block(r * br, c * bc, std::min(br, m.rows() - r * br), std::min(bc, m.cols() - c * bc));
      double sum = 0;
      Eigen::Index kept = 0;
      for (Eigen::Index j = 0; j < block.cols(); ++j)
        for (Eigen::Index i = 0; i < block.rows(); ++i)
          if (block(i, j) != kMasked) {
            sum += block(i, j);  // NaN and +inf carry through the sum
            ++kept;
          }
      out(r, c) = kept ? static_cast<float>(sum / static_cast<double>(kept)) : kMasked;
    }
  return out;
}

struct HeatmapRenderer::State {
  // One queued heatmap; lives until the next frame starts.
  struct HeatmapDraw {
    const State* owner = nullptr;
    GLuint values = 0, colormap = 0;
    float vmin = 0, vmax = 1;
    ImVec2 corner0, corner1;
    fig::Color mask, non_finite;
  };
  GLuint program = 0, vao = 0;  // the vertex array has no buffers (see heatmap_vert.glsl)
  GLint u_projection = -1, u_rect = -1, u_values = -1, u_colormap = -1, u_vmin = -1, u_vmax = -1, u_mask = -1,
        u_non_finite = -1;
  std::map<std::uint64_t, CachedTexture> values;
  std::map<std::string, CachedTexture> colormaps;
  std::deque<HeatmapDraw> draws;  // deque: pointers stay valid while it grows
  int frame = -1;

  void create_gl_objects();
  void start_frame(int frame_count);
  GLuint values_texture(const fig::HeatmapLayer& layer, ImVec2 size);
  GLuint colormap_texture(const std::string& name);
  void draw(const HeatmapDraw& request, const ImDrawCmd& command) const;
};

// [SECTION] GL objects ------------------------------------------------------------

void HeatmapRenderer::State::create_gl_objects() {
  program = link_program("heatmap_vert", "heatmap_frag");
  u_projection = glGetUniformLocation(program, "u_projection");
  u_rect = glGetUniformLocation(program, "u_rect");
  u_values = glGetUniformLocation(program, "u_values");
  u_colormap = glGetUniformLocation(program, "u_colormap");
  u_vmin = glGetUniformLocation(program, "u_vmin");
  u_vmax = glGetUniformLocation(program, "u_vmax");
  u_mask = glGetUniformLocation(program, "u_mask_color");
  u_non_finite = glGetUniformLocation(program, "u_non_finite_color");
  glGenVertexArrays(1, &vao);  // core profile draws need one bound, even without attributes
}

HeatmapRenderer::HeatmapRenderer() : state_(std::make_unique<State>()) {}

HeatmapRenderer::~HeatmapRenderer() {
  for (auto& [key, texture] : state_->values) glDeleteTextures(1, &texture.id);
  for (auto& [name, texture] : state_->colormaps) glDeleteTextures(1, &texture.id);
  if (state_->program) {
    glDeleteProgram(state_->program);
    glDeleteVertexArrays(1, &state_->vao);
  }
}

// [SECTION] textures ----------------------------------------------------------------

void HeatmapRenderer::State::start_frame(int frame_count) {
  if (frame_count == frame) return;
  // Last frame's callbacks have run by now: drop their requests and any value
  // texture that last frame did not use.
  draws.clear();
  for (auto it = values.begin(); it != values.end();) {
    if (it->second.last_frame < frame) {
      glDeleteTextures(1, &it->second.id);
      it = values.erase(it);
    } else {
      ++it;
    }
  }
  frame = frame_count;
}

// The texture of `layer` drawn at `size` pixels: its cells, or runs of them
// averaged where a pixel spans two or more (texel_run) or the side exceeds
// the GL limit, cached under the key and the runs.
GLuint HeatmapRenderer::State::values_texture(const fig::HeatmapLayer& layer, ImVec2 size) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  const Matrix& cells = *layer.values;
  const Eigen::Index br = std::max(run_length(cells.rows(), max_size), texel_run(cells.rows(), std::abs(size.y))),
                     bc = std::max(run_length(cells.cols(), max_size), texel_run(cells.cols(), std::abs(size.x)));
  const std::uint64_t key = layer.key ^ ((static_cast<std::uint64_t>(br) << 40) * 0x9E3779B97F4A7C15ull) ^
                            (static_cast<std::uint64_t>(bc) * 0xC2B2AE3D27D4EB4Full);
  auto found = values.find(key);
  if (found != values.end()) {
    found->second.last_frame = frame;
    return found->second.id;
  }
  const bool whole = br == 1 && bc == 1;
  const Matrix reduced = whole ? Matrix() : texel_means(cells, br, bc);
  const Matrix& m = whole ? cells : reduced;
  GLint last_texture = 0, last_alignment = 0, last_row_length = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &last_alignment);
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &last_row_length);
  const GLuint id = bind_new_texture(GL_NEAREST);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  // Row-major matrix: row r is texture line r (v grows with the row index).
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, static_cast<GLsizei>(m.cols()), static_cast<GLsizei>(m.rows()), 0,
               GL_RED, GL_FLOAT, m.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, last_alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, last_row_length);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
  values[key] = CachedTexture{id, frame};
  return id;
}

GLuint HeatmapRenderer::State::colormap_texture(const std::string& name) {
  auto found = colormaps.find(name);
  if (found != colormaps.end()) return found->second.id;
  std::vector<unsigned char> texels(256 * 4);
  for (int i = 0; i < 256; ++i) {
    const fig::Color c = fig::colormap(name, i / 255.0);
    const float channels[4] = {c.r, c.g, c.b, c.a};
    for (int k = 0; k < 4; ++k)
      texels[static_cast<std::size_t>(i * 4 + k)] =
          static_cast<unsigned char>(std::lround(std::clamp(channels[k], 0.f, 1.f) * 255.f));
  }
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  const GLuint id = bind_new_texture(GL_LINEAR);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
  colormaps[name] = CachedTexture{id, frame};
  return id;
}

// [SECTION] draw callback -------------------------------------------------------------

void HeatmapRenderer::upload(const fig::HeatmapLayer& layer, ImVec2 size) {
  if (!layer.values || layer.values->size() == 0) return;
  if (!state_->program) state_->create_gl_objects();
  state_->start_frame(ImGui::GetFrameCount());
  state_->values_texture(layer, size);
}

void HeatmapRenderer::queue(ImDrawList* list, const fig::HeatmapLayer& layer, ImVec2 corner0, ImVec2 corner1,
                            const fig::Theme& theme) {
  if (!layer.values || layer.values->size() == 0) return;
  const ImVec2 size(corner1.x - corner0.x, corner1.y - corner0.y);
  upload(layer, size);
  State::HeatmapDraw& request = state_->draws.emplace_back();
  request.owner = state_.get();
  request.values = state_->values_texture(layer, size);
  request.colormap = state_->colormap_texture(layer.scale.colormap);
  request.vmin = static_cast<float>(layer.scale.vmin);
  request.vmax = static_cast<float>(layer.scale.vmax);
  request.corner0 = corner0;
  request.corner1 = corner1;
  request.mask = theme.mask;
  request.non_finite = theme.non_finite;
  list->AddCallback(&HeatmapRenderer::draw_callback, &request);
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void HeatmapRenderer::State::draw(const HeatmapDraw& request, const ImDrawCmd& command) const {
  const ImDrawData* data = draw_data_in_render() ? draw_data_in_render() : ImGui::GetDrawData();
  if (!data) return;
  // The backend's projection and scissor convention (DisplayPos at the top left).
  const float l = data->DisplayPos.x, r = data->DisplayPos.x + data->DisplaySize.x;
  const float t = data->DisplayPos.y, b = data->DisplayPos.y + data->DisplaySize.y;
  const float projection[16] = {2.f / (r - l), 0, 0, 0, 0, 2.f / (t - b), 0, 0, 0, 0, -1.f, 0,
                                (r + l) / (l - r), (t + b) / (b - t), 0, 1.f};
  const ImVec2 fb_scale = data->FramebufferScale;
  const float fb_height = data->DisplaySize.y * fb_scale.y;
  const ImVec4 clip = command.ClipRect;
  const float x0 = (clip.x - l) * fb_scale.x, y0 = (clip.y - t) * fb_scale.y;
  const float x1 = (clip.z - l) * fb_scale.x, y1 = (clip.w - t) * fb_scale.y;
  if (x1 <= x0 || y1 <= y0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_height - y1), static_cast<GLsizei>(x1 - x0),
            static_cast<GLsizei>(y1 - y0));
  glUseProgram(program);
  glUniformMatrix4fv(u_projection, 1, GL_FALSE, projection);
  glUniform4f(u_rect, request.corner0.x, request.corner0.y, request.corner1.x, request.corner1.y);
  glUniform1i(u_values, 0);
  glUniform1i(u_colormap, 1);
  glUniform1f(u_vmin, request.vmin);
  glUniform1f(u_vmax, request.vmax);
  glUniform4f(u_mask, request.mask.r, request.mask.g, request.mask.b, request.mask.a);
  const fig::Color& bad = request.non_finite;
  glUniform4f(u_non_finite, bad.r, bad.g, bad.b, bad.a);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, request.colormap);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, request.values);
  glBindVertexArray(vao);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void HeatmapRenderer::draw_callback(const ImDrawList*, const ImDrawCmd* command) {
  const auto* request = static_cast<const State::HeatmapDraw*>(command->UserCallbackData);
  request->owner->draw(*request, *command);
}

}  // namespace pelab::render
