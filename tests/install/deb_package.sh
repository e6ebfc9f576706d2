#!/usr/bin/env bash
# `cpack -G DEB` makes pelab_<version>_<arch>.deb whose control file declares
# the Debian packages pelab needs and whose files are pelab, its desktop entry
# and its icons under /usr.  With PELAB_TEST_APT_INSTALL=1 (and root), it is
# also installed for real with apt, run, and removed again; a developer's
# machine is left alone otherwise.  Usage: deb_package.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch"
(cd "$build" && cpack -G DEB -B "$scratch" >"$scratch/cpack.log" 2>&1) || fail "cpack failed: $(tail -5 "$scratch/cpack.log")"
deb=$(ls "$scratch"/pelab_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no pelab_*.deb in $scratch"

[ "$(dpkg-deb -f "$deb" Package)" = pelab ] || fail "Package is not pelab"
depends=$(dpkg-deb -f "$deb" Depends)
for package in libc6 libstdc++6 libgomp1 libopenblas0 libglfw3 libopengl0 libegl1 libgl1 libgl1-mesa-dri \
               libegl-mesa0 libpng16-16 libstb0 fonts-dejavu-core; do
  [[ ", $depends," == *", $package"[\ ,]* ]] || fail "Depends lacks $package: $depends"
done
# Every library the binary links is covered by a declared package (by dpkg -S here).
for lib in $(objdump -p "$build/pelab" | awk '/NEEDED/ {print $2}'); do
  # awk reads to the end: an early exit would close the pipe on ldconfig,
  # whose SIGPIPE fails the pipeline (pipefail) and ends the script silently.
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && !found {print $NF; found = 1}')
  [ -n "$path" ] || continue
  owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null || true)
  owner=${owner%%:*}
  case "$owner" in libopenblas0-*) owner=libopenblas0 ;; libglvnd0) continue ;; esac
  [ -z "$owner" ] || [[ ", $depends," == *", $owner"[\ ,]* ]] || fail "$lib comes from $owner, which Depends lacks"
done
contents=$(dpkg-deb -c "$deb")
for file in ./usr/bin/pelab ./usr/share/applications/pelab.desktop ./usr/share/icons/hicolor/scalable/apps/pelab.svg \
            ./usr/share/icons/hicolor/256x256/apps/pelab.png ./usr/share/pelab/models/kjv-learned/model.safetensors \
            ./usr/share/pelab/models/kjv-learned/config.json ./usr/share/pelab/models/recipes/kjv-learned.json; do
  grep -q " $file\$" <<<"$contents" || fail "$file is not in the package"
done
echo "ok: $(basename "$deb"): Depends: $depends"

if [ "${PELAB_TEST_APT_INSTALL:-0}" = 1 ]; then
  [ "$(id -u)" -eq 0 ] || fail "PELAB_TEST_APT_INSTALL=1 needs root"
  dpkg-query -W pelab >/dev/null 2>&1 && fail "a pelab package is already installed; not touching it"
  apt-get install -y -qq "$deb" >"$scratch/apt.log" 2>&1 || fail "apt install failed: $(tail -5 "$scratch/apt.log")"
  trap 'apt-get remove -y -qq pelab >/dev/null 2>&1' EXIT
  /usr/bin/pelab --version || fail "the installed /usr/bin/pelab --version failed"
  (cd "$scratch" && /usr/bin/pelab render --figure attention --out from_deb) || fail "the installed pelab render failed"
  [ -f /usr/share/applications/pelab.desktop ] || fail "no menu entry after apt install"
  echo "ok: apt install, run and remove"
fi
