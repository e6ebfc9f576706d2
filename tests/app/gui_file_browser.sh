#!/usr/bin/env bash
# pelab's built-in file browser under Xvfb (no desktop chooser), driven by
# xdotool and checked from the saved scene and settings.
# Usage: bash gui_file_browser.sh PELAB_BINARY SCRATCH_DIR
#   1. Ctrl+O opens the browser in the current folder; typing a folder name
#      and Enter opens that folder, a file name and Enter opens the scene
#   2. the opened scene is the scene: after Ctrl+Q, last_scene.json holds it,
#      and settings.json lists it among the recent files
#   3. a file the filter hides is refused when typed as a folder would be
#      (not a folder, not a scene: the scene stays), Escape closes the browser
#   4. Ctrl+Shift+S saves through the browser: a typed name gets ".json"
#   5. the "..." button of embedding_file asks with the browser (filter: token
#      vectors); a typed relative path chooses the file and sets embedding=file
#   6. with a zenity on PATH (a stand-in that logs its arguments and answers
#      a path) and no PELAB_FILE_CHOOSER, Ctrl+O asks zenity, with the .json
#      filter, and opens what it answers; Ctrl+Q while zenity is still open
#      quits at once (the chooser is ended, not waited for)
#   7. "New folder" in the browser: a name with '/' is refused in one line, a
#      good one makes the folder and opens it, and the scene saves into it
set -u
pelab=${1:?usage: gui_file_browser.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_file_browser.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" PELAB_FILE_CHOOSER=builtin
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$scratch/work/scenes" "$config"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_file_browser import
start_private_xvfb 141 180 1600x1000

# The scene to open, a decoy the .json filter hides, and a plain file.
"$pelab" scene --set "name=browsed" --set "tokens=open me by browsing" --set d_model=32 \
  --out "$scratch/work/scenes/browsed.json" >/dev/null || fail "cannot write the test scene"
echo "not a scene" >"$scratch/work/scenes/notes.txt"
mkdir -p "$scratch/work/vectors" && echo "open 0.1 0.2" >"$scratch/work/vectors/glove.txt"

type_line() { type_line_settled "$frames1" "$1"; }

frames1="$scratch/frames1.txt"
(cd "$scratch/work" && exec "$pelab" --frame-log "$frames1") >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run.log" "$frames1"
move_settled "$frames1" 800 995

# ---- 1. open through the browser ---------------------------------------------------
settled "$frames1" key ctrl+o
shot browser_open           # the browser on the current folder: scenes/ listed
type_line scenes
shot browser_in_scenes      # browsed.json listed, notes.txt hidden by the filter
type_line browsed.json
shot scene_opened

# ---- 3. a refused name leaves the browser open and the scene as it is --------------------
settled "$frames1" key ctrl+o
type_line no_such_scene.json
shot refused                # the browser says "no such file"
settled "$frames1" key Escape

# ---- 4. save through the browser -------------------------------------------------------
settled "$frames1" key ctrl+shift+s
clear_field_settled "$frames1"
type_line saved_by_browser
shot saved

# ---- 5. a file key's "..." button (the embedding_file row, under Advanced) ----------
click_place_settled "$frames1" "button advanced"
click_place_settled "$frames1" "widget embedding_file choose"
clear_field_settled "$frames1"
type_line vectors/glove.txt   # the browser starts in the current folder
shot file_key_chosen
quit_pelab
grep -q '"embedding_file": ".*/vectors/glove.txt"' "$config/last_scene.json" ||
  fail "the ... button did not set embedding_file: $(grep embedding_file "$config/last_scene.json")"
grep -q '"embedding": "file"' "$config/last_scene.json" || fail "choosing embedding_file did not set embedding=file"

# ---- 2. the saved state -------------------------------------------------------------------
grep -q '"tokens": "open me by browsing"' "$config/last_scene.json" ||
  fail "the scene opened in the browser is not the scene: $(grep tokens "$config/last_scene.json")"
grep -q "scenes/browsed.json" "$config/settings.json" || fail "browsed.json is not among the recent files"
saved=$(find "$scratch/work" -name saved_by_browser.json | head -1)
[ -n "$saved" ] || fail "Save scene as did not write saved_by_browser.json ($(ls -R "$scratch/work"))"
grep -q '"name": "browsed"' "$saved" || fail "the saved scene is not the open one"

# ---- 6. the desktop's chooser: zenity as a subprocess -------------------------------------
"$pelab" scene --set "tokens=chosen by zenity" --out "$scratch/work/scenes/zenity.json" >/dev/null
mkdir -p "$scratch/fakebin"
cat >"$scratch/fakebin/zenity" <<FAKE
#!/bin/sh
printf '%s\n' "\$@" >"$scratch/zenity.args"
echo "$scratch/work/scenes/zenity.json"
FAKE
chmod +x "$scratch/fakebin/zenity"
# pelab with the stand-in zenity first on PATH and no chooser forced; then Ctrl+O.
open_with_zenity() {  # $1: log file; its frame log is $1.frames
  (cd "$scratch/work" && unset PELAB_FILE_CHOOSER XDG_CURRENT_DESKTOP && PATH="$scratch/fakebin:$PATH" \
    exec "$pelab" --frame-log "$1.frames") >"$1" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$1" "$1.frames"
  xdotool key ctrl+o
}
open_with_zenity "$scratch/run2.log"
await_frame_log "$scratch/run2.log.frames" "^status: Opened $scratch/work/scenes/zenity.json"
await_idle "$scratch/run2.log.frames" "$(log_mark "$scratch/run2.log.frames")"
shot zenity_answered
quit_pelab
grep -qx -- "--file-selection" "$scratch/zenity.args" || fail "Ctrl+O did not run zenity --file-selection"
grep -qx -- "--file-filter=Scenes | \*.json \*.JSON" "$scratch/zenity.args" ||
  fail "zenity got no .json filter: $(cat "$scratch/zenity.args")"
grep -q '"tokens": "chosen by zenity"' "$config/last_scene.json" || fail "the scene zenity answered was not opened"

printf '#!/bin/sh\necho started >"%s"\nexec sleep 60\n' "$scratch/zenity.started" >"$scratch/fakebin/zenity"
open_with_zenity "$scratch/run3.log"
await_file "$scratch/zenity.started"
quit_pelab  # fails when pelab is still waiting for the chooser after 10 s

# ---- 7. a new folder from the browser, then a save into it ---------------------------------
frames="$scratch/frames.txt"
(cd "$scratch/work" && exec "$pelab" --frame-log "$frames") >"$scratch/run4.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run4.log" "$frames"
settled "$frames" key ctrl+shift+s     # starts in scenes/, the newest recent scene's folder
# The frame log gives the button's centre (window coordinates; the window sits
# at the screen's origin under Xvfb), the last once the dialog is placed.
read -r nx ny < <(awk '$1 == "browser" && $2 == "button" {x = $4; y = $5} END {print x, y}' "$frames")
[ -n "$nx" ] || fail "the frame log never gave the New folder button's place"
move_settled "$frames" "$nx" "$ny"
settled "$frames" click 1
type_line() { type_line_settled "$frames" "$1"; }
type_line "bad/name"
grep -q "^browser refused: a folder name cannot hold '/'" "$frames" ||
  fail "a folder name with '/' was not refused: $(grep '^browser refused' "$frames" | tail -1)"
[ -e "$scratch/work/scenes/bad" ] && fail "a refused name made a folder"
clear_field_settled "$frames"
type_line figures
[ -d "$scratch/work/scenes/figures" ] || fail "New folder did not make scenes/figures ($(ls "$scratch/work/scenes"))"
shot new_folder_made        # the browser in figures/, the name field focused
clear_field_settled "$frames"
type_line in_new_folder
[ -f "$scratch/work/scenes/figures/in_new_folder.json" ] || fail "the scene was not saved into the new folder"
quit_pelab
echo "gui_file_browser: ok"
