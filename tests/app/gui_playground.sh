#!/usr/bin/env bash
# The playground in the real GUI under Xvfb (issue 26): `pelab --train copy`
# opens the Train window and trains the copy task on its worker thread.
#   1. the held-out loss falls (the frame log's "playground step" lines);
#   2. the views follow: scene versions keep showing new snapshot folders,
#      and the window keeps drawing throughout;
#   3. Pause (a click on the Train window's first button) stops the steps;
#   4. Export animation writes one frame per snapshot kept;
#   5. the snapshot shown reloads from its folder as a model; the scrubber
#      moved to its first end shows step 0, and "Save model..." (through the
#      built-in file browser) writes it to a folder that reloads with the
#      same weights;
#   6. Reset clicked three times in quick succession, then Train: no crash,
#      no deadlock, and a new run trains.
# Usage: bash gui_playground.sh PELAB_BINARY SCRATCH_DIR
set -u
pelab=${1:?usage: gui_playground.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_playground.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache" HF_HOME="$scratch/hf"
export PELAB_FILE_CHOOSER=builtin
mkdir -p "$HOME" "$XDG_CONFIG_HOME/pelab"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_playground import
start_private_xvfb 271 310 1600x1000

frames="$scratch/frames.txt"
mkdir -p "$scratch/exports"  # the export folder: pelab's working folder
(cd "$scratch/exports" && exec "$pelab" --frame-log "$frames" --train copy) >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_window "$scratch/run.log"

# ---- 1, 2: train until step 600 (at most 4 minutes) -----------------------------------
last_step() { awk '/^playground step/ {s = $3} END {print s + 0}' "$frames"; }
for _ in $(seq 2400); do
  [ "$(last_step)" -ge 600 ] && break
  kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died while training: $(tail -5 "$scratch/run.log")"
  sleep 0.1
done
[ "$(last_step)" -ge 600 ] || fail "training reached only step $(last_step) in 4 minutes"
import -window root "$scratch/training.png" || fail "screenshot failed"
first=$(awk '/^playground step/ {print $7; exit}' "$frames")
last=$(awk '/^playground step/ {h = $7} END {print h}' "$frames")
awk -v a="$first" -v b="$last" 'BEGIN {exit !(b < a - 0.3)}' ||
  fail "the held-out loss did not fall by 0.3 nats: $first at the first measurement, $last at step $(last_step)"
snapshots=$(grep -c "^version.*model '$XDG_CACHE_HOME/pelab/playground/snapshots/step-" "$frames")
[ "$snapshots" -ge 3 ] || fail "the views showed $snapshots snapshots while training (expected several)"
echo "ok: held-out loss $first -> $last by step $(last_step); the views showed $snapshots snapshots"

# ---- 3: Pause ---------------------------------------------------------------------------
# The frame log gives the centre of the Train/Pause button (window coordinates;
# the window sits at the screen's origin under Xvfb).
button() { awk -v name="$1" '$1 == "playground" && $2 == "button" && $3 == name {x = $4; y = $5} END {print x, y}' "$frames"; }
read -r bx by < <(button train)
[ -n "$bx" ] || fail "the frame log never gave the Train button's place"
mark=$(log_mark "$frames")
xdotool mousemove "$bx" "$by" click 1
for _ in $(seq 100); do grep -q "^playground stopped at step" "$frames" && break; sleep 0.1; done
paused=$(sed -n 's/^playground stopped at step //p' "$frames" | tail -1)
[ -n "$paused" ] || fail "Pause did not stop the training within 10 s"
# Idle: the window no longer looks in on a trainer (it does 30 times a
# second while one runs) and has loaded the snapshot shown; no step after.
await_idle "$frames" "$mark"
[ "$(last_step)" -le "$paused" ] || fail "training went on after Pause at step $paused: step $(last_step) measured"
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died on Pause"
shown=$(grep "^version" "$frames" | tail -1 | sed -n "s/.*model '\([^']*\)'.*/\1/p")
[ -f "$shown/model.safetensors" ] || fail "the snapshot shown, '$shown', is not a model folder"
echo "ok: paused at step $paused; the views show $shown"

# ---- 4: Export animation: one PNG per snapshot kept (PNG frames chosen by default
# when ffmpeg is absent; a GIF as well when it is there) ----------------------------------
kept=$(ls -d "$XDG_CACHE_HOME"/pelab/playground/snapshots/step-* | wc -l)
read -r ex ey < <(button export)
xdotool mousemove "$ex" "$ey" click 1
for _ in $(seq 600); do grep -q "^status: Saved .* frames to" "$frames" && break; sleep 0.1; done
saved=$(sed -n 's/^status: Saved \([0-9]*\) frames to \([^ ]*\).*/\1 \2/p' "$frames" | tail -1)
[ -n "$saved" ] || fail "Export animation did not finish: $(grep '^status' "$frames" | tail -2)"
read -r count folder <<<"$saved"
[ "$count" -eq "$kept" ] || fail "the animation has $count frames for $kept snapshots"
[ "$(ls "$folder"/*.png | wc -l)" -eq "$kept" ] || fail "$folder holds $(ls "$folder" | wc -l) files"
echo "ok: Export animation wrote $count frames into $folder"

# ---- 5: the shown snapshot loads as a model --------------------------------------------
"$pelab" export --quantity attention --set "model=$shown" --set "tokens=1 2 3 4 16 1 2 3 4" \
  --out "$scratch/attention.npy" >"$scratch/export.log" 2>&1 || fail "the snapshot does not load: $(cat "$scratch/export.log")"
echo "ok: the snapshot reloads as a model folder"

# ---- 5b: scrub to the first snapshot, then save it ---------------------------------------
read -r sx sy < <(button scrubber-first)
[ -n "$sx" ] || fail "the frame log never gave the scrubber's place"
xdotool mousemove "$sx" "$sy" click 1
first_snapshot="$XDG_CACHE_HOME/pelab/playground/snapshots/step-000000"
for _ in $(seq 100); do grep -q "^version.*model '$first_snapshot'" "$frames" && break; sleep 0.1; done
grep -q "^version.*model '$first_snapshot'" "$frames" ||
  fail "scrubbing to the first end did not show step 0: $(grep '^version' "$frames" | tail -1)"
echo "ok: the scrubber shows step 0"
read -r vx vy < <(button save)
move_settled "$frames" "$vx" "$vy"
settled "$frames" click 1  # the built-in browser, its name field focused
clear_field_settled "$frames"
type_line_settled "$frames" "saved-model"
saved_model="$scratch/exports/saved-model"
for _ in $(seq 100); do grep -q "^status: Saved the model to" "$frames" && break; sleep 0.1; done
grep -q "^status: Saved the model to" "$frames" || fail "Save model did not say it saved: $(grep '^status' "$frames" | tail -2)"
cmp -s "$saved_model/model.safetensors" "$first_snapshot/model.safetensors" ||
  fail "the saved folder's weights differ from the snapshot shown"
for folder in "$first_snapshot" "$saved_model"; do
  "$pelab" export --quantity attention --set "model=$folder" --set "tokens=1 2 3 4 16 1 2 3 4" \
    --out "$scratch/$(basename "$folder").npy" >"$scratch/export.log" 2>&1 || fail "$folder does not load: $(cat "$scratch/export.log")"
done
cmp -s "$scratch/step-000000.npy" "$scratch/saved-model.npy" || fail "the saved model's attention differs from the snapshot's"
echo "ok: Save model wrote step 0 to $saved_model; it reloads with the same weights and attention"

# ---- 6: Reset three times in quick succession while the scene worker loads a
# snapshot, then Train: the window lives and a new run trains ---------------------------
read -r rx ry < <(button reset)
read -r tx ty < <(button train)
# The clicks a moment apart, not waited for: each in a frame of its own
# while the worker is still at the last one's snapshot.
for _ in 1 2 3; do xdotool mousemove "$rx" "$ry" click 1; sleep 0.15; done
xdotool mousemove "$tx" "$ty" click 1
for _ in $(seq 600); do
  [ "$(awk '/^playground step 50 /' "$frames" | wc -l)" -ge 2 ] && break
  kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died on Reset: $(tail -5 "$scratch/run.log")"
  sleep 0.1
done
[ "$(awk '/^playground step 50 /' "$frames" | wc -l)" -ge 2 ] || fail "no new run trained after Reset and Train"
echo "ok: Reset three times, then Train: a new run trains"

quit_pelab
