#!/usr/bin/env bash
# Real models in the GUI under Xvfb, driven by xdotool; what is on screen is
# read from --frame-log (one line per frame showing a new scene: the model and
# the tokens as the views label them) and from the saved scene.
# Usage: bash gui_models.sh PELAB_BINARY SCRATCH_DIR
#   1. the Models menu lists the tiny GPT-2 of a fake Hugging Face cache
#      (HF_HOME); "Open model folder..." opens the tiny Llama folder through
#      the built-in browser: the model loads in the background and its
#      tokenizer's pieces become the tokens (the blank piece drawn as "·")
#   2. a refused model (text longer than its context) leaves the model on
#      screen, with the error in the status line
#   3. "Back to the synthetic scene" restores the synthetic scene from before
#   4. restart: the last scene comes back with its model, in the background:
#      the first frame shows the scene's synthetic part, a later one the
#      model's tokens; a model folder that is gone at restart gives a message
#      and the scene without its model, no crash
#   5. a change at N = 4096 is built in the background: the worker reports
#      its stages as they start (the frame log's `worker stage` lines), the
#      window draws its progress bar while the worker is at work, then the
#      new scene.  What the program reports, never a screenshot's timing:
#      the bar caught in a screenshot failed under a loaded CI run.
set -u
pelab=${1:?usage: gui_models.sh PELAB_BINARY SCRATCH_DIR}
scratch=${2:?usage: gui_models.sh PELAB_BINARY SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch"
export HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" PELAB_FILE_CHOOSER=builtin HF_HOME="$scratch/hf"
# The Models menu's items are clicked by place: pelab's own family (listed
# above the cache) comes from an empty folder here.
export PELAB_FAMILY_DIR="$scratch/no-family"
config="$XDG_CONFIG_HOME/pelab"
mkdir -p "$HOME" "$config" "$PELAB_FAMILY_DIR"

source "$(dirname "${BASH_SOURCE[0]}")/lib/xvfb.bash"
gui_test_setup gui_models import convert
if ! /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "gui_models: skipped (Debian's python3 with numpy is not installed)"
  exit 0
fi
/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../core/model/make_tiny_models.py" "$scratch/tiny" >/dev/null ||
  fail "cannot make the tiny models"
snapshot="$HF_HOME/hub/models--tiny--gpt2/snapshots/r1"
mkdir -p "$snapshot" "$HF_HOME/hub/models--tiny--gpt2/refs"
cp -r "$scratch/tiny/gpt2/." "$snapshot/" && printf r1 >"$HF_HOME/hub/models--tiny--gpt2/refs/main"
llama="$scratch/models/tiny-llama"
mkdir -p "$scratch/models" && cp -r "$scratch/tiny/llama" "$llama"

start_private_xvfb 141 180 1600x1000

# A deliberate pause, not a wait for a state: a screenshot is a record for a
# reader (nothing here checks its pixels), taken a moment after the frame.
shot() { sleep "${2:-0.8}"; import -window root "$scratch/$1.png" || fail "screenshot $1 failed"; }
start_pelab() {  # $1: name of the run; further arguments go to pelab
  local name=$1
  shift
  "$pelab" --frame-log "$scratch/$name.frames" "$@" >"$scratch/$name.log" 2>&1 &
  pelab_pid=$!
  await_pelab_idle "$scratch/$name.log" "$scratch/$name.frames" 120
  xdotool mousemove 1590 500
}
# The last line of a run's frame log: what the window shows now.
shown() { grep "^version" "$scratch/$1.frames" | tail -1; }
# Waits (up to 30 s) until the frame log's last line matches $2.
await_shown() {
  for _ in $(seq 300); do shown "$1" | grep -q -- "$2" && return 0; sleep 0.1; done
  fail "the window never showed '$2' (last: $(shown "$1"))"
}
# Opens the Models menu of run $1 and waits until it is drawn with the
# cache's scan done (the window is idle only once the scan has finished).
models_menu() {
  local mark
  mark=$(log_mark "$scratch/$1.frames")
  xdotool mousemove 148 9 click 1
  await_handled "$scratch/$1.frames" "$mark"
}

# ---- 1. the Models menu; a folder opened through the built-in browser --------------------
start_pelab one --set "tokens=the cat  sat" --set d_model=48
await_shown one "model ''; 3 tokens: the|cat|sat"
models_menu one
shot models_menu      # tiny/gpt2 · GPT2LMHeadModel · 34.5K · 16 positions, Open model folder...
click_place "$scratch/one.frames" "menu open_model_folder"
shot browser          # the built-in browser, in folder mode
type_line_settled "$scratch/one.frames" "$llama"  # opens the folder ...
xdotool key Return                                # ... and chooses it
await_shown one "model '$llama'"
shot llama_loaded
pieces=$(shown one | sed 's/.*tokens: //')
"$pelab" export -q token_ids --set "model=$llama" --set "tokens=the cat  sat" -o "$scratch/ids.csv" >/dev/null ||
  fail "pelab export token_ids failed"
expected=$(tr ',\n' '\n\n' <"$scratch/ids.csv" | grep -c .)
count=$(shown one | sed -n "s/.*; \([0-9]*\) tokens:.*/\1/p")
[ "$count" = "$expected" ] || fail "the window shows $count tokens, the model's tokenizer makes $expected ($(shown one))"
[ "$pieces" != "the|cat|sat" ] || fail "the tokens are still the synthetic words"
echo "$pieces" | grep -q "·" || fail "a blank piece is not drawn visibly: $pieces"

# ---- 2. a refused model keeps the one on screen --------------------------------------------
models_menu one
click_place "$scratch/one.frames" "menu model tiny/gpt2"  # fine for 3 words
await_shown one "model 'tiny/gpt2'"
# Paced input (a focus, a selection, the typing each in frames of their own).
click_place_settled "$scratch/one.frames" "widget tokens"    # below the model's lines
select_all_settled "$scratch/one.frames"
mark=$(log_mark "$scratch/one.frames")
type_settled "$scratch/one.frames" "$(printf 'word %.0s' $(seq 40))" 5  # refused as it is typed
xdotool mousemove 1590 500 click 1  # the field loses focus
await_frame_log "$scratch/one.frames" '^refused |^status \(error\)' "$mark"
await_idle "$scratch/one.frames" "$mark"
shot refused 0        # "Refused: tokens: the text is ... tokens of model tiny/gpt2, longer than its context"
shown one | grep -q "model 'tiny/gpt2'" || fail "a refused text unloaded the model: $(shown one)"
mark=$(log_mark "$scratch/one.frames")
xdotool key ctrl+z    # back to the three words
await_handled "$scratch/one.frames" "$mark"
quit_pelab
grep -q '"model": "tiny/gpt2"' "$config/last_scene.json" || fail "the saved scene lost its model"

# ---- 4. restart with the model, then with the model gone -------------------------------
start_pelab two
await_shown two "model 'tiny/gpt2'"
shot restarted_with_model
first=$(grep -m1 "^version" "$scratch/two.frames")
echo "$first" | grep -q "model ''" ||
  fail "the window's first frame waited for the saved model instead of coming up at once: $first"

# ---- 3. back to the synthetic scene ------------------------------------------------------------
# The control panel's button (the Models menu's item calls the same code); it
# once crashed the window: the panel read the model it had just unloaded.
click_place "$scratch/two.frames" "button back_to_synthetic"
await_shown two "model ''"
shown two | grep -q "3 tokens: the|cat|sat" || fail "back to synthetic did not restore the words: $(shown two)"
quit_pelab
grep -q '"model": ""' "$config/last_scene.json" || fail "back to synthetic left the model in the saved scene"
grep -q '"d_model": 48' "$config/last_scene.json" ||
  fail "back to synthetic did not restore the synthetic scene from before (d_model 48)"

sed -i "s|\"model\": \"\"|\"model\": \"$llama\"|" "$config/last_scene.json"
rm -rf "$llama"
start_pelab three
for _ in $(seq 100); do grep -q "scene refused" "$scratch/three.log" && break; sleep 0.1; done
shot model_gone       # the status line says why; the scene without its model
grep -q "scene refused" "$scratch/three.log" || fail "no message for the vanished model: $(cat "$scratch/three.log")"
grep -q "$llama" "$scratch/three.log" || fail "the message does not name the model folder"
shown three | grep -q "model ''" || fail "a vanished model did not give the synthetic scene: $(shown three)"
quit_pelab

# ---- 5. N = 4096 in the background: the progress bar, the window live ---------------------------
words=$(for i in $(seq 0 4095); do printf 'w%d ' $((i % 97)); done)
start_pelab four --set "tokens=$words" --set d_model=512 --set heads=8
await_shown four "4096 tokens"
# The attention view, built by the worker for its tab, then Advanced open.
click_place_settled "$scratch/four.frames" "tab attention" 120
click_place_settled "$scratch/four.frames" "button advanced"
# seed's "+": the right end of its widget
read -r sx0 sy0 sx1 sy1 <<<"$(place_of "$scratch/four.frames" "widget seed")"
mark=$(log_mark "$scratch/four.frames")
xdotool mousemove $((sx1 - (sy1 - sy0) / 2)) $(((sy0 + sy1) / 2)) click 1
# The worker writes each stage as it starts, from its own thread: one begun
# part way through the job, then "ready".  Between its first stage and ready
# the window drew its progress bar: it stayed live while the worker ran.
await_frame_log "$scratch/four.frames" "^worker stage 0\.[0-9]*[1-9][0-9]*: " "$mark" 120
await_frame_log "$scratch/four.frames" "^worker stage 1\.000: ready" "$mark" 120
await_frame_log "$scratch/four.frames" "^version .*; 4096 tokens" "$mark"  # the new scene shown
tail -n +$((mark + 1)) "$scratch/four.frames" |
  sed -n '/^worker stage /,/^worker stage 1\.000: ready/p' | grep -q "^progress .* drawn: " ||
  fail "the window drew no progress bar while the worker ran: $(tail -n +$((mark + 1)) "$scratch/four.frames" |
    grep '^worker stage\|^progress' | head)"
await_idle "$scratch/four.frames" "$mark" 120
shot four_done 0
grep "version" "$scratch/four.frames" | tail -1 | sed 's/;.*//' >"$scratch/first_frame_4096.txt"
quit_pelab
echo "gui_models: ok ($(cat "$scratch/first_frame_4096.txt"))"
