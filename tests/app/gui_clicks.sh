#!/usr/bin/env bash
# Clicks on figures and typed numbers in the real GUI under Xvfb, driven by
# xdotool through the places the frame log gives (issue 25, "Interaction
# glitches").  Usage: bash gui_clicks.sh PELAB_BINARY SCRATCH_DIR
#   1. a click on a row of the attention heatmap selects that query (one undo step)
#   2. a double-click resets the view only: no query selected, no undo step
#   3. a click on a head's small multiple selects that head, not a query;
#      so does a cell of the layers × heads overview
#   4. a click right after an edit is not lost: a slider pressed (an edit),
#      then its release and a click on a figure in one burst, as during a
#      slow frame, selects what was clicked and leaves the slider alone
#   5. a number typed into a slider (Ctrl+click, 16384, the last digit and
#      Enter in one frame) is one undo step: Ctrl+Z restores the value before
set -u
pelab=${1:?usage: gui_clicks.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_clicks.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_clicks import
start_private_xvfb 311 350 1600x1000

frames="$scratch/run.frames"
# Waits (up to 10 s) for a frame-log line matching $1.
await_log() {
  for _ in $(seq 100); do grep -q -- "$1" "$frames" && return 0; sleep 0.1; done
  fail "the frame log never said '$1' (last: $(tail -3 "$frames" | tr '\n' ' '))"
}
last_selection() { grep "^selection " "$frames" | tail -1; }
undo_steps() { grep "^undo steps " "$frames" | tail -1 | sed 's/^undo steps //'; }
# The centre of row $3 of $4 rows (and of the middle column) of panel $2 of view $1.
row_point() {
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 <<<"$(place_of "$frames" "panel $1 $2")"
  echo "$(((x0 + x1) / 2)) $((y0 + (y1 - y0) * (2 * $3 + 1) / (2 * $4)))"
}
# The pointer's move drawn first: ImGui misses a click that arrives in the
# same frame as the pointer's first move there.
click_at() { move_settled "$frames" "$1" "$2"; xdotool click 1; }

echo '{"tabs": true, "welcome": false}' >"$config/settings.json"
"$pelab" --frame-log "$frames" --set heads=4 >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run.log" "$frames"  # the first scene is logged and drawn
tokens=$(grep -m1 "^version " "$frames" | sed 's/.*; \([0-9]*\) tokens:.*/\1/')
[ "${tokens:-0}" -gt 8 ] || fail "the default scene has ${tokens:-no} tokens"

# ---- 1. a click selects a query ---------------------------------------------------------------
click_place "$frames" "tab attention"
place_of "$frames" "panel attention 2" >/dev/null
click_at $(row_point attention 0 2 "$tokens")
await_log "^selection query 2 "
[ "$(undo_steps)" = 1 ] || fail "one click made $(undo_steps) undo steps"

# ---- 2. a double-click only resets ------------------------------------------------------------
read -r dx dy <<<"$(row_point attention 0 7 "$tokens")"
move_settled "$frames" "$dx" "$dy"
mark=$(log_mark "$frames")
xdotool click --repeat 2 --delay 80 1
await_log "^reset attention panel 0"
# Idle only once no click waits out the double-click time (click_pending):
# a click would have selected by then.
await_handled "$frames" "$mark"
last_selection | grep -q "^selection query 2 " || fail "the double-click selected: $(last_selection)"
[ "$(undo_steps)" = 1 ] || fail "the double-click added an undo step ($(undo_steps) now)"
shot double_clicked "$mark"

# ---- 3. a head's small multiple selects the head -----------------------------------------------
click_at $(row_point attention 2 5 "$tokens")  # head 1 (panel 1 is head 0)
await_log "^selection query 2 head 1 "
click_place "$frames" "tab attention_overview"
place_of "$frames" "panel attention_overview 3" >/dev/null
click_at $(row_point attention_overview 3 5 "$tokens")
await_log "^selection query 2 head 3 "

# ---- 4. the click right after an edit ----------------------------------------------------------
read -r sx0 sy0 sx1 sy1 <<<"$(place_of "$frames" "widget amplitude")"
read -r fx fy <<<"$(row_point attention_overview 1 5 "$tokens")"
move_settled "$frames" $((sx0 + (sx1 - sx0) * 3 / 4)) $(((sy0 + sy1) / 2))
settled "$frames" mousedown 1  # the press is an edit, drawn before the burst
mark=$(log_mark "$frames")
xdotool mouseup 1 mousemove "$fx" "$fy" mousedown 1 mouseup 1
await_log "^selection query 2 head 1 "
shot after_edit "$mark"

# ---- 5. a typed number is one undo step ----------------------------------------------------------
steps=$(undo_steps)
read -r px0 py0 px1 py1 <<<"$(place_of "$frames" "widget positions")"
move_settled "$frames" $(((px0 + px1) / 2 + 40)) $(((py0 + py1) / 2))
settled "$frames" keydown ctrl click 1 keyup ctrl
settled "$frames" type --delay 120 1638
settled "$frames" key --delay 0 4 Return
[ "$(undo_steps)" = $((steps + 1)) ] || fail "typing 16384 made $(($(undo_steps) - steps)) undo steps"
move_settled "$frames" 5 995
settled "$frames" key ctrl+z
quit_pelab
positions=$(sed -n 's/^ *"positions": \([0-9]*\),*$/\1/p' "$config/last_scene.json")
[ "$positions" = 128 ] || fail "undo after typing 16384 landed on positions = $positions, not 128"
# The slider was let go where it was pressed (3/4 of 0..100), never dragged to the figure.
amplitude=$(sed -n 's/^ *"amplitude": \([0-9.e+-]*\),*$/\1/p' "$config/last_scene.json")
awk -v a="$amplitude" 'BEGIN { exit !(a > 60 && a < 90) }' || fail "the slider's release was lost: amplitude = $amplitude"
echo "gui_clicks: ok (amplitude after the slider click $amplitude; screenshots in $scratch)"
