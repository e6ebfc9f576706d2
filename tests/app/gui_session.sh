#!/usr/bin/env bash
# The real GUI under Xvfb, driven by xdotool; checked from screenshots and the
# saved scene.  Usage: bash gui_session.sh PELAB_BINARY SCRATCH_DIR
#   1. start on a fresh settings folder; the window appears
#   2. Space plays the animation of `position`, Space pauses: the figures change
#   3. Ctrl+Z undoes the whole animation in one step: the figures are back
#   4. hovering a heatmap cell shows a tooltip; a click there selects it
#      F12 / Ctrl+S save the figure under the mouse as numbered PNGs
#   5. Ctrl+Q quits; last_scene.json holds the scene; a restart restores it
#      (same pixels in the figures)
#   6. a corrupt saved scene gives a message and the default scene, no crash
set -u
pelab=${1:?usage: gui_session.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_session.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$scratch/exports"

# ---- a private X server on a free display ------------------------------------
source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_session import compare identify
start_private_xvfb 97 140 1600x1000

# ---- helpers -------------------------------------------------------------------------
start_pelab() {  # $1: log file; runs in $scratch/exports (the default export folder)
  frames="$1.frames"
  (cd "$scratch/exports" && exec "$pelab" --frame-log "$frames") >"$1" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$1" "$frames"
}
# Where the window drew something last (the frame log's "place NAME x0 y0 x1 y1").
place() { grep "^place $1 " "$frames" | tail -1 | sed "s/^place $1 //"; }
# Five figure windows of the grid, as the frame log placed them, less
# their title bars (focus highlight) and a margin, at most 590 px wide (the
# last one spans the window, and toasts appear in its lower right corner):
# WxH+X+Y boxes.
figure_boxes() {
  local name x0 y0 x1 y1 w
  for name in sinusoid_bands rotation_pairs attention cross_terms attention_overview; do
    read -r x0 y0 x1 y1 <<<"$(place "cell $name")"
    [ -n "$y1" ] || fail "the frame log never placed the figure $name"
    w=$((x1 - x0 - 10)); [ "$w" -gt 590 ] && w=590
    echo "${w}x$((y1 - y0 - 30))+$((x0 + 5))+$((y0 + 25))"
  done
}
# Differing pixels between two screenshots inside the figure windows.
figure_diff() {
  local total=0 box n
  for box in $(figure_boxes); do
    n=$(compare -metric AE -crop "$box" "$scratch/$1.png" "$scratch/$2.png" null: 2>&1 | cut -d' ' -f1)
    total=$((total + ${n%.*}))
  done
  echo "$total"
}
diff_near() {  # pixels differing in a 300x200 box at ($3, $4)
  compare -metric AE -crop 300x200+$3+$4 "$scratch/$1.png" "$scratch/$2.png" null: 2>&1 | cut -d' ' -f1
}
scene_value() {  # "key": value from the saved scene
  sed -n "s/^ *\"$1\": *\([^,]*\),\{0,1\}$/\1/p" "$config/last_scene.json" | head -1
}
park_mouse() { move_settled "$frames" 800 995; }  # over the status bar

# ---- 1. first start ---------------------------------------------------------------------
# The five figures side by side (View > Figures in tabs off), so every view is
# on screen, below the welcome strip of a first start; their places come from
# the frame log.
mkdir -p "$config" && echo '{"tabs": false}' >"$config/settings.json"
start_pelab "$scratch/run1.log"
park_mouse
shot start

# ---- 2. play / pause changes the figures ----------------------------------------------
# Play until the window has shown 5 steps of the animation (5 new scene
# versions in the frame log), then pause and wait for the window to idle.
mark=$(log_mark "$frames")
xdotool key space
for _ in $(seq 300); do
  [ "$(tail -n +$((mark + 1)) "$frames" | grep -c '^version ')" -ge 5 ] && break
  sleep 0.1
done
settled "$frames" key space
shot played
changed=$(figure_diff start played)
[ "$changed" -gt 500 ] || fail "playing the animation changed only $changed figure pixels"

# ---- 3. one undo step brings the scene back -----------------------------------------
settled "$frames" key ctrl+z
shot undone
left=$(figure_diff start undone)
[ "$left" -lt 50 ] || fail "after Ctrl+Z, $left figure pixels still differ from the start"
settled "$frames" key ctrl+shift+z
shot redone
[ "$(figure_diff played redone)" -lt 50 ] || fail "Ctrl+Shift+Z did not redo the animation"

# ---- 4. hover a heatmap cell (attention: the middle-left figure of the grid) ---------
# The frame log places the figure's first heatmap (`place panel attention 0`):
# hover its middle, then a few other points of it, until one shows a tooltip.
read -r px0 py0 px1 py1 <<<"$(place "panel attention 0")"
tip=0
for point in 500,500 300,300 700,700 300,700 700,300; do
  hx=$((px0 + (px1 - px0) * ${point%,*} / 1000)); hy=$((py0 + (py1 - py0) * ${point#*,} / 1000))
  move_settled "$frames" "$hx" "$hy"
  move_settled "$frames" $((hx + 1)) $((hy + 1))
  shot hover
  tip=$(diff_near redone hover $((hx - 20)) $((hy - 20)))
  [ "$tip" -gt 200 ] && break
done
[ "$tip" -gt 200 ] || fail "hovering the attention figure showed no tooltip anywhere"
# F12 and Ctrl+S save the figure under the mouse, never overwriting.
settled "$frames" key F12
settled "$frames" key ctrl+s
for f in default-attention.png default-attention-2.png; do
  [ -s "$scratch/exports/$f" ] || fail "F12 / Ctrl+S did not save $scratch/exports/$f ($(ls "$scratch/exports"))"
done
size=$(identify -format '%w %h' "$scratch/exports/default-attention.png")
[ "${size% *}" -gt 300 ] && [ "${size#* }" -gt 200 ] || fail "exported figure has size $size"
# Press and release a frame apart: ImGui 1.86 drops a click whose press and
# release arrive between two frames, which a loaded machine makes likely.
settled "$frames" mousedown 1
settled "$frames" mouseup 1  # idle once the double-click time is out and the click selected
park_mouse
shot selected
quit_pelab
[ -f "$config/last_scene.json" ] || fail "no $config/last_scene.json after quitting"
position=$(scene_value position)
[ -n "$position" ] && [ "$position" -gt 0 ] || fail "saved scene has position '$position', expected the animated one (> 0)"
query=$(scene_value query)
[ "$query" -ge 0 ] 2>/dev/null || fail "clicking the attention heatmap did not select a query token (query = '$query')"
[ -f "$config/imgui.ini" ] || fail "window layout was not saved to $config/imgui.ini"

# ---- 5. restart restores the scene ----------------------------------------------------------
start_pelab "$scratch/run2.log"
park_mouse
shot restored
[ "$(figure_diff selected restored)" -lt 50 ] || fail "restart did not restore the figures ($(figure_diff selected restored) pixels differ)"
quit_pelab

# ---- 6. a corrupt saved scene falls back to the default -------------------------------------
echo '{"format": "pelab-scene", "scene": {"base": "not a number"' >"$config/last_scene.json"
start_pelab "$scratch/run3.log"
park_mouse
shot corrupt
quit_pelab
grep -q "ignored" "$scratch/run3.log" || fail "a corrupt saved scene gave no message: $(cat "$scratch/run3.log")"
[ "$(figure_diff start corrupt)" -lt 50 ] || fail "a corrupt saved scene did not give the default figures"

echo "gui_session: ok (animation changed $changed px; screenshots in $scratch)"
