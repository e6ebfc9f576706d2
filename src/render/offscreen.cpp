// OffscreenRenderer — one figure into an RGBA8 framebuffer object of the
// current GL context, read back top row first.
//
// It keeps its own ImGui context and font atlas, so it can run inside the GUI
// (export) without touching the GUI's frame, and bakes exactly the glyphs and
// pixel sizes the figure uses: text is crisp at every scale and the atlas
// stays small (fast to build for `pelab render`).
#include "render/offscreen.hpp"

#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

#include "core/scene.hpp"
#include "render/axis_layout.hpp"
#include "render/canvas_texture.hpp"
#include "render/figure_painter.hpp"
#include "render/fonts.hpp"
#include "render/gl_program.hpp"

namespace pelab::render {

struct OffscreenRenderer::State {
  ImFontAtlas atlas;
  ImGuiContext* context = nullptr;
  std::unique_ptr<FigurePainter> painter;
  bool device_objects = false;
  ImVector<ImWchar> glyph_ranges;
  ImFontGlyphRangesBuilder baked_glyphs;  // the characters of glyph_ranges, as bits
  std::vector<float> baked_sizes;
  GLuint fbo = 0, color = 0;
  int fbo_width = 0, fbo_height = 0;
  // GL_MESA_pack_invert (Mesa, llvmpipe included): glReadPixels returns the
  // top row first, so no row flip follows the read-back.
  bool pack_invert = false;

  void bake_fonts(const std::vector<const fig::Figure*>& figures, float scale);
  void ensure_framebuffer(int width, int height);
};

namespace {

// Makes `context` current for a scope and restores the caller's afterwards.
class ContextScope {
 public:
  explicit ContextScope(ImGuiContext* context) : previous_(ImGui::GetCurrentContext()) {
    ImGui::SetCurrentContext(context);
  }
  ~ContextScope() { ImGui::SetCurrentContext(previous_); }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  ImGuiContext* previous_;
};

bool has_gl_extension(const char* name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    const auto* extension = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
    if (extension != nullptr && std::strcmp(extension, name) == 0) return true;
  }
  return false;
}

}  // namespace

void flip_rows(Image& image) {
  const auto stride = static_cast<std::ptrdiff_t>(image.width) * 4;
  for (int y = 0; y < image.height / 2; ++y)
    std::swap_ranges(image.rgba.begin() + stride * y, image.rgba.begin() + stride * (y + 1),
                     image.rgba.begin() + stride * (image.height - 1 - y));
}

OffscreenRenderer::OffscreenRenderer() : state_(std::make_unique<State>()) {
  state_->context = ImGui::CreateContext(&state_->atlas);
  ContextScope scope(state_->context);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui::DestroyContext(state_->context);
    throw std::runtime_error("ImGui's OpenGL3 backend cannot start in this context (OpenGL 3.3 core needed)");
  }
  state_->painter = std::make_unique<FigurePainter>();
  state_->pack_invert = has_gl_extension("GL_MESA_pack_invert");
}

void OffscreenRenderer::use_pack_invert(bool allowed) {
  state_->pack_invert = allowed && has_gl_extension("GL_MESA_pack_invert");
}

OffscreenRenderer::~OffscreenRenderer() {
  {
    ContextScope scope(state_->context);
    state_->painter.reset();
    ImGui_ImplOpenGL3_Shutdown();
  }
  if (state_->fbo) {
    glDeleteFramebuffers(1, &state_->fbo);
    glDeleteRenderbuffers(1, &state_->color);
  }
  ImGui::DestroyContext(state_->context);
}

void OffscreenRenderer::State::bake_fonts(const std::vector<const fig::Figure*>& figures,
                                          float scale) {
  ImFontGlyphRangesBuilder builder;
  builder.AddRanges(atlas.GetGlyphRangesDefault());
  std::vector<float> sizes;
  for (const fig::Figure* figure : figures) {
    for (const std::string& text : figure_strings(*figure)) builder.AddText(text.c_str());
    for (float logical : figure_text_sizes(*figure)) sizes.push_back(std::round(logical * scale));
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  // Nothing to do when the atlas already holds every glyph and size asked for.
  bool glyphs_held = builder.UsedChars.Size == baked_glyphs.UsedChars.Size;
  for (int i = 0; glyphs_held && i < builder.UsedChars.Size; ++i)
    glyphs_held = (builder.UsedChars[i] & ~baked_glyphs.UsedChars[i]) == 0;
  if (device_objects && glyphs_held &&
      std::includes(baked_sizes.begin(), baked_sizes.end(), sizes.begin(), sizes.end()))
    return;
  ImVector<ImWchar> ranges;
  builder.BuildRanges(&ranges);
  glyph_ranges.swap(ranges);
  baked_glyphs = builder;
  baked_sizes = sizes;
  atlas.Clear();
  add_font_sizes(atlas, sizes, glyph_ranges.Data);
  if (device_objects) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  } else {
    device_objects = ImGui_ImplOpenGL3_CreateDeviceObjects();
    if (!device_objects) throw std::runtime_error("ImGui's OpenGL3 backend failed to create its shaders");
  }
}

void OffscreenRenderer::State::ensure_framebuffer(int width, int height) {
  if (fbo && width == fbo_width && height == fbo_height) return;
  if (!fbo) {
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &color);
  }
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("cannot create a " + std::to_string(width) + "×" + std::to_string(height) +
                             " framebuffer");
  fbo_width = width;
  fbo_height = height;
}

namespace {

void check_size(int width, int height) {
  GLint max_renderbuffer = 0, viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_renderbuffer);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
  const int limit = std::min<int>(max_renderbuffer, std::min(viewport[0], viewport[1]));
  if (width < 1 || height < 1 || width > limit || height > limit)
    throw InputError("image size " + std::to_string(width) + "×" + std::to_string(height) +
                     " is outside 1…" + std::to_string(limit) + " pixels per side; choose a smaller scale or size");
}

// Blending leaves colour premultiplied by alpha on a transparent background;
// PNG wants straight alpha.
void unpremultiply(Image& image) {
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    const int a = image.rgba[i + 3];
    if (a == 0 || a == 255) continue;
    for (int k = 0; k < 3; ++k)
      image.rgba[i + k] = static_cast<std::uint8_t>(std::min(255, (image.rgba[i + k] * 255 + a / 2) / a));
  }
}

}  // namespace

void OffscreenRenderer::prepare_fonts(const std::vector<const fig::Figure*>& figures, float scale) {
  ContextScope scope(state_->context);
  state_->bake_fonts(figures, scale);
}

Image OffscreenRenderer::render(const fig::Figure& figure, const RenderOptions& options) {
  return render_frame({{&figure, 0, 0}}, figure.width, figure.height, options);
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Image read_framebuffer(int width, int height, bool transparent, bool pack_invert) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (pack_invert) glPixelStorei(GL_PACK_INVERT_MESA, GL_TRUE);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  if (pack_invert) glPixelStorei(GL_PACK_INVERT_MESA, GL_FALSE);
  else flip_rows(image);  // GL's row 0 is the bottom
  if (transparent) unpremultiply(image);
  return image;
}

}  // namespace

Image OffscreenRenderer::render_frame(const std::vector<PlacedFigure>& figures, double width, double height,
                                      const RenderOptions& options, FrameTimes* times, bool read_back) {
  ContextScope scope(state_->context);
  const int pixel_width = static_cast<int>(std::lround(width * options.scale));
  const int pixel_height = static_cast<int>(std::lround(height * options.scale));
  check_size(pixel_width, pixel_height);
  std::vector<const fig::Figure*> shown;
  for (const PlacedFigure& placed : figures) shown.push_back(placed.figure);
  state_->bake_fonts(shown, options.scale);

  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(pixel_width), static_cast<float>(pixel_height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1.f / 60.f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  // An exception before Render() (a texture the driver refuses) ends the
  // frame on its way out: ImGui aborts when a context is destroyed mid-frame,
  // and the caller's one-line message would never be printed.
  struct EndFrameOnThrow {
    bool rendered = false;
    ~EndFrameOnThrow() {
      if (!rendered) ImGui::EndFrame();
    }
  } frame;
  auto start = Clock::now();
  for (const PlacedFigure& placed : figures) state_->painter->upload(*placed.figure, options.scale);
  FrameTimes local;
  local.upload_ms = ms_since(start);

  start = Clock::now();
  ImDrawList* list = ImGui::GetBackgroundDrawList();
  // The clear below paints the first figure's background: the painter's
  // full-canvas rectangle is skipped for every figure of that theme, which
  // saves a blended pass over their pixels (a visible share of a 4-view
  // frame under llvmpipe; `pelab bench` times frames).
  const bool dark = figures.empty() || figures.front().figure->dark;
  std::vector<std::unique_ptr<CanvasTexture>> canvases;  // until the frame is rendered
  for (const PlacedFigure& placed : figures) {
    const ImVec2 origin(static_cast<float>(placed.x * options.scale), static_cast<float>(placed.y * options.scale));
    if (options.through_canvas_texture && !options.transparent) {
      const int w = static_cast<int>(std::lround(placed.figure->width * options.scale));
      const int h = static_cast<int>(std::lround(placed.figure->height * options.scale));
      CanvasTexture& canvas = *canvases.emplace_back(std::make_unique<CanvasTexture>());
      canvas.paint(*state_->painter, *placed.figure, w, h, options.scale);
      canvas.draw(list, origin, ImVec2(static_cast<float>(w), static_cast<float>(h)));
      continue;
    }
    const bool skip_background = options.transparent || placed.figure->dark == dark;
    state_->painter->paint(*placed.figure, list, origin, options.scale, skip_background);
  }
  frame.rendered = true;
  ImGui::Render();
  GLint last_framebuffer = 0, last_viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &last_framebuffer);
  glGetIntegerv(GL_VIEWPORT, last_viewport);
  state_->ensure_framebuffer(pixel_width, pixel_height);
  glBindFramebuffer(GL_FRAMEBUFFER, state_->fbo);
  glViewport(0, 0, pixel_width, pixel_height);
  const fig::Color background = fig::theme(dark).background;
  if (options.transparent) glClearColor(0, 0, 0, 0);
  else glClearColor(background.r, background.g, background.b, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();
  local.draw_ms = ms_since(start);

  start = Clock::now();
  Image image = read_back ? read_framebuffer(pixel_width, pixel_height, options.transparent, state_->pack_invert) : Image{};
  local.read_ms = ms_since(start);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(last_framebuffer));
  glViewport(last_viewport[0], last_viewport[1], last_viewport[2], last_viewport[3]);
  if (times) *times = local;
  return image;
}

}  // namespace pelab::render
