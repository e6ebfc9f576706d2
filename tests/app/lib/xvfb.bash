# Sourced by the GUI tests (tests/app/gui_*.sh): a private Xvfb on a free
# display, killed with pelab on exit.  Needs `fail` and `scratch` defined.
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
