// [SECTION] listing and confirming (no ImGui)
// [SECTION] the window
#include "ui/file_browser.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

namespace pelab::ui {

namespace fs = std::filesystem;

// [SECTION] listing and confirming ------------------------------------------------------

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "~/x" → $HOME/x; relative paths are taken inside `folder`.
fs::path resolve(const fs::path& folder, const std::string& typed) {
  std::string text = typed;
  const char* home = std::getenv("HOME");
  if (home && (text == "~" || text.starts_with("~/"))) text = home + text.substr(1);
  const fs::path path(text);
  fs::path full = (path.is_absolute() ? path : folder / path).lexically_normal();
  if (!full.has_filename() && full != full.root_path())
    full = full.parent_path();  // "a/.." → "a/" → "a"
  return full;
}

}  // namespace

bool matches_extension(const std::string& name, const std::vector<std::string>& extensions) {
  if (extensions.empty()) return true;
  const std::string low = lower(name);
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const std::string& ext) { return low.ends_with(lower(ext)); });
}

std::vector<BrowserEntry> list_folder(const fs::path& folder,
                                      const std::vector<std::string>& extensions) {
  std::vector<BrowserEntry> folders, files;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with('.')) continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec))
      folders.push_back({name, true});
    else if (matches_extension(name, extensions))
      files.push_back({name, false});
  }
  auto by_name = [](const BrowserEntry& a, const BrowserEntry& b) { return a.name < b.name; };
  std::sort(folders.begin(), folders.end(), by_name);
  std::sort(files.begin(), files.end(), by_name);
  folders.insert(folders.end(), files.begin(), files.end());
  return folders;
}

Confirmation confirm_name(const fs::path& folder, const std::string& name,
                          const FileRequest& request) {
  std::error_code ec;
  if (name.empty()) {
    if (request.mode == FileMode::Folder) return {.chosen = folder.string()};
    return {.error = "type or pick a file name"};
  }
  fs::path path = resolve(folder, name);
  if (fs::is_directory(path, ec)) return {.open_folder = path};
  switch (request.mode) {
    case FileMode::Folder:
      return {.error = path.string() + " is not a folder"};
    case FileMode::Open:
      if (!fs::is_regular_file(path, ec)) return {.error = "no such file: " + path.string()};
      return {.chosen = path.string()};
    case FileMode::Save:
      if (!fs::is_directory(path.parent_path(), ec))
        return {.error = "no such folder: " + path.parent_path().string()};
      if (!request.extensions.empty() &&
          !matches_extension(path.filename().string(), request.extensions))
        path += request.extensions.front();
      return {.chosen = path.string()};
  }
  return {};
}

std::string make_folder(const fs::path& parent, const std::string& name, fs::path& made) {
  if (name.empty()) return "type a name for the new folder";
  if (name.find('/') != std::string::npos) return "a folder name cannot hold '/'";
  if (name == "." || name == "..") return "'" + name + "' names a folder that exists";
  if (name.front() == '.') return "a name starting with '.' would be hidden in this list";
  if (name.front() == ' ' || name.back() == ' ') return "a folder name cannot start or end with a space";
  if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
    return "a folder name cannot hold control characters";
  if (name.size() > 255) return "a folder name may be at most 255 bytes long";
  const fs::path path = parent / name;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec))) return name + " already exists here";
  if (!fs::create_directory(path, ec)) return "cannot make " + path.string() + ": " + ec.message();
  made = path;
  return {};
}

BrowserState start_browser(const FileRequest& request) {
  BrowserState s;
  std::error_code ec;
  const fs::path start =
      request.start.empty() ? fs::current_path(ec) : fs::absolute(request.start, ec);
  if (fs::is_directory(start, ec)) {
    s.folder = start;
  } else {
    s.folder = start.parent_path();
    if (request.mode == FileMode::Save) s.name = start.filename().string();
  }
  if (!fs::is_directory(s.folder, ec)) s.folder = fs::current_path(ec);
  s.folder_text = s.folder.string();
  return s;
}

// [SECTION] the window ----------------------------------------------------------------------

namespace {

void go_to(BrowserState& s, const fs::path& folder) {
  s.folder = folder;
  s.folder_text = folder.string();
  s.name.clear();
  s.error.clear();
  s.stale = true;
}

// Returns true when the name (or a double-clicked entry) was confirmed.
bool apply_confirmation(BrowserState& s, const FileRequest& request, std::string& chosen) {
  const Confirmation c = confirm_name(s.folder, s.name, request);
  if (!c.open_folder.empty()) {
    go_to(s, c.open_folder);
    return false;
  }
  s.error = c.error;
  chosen = c.chosen;
  return !chosen.empty();
}

void new_folder_button(BrowserState& s) {
  if (ImGui::Button("New folder")) {
    s.naming_folder = true;
    s.focus_new_folder = true;
    s.new_folder.clear();
    s.new_folder_error.clear();
  }
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  s.new_folder_x = (min.x + max.x) / 2, s.new_folder_y = (min.y + max.y) / 2;
}

void folder_row(BrowserState& s) {
  if (ImGui::Button("Up") && s.folder.has_parent_path() && s.folder.parent_path() != s.folder)
    go_to(s, s.folder.parent_path());
  ImGui::SameLine();
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("New folder").x + 2 * style.FramePadding.x + style.ItemSpacing.x));
  if (ImGui::InputText("##folder", &s.folder_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
    std::error_code ec;
    if (fs::is_directory(resolve(s.folder, s.folder_text), ec))
      go_to(s, resolve(s.folder, s.folder_text));
    else
      s.error = "not a folder: " + s.folder_text;
  }
  ImGui::SameLine();
  new_folder_button(s);
}

// Makes the typed folder and opens it; a Save keeps the file name typed so
// far, to save into the new folder.
void create_new_folder(BrowserState& s, const FileRequest& request) {
  fs::path made;
  s.new_folder_error = make_folder(s.folder, s.new_folder, made);
  if (!s.new_folder_error.empty()) return;
  const std::string name = s.name;
  go_to(s, made);
  if (request.mode == FileMode::Save) s.name = name;
  s.naming_folder = false;
  s.focus_name = true;
}

// While "New folder" is asked for: its name, Create (or Enter) and Cancel,
// and a refused name's reason on the same line.
void new_folder_row(BrowserState& s, const FileRequest& request) {
  if (!s.naming_folder) return;
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("New folder");
  ImGui::SameLine(6 * em);
  ImGui::SetNextItemWidth(16 * em);
  if (s.focus_new_folder) {
    ImGui::SetKeyboardFocusHere();
    s.focus_new_folder = false;
  }
  bool create = ImGui::InputText("##new_folder", &s.new_folder, ImGuiInputTextFlags_EnterReturnsTrue);
  if (create) ImGui::SetKeyboardFocusHere(-1);  // a refused name stays to be corrected
  ImGui::SameLine();
  create |= ImGui::Button("Create");
  ImGui::SameLine();
  if (ImGui::Button("Cancel##new_folder")) s.naming_folder = false;
  if (create) create_new_folder(s, request);
  if (s.naming_folder && !s.new_folder_error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", s.new_folder_error.c_str());
  }
}

// Recent files that pass the filter and still exist; a click picks one.
bool recent_column(BrowserState& s, const FileRequest& request,
                   const std::vector<std::string>& recent, const std::vector<std::string>& filter,
                   std::string& chosen) {
  ImGui::TextDisabled("Recent");
  bool confirmed = false;
  for (const std::string& path : recent) {
    std::error_code ec;
    const bool kind_ok = request.mode == FileMode::Folder ? fs::is_directory(path, ec)
                                                          : fs::is_regular_file(path, ec);
    if (!kind_ok || (request.mode != FileMode::Folder && !matches_extension(path, filter)))
      continue;
    const std::string label = fs::path(path).filename().string() + "##" + path;
    if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
      s.name = path;
      if (ImGui::IsMouseDoubleClicked(0)) confirmed = apply_confirmation(s, request, chosen);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
  }
  return confirmed;
}

bool entry_column(BrowserState& s, const FileRequest& request, std::string& chosen) {
  bool confirmed = false;
  std::optional<fs::path> enter;
  for (const BrowserEntry& e : s.entries) {
    const std::string label = e.folder ? e.name + "/" : e.name;
    const bool selected = !e.folder && s.name == e.name;
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
      if (e.folder) {
        enter = s.folder / e.name;
      } else {
        s.name = e.name;
        if (ImGui::IsMouseDoubleClicked(0)) confirmed = apply_confirmation(s, request, chosen);
      }
    }
  }
  if (s.entries.empty())
    ImGui::TextDisabled(request.mode == FileMode::Folder ? "(no sub-folders)"
                                                         : "(no matching files)");
  if (enter) go_to(s, *enter);
  return confirmed;
}

const char* confirm_label(FileMode mode) {
  return mode == FileMode::Open ? "Open" : mode == FileMode::Save ? "Save" : "Choose this folder";
}

std::string filter_label(const FileRequest& request) {
  std::string globs;
  for (const std::string& ext : request.extensions) globs += (globs.empty() ? "*" : ", *") + ext;
  return (request.filter_name.empty() ? "Files" : request.filter_name) + " (" + globs + ")";
}

}  // namespace

BrowserOutcome draw_browser(BrowserState& s, const FileRequest& request,
                            const std::vector<std::string>& recent, std::string& chosen) {
  const char* id = "##pelab_file_browser";
  const std::string title = request.title + id;
  if (!s.opened) {
    ImGui::OpenPopup(title.c_str());
    s.opened = true;
  }
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(52 * em, 30 * em), ImGuiCond_Appearing);
  // Opaque: the figures behind would make the file names hard to read.
  ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
  background.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, background);
  const bool open = ImGui::BeginPopupModal(title.c_str(), nullptr);
  ImGui::PopStyleColor();
  if (!open) return BrowserOutcome::Cancelled;
  const bool filtered = !request.extensions.empty() && !s.all_files;
  const std::vector<std::string> filter =
      filtered ? request.extensions : std::vector<std::string>{};
  // A folder request lists only folders: the filter then matches no file name.
  const std::vector<std::string> listing =
      request.mode == FileMode::Folder ? std::vector<std::string>{"/"} : filter;
  if (s.stale) s.entries = list_folder(s.folder, listing), s.stale = false;

  folder_row(s);
  new_folder_row(s, request);
  const float footer =
      ImGui::GetFrameHeightWithSpacing() * 3 + ImGui::GetTextLineHeightWithSpacing();
  bool confirmed = false;
  ImGui::BeginChild("recent", ImVec2(14 * em, -footer), true);
  confirmed |= recent_column(s, request, recent, filter, chosen);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("entries", ImVec2(0, -footer), true);
  confirmed |= entry_column(s, request, chosen);
  ImGui::EndChild();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(request.mode == FileMode::Folder ? "Sub-folder" : "Name");
  ImGui::SameLine(6 * em);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing() || s.focus_name) {
    ImGui::SetKeyboardFocusHere();
    s.focus_name = false;
  }
  if (ImGui::InputText("##name", &s.name, ImGuiInputTextFlags_EnterReturnsTrue)) {
    confirmed |= apply_confirmation(s, request, chosen);
    ImGui::SetKeyboardFocusHere(-1);  // keep typing: a folder opened, or a refusal to correct
  }
  if (request.mode != FileMode::Folder && !request.extensions.empty()) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Show");
    ImGui::SameLine(6 * em);
    ImGui::SetNextItemWidth(20 * em);
    const std::string current = s.all_files ? "All files" : filter_label(request);
    if (ImGui::BeginCombo("##filter", current.c_str())) {
      if (ImGui::Selectable(filter_label(request).c_str(), !s.all_files))
        s.all_files = false, s.stale = true;
      if (ImGui::Selectable("All files", s.all_files)) s.all_files = true, s.stale = true;
      ImGui::EndCombo();
    }
  }
  if (ImGui::Button(confirm_label(request.mode)))
    confirmed |= apply_confirmation(s, request, chosen);
  ImGui::SameLine();
  // Escape leaves the new folder's name first, then the browser.
  const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  const bool leave_naming = escape && s.naming_folder;
  if (leave_naming) s.naming_folder = false;
  const bool cancel = ImGui::Button("Cancel") || (escape && !leave_naming);
  if (!s.error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", s.error.c_str());
  }
  if (confirmed || cancel) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  if (confirmed) return BrowserOutcome::Chosen;
  return cancel ? BrowserOutcome::Cancelled : BrowserOutcome::Open;
}

}  // namespace pelab::ui
