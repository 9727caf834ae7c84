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

The same statement that stores the action checks that the acting seat is still played by
whom the caller thinks (a person or a bot: another server may just have handed it over),
and carries the next link of the record's hash chain (integrity.py). A record that does not
check out when loaded or caught up marks the game damaged: it is kept as it is, and every
request for it is answered `damaged_game`.

On PostgreSQL a server moves a game's bots only while it holds the game's bot lease
(`games.bot_owner`, `bot_lease_until`), and every server polls for bot turns whose lease ran
out, so the bot games of a server that died go on elsewhere.
"""
from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import random
import secrets
import time
from contextlib import asynccontextmanager
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from . import db, integrity
from .integrity import Damage
from .seam import SEARCH_BOTS, api, fallback_bot, make_bot, think

log = logging.getLogger("pax_hispanica.web")

NOTIFY_CHANNEL = "paxh_games"
SEALED_TYPES = frozenset({"bid", "support"})  # simultaneous secret choices (docs/api.md)
NATIONS = ("spanish", "english", "french", "dutch", "courland")


def random_nations(seed: int, players: int, ruleset: str = "reference") -> list[str]:
    """The nations of a game whose creator chose none: a random set of `players` different
    nations in a random seat order, drawn with a PRNG seeded by a keyed hash of the game's
    secret (so it tells nothing about the secret, and the engine's default order, seat 0
    Spanish, is never what a lobby game gets by accident)."""
    order = list(getattr(api.load_ruleset(ruleset), "nation_order", None) or NATIONS)
    return random.Random(api.derived_seed(seed, "nations")).sample(order, players)


class _Blocking:
    """A synchronous connection behind the async `execute` the service's code uses."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        return self.conn.execute(*args, **kwargs)


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
_RELEASE_LEASE_PG = sa.text("UPDATE games SET bot_owner = NULL, bot_lease_until = NULL "
                            "WHERE id = :gid AND bot_owner = :me")
_ORPHANS_PG = sa.text(f"""
SELECT id FROM games WHERE status = 'active' AND bot_turn
  AND (bot_lease_until IS NULL OR bot_lease_until < {_NOW_PG}) LIMIT :limit
""")

STORED, LOST, SEAT_CHANGED = "stored", "lost", "seat_changed"


class _Lost(Exception):
    """Another server stored that action number first."""


class _SeatChanged(Exception):
    """The acting seat's controller (human/bot) is not what the caller expected."""


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
    chain: str = ""  # head of the record's hash chain (integrity.py)
    hashed: bool = True  # some stored action has a hash: every later one must
    away: frozenset[int] = frozenset()  # human seats with no connection on any server for a while
    _nations: list[str] | None = None

    def idle(self, now: float, after: float) -> bool:
        """Nobody watches, no bot works, nothing happened for `after` seconds."""
        return self.evictable() and now - self.touched > after

    def evictable(self) -> bool:
        """Nobody watches and no bot works: the game may leave memory (and be replayed later)."""
        return not self.listeners and (self.bot_task is None or self.bot_task.done()) and not self.lock.locked()

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
    # at most this many games in memory: past it, the least recently used evictable ones leave
    # (a game with connections or a bot at work stays, so the bound can be exceeded by those)
    MAX_LIVE_GAMES = int(os.environ.get("PAXH_MAX_LIVE_GAMES", "500"))
    # bot turns (PostgreSQL): a lease lasts LEASE_SECONDS, is renewed before every bot move and
    # every LEASE_RENEW_SECONDS while one thinks; every POLL_SECONDS each server resumes the bot
    # games whose lease ran out, so a dead server's bot games go on within about 3-4 s
    LEASE_SECONDS = float(os.environ.get("PAXH_BOT_LEASE_SECONDS", "3"))
    LEASE_RENEW_SECONDS = 1.0
    POLL_SECONDS = float(os.environ.get("PAXH_BOT_POLL_SECONDS", "1"))
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
        self._poll_task: asyncio.Task | None = None
        self.damaged: dict[str, str] = {}  # game -> what is wrong with its record (never served)
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
        if self.pg:  # the poller resumes bot games nobody holds a lease on, this server's too
            self._poll_task = asyncio.create_task(self._poll_forever())
            return
        # resume the bots of every game that waits for one (after a restart)
        async with self.engine.connect() as conn:
            ids = (await conn.execute(sa.select(db.games.c.id).where(
                sa.and_(db.games.c.status == "active", db.games.c.bot_turn)))).scalars().all()
        for gid in ids:
            try:
                live = await self.get(gid)
            except ServerError:  # a damaged record (logged) must not stop the server
                continue
            self.kick_bots(live)

    async def close(self) -> None:
        self._closing = True
        tasks = [g.bot_task for g in self.live.values() if g.bot_task]
        tasks += [t for t in (self._listen_task, self._sweep_task, self._heartbeat_task,
                                           self._poll_task) if t is not None]
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
        if seed is None:  # the secret behind every shuffle and sealed-choice salt (docs/web.md)
            seed = secrets.randbits(128)
        if nations is None:  # "random": drawn from the secret, and stored in the config so it replays
            nations = random_nations(seed, players)
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
                id=gid, ruleset_version=str(record.get("ruleset_version", "")), record_format=api.RECORD_FORMAT,
                config=json.dumps(_config_dict(record["config"])), seed=str(seed), mode=mode, status="active",
                version=0, host_user=host_user, host_token=host_token, spectator_token=spectator_token,
                bot_turn=any(seat_rows[s].kind == "bot" for s in api.acting(game.state))))
            await conn.execute(db.seats.insert(), [
                dict(game_id=gid, seat=s.seat, kind=s.kind, bot_kind=s.bot_kind, bot_strength=s.bot_strength,
                     name=s.name, token=s.token, user_id=s.user_id) for s in seat_rows])
        live = LiveGame(gid, record, seed, mode, host_token, spectator_token, host_user, seat_rows,
                        game.state, list(game.events), chain=integrity.genesis(gid))
        self.live[gid] = live
        self._evict_over_limit()
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
        if row.mode == "hotseat":  # from the seats table: no replay needed to know who plays here
            async with self.engine.connect() as conn:
                seat_rows = await self._seats(conn, row.id)
            return Rights(row.id, "table", frozenset(s.seat for s in seat_rows if s.kind == "human"))
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
        """Drop idle games from memory (unused for IDLE_SECONDS, or the least recently used
        past MAX_LIVE_GAMES); returns how many."""
        now = time.monotonic() if now is None else now
        idle = [gid for gid, g in self.live.items() if g.idle(now, self.IDLE_SECONDS)]
        for gid in idle:
            self._forget(gid)
        return len(idle) + self._evict_over_limit()

    def _evict_over_limit(self) -> int:
        """Past MAX_LIVE_GAMES, drop evictable games, least recently touched first."""
        over = len(self.live) - self.MAX_LIVE_GAMES
        if over <= 0:
            return 0
        victims = sorted((g for g in self.live.values() if g.evictable()), key=lambda g: g.touched)[:over]
        for g in victims:
            self._forget(g.id)
        return len(victims)

    def _forget(self, gid: str) -> None:
        self.live.pop(gid, None)
        lock = self._load_locks.get(gid)
        if lock is not None and not lock.locked():
            del self._load_locks[gid]

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(60)
            self.sweep()

    async def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            live.touched = time.monotonic()
            return live
        if gid in self.damaged:
            raise self._damage_error(self.damaged[gid])
        lock = self._load_locks.setdefault(gid, asyncio.Lock())
        async with lock:
            live = self.live.get(gid)
            if live is None:
                live = await self._load(gid)
                self.live[gid] = live
                self._evict_over_limit()
        return live

    async def _load(self, gid: str) -> LiveGame:
        """Replay a game from the database, checking its hash chain (integrity.check)."""
        async with self.engine.connect() as conn:
            # the game row and its actions are read by separate statements, and another server
            # may store an action in between: read the version again after the actions, and
            # start over when it moved (else a count that is merely newer would read as damage)
            for _attempt in range(5):
                g = (await conn.execute(sa.select(db.games).where(db.games.c.id == gid))).mappings().first()
                if g is None:
                    raise ServerError("unknown_game", "no such game", status=404)
                seat_rows = await self._seats(conn, gid)
                rows = (await conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                                           .where(db.actions.c.game_id == gid).order_by(db.actions.c.n))).all()
                again = (await conn.execute(sa.select(db.games.c.version).where(db.games.c.id == gid))).scalar()
                if again == g["version"]:
                    break
            else:
                raise ServerError("busy", "the game is changing too fast; try again", status=503)
        try:
            chain = await asyncio.to_thread(integrity.check, gid, g["version"], g["config"], g["seed"],
                                            g["ruleset_version"], [tuple(r) for r in rows],
                                            g["record_format"])
        except Damage as d:
            raise await self._mark_damaged(gid, d) from None
        if chain.fill or g["status"] == "damaged":
            await self._after_check(gid, chain, g["status"])
        game = chain.game
        record = {"format": api.RECORD_FORMAT, "ruleset_version": g["ruleset_version"], "config": json.loads(g["config"]), "seed": int(g["seed"]),
                  "actions": list(game.record["actions"])}
        return LiveGame(gid, record, int(g["seed"]), g["mode"], g["host_token"], g["spectator_token"],
                        g["host_user"], seat_rows, game.state, list(game.events), chain=chain.head,
                        hashed=chain.hashed or bool(chain.fill))

    async def _after_check(self, gid: str, chain: integrity.Chain, status: str) -> None:
        """A record that checks out: store the hashes of actions from before the chain existed
        (migration 0004), and un-mark a game marked damaged that checks out again (its rows were
        repaired, or the engine that disagreed was replaced)."""
        async with self._write() as conn:
            if chain.fill:
                await conn.execute(db.actions.update().where(sa.and_(
                    db.actions.c.game_id == gid, db.actions.c.n == sa.bindparam("n_"),
                    db.actions.c.state_hash.is_(None))).values(state_hash=sa.bindparam("h_")),
                    [{"n_": n, "h_": h} for n, h in chain.fill])
            if status == "damaged":
                over = bool(api.is_over(chain.game.state))
                await conn.execute(db.games.update().where(db.games.c.id == gid)
                                   .values(status="over" if over else "active", damage=None))
                log.warning("game %s: its record checks out again; no longer marked damaged", gid)

    @staticmethod
    def _damage_error(text: str) -> ServerError:
        return ServerError("damaged_game", f"this game's record is damaged ({text}); it is kept as it is "
                           "for the server's operator to look at", status=409)

    async def _mark_damaged(self, gid: str, damage: Damage) -> ServerError:
        """Record and report a damaged game: one log line, `games.status = 'damaged'` with the
        reason (the rows themselves are left as they are), and out of memory for good."""
        text = str(damage)
        if self.damaged.get(gid) != text:
            log.error("game %s is damaged at %s", gid, text)
        self.damaged[gid] = text
        live = self.live.pop(gid, None)
        if live is not None and live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        try:
            async with self._write() as conn:
                await conn.execute(db.games.update().where(db.games.c.id == gid)
                                   .values(status="damaged", damage=text[:2000]))
        except Exception:  # the report must not hide the damage
            log.exception("could not mark game %s damaged", gid)
        return self._damage_error(text)

    @staticmethod
    async def _seats(conn: AsyncConnection, gid: str) -> list[Seat]:
        rows = (await conn.execute(sa.select(db.seats).where(db.seats.c.game_id == gid)
                                   .order_by(db.seats.c.seat))).mappings().all()
        return [Seat(r["seat"], r["kind"], r["bot_kind"], r["bot_strength"], r["name"], r["token"], r["user_id"])
                for r in rows]

    async def _catch_up(self, conn: AsyncConnection, live: LiveGame) -> int:
        """Apply actions stored by other servers since our cache was built, checking each link of
        the chain; returns how many. A bad one marks the game damaged (ServerError) and leaves
        the cache as it was."""
        rows = (await conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                                   .where(sa.and_(db.actions.c.game_id == live.id, db.actions.c.n >= live.version))
                                   .order_by(db.actions.c.n))).all()
        live.seats = await self._seats(conn, live.id)
        if not rows:
            return 0
        chain = integrity.Chain(live.id, api.Game(dict(live.record, actions=list(live.record["actions"])),
                                                  live.state, []), live.chain, hashed=live.hashed)
        try:
            steps = [chain.step(n, text, h) for n, text, h in rows]
        except Damage as d:
            raise await self._mark_damaged(live.id, d) from None
        for action, evs in steps:
            live.record["actions"].append(action)
            live.events.extend(evs)
        live.state, live.chain, live.hashed = chain.game.state, chain.head, chain.hashed
        return len(rows)

    async def _check_counts(self, live: LiveGame) -> None:
        """After a lost store with nothing new to catch up: is `games.version` still the number
        of stored actions? (If not, no store can ever succeed: the game is damaged, not busy.)"""
        q = sa.select(db.games.c.version, db.games.c.status, db.games.c.damage).where(db.games.c.id == live.id)
        async with self.engine.connect() as conn:
            for _attempt in range(5):  # the version read again after the count: see _load
                version, status, damage = (await conn.execute(q)).one()
                count = (await conn.execute(sa.select(sa.func.count()).select_from(db.actions)
                                            .where(db.actions.c.game_id == live.id))).scalar_one()
                if (await conn.execute(q)).one()[0] == version:
                    break
            else:
                return  # still moving: not stuck, so not this kind of damage
        if version != count:
            raise await self._mark_damaged(live.id, Damage(min(version, count),
                                                           f"games.version is {version} but {count} actions are stored"))
        if status == "damaged":  # another server found it damaged
            raise await self._mark_damaged(live.id, Damage(None, damage or "marked damaged by another server"))

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
                head = integrity.link(live.chain, action_json, new_state)
                kind = "bot" if rights.role == "bot" else "human"
                stored = await self._store_action(live.id, live.version, action_json, result,
                                                  live.bot_turn(new_state), action["seat"], kind, head)
                if stored == STORED:
                    break
                async with self.engine.connect() as conn:
                    caught = await self._catch_up(conn, live)  # also refreshes live.seats
                if stored == SEAT_CHANGED or live.seats[action["seat"]].kind != kind:
                    raise ServerError("wrong_seat", "a bot plays this seat now" if kind == "human"
                                      else "a person plays this seat now", status=403)
                if not caught:  # lost, yet nothing new was stored: is the game row still right?
                    await self._check_counts(live)
                # another server stored action number live.version first: judge again
            else:
                raise ServerError("busy", "the game is changing too fast; try again", status=503)
            # committed: now the cache follows
            live.state = new_state
            live.record["actions"].append(action)
            live.events.extend(evs)
            live.chain, live.hashed = head, True
        await self.changed(live)
        return live

    async def _store_action(self, gid: str, n: int, action_json: str, result: str | None,
                            bot_turn: bool, seat: int, kind: str, state_hash: str) -> str:
        """Store action number n of the record, in one transaction, only if the record has
        exactly n actions and `seat` is still played by `kind` (human | bot). Returns STORED,
        LOST (another server got there first) or SEAT_CHANGED."""
        if self.pg:
            return await self._store_action_pg(gid, n, action_json, result, bot_turn, seat, kind, state_hash)
        values: dict = {"version": n + 1, "updated_at": sa.func.now(), "bot_turn": bot_turn}
        if result is not None:
            values.update(status="over", result=result)
        try:
            async with self._write() as conn:
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
                               bot_turn: bool, seat: int, kind: str, state_hash: str) -> str:
        """The same on PostgreSQL as one statement in one round trip (autocommit; a single
        statement is atomic): version and seat check, insert and NOTIFY. Which check failed is
        read afterwards (rare)."""
        try:
            async with self.engine.connect() as conn:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                row = (await conn.execute(_STORE_PG, {
                    "gid": gid, "n": n, "n1": n + 1, "action": action_json, "result": result, "bot_turn": bot_turn,
                    "status": "over" if result is not None else None, "seat": seat, "kind": kind,
                    "state_hash": state_hash,
                    "chan": NOTIFY_CHANNEL, "payload": f"{gid}:{n + 1}:{self.node}"})).first()
                if row is not None:
                    return STORED
                now_kind = (await conn.execute(sa.select(db.seats.c.kind).where(sa.and_(
                    db.seats.c.game_id == gid, db.seats.c.seat == seat)))).scalar()
        except sa.exc.IntegrityError:
            return LOST
        return SEAT_CHANGED if now_kind != kind else LOST

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
        try:
            async with live.lock:
                async with self.engine.connect() as conn:
                    await self._catch_up(conn, live)
        except ServerError:  # damaged: already logged and marked
            return
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

    # ------------------------------------------------------------------ bot leases
    async def _lease(self, gid: str) -> bool:
        """Take or renew this server's lease on the game's bot turn (always True on SQLite:
        one server)."""
        if not self.pg:
            return True
        async with self._write() as conn:
            r = await conn.execute(_TAKE_LEASE_PG, {"gid": gid, "me": self.node, "secs": self.LEASE_SECONDS})
        return r.rowcount == 1

    async def _release(self, gid: str) -> None:
        if self.pg:
            async with self._write() as conn:
                await conn.execute(_RELEASE_LEASE_PG, {"gid": gid, "me": self.node})

    async def _keep_lease(self, gid: str, lost: asyncio.Event) -> None:
        """Renew the lease while a bot thinks or waits; `lost` when another server has it."""
        while True:
            await asyncio.sleep(self.LEASE_RENEW_SECONDS)
            try:
                if not await self._lease(gid):
                    lost.set()
                    return
            except Exception:  # the database is away: the next renewal may succeed
                log.warning("renewing the bot lease of game %s failed", gid, exc_info=True)

    async def _poll_forever(self) -> None:
        """Resume every bot game whose lease ran out (its server died, or nobody started it)."""
        while True:
            try:
                async with self.engine.connect() as conn:
                    ids = (await conn.execute(_ORPHANS_PG, {"limit": 50})).scalars().all()
                for gid in ids:
                    live = self.live.get(gid)
                    if live is not None and live.bot_task is not None and not live.bot_task.done():
                        continue
                    try:
                        live = await self.get(gid)
                    except ServerError:  # damaged (logged) or gone
                        continue
                    async with live.lock:  # this server's cache may be behind the dead one
                        async with self.engine.connect() as conn:
                            await self._catch_up(conn, live)
                    self.kick_bots(live)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot poll failed")
            await asyncio.sleep(self.POLL_SECONDS)

    async def _bots(self, live: LiveGame) -> None:
        """Move the game's bots while this server holds its bot lease."""
        if not await self._lease(live.id):
            return  # another server moves them; the poller looks again when its lease runs out
        lost = asyncio.Event()
        keeper = asyncio.create_task(self._keep_lease(live.id, lost)) if self.pg else None
        try:
            await self._move_bots(live, lost)
        finally:
            if keeper is not None:
                keeper.cancel()
            if not lost.is_set() and not self._closing:
                try:
                    await self._release(live.id)
                except Exception:  # it runs out on its own
                    log.warning("releasing the bot lease of game %s failed", live.id, exc_info=True)

    async def _move_bots(self, live: LiveGame, lost: asyncio.Event) -> None:
        failures = 0
        while not self._closing and not live.over and failures < 5 and not lost.is_set():
            bots = [s for s in api.acting(live.state) if live.seats[s].kind == "bot"]
            if not bots:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            if self.live.get(live.id) is not live or not await self._lease(live.id):
                return  # evicted or damaged meanwhile, or the lease went to another server
            seat = bots[0]
            info = live.seats[seat]
            agent = live.agents.get(seat)
            bot_seed = api.derived_seed(live.seed, f"bot|{seat}")
            if agent is None or agent[0] != info.bot_kind:
                agent = (info.bot_kind, make_bot(info.bot_kind or "random", bot_seed, info.bot_strength))
                live.agents[seat] = agent
            version = live.version
            # a search bot determinizes its view, so it gets the masked state (docs/api.md)
            view = api.view(live.state, seat, include_state=info.bot_kind in SEARCH_BOTS
                            or getattr(agent[1], "uses_information_state", False))
            legal = api.legal_actions(live.state, seat)
            if not legal:
                return
            # after a failure, one move from the seeded random fallback keeps the game going
            decide = (agent[1].decide if failures < 2
                      else fallback_bot(api.derived_seed(live.seed, f"fallback|{version}")).decide)
            try:
                if info.bot_kind in SEARCH_BOTS and self.bot_processes and failures < 2:
                    action = await self._think_elsewhere(info.bot_kind, bot_seed, info.bot_strength, view, legal)
                else:
                    action = await asyncio.to_thread(decide, view, legal)
                await self.act(Rights(live.id, "bot", frozenset([seat])), action, version)
                failures = 0
            except ServerError as e:
                if e.code == "damaged_game":
                    return
                failures += 1
                log.warning("bot in game %s seat %s refused: %s %s", live.id, seat, e.code, e.message)
            except Exception:
                failures += 1
                log.exception("bot in game %s seat %s failed", live.id, seat)
