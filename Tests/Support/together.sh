#!/usr/bin/env bash
# Runs make targets at the same time: the suites that spend most of their wall time waiting on a daemon's real
# clock (the browser tests used 111 CPU-seconds in 557 s of wall time), so that on a two-core machine they wait
# together rather than one after the other. Each target's output goes to a log of its own and is printed whole
# when it ends, in the order given; the exit code is 1 when any target failed, and the failed ones are named.
#
#   Tests/Support/together.sh LOG_FOLDER TARGET...
#
# Each target runs in a process group of its own; if this script is stopped, every group is stopped with it.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 LOG_FOLDER TARGET..." >&2; exit 2; }
logs=$1
shift
targets=("$@")
mkdir -p "$logs" || exit 2
set -m   # each background job its own process group, so that it can be stopped whole
pids=()
started=$(date +%s)
for target in "$@"; do
  make --no-print-directory "$target" > "$logs/$target.log" 2>&1 < /dev/null &
  pids+=("$!")
done
stop_all() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
}
trap 'stop_all; exit 130' INT TERM
trap stop_all EXIT
echo "together: $* started at once; their output follows as each ends (logs in $logs)"
failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  target=${targets[$i]}
  echo "=== $target: exit $rc, $(($(date +%s) - started)) s after the start"
  cat "$logs/$target.log"
  [ "$rc" = 0 ] || failed+=("$target")
done
trap - EXIT
if [ ${#failed[@]} -gt 0 ]; then
  echo "together: failed: ${failed[*]}" >&2
  exit 1
fi
echo "together: all of $* passed in $(($(date +%s) - started)) s"
