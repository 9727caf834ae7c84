#!/usr/bin/env bash
# Write the lock files again from pyproject.toml's dependencies, with uv (`pip install uv` if it is
# not on PATH; this script puts it in a throwaway venv):
#   requirements/all.txt    every extra (scripts/setup.sh all, scripts/test.sh)
#   requirements/game.txt   the web extra and the compiled engine's build (scripts/setup.sh game,
#                           scripts/start.sh), each version the one of all.txt
# Pins already in the files are kept; `bash scripts/lock.sh --upgrade` (or --upgrade-package NAME)
# moves them. The target is the project's machines: CPython 3.11 on Linux x86_64.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-$(command -v uv || true)}
if [ -z "$UV" ]; then
  tmp=$(mktemp -d)
  python3 -m venv "$tmp/venv" && "$tmp/venv/bin/pip" install -q uv
  UV="$tmp/venv/bin/uv"
fi
common=(pyproject.toml --python-version 3.11.7 --python-platform x86_64-unknown-linux-gnu --no-annotate
        --custom-compile-command "bash scripts/lock.sh" "$@")
"$UV" pip compile "${common[@]}" --all-extras -o requirements/all.txt
"$UV" pip compile "${common[@]}" --extra web --extra compile -c requirements/all.txt -o requirements/game.txt
