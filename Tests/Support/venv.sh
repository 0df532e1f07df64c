# Sourced by the scripts that run Python tests from PyPI packages (Tests/Browser/run.sh, Tests/Contract/run.sh,
# deploy/install-deps.sh): each set of packages in a virtualenv of its own under the build folder, never the
# system's Python.
#
#   ensure_venv <venv folder> <requirements.txt> <module to import> <whose, for the message>
#
# Makes the virtualenv when it is missing, cannot import the module, or was made from other requirements (a pin
# changed): the requirements it was made from are kept in it and compared.

ensure_venv() {
  local venv="$1" requirements="$2" module="$3" whose="$4"
  if "$venv/bin/python" -c "import $module" 2>/dev/null && cmp -s "$requirements" "$venv/requirements.txt"; then
    return 0
  fi
  echo "Making $whose virtualenv in $venv ($(grep -v '^#' "$requirements" | tr '\n' ' ')from PyPI)"
  python3 -m venv --clear "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
}
