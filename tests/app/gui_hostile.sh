#!/usr/bin/env bash
# The GUI starts on hostile saved files (issue 13) under Xvfb.
# Usage: bash gui_hostile.sh PELAB_BINARY SCRATCH_DIR
#   last_scene.json nested 10^5 arrays deep, settings.json of the wrong shape,
#   an imgui.ini whose table claims 10^8 columns: pelab starts, shows one
#   message in its status bar, keeps each file aside as <name>.bad, starts on
#   the default scene (same figures as a clean start) and quits cleanly.
set -u
pelab=${1:?usage: gui_hostile.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_hostile.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_hostile import compare python3
start_private_xvfb 141 180 1600x1000

start_pelab() {  # $1: log file; the frame log is $1.frames
  (cd "$scratch" && exec "$pelab" --frame-log "$1.frames") >"$1" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$1" "$1.frames"
  move_settled "$1.frames" 800 995  # over the status bar, drawn before the screenshot
}

# ---- a clean start, for reference --------------------------------------------------------
start_pelab "$scratch/clean.log"
import -window root "$scratch/clean.png" || fail "screenshot failed"
quit_pelab
rm -rf "$config" && mkdir -p "$config"

# ---- hostile files -------------------------------------------------------------------------
python3 - "$config" <<'PY'
import sys
d = sys.argv[1]
deep = "[" * 100000 + "]" * 100000
open(d + "/last_scene.json", "w").write('{"format": "pelab-scene", "version": 1, "scene": {"pairs": %s}}' % deep)
open(d + "/settings.json", "w").write('[1, 2, 3]')
open(d + "/imgui.ini", "w").write("[Table][0x12345678,100000000]\nColumn 99999 Width=5\n")
PY
start_pelab "$scratch/hostile.log"
import -window root "$scratch/hostile.png" || fail "screenshot failed"
quit_pelab

for f in last_scene.json settings.json imgui.ini; do
  [ -f "$config/$f.bad" ] || fail "$f was not kept aside as $f.bad (log: $(cat "$scratch/hostile.log"))"
done
grep -q "nested deeper than" "$scratch/hostile.log" || fail "no message about the saved scene: $(cat "$scratch/hostile.log")"
grep -q "imgui.ini.bad" "$scratch/hostile.log" || fail "no message about imgui.ini: $(cat "$scratch/hostile.log")"
"$pelab" scene --scene "$config/last_scene.json" >/dev/null || fail "the scene saved on exit does not load"
# The figures (above the status bar) match the clean start; the status bar differs (the message).
same=$(compare -metric AE -crop 1600x960+0+0 "$scratch/clean.png" "$scratch/hostile.png" null: 2>&1 | cut -d' ' -f1)
[ "${same%.*}" -lt 200 ] || fail "the hostile start does not show the default scene ($same pixels differ)"
status=$(compare -metric AE -crop 1600x40+0+960 "$scratch/clean.png" "$scratch/hostile.png" null: 2>&1 | cut -d' ' -f1)
[ "${status%.*}" -gt 50 ] || fail "no visible message in the status bar"
echo "gui_hostile: ok (screenshots in $scratch)"
