"""The analysis worker: finished games analysed in the background, never on the event loop.

    Analyses(svc, workers=None, budget=None)   # a Service hook (play/service.py's `hooks`)

- **Queued** when a game finishes (`after_act` sees the last action: one job per seat a person
  played, or every seat of a game of bots alone), and, as a safety net, for any finished game
  without jobs (a server stopped between the last move and the queueing).
- **Run** by `workers` slots per server (PAXH_ANALYSIS_WORKERS, default 1; 0: this server
  analyses nothing, others may), each analysis in a worker process started at `nice` 10, one
  analysis per slot at a time: the CPU share of a server is bounded by its slots, and a player's
  move never waits for an analysis (the event loop only claims, renews and settles jobs). The
  worker process ends once no job has run for POOL_IDLE_SECONDS and the next job starts a new
  one, so an idle server holds no worker (issue 37, M1).
- **Shared by servers** on one database through the job table's lease (store.py): a job is
  claimed atomically by one server, its lease renewed while it runs; a job whose server died is
  claimed by another once the lease (PAXH_ANALYSIS_LEASE_SECONDS) has run out. A job that fails
  three times is left failed, with its error.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pax_hispanica.web import settings
from pax_hispanica.web.analysis_jobs.store import Job, JobStore

if TYPE_CHECKING:
    from pax_hispanica.web.play.model import LiveGame, Rights
    from pax_hispanica.web.play.service import Service

log = logging.getLogger("pax_hispanica.web")
NICE = 10


def _lower_priority() -> None:
    with contextlib.suppress(OSError):   # not allowed here: the slot count still bounds the share
        os.nice(NICE)


async def stop_pool(pool: Executor | None) -> None:
    """Shut a worker pool down and end its processes (a search still running is of no use)."""
    if pool is None:
        return
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for w in workers:
        w.terminate()
    await asyncio.to_thread(lambda: [w.join(5) for w in workers])


def analyse_record(record: dict[str, Any], seat: int, budget: int) -> tuple[dict[str, Any], float]:
    """One seat's analysis as JSON (both languages) and the CPU seconds it took (in a worker)."""
    from pax_hispanica.analysis import analyse

    t0 = time.process_time()
    result = analyse(record, seat=seat, budget=budget, seed=0).to_json()
    return result, time.process_time() - t0


class Analyses:
    """The analysis queue of one server: queueing (a Service hook), the worker slots, the page's reads."""

    # the worker process ends once no job has run for this long (started again by the next job):
    # a server with nothing to analyse holds no worker (issue 37, M1: an idle server's worker
    # process kept ~80 MB after its last analysis)
    POOL_IDLE_SECONDS = 60.0

    def __init__(self, svc: Service, workers: int | None = None, budget: int | None = None,
                 lease: float | None = None, poll: float | None = None,
                 run: Callable[[dict[str, Any], int, int], tuple[dict[str, Any], float]] = analyse_record,
                 processes: bool = True, me: str | None = None) -> None:
        self.svc = svc
        self.store = JobStore(svc.storage)
        self.me = me or svc.node
        self.workers = settings.integer("PAXH_ANALYSIS_WORKERS", maximum=64) if workers is None else workers
        self.budget = settings.integer("PAXH_ANALYSIS_BUDGET") if budget is None else budget
        self.lease = settings.seconds("PAXH_ANALYSIS_LEASE_SECONDS", minimum=1) if lease is None else lease
        self.poll = settings.seconds("PAXH_ANALYSIS_POLL_SECONDS", minimum=0.05) if poll is None else poll
        self.run = run
        self.processes = processes
        self.pool: Executor | None = None
        self.wake = asyncio.Event()
        self.current: dict[int, Job] = {}     # slot -> the job it runs
        self.last_work = time.monotonic()     # when a slot last finished a job (or the server started)

    # ------------------------------------------------------------------ queueing (Service hook)
    @staticmethod
    def seats_to_analyse(live: LiveGame) -> list[int]:
        """The seats analysed when the game ends: its people's. A game of bots only gets its first
        seat's (the chart and key moments are every seat's; another seat's decisions are queued
        when someone asks for them on the analysis page), so a server full of bot games does not
        queue an analysis per bot seat."""
        people = [s.seat for s in live.seats if s.kind == "human"]
        return people or [live.seats[0].seat]

    async def after_act(self, live: LiveGame, action: Any, before: Any, rights: Rights) -> None:
        if live.over:
            await self.store.enqueue(live.id, self.seats_to_analyse(live))
            self.wake.set()

    async def backfill(self) -> int:
        added = 0
        for gid, _players in await self.store.finished_without_jobs():
            try:
                live = await self.svc.records.load(gid)
            except Exception:   # a damaged record is the records' business (logged there)
                continue
            added += await self.store.enqueue(gid, self.seats_to_analyse(live))
        return added

    # ------------------------------------------------------------------ running
    def start(self) -> list[asyncio.Task[Any]]:
        if self.workers <= 0:
            return []
        return [asyncio.create_task(self.slot_forever(i)) for i in range(self.workers)]

    async def close(self) -> None:
        """Stop the worker process (an analysis under way was handed back by its slot)."""
        pool, self.pool = self.pool, None   # a slot that claims a job meanwhile starts a new one
        await stop_pool(pool)

    async def close_if_idle(self, now: float | None = None) -> bool:
        """End the worker process when no slot runs a job and none has for POOL_IDLE_SECONDS
        (keep less: the next job starts a new one). True if it was ended."""
        now = time.monotonic() if now is None else now
        if self.pool is None or self.current or now - self.last_work < self.POOL_IDLE_SECONDS:
            return False
        await self.close()
        return True

    def _executor(self) -> Executor | None:
        if not self.processes:
            return None     # asyncio's default thread pool (tests)
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_lower_priority)
        return self.pool

    async def slot_forever(self, slot: int) -> None:
        if slot == 0:
            try:
                await self.backfill()
            except Exception:
                log.exception("analysis: queueing finished games failed")
        while True:
            try:
                while await self.run_one(slot):
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis worker failed")
            try:
                await self.close_if_idle()
            except Exception:
                log.exception("ending the idle analysis worker failed")
            self.wake.clear()
            # asyncio.timeout, not wait_for: waiting makes no task of its own (an idle server's
            # tasks stay one per slot; tests/web/test_clocks.py counts them)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll):
                    await self.wake.wait()

    async def run_one(self, slot: int = 0) -> bool:
        """Claim one job, analyse it, settle it; False when no job was free."""
        job = await self.store.claim(self.me, self.lease)
        if job is None:
            return False
        self.current[slot] = job
        try:
            try:
                live = await self.svc.records.load(job.game_id)
                record = live.record
                work = asyncio.get_running_loop().run_in_executor(self._executor(), self.run, record, job.seat,
                                                                  self.budget)
                result, seconds = await self._with_lease(job, asyncio.ensure_future(work))
            except asyncio.CancelledError:
                await self.store.release(job, self.me)      # stopping: hand it back at once
                raise
            except Exception as e:
                log.warning("analysis of game %s seat %s failed: %s", job.game_id, job.seat, e)
                if isinstance(e, BrokenProcessPool):
                    await self.close()                      # the worker died: start afresh
                await self.store.failed(job, self.me, f"{type(e).__name__}: {e}")
                return True
            if not await self.store.done(job, self.me, result, self.budget, seconds):
                log.warning("analysis of game %s seat %s: the lease was lost; another server has it",
                            job.game_id, job.seat)
            return True
        finally:
            self.current.pop(slot, None)
            self.last_work = time.monotonic()

    async def _with_lease(self, job: Job, work: asyncio.Future[Any]) -> Any:
        """Wait for the work, renewing the job's lease every third of it."""
        while True:
            done, _ = await asyncio.wait({work}, timeout=max(0.05, self.lease / 3))
            if done:
                return work.result()
            await self.store.renew(job, self.me, self.lease)


def install(svc: Service) -> Analyses:
    analyses = Analyses(svc)
    svc.hooks.append(analyses)
    return analyses
