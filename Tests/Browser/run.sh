#!/usr/bin/env bash
# The real-browser tests of the phone page and the kiosk face: Debian's chromium headless through
# chromedriver, driven by Python's selenium, against the real `aubade run` on a free port of 127.0.0.1.
#
#   Tests/Browser/run.sh <path-to-aubade> [unittest names, e.g. test_kiosk.KioskTests]
#
# Environment:
#   AUBADE_BROWSER_VENV  the virtualenv with selenium (default: .build/browser-venv); made here when missing
#   AUBADE_ARTEFACTS     where screenshots go, under screenshots/ (default: .build/artefacts)
#   AUBADE_SCREENSHOTS   "docs" also copies the screenshots into docs/screenshots/
# Needs chromium, chromium-driver and python3 with venv (deploy/install-deps.sh test installs them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ $# -lt 1 ]; then
  echo "usage: $0 <path-to-aubade> [test names]" >&2
  exit 2
fi
aubade="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
[ -x "$aubade" ] || { echo "No aubade binary at $aubade; build it first (swift build)." >&2; exit 2; }
for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null || { echo "$tool is missing; run deploy/install-deps.sh test." >&2; exit 2; }
done

venv="${AUBADE_BROWSER_VENV:-$root/.build/browser-venv}"
. "$root/Tests/Support/venv.sh"
ensure_venv "$venv" "$here/requirements.txt" selenium "the browser tests'"

export AUBADE_BIN="$aubade"
export AUBADE_ARTEFACTS="${AUBADE_ARTEFACTS:-$root/.build/artefacts}"
# selenium must never fetch a driver from the internet: the system's chromedriver is given explicitly.
export SE_OFFLINE=true
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
cd "$here"
if [ $# -gt 0 ]; then
  exec "$venv/bin/python" -m unittest -v "$@"
fi
exec "$venv/bin/python" -m unittest discover -v -s "$here" -p 'test_*.py'
