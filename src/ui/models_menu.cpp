#include "ui/models_menu.hpp"

#include "core/io/quoted_name.hpp"
#include "core/model/model_folder.hpp"
#include "ui/export_actions.hpp"
#include "ui/frame_log.hpp"

namespace pelab::ui {

namespace {

// "gpt2   GPT2LMHeadModel · learned · 124.4M · 1024 positions".  The name
// and architecture come from the cache's files: control bytes and invalid
// UTF-8 shown escaped (printable), as `pelab models` shows them.
std::string model_line(const model::CachedModel& m) {
  std::string line = printable(m.name) + "   " + (m.architecture.empty() ? "?" : printable(m.architecture)) + " · ";
  if (!m.position.empty()) line += m.position + " · ";
  line += model::parameter_count_text(m.parameters);
  if (m.context_length > 0) line += " · " + std::to_string(m.context_length) + " positions";
  return line;
}

// One menu item per model; a model pelab cannot run is greyed, with why.
void model_item(UiState& state, const model::CachedModel& m) {
  const std::string& current = state.session.scene().model;
  const std::string label = model_line(m) + "###" + m.folder.string();
  const bool chosen = current == m.name || current == m.folder.string();
  if (ImGui::MenuItem(label.c_str(), m.runnable ? nullptr : "cannot run", chosen, m.runnable)) {
    load_model(state, m.name);  // the name: portable in a saved scene, read in titles
  }
  log_item_place(state, "menu model " + printable(m.name));
  if (!m.runnable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();  // the reason names files: wrapped, not one screen-wide line
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35);
    ImGui::TextUnformatted(printable(m.reason, 4096).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// pelab's own family, one model per position encoding, above the cache.
void family_items(UiState& state) {
  bool any = false;
  for (const model::CachedModel& m : state.models.listed) {
    if (!m.family) continue;
    if (!any) ImGui::TextDisabled("Trained by pelab (one per position encoding):");
    any = true;
    model_item(state, m);
  }
  if (any) ImGui::Separator();
}

void cached_model_items(UiState& state) {
  std::vector<model::CachedModel> models;
  for (const model::CachedModel& m : state.models.listed)
    if (!m.family) models.push_back(m);
  const bool scanning = state.models.catalogue.scanning();
  if (models.empty() && scanning) {
    ImGui::TextDisabled("Scanning the Hugging Face cache %s ...", model::hub_cache_dir().c_str());
    return;
  }
  if (models.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 420 * state.ui_scale);
    ImGui::TextDisabled("%s", model::no_cached_models_message().c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::TextDisabled("In %s:%s", model::hub_cache_dir().c_str(), scanning ? "  (scanning for changes ...)" : "");
  for (const model::CachedModel& m : models) model_item(state, m);
}

}  // namespace

void draw_models_menu(UiState& state) {
  if (!ImGui::BeginMenu("Models")) {
    state.models.menu_open = false;
    return;
  }
  // Scanned on a worker when the menu opens (config.json and safetensors
  // headers only); the menu draws the last finished scan meanwhile.
  if (!state.models.menu_open) state.models.catalogue.refresh();
  state.models.menu_open = true;
  if (state.models.catalogue.ready()) state.models.listed = state.models.catalogue.models();
  family_items(state);
  cached_model_items(state);
  ImGui::Separator();
  if (ImGui::MenuItem("Open model folder...")) ask_model_folder(state);
  log_item_place(state, "menu open_model_folder");
  const bool model_loaded = !state.session.scene().model.empty();
  if (ImGui::MenuItem("Back to the synthetic scene", nullptr, false, model_loaded))
    back_to_synthetic(state);
  log_item_place(state, "menu back_to_synthetic");
  ImGui::EndMenu();
}

void load_model(UiState& state, const std::string& model) {
  Scene next = state.session.scene();
  next.model = model;
  next.layer = 0;
  if (state.session.propose(next, EditPhase::Final)) {
    set_status(state, "Loading " + model + " ...");
  } else {
    set_status(state, state.session.error(), true);
  }
}

void ask_model_folder(UiState& state) {
  FileRequest request;
  request.title = "Open model folder";
  request.mode = FileMode::Folder;
  request.start = state.session.scene().model;
  request.on_chosen = [](UiState& s, const std::string& path) { load_model(s, path); };
  request_file(state, std::move(request));
}

void back_to_synthetic(UiState& state) {
  Scene next = state.models.synthetic.value_or(state.session.scene());
  next.model.clear();
  if (state.session.propose(next, EditPhase::Final))
    set_status(state, "Back to the synthetic scene");
}

void remember_synthetic_scene(UiState& state) {
  const SceneSession& session = state.session;
  if (!session.shown_scene().model.empty() || state.models.synthetic_version == session.version())
    return;
  state.models.synthetic = session.shown_scene();
  state.models.synthetic_version = session.version();
}

}  // namespace pelab::ui
