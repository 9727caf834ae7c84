"""Storage: the database connection every package shares (one `write()` transaction, one `read()`
connection), and the statements on games, seats, actions and users, on SQLite or PostgreSQL. Each
feature runs its own tables' statements in its own package (accounts/, social/, notify/, http/).

The same SQLAlchemy Core statements run on both databases. SQLite writes run synchronously on
the event loop's thread (a WAL commit takes well under a millisecond, they are serialized for
free, and no thread waits for the GIL; handing each statement to aiosqlite's thread made p99
latency 40x worse under load),
reads use aiosqlite. Two things differ by database, on purpose:

- storing an action: on PostgreSQL one statement in one round trip (a CTE: conditional
  `UPDATE games`, `INSERT INTO actions`, `pg_notify`; 0.7 ms instead of 3.5 ms for the same
  steps as separate statements), on SQLite the same checks as a transaction;
- the bot lease (PostgreSQL only: with one server there is nothing to lease).
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.play.model import Seat, ServerError

STORED, LOST, SEAT_CHANGED = "stored", "lost", "seat_changed"

# version check, seat controller check, insert and NOTIFY in one statement: the seat's kind is
# read in the same snapshot as the version, so a seat handed to a bot on another server a
# moment ago refuses its former player's action here
_STORE_PG = sa.text("""
WITH g AS (
    UPDATE games SET version = :n1, updated_at = now(), bot_turn = :bot_turn,
           status = COALESCE(:status, status), result = COALESCE(:result, result)
    WHERE id = :gid AND version = :n AND status = 'active'
      AND EXISTS (SELECT 1 FROM seats WHERE game_id = :gid AND seat = :seat AND kind = :kind)
    RETURNING id),
a AS (
    INSERT INTO actions (game_id, n, action, state_hash, created_at)
    SELECT id, :n, :action, :state_hash, now() FROM g
    RETURNING game_id)
SELECT pg_notify(:chan, :payload) FROM a
""")

# the bot lease, on the database's clock (servers' clocks may disagree): taken when free,
# run out, or already ours
_NOW_PG = "extract(epoch from clock_timestamp())"
_TAKE_LEASE_PG = sa.text(f"""
UPDATE games SET bot_owner = :me, bot_lease_until = {_NOW_PG} + :secs
WHERE id = :gid AND (bot_lease_until IS NULL OR bot_lease_until < {_NOW_PG} OR bot_owner = :me)
""")
_RENEW_LEASES_PG = sa.text(f"""
UPDATE games SET bot_lease_until = {_NOW_PG} + :secs WHERE id = ANY(:gids) AND bot_owner = :me RETURNING id
""")
_RELEASE_LEASE_PG = sa.text("UPDATE games SET bot_owner = NULL, bot_lease_until = NULL "
                            "WHERE id = :gid AND bot_owner = :me")
_ORPHANS_PG = sa.text(f"""
SELECT id FROM games WHERE status = 'active' AND bot_turn
  AND (bot_lease_until IS NULL OR bot_lease_until < {_NOW_PG}) LIMIT :limit
""")


@asynccontextmanager
async def _connect(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """`engine.connect()` closed in the caller's own task. SQLAlchemy's `async with
    engine.connect()` closes the connection in a task of its own, shielded from cancellation:
    three turns of the event loop, each behind every callback then ready. On a busy server that
    was most of what a person's action waited for after its round trip to PostgreSQL (issue 37,
    P1; docs/web.md). Its close sends nothing (an autocommit connection, or a transaction already
    committed or rolled back), so there is nothing a cancellation could cut short."""
    conn = await engine.connect()
    try:
        yield conn
    finally:
        await conn.close()


class _Lost(Exception):
    """Another server stored that action number first."""


class _SeatChanged(Exception):
    """The acting seat's controller (human/bot) is not what the caller expected."""


class _Blocking:
    """A synchronous connection behind the async `execute` the service's code uses."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self.conn.execute(*args, **kwargs)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL is a property of the file (db.migrate sets it once): switching needs an exclusive
    # lock that SQLite refuses at once, without waiting, while another server's connection
    # reads, so a connection only switches a file that is not in WAL yet
    cur.execute("PRAGMA journal_mode")
    if str(cur.fetchone()[0]).lower() != "wal":
        db.use_wal(cur)
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _seat(r: Any) -> Seat:
    return Seat(r["seat"], r["kind"], r["bot_kind"], r["bot_strength"], r["name"], r["token"], r["user_id"])


class Storage:
    """The database behind the games: users, games, seats, actions, presence, bot leases."""

    POOL_SIZE = 30      # PostgreSQL: connections kept open by each server process
    MAX_OVERFLOW = 10   # ... and opened for one use past them

    def __init__(self, database_url: str) -> None:
        self.url = database_url
        self.pg = db.is_postgres(database_url)
        kwargs: dict[str, Any] = {}
        if not self.pg:
            kwargs["connect_args"] = {"timeout": 30}
        else:
            # POOL_SIZE connections stay open; past them, up to MAX_OVERFLOW more are opened and
            # closed again after each use, a new PostgreSQL backend each time: with 10 kept, 30 bot
            # games and 20 spectators opened 677 connections a minute (issue 37, P1)
            kwargs.update(pool_size=self.POOL_SIZE, max_overflow=self.MAX_OVERFLOW)
        self.engine: AsyncEngine = create_async_engine(db.async_url(database_url), **kwargs)
        # PostgreSQL: the same pool, in autocommit, for what is one statement or needs no
        # transaction (reads, storing an action, the bot lease): psycopg opens a transaction with
        # a BEGIN round trip of its own and ends it with a ROLLBACK or COMMIT round trip, so a
        # one-statement read in a transaction cost three round trips instead of one (issue 37, P1)
        self.auto: AsyncEngine = (self.engine.execution_options(isolation_level="AUTOCOMMIT") if self.pg
                                  else self.engine)
        self.sync_engine = None if self.pg else sa.create_engine(db.sync_url(database_url), **kwargs)
        if self.sync_engine is not None:
            for eng in (self.engine.sync_engine, self.sync_engine):
                sa.event.listen(eng, "connect", _sqlite_pragmas)

    async def close(self) -> None:
        await self.engine.dispose()
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Any]:
        """A write transaction. On SQLite it runs without ever yielding to the event loop, so
        transactions never interleave (SQLite has one writer anyway)."""
        if self.sync_engine is None:
            async with _connect(self.engine) as aconn, aconn.begin():   # closed after its commit: no I/O
                yield aconn
        else:
            with self.sync_engine.begin() as conn:
                yield _Blocking(conn)

    def read(self) -> Any:
        """A connection for reads (`async with storage.read() as conn`). On PostgreSQL it is in
        autocommit: each statement is one round trip and sees what was committed when it started
        (as it did in the READ COMMITTED transaction it had before, without its BEGIN and
        ROLLBACK); a read of several statements that must agree checks itself (`record_rows`)."""
        # SQLite's reads keep SQLAlchemy's own close (in a task shielded from cancellation): an
        # aiosqlite connection's return to the pool is a rollback in its thread, I/O that a
        # cancellation could cut short, unlike the autocommit close _connect relies on
        return _connect(self.auto) if self.pg else self.auto.connect()

    # ------------------------------------------------------------------ users
    async def user(self, uid: str | None) -> dict[str, Any]:
        """The browser's user, or a new one (`"new": True`)."""
        if uid:
            async with self.read() as conn:
                row = (await conn.execute(sa.select(db.users).where(db.users.c.id == uid))).mappings().first()
            if row:
                return dict(row)
        uid = secrets.token_urlsafe(18)
        async with self.write() as conn:
            await conn.execute(db.users.insert().values(id=uid, name="", lang="en"))
        return {"id": uid, "name": "", "lang": "en", "new": True}

    async def set_user(self, uid: str, **values: Any) -> None:
        async with self.write() as conn:
            await conn.execute(db.users.update().where(db.users.c.id == uid).values(**values))

    async def games_of(self, uid: str) -> list[dict[str, Any]]:
        g, s = db.games, db.seats
        # the games hosted or played: a UNION of two index lookups (ix_games_host_user, ix_seats_user);
        # an OR across the join made PostgreSQL scan every game (benchmarks/accounts.py)
        mine = sa.union(sa.select(g.c.id.label("gid")).where(g.c.host_user == uid),
                        sa.select(s.c.game_id.label("gid")).where(s.c.user_id == uid)).subquery()
        q = (sa.select(g.c.id, g.c.created_at, g.c.status, g.c.version, g.c.mode, g.c.config, g.c.host_token,
                       g.c.host_user,
                       g.c.spectator_token, s.c.seat, s.c.token)
             .select_from(g.join(mine, mine.c.gid == g.c.id)
                          .outerjoin(s, sa.and_(s.c.game_id == g.c.id, s.c.user_id == uid)))
             .order_by(g.c.created_at.desc()).limit(100))
        async with self.read() as conn:
            rows = (await conn.execute(q)).mappings().all()
        out: dict[str, dict[str, Any]] = {}
        for r in rows:
            d = out.setdefault(r["id"], {**dict(r), "config": json.loads(r["config"]), "my_seats": []})
            if r["host_user"] != uid:  # a seated player never learns the host's (or table's) link
                d["host_token"] = None
            if r["seat"] is not None:
                d["my_seats"].append({"seat": r["seat"], "token": r["token"]})
        return list(out.values())

    # ------------------------------------------------------------------ games and seats
    async def insert_game(self, game_row: dict[str, Any], seat_rows: list[Seat]) -> None:
        async with self.write() as conn:
            await conn.execute(db.games.insert().values(**game_row))
            await conn.execute(db.seats.insert(), [
                {"game_id": game_row["id"], "seat": s.seat, "kind": s.kind, "bot_kind": s.bot_kind,
                     "bot_strength": s.bot_strength, "name": s.name, "token": s.token, "user_id": s.user_id}
                for s in seat_rows])

    @staticmethod
    async def seats(conn: AsyncConnection, gid: str) -> list[Seat]:
        rows = (await conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid)
                                   .order_by(db.seats.c.seat))).mappings().all()
        return [_seat(r) for r in rows]

    async def token(self, token: str) -> tuple[Any, Any]:
        """(seat row (game_id, seat), game row (id, mode, host_token, spectator_token)) that a
        token opens; either or both None."""
        g, s = db.games, db.seats
        async with self.read() as conn:
            row = (await conn.execute(sa.select(s.c.game_id, s.c.seat).where(s.c.token == token))).first()
            if row:
                return row, None
            game = (await conn.execute(sa.select(g.c.id, g.c.mode, g.c.host_token, g.c.spectator_token)
                                       .where(sa.or_(g.c.host_token == token, g.c.spectator_token == token)))).first()
        return None, game

    async def game_seats(self, gid: str) -> list[Seat]:
        async with self.read() as conn:
            return await self.seats(conn, gid)

    async def claim_seat(self, gid: str, seat: int, uid: str) -> None:
        async with self.write() as conn:
            await conn.execute(db.seats.update().where(sa.and_(
                db.seats.c.game_id == gid, db.seats.c.seat == seat, db.seats.c.user_id.is_(None)))
                .values(user_id=uid))

    async def active_bot_games(self) -> list[str]:
        """Games waiting for a bot (resumed when a server starts on SQLite)."""
        async with self.read() as conn:
            return list((await conn.execute(sa.select(db.games.c.id).where(
                sa.and_(db.games.c.status == "active", db.games.c.bot_turn)))).scalars().all())

    # ------------------------------------------------------------------ records
    async def record_rows(self, gid: str) -> tuple[Any, list[Seat], list[tuple[Any, ...]]]:
        """(game row, seats, action rows (n, action, state_hash)) read consistently."""
        async with self.read() as conn:
            # the game row and its actions are read by separate statements, and another server
            # may store an action in between: read the version again after the actions, and
            # start over when it moved (else a count that is merely newer would read as damage)
            for _attempt in range(5):
                g = (await conn.execute(sa.select(db.games).where(db.games.c.id == gid))).mappings().first()
                if g is None:
                    raise ServerError("unknown_game", "no such game", status=404)
                seat_rows = await self.seats(conn, gid)
                rows = (await conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                                           .where(db.actions.c.game_id == gid).order_by(db.actions.c.n))).all()
                again = (await conn.execute(sa.select(db.games.c.version).where(db.games.c.id == gid))).scalar()
                if again == g["version"]:
                    return g, seat_rows, [tuple(r) for r in rows]
        raise ServerError("busy", "the game is changing too fast; try again", status=503)

    async def rows_since(self, gid: str, n: int) -> tuple[list[Seat], list[tuple[Any, ...]]]:
        """(seats, action rows from number n on) as stored now."""
        async with self.read() as conn:
            rows = (await conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                                       .where(sa.and_(db.actions.c.game_id == gid, db.actions.c.n >= n))
                                       .order_by(db.actions.c.n))).all()
            seats = await self.seats(conn, gid)
        return seats, [tuple(r) for r in rows]

    async def counts(self, gid: str) -> tuple[int, int, str, str | None] | None:
        """(games.version, stored actions, status, damage), read consistently; None while the
        game keeps moving."""
        q = sa.select(db.games.c.version, db.games.c.status, db.games.c.damage).where(db.games.c.id == gid)
        async with self.read() as conn:
            for _attempt in range(5):  # the version read again after the count: see record_rows
                version, status, damage = (await conn.execute(q)).one()
                count = (await conn.execute(sa.select(sa.func.count()).select_from(db.actions)
                                            .where(db.actions.c.game_id == gid))).scalar_one()
                if (await conn.execute(q)).one()[0] == version:
                    return version, count, status, damage
        return None

    async def fill_hashes(self, gid: str, fill: list[tuple[int, str]], undamage: str | None) -> None:
        """Store the hashes of actions from before the chain existed, and (undamage = the new
        status) clear a damage mark."""
        async with self.write() as conn:
            if fill:
                await conn.execute(db.actions.update().where(sa.and_(
                    db.actions.c.game_id == gid, db.actions.c.n == sa.bindparam("n_"),
                    db.actions.c.state_hash.is_(None))).values(state_hash=sa.bindparam("h_")),
                    [{"n_": n, "h_": h} for n, h in fill])
            if undamage is not None:
                await conn.execute(db.games.update().where(db.games.c.id == gid).values(status=undamage, damage=None))

    async def mark_damaged(self, gid: str, text: str) -> None:
        async with self.write() as conn:
            await conn.execute(db.games.update().where(db.games.c.id == gid)
                               .values(status="damaged", damage=text[:2000]))

    # ------------------------------------------------------------------ acting
    async def store_action(self, gid: str, n: int, action_json: str, result: str | None, bot_turn: bool,
                           seat: int, kind: str, state_hash: str, notify: tuple[str, str] | None) -> str:
        """Store action number n of the record, in one transaction, only if the record has
        exactly n actions and `seat` is still played by `kind` (human | bot). Returns STORED,
        LOST (another server got there first) or SEAT_CHANGED. `notify`: (channel, payload)
        sent with the commit (PostgreSQL)."""
        if self.pg:
            return await self._store_action_pg(gid, n, action_json, result, bot_turn, seat, kind, state_hash,
                                               notify or ("", ""))
        values: dict[str, Any] = {"version": n + 1, "updated_at": sa.func.now(), "bot_turn": bot_turn}
        if result is not None:
            values.update(status="over", result=result)
        try:
            async with self.write() as conn:
                now_kind = (await conn.execute(sa.select(db.seats.c.kind).where(sa.and_(
                    db.seats.c.game_id == gid, db.seats.c.seat == seat)))).scalar()
                if now_kind != kind:
                    raise _SeatChanged
                r = await conn.execute(db.games.update().where(
                    sa.and_(db.games.c.id == gid, db.games.c.version == n, db.games.c.status == "active"))
                    .values(**values))
                if r.rowcount != 1:
                    raise _Lost
                await conn.execute(db.actions.insert().values(game_id=gid, n=n, action=action_json,
                                                              state_hash=state_hash))
        except _SeatChanged:
            return SEAT_CHANGED
        except (_Lost, sa.exc.IntegrityError):
            return LOST
        return STORED

    async def _store_action_pg(self, gid: str, n: int, action_json: str, result: str | None,
                               bot_turn: bool, seat: int, kind: str, state_hash: str, notify: tuple[str, str]) -> str:
        """The same on PostgreSQL as one statement in one round trip (autocommit; a single
        statement is atomic): version and seat check, insert and NOTIFY. Which check failed is
        read afterwards (rare)."""
        chan, payload = notify
        try:
            async with _connect(self.auto) as conn:
                row = (await conn.execute(_STORE_PG, {
                    "gid": gid, "n": n, "n1": n + 1, "action": action_json, "result": result, "bot_turn": bot_turn,
                    "status": "over" if result is not None else None, "seat": seat, "kind": kind,
                    "state_hash": state_hash, "chan": chan, "payload": payload})).first()
                if row is not None:
                    return STORED
                now_kind = (await conn.execute(sa.select(db.seats.c.kind).where(sa.and_(
                    db.seats.c.game_id == gid, db.seats.c.seat == seat)))).scalar()
        except sa.exc.IntegrityError:
            return LOST
        return SEAT_CHANGED if now_kind != kind else LOST

    async def seat_to_bot(self, gid: str, seat: int, bot_kind: str, notify: tuple[str, str] | None,
                          bot_turn: Any) -> list[Seat]:
        """Hand a seat to a bot (and tell the other servers, with the commit); `bot_turn(seats)`
        says whether a bot must act then. Returns the seats as stored now."""
        async with self.write() as conn:
            await conn.execute(db.seats.update().where(sa.and_(db.seats.c.game_id == gid, db.seats.c.seat == seat))
                               .values(kind="bot", bot_kind=bot_kind))
            if notify is not None:
                await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": notify[0], "p": notify[1]})
            seats = await self.seats(conn, gid)
            await conn.execute(db.games.update().where(db.games.c.id == gid).values(bot_turn=bot_turn(seats)))
        return seats

    # ------------------------------------------------------------------ presence
    async def mark_seen(self, keys: list[tuple[str, int]]) -> None:
        """(game, seat) pairs this server has connections for: seen now."""
        if not keys:
            return
        now = time.time()
        stmt = db.seats.update().where(sa.and_(db.seats.c.game_id == sa.bindparam("gid"),
                                               db.seats.c.seat == sa.bindparam("s"))).values(last_seen=now)
        async with self.write() as conn:  # one executemany for every open seat
            await conn.execute(stmt, [{"gid": gid, "s": seat} for gid, seat in keys])

    async def last_seen(self, gid: str) -> dict[int, Any]:
        """seat -> when a server last saw a connection for it (epoch seconds; None: never)."""
        async with self.read() as conn:
            return dict((await conn.execute(sa.select(db.seats.c.seat, db.seats.c.last_seen)
                                            .where(db.seats.c.game_id == gid))).all())

    async def last_seen_many(self, gids: list[str]) -> dict[str, dict[int, Any]]:
        """last_seen of many games, in one statement per 500 games: game -> seat -> when."""
        out: dict[str, dict[int, Any]] = {gid: {} for gid in gids}
        async with self.read() as conn:
            for i in range(0, len(gids), 500):
                rows = await conn.execute(sa.select(db.seats.c.game_id, db.seats.c.seat, db.seats.c.last_seen)
                                          .where(db.seats.c.game_id.in_(gids[i:i + 500])))
                for gid, seat, seen in rows:
                    out[gid][seat] = seen
        return out

    # ------------------------------------------------------------------ bot leases (PostgreSQL)
    async def take_lease(self, gid: str, me: str, seconds: float) -> bool:
        """One statement in autocommit: one round trip, not BEGIN, UPDATE and COMMIT (issue 37, P1)."""
        async with _connect(self.auto) as conn:
            r = await conn.execute(_TAKE_LEASE_PG, {"gid": gid, "me": me, "secs": seconds})
        return r.rowcount == 1

    async def renew_leases(self, gids: list[str], me: str, seconds: float) -> set[str]:
        """Renew this server's leases on all these games in one statement (one round trip a
        renewal period for every bot game of the server, not one each); returns the games whose
        lease is still ours (the others went to another server after running out)."""
        if not gids:
            return set()
        async with _connect(self.auto) as conn:
            rows = await conn.execute(_RENEW_LEASES_PG, {"gids": list(gids), "me": me, "secs": seconds})
        return {r[0] for r in rows}

    async def release_lease(self, gid: str, me: str) -> None:
        async with _connect(self.auto) as conn:
            await conn.execute(_RELEASE_LEASE_PG, {"gid": gid, "me": me})

    async def orphan_bot_games(self, limit: int = 50) -> list[str]:
        """Active games waiting for a bot whose lease is free or ran out."""
        async with self.read() as conn:
            return list((await conn.execute(_ORPHANS_PG, {"limit": limit})).scalars().all())
