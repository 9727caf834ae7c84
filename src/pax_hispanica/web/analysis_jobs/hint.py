"""The Hint of unrated games (issue 38): what the strongest bot would do now, and why.

    Hints(svc, jobs, budget=None).hint(rights) -> {"action", "explanation"}

The search runs in a worker process of its own (one per server, niced, one hint at a time), at
PAXH_HINT_BUDGET iterations (default 150: a fraction of a second), never on the event loop.
Refused, with nothing changed: in a game that counts for ratings (`hint_rated`), a finished game,
for anyone but the seat to move, or when the seat has nothing to decide.
"""
from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from pax_hispanica.web import settings
from pax_hispanica.web.analysis_jobs.store import JobStore
from pax_hispanica.web.analysis_jobs.worker import _lower_priority, stop_pool
from pax_hispanica.web.engine_port import advise, api
from pax_hispanica.web.play.model import ServerError

if TYPE_CHECKING:
    from pax_hispanica.web.play.model import Rights
    from pax_hispanica.web.play.service import LiveGame, Service


class Hints:
    def __init__(self, svc: Service, store: JobStore, budget: int | None = None) -> None:
        self.svc, self.store = svc, store
        self.budget = settings.integer("PAXH_HINT_BUDGET") if budget is None else budget
        self.pool: ProcessPoolExecutor | None = None
        self.one = asyncio.Lock()     # one hint at a time per server

    async def check(self, live: LiveGame) -> bool:
        """Whether the game gets the Hint here (this server gives hints and the game does not
        count for ratings), kept on the game as `live.hint` for the action bar's template, which
        never waits for the database."""
        live.hint = self.budget > 0 and not await self.store.is_rated_table(live.id)
        return live.hint

    # a Service hook (play/service.py): loaded(live) here, the worker process stopped with the server
    def start(self) -> list[asyncio.Task[Any]]:
        return []

    async def loaded(self, live: LiveGame) -> None:
        """A Service hook: a game this server reads from the database learns whether it gets the
        Hint (a table links its game after creating it, so a new game learns it on its page)."""
        await self.check(live)

    async def hint(self, rights: Rights) -> dict[str, Any]:
        if self.budget <= 0:
            raise ServerError("hint_off", "this server gives no hints", status=403)
        if rights.role not in ("seat", "table"):
            raise ServerError("not_your_seat", "only a seat's player may ask for a hint", status=403)
        live = await self.svc.get(rights.game_id)
        if not await self.check(live):
            raise ServerError("hint_rated", "no hints in a rated game: the rating would not be your own play",
                              status=403)
        if live.over:
            raise ServerError("game_over", "the game is over", status=409)
        seat = next((s for s in sorted(rights.seats) if s in api.acting(live.state)), None)
        legal = api.legal_actions(live.state, seat) if seat is not None else []
        if seat is None or not legal:
            raise ServerError("not_your_turn", "you have nothing to decide now", status=409)
        view = api.view(live.state, seat, include_state=True)
        log = list(api.redact(live.events, seat))
        seed = api.derived_seed(live.seed, f"hint|{seat}|{live.version}")
        version = live.version
        async with self.one:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_lower_priority)
            try:
                action, why = await asyncio.get_running_loop().run_in_executor(
                    self.pool, advise, seed, self.budget, view, legal, log)
            except BrokenProcessPool:     # the worker died: the next hint starts another
                self.pool = None
                raise
        return {"seat": seat, "version": version, "action": action, "explanation": why,
                "view": api.view(live.state, seat)}

    async def close(self) -> None:
        pool, self.pool = self.pool, None
        await stop_pool(pool)
