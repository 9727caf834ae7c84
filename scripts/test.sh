#!/usr/bin/env bash
# Set everything up (venv with every extra: scripts/setup.sh all; the compiled engine, chromium, a throwaway PostgreSQL) and run the
# whole test suite; then the engine's and the rules' tests again on the pure-Python engine.
# Arguments go to the first pytest run only, and skip the second (e.g. tests/web -x).
# PAXH_PURE=1 runs everything on the pure engine (and builds nothing).
set -uo pipefail
cd "$(dirname "$0")/.."
export PAXH_REQUIRE_COMPILED=${PAXH_REQUIRE_COMPILED:-1}     # tests/engine/test_compiled_flag.py reads it too
bash scripts/setup.sh all || exit 1     # every extra, from requirements/all.txt
if [ -f scripts/services.sh ]; then
  # shellcheck disable=SC1091
  source scripts/services.sh || exit 1
fi
.venv/bin/python scripts/compile_engine.py status
.venv/bin/python -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; rc=1; fi
if [ "$#" -eq 0 ] && [ "${PAXH_PURE:-0}" != 1 ]; then
  # the pure-Python engine: what runs where no C compiler is, and the reference the compiled
  # one must equal (the golden trace, the corpus, every rule's tests)
  echo "the engine's and the rules' tests again, on the pure-Python engine (PAXH_PURE=1):"
  PAXH_PURE=1 .venv/bin/python -m pytest -p no:cacheprovider --durations=5 tests/engine tests/rules
  pure=$?
  if [ "$pure" -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; pure=1; fi
  if [ "$rc" -eq 0 ]; then rc=$pure; fi
fi
exit "$rc"
