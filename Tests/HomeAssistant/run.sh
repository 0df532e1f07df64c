#!/usr/bin/env bash
# The clock's MQTT face against a real Home Assistant core (Tests/HomeAssistant/test_home_assistant.py): Debian's
# mosquitto and `hass` from PyPI's homeassistant 2025.4.4, on 127.0.0.1, against the built `aubade run`.
#
#   Tests/HomeAssistant/run.sh <path-to-aubade> [unittest names, e.g. test_home_assistant.RingingTests]
#
# Environment:
#   AUBADE_HA_VENV    the virtualenv with Home Assistant (default: .build/ha-venv); made here when missing or made
#                     from other requirements
#   AUBADE_HA_PYTHON  the Python 3.13 to make it with (default: pyenv's newest 3.13, else python3.13 on PATH)
#   AUBADE_ARTEFACTS  where Home Assistant's and the broker's logs are copied, under homeassistant/ (default:
#                     .build/artefacts)
#   AUBADE_KEEP_HA=1  keeps Home Assistant's whole folder (config, logs, recorder database) after the run
# Needs mosquitto (deploy/install-deps.sh test installs it) and a Python 3.13 with venv.
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
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] ||
  { echo "mosquitto is missing; run deploy/install-deps.sh test." >&2; exit 2; }
export PATH="$PATH:/usr/sbin"

# Home Assistant 2025.4 runs on Python 3.13 only.
python="${AUBADE_HA_PYTHON:-}"
if [ -z "$python" ] && command -v pyenv >/dev/null; then
  python="$(ls -d "$(pyenv root)"/versions/3.13.*/bin/python3 2>/dev/null | sort -V | tail -1 || true)"
fi
[ -n "$python" ] || python="$(command -v python3.13 || true)"
[ -n "$python" ] && "$python" -c 'import sys, venv; assert sys.version_info[:2] == (3, 13)' 2>/dev/null ||
  { echo "Home Assistant needs Python 3.13 (set AUBADE_HA_PYTHON, or install it with pyenv)." >&2; exit 2; }

# The virtualenv: every package pinned in requirements.txt, installed without resolving (--no-deps: the list is
# complete) and without compiling every module up front (Python compiles what Home Assistant imports, once).
# Made again when requirements.txt or the Python changed.
venv="${AUBADE_HA_VENV:-$root/.build/ha-venv}"
made_from="$(cat "$here/requirements.txt"; "$python" -VV)"
if ! { [ -x "$venv/bin/hass" ] && [ "$(cat "$venv/made-from" 2>/dev/null)" = "$made_from" ]; }; then
  echo "Making Home Assistant's virtualenv in $venv (homeassistant 2025.4.4 with $(grep -c '^[A-Za-z]' "$here/requirements.txt") pinned packages from PyPI)"
  started=$SECONDS
  "$python" -m venv --clear "$venv"
  # A venv made without pip has happened here: ensurepip brings it.
  [ -x "$venv/bin/pip" ] || "$venv/bin/python" -m ensurepip --default-pip >/dev/null
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-compile -r "$here/requirements.txt"
  printf '%s' "$made_from" > "$venv/made-from"
  echo "Made in $((SECONDS - started)) s: $(du -sh "$venv" | cut -f1)."
fi

export AUBADE_BIN="$aubade"
export AUBADE_ARTEFACTS="${AUBADE_ARTEFACTS:-$root/.build/artefacts}"
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree (Home Assistant's own are in its venv)
cd "$here"
if [ $# -gt 0 ]; then
  exec "$venv/bin/python" -m unittest -v "$@"
fi
exec "$venv/bin/python" -m unittest discover -v -s "$here" -p 'test_*.py'
