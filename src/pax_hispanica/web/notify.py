"""PostgreSQL LISTEN/NOTIFY fan-out between server processes.

Each server keeps one extra connection that LISTENs on a channel; whoever
stores an action NOTIFYs (inside the same transaction, so the message goes
out only on commit). Receivers catch up from the database and push fresh
views to their own connections.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

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
