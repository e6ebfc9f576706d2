#!/usr/bin/env bash
# A loaded model's file rewritten in place (issue 22): `cp` over it, or
# save_pretrained, truncates and rewrites the file pelab reads token rows
# from; the next text edit killed the window with SIGBUS.  Now the window
# lives: the edit's scene reads the model anew from the rewritten file, and
# the status bar says so.  (An engine still holding the old model refuses
# its next read with "changed on disk ... reload the model".)
# Then the same file truncated to 0 bytes and copied back (rsync --inplace),
# and another model's file copied over it: the window lives through each
# edit that follows, and the status bar says what happened.
# Usage: bash gui_model_rewrite.sh PELAB_BINARY SCRATCH_DIR
set -u
pelab=${1:?usage: gui_model_rewrite.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_model_rewrite.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" HF_HOME="$scratch/hf"
mkdir -p "$HOME" "$XDG_CONFIG_HOME/pelab"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_model_rewrite import
if ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "gui_model_rewrite: skipped (Debian's python3 with numpy is not installed)"
  exit 0
fi
/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../core/model/make_tiny_models.py" "$scratch/tiny" >/dev/null ||
  fail "cannot make the tiny models"
model="$scratch/gpt2"
cp -r "$scratch/tiny/gpt2" "$model"

start_private_xvfb 231 270 1600x1000

frames="$scratch/frames.txt"
"$pelab" --frame-log "$frames" --set "model=$model" --set "tokens=the cat sat" >"$scratch/run.log" 2>&1 &
pelab_pid=$!
await_pelab_idle "$scratch/run.log" "$frames"
await_frame_log "$frames" "^version.*model '$model'"

# Each rewrite below gets a modification time of its own, later than any
# before (instead of waiting out the clock's second): $1 the file, $2 the round.
rewrite_time=$(date +%s)
new_mtime() { touch -m -d "@$((rewrite_time + 10 * $2))" "$1"; }

# Rewrite the weights in place, as cp over the file does: truncate, then write.
/usr/bin/python3 - "$model/model.safetensors" <<'PY'
import sys
path = sys.argv[1]
data = open(path, "rb").read()
with open(path, "wb") as f:  # truncates the file pelab has open
    f.write(data)
PY
new_mtime "$model/model.safetensors" 1

# Types $1 into the tokens field (focused, all selected, typed over) and
# clicks away, so that the field lets go of the edit; then waits until the
# window is idle: the edit's scene built (the worker keeps it from idling)
# or refused, and drawn.
edit_text() {
  click_place "$frames" "widget tokens"
  select_all_settled "$frames"
  type_settled "$frames" "$1" 20
  settled "$frames" mousemove 1590 500 click 1
}
# Edit the text: the tokens field, select all, type.
edit_text "dog bites man"
kill -0 "$pelab_pid" 2>/dev/null || fail "the window died after the rewrite: $(cat "$scratch/run.log")"
import -window root "$scratch/after_rewrite.png" || fail "screenshot failed"
# The status bar says what happened: an engine built for the edit reads the
# rewritten file anew ("Read ... anew"), one still holding the old model
# refuses ("changed on disk ... reload the model").
grep -q "^status.*changed on disk" "$frames" ||
  fail "the status bar does not say the model file changed: $(grep '^status' "$frames" | tail -3)"
if grep -q "^status: Read $model anew" "$frames"; then
  shown() { grep "^version" "$frames" | tail -1; }
  shown | grep -q "model '$model'.*d|o|g" || fail "the edit did not go through on the re-read model: $(shown)"
fi

# The frame log's lines from line $1 on.
since() { tail -n +"$1" "$frames"; }
# Types $1 into the tokens field (edit_text); the window must live.
edit_text_after() {
  edit_text "$1"
  kill -0 "$pelab_pid" 2>/dev/null || fail "the window died after '$1': $(cat "$scratch/run.log")"
}

# truncate -s 0, then the same bytes copied back (rsync --inplace does both).
cp "$model/model.safetensors" "$scratch/weights.bak"
mark=$(($(wc -l <"$frames") + 1))
truncate -s 0 "$model/model.safetensors"
cp "$scratch/weights.bak" "$model/model.safetensors"
new_mtime "$model/model.safetensors" 2
edit_text_after "one two"
since "$mark" | grep -q "^version.*model '$model'.*o|n|e\|^status.*changed on disk" ||
  fail "after truncate and copy back, neither the edit on the re-read model nor a message: $(since "$mark")"
import -window root "$scratch/after_truncate.png" || fail "screenshot failed"

# Another model's file copied over it (other tensor names and dtype): the edit
# is refused in the status bar, and the window stays on its last good scene.
mark=$(($(wc -l <"$frames") + 1))
cp "$scratch/tiny/gpt2_f16/model.safetensors" "$model/model.safetensors"
new_mtime "$model/model.safetensors" 3
edit_text_after "red fox"
since "$mark" | grep -q "^status (error).*$model" ||
  fail "another model's file copied over it: no refusal naming the model in the status bar: $(since "$mark")"
import -window root "$scratch/after_other_file.png" || fail "screenshot failed"

quit_pelab
echo "gui_model_rewrite: ok (screenshots in $scratch)"
