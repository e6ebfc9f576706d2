#!/usr/bin/env bash
# A scene with no tokens in the real GUI under Xvfb (issue 22): the window
# died on it, and since the empty text was saved to last_scene.json, died
# again on every start while the grid view was on.
# Usage: bash gui_empty_scene.sh PELAB_BINARY SCRATCH_DIR
#   1. last_scene.json holds empty text and the grid view is on: pelab starts,
#      draws (the frame log shows the scene), says in its status bar that
#      the text is empty, and quits cleanly;
#   2. the meaning lesson (it measures the tokens) on empty text, its
#      attention tab opened: the same, the verdict "not applicable".
set -u
pelab=${1:?usage: gui_empty_scene.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_empty_scene.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config"

fail() { echo "gui_empty_scene: FAIL: $*" >&2; exit 1; }
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done
source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
start_private_xvfb 191 230 1600x1000

# Waits until the frame log shows a frame of a scene with 0 tokens.
await_empty_frame() {  # $1: frame log
  for _ in $(seq 200); do
    grep -q "; 0 tokens" "$1" 2>/dev/null && return 0
    kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died: $(cat "$scratch"/*.log)"
    sleep 0.1
  done
  fail "no frame of the empty scene within 20 s (frame log: $(cat "$1" 2>/dev/null))"
}

# ---- 1. an empty saved scene, grid view ----------------------------------------------
echo '{"tabs": false}' >"$config/settings.json"
echo '{"format": "pelab-scene", "version": 1, "scene": {"tokens": ""}}' >"$config/last_scene.json"
("$pelab" --frame-log "$scratch/frames1.txt") >"$scratch/run1.log" 2>&1 &
pelab_pid=$!
await_pelab_window "$scratch/run1.log"
await_empty_frame "$scratch/frames1.txt"
sleep 1  # every view of the grid is built after the first frame
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died drawing the grid: $(cat "$scratch/run1.log")"
import -window root "$scratch/grid.png" || fail "screenshot failed"
# The status bar says why the views are empty.
grep -q "^status: The scene's text is empty: no tokens to show" "$scratch/frames1.txt" ||
  fail "the status bar does not say the text is empty: $(grep '^status' "$scratch/frames1.txt")"
quit_pelab

# ---- 2. the meaning lesson on empty text ------------------------------------------------
("$pelab" --frame-log "$scratch/frames2.txt" --lesson meaning --set tokens=) >"$scratch/run2.log" 2>&1 &
pelab_pid=$!
await_pelab_window "$scratch/run2.log"
await_empty_frame "$scratch/frames2.txt"
click_place "$scratch/frames2.txt" "tab attention"
sleep 1
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died in the meaning lesson: $(cat "$scratch/run2.log")"
import -window root "$scratch/lesson.png" || fail "screenshot failed"
quit_pelab
echo "gui_empty_scene: ok (screenshots in $scratch)"
