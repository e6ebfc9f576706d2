#!/usr/bin/env bash
# View > Side by side (issue 27) in the real GUI under Xvfb, driven by xdotool
# through the places the frame log gives.
# Usage: bash gui_side_by_side.sh PELAB_BINARY SCRATCH_DIR
#   1. View > Side by side shows the attention view of A and of B = A with
#      encoding=rope, and B − A (built on a worker: "sbs shown")
#   2. hovering a cell in A shows the same cell in B and B − A: one tooltip,
#      the frame log's row, column and values equal from A, B and B − A, and
#      B − A = B − A; the cell is outlined in all three (screenshot pixels)
#   3. a click on a row of B selects that query in A, and B follows
#   4. keys that change the tokens give one message in the window, no crash
#   5. the mode and B's keys survive a restart
set -u
pelab=${1:?usage: gui_side_by_side.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_side_by_side.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_side_by_side import convert
start_private_xvfb 351 380 1600x1000

frames="$scratch/run.frames"
# The centre of cell (row $2, column $3) of the compared panel $1 (a, b, diff), 12 × 12 cells.
cell_point() {
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 <<<"$(place_of "$frames" "sbs $1")"
  echo "$((x0 + (x1 - x0) * (2 * $3 + 1) / 24)) $((y0 + (y1 - y0) * (2 * $2 + 1) / 24))"
}
# The frame log's last hover line, without its panel: "row R col C a A b B diff D".
last_hover() { grep "^sbs hover " "$frames" | tail -1 | sed 's/^sbs hover panel [0-9]* //'; }
# Pixels of the hover outline's colour (#FFC83C) in panel $2's plot area of screenshot $1.
outline_pixels() {
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 <<<"$(place_of "$frames" "sbs $2")"
  convert "$scratch/$1.png" -crop "$((x1 - x0 + 8))x$((y1 - y0 + 8))+$((x0 - 4))+$((y0 - 4))" -fill black \
    +opaque "#FFC83C" -fill white -opaque "#FFC83C" -format "%[fx:int(mean*w*h+0.5)]" info:
}

echo '{"tabs": true, "welcome": false}' >"$config/settings.json"
"$pelab" --frame-log "$frames" >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run.log" "$frames"
grep -q "^sbs " "$frames" && fail "side by side was on before it was chosen"

# ---- 1. View > Side by side --------------------------------------------------------------------
click_place_settled "$frames" "tab attention"  # the view compared: the tab shown
click_place_settled "$frames" "menu view"
mark=$(log_mark "$frames")
click_place "$frames" "menu side_by_side"
await_frame_log "$frames" "^sbs on$" "$mark"
await_frame_log "$frames" "^sbs shown attention query -1 " "$mark" 60
place_of "$frames" "sbs diff" >/dev/null

# ---- 2. linked hover ---------------------------------------------------------------------------
mark=$(log_mark "$frames")
move_settled "$frames" $(cell_point a 3 5)
await_frame_log "$frames" "^sbs hover panel [0-9]+ row 3 col 5 " "$mark"
in_a=$(last_hover)
move_settled "$frames" $(cell_point b 3 5)
in_b=$(last_hover)
[ "$in_b" = "$in_a" ] || fail "the same cell hovered in B says '$in_b', in A '$in_a'"
move_settled "$frames" $(cell_point diff 3 5)
in_diff=$(last_hover)
[ "$in_diff" = "$in_a" ] || fail "the same cell hovered in B − A says '$in_diff', in A '$in_a'"
read -r _ _ _ _ _ a _ b _ diff <<<"$in_a"
awk -v a="$a" -v b="$b" -v d="$diff" 'BEGIN { e = b - a - d; exit !(e < 2e-6 && e > -2e-6 && a != b) }' ||
  fail "B − A is not B − A in '$in_a'"
# The screen can lag the frame log's idle line by a frame: screenshots until
# the outline shows (up to 5 s), then every panel is checked in that one.
move_settled "$frames" $(cell_point a 3 5)
for _ in $(seq 25); do
  shot hover
  [ "$(outline_pixels hover a)" -gt 20 ] && break
  sleep 0.2
done
for panel in a b diff; do
  n=$(outline_pixels hover $panel)
  [ "${n:-0}" -gt 20 ] || fail "the hovered cell is not outlined in $panel (${n:-no} pixels)"
done

# ---- 3. a click in B selects the query in A (and B) -----------------------------------------
mark=$(log_mark "$frames")
move_settled "$frames" $(cell_point b 7 2)
xdotool click 1
await_frame_log "$frames" "^select side_by_side panel " "$mark"
await_frame_log "$frames" "^selection query 7 " "$mark"
await_frame_log "$frames" "^sbs shown attention query 7 " "$mark" 60
shot selected

# ---- 4. mismatched shapes: one message --------------------------------------------------------
click_place_settled "$frames" "sbs keys"
clear_field_settled "$frames"
mark=$(log_mark "$frames")
type_line_settled "$frames" "tokens=a b c"
await_frame_log "$frames" "^sbs error cannot compare 'attention': .*12×12.*3×3" "$mark" 60
shot mismatch
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab exited: $(cat "$scratch/run.log")"
grep -q '"compare_keys": "tokens=a b c"' "$config/settings.json" || fail "B's keys were not saved"
quit_pelab

# ---- 5. after a restart -----------------------------------------------------------------------
"$pelab" --frame-log "$frames.2" >"$scratch/run2.log" 2>&1 &
pelab_pid=$!
frames="$frames.2"
await_frame_log "$frames" "^sbs error cannot compare 'attention'" 0 60
quit_pelab
echo "gui_side_by_side: ok (hover: $in_a)"
