"""The live-game cache: the games this server holds in memory (`LiveGame`), loaded once per
game (one load at a time per game), touched on every use, and dropped when idle or past the
bound (least recently used first; never a game with connections or a bot at work). A game
found damaged stays out for good (until the server restarts)."""
from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable

from .model import LiveGame, damage_error


class LiveCache:
    IDLE_SECONDS = 600  # a game nobody uses is dropped from memory (and replayed when needed again)
    # at most this many games in memory: past it, the least recently used evictable ones leave
    # (a game with connections or a bot at work stays, so the bound can be exceeded by those)
    MAX_LIVE_GAMES = int(os.environ.get("PAXH_MAX_LIVE_GAMES", "500"))

    def __init__(self, load: Callable[[str], Awaitable[LiveGame]]) -> None:
        self._load = load
        self.live: dict[str, LiveGame] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        self.damaged: dict[str, str] = {}  # game -> what is wrong with its record (never served)

    async def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            live.touched = time.monotonic()
            return live
        if gid in self.damaged:
            raise damage_error(self.damaged[gid])
        lock = self._load_locks.setdefault(gid, asyncio.Lock())
        async with lock:
            live = self.live.get(gid)
            if live is None:
                live = await self._load(gid)
                self.live[gid] = live
                self.evict_over_limit()
        return live

    def add(self, live: LiveGame) -> None:
        """A game just created."""
        self.live[live.id] = live
        self.evict_over_limit()

    def current(self, live: LiveGame) -> bool:
        """Whether `live` is still this server's copy of its game (not evicted or damaged)."""
        return self.live.get(live.id) is live

    def sweep(self, now: float | None = None) -> int:
        """Drop idle games from memory (unused for IDLE_SECONDS, or the least recently used
        past MAX_LIVE_GAMES); returns how many."""
        now = time.monotonic() if now is None else now
        idle = [gid for gid, g in self.live.items() if g.idle(now, self.IDLE_SECONDS)]
        for gid in idle:
            self.forget(gid)
        return len(idle) + self.evict_over_limit()

    def evict_over_limit(self) -> int:
        """Past MAX_LIVE_GAMES, drop evictable games, least recently touched first."""
        over = len(self.live) - self.MAX_LIVE_GAMES
        if over <= 0:
            return 0
        victims = sorted((g for g in self.live.values() if g.evictable()), key=lambda g: g.touched)[:over]
        for g in victims:
            self.forget(g.id)
        return len(victims)

    def forget(self, gid: str) -> LiveGame | None:
        live = self.live.pop(gid, None)
        lock = self._load_locks.get(gid)
        if lock is not None and not lock.locked():
            del self._load_locks[gid]
        return live

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(60)
            self.sweep()
