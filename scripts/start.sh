#!/usr/bin/env bash
# Set up what the game needs on a fresh machine (scripts/setup.sh game) and start the browser game on http://127.0.0.1:8000
# (SQLite in ./data). `scripts/start.sh --terminal` plays in the terminal instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh game     # the web extra and the compiled engine, from requirements/game.txt
if [ "${1:-}" = "--terminal" ]; then
  shift
  exec .venv/bin/paxh play "$@"
fi
exec .venv/bin/paxh serve "$@"
