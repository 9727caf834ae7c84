"""Open tables (issue 16): a table waits for players, then becomes a game.

A table is a number of seats, a variant (PRJ-31) and a time control. Its host (an account)
sits in seat 1; a public table is listed in the lobby, any table is reachable by its link
(`/tables/<id>`, the invitation). Anyone logged in joins a free seat with one click; when the
last seat is taken the game starts, and the host may start early, with bots in the free
seats. Starting makes the game with `Service.create_game` (the server draws the seed) and
puts each joined account on its seat, so the game is on every member's account page. The
table's time control becomes the game's clocks (`play.time_control_table`: a chess clock, a
deadline per move, or days per Year; PRJ-34, PRJ-39), so they are kept and applied as any.

A table that has not started expires `EXPIRE_SECONDS` (one hour) after it was made or last
joined. Nothing runs per table: the lobby lists only tables whose `expires_at` is still ahead,
joining or starting an expired table is refused, and `expire()` (the periodic sweep, every
`SWEEP_SECONDS`) marks them `expired` for good.

Rematch: from a finished game, any of its players makes (once: `open_tables.rematch_of` is
unique) a table with the same seats: the same accounts where the game had them, the same
bots, free seats for anyone else; it starts at once when every seat is filled.

Concurrency (several servers on one database): a join is an INSERT of (table, seat) whose
primary key refuses a second joiner of the same seat (the loser tries the next free seat),
and the start is `UPDATE open_tables SET status = 'starting' WHERE status = 'open'`, which one
request wins.
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Any

import sqlalchemy as sa

from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.engine_port import BOT_KINDS, DEFAULT_BOT, SEARCH_BOTS, STRENGTHS
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.play.service import Service
from pax_hispanica.web.play.turn_based import time_control_table
from pax_hispanica.web.social import schema as social_db

log = logging.getLogger("pax_hispanica.web")

EXPIRE_SECONDS = 3600
SWEEP_SECONDS = 60


class Tables:
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.storage = svc.storage

    # ------------------------------------------------------------------ reading
    async def get(self, tid: str) -> dict[str, Any] | None:
        t, ts = social_db.open_tables, social_db.table_seats
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(t).where(t.c.id == tid))).mappings().first()
            if row is None:
                return None
            seats = (await conn.execute(
                sa.select(ts, adb.accounts.c.user_name).select_from(
                    ts.outerjoin(adb.accounts, adb.accounts.c.user_id == ts.c.user_id))
                .where(ts.c.table_id == tid).order_by(ts.c.seat))).mappings().all()
        out = dict(row)
        out["params"] = json.loads(out["params"] or "{}")
        out["seats"] = [dict(s) for s in seats]
        out["free"] = out["players"] - len(seats)
        out["expired"] = out["status"] == "open" and out["expires_at"] < time.time()
        return out

    async def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables waiting for players, newest first, with their free seats and host
        (ix_open_tables_lobby, then the seats of just those tables by primary key)."""
        t, ts, a = social_db.open_tables, social_db.table_seats, adb.accounts
        q = (sa.select(t.c.id, t.c.players, t.c.params, t.c.time_control, t.c.created_at, a.c.user_name)
             .select_from(t.outerjoin(a, a.c.user_id == t.c.host_user))
             .where(sa.and_(t.c.status == "open", t.c.public == sa.true(), t.c.expires_at > time.time()))
             .order_by(t.c.created_at.desc()).limit(limit))
        async with self.storage.read() as conn:
            rows = (await conn.execute(q)).mappings().all()
            taken = dict((await conn.execute(sa.select(ts.c.table_id, sa.func.count()).where(
                ts.c.table_id.in_([r["id"] for r in rows])).group_by(ts.c.table_id))).all()) if rows else {}
        return [{**dict(r), "params": json.loads(r["params"] or "{}"), "free": r["players"] - taken.get(r["id"], 0)}
                for r in rows]

    async def open_of(self, uid: str) -> list[dict[str, Any]]:
        """The tables waiting for players that `uid` sits at."""
        t, ts = social_db.open_tables, social_db.table_seats
        q = (sa.select(t.c.id, t.c.players, t.c.time_control, t.c.params)
             .select_from(t.join(ts, ts.c.table_id == t.c.id))
             .where(sa.and_(ts.c.user_id == uid, t.c.status == "open", t.c.expires_at > time.time()))
             .order_by(t.c.created_at.desc()).limit(50))
        async with self.storage.read() as conn:
            return [dict(r) for r in (await conn.execute(q)).mappings().all()]

    async def of_game(self, gid: str) -> dict[str, Any] | None:
        async with self.storage.read() as conn:
            tid = (await conn.execute(sa.select(social_db.open_tables.c.id).where(social_db.open_tables.c.game_id == gid))).scalar()
        return await self.get(tid) if tid else None

    async def rematch_of(self, gid: str) -> str | None:
        async with self.storage.read() as conn:
            tid: str | None = (await conn.execute(sa.select(social_db.open_tables.c.id)
                                                  .where(social_db.open_tables.c.rematch_of == gid))).scalar()
            return tid

    # ------------------------------------------------------------------ making and joining
    async def create(self, host: str, players: int, public: bool, params: dict[str, Any] | None = None,
                     time_control: str = "", seats: list[dict[str, Any]] | None = None, rematch_of: str | None = None) -> str:
        """A new table; the host sits in seat 1 unless `seats` (seat, kind, user_id, bot_kind,
        bot_strength) says who sits where (a rematch)."""
        if not 2 <= players <= 5:
            raise ServerError("malformed", "a table has 2 to 5 players")
        tid = secrets.token_urlsafe(12)
        now = time.time()
        rows = seats if seats is not None else [{"seat": 0, "kind": "human", "user_id": host}]
        async with self.storage.write() as conn:
            await conn.execute(social_db.open_tables.insert().values(
                id=tid, host_user=host, public=public, players=players, params=json.dumps(params or {}),
                time_control=time_control, status="open", created_at=now, expires_at=now + EXPIRE_SECONDS,
                rematch_of=rematch_of))
            if rows:
                await conn.execute(social_db.table_seats.insert(), [
                    {"table_id": tid, "seat": r["seat"], "kind": r["kind"], "user_id": r.get("user_id"),
                     "bot_kind": r.get("bot_kind"), "bot_strength": r.get("bot_strength")} for r in rows])
        if len(rows) == players:
            await self.start(tid)
        return tid

    def _open(self, table: dict[str, Any] | None) -> dict[str, Any]:
        if table is None:
            raise ServerError("unknown_table", "no such table", status=404)
        if table["status"] != "open" or table["expired"]:
            raise ServerError("table_closed", "this table has started or expired", status=409)
        return table

    async def join(self, tid: str, uid: str) -> int:
        """Sit `uid` at the first free seat; the game starts when the table is full."""
        for _attempt in range(6):
            table = self._open(await self.get(tid))
            if any(s["user_id"] == uid for s in table["seats"]):
                ret: int = next(s["seat"] for s in table["seats"] if s["user_id"] == uid)
                return ret
            taken = {s["seat"] for s in table["seats"]}
            free = [i for i in range(table["players"]) if i not in taken]
            if not free:
                raise ServerError("table_full", "every seat is taken", status=409)
            try:
                async with self.storage.write() as conn:
                    await conn.execute(social_db.table_seats.insert().values(table_id=tid, seat=free[0], kind="human",
                                                                       user_id=uid))
                    await conn.execute(social_db.open_tables.update().where(social_db.open_tables.c.id == tid)
                                       .values(expires_at=time.time() + EXPIRE_SECONDS))
            except sa.exc.IntegrityError:   # someone took that seat (or this user joined) just now
                continue
            if len(free) == 1:
                await self.start(tid)
            return free[0]
        raise ServerError("busy", "the table is changing too fast; try again", status=503)

    async def leave(self, tid: str, uid: str) -> None:
        """A player who is not the host stands up before the start."""
        table = self._open(await self.get(tid))
        if uid == table["host_user"]:
            raise ServerError("wrong_seat", "the host cannot leave their own table", status=403)
        async with self.storage.write() as conn:
            await conn.execute(social_db.table_seats.delete().where(sa.and_(social_db.table_seats.c.table_id == tid,
                                                                      social_db.table_seats.c.user_id == uid)))

    async def fill_and_start(self, tid: str, uid: str, bot_kind: str = DEFAULT_BOT, strength: int = 2) -> None:
        """The host starts now: bots take the free seats."""
        table = self._open(await self.get(tid))
        if uid != table["host_user"]:
            raise ServerError("wrong_seat", "only the table's host may start it early", status=403)
        if bot_kind not in BOT_KINDS or strength not in STRENGTHS:
            raise ServerError("malformed", "unknown bot")
        taken = {s["seat"] for s in table["seats"]}
        free = [i for i in range(table["players"]) if i not in taken]
        if free:
            try:
                async with self.storage.write() as conn:
                    await conn.execute(social_db.table_seats.insert(), [
                        {"table_id": tid, "seat": i, "kind": "bot", "user_id": None, "bot_kind": bot_kind,
                         "bot_strength": strength if bot_kind in SEARCH_BOTS else None} for i in free])
            except sa.exc.IntegrityError:
                raise ServerError("busy", "someone just joined; look again", status=409) from None
        await self.start(tid)

    async def start(self, tid: str) -> str | None:
        """Make the game of a full table (once, whoever calls); returns its id."""
        t = social_db.open_tables
        async with self.storage.write() as conn:
            won = (await conn.execute(t.update().where(sa.and_(t.c.id == tid, t.c.status == "open"))
                                      .values(status="starting"))).rowcount == 1
        if not won:
            return None
        table = await self.get(tid)
        assert table is not None
        try:
            by_seat = {s["seat"]: s for s in table["seats"]}
            seats = [{"kind": s["kind"], "bot_kind": s["bot_kind"], "bot_strength": s["bot_strength"],
                      "name": s["user_name"] or ""} for s in (by_seat[i] for i in range(table["players"]))]
            # no host link: at a table each player holds only their own seat's link (a host page
            # would list everyone's); the table page is where the host's say ends
            live = await self.svc.create_game(table["players"], seats, None, mode="online", host_user=None,
                                              params=table["params"],
                                              table=time_control_table(table["time_control"]))
        except Exception:
            async with self.storage.write() as conn:   # give the table back
                await conn.execute(t.update().where(t.c.id == tid).values(status="open"))
            raise
        async with self.storage.write() as conn:
            for s in table["seats"]:
                if s["kind"] == "human" and s["user_id"]:
                    await conn.execute(db.seats.update().where(sa.and_(db.seats.c.game_id == live.id,
                                                                       db.seats.c.seat == s["seat"]))
                                       .values(user_id=s["user_id"]))
                    live.seats[s["seat"]].user_id = s["user_id"]
            await conn.execute(t.update().where(t.c.id == tid).values(status="started", game_id=live.id))
        return live.id

    async def seat_token(self, gid: str, uid: str) -> str | None:
        """The link of `uid`'s seat in a game."""
        s = db.seats
        async with self.storage.read() as conn:
            token: str | None = (await conn.execute(sa.select(s.c.token).where(sa.and_(s.c.game_id == gid, s.c.user_id == uid))
                                                    .order_by(s.c.seat).limit(1))).scalar()
            return token

    async def spectator_token(self, gid: str) -> str | None:
        async with self.storage.read() as conn:
            ret: str | None = (await conn.execute(sa.select(db.games.c.spectator_token).where(db.games.c.id == gid))).scalar()
            return ret

    # ------------------------------------------------------------------ rematch
    async def table_of(self, gid: str) -> str | None:
        """The table a game was started from (None: a game made from the lobby's form)."""
        t = social_db.open_tables
        async with self.storage.read() as conn:
            ret: str | None = (await conn.execute(sa.select(t.c.id).where(t.c.game_id == gid).limit(1))).scalar()
            return ret

    async def rematch(self, gid: str, uid: str) -> str:
        """The rematch table of a finished game (made now if nobody made it yet)."""
        return (await self.rematch_made(gid, uid))[0]

    async def rematch_made(self, gid: str, uid: str) -> tuple[str, bool]:
        """(the rematch table of a finished game, whether this call made it)."""
        existing = await self.rematch_of(gid)
        if existing:
            return existing, False
        g = db.games
        async with self.storage.read() as conn:
            game = (await conn.execute(sa.select(g.c.status, g.c.config).where(g.c.id == gid))).first()
            seat_rows = await self.storage.seats(conn, gid)
            old = (await conn.execute(sa.select(social_db.open_tables).where(social_db.open_tables.c.game_id == gid))).mappings().first()
            old_seats = {} if old is None else {r.seat: r for r in (await conn.execute(
                sa.select(social_db.table_seats).where(social_db.table_seats.c.table_id == old["id"]))).all()}
        if game is None:
            raise ServerError("unknown_game", "no such game", status=404)
        if not any(s.user_id == uid for s in seat_rows):
            raise ServerError("wrong_seat", "only a player of the game may ask for a rematch", status=403)
        if game.status != "over":
            raise ServerError("game_not_over", "a rematch follows the end of a game", status=409)
        config = json.loads(game.config)
        seats: list[dict[str, Any]] = []
        for s in seat_rows:
            first = old_seats.get(s.seat)   # who sat there at the start (a bot may have taken over since)
            kind = first.kind if first is not None else s.kind
            if kind == "human":
                user = first.user_id if first is not None else s.user_id
                if user:
                    seats.append({"seat": s.seat, "kind": "human", "user_id": user})
            else:
                seats.append({"seat": s.seat, "kind": "bot", "bot_kind": first.bot_kind if first else s.bot_kind,
                              "bot_strength": first.bot_strength if first else s.bot_strength})
        host = next((x["user_id"] for x in seats if x["seat"] == 0 and x["kind"] == "human"), uid)
        try:
            return await self.create(host, len(seat_rows), False, config.get("params") or {},
                                     old["time_control"] if old is not None else "", seats=seats,
                                     rematch_of=gid), True
        except sa.exc.IntegrityError:   # another player asked at the same moment
            existing = await self.rematch_of(gid)
            if existing:
                return existing, False
            raise

    # ------------------------------------------------------------------ expiry
    async def expire(self) -> int:
        """Mark the tables whose time ran out (nobody joined, nobody started) expired."""
        t = social_db.open_tables
        async with self.storage.write() as conn:
            done: int = (await conn.execute(t.update().where(sa.and_(t.c.status == "open", t.c.expires_at < time.time()))
                                            .values(status="expired"))).rowcount
            return done


def describe_params(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


async def sweep_forever(tables: Tables, ratings: Any, every: float = SWEEP_SECONDS) -> None:
    """The one periodic job of tables and ratings: expire old tables, rate finished games."""
    import asyncio

    while True:
        await asyncio.sleep(every)
        try:
            await tables.expire()
            await ratings.rate_pending()
        except Exception:   # a database hiccup must not end the sweep
            log.exception("table and rating sweep failed")
