"""Bots: running the bot seats of the games in memory.

A game's bots move one after the other in a task per game (`kick`), each from its own view
only, `bot_delay` apart so people can follow. A bot that raises or keeps proposing refused
moves is replaced for that move by a seeded random legal move, so a game never stalls. Search
bots think in a worker process (`bot_processes`, 0: a thread), so a long search never holds
the server's GIL while it answers players.

On PostgreSQL a server moves a game's bots only while it holds the game's bot lease
(`games.bot_owner`, `bot_lease_until`): taken when its bots start moving here (and by a move
that finds it older than LEASE_RENEW_SECONDS), renewed while a bot thinks or waits by one
statement for all the server's bot games (`_renew_all`), released when no bot is to act. Every
POLL_SECONDS each server resumes the bot games whose lease ran out, so a dead server's bot
games go on within about 3-4 s. The lease only saves work: the version check on store keeps
two servers from both storing action n."""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pax_hispanica.web import settings
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.engine_port import SEARCH_BOTS, api, fallback_bot, think
from pax_hispanica.web.play.cache import LiveCache
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError
from pax_hispanica.web.play.people_first import PeopleFirst

log = logging.getLogger("pax_hispanica.web")


class BotSeats:
    LEASE_SECONDS = settings.seconds("PAXH_BOT_LEASE_SECONDS", minimum=0.5)
    LEASE_RENEW_SECONDS = 1.0
    POLL_SECONDS = settings.seconds("PAXH_BOT_POLL_SECONDS", minimum=0.05)

    def __init__(self, storage: Storage, cache: LiveCache, node: str, bot_delay: float, bot_processes: int,
                 act: Callable[[Rights, Any, Any], Awaitable[LiveGame]],
                 catch_up: Callable[[LiveGame], Awaitable[int]],
                 make_bot: Callable[..., Any], people_first: PeopleFirst | None = None) -> None:
        """act: the service's act (bots act through the same checks as people); catch_up: the
        game from the database, under its lock; make_bot(kind, seed, strength): a bot;
        people_first: the gate that holds bot moves while people's actions are under way."""
        self.storage, self.cache, self.node = storage, cache, node
        self.bot_delay = bot_delay
        self.bot_processes = max(0, bot_processes)
        self.pool: Any = None
        self._act, self._catch_up, self._make_bot = act, catch_up, make_bot
        self.people_first = people_first or PeopleFirst()
        self.closing = False
        # game -> when this server last took or renewed its bot lease (time.monotonic): a bot move
        # within LEASE_RENEW_SECONDS of it does not take it again (issue 37, P1)
        self._renewed: dict[str, float] = {}
        # game -> its `lost` event, for the games whose bots move on this server now: one task
        # renews all their leases in one statement (`_renew_all`), instead of a keeper per game
        # each taking its game's lease every second (issue 37, P1: 100 bot games, 100 statements
        # a second)
        self._held: dict[str, asyncio.Event] = {}
        self._renewer: asyncio.Task[Any] | None = None

    def kick(self, live: LiveGame) -> None:
        """Start the game's bot task if a bot must act and none runs."""
        if self.closing or live.over:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        if not live.bots_to_act():
            return
        live.bot_task = asyncio.create_task(self._bots(live))

    async def close(self) -> None:
        """Stop the worker processes (a search still running is of no use any more)."""
        self.closing = True
        if self._renewer is not None:
            self._renewer.cancel()
            self._renewer = None
        if self.pool is not None:
            pool, self.pool = self.pool, None
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for w in workers:
                w.terminate()
            await asyncio.to_thread(lambda: [w.join(5) for w in workers])

    async def _think_elsewhere(self, kind: str, seed: int, strength: int | None, view: dict[str, Any], legal: list[Any],
                               log: list[Any] | None = None) -> dict[str, Any]:
        """A search bot's decision in a worker process. The search is seeded from the bot's seed
        and the (view, legal) pair alone, so this is the move the seat's own agent would make."""
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool
        if self.pool is None:
            # spawn, not fork: this process runs threads and an event loop
            self.pool = ProcessPoolExecutor(self.bot_processes, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, think, kind, seed, strength,
                                                                    view, legal, log)
        except BrokenProcessPool:
            self.pool = None               # a worker died: start afresh next time
            raise

    # ------------------------------------------------------------------ leases
    async def _lease(self, gid: str) -> bool:
        """Take or renew this server's lease on the game's bot turn (always True on SQLite:
        one server). Taken or renewed less than LEASE_RENEW_SECONDS ago (of LEASE_SECONDS), it
        is still ours and is not taken again: while the game's bots move here, `_renew_all`
        keeps it fresh with the server's other games in one statement, so a move takes it only
        when that fell behind (issue 37, P1: each take was a transaction, at every move)."""
        if not self.storage.pg:
            return True
        now = time.monotonic()
        if now - self._renewed.get(gid, -1e9) < self.LEASE_RENEW_SECONDS:
            return True
        ok = await self.storage.take_lease(gid, self.node, self.LEASE_SECONDS)
        if ok:
            self._renewed[gid] = now
        else:
            self._renewed.pop(gid, None)
        return ok

    async def _release(self, gid: str) -> None:
        self._renewed.pop(gid, None)
        if self.storage.pg:
            await self.storage.release_lease(gid, self.node)

    async def _renew_all(self) -> None:
        """Renew, in one statement, the leases of the games whose bots move here and that were
        taken or renewed at least half a renewal period ago (so a bot move, which takes the lease
        itself after a whole period, finds it fresh); a game whose lease went to another server
        is told by its `lost` event."""
        now = time.monotonic()
        due = [gid for gid in self._held if now - self._renewed.get(gid, -1e9) >= self.LEASE_RENEW_SECONDS / 2]
        if not due:
            return
        kept = await self.storage.renew_leases(due, self.node, self.LEASE_SECONDS)
        for gid in due:
            if gid in kept:
                self._renewed[gid] = now
            else:
                self._renewed.pop(gid, None)
                lost = self._held.get(gid)
                if lost is not None:
                    lost.set()

    async def _renew_forever(self) -> None:
        """Keep the leases of this server's bot games while their bots think or wait."""
        while not self.closing:
            await asyncio.sleep(self.LEASE_RENEW_SECONDS / 2)
            if self.closing:
                return  # type: ignore[unreachable]  # closing may be set during the sleep
            try:
                await self._renew_all()
            except Exception:  # the database is away: the next renewal may succeed
                log.warning("renewing the bot leases failed", exc_info=True)

    async def poll_forever(self) -> None:
        """Resume every bot game whose lease ran out (its server died, or nobody started it)."""
        while True:
            try:
                for gid in await self.storage.orphan_bot_games(50):
                    live = self.cache.live.get(gid)
                    if live is not None and live.bot_task is not None and not live.bot_task.done():
                        continue
                    try:
                        live = await self.cache.get(gid)
                    except ServerError:  # damaged (logged) or gone
                        continue
                    async with live.lock:  # this server's cache may be behind the dead one
                        await self._catch_up(live)
                    self.kick(live)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot poll failed")
            await asyncio.sleep(self.POLL_SECONDS)

    # ------------------------------------------------------------------ moving
    async def _bots(self, live: LiveGame) -> None:
        """Move the game's bots while this server holds its bot lease."""
        if not await self._lease(live.id):
            return  # another server moves them; the poller looks again when its lease runs out
        lost = asyncio.Event()
        if self.storage.pg:
            self._held[live.id] = lost
            if self._renewer is None or self._renewer.done():
                self._renewer = asyncio.create_task(self._renew_forever())
        try:
            await self._move_bots(live, lost)
        finally:
            if self._held.get(live.id) is lost:
                del self._held[live.id]
            if not lost.is_set() and not self.closing:
                try:
                    await self._release(live.id)
                except Exception:  # it runs out on its own
                    log.warning("releasing the bot lease of game %s failed", live.id, exc_info=True)

    def _agent(self, live: LiveGame, seat: int, bot_seed: int) -> Any:
        """The seat's bot, kept between moves (a new one when the seat's bot kind changed)."""
        info = live.seats[seat]
        agent = live.agents.get(seat)
        if agent is None or agent[0] != info.bot_kind:
            agent = (info.bot_kind, self._make_bot(info.bot_kind or "random", bot_seed, info.bot_strength))
            live.agents[seat] = agent
        return agent[1]

    async def _move_bots(self, live: LiveGame, lost: asyncio.Event) -> None:
        failures = 0
        while not self.closing and not live.over and failures < 5 and not lost.is_set():
            bots = live.bots_to_act()
            if not bots:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            await self.people_first.before_bot_move()
            if not self.cache.current(live) or not await self._lease(live.id):
                return  # evicted or damaged meanwhile, or the lease went to another server
            seat = bots[0]
            info = live.seats[seat]
            bot_seed = api.derived_seed(live.seed, f"bot|{seat}")
            agent = self._agent(live, seat, bot_seed)
            version = live.version
            # a search bot determinizes its view, so it gets the masked state (docs/api.md)
            view = api.view(live.state, seat, include_state=info.bot_kind in SEARCH_BOTS
                            or getattr(agent, "uses_information_state", False))
            legal = api.legal_actions(live.state, seat)
            if not legal:
                return
            # a bot that reads its own log (ISMCTS: which cards the others hold) gets it, redacted
            own_log = api.redact(live.events, seat) if getattr(agent, "uses_log", False) else None
            # after a failure, one move from the seeded random fallback keeps the game going
            decide = (agent.decide if failures < 2
                      else fallback_bot(api.derived_seed(live.seed, f"fallback|{version}")).decide)
            try:
                if info.bot_kind in SEARCH_BOTS and self.bot_processes and failures < 2:
                    action = await self._think_elsewhere(info.bot_kind, bot_seed, info.bot_strength, view, legal,
                                                         own_log)
                elif own_log is not None and failures < 2:
                    action = await asyncio.to_thread(decide, view, legal, log=own_log)
                else:
                    action = await asyncio.to_thread(decide, view, legal)
                await self._act(Rights(live.id, "bot", frozenset([seat])), action, version)
                failures = 0
            except ServerError as e:
                if e.code == "damaged_game":
                    return
                failures += 1
                log.warning("bot in game %s seat %s refused: %s %s", live.id, seat, e.code, e.message)
            except Exception:
                failures += 1
                log.exception("bot in game %s seat %s failed", live.id, seat)
