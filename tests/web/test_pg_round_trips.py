"""Issue 37 (P1): what PostgreSQL was slow from, kept fixed. A bot move within the lease's renewal
period takes no lease (each take was a transaction), a take is one statement, the leases of all
a server's bot games are renewed in one statement, and the pool keeps enough connections open
that a busy server does not open a new backend per use.

And the database work of an action and of the background loops, counted on both databases by
benchmarks/db_round_trips.py (SQLAlchemy's and psycopg's hooks): a person's action is one
statement and one round trip on PostgreSQL (three statements and one commit on SQLite), a read
of one statement is one round trip (psycopg's BEGIN and ROLLBACK made it three), and the bot
poll and the presence heartbeat cost a statement or two for every game in memory together; on
PostgreSQL no connection is closed in a task of its own (three turns of the event loop each)."""
from __future__ import annotations

import asyncio

import pytest

from pax_hispanica.web.play.bot_seats import BotSeats
from pax_hispanica.web.db.store import Storage
from support import load_benchmark

from .conftest import NO_PG, PG_URL
from .helpers import run_in_own_loop

pytestmark = pytest.mark.timeout(60)


class _Leases:
    pg = True

    def __init__(self, answers: list[bool] | None = None) -> None:
        self.takes = 0
        self.answers = answers or []
        self.renewals: list[list[str]] = []
        self.lost: set[str] = set()      # games whose lease another server has taken

    async def renew_leases(self, gids: list[str], me: str, seconds: float) -> set[str]:
        self.renewals.append(sorted(gids))
        return set(gids) - self.lost

    async def take_lease(self, gid: str, me: str, seconds: float) -> bool:
        self.takes += 1
        return self.answers.pop(0) if self.answers else True

    async def release_lease(self, gid: str, me: str) -> None:
        pass


def _seats(storage: _Leases) -> BotSeats:
    return BotSeats(storage, None, "node", 0.0, 0, None, None, None)  # type: ignore[arg-type]


def test_a_bot_move_soon_after_the_lease_was_taken_does_not_take_it_again():
    async def main() -> None:
        storage = _Leases()
        seats = _seats(storage)
        assert await seats._lease("g") and await seats._lease("g") and await seats._lease("g")
        assert storage.takes == 1                          # one take, two moves within the period
        assert await seats._lease("h") and storage.takes == 2   # per game
        seats._renewed["g"] -= seats.LEASE_RENEW_SECONDS   # the renewal period passed
        assert await seats._lease("g") and storage.takes == 3
        await seats._release("g")                          # released: the next move takes it
        assert await seats._lease("g") and storage.takes == 4
        # a refused take (another server has the lease) is not remembered as ours
        refused = _Leases([False, True])
        other = _seats(refused)
        assert not await other._lease("g") and "g" not in other._renewed
        assert await other._lease("g") and refused.takes == 2

    run_in_own_loop(main())


def test_sqlite_never_takes_a_lease():
    class _Sqlite(_Leases):
        pg = False

    async def main() -> None:
        storage = _Sqlite()
        assert await _seats(storage)._lease("g") and storage.takes == 0

    run_in_own_loop(main())


def test_the_postgresql_pool_keeps_its_connections():
    storage = Storage("postgresql+psycopg://nobody@127.0.0.1:1/none")   # no connection is made
    try:
        assert storage.engine.pool.size() == Storage.POOL_SIZE >= 30
        assert storage.engine.pool._max_overflow == Storage.MAX_OVERFLOW
    finally:
        run_in_own_loop(storage.close())


def test_the_leases_of_all_the_bot_games_are_renewed_in_one_statement():
    async def main() -> None:
        storage = _Leases()
        seats = _seats(storage)
        events = {}
        for gid in ("a", "b", "c", "d"):
            assert await seats._lease(gid)
            events[gid] = seats._held[gid] = asyncio.Event()
        assert storage.takes == 4
        await seats._renew_all()                      # all taken just now: nothing is due
        assert storage.renewals == []
        for gid in events:
            seats._renewed[gid] -= seats.LEASE_RENEW_SECONDS / 2
        storage.lost = {"c"}                          # another server took c's lease meanwhile
        await seats._renew_all()
        assert storage.renewals == [["a", "b", "c", "d"]]   # one statement for the four games
        assert [g for g, e in events.items() if e.is_set()] == ["c"]
        # the renewed games' next moves take nothing; c's takes again (and is refused)
        storage.answers = [False]
        assert await seats._lease("a") and await seats._lease("b") and await seats._lease("d")
        assert storage.takes == 4
        assert not await seats._lease("c") and storage.takes == 5

    run_in_own_loop(main())


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_database_work_of_an_action_and_of_the_background_loops(backend):
    if backend == "postgres" and not PG_URL:
        pytest.skip(NO_PG)
    rt = load_benchmark("db_round_trips")
    url = "sqlite" if backend == "sqlite" else PG_URL
    # a few games in memory for the background loops, then 30 people's actions
    counts = run_in_own_loop(rt.count_actions(url, actions=30, bot_games=0, extra_games=6))
    people, background = counts["people"], counts["background"]
    n = people["actions"]
    assert n == 30
    assert people["advisory_locks"] == background["advisory_locks"] == 0
    if backend == "sqlite":
        assert people["statements"] <= 3 * n and people["commits"] <= n
    else:
        # one statement (version and seat check, insert, NOTIFY), in autocommit: no COMMIT
        assert people["statements"] <= n and people["commits"] == 0
        assert people["notify_sent"] == n
        assert people["round_trips"] <= n + 1       # + one-time set-up of a fresh pooled connection
        assert people["checkouts"] <= n
        # and its connection goes back to the pool in the action's own task: SQLAlchemy's `async
        # with engine.connect()` closed it in a task of its own, three more turns of the event
        # loop behind everything then ready (the largest wait after the round trip under load)
        assert people["close_tasks"] == 0
        assert background["close_tasks"] == 0
    # the bot poll (PostgreSQL) and a presence heartbeat over the 7 games in memory: a statement
    # each, a round trip each (a read in a transaction was three; the heartbeat read each game)
    assert background["actions"] == 7
    assert background["statements"] <= 2
    assert background["round_trips"] <= 3
