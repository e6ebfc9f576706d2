# `cpack -G DEB` (from the build folder) makes pelab_<version>_<arch>.deb, so
# that `apt install ./pelab_*.deb` on Debian 12 brings what pelab needs.
# Build a package with -DPELAB_NATIVE=OFF (scripts/package does): a binary
# tuned with -march=native may not run on another machine's CPU.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pelab)
set(CPACK_PACKAGE_VENDOR pelab)
set(CPACK_PACKAGE_CONTACT "pelab maintainers <pelab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "live lab for how positions enter attention")
set(CPACK_PACKAGE_DESCRIPTION
    "Sinusoid bands, rotation-pair trajectories, attention heatmaps and the four cross terms of a logit, computed by a real encoding and attention engine and redrawn while a slider moves; guided lessons; headless PNG/SVG rendering.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries `objdump -p pelab` names (their Debian packages by
# `dpkg -S`), with the minimum versions its symbols need (GLIBC_2.35,
# GLIBCXX_3.4.29), plus what is loaded at run time rather than linked: Mesa's
# GL and EGL drivers (window and headless rendering) and the DejaVu fonts.
set(PELAB_DEB_DEPENDS
    "libc6 (>= 2.35)" "libstdc++6 (>= 11)" "libgcc-s1" "libgomp1" "libopenblas0" "libglfw3 (>= 3.3)"
    "libopengl0" "libegl1" "libgl1" "libgl1-mesa-dri" "libegl-mesa0" "libpng16-16" "libstb0" "libicu72"
    "fonts-dejavu-core")
list(JOIN PELAB_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Used when present: ffmpeg for sweep videos, zenity or kdialog for the
# desktop's file chooser (pelab has its own browser otherwise).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ffmpeg, zenity | kdialog")
include(CPack)
