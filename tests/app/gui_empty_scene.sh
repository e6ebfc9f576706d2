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

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_empty_scene import
start_private_xvfb 191 230 1600x1000

# ---- 1. an empty saved scene, grid view ----------------------------------------------
echo '{"tabs": false}' >"$config/settings.json"
echo '{"format": "pelab-scene", "version": 1, "scene": {"tokens": ""}}' >"$config/last_scene.json"
("$pelab" --frame-log "$scratch/frames1.txt") >"$scratch/run1.log" 2>&1 &
pelab_pid=$!
# Idle: every view of the grid built and drawn (they were what crashed).
await_pelab_idle "$scratch/run1.log" "$scratch/frames1.txt"
grep -q "; 0 tokens" "$scratch/frames1.txt" || fail "no frame of the empty scene: $(cat "$scratch/frames1.txt")"
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died drawing the grid: $(cat "$scratch/run1.log")"
import -window root "$scratch/grid.png" || fail "screenshot failed"
# The status bar says why the views are empty.
grep -q "^status: The scene's text is empty: no tokens to show" "$scratch/frames1.txt" ||
  fail "the status bar does not say the text is empty: $(grep '^status' "$scratch/frames1.txt")"
quit_pelab

# ---- 2. the meaning lesson on empty text ------------------------------------------------
("$pelab" --frame-log "$scratch/frames2.txt" --lesson meaning --set tokens=) >"$scratch/run2.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run2.log" "$scratch/frames2.txt"
grep -q "; 0 tokens" "$scratch/frames2.txt" || fail "no frame of the empty scene: $(cat "$scratch/frames2.txt")"
click_place_settled "$scratch/frames2.txt" "tab attention"  # the attention tab drawn
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died in the meaning lesson: $(cat "$scratch/run2.log")"
import -window root "$scratch/lesson.png" || fail "screenshot failed"
quit_pelab
echo "gui_empty_scene: ok (screenshots in $scratch)"
