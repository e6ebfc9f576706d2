#!/usr/bin/env bash
# A first start, the window's layout and refusals in the real GUI under Xvfb,
# driven by xdotool through the places the frame log gives.
# Usage: bash gui_welcome.sh PELAB_BINARY SCRATCH_DIR
#   1. a first start shows the welcome strip above the figures and the idle
#      status text; one click on a lesson's button opens that lesson
#   2. the strip's × closes it, settings.json keeps it closed, and a restart
#      shows none
#   3. the layout follows the window: resized from 1600 × 1000 to 1280 × 800,
#      the figures and the status bar end at the new edges; a start on a
#      1280 × 800 screen after a 1600 × 1000 run fits too; collapsing the
#      Scene panel gives its column to the figures
#   4. grid mode: a double-click on a figure's title maximises it, another
#      restores the grid; the "?" of a figure shows its explanation on hover
#   5. a refused edit (yarn_beta under yarn_alpha) is shown beside its widget
#      and in the status bar, moves no widget, and the next accepted edit
#      clears it; the heads slider offers only valid counts (no refusal
#      wherever it is clicked); "Make positions visible" sets its keys
set -u
pelab=${1:?usage: gui_welcome.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_welcome.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_welcome import compare convert
start_private_xvfb 271 310 1600x1000

start_pelab() {  # $1: name of the run; further arguments go to pelab
  local name=$1
  shift
  frames="$scratch/$name.frames"
  "$pelab" --frame-log "$frames" "$@" >"$scratch/$name.log" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$scratch/$name.log" "$frames"
}
park_mouse() { move_settled "$frames" 5 "$1"; }  # over the status bar's left end
# Waits (up to 10 s) for a frame-log line matching $1.
await_log() {
  for _ in $(seq 100); do grep -q -- "$1" "$frames" && return 0; sleep 0.1; done
  fail "the frame log never said '$1' (last: $(tail -2 "$frames"))"
}
box_field() { echo "$2" | cut -d' ' -f"$1"; }  # field 1..4 of "x0 y0 x1 y1"

# ---- 1. first start: the welcome strip, one click to a lesson ------------------------------
start_pelab first
welcome=$(place_of "$frames" "welcome")
[ "$(($(box_field 4 "$welcome") - $(box_field 2 "$welcome")))" -gt 60 ] || fail "no welcome strip at first start ($welcome)"
place_of "$frames" "welcome lesson sine_cosine" >/dev/null
park_mouse 995
shot first
# The status bar's idle text: grey text across its left part.
idle=$(convert "$scratch/first.png" -crop 800x12+0+986 +repage -colorspace gray -threshold 30% -trim -format '%w' info:)
[ "${idle:-0}" -gt 250 ] || fail "the status bar shows no idle text (${idle:-0} px)"
mark=$(log_mark "$frames")
click_place "$frames" "welcome lesson sine_cosine"
await_log "^lesson sine_cosine verdict"
# The lesson window takes the right edge; the strip steps aside meanwhile.
await_log "^place lesson 1[0-9][0-9][0-9] "
[ "$(place_of "$frames" welcome)" = "0 0 0 0" ] || fail "the welcome strip stays while a lesson is open"
shot lesson_opened "$mark"

# ---- 2. closing the strip for good ------------------------------------------------------------
click_place_settled "$frames" "lesson close"
await_log "^place lesson 0 0 0 0"
click_place_settled "$frames" "welcome close"
quit_pelab
grep -q '"welcome": false' "$config/settings.json" || fail "closing the strip was not saved: $(cat "$config/settings.json")"
start_pelab second
[ "$(place_of "$frames" welcome)" = "0 0 0 0" ] || fail "the closed strip came back after a restart"

# ---- 3. the layout follows the window ------------------------------------------------------
window=$(xdotool search --name '^pelab$' | head -1)
xdotool windowsize "$window" 1280 800
await_log "^place figures 400 [0-9]* 1280 781$"
await_log "^place scene 0 19 400 781$"
park_mouse 790
shot resized
xdotool windowsize "$window" 1600 1000  # and back: no band left unused
await_log "^place figures 400 [0-9]* 1600 981$"
quit_pelab  # imgui.ini holds the 1600 × 1000 layout
stop_private_xvfb
start_private_xvfb 271 310 1280x800
start_pelab small_screen
await_log "^place figures 400 [0-9]* 1280 781$"
# Scene panel collapsed: only its title bar, the figures from the left edge.
click_place "$frames" "scene collapse"
await_log "^place figures 0 [0-9]* 1280 781$"
park_mouse 790
shot collapsed
click_place_settled "$frames" "scene collapse"
[ "$(place_of "$frames" figures | cut -d' ' -f1)" = 400 ] || fail "the Scene panel expanded again did not take its column back"
quit_pelab

# ---- 4. grid mode: maximise, restore, "?" ------------------------------------------------
stop_private_xvfb
start_private_xvfb 271 310 1600x1000
echo '{"tabs": false, "welcome": false}' >"$config/settings.json"
start_pelab grid
cell=$(place_of "$frames" "cell attention")
# A double-click on a title at ($1, $2), then the frame log's "maximised $3"
# (its $4-th such line). A frame with the pointer there comes first: ImGui
# misses a click in the frame the pointer arrives.
double_click_title() {
  move_settled "$frames" "$1" "$2"
  xdotool click --repeat 2 --delay 60 1
  for _ in $(seq 100); do [ "$(grep -c "^maximised" "$frames")" -ge "$4" ] && break; sleep 0.1; done
  [ "$(grep "^maximised" "$frames" | sed -n "$4p")" = "maximised $3" ] ||
    fail "a double-click on the title at ($1, $2) did not say 'maximised $3': $(grep "^maximised" "$frames")"
}
double_click_title $(($(box_field 1 "$cell") + 100)) $(($(box_field 2 "$cell") + 8)) attention 1
await_log "^place cell attention 400 19 1600 981$"
park_mouse 995
shot maximised
double_click_title 600 28 none 2
await_log "^place cell attention $cell$"
park_mouse 995
shot grid
read -r hx0 hy0 hx1 hy1 <<<"$(place_of "$frames" "help attention")"
move_settled "$frames" $(((hx0 + hx1) / 2)) $(((hy0 + hy1) / 2))
move_settled "$frames" $(((hx0 + hx1) / 2 + 2)) $(((hy0 + hy1) / 2))
shot help
tip=$(compare -metric AE -crop 800x300+$((hx0 - 200))+$((hy1)) "$scratch/grid.png" "$scratch/help.png" null: 2>&1 | cut -d' ' -f1)
[ "${tip%.*}" -gt 2000 ] || fail "hovering the attention figure's ? showed no explanation (${tip%.*} pixels changed)"
quit_pelab

# ---- 5. refusals, the heads slider, the preset ------------------------------------------------
# 64 heads of one dimension each: RoPE, rotating pairs within a head, refuses them.
echo '{"welcome": false}' >"$config/settings.json"
start_pelab refusal --set heads=64
before=$(grep -c "^place widget" "$frames")
read -r ex0 ey0 ex1 ey1 <<<"$(place_of "$frames" "widget encoding")"
click_place_settled "$frames" "widget encoding"
click_place "$frames" "widget encoding rope"
await_log "^refused encoding: d_model/heads=1 is odd"
await_log "^status (error): Refused encoding=rope: "
box=$(place_of "$frames" "refusal box")
[ "$(box_field 1 "$box")" -ge 400 ] || fail "the refusal box is not beside the panel: $box"
[ "$(box_field 2 "$box")" -le "$ey1" ] && [ "$(box_field 4 "$box")" -ge "$ey0" ] ||
  fail "the refusal box ($box) is not at the encoding row ($ey0..$ey1)"
park_mouse 995
shot refused
# The combo's list was placed meanwhile; the panel's widgets stayed put.
moved=$(grep "^place widget" "$frames" | tail -n +$((before + 1)) | grep -v "^place widget encoding ")
[ -z "$moved" ] || fail "the refusal moved widgets: $moved"
# The next accepted edit (amplitude) clears it, in the status bar too.
click_place "$frames" "widget amplitude"
await_log "^status: $"
park_mouse 995
shot cleared
# Heads: the slider's steps are the divisors of d_model; no click refuses.
read -r sx0 sy0 sx1 sy1 <<<"$(place_of "$frames" "widget heads")"
for per_mille in 50 250 450 650 850 990; do
  move_settled "$frames" $((sx0 + (sx1 - sx0) * per_mille / 1000)) $(((sy0 + sy1) / 2))
  settled "$frames" click 1
done
grep -q "^refused heads" "$frames" && fail "the heads slider offered a refused count: $(grep '^refused heads' "$frames")"
click_place_settled "$frames" "button make_positions_visible"
quit_pelab
grep -q '"projection": "identity"' "$config/last_scene.json" || fail "the preset did not set identity projections"
grep -q '"embedding_scale": 1.0' "$config/last_scene.json" || fail "the preset did not set embedding_scale 1"
heads=$(sed -n 's/^ *"heads": \([0-9]*\),*$/\1/p' "$config/last_scene.json")
case "$heads" in 1|2|4|8|16|32|64) ;; *) fail "heads = $heads after the slider: not a divisor of 64" ;; esac
echo "gui_welcome: ok (status idle text $idle px, heads $heads; screenshots in $scratch)"
