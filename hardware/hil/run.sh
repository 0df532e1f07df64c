#!/usr/bin/env bash
# Boots the HIL VM set up by setup.sh and runs hardware/hil/guest.sh inside it with the given aubade binary.
#
# Usage: hardware/hil/run.sh AUBADE_BINARY [WORKDIR]
#   AUBADE_BINARY   the freshly built executable (e.g. .build/debug/aubade); copied into the run folder
#   WORKDIR         setup.sh's folder (default .build-hil-vm/ in the repository)
# Environment: HIL_VM_TIMEOUT (seconds, default 720), HIL_ONLY (space-separated scenario names to run, e.g.
# "gpio shake"; default all), HIL_MEMORY (MiB, default 2048), HIL_GUEST_CMD (another program to run in the
# guest instead of guest.sh, for debugging).
#
# QEMU runs with TCG (no KVM on the CI machines), 2 vCPUs, no network card and no disk: the guest's root is
# this machine's / over 9p (read-only, under a tmpfs overlay) and the run folder WORKDIR/run is shared
# read-write at the same path. The guest prints PASS/FAIL/SKIP lines and figures on the serial console
# (copied to WORKDIR/run/console.log); its logs and recordings stay in WORKDIR/run/results/.
# Exit code: the number of failed checks; 99 when the VM could not run, crashed or timed out.
#
# The systemd scenario (hardware/hil/scenarios/systemd.sh) needs systemd as PID 1, so it runs in a second boot
# of the same guest (HIL_SYSTEMD=1 on the kernel command line; see init), with the Debian package made here from
# the binary (deploy/make-deb.sh --test, as revision 1 and 2 for the upgrade) in WORKDIR/run-systemd/deb. The two
# boots share nothing (each has its own run folder: WORKDIR/run-systemd for the second) and run one after the other:
# each emulated guest keeps both of a 2-core machine's cores busy (run side by side there, each took twice as long
# and the first hit its timeout). HIL_PARALLEL=1 runs them at the same time, for a machine with 4 cores or more. The
# second's console is WORKDIR/run-systemd/console-systemd.log; HIL_SYSTEMD_TIMEOUT (seconds, default 900) bounds it.
# HIL_ONLY=systemd runs that boot alone.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BIN=${1:-}
W=${2:-${HIL_WORKDIR:-$REPO/.build-hil-vm}}
cant() { echo "hil-run: $*" >&2; exit 99; }

[ -n "$BIN" ] || cant "usage: $0 AUBADE_BINARY [WORKDIR]"
[ -x "$BIN" ] || cant "$BIN is not an executable; build aubade first (swift build)."
[ -f "$W/current.env" ] || cant "$W/current.env is missing; run hardware/hil/setup.sh first."
# shellcheck source=/dev/null
. "$W/current.env"
for f in "$HIL_VMLINUZ" "$HIL_INITRD" "$HIL_MODULES"; do [ -e "$f" ] || cant "$f is missing; run hardware/hil/setup.sh again."; done
[ "$(cat "$(dirname "$HIL_INITRD")/initramfs.key" 2>/dev/null)" = "$(cat "$HERE/init" /bin/busybox | sha256sum | cut -d' ' -f1)" ] ||
  cant "hardware/hil/init changed since the initramfs was built; run hardware/hil/setup.sh again."
command -v qemu-system-x86_64 >/dev/null || cant "qemu-system-x86_64 is missing; run hardware/hil/setup.sh."
if ldd "$BIN" | grep -q 'not found'; then cant "$BIN needs libraries this machine lacks: $(ldd "$BIN" | grep 'not found' | tr -s ' \t' ' ')"; fi

W=$(cd "$W" && pwd)
RUN=$W/run
SYSRUN=$W/run-systemd
# run_folder DIR: a fresh run folder with the binaries under test and the test media.
run_folder() {
  local dir=$1
  rm -rf "$dir" && mkdir -p "$dir/results" "$dir/media" || cant "cannot create $dir"
  cp "$BIN" "$dir/aubade" && chmod 755 "$dir/aubade"
  # The second waker, when it was built beside aubade (the waker scenario skips without it).
  [ -x "$(dirname "$BIN")/aubade-waker" ] && cp "$(dirname "$BIN")/aubade-waker" "$dir/aubade-waker"
  [ -n "${HIL_ONLY:-}" ] && echo "$HIL_ONLY" > "$dir/only"
  # Test media, made here at native speed (lame under TCG would take several seconds): 10 s of a 440 Hz sine at
  # half scale, stereo 44.1 kHz, as 128 kb/s MP3 with the ID3 tags ezstream turns into the ICY title.
  sox -D -n -r 44100 -c 2 -b 16 "$dir/media/sine440.wav" synth 10 sine 440 vol 0.5 &&
    lame --quiet -b 128 --ta HIL --tt "Sine 440" "$dir/media/sine440.wav" "$dir/media/sine440.mp3" ||
    cant "could not make the test MP3 with sox and lame."
}
rm -rf "$SYSRUN"
run_folder "$RUN"

echo "hil-run: kernel $HIL_KV ($HIL_KVERSION), TCG, 2 vCPUs; binary $BIN"
only=" ${HIL_ONLY:-} "
wants() { [ -z "${HIL_ONLY:-}" ] || [[ "$only" == *" $1 "* ]]; }
# boot NAME FOLDER CONSOLE TIMEOUT [KERNEL PARAMETERS...]: one run of the VM on run folder FOLDER; sets BOOT_RC (the
# guest's failures, 99 when the VM did not finish) and writes it to FOLDER/boot-rc. The console goes to CONSOLE, and to
# the standard output unless HIL_QUIET=1.
boot() {
  local name=$1 RUN=$2 console=$3 limit=$4 start took qemu_rc why; shift 4
  rm -f "$RUN/guest-rc" "$RUN/boot-rc"
  start=$(date +%s.%N)
  timeout --kill-after=10 "$limit" qemu-system-x86_64 \
    -M pc -accel tcg,thread=multi -smp 2 -m "${HIL_MEMORY:-2048}" \
    -nodefaults -no-user-config -display none -serial stdio -no-reboot \
    -kernel "$HIL_VMLINUZ" -initrd "$HIL_INITRD" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 HIL_MODULES=$HIL_MODULES HIL_WORK=$RUN HIL_CMD=${HIL_GUEST_CMD:-$HERE/guest.sh} $*" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$RUN,mount_tag=work,security_model=none,multidevs=remap" \
    < /dev/null 2>&1 | tr -d '\r' | if [ "${HIL_QUIET:-}" = 1 ]; then cat > "$console"; else tee "$console"; fi
  qemu_rc=${PIPESTATUS[0]}
  took=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.1f", a - b }')
  if [ ! -f "$RUN/guest-rc" ]; then
    [ "$qemu_rc" = 124 ] && why="timed out after $limit s" || why="stopped without a result (QEMU exit $qemu_rc)"
    echo "hil-run: FAIL: the VM ($name) $why; see $console" >&2
    BOOT_RC=99
    echo "$BOOT_RC" > "$RUN/boot-rc"
    return
  fi
  BOOT_RC=$(cat "$RUN/guest-rc")
  echo "$BOOT_RC" > "$RUN/boot-rc"
  echo "hil-run: VM boot + scenarios ($name) took $took s; $BOOT_RC check(s) failed"
}

# The systemd boot's folder and packages first, so that it can start beside the scenarios' boot.
systemd_pid=
if wants systemd && [ -z "${HIL_GUEST_CMD:-}" ]; then
  run_folder "$SYSRUN"
  mkdir -p "$SYSRUN/deb"
  pkg_start=$(date +%s.%N)
  for revision in 1 2; do
    "$REPO/deploy/make-deb.sh" --test --fast --revision "$revision" "$BIN" "$SYSRUN/deb" > /dev/null 2> "$SYSRUN/deb/make-deb-$revision.log" ||
      { cat "$SYSRUN/deb/make-deb-$revision.log" >&2; cant "could not package $BIN (deploy/make-deb.sh)."; }
  done
  echo "hil-run: packaged $BIN as $(cd "$SYSRUN/deb" && ls -- *.deb | tr '\n' ' ')in $(awk -v a="$(date +%s.%N)" -v b="$pkg_start" 'BEGIN { printf "%.1f", a - b }') s"
  systemd_boot() {
    boot "systemd" "$SYSRUN" "$SYSRUN/console-systemd.log" "${HIL_SYSTEMD_TIMEOUT:-900}" HIL_SYSTEMD=1 systemd.show_status=0 \
      systemd.log_level=warning
  }
  if [ "${HIL_PARALLEL:-}" = 1 ]; then
    echo "hil-run: the systemd boot runs beside the scenarios' boot; its console follows when it ends"
    HIL_QUIET=1 systemd_boot > "$SYSRUN/boot.out" 2>&1 &
    systemd_pid=$!
    trap 'pkill -TERM -P "$systemd_pid" 2>/dev/null; kill "$systemd_pid" 2>/dev/null' EXIT
  fi
fi

rc=0
if [ -z "${HIL_ONLY:-}" ] || [ "$(echo "$HIL_ONLY" | tr ' ' '\n' | grep -cvx 'systemd')" -gt 0 ]; then
  boot "scenarios" "$RUN" "$RUN/console.log" "${HIL_VM_TIMEOUT:-720}"
  rc=$BOOT_RC
fi
if wants systemd && [ -z "${HIL_GUEST_CMD:-}" ]; then
  if [ -n "$systemd_pid" ]; then
    wait "$systemd_pid"
    trap - EXIT
    echo "--- the systemd boot's console ($SYSRUN/console-systemd.log)"
    cat "$SYSRUN/console-systemd.log" "$SYSRUN/boot.out"
    BOOT_RC=$(cat "$SYSRUN/boot-rc" 2>/dev/null || echo 99)
  else
    systemd_boot
  fi
  [ "$BOOT_RC" = 99 ] && rc=99 || { [ "$rc" = 99 ] || rc=$((rc + BOOT_RC)); }
fi
exit "$rc"
