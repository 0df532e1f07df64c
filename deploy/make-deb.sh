#!/usr/bin/env bash
# Builds the Debian package aubade_<version>-<revision>_<arch>.deb from an already built aubade binary, with
# dpkg-deb (no debhelper, no source package), and beside it aubade-face_<version>-<revision>_<arch>.deb when the
# native face (aubade-face, issue 38) is built beside the binary. `make deb` passes the release binary linked with
# --static-swift-stdlib, so the Pi needs no Swift toolchain; run on a Pi (arm64) it makes the arm64 package.
#
# Usage: deploy/make-deb.sh [--test] [--revision N] [--fast] BINARY OUTDIR
#   BINARY        the aubade executable (its pages and OpenAPI document are compiled in); the second waker,
#                 aubade-waker, is taken from beside it
#   OUTDIR        where the .deb goes (made if missing); the last line printed is its path (the face's package, when
#                 made, is the line before)
#   --revision N  the Debian revision (default 1); the HIL's upgrade test packages one binary as -1 and -2
#   --test        for the tests only: BINARY is a debug build that links the Swift runtime from the toolchain
#                 (/opt/swift/...), which no Debian package provides. Its RUNPATH to the toolchain is removed
#                 (as for every build, lintian wants none; the machine that installs it must have the runtime on
#                 its library path, as the HIL guest arranges) and those libraries are left out of Depends: and
#                 named on stderr, instead of refusing the binary.
#   --fast        gzip -1 instead of xz (the tests; the contents are the same)
#
# The package:
#   /usr/bin/aubade and /usr/bin/aubade-waker; /lib/systemd/system/aubade.service and aubade-waker.service;
#   /etc/aubade/aubade.toml
#   (a conffile: a user's edits survive upgrades); udev rules for the gpio, i2c and video groups; the man page
#   aubade(1), generated from the argument parser (--experimental-dump-help), and aubade-waker(1) (written by
#   hand: the waker has no argument parser); bash completion; the kiosk
#   autostart (/usr/lib/aubade/kiosk/); README, copyright, changelog.
#   postinst makes the `aubade` system user (audio, gpio, i2c, input, video) and enables and starts the unit;
#   an upgrade restarts it; remove keeps /var/lib/aubade (the alarms), purge deletes it.
#   Depends: from dpkg-shlibdeps over the binary (the exact runtime libraries and their minimum versions), the
#   FFmpeg libraries the binary opens with dlopen (resolved through their packages' shlibs files the same way),
#   plus adduser for postinst.
#
# The face's package, a second binary package so that a headless clock never pulls SDL, Mesa or a font:
#   /usr/bin/aubade-face; /lib/systemd/system/aubade-face.service (deploy/kiosk/, installed, not enabled: a board
#   with a desktop shows the face through the kiosk launcher, which the aubade package holds); aubade-face(1);
#   copyright, changelog. postinst makes the `aubade-face` system user. Depends: dpkg-shlibdeps over the binary
#   (SDL2, SDL2_ttf, SDL2_image), fonts-dejavu-core (its font), aubade of the same version (the launcher, and the
#   API it speaks), adduser.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
die() { echo "make-deb: $*" >&2; exit 1; }
# A command that fails without die() says which one, rather than ending the script without a word.
trap 'echo "make-deb: stopped at line $LINENO, where this failed: $BASH_COMMAND" >&2' ERR

test_build=false revision=1 compress=(-Zxz)
while [ $# -gt 0 ]; do
  case "$1" in
    --test) test_build=true ;;
    --fast) compress=(-Zgzip -z1) ;;
    --revision) [ $# -ge 2 ] || die "--revision needs a number."; revision=$2; shift ;;
    -*) die "unknown option $1 (see the usage at the top of $0)." ;;
    *) break ;;
  esac
  shift
done
[ $# -eq 2 ] || die "usage: $0 [--test] [--revision N] [--fast] BINARY OUTDIR"
BIN=$1 OUT=$2
[[ "$revision" =~ ^[0-9]+$ ]] || die "--revision '$revision' is not a number."
[ -x "$BIN" ] || die "$BIN is not an executable; build aubade first (make deb builds the release binary)."
for tool in dpkg-deb dpkg-shlibdeps strip readelf patchelf gzip python3; do
  command -v "$tool" >/dev/null || die "$tool is missing; deploy/install-deps.sh deb installs what the packaging needs."
done

version=$("$BIN" --version 2>/dev/null) || die "$BIN --version failed."
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || die "$BIN --version gave '$version', not a version number."
arch=$(dpkg --print-architecture)
debversion=$version-$revision
# The man pages' and changelog's date: the last commit's (reproducible), or SOURCE_DATE_EPOCH.
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$REPO" log -1 --format=%ct 2>/dev/null || date +%s)}" +%Y-%m-%d)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
P=$W/debian/aubade   # dpkg-shlibdeps expects the package's files under debian/<package>/
mkdir -p "$P/DEBIAN"

# --- The binary ------------------------------------------------------------------------------------------
install -D -m 0755 "$BIN" "$P/usr/bin/aubade"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$P/usr/bin/aubade"
# SwiftPM links executables with RUNPATH $ORIGIN (nothing lives beside a binary in the package: removed, as
# lintian wants). Any other entry is the toolchain's runtime: a build without --static-swift-stdlib, which only
# --test accepts.
fix_runpath() {  # fix_runpath STAGED_BINARY ORIGINAL
  local runpath foreign
  runpath=$(readelf -d "$1" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
  [ -n "$runpath" ] || return 0
  foreign=$(echo "$runpath" | tr ':' '\n' | grep -v '^\$ORIGIN' || true)
  [ -z "$foreign" ] || $test_build ||
    die "$2 links the Swift runtime from $foreign (RUNPATH); build it with --static-swift-stdlib (make deb)."
  patchelf --remove-rpath "$1"
}
fix_runpath "$P/usr/bin/aubade" "$BIN"
# The pages and the OpenAPI document are compiled into the binary (embedInCode): nothing may be looked up
# beside it. A SwiftPM bundle name in the binary means a module gained a resource folder again.
bundle=$(grep -aoE 'Aubade_[A-Za-z0-9]+\.resources' "$BIN" | sed -n 1p || true)
[ -z "$bundle" ] || die "$BIN looks for the resource bundle $bundle beside itself; compile its resources in (.embedInCode in Package.swift)."

# --- The unit, the config, the udev rules ----------------------------------------------------------------
install -D -m 0644 "$REPO/deploy/aubade.service" "$P/lib/systemd/system/aubade.service"
grep -q '^ExecStart=/usr/bin/aubade ' "$P/lib/systemd/system/aubade.service" ||
  die "deploy/aubade.service no longer starts /usr/bin/aubade; the package installs the binary there."
# Extra units and their binaries go here: the second waker of issue 16 (deploy/aubade-waker.service running
# aubade-waker, built beside aubade) is packaged when both exist; the package then enables it like the clock.
extra_units=()
for unit in "$REPO"/deploy/*.service; do
  name=$(basename "$unit")
  [ "$name" = aubade.service ] && continue
  exe=$(sed -n 's#^ExecStart=[-@+!]*/usr/\(local/\)\{0,1\}bin/\([^ ]*\).*#\2#p' "$unit" | head -1)
  [ -n "$exe" ] && [ -x "$(dirname "$BIN")/$exe" ] || { echo "make-deb: $name left out: its binary '$exe' is not built beside $BIN." >&2; continue; }
  install -D -m 0755 "$(dirname "$BIN")/$exe" "$P/usr/bin/$exe"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$P/usr/bin/$exe"
  fix_runpath "$P/usr/bin/$exe" "$(dirname "$BIN")/$exe"
  sed 's#^\(ExecStart=[-@+!]*\)/usr/local/bin/#\1/usr/bin/#' "$unit" > "$P/lib/systemd/system/$name"
  [ -f "$HERE/debian/$exe.1" ] || die "deploy/debian/$exe.1 is missing: every program in the package has a man page."
  install -d "$P/usr/share/man/man1"
  sed "1s/\"\"/\"$date\"/" "$HERE/debian/$exe.1" |
    gzip -9n > "$P/usr/share/man/man1/$exe.1.gz"
  chmod 0644 "$P/lib/systemd/system/$name"
  extra_units+=("$name")
done
install -D -m 0644 "$REPO/config/aubade.toml" "$P/etc/aubade/aubade.toml"
install -D -m 0644 "$REPO/deploy/60-aubade.rules" "$P/lib/udev/rules.d/60-aubade.rules"
install -D -m 0644 "$REPO/deploy/99-aubade-backlight.rules" "$P/lib/udev/rules.d/99-aubade-backlight.rules"

# --- Kiosk autostart (Raspberry Pi OS desktop, labwc) -----------------------------------------------------
install -D -m 0755 "$REPO/deploy/kiosk/aubade-kiosk" "$P/usr/lib/aubade/kiosk/aubade-kiosk"
install -D -m 0644 "$REPO/deploy/kiosk/aubade-kiosk.service" "$P/usr/lib/systemd/user/aubade-kiosk.service"
install -D -m 0644 "$REPO/deploy/kiosk/labwc-autostart" "$P/usr/share/doc/aubade/examples/labwc-autostart"

# --- Man page, completion, documents -------------------------------------------------------------------
mkdir -p "$P/usr/share/man/man1"
"$BIN" --experimental-dump-help | python3 "$HERE/debian/manpage.py" "$version" "$date" > "$W/aubade.1" ||
  die "could not make the man page from '$BIN --experimental-dump-help'."
gzip -9n < "$W/aubade.1" > "$P/usr/share/man/man1/aubade.1.gz"
install -d "$P/usr/share/bash-completion/completions"
# Sourced by bash-completion, not run: without the generator's #! line.
"$BIN" --generate-completion-script bash | sed '1{/^#!/d}' > "$P/usr/share/bash-completion/completions/aubade" ||
  die "could not make the bash completion."
D=$P/usr/share/doc/aubade
install -D -m 0644 "$REPO/README.md" "$D/README.md"
install -m 0644 "$REPO/hardware/README.md" "$D/hardware.md"
install -m 0644 "$HERE/debian/copyright" "$D/copyright"
install -D -m 0644 "$HERE/debian/lintian-overrides" "$P/usr/share/lintian/overrides/aubade"
for f in "$REPO"/config/examples/*.toml; do
  [ -e "$f" ] && install -D -m 0644 "$f" "$D/examples/$(basename "$f")"
done
{
  echo "aubade ($debversion) unstable; urgency=medium"
  echo
  echo "  * Built from $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo 'a source tree') by deploy/make-deb.sh."
  echo
  echo " -- $(sed -n 's/^Maintainer: //p' "$HERE/debian/control.in" | head -1)  $(date -u -R -d "$date")"
} | gzip -9n > "$D/changelog.Debian.gz"

# --- Control files ---------------------------------------------------------------------------------------
install -m 0755 "$HERE/debian/postinst" "$HERE/debian/prerm" "$HERE/debian/postrm" "$P/DEBIAN/"
for unit in "${extra_units[@]}"; do
  # The clock's own snippets, repeated for each extra unit (enable on install, restart on upgrade, stop on remove).
  for script in postinst prerm postrm; do
    sed -i "s/'aubade\.service'/'aubade.service' '$unit'/" "$P/DEBIAN/$script"
  done
done
find "$P/etc" -type f | sed "s#^$P##" > "$P/DEBIAN/conffiles"

# Depends: what the binary links, as dpkg-shlibdeps resolves it through the installed packages' shlibs and
# symbols files (never a hand-written list).
cp "$HERE/debian/control.in" "$W/debian/control"
shlibdeps_args=()
if $test_build; then
  # The toolchain's Swift runtime (not from any package) is resolved from the binary's RUNPATH and left out.
  shlibdeps_args+=(--ignore-missing-info)
  unpackaged=$(ldd "$BIN" | awk '$3 ~ /^\// { print $3 }' | while read -r lib; do
      dpkg -S "$(readlink -f "$lib")" >/dev/null 2>&1 || dpkg -S "$lib" >/dev/null 2>&1 || echo "$lib"; done)
  [ -z "$unpackaged" ] || echo "make-deb: --test: left out of Depends (from no Debian package): $(echo $unpackaged | tr ' ' ',')" >&2
  # dpkg-shlibdeps reads RUNPATH from the original (unstripped copies keep it too).
  shlibdeps_args+=(-l"$(dirname "$(ldd "$BIN" | awk '/libswiftCore/ { print $3 }')")")
fi
bins=("$P/usr/bin/aubade")
for unit in "${extra_units[@]}"; do
  exe=$(sed -n 's#^ExecStart=[-@+!]*/usr/bin/\([^ ]*\).*#\1#p' "$P/lib/systemd/system/$unit" | head -1)
  bins+=("$P/usr/bin/$exe")
done
(cd "$W" && dpkg-shlibdeps "${shlibdeps_args[@]}" -O -e"${bins[@]}" 2> "$W/shlibdeps.err") > "$W/substvars" ||
  { cat "$W/shlibdeps.err" >&2; die "dpkg-shlibdeps failed on $BIN."; }
# (--test: the toolchain's libraries, named above, give warnings of their own; they are not the package's.)
grep -v 'binaries to analyze should already be installed' "$W/shlibdeps.err" |
  { if $test_build; then grep -Ev "library name 'lib(swift|Foundation|dispatch|BlocksRuntime|_Foundation)|linked against lib(swift|Foundation|dispatch|BlocksRuntime|_Foundation)"; else cat; fi; } >&2 || true
shlibs=$(sed -n 's/^shlibs:Depends=//p' "$W/substvars")
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries in $BIN."
# FFmpeg's libraries are opened with dlopen when a stream first needs them (Sources/CFFmpeg/shim.h), so they are not
# linked and dpkg-shlibdeps cannot see them: each soname the binary names is resolved as dpkg-shlibdeps would, through
# the shlibs file of the package that holds it here — the version the archive gave this machine, never a written one.
for soname in $(grep -aoE 'lib(avformat|avcodec|swresample|avutil)\.so\.[0-9]+' "$BIN" | sort -u); do
  name=${soname%%.so.*}; major=${soname##*.so.}
  # (awk reads to the end: leaving early would kill ldconfig with SIGPIPE, which pipefail and set -e turn into a
  # silent exit of this script — it did, on a machine whose library cache is longer.)
  file=$(ldconfig -p | awk -v l="$soname" '$1 == l && f == "" { f = $NF } END { print f }')
  [ -n "$file" ] || die "$soname, which $BIN opens for AAC, Ogg and HLS, is not installed (apt install ${name}-dev)."
  pkg=$(dpkg -S "$(readlink -f "$file")" 2>/dev/null | cut -d: -f1 | head -1)
  dep=$(dpkg-query --control-show "$pkg" shlibs 2>/dev/null | awk -v n="$name" -v m="$major" '$1 == n && $2 == m && d == "" { $1 = ""; $2 = ""; sub(/^  /, ""); d = $0 } END { print d }')
  [ -n "$dep" ] || die "the package of $soname ($pkg) has no shlibs entry for it."
  shlibs="$shlibs, $dep"
done
# A release build packs its relative relocations (RELR, Package.swift): the loader must be glibc 2.36 or later,
# which the binary says with a version need dpkg-shlibdeps does not read (no symbol carries it).
if readelf -VW "$BIN" | grep 'Name: GLIBC_ABI_DT_RELR' >/dev/null; then  # (not -q: readelf would die of SIGPIPE)
  shlibs=$(echo "$shlibs" | sed -E 's/libc6 \(>= 2\.(2[0-9]|3[0-5])[^)]*\)/libc6 (>= 2.36)/')
fi
installed_size=$(du -sk --exclude=DEBIAN "$P" | cut -f1)
sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$shlibs, adduser/" \
    -e "s/@INSTALLED_SIZE@/$installed_size/" "$HERE/debian/control.in" > "$P/DEBIAN/control"
sed -n '/^Package:/,$p' "$P/DEBIAN/control" > "$W/control" && mv "$W/control" "$P/DEBIAN/control"
(cd "$P" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$P/DEBIAN/md5sums"

# --- Build ----------------------------------------------------------------------------------------------
find "$P" -type d -exec chmod 0755 {} +
mkdir -p "$OUT"
deb=$(cd "$OUT" && pwd)/aubade_${debversion}_$arch.deb
dpkg-deb --root-owner-group "${compress[@]}" --build "$P" "$deb" >/dev/null

# --- The native face: its own package ---------------------------------------------------------------------
# aubade-face_<version>_<arch>.deb, when aubade-face is built beside the binary. Its own package, not the clock's:
# the face links SDL2 (and through it Mesa, libdrm, fonts): a headless clock installs none of it.
FACE=$(dirname "$BIN")/aubade-face
if [ -x "$FACE" ]; then
  F=$W/debian/aubade-face
  mkdir -p "$F/DEBIAN"
  install -D -m 0755 "$FACE" "$F/usr/bin/aubade-face"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$F/usr/bin/aubade-face"
  fix_runpath "$F/usr/bin/aubade-face" "$FACE"
  install -D -m 0644 "$REPO/deploy/kiosk/aubade-face.service" "$F/lib/systemd/system/aubade-face.service"
  grep -q '^ExecStart=/usr/lib/aubade/kiosk/aubade-kiosk --face native$' "$F/lib/systemd/system/aubade-face.service" ||
    die "deploy/kiosk/aubade-face.service no longer runs the launcher the aubade package installs with --face native."
  install -d "$F/usr/share/man/man1"
  sed "1s/\"\"/\"$date\"/" "$HERE/debian/aubade-face.1" | gzip -9n > "$F/usr/share/man/man1/aubade-face.1.gz"
  FD=$F/usr/share/doc/aubade-face
  install -D -m 0644 "$HERE/debian/aubade-face.copyright" "$FD/copyright"
  install -D -m 0644 "$HERE/debian/aubade-face.lintian-overrides" "$F/usr/share/lintian/overrides/aubade-face"
  {
    echo "aubade ($debversion) unstable; urgency=medium"
    echo
    echo "  * Built from $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo 'a source tree') by deploy/make-deb.sh."
    echo
    echo " -- $(sed -n 's/^Maintainer: //p' "$HERE/debian/control.in" | head -1)  $(date -u -R -d "$date")"
  } | gzip -9n > "$FD/changelog.Debian.gz"
  for script in postinst prerm postrm; do install -m 0755 "$HERE/debian/aubade-face.$script" "$F/DEBIAN/$script"; done
  cp "$HERE/debian/control-face.in" "$W/debian/control"
  (cd "$W" && dpkg-shlibdeps "${shlibdeps_args[@]}" -O -e"$F/usr/bin/aubade-face" 2> "$W/shlibdeps-face.err") > "$W/substvars-face" ||
    { cat "$W/shlibdeps-face.err" >&2; die "dpkg-shlibdeps failed on $FACE."; }
  grep -v 'binaries to analyze should already be installed' "$W/shlibdeps-face.err" |
    { if $test_build; then grep -Ev "library name 'lib(swift|Foundation|dispatch|BlocksRuntime|_Foundation)|linked against lib(swift|Foundation|dispatch|BlocksRuntime|_Foundation)"; else cat; fi; } >&2 || true
  face_shlibs=$(sed -n 's/^shlibs:Depends=//p' "$W/substvars-face")
  [ -n "$face_shlibs" ] || die "dpkg-shlibdeps found no libraries in $FACE."
  if readelf -VW "$FACE" | grep 'Name: GLIBC_ABI_DT_RELR' >/dev/null; then
    face_shlibs=$(echo "$face_shlibs" | sed -E 's/libc6 \(>= 2\.(2[0-9]|3[0-5])[^)]*\)/libc6 (>= 2.36)/')
  fi
  face_depends="$face_shlibs, fonts-dejavu-core, aubade (= $debversion), adduser"
  face_size=$(du -sk --exclude=DEBIAN "$F" | cut -f1)
  sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$face_depends/" \
      -e "s/@INSTALLED_SIZE@/$face_size/" "$HERE/debian/control-face.in" | sed -n '/^Package:/,$p' > "$F/DEBIAN/control"
  (cd "$F" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$F/DEBIAN/md5sums"
  find "$F" -type d -exec chmod 0755 {} +
  face_deb=$(cd "$OUT" && pwd)/aubade-face_${debversion}_$arch.deb
  dpkg-deb --root-owner-group "${compress[@]}" --build "$F" "$face_deb" >/dev/null
  echo "make-deb: $(basename "$face_deb"): $(du -h "$face_deb" | cut -f1), installed $face_size KiB; Depends: $face_depends" >&2
  echo "$face_deb"
else
  echo "make-deb: aubade-face left out: it is not built beside $BIN." >&2
fi
echo "make-deb: $(basename "$deb"): $(du -h "$deb" | cut -f1), installed $installed_size KiB; Depends: $shlibs, adduser" >&2
echo "$deb"
