#!/usr/bin/env bash
# The native face end to end: the real `aubade run` on a free port of 127.0.0.1 and the real `aubade-face` on SDL's
# offscreen driver beside it, talking as they do on the nightstand (HTTP and server-sent events on loopback).
#
#   Tests/Face/run.sh <path-to-aubade> <path-to-aubade-face> [unittest names, e.g. test_face.FaceTests]
#
# Python's standard library only (no virtualenv): the face's frames are read as the BMP files it writes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 <path-to-aubade> <path-to-aubade-face> [test names]" >&2
  exit 2
fi
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
aubade="$(absolute "$1")"
face="$(absolute "$2")"
shift 2
for binary in "$aubade" "$face"; do
  [ -x "$binary" ] || { echo "No binary at $binary; build it first (swift build)." >&2; exit 2; }
done

export AUBADE_BIN="$aubade" AUBADE_FACE_BIN="$face"
export AUBADE_ARTEFACTS="${AUBADE_ARTEFACTS:-$root/.build/artefacts}"
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
cd "$here"
if [ $# -gt 0 ]; then
  exec python3 -m unittest -v "$@"
fi
exec python3 -m unittest discover -v -s "$here" -p 'test_face.py'  # test_pressure.py runs apart (make test)
