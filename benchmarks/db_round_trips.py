"""Database work per player action, counted (issue 37, P1): SQLite and PostgreSQL side by side.

Timings on a loaded machine are noise; counts are not. This plays N actions of a two-player
game through `Service.act` (the path a WebSocket or API action takes) and, separately, lets a
game of two heuristic bots play N actions on the server's own bot seats (lease included), on
each database, and counts while it does:

- statements: SQLAlchemy's `before_cursor_execute` (what our code sends);
- round trips: every request psycopg waits for a reply to (its `execute` generator: statements,
  and the BEGIN, COMMIT and ROLLBACK it sends of its own; PostgreSQL only);
- transactions begun, commits, rollbacks (SQLAlchemy's connection events);
- pool checkouts and new connections (the pool's `checkout` and `connect`);
- advisory lock calls, NOTIFYs sent (statements naming `pg_advisory` / `pg_notify`);
- notifications heard on the server's LISTEN connection.

    .venv/bin/python benchmarks/db_round_trips.py --actions 40 --database-url sqlite \
        --database-url "$PAXH_TEST_DATABASE_URL"

`sqlite` is a fresh file; a PostgreSQL URL gets a fresh database of its own on that server.
tests/web/test_pg_round_trips.py bounds the same counts (`count_actions`).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

KEYS = ("statements", "round_trips", "begins", "commits", "rollbacks", "checkouts", "connects",
        "advisory_locks", "notify_sent", "notify_heard", "lease_statements", "close_tasks")
# CPU, in microseconds: of this process (the server's work) and of the database's processes
# (PostgreSQL's backends; SQLite runs inside the process). Less noisy than wall time on a busy
# machine, not a count: printed beside the counts, never bounded by the test
CPU_KEYS = ("server_cpu_us", "db_cpu_us")


class Counts:
    """Counters fed by SQLAlchemy's and psycopg's hooks while `on` is set."""

    def __init__(self) -> None:
        self.c: Counter[str] = Counter()
        self.on = False

    def add(self, key: str, n: int = 1) -> None:
        if self.on:
            self.c[key] += n

    def snapshot(self) -> dict[str, int]:
        return {k: self.c[k] for k in KEYS + CPU_KEYS}


def _pg_cpu(url: str) -> float:
    """CPU seconds used so far by the PostgreSQL cluster behind `url` (the postmaster's children,
    read from /proc: the cluster must run on this machine); 0 when it cannot be read."""
    import psycopg
    from sqlalchemy.engine import make_url
    try:
        with psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False),
                             autocommit=True) as conn:
            data_dir = conn.execute("SHOW data_directory").fetchone()[0]  # type: ignore[index]
        master = int(Path(data_dir, "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master or int(stat.parent.name) == master:   # ppid, or the postmaster
                total += (int(fields[11]) + int(fields[12])) / tick
        return total
    except (OSError, ValueError, psycopg.Error):
        return 0.0


@contextmanager
def _cpu(counts: Counts, url: str) -> Iterator[None]:
    """Add the CPU this process and the database used meanwhile to counts (microseconds)."""
    pg = url.startswith("postgresql")
    db0, p0 = _pg_cpu(url) if pg else 0.0, time.process_time()
    yield
    counts.c["server_cpu_us"] += int((time.process_time() - p0) * 1e6)
    counts.c["db_cpu_us"] += int(((_pg_cpu(url) if pg else 0.0) - db0) * 1e6)


def _hook_engine(counts: Counts, engine: sa.engine.Engine) -> None:
    def before_execute(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        counts.add("statements")
        low = statement.lower()
        counts.add("advisory_locks", low.count("pg_advisory"))
        counts.add("notify_sent", low.count("pg_notify"))
        counts.add("lease_statements", "bot_lease_until" in low and "update" in low)

    sa.event.listen(engine, "before_cursor_execute", before_execute)
    sa.event.listen(engine, "begin", lambda conn: counts.add("begins"))
    sa.event.listen(engine, "commit", lambda conn: counts.add("commits"))
    sa.event.listen(engine, "rollback", lambda conn: counts.add("rollbacks"))
    sa.event.listen(engine.pool, "checkout", lambda *a: counts.add("checkouts"))
    sa.event.listen(engine.pool, "connect", lambda *a: counts.add("connects"))


@contextmanager
def _psycopg_round_trips(counts: Counts) -> Iterator[None]:
    """Count every reply psycopg waits for: its `execute` generator, one per round trip (the
    statement, or a BEGIN/COMMIT/ROLLBACK it sends itself). The LISTEN connection's own waits
    for notifications do not go through it."""
    try:
        import psycopg._connection_base as cb
        import psycopg._cursor_base as cur
        import psycopg.generators as gen
    except ImportError:
        yield
        return
    original = gen.execute

    def execute(pgconn: Any) -> Any:
        counts.add("round_trips")
        return original(pgconn)

    saved = (cur.execute, gen.execute)
    cur.execute = gen.execute = execute
    try:
        yield
    finally:
        cur.execute, gen.execute = saved
    del cb


def _fresh_url(url: str, tmp: str) -> str:
    if url == "sqlite":
        return f"sqlite:///{tmp}/paxh-{uuid.uuid4().hex[:8]}.sqlite3"
    import psycopg
    from sqlalchemy.engine import make_url
    base = make_url(url)
    name = "paxh_rt_" + uuid.uuid4().hex[:10]
    with psycopg.connect(base.set(drivername="postgresql").render_as_string(hide_password=False),
                         autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False)


def _legal(api: Any, state: Any, seat: int, rng: random.Random) -> dict:
    """A random legal action of `seat` (a range: a random value in it; never undo)."""
    options = []
    for d in api.legal_actions(state, seat):
        if d["kind"] == "range":
            options.append({**d["action"], d["field"]: rng.randint(d["min"], d["max"])})
        else:
            options.extend(o for o in d["options"] if o.get("type") != "undo")
    return rng.choice(options)


async def _people(svc: Any, counts: Counts, n: int, seed: int) -> int:
    """n actions of a two-player game of people, through Service.act; returns how many."""
    from pax_hispanica.web.engine_port import api
    from pax_hispanica.web.play.model import Rights
    rng = random.Random(seed)
    live = await svc.create_game(2, [{"kind": "human"}, {"kind": "human"}], seed=seed)
    done = 0
    for _ in range(n):
        if live.over:
            break
        seat = api.acting(live.state)[0]
        action = _legal(api, live.state, seat, rng)
        counts.on = True
        await svc.act(Rights(live.id, "seat", frozenset([seat])), action, live.version)
        counts.on = False
        done += 1
    return done


async def _bots(svc: Any, counts: Counts, n: int, seed: int, games: int, delay: float) -> int:
    """`games` games of two heuristic bots moving `delay` s apart (the server's pacing), counted
    from their creation until n actions are stored in all (or they end); returns how many."""
    svc.bot_delay = delay
    counts.on = True
    lives = [await svc.create_game(2, [{"kind": "bot", "bot_kind": "heuristic"}] * 2, seed=seed + i)
             for i in range(games)]
    deadline = time.monotonic() + 120
    while (sum(g.version for g in lives) < n and not all(g.over for g in lives)
           and time.monotonic() < deadline):
        await asyncio.sleep(0.01)
    counts.on = False
    for live in lives:
        if live.bot_task is not None:
            live.bot_task.cancel()
    return sum(g.version for g in lives)


async def _background(svc: Any, counts: Counts) -> int:
    """What runs without any action, once: the bot poll (PostgreSQL) and the presence heartbeat
    over every game in memory, each given a listener; returns the games watched."""
    async def listener(live: Any) -> None:
        return None

    for live in svc.live.values():
        live.listeners.add(listener)
    counts.on = True
    if svc.pg:
        await svc.storage.orphan_bot_games(50)
    if hasattr(svc.presence, "heartbeat"):
        await svc.presence.heartbeat()
    else:   # before issue 37's batching (commit 0d0a007): heartbeat_forever's body, a read a game
        await svc.storage.mark_seen(list(svc.presence.connections))
        for live in list(svc.live.values()):
            if live.listeners:
                await svc.presence.refresh(live)
    counts.on = False
    return len(svc.live)


async def count_actions(url: str, actions: int = 40, seed: int = 7, bot_games: int = 4,
                        bot_delay: float = 0.2, extra_games: int = 0) -> dict[str, dict]:
    """Counts on one database (a fresh one made from `url`): "people" (n actions through
    Service.act), "bots" (`bot_games` bot games at `bot_delay` until n actions), "background" (one
    bot poll and one presence heartbeat over the games in memory, `extra_games` more games of
    people among them; "actions": the games). Each has "actions" and KEYS."""
    from pax_hispanica.web.db import schema
    from pax_hispanica.web.play.service import Service

    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        db_url = _fresh_url(url, tmp)
        schema.migrate(db_url)
        counts = Counts()
        svc = Service(db_url, bot_delay=0.0, bot_processes=0)
        for eng in (svc.storage.engine.sync_engine, svc.storage.sync_engine):
            if eng is not None:
                _hook_engine(counts, eng)
        heard = svc._on_notify

        async def on_notify(payload: str) -> None:
            counts.add("notify_heard")
            await heard(payload)

        svc._on_notify = on_notify  # type: ignore[method-assign]
        # a connection closed in a task of its own (SQLAlchemy's `async with engine.connect()`):
        # three turns of the event loop, each behind everything then ready (issue 37, P1)
        loop = asyncio.get_running_loop()

        def task_factory(loop: Any, coro: Any, **kw: Any) -> asyncio.Task:
            if getattr(coro, "__qualname__", "").endswith("Connection.close"):
                counts.add("close_tasks")
            return asyncio.Task(coro, loop=loop, **kw)

        loop.set_task_factory(task_factory)
        with _psycopg_round_trips(counts):
            await svc.start()
            await asyncio.sleep(0.3)            # the LISTEN connection is up
            try:
                for _ in range(extra_games):
                    await svc.create_game(2, [{"kind": "human"}, {"kind": "human"}])
                with _cpu(counts, db_url):
                    played = await _people(svc, counts, actions, seed)
                await asyncio.sleep(0.3)        # late notifications still count (counts.on is off: none do)
                out["people"] = {"actions": played, **counts.snapshot()}
                if bot_games:
                    counts.c.clear()
                    with _cpu(counts, db_url):
                        played = await _bots(svc, counts, actions, seed + 1, bot_games, bot_delay)
                    out["bots"] = {"actions": played, **counts.snapshot()}
                    await asyncio.sleep(0.5)    # the cancelled bot tasks release their leases
                counts.c.clear()
                watched = await _background(svc, counts)
                out["background"] = {"actions": watched, **counts.snapshot()}
            finally:
                await svc.close()
    return out


def per_action(c: dict) -> dict[str, float]:
    return {k: c[k] / max(1, c["actions"]) for k in KEYS + CPU_KEYS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--actions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bot-games", type=int, default=4, help="bot games playing the bots' actions at once")
    ap.add_argument("--bot-delay", type=float, default=0.2, help="the server's pause before each bot move (s)")
    ap.add_argument("--extra-games", type=int, default=0,
                    help="more games of people in memory for the background loops (the bot poll, the heartbeat)")
    ap.add_argument("--database-url", action="append", default=[],
                    help="sqlite (a fresh file) or a PostgreSQL URL; give it once per database")
    args = ap.parse_args()
    urls = args.database_url or ["sqlite"]
    results = {("sqlite" if u == "sqlite" else "postgresql"): asyncio.run(count_actions(u, args.actions, args.seed, args.bot_games,
                                                                              args.bot_delay, args.extra_games))
               for u in urls}
    names = list(results)
    for game in ("people", "bots", "background"):
        unit = "game in memory" if game == "background" else "action"
        played = ", ".join(f"{n}: {results[n][game]['actions']}" for n in names)
        print(f"\nper {unit}, {game} ({played})")
        print(f"{'':16}" + "".join(f"{n:>12}" for n in names))
        for k in KEYS + CPU_KEYS:
            print(f"{k:16}" + "".join(f"{per_action(results[n][game])[k]:>12.2f}" for n in names))


if __name__ == "__main__":
    main()
