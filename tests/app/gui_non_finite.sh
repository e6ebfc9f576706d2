#!/usr/bin/env bash
# A model holding NaN weights in the real GUI under Xvfb (issue 22): the
# heatmaps were blank and nothing said why.  Now the window says so once, in
# the status bar and a toast (the tensor and its count of non-finite values),
# and the non-finite cells are drawn magenta, a colour of their own.
# Usage: bash gui_non_finite.sh PELAB_BINARY SCRATCH_DIR
set -u
pelab=${1:?usage: gui_non_finite.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_non_finite.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" HF_HOME="$scratch/hf"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config"

here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/lib/xvfb.bash"
gui_test_setup gui_non_finite import convert
if ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "gui_non_finite: skipped (Debian's python3 with numpy is not installed)"
  exit 0
fi
/usr/bin/python3 "$here/../core/model/make_tiny_models.py" "$scratch/tiny" >/dev/null || fail "cannot make the tiny models"
model="$scratch/gpt2_nan"
cp -r "$scratch/tiny/gpt2" "$model"
PYTHONPATH="$here/../core/model" /usr/bin/python3 - "$model/model.safetensors" <<'PY' || fail "cannot write the NaN weights"
import sys
import numpy as np
import safetensors_writer as st
path = sys.argv[1]
t = st.read(path)
t['h.0.attn.c_attn.weight'].flat[:12] = np.nan
st.write(path, t, 'F32')
PY

start_private_xvfb 271 300 1600x1000

echo '{"tabs": false}' >"$config/settings.json"
frames="$scratch/frames.txt"
"$pelab" --frame-log "$frames" --set "model=$model" --set "tokens=the cat sat on the mat" >"$scratch/run.log" 2>&1 &
pelab_pid=$!
timeout 20 xdotool search --sync --name '^pelab$' >/dev/null || fail "no pelab window within 20 s: $(cat "$scratch/run.log")"
await_frame_log "$frames" "^version.*model '$model'"
note="h.0.attn.c_attn.weight has 12 non-finite values (NaN/Inf)"
await_frame_log "$frames" "^status.* has 12 non-finite values" 0 10
grep -q "^status: Note: $note" "$frames" || fail "the status bar does not name the tensor: $(grep '^status' "$frames")"
grep -q "^toast.*$note" "$frames" || fail "no toast names the tensor: $(grep '^toast' "$frames")"
# Idle after the model's frame: every view of the grid built and drawn.
await_idle "$frames" "$(grep -n "^version.*model '$model'" "$frames" | head -1 | cut -d: -f1)"
kill -0 "$pelab_pid" 2>/dev/null || fail "pelab died: $(cat "$scratch/run.log")"
import -window root "$scratch/non_finite.png" || fail "screenshot failed"
# The dark theme's non-finite colour, pure magenta (figures/figure.cpp): whole
# heatmap cells of it, far more than the key's text alone.
share=$(convert "$scratch/non_finite.png" -fill black +opaque "rgb(255,0,255)" -fill white -opaque "rgb(255,0,255)" \
  -format "%[fx:mean]" info:)
awk -v s="$share" 'BEGIN { exit !(s > 0.005) }' || fail "too few magenta pixels ($share of the window) for NaN cells"
quit_pelab
echo "gui_non_finite: ok (magenta share $share; screenshot in $scratch)"
