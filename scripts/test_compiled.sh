#!/usr/bin/env bash
# The engine's tests against the compiled engine (issue 13; README "Installing"): copy this
# checkout's files (tracked and new, not ignored ones) to a throwaway directory, build the
# engine there with mypyc through setup.py (PAXH_COMPILE=1 ... build_ext --inplace, what the
# opt-in editable install runs), check that api.COMPILED is true there, and run
# tests/engine, tests/rules and tests/bots against it. The checkout itself stays pure Python.
# Not part of the default run (scripts/test.sh): the build alone takes 2-12 minutes of wall
# time on a loaded 2-core machine. Extra arguments go to pytest (e.g. -x, -k golden).
#
#   bash scripts/test_compiled.sh            # PYTHON=... another interpreter than .venv's; KEEP=1 keeps the copy
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py=${PYTHON:-$root/.venv/bin/python}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/paxh-compiled.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "keeping $tmp (KEEP=1)"; else trap 'rm -rf "$tmp"' EXIT; fi
git ls-files -co --exclude-standard | while IFS= read -r f; do
  if [ -f "$f" ]; then mkdir -p "$tmp/$(dirname "$f")" && cp -p "$f" "$tmp/$f"; fi
done
cd "$tmp"
echo "building the compiled engine in $tmp (log: build.log) ..."
start=$(date +%s)
if ! PAXH_COMPILE=1 "$py" setup.py -q build_ext --inplace > build.log 2>&1; then
  tail -40 build.log
  echo "the compiled build failed"
  exit 1
fi
echo "built in $(( $(date +%s) - start )) s: $(find src -name '*.so' | wc -l) extension(s)"
export PYTHONPATH="$tmp/src:$tmp/tests"
"$py" -c "from pax_hispanica import api; import sys; sys.exit(0 if api.COMPILED else 'api.COMPILED is false: the build did not take')"
"$py" -m pytest -p no:cacheprovider tests/engine tests/rules tests/bots "$@"     # -q: pyproject addopts
