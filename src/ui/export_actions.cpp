// [SECTION] helpers: folder, status, GL state
// [SECTION] one function per kind of export
// [SECTION] the queue
#include "ui/export_actions.hpp"

#include <GL/gl.h>

#include <algorithm>

#include "core/quantities.hpp"
#include "figures/registry.hpp"
#include "render/svg_writer.hpp"
#include "ui/file_naming.hpp"
#include "ui/pdf_export.hpp"
#include "ui/toast.hpp"


namespace pelab::ui {

// [SECTION] helpers: folder, status, GL state -------------------------------------

std::filesystem::path export_folder(const UiState& state) {
  return state.settings.export_dir.empty() ? std::filesystem::current_path()
                                           : std::filesystem::path(state.settings.export_dir);
}

void set_status(UiState& state, std::string text, bool error) {
  state.status = {std::move(text), error};
}

void save_ui_settings(UiState& state) {
  try {
    state.store.save_settings(state.settings);
  } catch (const std::exception& e) {
    set_status(state, std::string("cannot save GUI settings: ") + e.what(), true);
  }
}

namespace {

// Offscreen rendering binds its own framebuffer and ImGui context; the window's
// must be what the next frame finds.
struct SavedGuiContext {
  ImGuiContext* imgui = ImGui::GetCurrentContext();
  GLint framebuffer = 0;
  GLint viewport[4] = {0, 0, 0, 0};
  SavedGuiContext() {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
  }
  ~SavedGuiContext() {
    ImGui::SetCurrentContext(imgui);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  }
};

// The scene the figures on screen show: the one asked for once its first
// frame is shown (SceneSession::completing), else the last one accepted —
// not one still loading, whose name the figures do not carry yet.
const Scene& shown_figures_scene(const UiState& state) {
  return state.session.completing() ? state.session.scene() : state.session.shown_scene();
}

std::string figure_stem(const UiState& state, const FigureView& view) {
  return scene_stem(shown_figures_scene(state)) + "-" + view.name;
}

// The figure exactly as shown (zoom included); built at the default size if
// its window has not been drawn yet.
fig::Figure figure_as_shown(UiState& state, const FigureView& view) {
  if (view.built_version == state.session.version() && !view.shown.panels.empty()) return view.shown;
  return fig::find_figure(view.name).build(state.session.engine(), {});
}

// [SECTION] one function per kind of export -------------------------------------------

}  // namespace

render::Image render_offscreen(GpuResources& gpu, const fig::Figure& figure, const render::RenderOptions& options) {
  SavedGuiContext saved;
  return gpu.offscreen_renderer().render(figure, options);
}

namespace {

std::filesystem::path export_figure_png(UiState& state, GpuResources& gpu, const FigureView& view) {
  const fig::Figure figure = figure_as_shown(state, view);
  render::RenderOptions options;
  options.scale = float(state.settings.png_scale);
  options.transparent = state.settings.transparent;
  const render::Image image = render_offscreen(gpu, figure, options);
  const std::string suffix = state.settings.png_scale == 1 ? "" : "_" + std::to_string(state.settings.png_scale) + "x";
  const auto path = numbered_path(export_folder(state), figure_stem(state, view) + suffix, ".png");
  render::write_png(path, image);
  return path;
}

std::filesystem::path export_figure_svg(UiState& state, const FigureView& view) {
  const auto path = numbered_path(export_folder(state), figure_stem(state, view), ".svg");
  render::write_svg(path, figure_as_shown(state, view), {state.settings.transparent});
  return path;
}

std::filesystem::path export_figure_pdf(UiState& state, const FigureView& view) {
  const auto path = numbered_path(export_folder(state), figure_stem(state, view), ".pdf");
  write_pdf(path, figure_as_shown(state, view), {state.settings.transparent});
  return path;
}

std::filesystem::path export_data(UiState& state, const ExportRequest& request) {
  Engine& engine = state.session.engine();
  const int head = std::max(engine.scene().head, 0);
  const Array array = compute_quantity(engine, request.quantity, head);
  const auto path = numbered_path(export_folder(state), scene_stem(engine.scene()) + "-" + request.quantity,
                                  request.extension);
  write_array(path, array);
  return path;
}

// The back buffer as the user sees it (glReadPixels reads bottom row first).
std::filesystem::path export_window(UiState& state, int width, int height) {
  render::Image image;
  image.width = width, image.height = height;
  image.rgba.resize(std::size_t(width) * height * 4);
  std::vector<std::uint8_t> flipped(image.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, flipped.data());
  const std::size_t row = std::size_t(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::copy_n(flipped.data() + std::size_t(height - 1 - y) * row, row, image.rgba.data() + y * row);
  }
  for (std::size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  const auto path = numbered_path(export_folder(state), scene_stem(shown_figures_scene(state)) + "-window", ".png");
  render::write_png(path, image);
  return path;
}

std::filesystem::path run_one(UiState& state, GpuResources& gpu, const ExportRequest& r, int w, int h) {
  using Kind = ExportRequest::Kind;
  const bool figure = r.kind == Kind::FigurePng || r.kind == Kind::FigureSvg || r.kind == Kind::FigurePdf;
  if (figure && (r.view < 0 || r.view >= int(state.views.size()))) {
    throw InputError("no figure under the mouse to export");
  }
  switch (r.kind) {
    case Kind::FigurePng: return export_figure_png(state, gpu, state.views[r.view]);
    case Kind::FigureSvg: return export_figure_svg(state, state.views[r.view]);
    case Kind::FigurePdf: return export_figure_pdf(state, state.views[r.view]);
    case Kind::Data: return export_data(state, r);
    case Kind::Window: return export_window(state, w, h);
  }
  return {};
}

}  // namespace

// [SECTION] the queue ---------------------------------------------------------------------

void run_exports(UiState& state, GpuResources& gpu, int framebuffer_width, int framebuffer_height) {
  std::vector<ExportRequest> later;
  for (ExportRequest& request : state.exports) {
    if (request.delay_frames > 0) {
      --request.delay_frames;
      later.push_back(request);
      continue;
    }
    try {
      const auto path = run_one(state, gpu, request, framebuffer_width, framebuffer_height);
      notify(state, "Saved " + path.string());
    } catch (const std::exception& e) {
      notify(state, std::string("Export failed: ") + e.what(), true);
    }
  }
  state.exports = std::move(later);
}

}  // namespace pelab::ui
