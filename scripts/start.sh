#!/usr/bin/env bash
# Set everything up on a fresh machine and start the browser game on http://127.0.0.1:8000
# (SQLite in ./data). `scripts/start.sh --terminal` plays in the terminal instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "${1:-}" = "--terminal" ]; then
  shift
  exec .venv/bin/paxh play "$@"
fi
exec .venv/bin/paxh serve "$@"
