"""Live games: the authority between connections and the database.

One `LiveGame` per game in memory is a cache of (record, state, events),
rebuilt by `api.replay` of the stored record. Every action goes through
`Service.act`, which, under the game's asyncio lock:

1. checks the client's version and the seat it may act for,
2. lets the engine check the action (`api.apply`),
3. stores it as action number n of the record only if the database still has
   n actions (one transaction; another server may have stored one first: then
   it catches up from the database and judges the action again),
4. only then updates the cache, pushes fresh views to this process's
   connections and acknowledges; the same transaction NOTIFYs the other
   servers on PostgreSQL.
"""
from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import secrets
import time
from contextlib import asynccontextmanager
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from . import db
from .seam import SEARCH_BOTS, api, fallback_bot, make_bot, think

log = logging.getLogger("pax_hispanica.web")

NOTIFY_CHANNEL = "paxh_games"
SEALED_TYPES = frozenset({"bid", "support"})  # simultaneous secret choices (docs/api.md)
NATIONS = ("spanish", "english", "french", "dutch", "courland")


class _Blocking:
    """A synchronous connection behind the async `execute` the service's code uses."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self.conn.execute(*args, **kwargs)


_STORE_PG = sa.text("""
WITH g AS (
    UPDATE games SET version = :n1, updated_at = now(), bot_turn = :bot_turn,
           status = COALESCE(:status, status), result = COALESCE(:result, result)
    WHERE id = :gid AND version = :n
    RETURNING id),
a AS (
    INSERT INTO actions (game_id, n, action, created_at)
    SELECT id, :n, :action, now() FROM g
    RETURNING game_id)
SELECT pg_notify(:chan, :payload) FROM a
""")


class _Lost(Exception):
    """Another server stored that action number first."""


class ServerError(Exception):
    """A refused request; nothing changed. `code` is stable, `rule` may name a rule."""

    def __init__(self, code: str, message: str, rule: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.rule, self.status = code, message, rule, status

    def as_dict(self) -> dict:
        return {"code": self.code, "rule": self.rule, "message": self.message}


@dataclass
class Seat:
    seat: int
    kind: str  # human | bot
    bot_kind: str | None
    bot_strength: int | None
    name: str
    token: str
    user_id: str | None


@dataclass
class Rights:
    """Who is on the other end of a request."""

    game_id: str
    role: str  # seat | table (hot-seat: every human seat) | host | spectator | bot
    seats: frozenset[int] = frozenset()

    def may_act_for(self, seat: int) -> bool:
        return seat in self.seats


@dataclass(eq=False)
class LiveGame:
    id: str
    record: dict
    seed: int
    mode: str
    host_token: str
    spectator_token: str
    host_user: str | None
    seats: list[Seat]
    state: Any
    events: list
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set = field(default_factory=set)
    agents: dict = field(default_factory=dict)
    bot_task: asyncio.Task | None = None
    touched: float = field(default_factory=time.monotonic)
    away: frozenset[int] = frozenset()  # human seats with no connection on any server for a while
    _nations: list[str] | None = None

    def idle(self, now: float, after: float) -> bool:
        """Nobody watches, no bot works, nothing happened for `after` seconds."""
        return (not self.listeners and (self.bot_task is None or self.bot_task.done())
                and not self.lock.locked() and now - self.touched > after)

    @property
    def version(self) -> int:
        return len(self.record["actions"])

    @property
    def over(self) -> bool:
        return bool(api.is_over(self.state))

    def bot_turn(self, state: Any = None) -> bool:
        """Whether a bot must act in `state` (default: the current one)."""
        state = self.state if state is None else state
        return not api.is_over(state) and any(self.seats[s].kind == "bot" for s in api.acting(state))

    def human_seats(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.seats if s.kind == "human")

    def nation(self, seat: int) -> str:
        """The seat's nation id (fixed for the whole game)."""
        if self._nations is None:
            self._nations = [str(p.get("nation", "")) for p in api.summary(self.state).get("players", [])]
        return self._nations[seat] if seat < len(self._nations) else ""


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _config_dict(config: Any) -> dict:
    if isinstance(config, dict):
        return config
    out = {k: getattr(config, k) for k in ("players", "nations", "ruleset", "options") if hasattr(config, k)}
    if getattr(config, "params", None):
        out["params"] = dict(config.params)     # a variant (PRJ-31) is part of the record
    return out


class Service:
    IDLE_SECONDS = 600  # a game nobody uses is dropped from memory (and replayed when needed again)
    HEARTBEAT_SECONDS = 15.0  # how often a server marks the seats it has connections for as present
    AWAY_AFTER_SECONDS = 45.0  # a human seat unseen this long is away: others may hand it to a bot

    def __init__(self, database_url: str, bot_delay: float = 0.4, bot_processes: int | None = None) -> None:
        self.url = database_url
        # search bots think in worker processes, so a long search never holds this process's
        # GIL while it answers players; 0 keeps them in a thread (PAXH_BOT_PROCESSES)
        if bot_processes is None:
            bot_processes = int(os.environ.get("PAXH_BOT_PROCESSES", "1"))
        self.bot_processes = max(0, bot_processes)
        self._bot_pool: Any = None
        self.pg = db.is_postgres(database_url)
        kwargs: dict = {}
        if not self.pg:
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs.update(pool_size=10, max_overflow=20)
        self.engine: AsyncEngine = create_async_engine(db.async_url(database_url), **kwargs)
        # SQLite writes run synchronously on the event loop's thread: a WAL commit takes well
        # under a millisecond, they are serialized for free, and no thread waits for the GIL
        # (handing each statement to aiosqlite's thread made p99 latency 40x worse under load).
        self.sync_engine = None if self.pg else sa.create_engine(db.sync_url(database_url), **kwargs)
        if self.sync_engine is not None:
            for eng in (self.engine.sync_engine, self.sync_engine):
                sa.event.listen(eng, "connect", _sqlite_pragmas)
        self.bot_delay = bot_delay
        self.node = secrets.token_hex(4)  # this process, to skip its own notifications
        self.live: dict[str, LiveGame] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        self._listen_task: asyncio.Task | None = None
        self._sweep_task: asyncio.Task | None = None
        self._heartbeat_task: asyncio.Task | None = None
        self.connections: dict[tuple[str, int], int] = {}  # (game, seat) -> open connections here
        self._closing = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        if self.pg:
            from .notify import listen_forever
            self._listen_task = asyncio.create_task(listen_forever(self.url, NOTIFY_CHANNEL, self._on_notify,
                                                                    self._catch_up_all))
        self._sweep_task = asyncio.create_task(self._sweep_forever())
        self._heartbeat_task = asyncio.create_task(self._heartbeat_forever())
        # resume the bots of every game that waits for one (after a restart)
        async with self.engine.connect() as conn:
            ids = (await conn.execute(sa.select(db.games.c.id).where(
                sa.and_(db.games.c.status == "active", db.games.c.bot_turn)))).scalars().all()
        for gid in ids:
            try:
                live = await self.get(gid)
            except Exception:  # a record that no longer replays must not stop the server
                log.exception("game %s does not replay", gid)
                continue
            self.kick_bots(live)

    async def close(self) -> None:
        self._closing = True
        tasks = [g.bot_task for g in self.live.values() if g.bot_task]
        tasks += [t for t in (self._listen_task, self._sweep_task, self._heartbeat_task) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        await self.engine.dispose()
        if self.sync_engine is not None:
            self.sync_engine.dispose()
        if self._bot_pool is not None:
            pool, self._bot_pool = self._bot_pool, None
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for w in workers:                   # a search still running is of no use any more
                w.terminate()
            await asyncio.to_thread(lambda: [w.join(5) for w in workers])

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Any]:
        """A write transaction. On SQLite it runs without ever yielding to the event loop, so
        transactions never interleave (SQLite has one writer anyway)."""
        if self.sync_engine is None:
            async with self.engine.begin() as conn:
                yield conn
        else:
            with self.sync_engine.begin() as conn:
                yield _Blocking(conn)

    # ------------------------------------------------------------------ users
    async def user(self, uid: str | None) -> dict:
        if uid:
            async with self.engine.connect() as conn:
                row = (await conn.execute(sa.select(db.users).where(db.users.c.id == uid))).mappings().first()
            if row:
                return dict(row)
        uid = secrets.token_urlsafe(18)
        async with self._write() as conn:
            await conn.execute(db.users.insert().values(id=uid, name="", lang="en"))
        return {"id": uid, "name": "", "lang": "en", "new": True}

    async def set_user(self, uid: str, **values: Any) -> None:
        async with self._write() as conn:
            await conn.execute(db.users.update().where(db.users.c.id == uid).values(**values))

    async def games_of(self, uid: str) -> list[dict]:
        g, s = db.games, db.seats
        q = (sa.select(g.c.id, g.c.created_at, g.c.status, g.c.version, g.c.mode, g.c.config, g.c.host_token,
                       g.c.host_user,
                       g.c.spectator_token, s.c.seat, s.c.token)
             .select_from(g.outerjoin(s, sa.and_(s.c.game_id == g.c.id, s.c.user_id == uid)))
             .where(sa.or_(g.c.host_user == uid, s.c.user_id == uid))
             .order_by(g.c.created_at.desc()).limit(100))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).mappings().all()
        out: dict[str, dict] = {}
        for r in rows:
            d = out.setdefault(r["id"], {**dict(r), "config": json.loads(r["config"]), "my_seats": []})
            if r["host_user"] != uid:  # a seated player never learns the host's (or table's) link
                d["host_token"] = None
            if r["seat"] is not None:
                d["my_seats"].append({"seat": r["seat"], "token": r["token"]})
        return list(out.values())

    # ------------------------------------------------------------------ games
    async def create_game(self, players: int, seats: list[dict], nations: list[str] | None = None,
                          mode: str = "online", host_user: str | None = None, seed: int | None = None,
                          options: dict | None = None, params: dict | None = None) -> LiveGame:
        if not 2 <= players <= 5:
            raise ServerError("malformed", "a game has 2 to 5 players")
        if len(seats) != players:
            raise ServerError("malformed", "one seat description per player")
        if mode not in ("online", "hotseat"):
            raise ServerError("malformed", "mode is online or hotseat")
        if nations is not None:
            if len(nations) != players or len(set(nations)) != players or any(n not in NATIONS for n in nations):
                raise ServerError("malformed", f"nations: {players} different ones of {', '.join(NATIONS)}")
        seat_rows = []
        for i, s in enumerate(seats):
            kind = s.get("kind", "human")
            if kind not in ("human", "bot"):
                raise ServerError("malformed", f"seat {i}: kind is human or bot")
            bot_kind = s.get("bot_kind") or ("heuristic" if kind == "bot" else None)
            if kind == "bot" and bot_kind not in ("random", "heuristic", "ismcts"):
                raise ServerError("malformed", f"seat {i}: bot kind is random, heuristic or ismcts")
            strength = s.get("bot_strength")
            if strength is not None and strength not in (1, 2, 3):
                raise ServerError("malformed", f"seat {i}: bot strength is 1, 2 or 3")
            seat_rows.append(Seat(i, kind, bot_kind if kind == "bot" else None, strength if kind == "bot" else None,
                                  str(s.get("name") or "")[:80], secrets.token_urlsafe(18), None))
        if mode == "online" and host_user and seat_rows and seat_rows[0].kind == "human":
            seat_rows[0].user_id = host_user  # the creator sits in the first seat
        if seed is None:
            seed = secrets.randbits(31)
        config = api.Config(players=players, nations=list(nations) if nations else None, options=options or {},
                            params=dict(params or {}))
        try:
            game = api.Game.new(config, seed)
        except api.IllegalAction as e:       # a bad variant (PRJ-31): nothing is stored
            raise ServerError("bad_config", e.message, rule=e.rule) from None
        record = dict(game.record)
        record["actions"] = []
        gid = secrets.token_hex(8)
        host_token, spectator_token = secrets.token_urlsafe(18), secrets.token_urlsafe(18)
        async with self._write() as conn:
            await conn.execute(db.games.insert().values(
                id=gid, ruleset_version=str(record.get("ruleset_version", "")),
                config=json.dumps(_config_dict(record["config"])), seed=seed, mode=mode, status="active",
                version=0, host_user=host_user, host_token=host_token, spectator_token=spectator_token,
                bot_turn=any(seat_rows[s].kind == "bot" for s in api.acting(game.state))))
            await conn.execute(db.seats.insert(), [
                dict(game_id=gid, seat=s.seat, kind=s.kind, bot_kind=s.bot_kind, bot_strength=s.bot_strength,
                     name=s.name, token=s.token, user_id=s.user_id) for s in seat_rows])
        live = LiveGame(gid, record, seed, mode, host_token, spectator_token, host_user, seat_rows,
                        game.state, list(game.events))
        self.live[gid] = live
        self.kick_bots(live)
        return live

    async def resolve(self, token: str) -> Rights:
        """Which game and seats a secret token opens."""
        g, s = db.games, db.seats
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(s.c.game_id, s.c.seat).where(s.c.token == token))).first()
            if row:
                return Rights(row.game_id, "seat", frozenset([row.seat]))
            row = (await conn.execute(sa.select(g.c.id, g.c.mode, g.c.host_token, g.c.spectator_token)
                                      .where(sa.or_(g.c.host_token == token, g.c.spectator_token == token)))).first()
        if row is None:
            raise ServerError("unknown_token", "no game has this link", status=404)
        if row.spectator_token == token:
            return Rights(row.id, "spectator")
        live = await self.get(row.id)
        if row.mode == "hotseat":
            return Rights(row.id, "table", live.human_seats())
        return Rights(row.id, "host")

    async def claim_seat(self, rights: Rights, uid: str) -> None:
        """Remember that this user plays this seat (for their list of games)."""
        if rights.role != "seat":
            return
        (seat,) = rights.seats
        async with self._write() as conn:
            await conn.execute(db.seats.update().where(sa.and_(
                db.seats.c.game_id == rights.game_id, db.seats.c.seat == seat, db.seats.c.user_id.is_(None)))
                .values(user_id=uid))

    def sweep(self, now: float | None = None) -> int:
        """Drop idle games from memory; returns how many."""
        now = time.monotonic() if now is None else now
        idle = [gid for gid, g in self.live.items() if g.idle(now, self.IDLE_SECONDS)]
        for gid in idle:
            del self.live[gid]
            self._load_locks.pop(gid, None)
        return len(idle)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(60)
            self.sweep()

    async def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            live.touched = time.monotonic()
            return live
        lock = self._load_locks.setdefault(gid, asyncio.Lock())
        async with lock:
            live = self.live.get(gid)
            if live is None:
                live = await self._load(gid)
                self.live[gid] = live
        return live

    async def _load(self, gid: str) -> LiveGame:
        async with self.engine.connect() as conn:
            g = (await conn.execute(sa.select(db.games).where(db.games.c.id == gid))).mappings().first()
            if g is None:
                raise ServerError("unknown_game", "no such game", status=404)
            seat_rows = await self._seats(conn, gid)
            acts = (await conn.execute(sa.select(db.actions.c.action).where(db.actions.c.game_id == gid)
                                       .order_by(db.actions.c.n))).scalars().all()
        record = {"ruleset_version": g["ruleset_version"], "config": json.loads(g["config"]), "seed": g["seed"],
                  "actions": [json.loads(a) for a in acts]}
        game = await asyncio.to_thread(api.replay, record)
        record["actions"] = list(record["actions"])
        return LiveGame(gid, record, g["seed"], g["mode"], g["host_token"], g["spectator_token"], g["host_user"],
                        seat_rows, game.state, list(game.events))

    @staticmethod
    async def _seats(conn: AsyncConnection, gid: str) -> list[Seat]:
        rows = (await conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid)
                                   .order_by(db.seats.c.seat))).mappings().all()
        return [Seat(r["seat"], r["kind"], r["bot_kind"], r["bot_strength"], r["name"], r["token"], r["user_id"])
                for r in rows]

    async def _catch_up(self, conn: AsyncConnection, live: LiveGame) -> None:
        """Apply actions stored by other servers since our cache was built."""
        rows = (await conn.execute(sa.select(db.actions.c.n, db.actions.c.action)
                                   .where(sa.and_(db.actions.c.game_id == live.id, db.actions.c.n >= live.version))
                                   .order_by(db.actions.c.n))).all()
        for n, text in rows:
            if n != live.version:
                raise RuntimeError(f"game {live.id}: record has a gap at {live.version}")
            action = json.loads(text)
            live.state, evs = api.apply(live.state, action)
            live.record["actions"].append(action)
            live.events.extend(evs)
        live.seats = await self._seats(conn, live.id)

    # ------------------------------------------------------------------ acting
    async def act(self, rights: Rights, action: Any, version: Any) -> LiveGame:
        """Check, store, then apply one action. Raises ServerError; nothing changes then."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str) \
                or not isinstance(action.get("seat"), int) or isinstance(action.get("seat"), bool):
            raise ServerError("malformed", "an action is an object with an integer 'seat' and a string 'type'")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServerError("malformed", "'version' (the number of actions you have seen) is required")
        try:
            action_json = json.dumps(action)
        except (TypeError, ValueError):
            raise ServerError("malformed", "an action must be plain JSON") from None
        if len(action_json) > 4000:
            raise ServerError("malformed", "action too large")
        if not rights.may_act_for(action["seat"]):
            raise ServerError("wrong_seat", f"you may not act for seat {action['seat']}", status=403)
        live = await self.get(rights.game_id)
        if rights.role != "bot" and live.seats[action["seat"]].kind != "human":
            raise ServerError("wrong_seat", "a bot plays this seat now", status=403)
        async with live.lock:
            if version > live.version:  # the client heard of actions this server has not yet
                async with self.engine.connect() as conn:
                    await self._catch_up(conn, live)
            for _attempt in range(5):
                if version != live.version and not self._only_sealed_since(live, version, action["seat"]):
                    raise ServerError("stale_version",
                                      f"the game is at version {live.version}, you sent {version}: reload the state",
                                      status=409)
                if live.over:
                    raise ServerError("game_over", "the game is over", status=409)
                try:
                    new_state, evs = api.apply(live.state, action)
                except api.IllegalAction as e:
                    raise ServerError(getattr(e, "code", "not_legal"), getattr(e, "message", None) or str(e),
                                      getattr(e, "rule", None), status=422) from None
                except Exception as e:  # an engine crash on odd input: refuse it, keep the game
                    log.exception("engine failed on %r", action)
                    raise ServerError("malformed", f"the engine could not read this action ({type(e).__name__})",
                                      status=400) from None
                over = bool(api.is_over(new_state))
                result = json.dumps(api.result(new_state), default=str) if over else None
                stored = await self._store_action(live.id, live.version, action_json, result,
                                                  live.bot_turn(new_state))
                if stored:
                    break
                # another server stored action number live.version first: catch up and judge again
                async with self.engine.connect() as conn:
                    await self._catch_up(conn, live)
            else:
                raise ServerError("busy", "the game is changing too fast; try again", status=503)
            # committed: now the cache follows
            live.state = new_state
            live.record["actions"].append(action)
            live.events.extend(evs)
        await self.changed(live)
        return live

    async def _store_action(self, gid: str, n: int, action_json: str, result: str | None,
                            bot_turn: bool) -> bool:
        """Store action number n of the record, in one transaction, only if the record has
        exactly n actions (optimistic: False when another server got there first)."""
        if self.pg:
            return await self._store_action_pg(gid, n, action_json, result, bot_turn)
        values: dict = {"version": n + 1, "updated_at": sa.func.now(), "bot_turn": bot_turn}
        if result is not None:
            values.update(status="over", result=result)
        try:
            async with self._write() as conn:
                r = await conn.execute(db.games.update().where(
                    sa.and_(db.games.c.id == gid, db.games.c.version == n)).values(**values))
                if r.rowcount != 1:
                    raise _Lost
                await conn.execute(db.actions.insert().values(game_id=gid, n=n, action=action_json))
                if self.pg:
                    await conn.execute(sa.text("SELECT pg_notify(:c, :p)"),
                                       {"c": NOTIFY_CHANNEL, "p": f"{gid}:{n + 1}:{self.node}"})
        except (_Lost, sa.exc.IntegrityError):
            return False
        return True

    async def _store_action_pg(self, gid: str, n: int, action_json: str, result: str | None,
                               bot_turn: bool) -> bool:
        """The same on PostgreSQL as one statement in one round trip (autocommit; a single
        statement is atomic): version check, insert and NOTIFY."""
        try:
            async with self.engine.connect() as conn:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                row = (await conn.execute(_STORE_PG, {
                    "gid": gid, "n": n, "n1": n + 1, "action": action_json, "result": result, "bot_turn": bot_turn,
                    "status": "over" if result is not None else None,
                    "chan": NOTIFY_CHANNEL, "payload": f"{gid}:{n + 1}:{self.node}"})).first()
        except sa.exc.IntegrityError:
            return False
        return row is not None

    @staticmethod
    def _only_sealed_since(live: LiveGame, version: int, seat: int) -> bool:
        """A client one or more versions behind is still up to date when everything since
        was another seat's sealed choice (its content is hidden, so nothing it could see
        changed): then a bid is not refused just because a bot bid first."""
        if not 0 <= version < live.version:
            return False
        return all(a.get("type") in SEALED_TYPES and a.get("seat") != seat for a in live.record["actions"][version:])

    async def seat_to_bot(self, rights: Rights, seat: int, bot_kind: str = "heuristic") -> LiveGame:
        """A bot takes over a seat whose player left (the player, or the host, asks)."""
        live = await self.get(rights.game_id)
        if not (0 <= seat < len(live.seats)):
            raise ServerError("malformed", "no such seat")
        others_may = rights.role == "seat" and seat in live.away  # the player has left
        if not (rights.role in ("host", "table") or rights.may_act_for(seat) or others_may):
            raise ServerError("wrong_seat", "only that seat's player, the game's host, or (once the player has "
                              "left) another player may hand a seat to a bot", status=403)
        if bot_kind not in ("random", "heuristic", "ismcts"):
            raise ServerError("malformed", "bot kind is random, heuristic or ismcts")
        async with live.lock:
            async with self._write() as conn:
                await conn.execute(db.seats.update().where(sa.and_(db.seats.c.game_id == live.id,
                                                                    db.seats.c.seat == seat))
                                   .values(kind="bot", bot_kind=bot_kind))
                if self.pg:
                    await conn.execute(sa.text("SELECT pg_notify(:c, :p)"),
                                       {"c": NOTIFY_CHANNEL, "p": f"{live.id}:seats:{self.node}"})
                live.seats = await self._seats(conn, live.id)
                await conn.execute(db.games.update().where(db.games.c.id == live.id)
                                   .values(bot_turn=live.bot_turn()))
        await self.changed(live)
        return live

    async def changed(self, live: LiveGame) -> None:
        await self._push(live)
        self.kick_bots(live)

    @staticmethod
    async def _push(live: LiveGame) -> None:
        """Send the new state to this process's connections to the game (each renders its own view)."""
        for listener in list(live.listeners):
            try:
                await listener(live)
            except Exception:
                log.exception("listener failed")

    async def _catch_up_all(self) -> None:
        for gid in list(self.live):
            await self._on_notify(f"{gid}:listen:")

    async def _on_notify(self, payload: str) -> None:
        gid, _what, node = (payload.split(":") + ["", ""])[:3]
        live = self.live.get(gid)
        if live is None or node == self.node:
            return
        async with live.lock:
            async with self.engine.connect() as conn:
                await self._catch_up(conn, live)
        await self._push(live)

    # ------------------------------------------------------------------ presence
    async def seat_connected(self, live: LiveGame, seat: int, delta: int) -> None:
        """A connection for `seat` opened (+1) or closed (-1) on this server."""
        key = (live.id, seat)
        self.connections[key] = self.connections.get(key, 0) + delta
        if self.connections[key] <= 0:
            del self.connections[key]
        else:
            await self._mark_seen([key])
        if await self.refresh_presence(live):
            await self._push(live)

    async def _mark_seen(self, keys: list[tuple[str, int]]) -> None:
        if not keys:
            return
        now = time.time()
        stmt = db.seats.update().where(sa.and_(db.seats.c.game_id == sa.bindparam("gid"),
                                               db.seats.c.seat == sa.bindparam("s"))).values(last_seen=now)
        async with self._write() as conn:  # one executemany for every open seat
            await conn.execute(stmt, [{"gid": gid, "s": seat} for gid, seat in keys])

    async def refresh_presence(self, live: LiveGame) -> bool:
        """Recompute which human seats are away; True when that changed."""
        async with self.engine.connect() as conn:
            seen = dict((await conn.execute(sa.select(db.seats.c.seat, db.seats.c.last_seen)
                                            .where(db.seats.c.game_id == live.id))).all())
        cutoff = time.time() - self.AWAY_AFTER_SECONDS
        # a seat never seen has not joined yet (only the host may hand it to a bot); away means
        # its player was here and has been gone for a while
        away = frozenset(s.seat for s in live.seats if s.kind == "human" and (live.id, s.seat) not in self.connections
                         and seen.get(s.seat) is not None and seen[s.seat] < cutoff)
        changed = away != live.away
        live.away = away
        return changed

    async def _heartbeat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.HEARTBEAT_SECONDS)
            try:
                await self._mark_seen(list(self.connections))
                for live in list(self.live.values()):
                    if live.listeners and await self.refresh_presence(live):
                        await self._push(live)
            except Exception:
                log.exception("presence heartbeat failed")

    # ------------------------------------------------------------------ bots
    def kick_bots(self, live: LiveGame) -> None:
        if self._closing or live.over:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        if not any(live.seats[s].kind == "bot" for s in api.acting(live.state)):
            return
        live.bot_task = asyncio.create_task(self._bots(live))

    async def _think_elsewhere(self, kind: str, seed: int, strength: int | None, view: dict, legal: list) -> dict:
        """A search bot's decision in a worker process. The search is seeded from the bot's seed
        and the (view, legal) pair alone, so this is the move the seat's own agent would make."""
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool
        if self._bot_pool is None:
            # spawn, not fork: this process runs threads and an event loop
            self._bot_pool = ProcessPoolExecutor(self.bot_processes, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await asyncio.get_running_loop().run_in_executor(self._bot_pool, think, kind, seed, strength,
                                                                    view, legal)
        except BrokenProcessPool:
            self._bot_pool = None               # a worker died: start afresh next time
            raise

    async def _bots(self, live: LiveGame) -> None:
        failures = 0
        while not self._closing and not live.over and failures < 5:
            bots = [s for s in api.acting(live.state) if live.seats[s].kind == "bot"]
            if not bots:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            seat = bots[0]
            info = live.seats[seat]
            agent = live.agents.get(seat)
            if agent is None or agent[0] != info.bot_kind:
                agent = (info.bot_kind, make_bot(info.bot_kind or "random", live.seed * 8 + seat + 1, info.bot_strength))
                live.agents[seat] = agent
            version = live.version
            view = api.view(live.state, seat)
            legal = api.legal_actions(live.state, seat)
            if not legal:
                return
            # after a failure, one move from the seeded random fallback keeps the game going
            decide = agent[1].decide if failures < 2 else fallback_bot(live.seed + version).decide
            try:
                if info.bot_kind in SEARCH_BOTS and self.bot_processes and failures < 2:
                    action = await self._think_elsewhere(info.bot_kind, live.seed * 8 + seat + 1,
                                                         info.bot_strength, view, legal)
                else:
                    action = await asyncio.to_thread(decide, view, legal)
                await self.act(Rights(live.id, "bot", frozenset([seat])), action, version)
                failures = 0
            except ServerError as e:
                failures += 1
                log.warning("bot in game %s seat %s refused: %s %s", live.id, seat, e.code, e.message)
            except Exception:
                failures += 1
                log.exception("bot in game %s seat %s failed", live.id, seat)
