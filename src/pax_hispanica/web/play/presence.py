"""Presence: who is here. Each server counts its open connections per (game, seat) and marks
those seats as seen in the database (`seats.last_seen`, refreshed every HEARTBEAT_SECONDS), so
presence works across servers. A human seat whose player was here and has been unseen for
AWAY_AFTER_SECONDS is *away*: then any other player may hand it to a bot."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.play.model import LiveGame

log = logging.getLogger("pax_hispanica.web")


class Presence:
    HEARTBEAT_SECONDS = 15.0  # how often a server marks the seats it has connections for as present
    AWAY_AFTER_SECONDS = 45.0  # a human seat unseen this long is away: others may hand it to a bot

    def __init__(self, storage: Storage, live: dict[str, LiveGame],
                 push: Callable[[LiveGame], Awaitable[None]]) -> None:
        self.storage, self.live, self.push = storage, live, push
        self.connections: dict[tuple[str, int], int] = {}  # (game, seat) -> open connections here

    async def seat_connected(self, live: LiveGame, seat: int, delta: int) -> None:
        """A connection for `seat` opened (+1) or closed (-1) on this server."""
        key = (live.id, seat)
        self.connections[key] = self.connections.get(key, 0) + delta
        if self.connections[key] <= 0:
            del self.connections[key]
        else:
            await self.storage.mark_seen([key])
        if await self.refresh(live):
            await self.push(live)

    async def refresh(self, live: LiveGame, seen: dict[int, Any] | None = None) -> bool:
        """Recompute which human seats are away; True when that changed. `seen`: the game's
        `last_seen` already read (the heartbeat reads every game's in one statement)."""
        if seen is None:
            seen = await self.storage.last_seen(live.id)
        cutoff = time.time() - self.AWAY_AFTER_SECONDS
        # a seat never seen has not joined yet (only the host may hand it to a bot); away means
        # its player was here and has been gone for a while
        away = frozenset(s.seat for s in live.seats if s.kind == "human" and (live.id, s.seat) not in self.connections
                         and seen.get(s.seat) is not None and seen[s.seat] < cutoff)
        changed = away != live.away
        live.away = away
        return changed

    async def heartbeat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.HEARTBEAT_SECONDS)
            try:
                await self.heartbeat()
            except Exception:
                log.exception("presence heartbeat failed")

    async def heartbeat(self) -> None:
        """Mark the seats this server has connections for as seen, and push the games whose away
        seats changed: one write and one read for every watched game together, not a read each
        (issue 37, P1)."""
        await self.storage.mark_seen(list(self.connections))
        watched = [live for live in list(self.live.values()) if live.listeners]
        seen = await self.storage.last_seen_many([live.id for live in watched]) if watched else {}
        for live in watched:
            if await self.refresh(live, seen.get(live.id, {})):
                await self.push(live)
