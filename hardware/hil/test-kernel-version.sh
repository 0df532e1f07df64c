#!/usr/bin/env bash
# Tests hardware/hil/kernel-version.sh (which kernel version setup.sh takes) without the network: apt-cache is
# replaced by fixtures/kernel-version/apt-cache, which answers from copies of real `apt-cache madison` and
# `apt-cache show` output (fixtures/kernel-version/{madison,show}/, bookworm amd64, issue 34: linux-image-amd64
# at 6.1.192-2 (ABI 6.1.0-56) and 6.1.176-1 (ABI 6.1.0-50), linux-kbuild-6.1 only at 6.1.192-3 and 6.1.176-1;
# `show` trimmed to the fields that matter). A case that needs another archive edits its own copy. Run by `make test`; takes about a second.
#
# Usage: hardware/hil/test-kernel-version.sh     Prints one line per check and "N passed, M failed"; exit 1
#                                                on any failure.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$HERE/fixtures/kernel-version
# shellcheck source=hardware/hil/kernel-version.sh
. "$HERE/kernel-version.sh"
export APT_CACHE=$FIX/apt-cache
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
passed=0 failed=0

KBUILD_192_2='linux-kbuild-6.1 |  6.1.192-2 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages'

# scenario NAME: a fresh copy of the real fixtures (FAKE_APT_DIR) and an empty WORKDIR (WORK).
scenario() {
  CASE=$1
  export FAKE_APT_DIR=$T/$CASE/apt
  WORK=$T/$CASE/work
  mkdir -p "$FAKE_APT_DIR" "$WORK"
  cp -r "$FIX/madison" "$FIX/show" "$FAKE_APT_DIR/"
}
# build_in_workdir ABI VER [partial]: a finished build as setup.sh leaves it (.ready + hil_backlight.ko);
# "partial" leaves out the module, as an interrupted build would.
build_in_workdir() {
  local k=$WORK/kernel/$1-amd64_$2
  mkdir -p "$k/kernel/lib/modules/$1-amd64/extra"
  touch "$k/.ready"
  [ "${3:-}" = partial ] || touch "$k/kernel/lib/modules/$1-amd64/extra/hil_backlight.ko"
}
resolve() { resolve_kernel_version "$WORK"; RC=$?; }
check() {  # check WHAT ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok   $CASE: $1"
  else
    failed=$((failed + 1)); echo "FAIL $CASE: $1: expected [$3], got [$2]"
  fi
}
check_contains() {  # check_contains WHAT TEXT PART
  case $2 in
    *"$3"*) passed=$((passed + 1)); echo "ok   $CASE: $1" ;;
    *) failed=$((failed + 1)); echo "FAIL $CASE: $1: [$2] does not contain [$3]" ;;
  esac
}

# 1. The archive as it is (issue 34): 6.1.192-2 lacks linux-kbuild-6.1=6.1.192-2, so the point release's set
#    is taken, with the ABI its own linux-image-amd64=6.1.176-1 depends on (6.1.0-50, not 6.1.0-56).
scenario mismatch
resolve
check "resolves" "$RC" 0
check "version" "$VER" 6.1.176-1
check "ABI from 6.1.176-1's own Depends" "$ABI" 6.1.0-50
check "KV" "$KV" 6.1.0-50-amd64
check "SER" "$SER" 6.1
check "the line says why" "$KERNEL_CHOICE" "kernel 6.1.0-50-amd64 (package 6.1.176-1): 6.1.192-2 lacks linux-kbuild-6.1=6.1.192-2"
check "two apt-cache calls (each costs a second without apt's binary cache)" "$(wc -l < "$FAKE_APT_DIR/calls")" 2

# 2. All five at the newest version: the newest is taken.
scenario complete-newest
echo "$KBUILD_192_2" >> "$FAKE_APT_DIR/madison/linux-kbuild-6.1"
resolve
check "resolves" "$RC" 0
check "version" "$VER" 6.1.192-2
check "ABI" "$ABI" 6.1.0-56
check "the line says why" "$KERNEL_CHOICE" \
  "kernel 6.1.0-56-amd64 (package 6.1.192-2): the newest linux-image-amd64, its five packages all in the archive"

# 3. 6.1.192-2 already built in WORKDIR (from before kbuild moved on): kept, although the archive lacks a package.
scenario cached-192-2
build_in_workdir 6.1.0-56 6.1.192-2
resolve
check "resolves" "$RC" 0
check "version" "$VER" 6.1.192-2
check "KV" "$KV" 6.1.0-56-amd64
check "the line says why" "$KERNEL_CHOICE" "kernel 6.1.0-56-amd64 (package 6.1.192-2): already built in $WORK/kernel/6.1.0-56-amd64_6.1.192-2 (the archive now lacks linux-kbuild-6.1=6.1.192-2)"

# 4. An unfinished build of 6.1.192-2 (.ready without hil_backlight.ko) does not count.
scenario partial-192-2
build_in_workdir 6.1.0-56 6.1.192-2 partial
resolve
check "resolves" "$RC" 0
check "version" "$VER" 6.1.176-1

# 5. A finished build of a version linux-image-amd64 no longer lists (6.1.180-1) is newer than the point
#    release, so it is kept; an older one (6.1.170-3) loses to the point release's complete set.
scenario cached-unlisted
build_in_workdir 6.1.0-52 6.1.180-1
build_in_workdir 6.1.0-48 6.1.170-3
resolve
check "resolves" "$RC" 0
check "version" "$VER" 6.1.180-1
check "ABI from the folder's name" "$ABI" 6.1.0-52
check_contains "the line says why" "$KERNEL_CHOICE" "6.1.192-2 lacks linux-kbuild-6.1=6.1.192-2; already built in"
scenario cached-older
build_in_workdir 6.1.0-48 6.1.170-3
resolve
check "version" "$VER" 6.1.176-1

# 6. Newest first whatever order apt prints the records in.
scenario record-order
awk -v RS= '{ r[NR] = $0 } END { for (i = NR; i > 0; i--) print r[i] "\n" }' "$FIX/show/linux-image-amd64" \
  > "$FAKE_APT_DIR/show/linux-image-amd64"
echo "$KBUILD_192_2" >> "$FAKE_APT_DIR/madison/linux-kbuild-6.1"
resolve
check "version" "$VER" 6.1.192-2

# 7. No complete set: one sentence naming what each version lacks, and no version set.
scenario none-complete
grep -v ' 6.1.176-1 ' "$FIX/madison/linux-kbuild-6.1" > "$FAKE_APT_DIR/madison/linux-kbuild-6.1"
rm "$FAKE_APT_DIR/madison/linux-headers-6.1.0-50-common"
resolve
check "fails" "$RC" 1
check "no version set" "$VER$ABI$KV" ""
check "the sentence" "$KERNEL_PROBLEM" "no version of linux-image-amd64 has its five kernel packages in the archive (6.1.192-2 lacks linux-kbuild-6.1=6.1.192-2; 6.1.176-1 lacks linux-headers-6.1.0-50-common=6.1.176-1, linux-kbuild-6.1=6.1.176-1)."

# 8. apt knows no linux-image-amd64 at all (no Debian sources).
scenario no-meta
: > "$FAKE_APT_DIR/show/linux-image-amd64"
resolve
check "fails" "$RC" 1
check_contains "the sentence" "$KERNEL_PROBLEM" "apt knows no linux-image-amd64 package;"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
