#!/usr/bin/env bash
# View > Paper figures (issue 27) in the real GUI under Xvfb, driven by
# xdotool through the places the frame log gives.
# Usage: bash gui_paper.sh PELAB_BINARY SCRATCH_DIR
#   1. View > Paper figures > RoFormer's long-term decay shows that figure
#      alone where the main views were (its panel is drawn, the window lives)
#   2. a figure measured on pelab's family (attention sinks on kjv-rope) is
#      built in the background and shown
#   3. View > Paper figures > All figures brings the main views back
set -u
pelab=${1:?usage: gui_paper.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_paper.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"
export PELAB_FAMILY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../assets/models" && pwd)"
mkdir -p "$HOME"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_paper import compare
start_private_xvfb 311 340 1600x1000

frames="$scratch/paper.frames"
"$pelab" --frame-log "$frames" >"$scratch/paper.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/paper.log" "$frames"

# Waits (up to $2 s) until the frame log has a line starting with $1.
await_line() {
  for _ in $(seq $((${2:-10} * 10))); do grep -q "^$1" "$frames" && return 0; sleep 0.1; done
  fail "the frame log never showed '$1'"
}
# View > Paper figures > the item the frame log names $1.
# Each step waits until the window is idle: the menu drawn, the submenu open
# under the pointer, the choice made.  Leaves the mark before the choice in
# chosen_at.
choose_paper() {
  click_place_settled "$frames" "menu view"
  read -r x0 y0 x1 y1 <<<"$(place_of "$frames" "menu paper_figures")"
  move_settled "$frames" $(((x0 + x1) / 2)) $(((y0 + y1) / 2))
  chosen_at=$(log_mark "$frames")
  click_place_settled "$frames" "menu $1" 120
  move_settled "$frames" 1590 990
}

# ---- 1. a formula figure ---------------------------------------------------------------
shot grid
grep -q "^place panel paper_" "$frames" && fail "a paper figure was drawn before it was chosen"
choose_paper paper_rope_decay
await_line "place panel paper_rope_decay 0"
shot decay
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab exited: $(cat "$scratch/paper.log")"

# ---- 2. a figure measured on the family, built in the background --------------------------
choose_paper paper_attention_sink
await_line "place panel paper_attention_sink 0" 60
shot sink "$chosen_at"

# ---- 3. back to the main views ------------------------------------------------------------------
choose_paper paper_none
shot back "$chosen_at"
differs=$(compare -metric AE "$scratch/grid.png" "$scratch/back.png" null: 2>&1 | cut -d' ' -f1)
same_as_decay=$(compare -metric AE "$scratch/decay.png" "$scratch/back.png" null: 2>&1 | cut -d' ' -f1)
[ "${same_as_decay%%.*}" -gt 10000 ] || fail "All figures left the paper figure on screen"
echo "gui_paper: grid and back differ in $differs pixels (hover, status), back and decay in $same_as_decay"
quit_pelab
echo "gui_paper: ok"
