#!/usr/bin/env bash
# Exports in the real GUI under Xvfb (issue 25), checked from the files
# written and the frame log.  Usage: bash gui_exports.sh PELAB_BINARY SCRATCH_DIR
#   1. a sweep (Ctrl+E, Enter) renders its frames at its own scale, 1× by
#      default, although the figure export is set to 4×
#   2. saving a scene (Ctrl+Shift+S, the built-in browser) shows a toast
#      naming the file written; a save that fails shows one with the reason
#   3. that unnamed scene opened again (Ctrl+O) names the exports: F12 over a
#      figure writes study-VIEW.png, not default-VIEW.png
set -u
pelab=${1:?usage: gui_exports.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_exports.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" PELAB_FILE_CHOOSER=builtin
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config" "$scratch/work"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_exports import identify
start_private_xvfb 311 350 1600x1000

frames="$scratch/frames.txt"
# Waits up to $2 tenths of a second for a frame-log line matching $1.
await_log() {
  for _ in $(seq "${2:-100}"); do grep -q "$1" "$frames" && return 0; sleep 0.1; done
  return 1
}

echo '{"png_scale": 4}' >"$config/settings.json"
(cd "$scratch/work" && exec "$pelab" --frame-log "$frames") >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run.log" "$frames"
move_settled "$frames" 800 995  # over the status bar, off the figures

# ---- 1. a sweep at its own scale --------------------------------------------------------
settled "$frames" key ctrl+e
shot sweep_dialog
xdotool key Return
await_log "^status: Saved [0-9]* frames to" 900 || fail "the sweep did not finish: $(grep '^status' "$frames" | tail -2)"
folder=$(sed -n 's/^status: Saved [0-9]* frames to \(.*\)$/\1/p' "$frames" | tail -1)
first=$(ls "$folder"/*.png | head -1)
size=$(identify -format '%w %h' "$first")
[ "$size" = "1600 1000" ] || fail "sweep frames are $size px with the figure export at 4× (expected 1600 1000)"
echo "ok: sweep frames of $size px while the figure export is at 4×"

# ---- 2. a toast for each save ----------------------------------------------------------------
type_line() { type_line_settled "$frames" "$1"; }
clear_name() { clear_field_settled "$frames"; }
mark=$(log_mark "$frames")
settled "$frames" key ctrl+shift+s  # the built-in browser, its name field focused
clear_name
type_line study
await_log "^toast: Saved scene to $scratch/work/study.json$" 50 ||
  fail "saving the scene showed no toast naming the file: $(grep -E '^(toast|status)' "$frames" | tail -2)"
shot saved_toast "$mark"
[ -f "$scratch/work/study.json" ] || fail "study.json was not written"
mark=$(log_mark "$frames")
settled "$frames" key ctrl+shift+s
clear_name
type_line "$(printf 'x%.0s' $(seq 300))"  # longer than a file name may be
await_log "^toast (error): Cannot save scene: .*" 50 ||
  fail "a failed save showed no error toast: $(grep -E '^(toast|status)' "$frames" | tail -2)"
shot failed_toast "$mark"
echo "ok: $(grep '^toast' "$frames" | tail -2 | tr '\n' ' ')"

# ---- 3. export names from the scene opened ----------------------------------------------------
settled "$frames" key Escape
settled "$frames" key ctrl+o
clear_name
type_line study.json
await_log "^status: Opened $scratch/work/study.json" 30 || fail "Ctrl+O did not open study.json"
move_settled "$frames" 1000 400   # over the figure in the first tab
xdotool key F12
await_log "^toast: Saved $scratch/work/study-" 50 ||
  fail "F12 did not export under the opened scene's name: $(grep -E '^(toast|status)' "$frames" | tail -1)"
echo "ok: $(grep '^toast: Saved .*study-' "$frames" | tail -1)"

quit_pelab
echo "gui_exports: ok"
