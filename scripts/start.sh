#!/usr/bin/env bash
# Set up what the game needs on a fresh machine (scripts/setup.sh game) and start the browser game on http://127.0.0.1:8000
# (SQLite in ./data). `scripts/start.sh --terminal` plays in the terminal instead.
#
# Mail: with no PAXH_SMTP_URL, a local SMTP catcher (aiosmtpd, on 127.0.0.1:8025) takes every email the game sends
# (turn notifications, lost-password links) and writes it to data/mail.log, so the links can be followed on this
# machine; nothing leaves it. PAXH_SMTP_URL=smtp://... sends through a real mail server; PAXH_MAIL=off starts no
# catcher, and the pages then say that email is off.
#
# The compiled engine: on the first start (or after an edit to the engine) it is built in the background, niced,
# while the game starts at once on the pure-Python engine, which plays the same games more slowly. That server
# keeps the pure engine to the end (its bot and analysis worker processes too: PAXH_PURE=1), and says so in its
# log; the next start, once the build is done, runs the compiled engine. PAXH_REQUIRE_COMPILED=1 waits for the
# build instead; PAXH_PURE=1 builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh game --build-in-background   # the web extra from requirements/game.txt; the compiled engine
if [ "${PAXH_PURE:-0}" != 1 ] && ! engine=$(.venv/bin/python scripts/compile_engine.py status 2>&1); then
  # not (yet) built: this server and every process it starts run the pure engine, even once the build is done
  # (one engine per server: its workers are sent the server's objects)
  echo "Engine: $engine. This server runs the pure-Python engine (PAXH_PURE=1) to its end; the next start" \
       "runs the compiled one once it is built (python scripts/compile_engine.py status)." >&2
  export PAXH_PURE=1
fi
if [ "${1:-}" = "--terminal" ]; then
  shift
  exec .venv/bin/paxh play "$@"
fi
catcher=""
if [ -n "${PAXH_SMTP_URL:-}" ]; then
  echo "Mail goes out through PAXH_SMTP_URL (${PAXH_SMTP_URL%%://*}://${PAXH_SMTP_URL##*@})." >&2
elif [ "${PAXH_MAIL:-}" = "off" ]; then
  echo "Mail is off (PAXH_MAIL=off): no email goes out, and the pages say so." >&2
elif .venv/bin/python -c "import aiosmtpd" 2>/dev/null \
     && ! .venv/bin/python -c "import socket; socket.create_connection(('127.0.0.1', 8025), 0.5)" 2>/dev/null; then
  mkdir -p data
  PYTHONUNBUFFERED=1 .venv/bin/python -m aiosmtpd -n -l 127.0.0.1:8025 -c aiosmtpd.handlers.Debugging stdout >> data/mail.log 2>&1 &
  catcher=$!
  trap 'kill "$catcher" 2>/dev/null || true' EXIT INT TERM
  export PAXH_SMTP_URL="smtp://127.0.0.1:8025"
  echo "Mail is caught on this machine: every email the game sends is written to data/mail.log (a local SMTP" \
       "catcher on 127.0.0.1:8025; nothing leaves the machine). Set PAXH_SMTP_URL to send real mail." >&2
else
  echo "Mail is off: no PAXH_SMTP_URL, and no local catcher (aiosmtpd missing, or 127.0.0.1:8025 taken)." \
       "Set PAXH_SMTP_URL=smtp://host:port to send email; the pages say that email is off meanwhile." >&2
fi
if [ -z "$catcher" ]; then
  exec .venv/bin/paxh serve "$@"
fi
.venv/bin/paxh serve "$@"
