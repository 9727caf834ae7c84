# shellcheck shell=bash
# Sourced by scripts/test.sh before pytest. Idempotent. On a clean Debian
# machine where we are root it:
#   - installs Debian's chromium when /usr/bin/chromium is missing (browser tests);
#   - installs Debian's nginx (and openssl) when missing (tests/web/test_deploy.py: the
#     deployment of deploy/ behind nginx with TLS);
#   - starts a throwaway PostgreSQL 15 cluster as the postgres user on a free
#     port with its data under /tmp, exports PAXH_TEST_DATABASE_URL, and stops
#     the cluster when the sourcing shell exits.
# Failing to provide any of them is an error (return 1): CI must run every test.

_paxh_apt_updated=
_paxh_apt_install() {
  echo "services: installing $*" >&2
  if [ "$(id -u)" -ne 0 ]; then echo "services: need root to install $*" >&2; return 1; fi
  if [ -z "$_paxh_apt_updated" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
    _paxh_apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

_paxh_services() {
  if [ ! -x /usr/bin/chromium ]; then
    _paxh_apt_install chromium || return 1
  fi
  if [ ! -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null 2>&1; then
    _paxh_apt_install nginx openssl || return 1
  fi

  if [ -n "${PAXH_TEST_DATABASE_URL:-}" ]; then
    return 0   # already running (sourced twice) or provided by the caller
  fi
  local pgbin=/usr/lib/postgresql/15/bin
  if [ ! -x "$pgbin/initdb" ]; then
    _paxh_apt_install postgresql-15 || return 1
  fi
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()') || return 1
  PAXH_PG_DIR=$(mktemp -d /tmp/paxh-pg.XXXXXX) || return 1
  chown postgres:postgres "$PAXH_PG_DIR"
  local run=()
  if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); fi
  "${run[@]}" "$pgbin/initdb" -D "$PAXH_PG_DIR/data" -A trust -U pax >"$PAXH_PG_DIR/initdb.log" 2>&1 \
    || { cat "$PAXH_PG_DIR/initdb.log" >&2; return 1; }
  "${run[@]}" "$pgbin/pg_ctl" -D "$PAXH_PG_DIR/data" -l "$PAXH_PG_DIR/server.log" -w \
    -o "-p $port -k $PAXH_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$PAXH_PG_DIR/server.log" >&2; return 1; }
  PAXH_PG_STOP="${run[*]} $pgbin/pg_ctl -D $PAXH_PG_DIR/data -m immediate stop"
  export PAXH_PG_DIR PAXH_PG_STOP
  # shellcheck disable=SC2064
  trap "$PAXH_PG_STOP >/dev/null 2>&1; rm -rf '$PAXH_PG_DIR'" EXIT
  export PAXH_TEST_DATABASE_URL="postgresql+psycopg://pax@127.0.0.1:$port/postgres"
  echo "services: PostgreSQL on 127.0.0.1:$port ($PAXH_PG_DIR)" >&2
}

_paxh_services
