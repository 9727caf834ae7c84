#!/usr/bin/env bash
# Set up what the game needs on a fresh machine (scripts/setup.sh game) and start the browser game on http://127.0.0.1:8000
# (SQLite in ./data). `scripts/start.sh --terminal` plays in the terminal instead.
#
# Mail: with no PAXH_SMTP_URL, a local SMTP catcher (aiosmtpd, on 127.0.0.1:8025) takes every email the game sends
# (turn notifications, lost-password links) and writes it to data/mail.log, so the links can be followed on this
# machine; nothing leaves it. PAXH_SMTP_URL=smtp://... sends through a real mail server; PAXH_MAIL=off starts no
# catcher, and the pages then say that email is off.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh game     # the web extra and the compiled engine, from requirements/game.txt
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
