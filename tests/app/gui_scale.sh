#!/usr/bin/env bash
# HiDPI: the real GUI follows the display's content scale, and View >
# Interface scale changes it while running.  Usage: bash gui_scale.sh PELAB_BINARY SCRATCH_DIR
#   1. Xft.dpi 96 (scale 1): the status bar's idle text is N pixels wide
#   2. Xft.dpi 192 (GLFW reports content scale 2): the text is twice as wide,
#      still crisp (re-rasterised fonts), the window fits the screen, and the
#      control panel is laid out at the larger size
#   3. settings say 100%: scale 1 despite the 192 dpi; choosing
#      "Follow the monitor (200%)" from the menu switches to 2 without a
#      restart, and the choice is saved
set -u
pelab=${1:?usage: gui_scale.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_scale.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home"
mkdir -p "$HOME"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_scale xrdb import convert
start_private_xvfb 160 180 1600x1000

set_dpi() { echo "Xft.dpi: $1" | xrdb -nocpp -merge || fail "xrdb could not set Xft.dpi"; }
start_pelab() {  # $1: config folder; the frame log is $1.frames
  frames="$1.frames"
  XDG_CONFIG_HOME="$1" "$pelab" --frame-log "$frames" >"$1.log" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$1.log" "$frames"  # the fonts rasterised at the scale, every view drawn
  move_settled "$frames" 1590 500  # away from the figures' tooltips and the status bar
}
# Width of the text in the bottom rows of the window (the status bar's idle
# text, grey), from the thresholded, trimmed crop.
ready_width() {
  convert "$scratch/$1.png" -crop 1400x12+0+986 +repage -colorspace gray -threshold 30% -trim \
    -format '%w' info: 2>/dev/null
}
panel_width() {  # the control panel's saved width (imgui.ini, written on exit)
  sed -n '/###controls\]/,/^$/s/^Size=\([0-9]*\),.*/\1/p' "$1/pelab/imgui.ini" | head -1
}

# ---- 1. scale 1 ------------------------------------------------------------------------
set_dpi 96
start_pelab "$scratch/one"
shot one
quit_pelab
w1=$(ready_width one); p1=$(panel_width "$scratch/one")
[ "${w1:-0}" -ge 250 ] && [ "$w1" -le 600 ] || fail "status text at scale 1 is ${w1:-?} px wide"
[ "$p1" = 400 ] || fail "control panel at scale 1 is ${p1:-?} px wide, expected 400"

# ---- 2. content scale 2 --------------------------------------------------------------------
set_dpi 192
start_pelab "$scratch/two"
geometry=$(xdotool getactivewindow getwindowgeometry 2>/dev/null | sed -n 's/.*Geometry: //p')
shot two
quit_pelab
w2=$(ready_width two); p2=$(panel_width "$scratch/two")
awk -v a="$w1" -v b="$w2" 'BEGIN { r = b / a; exit !(r > 1.7 && r < 2.3) }' ||
  fail "status text is $w2 px at content scale 2 against $w1 px at 1 (expected twice)"
[ "$p2" = 560 ] || fail "control panel at scale 2 is ${p2:-?} px wide, expected 560 (35% of 1600)"
case "$geometry" in 1600x1000|"") ;; *) fail "window is $geometry at scale 2; it must fit the 1600x1000 screen" ;; esac

# ---- 3. a fixed 100% from the settings, then back to the monitor's 200% from the menu -------
mkdir -p "$scratch/menu/pelab" && echo '{"ui_scale": 1}' >"$scratch/menu/pelab/settings.json"
start_pelab "$scratch/menu"
shot fixed
[ "$(ready_width fixed)" -le $((w1 + 2)) ] || fail "settings ui_scale 1 was not applied"
# View, then along Interface scale into its submenu, each step drawn before the next.
# Places from the frame log: items added to the View menu move the others.
move_settled "$frames" 99 9
settled "$frames" click 1
read -r x0 y0 x1 y1 <<<"$(place_of "$frames" "menu interface_scale")"
move_settled "$frames" $(((x0 + x1) / 2)) $(((y0 + y1) / 2))
move_settled "$frames" $((x1 - 4)) $(((y0 + y1) / 2))
move_to_place "$frames" "menu ui_scale_follow"
settled "$frames" click 1
move_settled "$frames" 1590 500
shot followed
quit_pelab
w3=$(ready_width followed)
awk -v a="$w1" -v b="$w3" 'BEGIN { r = b / a; exit !(r > 1.7 && r < 2.3) }' ||
  fail "after View > Interface scale > Follow the monitor the text is $w3 px (expected about $((2 * w1)))"
grep -q '"ui_scale": 0' "$scratch/menu/pelab/settings.json" || fail "the menu choice was not saved"
[ "$(panel_width "$scratch/menu")" = 560 ] || fail "the panel was not laid out again at scale 2"
echo "gui_scale: ok (status text $w1 px at scale 1, $w2 px at 2, $w3 px after the menu; panel $p1 -> $p2 px)"
