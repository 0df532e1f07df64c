#!/usr/bin/env bash
# Installs the Debian packages Aubade needs that are missing, and nothing else.
#   deploy/install-deps.sh build   libraries to build and run
#   deploy/install-deps.sh test    the above plus the tools the test suite drives (including the HIL's and the
#                                  browser tests': Chromium, its driver, the pages' fonts, and selenium from PyPI
#                                  in a virtualenv at $BUILD_DIR/browser-venv, made only when missing)
#   deploy/install-deps.sh hil     only what the hardware-in-the-loop harness (hardware/hil/) needs on the host
#   deploy/install-deps.sh deb     the build libraries plus what `make deb` packages with (deploy/make-deb.sh)
# Uses sudo when not root. Swift itself is not a Debian package: see README.md.
set -euo pipefail

build_pkgs=(pkg-config libgpiod-dev libasound2-dev libmpg123-dev libavformat-dev libavcodec-dev libswresample-dev libavutil-dev
            libcurl4-openssl-dev libsqlite3-dev libical-dev
            libmosquitto-dev libxml2-dev    # libxml2: FoundationXML, which reads the podcasts' feeds
            libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev fonts-dejavu-core)   # the native face (aubade-face) and its font
test_pkgs=(sqlite3 gpiod alsa-utils sox lame mpg123 ffmpeg python3 curl icecast2 ezstream mosquitto mosquitto-clients)
# deploy/make-deb.sh (dpkg-deb, dpkg-shlibdeps, strip, the man page's python) and the package checks of make
# test (lintian, man; patchelf for the test package made from the debug build).
deb_pkgs=(dpkg-dev binutils python3 lintian man-db patchelf)
# Tests/Browser/: Chromium headless through chromedriver; DejaVu is the pages' system font in the screenshots
# (-extra has the light weight of the kiosk's large time); cage (the kiosk's Wayland compositor, on its headless
# backend; it will not start without Xwayland) and grim (its screenshots) for the kiosk as it runs on the
# nightstand. cog (WPE WebKit's kiosk browser) runs the same face under cage in make bench (bench/face_bench.py,
# issue 38): beside cage and grim, which it needs, and installed wherever they are.
browser_pkgs=(chromium chromium-driver fonts-dejavu-core fonts-dejavu-extra cage xwayland grim cog)
# hardware/hil/: QEMU, the guest's initramfs and out-of-tree module build, and the tools the guest runs
# (the guest uses this machine's root file system over 9p, so they are installed here).
hil_pkgs=(qemu-system-x86 busybox-static cpio kmod gcc make xz-utils gpiod alsa-utils sox lame iw iproute2 hostapd
          wpasupplicant python3 wireless-regdb util-linux curl icecast2 ezstream
          systemd udev dpkg-dev binutils patchelf adduser)   # the systemd scenario: systemd as PID 1, the package

case "${1:-build}" in
  build) wanted=("${build_pkgs[@]}") ;;
  test) wanted=("${build_pkgs[@]}" "${test_pkgs[@]}" "${deb_pkgs[@]}" "${browser_pkgs[@]}" "${hil_pkgs[@]}") ;;
  hil) wanted=("${hil_pkgs[@]}") ;;
  deb) wanted=("${build_pkgs[@]}" "${deb_pkgs[@]}") ;;
  *) echo "usage: $0 build|test|hil|deb" >&2; exit 2 ;;
esac

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The browser tests' virtualenv needs python3's venv with ensurepip, which Debian ships apart.
if [ "${1:-build}" = test ] && ! { command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; }; then
  dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || missing+=(python3-venv)
fi

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

# selenium for Tests/Browser/, from PyPI into its own virtualenv (never the system's python), once.
if [ "${1:-build}" = test ]; then
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  build_dir="${BUILD_DIR:-.build}"
  case "$build_dir" in /*) ;; *) build_dir="$root/$build_dir" ;; esac
  . "$root/Tests/Support/venv.sh"
  ensure_venv "${AUBADE_BROWSER_VENV:-$build_dir/browser-venv}" "$root/Tests/Browser/requirements.txt" selenium \
    "the browser tests'"
  # Fraunhofer's libfdk-aac from Debian's non-free component, unpacked into the build folder (not installed): the
  # encoder of the HE-AAC v1/v2 test media, which Debian's FFmpeg cannot make. Test time only; never shipped.
  "$root/Tests/Support/fdk_aac.sh" "$build_dir/fdk-aac" >/dev/null
  # schemathesis for Tests/Contract/ (the API fuzzer), pinned, in its own virtualenv.
  ensure_venv "${AUBADE_API_VENV:-$build_dir/api-venv}" "$root/Tests/Contract/requirements.txt" schemathesis \
    "the API fuzzer's"
fi

if ! command -v swift >/dev/null; then
  echo "Swift 6 is not on PATH. Install the Swift toolchain for your platform (swift.org) and run again." >&2
  exit 1
fi
