#!/usr/bin/env bash
# The API held to its OpenAPI document by schemathesis (Tests/Contract/fuzz.py says how), against the real
# `aubade run` in a network namespace of its own (so it needs root, or CAP_NET_ADMIN and CAP_SYS_ADMIN, like the
# hardware-in-the-loop VM's networking).
#
#   Tests/Contract/run.sh <path-to-aubade>
#
# Environment:
#   AUBADE_API_VENV       the virtualenv with schemathesis (default: .build/api-venv); made here when missing
#   AUBADE_FUZZ_EXAMPLES  test cases per operation and phase (default 25); AUBADE_FUZZ_SEED (default 20261126)
#   AUBADE_FUZZ_REPORT    where schemathesis writes its JUnit and NDJSON reports (default .build/artefacts/schemathesis)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ $# -ne 1 ]; then
  echo "usage: $0 <path-to-aubade>" >&2
  exit 2
fi
aubade="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$aubade" ] || { echo "No aubade binary at $aubade; build it first (swift build)." >&2; exit 2; }
command -v ip >/dev/null || { echo "ip (iproute2) is missing; run deploy/install-deps.sh test." >&2; exit 2; }

venv="${AUBADE_API_VENV:-$root/.build/api-venv}"
. "$root/Tests/Support/venv.sh"
ensure_venv "$venv" "$here/requirements.txt" schemathesis "the API fuzzer's"
export PYTHONDONTWRITEBYTECODE=1
export AUBADE_FUZZ_REPORT="${AUBADE_FUZZ_REPORT:-$root/.build/artefacts/schemathesis}"
exec python3 "$here/fuzz.py" "$aubade" "$venv/bin/st"
