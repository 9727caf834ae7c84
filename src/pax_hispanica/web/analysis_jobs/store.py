"""The analysis jobs' SQL (schema.py), on SQLite or PostgreSQL: queue, claim, renew, settle, read.

Claiming is one conditional UPDATE that only succeeds while the job is free (queued, or running
under a lease that has run out):

    UPDATE analysis_jobs SET status='running', claimed_by=:me, lease_until=:now+:lease, attempts=attempts+1
    WHERE game_id=:g AND seat=:s AND attempts=:seen AND (status='queued' OR (status='running' AND lease_until<:now))

so of two servers that picked the same candidate one changes a row and the other none. On
PostgreSQL the candidate is picked with SELECT ... FOR UPDATE SKIP LOCKED in the same
transaction, so servers do not even contend for one row. Every later write of a job (renewing,
settling) also requires `claimed_by = me`: a server that lost its lease (it stalled past it, and
another took the job) can no longer write it.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.analysis_jobs.schema import analysis_jobs as jobs
from pax_hispanica.web.social import schema as social_db

MAX_ATTEMPTS = 3      # a job that failed (or whose server died) this often is left failed


@dataclass(frozen=True)
class Job:
    game_id: str
    seat: int
    attempts: int


class JobStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ queueing
    async def enqueue(self, game_id: str, seats: list[int], now: float | None = None) -> int:
        """Queue the analysis of `seats` of a finished game (a job already there is kept)."""
        now = time.time() if now is None else now
        added = 0
        async with self.storage.write() as conn:
            have = {r.seat for r in (await conn.execute(sa.select(jobs.c.seat).where(jobs.c.game_id == game_id))).all()}
            for seat in seats:
                if seat not in have:
                    await conn.execute(jobs.insert().values(game_id=game_id, seat=seat, status="queued", created=now))
                    added += 1
        return added

    async def finished_without_jobs(self, limit: int = 20) -> list[tuple[str, int]]:
        """Finished games no job was queued for (a server stopped between the last move and the
        queueing, or the game ended before this table existed): (game id, players)."""
        g = db.games
        q = (sa.select(g.c.id, g.c.config).where(sa.and_(g.c.status == "over", ~sa.exists(
            sa.select(jobs.c.game_id).where(jobs.c.game_id == g.c.id)))).order_by(g.c.updated_at.desc()).limit(limit))
        async with self.storage.read() as conn:
            rows = (await conn.execute(q)).all()
        return [(r.id, int(json.loads(r.config).get("players") or 0)) for r in rows]

    # ------------------------------------------------------------------ claiming
    def _free(self, now: float) -> Any:
        c = jobs.c
        return sa.and_(c.attempts < MAX_ATTEMPTS,
                       sa.or_(c.status == "queued", sa.and_(c.status == "running", c.lease_until < now)))

    async def claim(self, me: str, lease: float, now: float | None = None) -> Job | None:
        """Take the oldest free job for server `me` until now + lease; None when there is none."""
        now = time.time() if now is None else now
        c = jobs.c
        pick = sa.select(c.game_id, c.seat, c.attempts).where(self._free(now)).order_by(c.created, c.game_id, c.seat)
        # PostgreSQL: the row is locked until this transaction ends, others skip it
        pick = pick.limit(1).with_for_update(skip_locked=True) if self.storage.pg else pick.limit(5)
        async with self.storage.write() as conn:
            for row in (await conn.execute(pick)).all():
                r = await conn.execute(jobs.update().where(sa.and_(
                    c.game_id == row.game_id, c.seat == row.seat, c.attempts == row.attempts, self._free(now)))
                    .values(status="running", claimed_by=me, lease_until=now + lease, attempts=c.attempts + 1))
                if r.rowcount == 1:
                    return Job(row.game_id, row.seat, row.attempts + 1)
        await self._give_up(now)
        return None

    async def _give_up(self, now: float) -> None:
        """Jobs out of attempts whose last lease ran out are failed (shown as such)."""
        c = jobs.c
        async with self.storage.write() as conn:
            await conn.execute(jobs.update().where(sa.and_(c.attempts >= MAX_ATTEMPTS, sa.or_(
                c.status == "queued", sa.and_(c.status == "running", c.lease_until < now))))
                .values(status="failed", error=sa.func.coalesce(c.error, "the server analysing it stopped")))

    def _mine(self, job: Job, me: str) -> Any:
        c = jobs.c
        return sa.and_(c.game_id == job.game_id, c.seat == job.seat, c.claimed_by == me, c.status == "running")

    async def renew(self, job: Job, me: str, lease: float, now: float | None = None) -> bool:
        """Extend the lease; False when the job is no longer this server's."""
        now = time.time() if now is None else now
        async with self.storage.write() as conn:
            r = await conn.execute(jobs.update().where(self._mine(job, me)).values(lease_until=now + lease))
        ret: bool = r.rowcount == 1
        return ret

    async def done(self, job: Job, me: str, result: dict[str, Any], budget: int, seconds: float) -> bool:
        async with self.storage.write() as conn:
            r = await conn.execute(jobs.update().where(self._mine(job, me)).values(
                status="done", result=json.dumps(result, separators=(",", ":")), budget=budget, seconds=seconds,
                finished=time.time(), lease_until=None, error=None))
        ret: bool = r.rowcount == 1
        return ret

    async def failed(self, job: Job, me: str, error: str) -> bool:
        """An analysis that raised: queued again while attempts remain, else failed."""
        status = "failed" if job.attempts >= MAX_ATTEMPTS else "queued"
        async with self.storage.write() as conn:
            r = await conn.execute(jobs.update().where(self._mine(job, me)).values(
                status=status, error=error[:2000], lease_until=None, claimed_by=None))
        ret: bool = r.rowcount == 1
        return ret

    async def release(self, job: Job, me: str) -> None:
        """A server that stops hands its job back at once (queued, the attempt not counted)."""
        async with self.storage.write() as conn:
            await conn.execute(jobs.update().where(self._mine(job, me)).values(
                status="queued", claimed_by=None, lease_until=None, attempts=jobs.c.attempts - 1))

    # ------------------------------------------------------------------ reading
    async def jobs_of(self, game_id: str) -> dict[int, dict[str, Any]]:
        """Every job of a game by seat: status, result (parsed), error."""
        async with self.storage.read() as conn:
            rows = (await conn.execute(sa.select(jobs).where(jobs.c.game_id == game_id))).mappings().all()
        out = {}
        for r in rows:
            out[int(r["seat"])] = {"status": r["status"], "error": r["error"], "budget": r["budget"],
                                   "result": json.loads(r["result"]) if r["result"] else None}
        return out

    async def is_rated_table(self, game_id: str) -> bool:
        """Whether the game counts for ratings while it is on (social/ratings.py, PRJ-35): a game
        made from a table with no variant. Such a game gets no Hint (the rating's own later
        reasons to leave it unrated cannot be known before the end)."""
        t = social_db.open_tables
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(t.c.params).where(t.c.game_id == game_id))).first()
            if row is None:
                return False
            cfg = (await conn.execute(sa.select(db.games.c.config).where(db.games.c.id == game_id))).scalar()
        params = json.loads(row.params or "{}") or json.loads(cfg or "{}").get("params") or {}
        return not params
