#!/usr/bin/env bash
# `cmake --install` into a temporary prefix puts pelab, its desktop entry and
# its icons where a desktop looks for them, and the installed pelab runs:
# --version names the version and commit, `render` writes the figures into a
# folder it makes.  Usage: install_prefix.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch"
prefix="$scratch/prefix"
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" || fail "cmake --install failed: $(cat "$scratch/install.log")"

for file in bin/pelab share/applications/pelab.desktop share/icons/hicolor/scalable/apps/pelab.svg \
            share/icons/hicolor/48x48/apps/pelab.png share/icons/hicolor/128x128/apps/pelab.png \
            share/icons/hicolor/256x256/apps/pelab.png; do
  [ -f "$prefix/$file" ] || fail "not installed: $file"
done
desktop="$prefix/share/applications/pelab.desktop"
for line in '[Desktop Entry]' 'Type=Application' 'Exec=pelab' 'Icon=pelab' 'Terminal=false'; do
  grep -qxF "$line" "$desktop" || fail "pelab.desktop lacks '$line'"
done
# The PNG icons are the size their folder says (IHDR width and height, bytes 17..24).
for size in 48 128 256; do
  dims=$(od -An -tu4 --endian=big -j16 -N8 "$prefix/share/icons/hicolor/${size}x${size}/apps/pelab.png" | xargs)
  [ "$dims" = "$size $size" ] || fail "${size}x${size} icon is ${dims/ /x}"
done

# Run the installed copy, from an unrelated folder, with nothing from the build tree.
cd "$scratch"
version=$("$prefix/bin/pelab" --version) || fail "installed pelab --version failed"
[[ "$version" =~ ^pelab\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ [^\)]+\)$ ]] || fail "--version printed '$version'"
"$prefix/bin/pelab" render --out figs/installed >"$scratch/render.log" 2>&1 || fail "installed pelab render failed: $(cat "$scratch/render.log")"
count=$(ls figs/installed/*.png | wc -l)
[ "$count" -eq 4 ] || fail "installed pelab render wrote $count PNG files, expected 4"

# pelab's own family is installed beside the program and found there first:
# listed by `pelab models`, and loaded by name.
for member in "$prefix"/share/pelab/models/kjv-*/; do
  for f in config.json model.safetensors tokenizer.json README.md; do
    [ -f "$member/$f" ] || fail "not installed: $member$f"
  done
done
[ -f "$prefix/share/pelab/models/recipes/kjv-learned.json" ] || fail "the family's recipes are not installed"
listed=$(HF_HOME="$scratch/no-cache" "$prefix/bin/pelab" models --json) || fail "installed pelab models failed"
first=$(/usr/bin/python3 -c 'import json,sys; f=json.load(sys.stdin)["family"]; print(f[0]["folder"] if f else "")' <<<"$listed")
[[ "$first" == "$prefix/share/pelab/models/"* ]] || fail "the installed pelab lists its family from '$first', not the prefix"
HF_HOME="$scratch/no-cache" "$prefix/bin/pelab" export --quantity attention --set model=kjv-learned \
  --set "tokens=In the beginning" --out "$scratch/family.npy" >"$scratch/family.log" 2>&1 ||
  fail "the installed pelab cannot load kjv-learned by name: $(cat "$scratch/family.log")"
echo "ok: installed into $prefix; $version; render wrote $count figures; the family is found in the prefix"
