#!/usr/bin/env bash
# Print deploy/nginx/paxh.conf.template with its @NAME@ fields filled in from the environment:
#   PAXH_SERVER_NAME  (required) the public host name, e.g. game.example.org
#   PAXH_TLS_CERT     (required) the certificate chain, PEM, e.g. /etc/letsencrypt/live/NAME/fullchain.pem
#   PAXH_TLS_KEY      (required) its private key, PEM
#   PAXH_BACKENDS     the `paxh serve` addresses, space-separated (default: 127.0.0.1:8001 127.0.0.1:8002)
#   PAXH_HTTPS_LISTEN nginx's TLS address (default 443)
#   PAXH_HTTP_LISTEN  nginx's plain-HTTP address, which only redirects to https (default 80)
#   PAXH_PROXY_BIND   the address nginx connects to the servers from (default 127.0.0.2, for servers
#                     on this host); "off" for servers on other hosts (then name nginx's address there
#                     in their PAXH_FORWARDED_ALLOW_IPS)
# e.g.  PAXH_SERVER_NAME=game.example.org PAXH_TLS_CERT=... PAXH_TLS_KEY=... \
#         bash deploy/nginx/render.sh > /etc/nginx/sites-available/paxh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${PAXH_SERVER_NAME:?set PAXH_SERVER_NAME to the public host name}"
: "${PAXH_TLS_CERT:?set PAXH_TLS_CERT to the certificate chain (PEM)}"
: "${PAXH_TLS_KEY:?set PAXH_TLS_KEY to the private key (PEM)}"
backends=""
for b in ${PAXH_BACKENDS:-127.0.0.1:8001 127.0.0.1:8002}; do
  # a server that refuses a connection is left alone for 10 s; the other takes its requests
  backends+="    server $b max_fails=1 fail_timeout=10s;"$'\n'
done
for v in "$PAXH_SERVER_NAME" "$PAXH_TLS_CERT" "$PAXH_TLS_KEY" "${PAXH_HTTPS_LISTEN:-443}" "${PAXH_HTTP_LISTEN:-80}" \
         "${PAXH_PROXY_BIND:-127.0.0.2}"; do
  case "$v" in *[[:space:]\;\{\}\|]*) echo "render.sh: '$v' has a space or one of ; { } |" >&2; exit 2;; esac
done
BACKENDS="${backends%$'\n'}" python3 - "$here/paxh.conf.template" <<'PY'
import os, sys
text = open(sys.argv[1]).read()
bind = os.environ.get("PAXH_PROXY_BIND", "127.0.0.2")
bind_line = "        # proxy_bind: off (nginx connects from its default address)" if bind in ("", "off") \
    else f"        proxy_bind {bind};"
fields = {"PROXY_BIND": bind_line, "SERVER_NAME": os.environ["PAXH_SERVER_NAME"], "TLS_CERT": os.environ["PAXH_TLS_CERT"],
          "TLS_KEY": os.environ["PAXH_TLS_KEY"], "HTTPS_LISTEN": os.environ.get("PAXH_HTTPS_LISTEN", "443"),
          "HTTP_LISTEN": os.environ.get("PAXH_HTTP_LISTEN", "80"), "BACKENDS": os.environ["BACKENDS"]}
out = []
for line in text.splitlines(keepends=True):
    if not line.lstrip().startswith("#"):          # the comments keep naming the fields
        for k, v in fields.items():
            line = line.replace(f"@{k}@", v)
    out.append(line)
sys.stdout.write("".join(out))
PY
