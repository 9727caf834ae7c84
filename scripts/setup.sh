#!/usr/bin/env bash
# Create .venv, install the project from the lock files and build the compiled engine. Safe to run again.
#
#   bash scripts/setup.sh game   what the game needs: the web extra and the compiled engine (scripts/start.sh)
#   bash scripts/setup.sh all    every extra: sim, web, compile, dev, docs, rl (scripts/test.sh; the default)
#
# The versions come from requirements/game.txt or requirements/all.txt (pinned, for CPython 3.11 on
# Linux x86_64; `bash scripts/lock.sh` writes them again from pyproject.toml), so every machine gets
# the same ones. pip's download cache and the machine's pip configuration are used as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
case "$mode" in
  game) lock=requirements/game.txt; extras=web,compile ;;
  all)  lock=requirements/all.txt;  extras=sim,web,compile,dev,docs,rl ;;
  *) echo "usage: bash scripts/setup.sh [game|all]" >&2; exit 2 ;;
esac
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/pip install -q "pip==26.3"
.venv/bin/pip install -q -r "$lock" -e ".[$extras]"
# The compiled engine (docs/api.md, "The compiled engine"): built when missing or stale (about a
# minute of CPU), loaded only while it matches the sources. PAXH_PURE=1 skips it (the pure-Python
# engine). A failed build (no C compiler, say) leaves the pure engine in use, unless
# PAXH_REQUIRE_COMPILED=1 (scripts/test.sh sets it: CI tests what a player gets).
if [ "${PAXH_PURE:-0}" != 1 ]; then
  if ! .venv/bin/python scripts/compile_engine.py build; then
    if [ "${PAXH_REQUIRE_COMPILED:-0}" = 1 ]; then exit 1; fi
    echo "setup: the pure-Python engine will be used" >&2
  fi
fi
