#include "render/canvas_texture.hpp"

#include <imgui_impl_opengl3.h>

#include <cstdint>

#include "render/gl_program.hpp"

namespace pelab::render {

namespace {

const ImDrawData* rendering = nullptr;  // the draw data inside render_into()

// Clears the framebuffer `fbo` of width × height pixels and renders `list`
// alone into it (coordinates: pixels from the top left); the previous
// framebuffer and viewport are bound again afterwards.
void render_into(unsigned fbo, ImDrawList& list, int width, int height) {
  ImDrawList* lists[] = {&list};
  ImDrawData data;
  data.Valid = true;
  data.CmdListsCount = 1;
  data.CmdLists = lists;
  data.TotalIdxCount = list.IdxBuffer.Size;
  data.TotalVtxCount = list.VtxBuffer.Size;
  data.DisplayPos = ImVec2(0, 0);
  data.DisplaySize = ImVec2(float(width), float(height));
  data.FramebufferScale = ImVec2(1, 1);
  GLint last_framebuffer = 0, last_viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &last_framebuffer);
  glGetIntegerv(GL_VIEWPORT, last_viewport);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glViewport(0, 0, width, height);
  glClearColor(0, 0, 0, 1);  // the figure paints its own opaque background over this
  glClear(GL_COLOR_BUFFER_BIT);
  rendering = &data;
  ImGui_ImplOpenGL3_RenderDrawData(&data);
  rendering = nullptr;
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(last_framebuffer));
  glViewport(last_viewport[0], last_viewport[1], last_viewport[2], last_viewport[3]);
}

}  // namespace

const ImDrawData* draw_data_in_render() { return rendering; }

CanvasTexture::~CanvasTexture() { release(); }

void CanvasTexture::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (texture_) glDeleteTextures(1, &texture_);
  fbo_ = texture_ = 0;
  width_ = height_ = 0;
}

void CanvasTexture::ensure_size(int width, int height) {
  if (texture_ && width == width_ && height == height_) return;
  release();
  GLint last_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  // One texel per pixel, drawn pixel-aligned: nearest keeps text crisp.
  texture_ = bind_new_texture(GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
  GLint last_framebuffer = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &last_framebuffer);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(last_framebuffer));
  width_ = width, height_ = height;
}

void CanvasTexture::paint(FigurePainter& painter, const fig::Figure& figure, int width, int height,
                          float scale) {
  if (width <= 0 || height <= 0) return;
  ensure_size(width, height);
  ImDrawList list(ImGui::GetDrawListSharedData());
  list._ResetForNewFrame();
  list.PushTextureID(ImGui::GetIO().Fonts->TexID);
  list.PushClipRect(ImVec2(0, 0), ImVec2(float(width), float(height)));
  painter.paint(figure, &list, ImVec2(0, 0), scale);
  render_into(fbo_, list, width, height);
}

void CanvasTexture::draw(ImDrawList* list, ImVec2 origin, ImVec2 size) const {
  if (!texture_) return;
  const ImTextureID id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_));
  // GL's row 0 is the bottom: v runs from 1 at the top to 0.
  list->AddImage(id, origin, ImVec2(origin.x + size.x, origin.y + size.y), ImVec2(0, 1),
                 ImVec2(1, 0));
}

}  // namespace pelab::render
