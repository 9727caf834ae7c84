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
and carries the next link of the record's hash chain (play/integrity.py). A record that does not
check out when loaded or caught up marks the game damaged: it is kept as it is, and every
request for it is answered `damaged_game`.

On PostgreSQL a server moves a game's bots only while it holds the game's bot lease
(`games.bot_owner`, `bot_lease_until`), and every server polls for bot turns whose lease ran
out, so the bot games of a server that died go on elsewhere.

`Service` is the facade the routes use; each job is its own module: db/store.py (the
games' statements, SQLite and PostgreSQL), play/cache.py (the games in memory), play/records.py (replay, catch
up, damage), play/rights.py (tokens, who may act for which seat), play/validation.py (the shape of a
new game and of an action), play/presence.py, notify/pubsub.py (LISTEN/NOTIFY), play/bot_seats.py (running
the bot seats, leases).
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from typing import Any

from pax_hispanica.web import settings
from pax_hispanica.web.db.store import _STORE_PG, LOST, SEAT_CHANGED, STORED, Storage  # noqa: F401
from pax_hispanica.web.engine_port import (  # noqa: F401
    BOT_KINDS,
    DEFAULT_BOT,
    SEARCH_BOTS,
    api,
    fallback_bot,
    make_bot,
    think,
)
from pax_hispanica.web.notify.pubsub import CHANNEL as NOTIFY_CHANNEL
from pax_hispanica.web.notify.pubsub import PubSub
from pax_hispanica.web.play import integrity
from pax_hispanica.web.play.bot_seats import BotSeats
from pax_hispanica.web.play.cache import LiveCache
from pax_hispanica.web.play.people_first import PeopleFirst
from pax_hispanica.web.play.model import (
    LiveGame,
    Rights,
    Seat,
    ServerError,
    damage_error,
)
from pax_hispanica.web.play.presence import Presence
from pax_hispanica.web.play.records import Records
from pax_hispanica.web.play.rights import Seats
from pax_hispanica.web.play.validation import action_json as _action_json
from pax_hispanica.web.play.validation import check_bot_kind, new_seats
from pax_hispanica.web.present.info import nation_ids
import contextlib

__all__ = [
    "NATIONS",
    "NOTIFY_CHANNEL",
    "LiveGame",
    "Rights",
    "Seat",
    "ServerError",
    "Service",
    "random_nations",
]

log = logging.getLogger("pax_hispanica.web")

NATIONS = nation_ids("reference")   # the reference ruleset's nations, in its order (nations.toml)


def random_nations(seed: int, players: int, ruleset: str = "reference",
                   chosen: list[str | None] | None = None) -> list[str]:
    """The nations of a game whose creator left some or all seats on "random": the seats
    `chosen` names keep their nation; the others get different nations of the rest, in a
    random seat order, drawn with a PRNG seeded by a keyed hash of the game's secret (so it
    tells nothing about the secret, and the engine's default order, seat 0 Spanish, is never
    what a lobby game gets by accident). With none chosen it is a random sample of `players`."""
    picks = list(chosen) if chosen is not None else [None] * players
    rest = [n for n in nation_ids(ruleset) if n not in picks]
    drawn = iter(random.Random(api.derived_seed(seed, "nations")).sample(rest, picks.count(None)))
    return [n if n is not None else next(drawn) for n in picks]


def _config_dict(config: Any) -> dict[str, Any]:
    if isinstance(config, dict):
        return config
    out = {k: getattr(config, k) for k in ("players", "nations", "ruleset", "options") if hasattr(config, k)}
    if getattr(config, "params", None):
        out["params"] = dict(config.params)     # a variant (PRJ-31) is part of the record
    return out


class Service:
    """The game service the routes use: a thin facade over the services that each do one job
    (storage, the live-game cache, records, seats and rights, presence, NOTIFY, bots), and the
    one place where they meet: acting (lock, checks, engine, store, then cache and fan-out)."""

    def __init__(self, database_url: str, bot_delay: float = 0.4, bot_processes: int | None = None) -> None:
        self.url = database_url
        # search bots think in worker processes, so a long search never holds this process's
        # GIL while it answers players; 0 keeps them in a thread (PAXH_BOT_PROCESSES)
        if bot_processes is None:
            bot_processes = settings.integer("PAXH_BOT_PROCESSES", maximum=64)
        self.node = secrets.token_hex(4)  # this process, to skip its own notifications
        self.storage = Storage(database_url)
        self.pg = self.storage.pg
        self.pubsub = PubSub(database_url, self.node, enabled=self.pg)
        self.cache = LiveCache(self._load)
        self.live = self.cache.live          # game id -> LiveGame (the cache's own dict)
        self.records = Records(self.storage, self.cache)
        self.seats = Seats(self.storage)
        self.presence = Presence(self.storage, self.live, self._push)
        # make_bot is looked up here at each call (tests replace games.make_bot)
        self.people_first = PeopleFirst()
        self.bots = BotSeats(self.storage, self.cache, self.node, bot_delay, bot_processes, self.act,
                             self.records.catch_up, lambda *a: make_bot(*a), self.people_first)
        self._tasks: list[asyncio.Task[Any]] = []
        # services that follow the games (play/turn_based.py: clocks, notifications, chat): each may define
        # created(live, table), loaded(live) (read from the database into memory), after_act(live, action, acting_before, rights) (run under the
        # game's lock, after the commit), notified(live, what) (another server's "clock"/"chat"
        # message), start() -> tasks and close()
        self.hooks: list[Any] = []

    async def _run_hooks(self, name: str, *args: Any) -> None:
        for hook in self.hooks:
            fn = getattr(hook, name, None)
            if fn is None:
                continue
            try:
                await fn(*args)
            except Exception:  # a follower's failure never undoes or refuses an action
                log.exception("%s hook %s failed", name, type(hook).__name__)

    # ------------------------------------------------------------------ settings of the parts
    MAX_LIVE_GAMES = property(lambda self: self.cache.MAX_LIVE_GAMES,
                              lambda self, v: setattr(self.cache, "MAX_LIVE_GAMES", v))
    IDLE_SECONDS = property(lambda self: self.cache.IDLE_SECONDS,
                            lambda self, v: setattr(self.cache, "IDLE_SECONDS", v))
    AWAY_AFTER_SECONDS = property(lambda self: self.presence.AWAY_AFTER_SECONDS,
                                  lambda self, v: setattr(self.presence, "AWAY_AFTER_SECONDS", v))
    bot_delay = property(lambda self: self.bots.bot_delay, lambda self, v: setattr(self.bots, "bot_delay", v))
    bot_processes = property(lambda self: self.bots.bot_processes)
    _bot_pool = property(lambda self: self.bots.pool)
    damaged = property(lambda self: self.cache.damaged)
    connections = property(lambda self: self.presence.connections)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        listen = self.pubsub.start(self._on_notify, self._catch_up_all)
        self._tasks = [t for t in (listen, asyncio.create_task(self.cache.sweep_forever()),
                                   asyncio.create_task(self.presence.heartbeat_forever())) if t is not None]
        for hook in self.hooks:
            self._tasks.extend(hook.start())
        if self.pg:  # the poller resumes bot games nobody holds a lease on, this server's too
            self._tasks.append(asyncio.create_task(self.bots.poll_forever()))
            return
        # resume the bots of every game that waits for one (after a restart)
        for gid in await self.storage.active_bot_games():
            try:
                live = await self.get(gid)
            except ServerError:  # a damaged record (logged) must not stop the server
                continue
            self.kick_bots(live)

    async def close(self) -> None:
        self.bots.closing = True
        tasks = [g.bot_task for g in self.live.values() if g.bot_task] + self._tasks
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for hook in self.hooks:
            await hook.close()
        await self.storage.close()
        await self.bots.close()

    # ------------------------------------------------------------------ users
    async def user(self, uid: str | None) -> dict[str, Any]:
        return await self.storage.user(uid)

    async def set_user(self, uid: str, **values: Any) -> None:
        await self.storage.set_user(uid, **values)

    async def games_of(self, uid: str) -> list[dict[str, Any]]:
        return await self.storage.games_of(uid)

    # ------------------------------------------------------------------ games
    async def create_game(self, players: int, seats: list[dict[str, Any]], nations: list[str | None] | None = None,
                          mode: str = "online", host_user: str | None = None, seed: int | None = None,
                          options: dict[str, Any] | None = None, params: dict[str, Any] | None = None,
                          table: dict[str, Any] | None = None) -> LiveGame:
        """table: the table's rules (pace, clock, chat: play.TableIn), for the hooks."""
        seat_rows = new_seats(players, seats, nations, mode)
        if mode == "online" and host_user and seat_rows and seat_rows[0].kind == "human":
            seat_rows[0].user_id = host_user  # the creator sits in the first seat
        if seed is None:  # the secret behind every shuffle and sealed-choice salt (docs/web.md)
            seed = secrets.randbits(128)
        # "random" seats (None, or every seat): drawn from the secret, stored in the config so it replays
        drawn = random_nations(seed, players, chosen=nations)
        config = api.Config(players=players, nations=drawn, options=options or {},
                            params=dict(params or {}))
        try:
            game = api.Game.new(config, seed)
        except api.IllegalAction as e:       # a bad variant (PRJ-31): nothing is stored
            raise ServerError("bad_config", e.message, rule=e.rule) from None
        record = dict(game.record)
        record["actions"] = []
        gid = secrets.token_hex(8)
        host_token, spectator_token = secrets.token_urlsafe(18), secrets.token_urlsafe(18)
        await self.storage.insert_game({
            "id": gid, "ruleset_version": str(record.get("ruleset_version", "")), "record_format": api.RECORD_FORMAT,
            "config": json.dumps(_config_dict(record["config"])), "seed": str(seed), "mode": mode, "status": "active",
            "version": 0, "host_user": host_user, "host_token": host_token, "spectator_token": spectator_token,
            "bot_turn": any(seat_rows[s].kind == "bot" for s in api.acting(game.state))}, seat_rows)
        live = LiveGame(gid, record, seed, mode, host_token, spectator_token, host_user, seat_rows,
                        game.state, list(game.events), chain=integrity.genesis(gid))
        self.cache.add(live)
        await self._run_hooks("created", live, table)
        self.kick_bots(live)
        return live

    async def resolve(self, token: str) -> Rights:
        """Which game and seats a secret token opens."""
        return await self.seats.resolve(token)

    async def claim_seat(self, rights: Rights, uid: str) -> None:
        """Remember that this user plays this seat (for their list of games)."""
        await self.seats.claim(rights, uid)

    def sweep(self, now: float | None = None) -> int:
        """Drop idle games from memory; returns how many (LiveCache.sweep)."""
        return self.cache.sweep(now)

    async def get(self, gid: str) -> LiveGame:
        return await self.cache.get(gid)

    async def _load(self, gid: str) -> LiveGame:
        live = await self.records.load(gid)
        await self._run_hooks("loaded", live)
        return live

    @staticmethod
    def _damage_error(text: str) -> ServerError:
        return damage_error(text)

    # ------------------------------------------------------------------ acting
    async def act(self, rights: Rights, action: Any, version: Any) -> LiveGame:
        """Check, store, then apply one action. Raises ServerError; nothing changes then.
        A person's action holds the bots' next moves while it is under way (people_first.py)."""
        if self.seats.controller(rights) == "bot":
            return await self._act(rights, action, version)
        with self.people_first.person_acting():
            return await self._act(rights, action, version)

    async def _act(self, rights: Rights, action: Any, version: Any) -> LiveGame:
        text = _action_json(action, version)
        self.seats.check_may_act(rights, action["seat"])
        live = await self.get(rights.game_id)
        self.seats.check_still_theirs(rights, live, action["seat"])
        kind = self.seats.controller(rights)
        async with live.lock:
            if version > live.version:  # the client heard of actions this server has not yet
                await self.records.catch_up(live)
            for _attempt in range(5):
                if version != live.version and not self._only_sealed_since(live, version, action["seat"]):
                    raise ServerError("stale_version",
                                      f"the game is at version {live.version}, you sent {version}: reload the state",
                                      status=409)
                if live.over:
                    raise ServerError("game_over", "the game is over", status=409)
                before = api.acting(live.state)
                new_state, evs = self._judge(live, action)
                over = bool(api.is_over(new_state))
                result = json.dumps(api.result(new_state), default=str) if over else None
                head = integrity.link(live.chain, text, new_state)
                stored = await self.storage.store_action(live.id, live.version, text, result,
                                                         live.bot_turn(new_state), action["seat"], kind, head,
                                                         self.pubsub.message(live.id, live.version + 1))
                if stored == STORED:
                    break
                caught = await self.records.catch_up(live)  # also refreshes live.seats
                if stored == SEAT_CHANGED or live.seats[action["seat"]].kind != kind:
                    raise self.seats.lost_seat(kind)
                if not caught:  # lost, yet nothing new was stored: is the game row still right?
                    await self.records.check_counts(live)
                # another server stored action number live.version first: judge again
            else:
                raise ServerError("busy", "the game is changing too fast; try again", status=503)
            # committed: now the cache follows
            live.state = new_state
            live.record["actions"].append(action)
            live.events.extend(evs)
            live.chain, live.hashed = head, True
            await self._run_hooks("after_act", live, action, before, rights)
        await self.changed(live)
        return live

    @staticmethod
    def _judge(live: LiveGame, action: dict[str, Any]) -> tuple[Any, list[Any]]:
        """The engine's verdict on an action: (new state, events), or a refusal."""
        try:
            return api.apply(live.state, action)
        except api.IllegalAction as e:
            raise ServerError(getattr(e, "code", "not_legal"), getattr(e, "message", None) or str(e),
                              getattr(e, "rule", None), status=422) from None
        except Exception as e:  # an engine crash on odd input: refuse it, keep the game
            log.exception("engine failed on %r", action)
            raise ServerError("malformed", f"the engine could not read this action ({type(e).__name__})",
                              status=400) from None

    @staticmethod
    def _only_sealed_since(live: LiveGame, version: int, seat: int) -> bool:
        """A client one or more versions behind is still up to date when everything since
        was another seat's sealed choice (its content is hidden, so nothing it could see
        changed): then a bid is not refused just because a bot bid first."""
        if not 0 <= version < live.version:
            return False
        return all(api.is_sealed_action(a.get("type")) and a.get("seat") != seat
                   for a in live.record["actions"][version:])

    async def seat_to_bot(self, rights: Rights, seat: int, bot_kind: str = DEFAULT_BOT) -> LiveGame:
        """A bot takes over a seat whose player left (the player, or the host, asks)."""
        live = await self.get(rights.game_id)
        self.seats.check_may_hand_to_bot(rights, live, seat)
        check_bot_kind(bot_kind)

        def bot_turn(seats: list[Seat]) -> bool:
            live.seats = seats
            return live.bot_turn()

        async with live.lock:
            await self.storage.seat_to_bot(live.id, seat, bot_kind, self.pubsub.message(live.id, "seats"), bot_turn)
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

    # ------------------------------------------------------------------ other servers (NOTIFY)
    async def _catch_up_all(self) -> None:
        for gid in list(self.live):
            await self._on_notify(f"{gid}:listen:")

    async def _on_notify(self, payload: str) -> None:
        gid, what, node = self.pubsub.parse(payload)
        live = self.live.get(gid)
        if live is None or node == self.node:
            return
        if what in ("clock", "chat"):  # a follower's news, not the record's
            await self._run_hooks("notified", live, what)
            return
        try:
            async with live.lock:
                await self.records.catch_up(live)
        except ServerError:  # damaged: already logged and marked
            return
        await self._push(live)

    # ------------------------------------------------------------------ presence and bots
    async def seat_connected(self, live: LiveGame, seat: int, delta: int) -> None:
        """A connection for `seat` opened (+1) or closed (-1) on this server."""
        await self.presence.seat_connected(live, seat, delta)

    async def refresh_presence(self, live: LiveGame) -> bool:
        """Recompute which human seats are away; True when that changed."""
        return await self.presence.refresh(live)

    def kick_bots(self, live: LiveGame) -> None:
        self.bots.kick(live)
