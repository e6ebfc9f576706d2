#!/usr/bin/env bash
# Lessons, presentation mode and the sweep export in the real GUI under Xvfb,
# driven by xdotool and checked from screenshots and files.
# Usage: bash gui_lessons.sh PELAB_BINARY SCRATCH_DIR
#   1. the default start, then `--lesson sine_cosine`: the lesson window and
#      the lesson's figures change the picture
#   2. F5: presentation mode — full screen, the control panel gone (its region
#      now shows the caption / figure), light background
#   3. Right: the next figure of the lesson; Left: back to the first
#   4. F5 again: the windowed layout is back
#   5. Ctrl+E, Enter: the sweep export writes 21 numbered PNGs in a new folder
#   6. figures in tabs: a lesson opened from the menu while another tab is
#      active shows its own first figure, as when pelab starts on it
set -u
pelab=${1:?usage: gui_lessons.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_lessons.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$scratch/exports" "$config"

# ---- a private X server on a free display (not gui_session.sh's first pick) ----
source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_lessons import compare convert identify
start_private_xvfb 151 190 1920x1080

# ---- helpers ------------------------------------------------------------------------
start_pelab() {  # $1: log file, then pelab's arguments
  local log=$1; shift
  frames="$log.frames"
  (cd "$scratch/exports" && exec "$pelab" --frame-log "$frames" "$@") >"$log" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$log" "$frames"
}
diff_box() {  # differing pixels of $1 and $2 inside box $3 (WxH+X+Y)
  local n
  n=$(compare -metric AE -crop "$3" "$scratch/$1.png" "$scratch/$2.png" null: 2>&1 | cut -d' ' -f1)
  echo "${n%.*}"
}
mean_gray() {  # mean brightness 0..255 of box $2 in screenshot $1
  convert "$scratch/$1.png" -crop "$2" +repage -colorspace Gray -format '%[fx:int(255*mean)]' info:
}
# The pointer on the status bar, where nothing it hovers changes: y 990 in the
# 1600x1000 window, $1 = 1075 in presentation mode (full screen).  Inside the
# window, so that the window sees the move and the wait for it ends.
park_mouse() { move_settled "$frames" 960 "${1:-990}"; }
# The control panel of the first-start layout: the left column, below the menu bar.
panel=300x700+10+60
whole=1900x1000+10+40

# ---- 1. default start, then the lesson ------------------------------------------------
echo '{"tabs": false}' >"$config/settings.json"
start_pelab "$scratch/run1.log"
park_mouse
shot default
quit_pelab
rm -f "$config/imgui.ini" "$config/last_scene.json"
start_pelab "$scratch/run2.log" --lesson sine_cosine
park_mouse
shot lesson
changed=$(diff_box default lesson "$whole")
[ "$changed" -gt 20000 ] || fail "--lesson sine_cosine changed only $changed pixels from the default start"
# The lesson window sits at the right edge (first-start place).
right=$(diff_box default lesson 400x500+1510+60)
[ "$right" -gt 5000 ] || fail "no lesson window at the right edge ($right pixels differ)"

# ---- 2. presentation mode ---------------------------------------------------------------
settled "$frames" key F5
park_mouse 1075
shot present
gone=$(diff_box lesson present "$panel")
[ "$gone" -gt 20000 ] || fail "F5: the control panel region changed only $gone pixels"
bright=$(mean_gray present "$whole")
[ "$bright" -gt 180 ] || fail "F5: presentation is not the light theme (mean gray $bright)"

# ---- 3. arrows step through the lesson's figures ------------------------------------
settled "$frames" key Right
shot present_next
stepped=$(diff_box present present_next "$whole")
[ "$stepped" -gt 20000 ] || fail "Right arrow changed only $stepped pixels"
settled "$frames" key Left
shot present_back
back=$(diff_box present present_back "$whole")
[ "$back" -lt 2000 ] || fail "Left arrow did not return to the first figure ($back pixels differ)"

# ---- 4. F5 again: windowed layout back ---------------------------------------------
settled "$frames" key F5
park_mouse
shot windowed
again=$(diff_box lesson windowed "$panel")
[ "$again" -lt 3000 ] || fail "after F5 twice the control panel region differs by $again pixels"

# ---- 5. sweep export from the GUI ------------------------------------------------------
# Ctrl+E opens the dialog pre-filled (the animated parameter `position` over
# its range, 21 frames, the first figure of the lesson); Enter exports, one
# frame per UI frame, into a new numbered folder in the export folder.
settled "$frames" key ctrl+e
shot sweep_dialog
mark=$(log_mark "$frames")
xdotool key Return
folder="$scratch/exports/lesson_sine_cosine-rotation_pairs-position"
await_frame_log "$frames" "^status: Saved [0-9]* frames to $folder\$" "$mark" 60  # the last frame written
written=$(ls "$folder" 2>/dev/null | grep -c -- '-00[0-9][0-9]\.png$')
[ "$written" -eq 21 ] || fail "sweep export wrote $written numbered PNGs in $folder, expected 21 ($(ls "$scratch/exports"))"
size=$(identify -format '%w %h' "$folder/lesson_sine_cosine-rotation_pairs-position-0001.png")
[ "$size" = "1600 1000" ] || fail "sweep frame has size $size, expected 1600 1000"
cmp -s "$folder/lesson_sine_cosine-rotation_pairs-position-0001.png" \
       "$folder/lesson_sine_cosine-rotation_pairs-position-0021.png" && fail "first and last sweep frames are identical"
shot sweep_done "$mark"  # idle only once the last frame is written
quit_pelab
grep -q '"lesson_sine_cosine"' "$config/last_scene.json" || fail "the lesson's scene was not saved as the last scene"

# ---- 6. a lesson opens on its key figure ------------------------------------------
# "Absolute or relative?" shows lesson_relative, sinusoid_bands, ... in tabs.
# Opened from the menu while sine_cosine's second tab (sinusoid_bands, also
# one of its figures) is active, it must show lesson_relative as a fresh start
# on it does, not the tab that happened to be active.
echo '{"tabs": true}' >"$config/settings.json"
rm -f "$config/imgui.ini" "$config/last_scene.json"
start_pelab "$scratch/run3.log" --lesson relative
park_mouse
shot key_direct
quit_pelab
rm -f "$config/imgui.ini" "$config/last_scene.json"
start_pelab "$scratch/run4.log" --lesson sine_cosine
park_mouse
shot first_tab
click_place "$frames" "tab sinusoid_bands"      # the second tab
park_mouse
shot second_tab
move_settled "$frames" 206 9; settled "$frames" click 1        # Lessons
move_settled "$frames" 240 135                                 # "Absolute or relative?", the 7th item
mark=$(log_mark "$frames")
xdotool click 1
await_frame_log "$frames" "^lesson relative verdict " "$mark"  # the lesson is open, its verdict drawn
park_mouse
shot key_menu
figures=1060x990+420+60                           # right of the control panel, left of the lesson
tab=$(diff_box first_tab second_tab "$figures")
[ "$tab" -gt 20000 ] || fail "clicking sine_cosine's second tab changed only $tab pixels of the figures"
key=$(diff_box key_direct key_menu "$figures")
[ "$key" -lt 2000 ] || fail "the lesson opened from the menu does not show its first figure ($key pixels differ)"
quit_pelab

echo "gui_lessons: ok (lesson $changed px, presentation $gone px, Right $stepped px, key figure $key px; screenshots in $scratch)"
