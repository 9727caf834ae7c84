#!/usr/bin/env bash
# Set everything up (venv, chromium, a throwaway PostgreSQL) and run the whole test suite.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
if [ -f scripts/services.sh ]; then
  # shellcheck disable=SC1091
  source scripts/services.sh || exit 1
fi
.venv/bin/python -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; rc=1; fi
exit "$rc"
