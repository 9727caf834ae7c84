"""The live-game cache: the games this server holds in memory (`LiveGame`), loaded once per
game (one load at a time per game), touched on every use, and dropped when idle or past the
bound (least recently used first; never a game with connections or a bot at work). A game
found damaged stays out for good (until the server restarts).

Memory (issue 37, M1; docs/web.md "Memory"): a game nobody has used for COMPACT_SECONDS keeps
only its record, state and seats (`LiveGame.compact`: its bots and events go, and its entries
in the render cache); after a sweep that let anything go the freed memory is handed back to the
system (`trim_memory`: the garbage collector, then glibc's malloc_trim)."""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pax_hispanica.web import settings
from pax_hispanica.web.play.model import LiveGame, damage_error

log = logging.getLogger("pax_hispanica.web")


_libc: Any = None


def trim_memory() -> bool:
    """Hand freed memory back to the system: a full garbage collection, then glibc's
    malloc_trim(0) (which returns the free pages at the top of the heap and inside it; Python's
    own small-object arenas go back by themselves once empty). False where there is no glibc."""
    global _libc
    gc.collect()
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _libc.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _libc = False
    if not _libc:
        return False
    try:
        _libc.malloc_trim(0)
    except AttributeError:     # a libc without malloc_trim (musl)
        _libc = False
        return False
    return True


def _forget_renders(gid: str) -> None:
    """Drop the game's boards from the render cache (updates imports this module's users, so it
    is looked up when needed)."""
    try:
        from pax_hispanica.web.present import updates
    except ImportError:
        return
    updates._cache.forget(gid)


class LiveCache:
    # a game nobody uses is dropped from memory (and replayed when needed again)
    IDLE_SECONDS = settings.seconds("PAXH_IDLE_SECONDS")
    # ... and before that, nobody having used it for this long, it keeps only its record, state
    # and seats (LiveGame.compact)
    COMPACT_SECONDS = settings.seconds("PAXH_COMPACT_SECONDS", minimum=1)
    SWEEP_SECONDS = 60
    # at most this many games in memory: past it, the least recently used evictable ones leave
    # (a game with connections or a bot at work stays, so the bound can be exceeded by those)
    MAX_LIVE_GAMES = settings.integer("PAXH_MAX_LIVE_GAMES", minimum=1)

    def __init__(self, load: Callable[[str], Awaitable[LiveGame]]) -> None:
        self._load = load
        self.live: dict[str, LiveGame] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        self.damaged: dict[str, str] = {}  # game -> what is wrong with its record (never served)
        self.compacted = 0  # games compacted by sweeps so far

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

    def sweep(self, now: float | None = None, trim: bool = True) -> int:
        """Drop idle games from memory (unused for IDLE_SECONDS, or the least recently used
        past MAX_LIVE_GAMES), compact those unused for COMPACT_SECONDS, and, when anything went,
        hand the memory back (trim_memory); returns how many games were dropped."""
        now = time.monotonic() if now is None else now
        idle = [gid for gid, g in self.live.items() if g.idle(now, self.IDLE_SECONDS)]
        for gid in idle:
            self.forget(gid)
        dropped = len(idle) + self.evict_over_limit()
        compacted = 0
        for g in list(self.live.values()):
            if g.idle(now, self.COMPACT_SECONDS) and g.compact():
                _forget_renders(g.id)
                compacted += 1
        self.compacted += compacted
        if trim and (dropped or compacted):
            trim_memory()
        return dropped

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
        _forget_renders(gid)
        lock = self._load_locks.get(gid)
        if lock is not None and not lock.locked():
            del self._load_locks[gid]
        return live

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.SWEEP_SECONDS)
            try:
                self.sweep()
            except Exception:  # a failed sweep must not end the sweeping
                log.exception("sweeping the games in memory failed")
