"""Issue 37 (P1): what PostgreSQL was slow from, kept fixed. A bot move within the lease's renewal
period takes no lease (each take was a transaction), a take is one statement, and the pool
keeps enough connections open that a busy server does not open a new backend per use."""
from __future__ import annotations


import pytest

from pax_hispanica.web.play.bot_seats import BotSeats
from pax_hispanica.web.db.store import Storage

from .helpers import run_in_own_loop

pytestmark = pytest.mark.timeout(60)


class _Leases:
    pg = True

    def __init__(self, answers: list[bool] | None = None) -> None:
        self.takes = 0
        self.answers = answers or []

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
