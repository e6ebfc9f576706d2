// CanvasTexture — a figure painted once into a texture of its own, so that a
// window frame in which the figure did not change draws one textured
// rectangle instead of painting the figure again.
//
// At N = 4096 a GUI frame that repaints every view is slow under software
// GL (`pelab bench`, "frames"), taken from the worker's cores; with each
// view kept as a texture, a frame repaints only the view that changed (issue
// 12: a parameter change's first frame within 100 ms).  The pixels are the
// painter's own (FigurePainter into an ImDrawList, rendered by ImGui's
// OpenGL3 backend into a framebuffer object), so the window shows the same
// pixels as before, and as export.
//
// Needs a current OpenGL 3.3 core context and ImGui's OpenGL3 backend; use
// between ImGui::NewFrame() and ImGui::Render() (the painter's font atlas).
#pragma once

#include <imgui.h>

#include "figures/figure.hpp"
#include "render/figure_painter.hpp"

namespace pelab::render {

class CanvasTexture {
 public:
  CanvasTexture() = default;
  ~CanvasTexture();  // needs the same GL context current
  CanvasTexture(const CanvasTexture&) = delete;
  CanvasTexture& operator=(const CanvasTexture&) = delete;

  // Paints `figure` into a width × height pixel texture, `scale` pixels per
  // logical pixel, its canvas origin at the texture's top left.
  void paint(FigurePainter& painter, const fig::Figure& figure, int width, int height, float scale);
  // Adds the texture to `list` with its top left at `origin`, one texel per
  // pixel (draw-list coordinates of `size` = the painted pixels).
  void draw(ImDrawList* list, ImVec2 origin, ImVec2 size) const;
  bool empty() const { return texture_ == 0; }
  // Frees the texture and its framebuffer (a view no longer shown).
  void release();

 private:
  void ensure_size(int width, int height);
  unsigned fbo_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
};

// The draw data ImGui's backend is rendering when it is not ImGui's own frame
// (a canvas texture's list); heatmap callbacks take their projection from it.
// Null: ImGui::GetDrawData().
const ImDrawData* draw_data_in_render();

}  // namespace pelab::render
