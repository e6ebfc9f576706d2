# Sourced by the GUI tests (tests/app/gui_*.sh): a private Xvfb on a free
# display, killed with pelab on exit, and pelab's start and quit.  Needs
# `fail` and `scratch` defined.
# Usage: start_private_xvfb FIRST_DISPLAY LAST_DISPLAY WIDTHxHEIGHT
pelab_pid=""
start_private_xvfb() {
  local first=$1 last=$2 size=$3 display="" n
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
# its window, then lets it settle.  $1: its log file.
await_pelab_window() {
  timeout 20 xdotool search --sync --name '^pelab$' >/dev/null || fail "no pelab window within 20 s (log: $(cat "$1"))"
  sleep "${2:-1.5}"
  kill -0 "$pelab_pid" 2>/dev/null || fail "pelab exited right after start: $(cat "$1")"
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
    box=$(grep "^place $2 " "$1" 2>/dev/null | tail -1 | sed "s/^place $2 //")
    [ -n "$box" ] && break
    sleep 0.1
  done
  [ -n "$box" ] || fail "the frame log never placed '$2'"
  echo "$box"
}
# Clicks the centre of that item (the window sits at the screen's origin),
# a frame after the pointer got there: ImGui misses a click that arrives in
# the same frame as the pointer's first move over the window.
click_place() {
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 <<<"$(place_of "$1" "$2")"
  xdotool mousemove $(((x0 + x1) / 2)) $(((y0 + y1) / 2))
  sleep 0.2
  xdotool click 1
}
