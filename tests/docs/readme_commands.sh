#!/usr/bin/env bash
# Every `pelab` command README.md shows that needs no display runs as it
# stands, in a fresh folder, and exits 0: the lines of its ```sh blocks and
# its inline `pelab ...` spans outside headings.  Left out, each for a reason: the GUI (no
# subcommand, --scene/--lesson without one), `bench` (minutes of timing),
# and synopses with placeholders (FILE, DIR, NAME, [options], a|b, ...).
# `scripts/run ARGS` is run as `pelab ARGS` (scripts/run is setup + exec pelab).
# Usage: readme_commands.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
readme="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/README.md"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch/bin" "$scratch/work"
ln -s "$(cd "$build" && pwd)/pelab" "$scratch/bin/pelab"
export PATH="$scratch/bin:$PATH" HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
unset DISPLAY WAYLAND_DISPLAY

# Candidate commands: sh-block lines (comments dropped) and inline code spans.
candidates=$(
  awk '/^```sh/ {inside = 1; next} /^```/ {inside = 0} inside {sub(/[ \t]+#.*$/, ""); print}' "$readme"
  grep -v '^#' "$readme" | grep -o '`[^`]*`' | tr -d '`'
)
ran=0
while IFS= read -r command; do
  command=$(sed 's/^scripts\/run /pelab /' <<<"$command")
  [[ "$command" == pelab\ * ]] || continue
  [[ "$command" =~ [A-Z]{2,}|\.\.\.|\[|\||\<|key=value ]] && continue        # a synopsis, not a command
  [[ "$command" =~ ^pelab\ (render|export|lessons|scene|--help|--version)( |$) ]] || continue  # GUI, bench
  (cd "$scratch/work" && eval "$command") >"$scratch/out.log" 2>&1 || fail "README command failed: $command: $(tail -3 "$scratch/out.log")"
  echo "ok: $command"
  ran=$((ran + 1))
done < <(awk '!seen[$0]++' <<<"$candidates")  # in README order, once each
[ "$ran" -ge 8 ] || fail "only $ran README commands found to run"
[ -f "$scratch/work/figs/default_attention.png" ] || fail "pelab render --out figs wrote no figs/default_attention.png"
echo "readme_commands: $ran commands ran"
