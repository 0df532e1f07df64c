#!/usr/bin/env bash
# Installs the Debian packages Aubade needs that are missing, and nothing else.
#   deploy/install-deps.sh build   libraries to build and run
#   deploy/install-deps.sh test    the above plus the tools the test suite drives (including the HIL's)
#   deploy/install-deps.sh hil     only what the hardware-in-the-loop harness (hardware/hil/) needs on the host
# Uses sudo when not root. Swift itself is not a Debian package: see README.md.
set -euo pipefail

build_pkgs=(pkg-config libgpiod-dev libasound2-dev libmpg123-dev libcurl4-openssl-dev libsqlite3-dev libical-dev)
test_pkgs=(sqlite3 gpiod alsa-utils sox lame mpg123 python3 curl icecast2 ezstream)
# hardware/hil/: QEMU, the guest's initramfs and out-of-tree module build, and the tools the guest runs
# (the guest uses this machine's root file system over 9p, so they are installed here).
hil_pkgs=(qemu-system-x86 busybox-static cpio kmod gcc make xz-utils gpiod alsa-utils sox lame iw iproute2 hostapd
          wpasupplicant python3 wireless-regdb util-linux curl icecast2 ezstream)

case "${1:-build}" in
  build) wanted=("${build_pkgs[@]}") ;;
  test) wanted=("${build_pkgs[@]}" "${test_pkgs[@]}" "${hil_pkgs[@]}") ;;
  hil) wanted=("${hil_pkgs[@]}") ;;
  *) echo "usage: $0 build|test|hil" >&2; exit 2 ;;
esac

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "Installing missing packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The HIL only needs the tools above (it is handed an already built binary).
[ "${1:-build}" = hil ] && exit 0

if ! command -v swift >/dev/null; then
  echo "Swift 6 is not on PATH. Install the Swift toolchain for your platform (swift.org) and run again." >&2
  exit 1
fi
