"""PostgreSQL LISTEN/NOTIFY fan-out between server processes.

Each server keeps one extra connection that LISTENs on a channel; whoever
stores an action NOTIFYs (inside the same transaction, so the message goes
out only on commit). Receivers catch up from the database and push fresh
views to their own connections.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any
from collections.abc import Awaitable, Callable

from sqlalchemy.engine import make_url

log = logging.getLogger("pax_hispanica.web")


def psycopg_dsn(url: str) -> str:
    u = make_url(url)
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


async def listen_forever(url: str, channel: str, on_message: Callable[[str], Awaitable[None]],
                         on_listening: Callable[[], Awaitable[None]] | None = None) -> None:
    """LISTEN on `channel` for ever; after every (re)connection call on_listening, so that
    whatever was missed while the connection was down is caught up."""
    import psycopg

    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(psycopg_dsn(url), autocommit=True)
            async with conn:
                await conn.execute(f'LISTEN "{channel}"')
                if on_listening is not None:
                    await on_listening()
                async for note in conn.notifies():
                    try:
                        await on_message(note.payload)
                    except Exception:
                        log.exception("notification %r failed", note.payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("LISTEN connection lost; retrying in 1 s")
            await asyncio.sleep(1)


CHANNEL = "paxh_games"


class PubSub:
    """The fan-out between servers on one PostgreSQL database (off on SQLite: one server).

    A message is "game:what:node" (what: the new version, "seats", or "listen" for a catch-up
    after a lost connection); the storing transaction sends it (Storage.store_action,
    Storage.seat_to_bot) so it goes out only on commit. A server skips its own messages."""

    def __init__(self, url: str, node: str, enabled: bool) -> None:
        self.url, self.node, self.enabled = url, node, enabled
        self.channel = CHANNEL
        self._task: asyncio.Task[Any] | None = None

    def message(self, gid: str, what: Any) -> tuple[str, str] | None:
        """(channel, payload) to send with a commit; None when there is nobody to tell."""
        return (self.channel, f"{gid}:{what}:{self.node}") if self.enabled else None

    def parse(self, payload: str) -> tuple[str, str, str]:
        gid, what, node = (payload.split(":") + ["", ""])[:3]
        return gid, what, node

    def start(self, on_message: Callable[[str], Awaitable[None]],
              on_listening: Callable[[], Awaitable[None]] | None = None) -> asyncio.Task[Any] | None:
        if self.enabled:
            self._task = asyncio.create_task(listen_forever(self.url, self.channel, on_message, on_listening))
        return self._task
