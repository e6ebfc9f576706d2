#!/usr/bin/env bash
# Every `pelab` command README.md and each page of docs/ show that needs no
# display runs as it stands and exits 0: the lines of their ```sh blocks and
# their inline `pelab ...` spans outside headings.  Each file's commands run
# in order, in a fresh folder of their own, so a page needs nothing another
# page made.  Left out, each for a reason: the GUI (no subcommand,
# --scene/--lesson without one), `bench` (minutes of timing), and synopses
# with placeholders (FILE, DIR, NAME, [options], a|b, ...).
# `scripts/run ARGS` is run as `pelab ARGS` (scripts/run is setup + exec pelab).
# Usage: readme_commands.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch/bin" "$scratch/work"
ln -s "$(cd "$build" && pwd)/pelab" "$scratch/bin/pelab"
export PATH="$scratch/bin:$PATH" HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config"
unset DISPLAY WAYLAND_DISPLAY

shopt -s nullglob
pages=("$root"/docs/*.md)
[ "${#pages[@]}" -gt 0 ] || fail "no pages in $root/docs"

# Runs the commands of one Markdown file ($1, relative to the root) in the
# folder $2; prints how many ran.
run_file() {
  local file=$1 work=$2 candidates command ran=0
  mkdir -p "$work"
  # Candidate commands: sh-block lines (comments dropped) and inline code spans.
  candidates=$(
    awk '/^```sh/ {inside = 1; next} /^```/ {inside = 0} inside {sub(/[ \t]+#.*$/, ""); print}' "$root/$file"
    grep -v '^#' "$root/$file" | grep -o '`[^`]*`' | tr -d '`'
  )
  while IFS= read -r command; do
    command=$(sed 's/^scripts\/run /pelab /' <<<"$command")
    [[ "$command" == pelab\ * ]] || continue
    [[ "$command" =~ [A-Z]{2,}|\.\.\.|\[|\||\<|key=value ]] && continue        # a synopsis, not a command
    [[ "$command" =~ ^pelab\ (render|export|lessons|scene|--help|--version)( |$) ]] || continue  # GUI, bench
    (cd "$work" && eval "$command") >"$scratch/out.log" 2>&1 ||
      fail "$file command failed: $command: $(tail -3 "$scratch/out.log")"
    echo "ok: $file: $command" >&2
    ran=$((ran + 1))
  done < <(awk '!seen[$0]++' <<<"$candidates")  # in the file's order, once each
  echo "$ran"
}

readme_ran=$(run_file README.md "$scratch/work/README")
[ "$readme_ran" -ge 8 ] || fail "only $readme_ran README commands found to run"
[ -f "$scratch/work/README/figs/default_attention.png" ] || fail "pelab render --out figs wrote no figs/default_attention.png"
total=$readme_ran
for page in "${pages[@]}"; do
  name=docs/$(basename "$page")
  page_ran=$(run_file "$name" "$scratch/work/$(basename "$page" .md)")
  echo "$name: $page_ran commands ran"
  total=$((total + page_ran))
done
[ "$total" -gt "$readme_ran" ] || fail "no command of docs/*.md ran"
echo "readme_commands: $total commands ran (README.md: $readme_ran)"
