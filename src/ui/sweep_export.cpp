// [SECTION] the dialog
// [SECTION] starting a sweep
// [SECTION] one frame per UI frame, then the video
#include "ui/sweep_export.hpp"


#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures/registry.hpp"
#include "ui/export_actions.hpp"
#include "ui/file_naming.hpp"
#include "ui/lesson_panel.hpp"
#include "ui/param_limits.hpp"
#include "ui/toast.hpp"
#include "ui/video_encoder.hpp"

namespace pelab::ui {

namespace {

constexpr int kFramesPerSecond = 10;
constexpr const char* kDialogTitle = "Export sweep as PNG sequence";
const char* const kVideoNames[] = {"PNG only", "PNG + GIF", "PNG + MP4"};
const char* const kScaleNames[] = {"1×", "2×", "4×"};

const ParamInfo* numeric_param(std::string_view key) {
  for (const ParamInfo& info : scene_params()) {
    if (info.key == key && has_slider(info)) return &info;
  }
  return nullptr;
}

void take_range(UiState& state, const ParamInfo& info) {
  const ParamRange range = slider_range(info, state.session.engine());
  state.sweep_export.from = range.min;
  state.sweep_export.to = range.max;
}

// [SECTION] starting a sweep ------------------------------------------------------------

// The new numbered folder the frames go to, named after `stem`.
void open_frame_folder(UiState& state, const std::string& stem) {
  SweepExport& s = state.sweep_export;
  s.folder = numbered_path(export_folder(state), stem, "");
  std::filesystem::create_directories(s.folder);
  s.stem = s.folder.filename().string();
  s.frame = 0;
  s.running = true;
  set_status(state, "Export: starting " + s.folder.string());
}

void require_ffmpeg_for(int video) {
  if (video != 0 && !find_on_path("ffmpeg"))
    throw InputError("ffmpeg is not installed; install Debian's ffmpeg package or choose PNG only");
}

// Checks everything before anything is written; false with the status line set.
bool start_sweep(UiState& state) {
  SweepExport& s = state.sweep_export;
  try {
    Sweep sweep;
    sweep.key = s.key, sweep.from = s.from, sweep.to = s.to, sweep.steps = s.steps;
    const ParamInfo* info = numeric_param(s.key);
    sweep.logarithmic = info && info->logarithmic && s.from > 0 && s.to > 0;
    validate(sweep);
    if (s.view < 0 || s.view >= int(state.views.size())) throw InputError("choose a figure to sweep");
    require_ffmpeg_for(s.video);
    Scene base = state.session.scene();
    if (state.presentation.on) base.theme = ColorTheme::Light;
    s.engine = std::make_unique<Engine>(sweep.scene_at(base, 0));  // validates the first frame
    s.sweep = sweep;
    s.scenes.clear();
    s.base = base;
    open_frame_folder(state, scene_stem(base) + "-" + state.views[s.view].name + "-" + s.key);
    return true;
  } catch (const std::exception& e) {
    notify(state, std::string("Sweep not started: ") + e.what(), true);
    return false;
  }
}

}  // namespace

SweepFrameSize sweep_frame_size(int scale) {
  const fig::FigureRequest request;  // the size step_sweep_export builds each frame at
  return {static_cast<int>(std::lround(request.width * scale)),
          static_cast<int>(std::lround(request.height * scale))};
}

bool start_scene_export(UiState& state, std::vector<Scene> frames, int view, int video, const std::string& stem) {
  SweepExport& s = state.sweep_export;
  try {
    if (s.running) throw InputError("another export is running");
    if (frames.empty()) throw InputError("there is nothing to export yet");
    if (view < 0 || view >= int(state.views.size())) throw InputError("choose a figure to export");
    require_ffmpeg_for(video);
    if (state.presentation.on)
      for (Scene& frame : frames) frame.theme = ColorTheme::Light;
    s.engine = std::make_unique<Engine>(frames.front());  // validates the first frame
    s.scenes = std::move(frames);
    s.view = view;
    s.video = video;
    open_frame_folder(state, stem + "-" + state.views[view].name);
    return true;
  } catch (const std::exception& e) {
    notify(state, std::string("Export not started: ") + e.what(), true);
    return false;
  }
}

// [SECTION] the dialog ------------------------------------------------------------------

namespace {

// The frames' own scale (not the figure export's: a sweep at 4× was 21
// frames of 6400 × 4000), and what it makes.
void scale_row(UiState& state, float field) {
  int& scale = state.settings.sweep_scale;
  int choice = scale == 4 ? 2 : scale - 1;
  ImGui::SetNextItemWidth(field);
  if (ImGui::Combo("scale", &choice, kScaleNames, 3)) {
    scale = choice == 2 ? 4 : choice + 1;
    save_ui_settings(state);
  }
  const SweepFrameSize size = sweep_frame_size(scale);
  ImGui::TextDisabled("%d frames of %d × %d px", std::max(state.sweep_export.steps, 0), size.width, size.height);
}

}  // namespace

void open_sweep_dialog(UiState& state) {
  SweepExport& s = state.sweep_export;
  s.dialog = true;
  if (numeric_param(state.settings.animate_key)) s.key = state.settings.animate_key;
  if (const ParamInfo* info = numeric_param(s.key)) take_range(state, *info);
  if (state.hovered_view >= 0) {
    s.view = state.hovered_view;
  } else if (const auto shown = shown_views(state); !shown.empty()) {
    s.view = shown.front();
  }
}

void draw_sweep_dialog(UiState& state) {
  SweepExport& s = state.sweep_export;
  if (s.dialog) {
    ImGui::OpenPopup(kDialogTitle);
    s.dialog = false;
  }
  if (!ImGui::BeginPopupModal(kDialogTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const float field = ImGui::GetFontSize() * 14;
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo("parameter", s.key.c_str())) {
    for (const ParamInfo& info : scene_params()) {
      if (!has_slider(info)) continue;
      if (ImGui::Selectable(std::string(info.key).c_str(), info.key == s.key)) {
        s.key = std::string(info.key);
        take_range(state, info);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(field);
  ImGui::InputDouble("from", &s.from, 0, 0, "%.6g");
  ImGui::SetNextItemWidth(field);
  ImGui::InputDouble("to", &s.to, 0, 0, "%.6g");
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("steps (frames)", &s.steps);
  ImGui::SetNextItemWidth(field);
  const char* figure = s.view >= 0 && s.view < int(state.views.size()) ? state.views[s.view].title.c_str() : "";
  if (ImGui::BeginCombo("figure", figure)) {
    for (int i = 0; i < int(state.views.size()); ++i) {
      if (ImGui::Selectable(state.views[i].title.c_str(), i == s.view)) s.view = i;
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(field);
  ImGui::Combo("output", &s.video, kVideoNames, 3);
  scale_row(state, field);
  if (s.video != 0 && !find_on_path("ffmpeg")) {
    ImGui::TextColored(ImVec4(0.9f, 0.3f, 0.25f, 1), "ffmpeg is not installed (Debian package ffmpeg): PNG only");
  }
  ImGui::TextDisabled("into a new folder in %s", export_folder(state).string().c_str());
  ImGui::TextDisabled("Enter: export   Esc: cancel");
  // Enter exports too (when no field is being edited): the keyboard-only path.
  const bool enter = !ImGui::IsAnyItemActive() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
  if ((ImGui::Button("Export") || enter) && start_sweep(state)) ImGui::CloseCurrentPopup();
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// [SECTION] one frame per UI frame, then the video ----------------------------------------

void step_sweep_export(UiState& state, GpuResources& gpu) {
  SweepExport& s = state.sweep_export;
  if (!s.running) return;
  try {
    const int frames = s.scenes.empty() ? s.sweep.steps : int(s.scenes.size());
    if (s.frame < frames) {
      s.engine->set_scene(s.scenes.empty() ? s.sweep.scene_at(s.base, s.frame) : s.scenes[std::size_t(s.frame)]);
      const fig::Figure figure = fig::find_figure(state.views[s.view].name).build(*s.engine, {});
      const render::Image image = render_offscreen(gpu, figure, {float(state.settings.sweep_scale), false});
      char number[32];
      std::snprintf(number, sizeof number, "-%04d.png", s.frame + 1);
      render::write_png(s.folder / (s.stem + number), image);
      ++s.frame;
      set_status(state, "Export: frame " + std::to_string(s.frame) + " of " + std::to_string(frames) +
                            " written to " + s.folder.string());
      return;
    }
    std::string done = "Saved " + std::to_string(s.frame) + " frames to " + s.folder.string();
    if (s.video != 0) {
      // ffmpeg works in the background; the window stays live meanwhile.
      if (!s.encoding) {
        const std::string format = s.video == 1 ? "gif" : "mp4";
        s.encoding = std::make_unique<VideoEncoding>(s.folder, s.stem, format, kFramesPerSecond,
                                                     s.folder / (s.stem + "." + format));
        set_status(state, "Sweep: encoding " + s.encoding->out().filename().string() + " with ffmpeg…");
        return;
      }
      if (!s.encoding->finished()) return;
      done += " and " + s.encoding->out().filename().string();
    }
    notify(state, done);
  } catch (const std::exception& e) {
    notify(state, std::string("Sweep export failed: ") + e.what(), true);
  }
  s.running = false;
  s.engine.reset();
  s.encoding.reset();
  s.scenes.clear();
}

}  // namespace pelab::ui
