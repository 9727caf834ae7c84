"""People's moves go ahead of the bots' (issue 37, P1).

On PostgreSQL a person's action gives the event loop away at its database round trip; the
reply then waits behind every bot move that became ready meanwhile (100 bot games make a few
hundred a second), where on SQLite the store runs without yielding. So while any person's
action is under way on this server, a bot about to move waits (at most WAIT_SECONDS, so a
stream of people's moves never starves the bots) and the person's action resumes as soon as
its reply is in. A bot move already started is not interrupted.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class PeopleFirst:
    # the longest a bot move waits for people's actions (one action is a few milliseconds)
    WAIT_SECONDS = 0.25

    def __init__(self) -> None:
        self.in_flight = 0
        self._clear = asyncio.Event()
        self._clear.set()

    @contextlib.contextmanager
    def person_acting(self) -> Iterator[None]:
        """Around a person's action: bots wait while it is under way."""
        self.in_flight += 1
        self._clear.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._clear.set()

    async def before_bot_move(self) -> None:
        """A bot's turn to move: wait while people's actions are under way (WAIT_SECONDS at most)."""
        if self.in_flight == 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._clear.wait(), self.WAIT_SECONDS)
