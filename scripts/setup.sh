#!/usr/bin/env bash
# Create .venv, install the project with every extra and build the compiled engine. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e ".[sim,web,dev,docs,rl]"
# The compiled engine (README "Installing"): built when missing or stale (about a minute of
# CPU), loaded only while it matches the sources. PAXH_PURE=1 skips it (the pure-Python engine).
# A failed build (no C compiler, say) leaves the pure engine in use, unless
# PAXH_REQUIRE_COMPILED=1 (scripts/test.sh sets it: CI tests what a player gets).
if [ "${PAXH_PURE:-0}" != 1 ]; then
  if ! .venv/bin/python scripts/compile_engine.py build; then
    if [ "${PAXH_REQUIRE_COMPILED:-0}" = 1 ]; then exit 1; fi
    echo "setup: the pure-Python engine will be used" >&2
  fi
fi
