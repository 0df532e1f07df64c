#!/bin/bash
# Runs INSIDE the HIL guest (started by hardware/hil/init; see run.sh). The root file system is the host's, so
# the tools are the host's; the kernel is Debian's with gpio-sim built out of tree. Prints PASS/FAIL/SKIP/NOTE
# lines and FIGURE lines (measurements) per scenario; the exit code is the number of failed checks.
set -u
HIL=$(cd "$(dirname "$0")" && pwd)
. "$HIL/guest-lib.sh"
# A timestamped trace of every command, for finding out afterwards what failed or took long.
exec 5> "$OUT/trace.log"
BASH_XTRACEFD=5
PS4='+ $EPOCHREALTIME '
set -x
for s in "$HIL"/scenarios/*.sh; do . "$s"; done

echo "guest: kernel $(uname -r), $(nproc) CPUs, ready at $(uptime_s) s; $("$AUBADE" version 2>&1 | awk '$1 == "aubade" { print "aubade " $2 }')"
# The second boot (run.sh, HIL_SYSTEMD=1): systemd is PID 1 and only the systemd scenario runs.
if [ "$(cat /proc/1/comm)" = systemd ]; then
  started=$(now)
  run_scenario systemd scenario_systemd
  echo "guest: scenarios took $(since "$started") s; kernel taint $(cat /proc/sys/kernel/tainted); $FAILS failure(s)"
  exit "$FAILS"
fi
ip link set lo up
SCENARIO=setup
for m in "snd-aloop index=0 pcm_substreams=1" uinput evdev; do
  modprobe $m || fail "modprobe $m"
done
started=$(now)

run_scenario gpio scenario_gpio
run_scenario outputs scenario_outputs
run_scenario shake scenario_shake
run_scenario sound scenario_sound
run_scenario microphone scenario_microphone
run_scenario wifi scenario_wifi
run_scenario daemon scenario_daemon
run_scenario waker scenario_waker

echo "guest: scenarios took $(since "$started") s; kernel taint $(cat /proc/sys/kernel/tainted); $FAILS failure(s)"
exit "$FAILS"
