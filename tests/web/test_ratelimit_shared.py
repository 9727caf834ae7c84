"""The accounts' rate limits counted in the database (ratelimit.py, PRJ-73): atomic under
concurrent servers, Retry-After that is enough and not much more, windows that expire and rows
that are deleted, on SQLite and (marked postgres) PostgreSQL."""
from __future__ import annotations

import asyncio
import threading

import pytest
import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.http import ratelimit
from pax_hispanica.web.http.ratelimit import RateLimited, RateLimits
from pax_hispanica.web.http.schema import rate_hits


def run_apart(coro_fn) -> None:
    """asyncio.run(coro_fn()) in a thread of its own: the browser tests' Playwright keeps an
    event loop running in the main thread for the session, where asyncio.run() refuses."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro_fn())
        except BaseException as e:  # (re-raised in the test's thread below)
            errors.append(e)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if errors:
        raise errors[0]


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def _try(limits: RateLimits, kind: str, who: str) -> int | None:
    """None when let through, else the Retry-After."""
    try:
        await limits.hit(kind, who)
        return None
    except RateLimited as e:
        return e.retry_after


def test_PRJ_73_concurrent_servers_let_exactly_the_limit_through(database_url):
    """Four servers (threads, each its own connections and event loop) try 10 logins each at
    once from one address: 15 pass, whatever the interleaving."""
    db.migrate(database_url)
    passed: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(4)

    def server() -> None:
        async def run() -> None:
            storage = Storage(database_url)
            limits = RateLimits({"login": "15/minute"}, storage)
            start.wait()
            ok = 0
            for _ in range(10):
                ok += await _try(limits, "login", "10.0.0.1") is None
            await storage.close()
            with lock:
                passed.append(ok)
        asyncio.run(run())

    threads = [threading.Thread(target=server) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(passed) == 4 and sum(passed) == 15


def test_PRJ_73_retry_after_is_enough_and_windows_expire(database_url, monkeypatch):
    db.migrate(database_url)
    clock = Clock(6000.0 + 40)   # 40 s into a minute window
    monkeypatch.setattr(ratelimit.time, "time", clock)

    async def run() -> None:
        storage = Storage(database_url)
        limits = RateLimits({"register": "3/minute;5/hour"}, storage)
        for _ in range(3):
            assert await _try(limits, "register", "a") is None
        wait = await _try(limits, "register", "a")
        assert wait is not None and 20 <= wait <= 120
        assert await _try(limits, "register", "b") is None          # another address: its own count
        clock.t += wait - 2
        assert await _try(limits, "register", "a") is not None     # not yet
        clock.t += 2
        assert await _try(limits, "register", "a") is None         # then yes: Retry-After was enough
        # the hourly limit: 5 counted (the refusals were not), so the 6th waits for the hour
        clock.t += 120
        assert await _try(limits, "register", "a") is None
        wait = await _try(limits, "register", "a")
        assert wait is not None and 600 < wait <= 7200
        # every row expires within two windows of its own, and the cleanup deletes them
        clock.t += 7201
        ratelimit_rows = await _count(storage)
        assert ratelimit_rows > 0
        limits.next_cleanup = 0.0
        assert await _try(limits, "register", "a") is None
        assert await _count(storage) == 2     # only this request's rows (minute and hour) remain
        await storage.close()

    run_apart(run)


async def _count(storage: Storage) -> int:
    async with storage.read() as conn:
        return (await conn.execute(sa.select(sa.func.count()).select_from(rate_hits))).scalar_one()


def test_PRJ_73_a_refused_request_is_not_counted_in_any_of_its_limits(database_url):
    db.migrate(database_url)

    async def run() -> None:
        storage = Storage(database_url)
        limits = RateLimits({"login": "100/minute;2/hour"}, storage)
        for _ in range(2):
            assert await _try(limits, "login", "x") is None
        for _ in range(5):
            assert await _try(limits, "login", "x") is not None
        async with storage.read() as conn:
            counts = sorted((await conn.execute(sa.select(rate_hits.c.n))).scalars().all())
        assert counts == [2, 2]     # the minute's count did not grow with the hour's refusals
        await storage.close()

    run_apart(run)


@pytest.mark.parametrize("kind", ["create", "act"])
def test_the_game_limits_stay_in_memory(kind, tmp_path):
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    db.migrate(url)

    async def run() -> None:
        storage = Storage(url)
        limits = RateLimits({kind: "2/minute"}, storage)
        assert [await _try(limits, kind, "x") is None for _ in range(3)] == [True, True, False]
        assert await _count(storage) == 0
        await storage.close()

    run_apart(run)
