#!/usr/bin/env bash
# The package checks of `make test` (one line of its recipe), on the binary the suite already built — never a
# second, release build (`make deb` does that one):
#   1. deploy/make-deb.sh --test packages it into WORKDIR (the debug build links the toolchain's Swift runtime,
#      which --test leaves out of Depends:);
#   2. lintian reports no error (its warnings and notes are printed);
#   3. the package's file list is Tests/Deploy/package-files.txt (plus the second waker's program, unit and man
#      page), no resource bundle (the pages are compiled in), every file root-owned with the expected mode; conffiles; the maintainer scripts; Depends: names the
#      libraries the binary links (as dpkg-shlibdeps found them) and adduser; the man page renders without
#      a groff warning; the bash completion parses; the example configs are clean;
#   3b. the native face's package, aubade-face (made beside it when aubade-face is built, as the suite builds it):
#      lintian, its file list (Tests/Deploy/face-package-files.txt), Depends: (its libraries, the font, aubade of
#      the same version, adduser), its maintainer scripts, its man page, its unit (the launcher with --face native,
#      OOMScoreAdjust=500, ordered after the clock and bound to nothing of it);
#   4. the unit's sandbox: `systemd-analyze security --offline` exposure at most 2.0;
#   5. deploy/install.sh into a scratch root (--destdir): what it installs, a second run that changes nothing,
#      a user's config kept (the new one beside it as .dist), --uninstall removing all but the config;
#   6. the kiosk launcher's choice of face (deploy/kiosk/aubade-kiosk --dry-run, on a faked /proc/meminfo and PATH):
#      the native face under 1 GiB or without Chromium, Chromium when asked or on a larger board, the exact command
#      line of each; then the native face really started by it, with its arguments, and started again after it exits.
# Usage: Tests/Deploy/run.sh AUBADE_BINARY [WORKDIR]   (default WORKDIR: .build/deploy-test)
# Prints PASS/FAIL lines; the exit code is the number of failures.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BIN=${1:?usage: Tests/Deploy/run.sh AUBADE_BINARY [WORKDIR]}
W=${2:-$REPO/.build/deploy-test}
FAILS=0
pass() { echo "PASS deploy: $*"; }
fail() { echo "FAIL deploy: $*"; FAILS=$((FAILS + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
rm -rf "$W" && mkdir -p "$W"
# Whatever runs here announces itself (and looks for a running clock) in a folder of its own, never the user's.
export AUBADE_RUNTIME_DIR="$W/run"

# --- 1. The package -------------------------------------------------------------------------------------
start=$(date +%s)
if ! "$REPO/deploy/make-deb.sh" --test --fast "$BIN" "$W/deb" > "$W/make-deb.out" 2> "$W/make-deb.log" ||
   ! deb=$(tail -1 "$W/make-deb.out") || [ ! -f "$deb" ]; then
  cat "$W/make-deb.log"
  fail "deploy/make-deb.sh --test $BIN failed"
  exit "$FAILS"
fi
pass "make-deb.sh --test packaged $(basename "$deb") ($(du -h "$deb" | cut -f1), $(($(date +%s) - start)) s): $(grep -v '^make-deb: --test' "$W/make-deb.log" | tail -1)"

# --- 2. lintian -----------------------------------------------------------------------------------------
start=$(date +%s)
lintian --tag-display-limit 0 --display-info "$deb" > "$W/lintian.txt" 2>&1
sed 's/^/  lintian: /' "$W/lintian.txt"
check "lintian: no error ($(grep -c '^E:' "$W/lintian.txt") E, $(grep -c '^W:' "$W/lintian.txt") W, $(grep -c '^I:' "$W/lintian.txt") I; $(($(date +%s) - start)) s)" \
  eval '! grep -q "^E:" "$W/lintian.txt"'

# --- 3. What is in it -----------------------------------------------------------------------------------
dpkg-deb -c "$deb" > "$W/contents.txt"
# "mode owner path" per entry, directories without their trailing slash, links with their target.
awk '{ p = $6; sub(/^\.\//, "/", p); sub(/\/$/, "", p); if (p == "") next;
       print $1, $2, p ($7 == "->" ? " -> " $8 : "") }' "$W/contents.txt" > "$W/entries.txt"
awk '{ $2 = ""; print }' "$W/entries.txt" | sed 's/  / /' | sort > "$W/files.txt"
# Plus each extra unit packaged beside the clock's (deploy/*.service whose program is built beside the binary:
# the second waker), as make-deb.sh adds them.
extras=$(for unit in "$REPO"/deploy/*.service; do
  [ "$(basename "$unit")" = aubade.service ] && continue
  exe=$(sed -n 's#^ExecStart=[-@+!]*/usr/\(local/\)\{0,1\}bin/\([^ ]*\).*#\2#p' "$unit" | head -1)
  [ -n "$exe" ] && [ -x "$(dirname "$BIN")/$exe" ] && echo "$(basename "$unit") $exe"
done)
{ grep -v '^#' "$HERE/package-files.txt" | sed '/^$/d'
  while read -r name exe; do
    [ -n "$name" ] && printf -- '-rwxr-xr-x /usr/bin/%s\n-rw-r--r-- /lib/systemd/system/%s\n-rw-r--r-- /usr/share/man/man1/%s.1.gz\n' "$exe" "$name" "$exe"
  done <<< "$extras"; } | sort > "$W/expected.txt"
if diff -u "$W/expected.txt" "$W/files.txt" > "$W/files.diff"; then
  pass "the file list is Tests/Deploy/package-files.txt$( [ -n "$extras" ] && echo " plus $(echo "$extras" | cut -d' ' -f1 | tr '\n' ' ')") ($(wc -l < "$W/files.txt") entries, modes included)"
else
  sed 's/^/  /' "$W/files.diff"
  fail "the file list differs from Tests/Deploy/package-files.txt (- expected, + packaged)"
fi
check "the binary looks for no resource bundle beside itself (its pages are compiled in)" \
  eval '! grep -aqE "Aubade_[A-Za-z0-9]+\.resources" "$BIN"'
check "every entry belongs to root/root" eval '! awk "\$2 != \"root/root\"" "$W/entries.txt" | grep -q .'

dpkg-deb -e "$deb" "$W/control"
check "conffiles: /etc/aubade/aubade.toml ($(tr '\n' ' ' < "$W/control/conffiles"))" [ "$(cat "$W/control/conffiles")" = /etc/aubade/aubade.toml ]
check "postinst, prerm, postrm are executable shell scripts that parse" \
  eval 'for s in postinst prerm postrm; do [ -x "$W/control/$s" ] && sh -n "$W/control/$s" || exit 1; done'
depends=$(dpkg-deb -f "$deb" Depends)
needed=$(readelf -d "$BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^libswift\|^libFoundation\|^libdispatch\|^lib_Foundation\|^libBlocksRuntime\|^libicu' | tr '\n' ' ')
missing=""
for lib in $needed; do
  pkg=$(dpkg -S "$(ldconfig -p | awk -v l="$lib" '$1 == l && f == "" { f = $NF } END { print f }')" 2>/dev/null | cut -d: -f1 | head -1)
  [ -z "$pkg" ] && continue
  [[ ",$depends," == *", $pkg "* || ",$depends," == *",$pkg "* || ",$depends," == *", $pkg,"* || "$depends" == "$pkg "* ]] || missing+=" $lib($pkg)"
done
check "Depends: names the package of every library the binary links, and adduser: $depends" \
  eval '[ -z "$missing" ] && [[ "$depends" == *adduser* ]] || { echo "  not in Depends:$missing"; false; }'
# FFmpeg's libraries are opened with dlopen (AAC, Ogg, FLAC, HLS), not linked: Depends must name them all the same.
check "Depends: names FFmpeg's libraries, which the binary opens when a stream needs them, not at start" \
  eval '! readelf -d "$BIN" | grep -qE "NEEDED.*lib(avcodec|avformat|swresample)" && for p in libavformat59 libavcodec59 libswresample4 libavutil57; do [[ "$depends" == *"$p ("* ]] || { echo "  not in Depends: $p"; exit 1; }; done'
mkdir -p "$W/root" && dpkg-deb -x "$deb" "$W/root"
LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -E UTF-8 -l "$W/root/usr/share/man/man1/aubade.1.gz" > "$W/man.txt" 2> "$W/man.err"
check "the man page renders without a warning ($(wc -l < "$W/man.txt") lines; $(head -c 200 "$W/man.err"))" \
  eval '[ -s "$W/man.txt" ] && [ ! -s "$W/man.err" ] && grep -q "aubade alarm add" "$W/man.txt"'
while read -r name exe; do
  [ -n "$name" ] || continue
  LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -E UTF-8 -l "$W/root/usr/share/man/man1/$exe.1.gz" > "$W/man-$exe.txt" 2> "$W/man-$exe.err"
  check "the man page of $exe renders without a warning ($(wc -l < "$W/man-$exe.txt") lines; $(head -c 200 "$W/man-$exe.err"))" \
    eval '[ -s "$W/man-$exe.txt" ] && [ ! -s "$W/man-$exe.err" ] && grep -q -- "--grace" "$W/man-$exe.txt"'
done <<< "$extras"
check "the bash completion parses and completes aubade's commands" \
  eval 'bash -n "$W/root/usr/share/bash-completion/completions/aubade" && grep -q doctor "$W/root/usr/share/bash-completion/completions/aubade"'

for f in "$REPO"/config/examples/*.toml; do
  check "the example config $(basename "$f") is clean: aubade run --check-config says $("$BIN" run --check-config --config "$f" 2>&1 | head -c 300)" \
    eval '"$BIN" run --check-config --config "$f" > /dev/null 2>&1'
done

# --- 3b. The native face's package ----------------------------------------------------------------------
FACE=$(dirname "$BIN")/aubade-face
face_deb=$(grep '/aubade-face_[^/]*\.deb$' "$W/make-deb.out")
if [ ! -x "$FACE" ]; then
  fail "aubade-face is not built beside $BIN (swift build builds every product): its package is not checked"
elif [ ! -f "$face_deb" ]; then
  fail "make-deb.sh made no aubade-face package beside $(basename "$deb") ($(grep aubade-face "$W/make-deb.log"))"
else
  pass "make-deb.sh packaged $(basename "$face_deb") ($(du -h "$face_deb" | cut -f1))"
  lintian --tag-display-limit 0 --display-info "$face_deb" > "$W/lintian-face.txt" 2>&1
  sed 's/^/  lintian: /' "$W/lintian-face.txt"
  check "lintian on aubade-face: no error ($(grep -c '^E:' "$W/lintian-face.txt") E, $(grep -c '^W:' "$W/lintian-face.txt") W, $(grep -c '^I:' "$W/lintian-face.txt") I)" \
    eval '! grep -q "^E:" "$W/lintian-face.txt"'
  dpkg-deb -c "$face_deb" | awk '{ p = $6; sub(/^\.\//, "/", p); sub(/\/$/, "", p); if (p == "") next;
       print $1, $2, p ($7 == "->" ? " -> " $8 : "") }' > "$W/face-entries.txt"
  awk '{ $2 = ""; print }' "$W/face-entries.txt" | sed 's/  / /' | sort > "$W/face-files.txt"
  grep -v '^#' "$HERE/face-package-files.txt" | sed '/^$/d' | sort > "$W/face-expected.txt"
  if diff -u "$W/face-expected.txt" "$W/face-files.txt" > "$W/face-files.diff"; then
    pass "the face's file list is Tests/Deploy/face-package-files.txt ($(wc -l < "$W/face-files.txt") entries, modes included), every entry root/root: $(awk '$2 != "root/root"' "$W/face-entries.txt" | wc -l) others"
    [ -z "$(awk '$2 != "root/root"' "$W/face-entries.txt")" ] || fail "an entry of aubade-face is not root/root"
  else
    sed 's/^/  /' "$W/face-files.diff"
    fail "the face's file list differs from Tests/Deploy/face-package-files.txt (- expected, + packaged)"
  fi
  face_depends=$(dpkg-deb -f "$face_deb" Depends)
  missing=""
  for lib in $(readelf -d "$FACE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    pkg=$(dpkg -S "$(ldconfig -p | awk -v l="$lib" '$1 == l && f == "" { f = $NF } END { print f }')" 2>/dev/null | cut -d: -f1 | head -1)
    [ -z "$pkg" ] && continue
    [[ "$face_depends" == *"$pkg ("* || "$face_depends" == *"$pkg,"* ]] || missing+=" $lib($pkg)"
  done
  version=$(dpkg-deb -f "$deb" Version)
  check "the face's Depends: names the package of every library it links, fonts-dejavu-core, aubade (= $version) and adduser: $face_depends" \
    eval '[ -z "$missing" ] && [[ "$face_depends" == *"fonts-dejavu-core"* && "$face_depends" == *"aubade (= $version)"* && "$face_depends" == *adduser* ]] ||
          { echo "  not in Depends:$missing"; false; }'
  check "the clock's package does not depend on the face, nor on SDL (a headless clock installs neither)" \
    eval '[[ "$depends" != *aubade-face* && "$depends" != *sdl* ]]'
  dpkg-deb -e "$face_deb" "$W/face-control"
  check "the face's postinst, prerm, postrm are executable shell scripts that parse, and postinst makes the aubade-face user" \
    eval 'for s in postinst prerm postrm; do [ -x "$W/face-control/$s" ] && sh -n "$W/face-control/$s" || exit 1; done &&
          grep -q "adduser --system .*aubade-face" "$W/face-control/postinst"'
  check "the face's unit is not enabled on install (a desktop's compositor holds the screen)" \
    eval '! grep -q "deb-systemd-helper enable" "$W/face-control/postinst"'
  mkdir -p "$W/face-root" && dpkg-deb -x "$face_deb" "$W/face-root"
  LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -E UTF-8 -l "$W/face-root/usr/share/man/man1/aubade-face.1.gz" > "$W/man-face.txt" 2> "$W/man-face.err"
  check "the man page of aubade-face renders without a warning ($(wc -l < "$W/man-face.txt") lines; $(head -c 200 "$W/man-face.err"))" \
    eval '[ -s "$W/man-face.txt" ] && [ ! -s "$W/man-face.err" ] && grep -q -- "--token-file" "$W/man-face.txt"'
  U=$W/face-root/lib/systemd/system/aubade-face.service
  check "its unit runs the packaged launcher with the native face, as aubade-face with the video, input and render groups" \
    eval 'grep -qx "ExecStart=/usr/lib/aubade/kiosk/aubade-kiosk --face native" "$U" && [ -x "$W/root/usr/lib/aubade/kiosk/aubade-kiosk" ] &&
          grep -qx "User=aubade-face" "$U" && grep -qx "SupplementaryGroups=video input render" "$U"'
  check "the kernel picks the face, never the clock: OOMScoreAdjust=500, Restart=always" \
    eval 'grep -qx "OOMScoreAdjust=500" "$U" && grep -qx "Restart=always" "$U"'
  check "nothing in it can stop or delay the clock: After=aubade.service only, no Requires=, Wants=, BindsTo=, PartOf=, Before=" \
    eval 'grep -q "^After=.*aubade\.service" "$U" && ! grep -Eq "^(Requires|Requisite|Wants|BindsTo|PartOf|Before|Conflicts)=" "$U"'
  systemd-analyze security --offline=true --no-pager "$U" > "$W/security-face.txt" 2>&1
  pass "the face's unit: systemd-analyze security --offline exposure $(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p' "$W/security-face.txt") (not gated: KMS/DRM, Mesa and evdev want their devices open)"
fi

# --- 4. The unit's sandbox ------------------------------------------------------------------------------
systemd-analyze security --offline=true --no-pager "$W/root/lib/systemd/system/aubade.service" > "$W/security.txt" 2>&1
exposure=$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p' "$W/security.txt")
check "systemd-analyze security --offline: exposure $exposure, at most 2.0 ($(grep -c '✗' "$W/security.txt") items open)" \
  awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 2.0) }'

# --- 5. install.sh into a scratch root ------------------------------------------------------------------
R=$W/scratch-root
"$REPO/deploy/install.sh" --binary "$BIN" --destdir "$R" > "$W/install-1.txt" 2>&1
rc=$?
sed 's/^/  /' "$W/install-1.txt"
(cd "$R" && find . \( -type f -o -type l \) | sed 's#^\.##' | sort) > "$W/installed.txt"
cat > "$W/installed-expected.txt" <<EOF
/etc/aubade/aubade.toml
/etc/systemd/system/aubade.service
/etc/systemd/user/aubade-kiosk.service
/etc/udev/rules.d/60-aubade.rules
/etc/udev/rules.d/99-aubade-backlight.rules
/usr/local/bin/aubade
/usr/local/lib/aubade/kiosk/aubade-kiosk
/usr/local/share/bash-completion/completions/aubade
/usr/local/share/man/man1/aubade.1
EOF
while read -r name exe; do
  [ -n "$name" ] && printf '/usr/local/bin/%s\n/etc/systemd/system/%s\n/usr/local/share/man/man1/%s.1\n' "$exe" "$name" "$exe" >> "$W/installed-expected.txt"
done <<< "$extras"
# The native face, built beside the binary, as its package has it.
[ -x "$(dirname "$BIN")/aubade-face" ] &&
  printf '/usr/local/bin/aubade-face\n/etc/systemd/system/aubade-face.service\n/usr/local/share/man/man1/aubade-face.1\n' >> "$W/installed-expected.txt"
sort -o "$W/installed-expected.txt" "$W/installed-expected.txt"
check "install.sh --destdir installs (exit $rc) the files the package has, under /usr/local" \
  eval '[ $rc = 0 ] && diff -u "$W/installed-expected.txt" "$W/installed.txt"'
check "its unit starts /usr/local/bin/aubade, which runs" \
  eval 'grep -q "^ExecStart=/usr/local/bin/aubade run " "$R/etc/systemd/system/aubade.service" && "$R/usr/local/bin/aubade" --version > /dev/null'
[ -x "$(dirname "$BIN")/aubade-face" ] &&
  check "the face's unit runs the launcher installed under /usr/local" \
    eval 'grep -qx "ExecStart=/usr/local/lib/aubade/kiosk/aubade-kiosk --face native" "$R/etc/systemd/system/aubade-face.service"'
"$REPO/deploy/install.sh" --binary "$BIN" --destdir "$R" > "$W/install-2.txt" 2>&1
rc=$?
check "a second run changes nothing and says so ($(grep -c '^install: unchanged' "$W/install-2.txt") unchanged)" \
  eval '[ $rc = 0 ] && ! grep -E "^install: (installed|updated)" "$W/install-2.txt"'
echo '# my own setting' >> "$R/etc/aubade/aubade.toml"
"$REPO/deploy/install.sh" --binary "$BIN" --destdir "$R" > "$W/install-3.txt" 2>&1
check "an edited config is kept, the shipped one put beside it as aubade.toml.dist" \
  eval 'grep -q "my own setting" "$R/etc/aubade/aubade.toml" && cmp -s "$REPO/config/aubade.toml" "$R/etc/aubade/aubade.toml.dist" &&
        grep -q "^install: kept /etc/aubade/aubade.toml" "$W/install-3.txt"'
"$REPO/deploy/install.sh" --uninstall --destdir "$R" > "$W/uninstall.txt" 2>&1
sed 's/^/  /' "$W/uninstall.txt"
(cd "$R" && find . \( -type f -o -type l \) | sed 's#^\.##' | sort) > "$W/left.txt"
check "--uninstall removes everything but the config ($(tr '\n' ' ' < "$W/left.txt"))" \
  eval '[ "$(cat "$W/left.txt")" = "$(printf "/etc/aubade/aubade.toml\n/etc/aubade/aubade.toml.dist")" ]'

# --- 6. The kiosk launcher picks the face ---------------------------------------------------------------
K=$W/kiosk
mkdir -p "$K/bin" "$K/run"
LAUNCHER=$REPO/deploy/kiosk/aubade-kiosk
# Stand-ins on PATH: the two faces, and curl (the clock "answers" at once).
printf '#!/bin/sh\nexit 0\n' > "$K/bin/chromium"
printf '#!/bin/sh\necho "$*" >> "%s/face-runs"\nexit 3\n' "$K" > "$K/bin/aubade-face"
printf '#!/bin/sh\nexit 0\n' > "$K/bin/curl"
chmod +x "$K/bin/"*
printf 'MemTotal:         438072 kB\nMemFree:          100000 kB\n' > "$K/meminfo-512"   # a Pi Zero 2 W
printf 'MemTotal:        3882300 kB\nMemFree:         100000 kB\n' > "$K/meminfo-4g"    # a Pi 4 with 4 GB
printf 'AUBADE_KIOSK_FACE=native\nAUBADE_KIOSK_SIZE=480x320\n' > "$K/defaults-native"
# kiosk MEMINFO PATHDIR [VAR=value ...] -- [ARGS]: the launcher's --dry-run in an empty environment; stdout is the
# command it would run, stderr its choice.
kiosk() {
  local meminfo=$1 bin=$2; shift 2
  local vars=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  shift
  env -i PATH="$bin:/usr/bin:/bin" HOME="$K" XDG_RUNTIME_DIR="$K/run" AUBADE_MEMINFO="$K/$meminfo" \
    AUBADE_KIOSK_DEFAULTS=/nonexistent "${vars[@]}" sh "$LAUNCHER" --dry-run "$@" 2> "$K/said"
}
chromium_line() {  # chromium_line BROWSER WINDOW...: the launcher's Chromium command, as it has always been
  echo "$1 --user-data-dir=$K/run/aubade-kiosk.XXXXXX --no-first-run --noerrdialogs --disable-infobars --disable-session-crashed-bubble --disable-features=Translate --password-store=basic --check-for-update-interval=31536000 --ozone-platform-hint=auto ${*:2}"
}
expect_run() {  # expect_run WHAT EXPECTED MEMINFO PATHDIR [VAR=value ...] -- [ARGS]
  local what=$1 expected=$2; shift 2
  local got
  got=$(kiosk "$@")
  check "launcher: $what: $got ($(sed 's/^aubade-kiosk: //' "$K/said" | tr '\n' ' '))" [ "$got" = "$expected" ]
}
face_cmd="$K/bin/aubade-face --port 8080 --token-file $K/run/aubade-face/token"
expect_run "438 MB (Pi Zero 2 W), both faces installed, auto: the native face" "$face_cmd" meminfo-512 "$K/bin" --
expect_run "438 MB, AUBADE_KIOSK_FACE=chromium: Chromium under cage (no session)" \
  "cage -- $LAUNCHER --face chromium http://127.0.0.1:8080/kiosk" meminfo-512 "$K/bin" AUBADE_KIOSK_FACE=chromium --
expect_run "4 GB, auto: Chromium under cage, as before (no session)" \
  "cage -- $LAUNCHER --face chromium http://127.0.0.1:8080/kiosk" meminfo-4g "$K/bin" --
expect_run "4 GB, auto, in a Wayland session: Chromium's kiosk window, its flags unchanged" \
  "$(chromium_line "$K/bin/chromium" --kiosk http://127.0.0.1:8080/kiosk)" meminfo-4g "$K/bin" WAYLAND_DISPLAY=wayland-0 --
expect_run "inside cage (--face chromium): Chromium maximised as an app window, whatever the memory" \
  "$(chromium_line "$K/bin/chromium" --start-maximized --app=http://127.0.0.1:8080/kiosk)" meminfo-512 "$K/bin" \
  WAYLAND_DISPLAY=wayland-0 AUBADE_KIOSK_IN_CAGE=1 -- --face chromium
expect_run "4 GB without Chromium, auto: the native face" "$face_cmd" meminfo-4g "$K/bin" AUBADE_KIOSK_BROWSER="$K/none/chromium" --
expect_run "4 GB, --face native in a Wayland session (a window), the port from the URL, the size and font given" \
  "$K/bin/aubade-face --port 9090 --token-file $K/run/aubade-face/token --size 800x480 --font '/usr/share/fonts/my font.ttf'" \
  meminfo-4g "$K/bin" WAYLAND_DISPLAY=wayland-0 AUBADE_KIOSK_SIZE=800x480 "AUBADE_KIOSK_FONT=/usr/share/fonts/my font.ttf" \
  -- --face native http://127.0.0.1:9090/kiosk
expect_run "under aubade-face.service: the token in its StateDirectory, the face's settings from the defaults file" \
  "$K/bin/aubade-face --port 8080 --token-file /var/lib/aubade-face/token --size 480x320" meminfo-4g "$K/bin" \
  STATE_DIRECTORY=/var/lib/aubade-face AUBADE_KIOSK_DEFAULTS="$K/defaults-native" --
expect_run "438 MB, the native face not installed: Chromium, as before, with a word about the native face" \
  "cage -- $LAUNCHER --face chromium http://127.0.0.1:8080/kiosk" meminfo-512 "$K/bin" AUBADE_KIOSK_FACE_BIN=/nonexistent/aubade-face --
check "launcher: ... and says the native face would take less" grep -q "sudo apt install aubade-face" "$K/said"
expect_run "438 MB, a clock on another machine: Chromium (the native face shows this machine's clock only)" \
  "cage -- $LAUNCHER --face chromium http://192.168.1.20:8080/kiosk" meminfo-512 "$K/bin" -- http://192.168.1.20:8080/kiosk
kiosk meminfo-512 "$K/bin" AUBADE_KIOSK_FACE=sometimes -- > /dev/null
rc=$?
check "launcher: AUBADE_KIOSK_FACE=sometimes is refused (exit $rc: $(cat "$K/said"))" [ $rc = 2 ]
# The native face started for real: the clock answers (curl's stand-in), the face runs with the command line above,
# exits, and is started again 5 s later.
env -i PATH="$K/bin:/usr/bin:/bin" HOME="$K" XDG_RUNTIME_DIR="$K/run" AUBADE_MEMINFO="$K/meminfo-512" \
  AUBADE_KIOSK_DEFAULTS=/nonexistent setsid sh "$LAUNCHER" > "$K/launcher.log" 2>&1 &
launcher=$!
for _ in $(seq 1 90); do [ -f "$K/face-runs" ] && [ "$(grep -c . "$K/face-runs")" -ge 2 ] && break; sleep 0.1; done
kill -- -"$launcher" 2>/dev/null || kill "$launcher" 2>/dev/null
wait "$launcher" 2>/dev/null
check "launcher: the native face ran with '$(head -1 "$K/face-runs" 2>/dev/null)' and again after it exited ($(grep -c . "$K/face-runs" 2>/dev/null) runs; $(tr '\n' ' ' < "$K/launcher.log"))" \
  eval '[ "$(sed -n 1p "$K/face-runs")" = "--port 8080 --token-file $K/run/aubade-face/token" ] && [ "$(grep -c . "$K/face-runs")" -ge 2 ] && [ -d "$K/run/aubade-face" ]'

echo "deploy: $FAILS failure(s)"
exit "$FAILS"
