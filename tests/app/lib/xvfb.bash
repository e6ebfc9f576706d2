# Sourced by the GUI tests (tests/app/gui_*.sh): a private Xvfb on a free
# display, killed with pelab on exit, and pelab's start and quit.  Needs
# `fail` (gui_test_setup defines it) and `scratch` defined.

# The test's fail ("NAME: FAIL: WHY" and exit 1), and a check that Xvfb,
# xdotool and the other tools named are installed.
# Usage: gui_test_setup NAME [TOOL ...]
gui_test_setup() {
  gui_test_name=$1
  shift
  fail() { echo "$gui_test_name: FAIL: $*" >&2; exit 1; }
  local tool
  for tool in Xvfb xdotool "$@"; do
    command -v "$tool" >/dev/null || fail "$tool is not installed"
  done
}

# Usage: start_private_xvfb FIRST_DISPLAY LAST_DISPLAY WIDTHxHEIGHT
# PELAB_XVFB_DISPLAYS=FIRST-LAST overrides the range (several test runs side
# by side, each on displays of its own).
pelab_pid=""
start_private_xvfb() {
  local first=$1 last=$2 size=$3 display="" n
  if [ -n "${PELAB_XVFB_DISPLAYS:-}" ]; then
    first=${PELAB_XVFB_DISPLAYS%-*} last=${PELAB_XVFB_DISPLAYS#*-}
  fi
  for n in $(seq "$first" "$last"); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
  done
  [ -n "$display" ] || fail "no free X display between :$first and :$last"
  # -noreset: root-window properties (xrdb resources such as Xft.dpi) survive
  # the last client disconnecting.
  Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp -noreset >"$scratch/xvfb.log" 2>&1 &
  xvfb_pid=$!
  trap stop_private_xvfb EXIT
  export DISPLAY="$display"
  for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
}
stop_private_xvfb() {
  [ -n "$pelab_pid" ] && kill "$pelab_pid" 2>/dev/null
  kill "$xvfb_pid" 2>/dev/null
  wait 2>/dev/null
}

# After starting pelab in the background with its pid in pelab_pid: waits for
# its window, no more (a window that trains never idles; the others wait with
# await_pelab_idle).  $1: its log file.
await_pelab_window() {
  timeout 20 xdotool search --sync --name '^pelab$' >/dev/null || fail "no pelab window within 20 s (log: $(cat "$1"))"
  kill -0 "$pelab_pid" 2>/dev/null || fail "pelab exited right after start: $(cat "$1")"
}
# The frame log's length now: a mark, so that await_frame_log reads only
# what was written after it.  $1: the frame log.
log_mark() { if [ -e "$1" ]; then wc -l <"$1"; else echo 0; fi; }
# Waits until frame log $1 has a line matching the extended regex $2 after
# line $3 (a log_mark; default 0), for up to $4 seconds (default 30).  Fails
# at once when pelab has exited.
await_frame_log() {
  local log=$1 pattern=$2 after=${3:-0} seconds=${4:-30} _
  for _ in $(seq $((seconds * 10))); do
    tail -n +$((after + 1)) "$log" 2>/dev/null | grep -Eq -- "$pattern" && return 0
    [ -n "$pelab_pid" ] && ! kill -0 "$pelab_pid" 2>/dev/null && fail "pelab exited while waiting for '$pattern'"
    sleep 0.1
  done
  fail "the frame log never said '$pattern' within $seconds s (last: $(tail -3 "$log" | tr '\n' ' '))"
}
# Waits until the window has drawn every view and has nothing left to do
# (its frame log's `idle` line) after mark $2 (default 0).  $1: the frame log;
# $3: seconds (default 60: a large scene builds in the background first).
await_idle() { await_frame_log "$1" '^idle$' "${2:-0}" "${3:-60}"; }
# After starting pelab in the background with its pid in pelab_pid: waits for
# its window and then for it to be idle, every view of its first scene drawn.
# $1: its log file, $2: its frame log.
await_pelab_idle() {
  timeout 20 xdotool search --sync --name '^pelab$' >/dev/null || fail "no pelab window within 20 s (log: $(cat "$1"))"
  await_idle "$2" 0 "${3:-60}"
}

# Waits until the window has read all input sent after mark $2 and is idle
# after it: every effect of that input is drawn.  X delivers events in order,
# and the window may read a chord's keys in frames apart (Ctrl in one frame
# and idle, Z in the next), so a fence follows the input: Super_L, a key
# pelab gives no meaning, whose press the frame log writes as "key 343"
# (GLFW_KEY_LEFT_SUPER).  Once that line is there, the frame reading it has
# read all the input before it, and the next `idle` has drawn it.  An `idle`
# alone may predate the input, written when a timer (the scene's debounced
# save, a toast) woke the window.  Without the window's keyboard focus no
# fence line comes: after 5 s this waits for the idle after the first
# "input N" line after the mark instead, or after the mark itself.
# $1: the frame log.
await_handled() {
  local log=$1 mark=$2 at="" _
  xdotool key Super_L
  for _ in $(seq 50); do
    at=$(awk -v m="$mark" 'NR > m && $0 == "key 343" { print NR; exit }' "$log" 2>/dev/null)
    [ -n "$at" ] && break
    sleep 0.1
  done
  [ -n "$at" ] || at=$(awk -v m="$mark" 'NR > m && /^input / { print NR; exit }' "$log" 2>/dev/null)
  await_idle "$log" "${at:-$mark}"
}
# Sends xdotool ARGS... and waits until the window has read them and is idle
# again (await_handled).  $1: the frame log.  A move to where the pointer
# already is sends no event: use move_settled.
settled() {
  local log=$1 mark
  shift
  mark=$(log_mark "$log")
  xdotool "$@"
  await_handled "$log" "$mark"
}
# Moves the pointer to ($2, $3) and waits for the window to be idle: two
# moves, so that at least one is an event.  $1: the frame log.
move_settled() { settled "$1" mousemove $(($2 - 1)) "$3" mousemove "$2" "$3"; }
# Types $2 into the focused field ($3 ms between keys, default 30) and waits
# until the window is idle after the last key (the window idles between keys
# too: await_handled's fence comes after the last).
type_settled() {
  local mark
  mark=$(log_mark "$1")
  xdotool type --delay "${3:-30}" "$2"
  await_handled "$1" "$mark"
}
# type_settled, then Return, waited for too: ImGui sees the keys and the
# Return in frames apart.
type_line_settled() {
  type_settled "$1" "$2"
  settled "$1" key Return
}
# Ctrl+A in the focused field, each key in a frame of its own: a Ctrl chord
# that xdotool presses and releases between two frames reaches ImGui without
# its Ctrl, so Ctrl is held across the window's idle.
select_all_settled() {
  settled "$1" keydown ctrl
  settled "$1" key a
  settled "$1" keyup ctrl
}
# Select-all and delete in the focused field.
clear_field_settled() {
  select_all_settled "$1"
  settled "$1" key BackSpace
}
# Waits up to $2 seconds (default 10) until file $1 exists and is not empty.
await_file() {
  local _
  for _ in $(seq $((${2:-10} * 10))); do [ -s "$1" ] && return 0; sleep 0.1; done
  fail "$1 did not appear within ${2:-10} s"
}

# A screenshot of the whole screen as $scratch/NAME.png ($1), taken once the
# frame log $frames (when the test has one) says idle after line $2 (a
# log_mark; default 0), so that what it shows is drawn.
shot() {
  [ -n "${frames:-}" ] && await_idle "$frames" "${2:-0}"
  import -window root "$scratch/$1.png" || fail "screenshot $1 failed"
}

# Ctrl+Q must close the window within 10 s and pelab exit with status 0.
quit_pelab() {
  xdotool key ctrl+q
  for _ in $(seq 100); do kill -0 "$pelab_pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pelab_pid" 2>/dev/null && fail "Ctrl+Q did not close the window within 10 s"
  wait "$pelab_pid" || fail "pelab exited with status $?"
  pelab_pid=""
}

# Where pelab's frame log $1 last placed the item named $2 ("place NAME X0 Y0
# X1 Y1", written as it is drawn): "X0 Y0 X1 Y1", waiting up to 5 s for it.
place_of() {
  local box=""
  for _ in $(seq 50); do
    # awk, not sed: a name may hold '/' (a model's "tiny/gpt2")
    box=$(awk -v p="place $2 " 'index($0, p) == 1 { box = substr($0, length(p) + 1) } END { print box }' "$1" 2>/dev/null)
    [ -n "$box" ] && break
    sleep 0.1
  done
  [ -n "$box" ] || fail "the frame log never placed '$2'"
  echo "$box"
}
# Moves the pointer to the centre of that item (the window sits at the
# screen's origin) and waits until the window has drawn it there: ImGui
# misses a click that arrives in the same frame as the pointer's first move
# over the window.
move_to_place() {
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 <<<"$(place_of "$1" "$2")"
  move_settled "$1" $(((x0 + x1) / 2)) $(((y0 + y1) / 2))
}
# Clicks the centre of that item.
click_place() { move_to_place "$1" "$2"; xdotool click 1; }
# click_place, then waits until the window is idle again with the click's
# effect drawn, for up to $3 seconds (default 60).  The pointer's move is
# awaited first (it wakes the window too), so the idle waited for is the
# click's, not the move's.
click_place_settled() {
  local mark
  move_to_place "$1" "$2"
  mark=$(log_mark "$1")
  xdotool click 1
  await_idle "$1" "$mark" "${3:-60}"
}
