"""Rate limits per client address (the `limits` library, moving window, memory).

    PAXH_RATE_CREATE   games created (POST /api/games, the lobby form)   default "30/minute"
    PAXH_RATE_ACT      actions (POST /api/act, /api/seat/.../bot, WebSocket act/leave/takeover)  default "20/second"
    PAXH_RATE_LOGIN    login attempts per address                 default "10/minute;60/hour"
    PAXH_RATE_LOGIN_NAME  login attempts per user name, any address  default "20/hour"
    PAXH_RATE_REGISTER accounts registered per address            default "5/minute;20/hour"
    PAXH_RATE_RESET    password-reset mails asked per address     default "5/hour"

A value is anything `limits.parse` reads ("30/minute", "5 per second",
"100/hour;10/second"); "0", "off" or "" turns that limit off (the load
benchmark plays 100 games from one address). The counts live in this process:
with several servers each one counts its own requests, so a client that
spreads its requests over N servers gets up to N times the limit (fine for
stopping a runaway client; a shared store would need Redis).

The address is the connection's peer. Behind a reverse proxy every client has
the proxy's address: run uvicorn with --proxy-headers (or give each server its
own limits) there.
"""
from __future__ import annotations

import math
import os
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .model import ServerError

DEFAULTS = {"create": "30/minute", "act": "20/second",
            # accounts (issue 16): tries per address, and per user name from any address
            "login": "10/minute;60/hour", "login_name": "20/hour", "register": "5/minute;20/hour",
            "reset": "5/hour"}
ENV = {"create": "PAXH_RATE_CREATE", "act": "PAXH_RATE_ACT", "login": "PAXH_RATE_LOGIN",
       "login_name": "PAXH_RATE_LOGIN_NAME", "register": "PAXH_RATE_REGISTER", "reset": "PAXH_RATE_RESET"}
OFF = {"", "0", "off", "none", "false"}


class RateLimited(ServerError):
    """A refused request over its rate limit: 429, with when to try again."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__("rate_limited", f"too many {kind} requests from this address; "
                                         f"try again in {retry_after} s", status=429)
        self.retry_after = retry_after

    def as_dict(self) -> dict:
        return {**super().as_dict(), "retry_after": self.retry_after}


def _items(spec: str | None) -> list[RateLimitItem]:
    if spec is None or spec.strip().lower() in OFF:
        return []
    return parse_many(spec)


class RateLimits:
    """`check(kind, address)` raises RateLimited when `address` is over a limit
    of `kind`; a request that is refused is not counted."""

    def __init__(self, limits: dict[str, str | None] | None = None) -> None:
        limits = limits or {}
        self.items = {kind: _items(limits[kind] if kind in limits else os.environ.get(ENV[kind], default))
                      for kind, default in DEFAULTS.items()}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

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
