#!/usr/bin/env bash
# Installs the clock built from source the way the Debian package does (see deploy/make-deb.sh), for people
# who build it themselves — or removes it again. Idempotent: a second run changes nothing and says so; every
# step prints what it did.
#
# Usage: deploy/install.sh [--binary PATH] [--prefix DIR] [--destdir DIR] [--no-start]
#        deploy/install.sh --uninstall [--purge] [--prefix DIR] [--destdir DIR]
#   --binary PATH  the aubade executable (default .build/release/aubade: make release, or make install)
#   --prefix DIR   where the program goes (default /usr/local): DIR/bin/aubade (its pages are compiled in),
#                  the man page, bash completion and the kiosk script (DIR/lib/aubade/kiosk)
#   --destdir DIR  stage everything under DIR (also $DESTDIR), for packaging or a test: nothing outside DIR is
#                  touched — no user, no udev, no systemctl
#   --no-start     install and enable the unit, but do not (re)start it
#   --uninstall    stop and disable the unit and remove what was installed; the config (/etc/aubade) and the
#                  alarms (/var/lib/aubade) are kept, and so is the aubade user
#   --purge        with --uninstall: also delete /etc/aubade and /var/lib/aubade
#
# What it installs: the unit as /etc/systemd/system/aubade.service (ExecStart names PREFIX/bin/aubade), the
# config /etc/aubade/aubade.toml only when there is none (an existing one is kept; when the shipped one
# differs it is put beside as aubade.toml.dist), the udev rules in /etc/udev/rules.d, the kiosk's user unit
# in /etc/systemd/user, and any other unit in deploy/ with its program built beside the binary (the second waker:
# PREFIX/bin/aubade-waker, /etc/systemd/system/aubade-waker.service), and the native face when it is built beside
# the binary (PREFIX/bin/aubade-face, its man page, /etc/systemd/system/aubade-face.service: installed, not enabled,
# as the aubade-face package does, with its `aubade-face` system user); then the `aubade` system user (groups audio, gpio, i2c, input, video; the gpio and i2c
# groups are made when missing), /var/lib/aubade, and the unit enabled and started — restarted when the
# binary or the unit changed. Needs root (uses sudo when not root) unless --destdir is given.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
die() { echo "install: $*" >&2; exit 1; }
say() { echo "install: $*"; }

BIN=$REPO/.build/release/aubade PREFIX=/usr/local DEST=${DESTDIR:-} start=true uninstall=false purge=false
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || die "--binary needs a path."; BIN=$2; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a folder."; PREFIX=$2; shift ;;
    --destdir) [ $# -ge 2 ] || die "--destdir needs a folder."; DEST=$2; shift ;;
    --no-start) start=false ;;
    --uninstall) uninstall=true ;;
    --purge) purge=true ;;
    *) die "unknown option $1 (see the usage at the top of $0)." ;;
  esac
  shift
done
[[ "$PREFIX" = /* ]] || die "--prefix must be an absolute path ('$PREFIX')."
if [ -n "$DEST" ]; then
  mkdir -p "$DEST" && DEST=$(cd "$DEST" && pwd)
elif [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "run as root (or with --destdir): it installs into $PREFIX and /etc."
  exec sudo "$0" "${args[@]}"
fi
$purge && ! $uninstall && die "--purge goes with --uninstall."

LIB=$PREFIX/lib/aubade
UNIT=/etc/systemd/system/aubade.service
KIOSK_UNIT=/etc/systemd/user/aubade-kiosk.service
FACE_UNIT=/etc/systemd/system/aubade-face.service
FACE_MAN=$PREFIX/share/man/man1/aubade-face.1
CONFIG=/etc/aubade/aubade.toml
RULES=(/etc/udev/rules.d/60-aubade.rules /etc/udev/rules.d/99-aubade-backlight.rules)
MAN=$PREFIX/share/man/man1/aubade.1
COMPLETION=$PREFIX/share/bash-completion/completions/aubade
changed=false   # the binary or the unit changed: a running clock is restarted
live() { [ -z "$DEST" ]; }
systemd_up() { live && [ -d /run/systemd/system ]; }
# Extra units beside the clock's, as make-deb.sh packages them: each deploy/*.service but aubade.service, with the
# program its ExecStart names (the second waker of issue 16: aubade-waker.service running aubade-waker).
# Prints "UNIT PROGRAM" per line.
extra_units() {
  local unit exe
  for unit in "$REPO"/deploy/*.service; do
    [ "$(basename "$unit")" = aubade.service ] && continue
    exe=$(sed -n 's#^ExecStart=[-@+!]*/usr/\(local/\)\{0,1\}bin/\([^ ]*\).*#\2#p' "$unit" | head -1)
    [ -n "$exe" ] && echo "$(basename "$unit") $exe"
  done
}
units=(aubade.service)

# put SOURCE TARGET MODE: installs SOURCE as DEST/TARGET unless it is already the same; says which.
put() {
  local src=$1 target=$DEST$2 mode=$3
  if [ -f "$target" ] && cmp -s "$src" "$target"; then
    chmod "$mode" "$target"
    say "unchanged $2"
    return 1
  fi
  local verb=installed; [ -e "$target" ] && verb=updated
  install -D -m "$mode" "$src" "$target"
  say "$verb $2"
}
remove() {
  local target=$DEST$1
  if [ -e "$target" ] || [ -L "$target" ]; then rm -rf "$target"; say "removed $1"; fi
}

if $uninstall; then
  while read -r name exe; do units+=("$name"); done < <(extra_units)
  if systemd_up; then
    for u in "${units[@]}" aubade-face.service; do
      systemctl disable --now "$u" >/dev/null 2>&1 && say "stopped and disabled $u" || true
    done
  fi
  while read -r name exe; do
    remove "/etc/systemd/system/$name"; remove "$PREFIX/bin/$exe"; remove "$PREFIX/share/man/man1/$exe.1"
  done < <(extra_units)
  remove "$FACE_UNIT"; remove "$PREFIX/bin/aubade-face"; remove "$FACE_MAN"
  remove "$UNIT"
  remove "$KIOSK_UNIT"
  for r in "${RULES[@]}"; do remove "$r"; done
  remove "$PREFIX/bin/aubade"
  remove "$LIB"
  remove "$MAN"
  remove "$COMPLETION"
  if systemd_up; then systemctl daemon-reload && say "reloaded systemd"; fi
  if live && command -v udevadm >/dev/null && [ -d /run/udev ]; then udevadm control --reload-rules || true; fi
  if $purge; then
    remove /etc/aubade
    remove /var/lib/aubade
  else
    [ -e "$DEST$CONFIG" ] && say "kept $CONFIG (--purge deletes it)"
    [ -e "$DEST/var/lib/aubade" ] && say "kept /var/lib/aubade with the alarms (--purge deletes it)"
  fi
  live && getent passwd aubade >/dev/null && say "kept the aubade user (userdel aubade removes it)"
  live && getent passwd aubade-face >/dev/null && say "kept the aubade-face user (userdel aubade-face removes it)"
  exit 0
fi

[ -x "$BIN" ] || die "$BIN is not an executable; build it first (make release), or name it with --binary."
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# The program (its pages and OpenAPI document are compiled in). An earlier install linked it from
# PREFIX/lib/aubade: that link is replaced by the program itself.
[ -L "$DEST$PREFIX/bin/aubade" ] && rm -f "$DEST$PREFIX/bin/aubade" && remove "$LIB/aubade"
# Installed stripped, as the package installs it (deploy/make-deb.sh): the symbols and the debug information are
# most of a release binary's size and none of what it runs (no debugger on a clock; the build folder keeps them).
# install_copy PROGRAM NAME: prints the path of a stripped copy of PROGRAM in the scratch folder.
install_copy() {
  cp "$1" "$W/$2"
  if command -v strip >/dev/null; then strip --strip-unneeded --remove-section=.comment --remove-section=.note "$W/$2"; fi
  echo "$W/$2"
}
put "$(install_copy "$BIN" aubade.bin)" "$PREFIX/bin/aubade" 0755 && changed=true
"$BIN" --experimental-dump-help | python3 "$HERE/debian/manpage.py" "$("$BIN" --version)" "$(date -u +%Y-%m-%d)" > "$W/aubade.1"
# The man page's date changes daily: compare it without its first line.
if [ -f "$DEST$MAN" ] && cmp -s <(tail -n +2 "$W/aubade.1") <(tail -n +2 "$DEST$MAN"); then say "unchanged $MAN"; else put "$W/aubade.1" "$MAN" 0644 || true; fi
"$BIN" --generate-completion-script bash > "$W/completion"
put "$W/completion" "$COMPLETION" 0644 || true
put "$REPO/deploy/kiosk/aubade-kiosk" "$LIB/kiosk/aubade-kiosk" 0755 || true
sed "s#^ExecStart=/usr/lib/aubade/#ExecStart=$LIB/#" "$REPO/deploy/kiosk/aubade-kiosk.service" > "$W/kiosk.service"
put "$W/kiosk.service" "$KIOSK_UNIT" 0644 || true

# The unit, with ExecStart naming this prefix.
sed -e "s#^ExecStart=/usr/bin/aubade #ExecStart=$PREFIX/bin/aubade #" -e "s#^ExecStopPost=-/usr/bin/aubade #ExecStopPost=-$PREFIX/bin/aubade #" "$REPO/deploy/aubade.service" > "$W/aubade.service"
grep -q "^ExecStart=$PREFIX/bin/aubade " "$W/aubade.service" || die "deploy/aubade.service has no ExecStart=/usr/bin/aubade line to point at $PREFIX."
put "$W/aubade.service" "$UNIT" 0644 && changed=true
while read -r name exe; do
  if [ ! -x "$(dirname "$BIN")/$exe" ]; then say "left out $name: its program $exe is not built beside $BIN"; continue; fi
  put "$(install_copy "$(dirname "$BIN")/$exe" "$exe.bin")" "$PREFIX/bin/$exe" 0755 && changed=true
  [ -f "$HERE/debian/$exe.1" ] && { put "$HERE/debian/$exe.1" "$PREFIX/share/man/man1/$exe.1" 0644 || true; }
  sed "s#^\(ExecStart=[-@+!]*\)/usr/\(local/\)\{0,1\}bin/#\1$PREFIX/bin/#" "$REPO/deploy/$name" > "$W/$name"
  put "$W/$name" "/etc/systemd/system/$name" 0644 && changed=true
  units+=("$name")
done < <(extra_units)
for r in "${RULES[@]}"; do put "$REPO/deploy/$(basename "$r")" "$r" 0644 || true; done
# The native face (issue 38), as the aubade-face package has it: its unit runs the kiosk launcher installed above.
face=false face_changed=false
if [ -x "$(dirname "$BIN")/aubade-face" ]; then
  face=true
  put "$(install_copy "$(dirname "$BIN")/aubade-face" aubade-face.bin)" "$PREFIX/bin/aubade-face" 0755 && face_changed=true
  put "$HERE/debian/aubade-face.1" "$FACE_MAN" 0644 || true
  sed "s#^ExecStart=/usr/lib/aubade/#ExecStart=$LIB/#" "$REPO/deploy/kiosk/aubade-face.service" > "$W/aubade-face.service"
  grep -q "^ExecStart=$LIB/kiosk/aubade-kiosk " "$W/aubade-face.service" || die "deploy/kiosk/aubade-face.service no longer runs the kiosk launcher."
  put "$W/aubade-face.service" "$FACE_UNIT" 0644 && face_changed=true
else
  say "left out the native face: aubade-face is not built beside $BIN"
fi

# The config: a user's own is never overwritten.
if [ -e "$DEST$CONFIG" ]; then
  if cmp -s "$REPO/config/aubade.toml" "$DEST$CONFIG"; then
    say "unchanged $CONFIG"
  else
    say "kept $CONFIG (yours)"
    if ! cmp -s "$REPO/config/aubade.toml" "$DEST$CONFIG.dist" 2>/dev/null; then
      install -m 0644 "$REPO/config/aubade.toml" "$DEST$CONFIG.dist"
      say "installed $CONFIG.dist (this version's, to compare with yours)"
    fi
  fi
else
  install -D -m 0644 "$REPO/config/aubade.toml" "$DEST$CONFIG"
  say "installed $CONFIG"
fi

if ! live; then
  say "staged under $DEST: the aubade user, udev and systemd were left alone"
  exit 0
fi

# The user and its groups, the state folder.
for group in gpio i2c; do
  getent group "$group" >/dev/null || { groupadd --system "$group"; say "made the $group group"; }
done
if getent passwd aubade >/dev/null; then
  say "unchanged user aubade"
else
  useradd --system --user-group --home-dir /var/lib/aubade --no-create-home --shell /usr/sbin/nologin \
    --comment "Aubade radio alarm clock" aubade
  say "made the system user aubade"
fi
for group in audio gpio i2c input video; do
  if getent group "$group" >/dev/null && ! id -nG aubade | tr ' ' '\n' | grep -qx "$group"; then
    usermod -a -G "$group" aubade
    say "added aubade to the $group group"
  fi
done
if [ ! -d /var/lib/aubade ]; then
  install -d -o aubade -g aubade -m 0750 /var/lib/aubade
  say "made /var/lib/aubade"
fi
# The face's own user: the screen and touchscreen through its unit's groups, nothing of the clock's.
if $face && ! getent passwd aubade-face >/dev/null; then
  useradd --system --user-group --home-dir /var/lib/aubade-face --no-create-home --shell /usr/sbin/nologin \
    --comment "Aubade clock face" aubade-face
  say "made the system user aubade-face"
fi
if command -v udevadm >/dev/null && [ -d /run/udev ]; then
  udevadm control --reload-rules && udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev &&
    udevadm trigger --action=add --subsystem-match=backlight
  say "applied the udev rules"
fi

if ! systemd_up; then
  say "systemd is not running here: start the clock with $PREFIX/bin/aubade run --config $CONFIG"
  exit 0
fi
systemctl daemon-reload
for u in "${units[@]}"; do
  if systemctl is-enabled --quiet "$u"; then say "unchanged: $u is enabled"; else systemctl enable "$u" 2>/dev/null; say "enabled $u"; fi
  if ! $start; then
    say "not started (--no-start): sudo systemctl start $u"
  elif ! systemctl is-active --quiet "$u"; then
    systemctl start "$u" && say "started $u"
  elif $changed; then
    systemctl restart "$u" && say "restarted $u (a binary or unit changed)"
  else
    say "unchanged: $u is running"
  fi
done
# The face's unit is not enabled here (on a desktop the compositor holds the screen): restarted if it runs.
if $face; then
  if systemctl is-active --quiet aubade-face.service; then
    if $face_changed; then systemctl restart aubade-face.service && say "restarted aubade-face.service (its program or unit changed)"; fi
  elif ! systemctl is-enabled --quiet aubade-face.service; then
    say "aubade-face.service is installed, not enabled: on a board without a desktop, sudo systemctl enable --now aubade-face"
  fi
fi
