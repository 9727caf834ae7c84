#!/usr/bin/env bash
# Create .venv, install the project from the lock files and build the compiled engine. Safe to run again.
#
#   bash scripts/setup.sh game   what the game needs: the web extra and the compiled engine (scripts/start.sh)
#   bash scripts/setup.sh all    every extra: sim, web, compile, dev, docs, rl (scripts/test.sh; the default)
#   bash scripts/setup.sh game --build-in-background
#                                the same, but a missing or stale compiled engine is built in the background
#                                (niced; its log: .venv/paxh-compiled.build.log) and setup returns at once
#                                (scripts/start.sh: the game starts on the pure engine meanwhile)
#
# The versions come from requirements/game.txt or requirements/all.txt (pinned, for CPython 3.11 on
# Linux x86_64; `bash scripts/lock.sh` writes them again from pyproject.toml), so every machine gets
# the same ones. pip's download cache and the machine's pip configuration are used as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
background=0
if [ "${2:-}" = "--build-in-background" ]; then background=1; fi
case "$mode" in
  game) lock=requirements/game.txt; extras=web,compile ;;
  all)  lock=requirements/all.txt;  extras=sim,web,compile,dev,docs,rl ;;
  *) echo "usage: bash scripts/setup.sh [game|all]" >&2; exit 2 ;;
esac
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
# In the background (--build-in-background, unless PAXH_REQUIRE_COMPILED=1): the compiled engine's build
# and the installed packages' bytecode (pip's --no-compile: it halves pip's CPU time; compileall writes
# the .pyc files afterwards, niced). Else everything here, as pip does it.
bg=0
if [ "$background" = 1 ] && [ "${PAXH_REQUIRE_COMPILED:-0}" != 1 ]; then bg=1; fi
nocompile=""
if [ "$bg" = 1 ]; then nocompile=--no-compile; fi
.venv/bin/pip install -q "pip==26.3"
.venv/bin/pip install -q $nocompile -r "$lock" -e ".[$extras]"
# The compiled engine (docs/api.md, "The compiled engine"): built when missing or stale (about a
# minute of CPU), loaded only while it matches the sources. PAXH_PURE=1 skips it (the pure-Python
# engine). A failed build (no C compiler, say) leaves the pure engine in use, unless
# PAXH_REQUIRE_COMPILED=1 (scripts/test.sh sets it: CI tests what a player gets). In the background
# the build runs in a session of its own, at nice 10, so that it goes on when the game is stopped;
# compile_engine.py's lock lets one build run at a time, and its folder is put in place whole, so
# nothing loads it half-built.
if [ "$bg" = 1 ]; then
  build=""
  log=.venv/paxh-compiled.build.log
  if [ "${PAXH_PURE:-0}" != 1 ] && ! .venv/bin/python scripts/compile_engine.py status >/dev/null 2>&1; then
    build=1
    echo "setup: the compiled engine is building in the background (nice 10, a minute or two of CPU; the log:" \
         "$log); the pure-Python engine runs until it is built" >&2
  fi
  session=$(command -v setsid || true)     # a session of its own (util-linux), so Ctrl-C on the game spares it
  PAXH_SETUP_BUILD=$build $session nohup nice -n 10 sh -c '
    if [ -n "$PAXH_SETUP_BUILD" ]; then .venv/bin/python scripts/compile_engine.py build --no-wait; fi
    .venv/bin/python -m compileall -q .venv/lib >/dev/null 2>&1 || true' >>"$log" 2>&1 </dev/null &
elif [ "${PAXH_PURE:-0}" != 1 ]; then
  if ! .venv/bin/python scripts/compile_engine.py build; then
    if [ "${PAXH_REQUIRE_COMPILED:-0}" = 1 ]; then exit 1; fi
    echo "setup: the pure-Python engine will be used" >&2
  fi
fi
