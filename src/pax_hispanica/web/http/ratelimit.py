"""Rate limits per client address (and, for logins, per user name).

    PAXH_RATE_CREATE   games created (POST /api/games, the lobby form)   default "30/minute"
    PAXH_RATE_ACT      actions (POST /api/act, /api/seat/.../bot, WebSocket act/leave/takeover)  default "20/second"
    PAXH_RATE_LOGIN    login attempts per address                 default "10/minute;60/hour"
    PAXH_RATE_LOGIN_NAME  login attempts per user name, any address  default "20/hour"
    PAXH_RATE_REGISTER accounts registered per address            default "5/minute;20/hour"
    PAXH_RATE_RESET    password-reset mails asked per address     default "5/hour"
    PAXH_RATE_RESET_NAME  reset mails asked per name or address typed, any client  default "3/hour"
    PAXH_RATE_RESET_ACCOUNT  reset mails queued per account (checked by the outbox worker,
                       silently: the form's answer must not tell which names exist)  default "3/hour;10/day"
    PAXH_RATE_REPORT   chat reports per account (an anonymous browser: its user; no cookie: its
                       seat of the game)                          default "5/minute;30/day"

A value is anything `limits.parse` reads ("30/minute", "5 per second",
"100/hour;10/second"); "0", "off" or "" turns that limit off (the load
benchmark plays 100 games from one address).

Where they are counted:

- the accounts' limits (SHARED: login, login_name, register, reset) in the database, table
  rate_hits, so they hold across every server on it: with N servers a client still gets the
  limit once, not N times. A sliding window counter: one row per (limit, key, window) holding
  the window's count; a request is let through while
  count(previous window) x (the part of it still inside the last window length) + count(this
  window) stays under the limit, and counted by one conditional upsert
  (INSERT ... ON CONFLICT DO UPDATE SET n = n + 1 WHERE n < cap RETURNING n), atomic on SQLite
  and PostgreSQL alike. All of a kind's limits are counted in one transaction: a refused request
  is not counted. Keys are sha256 of the address or name (no addresses stored); a row lives two
  windows and each server deletes the expired ones once a minute, so the table holds at most a
  few rows per address or name seen in the last two hours.
- games created and actions (create, act) in this process's memory (the `limits` library,
  moving window): 20 actions a second must not cost a database write each; with several
  servers each one counts its own (fine for stopping a runaway client).

The address is the connection's peer. Behind a reverse proxy every client has
the proxy's address unless the proxy is named in PAXH_FORWARDED_ALLOW_IPS (default: nobody is
believed; security.trusted_proxies, passed to uvicorn by server.run).
"""
from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import Any

import sqlalchemy as sa
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from pax_hispanica.web import settings
from pax_hispanica.web.play.model import ServerError

DEFAULTS = {"create": "30/minute", "act": "20/second",
            # accounts (issue 16): tries per address, and per user name from any address
            "login": "10/minute;60/hour", "login_name": "20/hour", "register": "5/minute;20/hour",
            "reset": "5/hour", "reset_name": "3/hour", "reset_account": "3/hour;10/day",
            "report": "5/minute;30/day"}
ENV = {"create": "PAXH_RATE_CREATE", "act": "PAXH_RATE_ACT", "login": "PAXH_RATE_LOGIN",
       "login_name": "PAXH_RATE_LOGIN_NAME", "register": "PAXH_RATE_REGISTER", "reset": "PAXH_RATE_RESET",
       "reset_name": "PAXH_RATE_RESET_NAME", "reset_account": "PAXH_RATE_RESET_ACCOUNT",
       "report": "PAXH_RATE_REPORT"}
OFF = {"", "0", "off", "none", "false"}
SHARED = frozenset({"login", "login_name", "register", "reset", "reset_name", "report"})   # counted in the database
CLEANUP_SECONDS = 60.0
log = logging.getLogger("pax_hispanica.web")


class RateLimited(ServerError):
    """A refused request over its rate limit: 429, with when to try again."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__("rate_limited", f"too many {kind} requests from this address; "
                                         f"try again in {retry_after} s", status=429)
        self.retry_after = retry_after

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "retry_after": self.retry_after}


def _items(spec: str | None) -> list[RateLimitItem]:
    if spec is None or spec.strip().lower() in OFF:
        return []
    return parse_many(spec)


class RateLimits:
    """`check(kind, address)` raises RateLimited when `address` is over a limit
    of `kind`; a request that is refused is not counted."""

    def __init__(self, limits: dict[str, str | None] | None = None, storage: Any = None) -> None:
        """storage: the web game's store.Storage, where the SHARED kinds are counted (without
        one, every kind is counted in memory)."""
        limits = limits or {}
        self.items = {kind: _items(limits[kind] if kind in limits else settings.raw(ENV[kind], default))
                      for kind, default in DEFAULTS.items()}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.storage = storage
        self.next_cleanup = 0.0

    async def hit(self, kind: str, who: str | None) -> None:
        """`check` for any kind: a SHARED kind is counted in the database when there is one."""
        if self.storage is None or kind not in SHARED:
            self.check(kind, who)
            return
        items = self.items.get(kind)
        if not items:
            return
        from pax_hispanica.web.http.schema import rate_hits

        key = hashlib.sha256(f"{kind}\0{who or 'unknown'}".encode()).hexdigest()[:32]
        now = time.time()
        async with self.storage.write() as conn:   # all or nothing: a refused request is not counted
            for item in items:
                await _hit_one(conn, rate_hits, self.storage.pg, kind, item, key, now)
        if now >= self.next_cleanup:
            self.next_cleanup = now + CLEANUP_SECONDS
            try:
                async with self.storage.write() as conn:
                    await conn.execute(rate_hits.delete().where(rate_hits.c.expires < now))
            except Exception:   # a busy database: the next minute's cleanup deletes them
                log.exception("rate_hits cleanup failed")

    def describe(self) -> dict[str, str]:
        return {k: "; ".join(str(i) for i in v) or "off" for k, v in self.items.items()}

    def check(self, kind: str, address: str | None) -> None:
        items = self.items.get(kind)
        if not items:
            return
        who = address or "unknown"
        for item in items:
            if not self.limiter.test(item, kind, who):
                stats = self.limiter.get_window_stats(item, kind, who)
                raise RateLimited(kind, max(1, math.ceil(stats.reset_time - time.time())))
        for item in items:
            self.limiter.hit(item, kind, who)


async def _hit_one(conn: Any, table: sa.Table, pg: bool, kind: str, item: RateLimitItem, key: str,
                   now: float) -> None:
    """Count one request against `item` in its current window, or raise RateLimited (sliding
    window counter: the previous window's count weighs by how much of it is still inside the
    last `window` seconds)."""
    from sqlalchemy.dialects import postgresql, sqlite

    window = item.get_expiry()
    bucket = int(now // window)
    scope = f"{kind}:{window}"   # not the amount: servers whose settings differ share the counts
    c = table.c
    row = sa.and_(c.scope == scope, c.key == key)

    async def count(b: int) -> int:
        n = (await conn.execute(sa.select(c.n).where(row, c.bucket == b))).scalar_one_or_none()
        return n or 0

    prev = await count(bucket - 1)
    weight = 1.0 - (now - bucket * window) / window     # the previous window's part still counted
    cap = math.floor(item.amount - prev * weight + 1e-9)  # this window's count must stay under it
    counted = None
    if cap >= 1:
        insert = (postgresql if pg else sqlite).insert(table).values(
            scope=scope, key=key, bucket=bucket, n=1, expires=(bucket + 2) * window)
        upsert = insert.on_conflict_do_update(index_elements=[c.scope, c.key, c.bucket],
                                              set_={"n": c.n + 1}, where=c.n < cap).returning(c.n)
        counted = (await conn.execute(upsert)).scalar_one_or_none()
    if counted is None:
        raise RateLimited(kind, _retry_after(item.amount, window, prev, await count(bucket), now - bucket * window))


def _retry_after(amount: int, window: int, prev: int, cur: int, into: float) -> int:
    """Seconds until one more request fits: `into` seconds into this window, which holds `cur`
    requests after the previous window's `prev`."""
    if cur + 1 <= amount and prev > 0:   # later in this window, as the previous one weighs less
        wait = (1.0 - (amount - cur - 1) / prev) * window - into
    else:                                # in the next window, once this one weighs little enough
        wait = window - into + max(0.0, 1.0 - (amount - 1) / max(cur, 1)) * window
    return max(1, math.ceil(wait))


class TokenBucket:
    """A connection's message budget (issue 37, N3): `burst` tokens, refilled at `rate` a second;
    `take(n)` spends n if it has them. Counted in the connection's own memory: it lives and dies
    with the socket, and costs a subtraction per message."""

    def __init__(self, rate: float, burst: float, clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()

    def take(self, n: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False

    def wait(self, n: float = 1.0) -> float:
        """Seconds until n tokens are there."""
        return max(0.0, (n - self.tokens) / self.rate)
