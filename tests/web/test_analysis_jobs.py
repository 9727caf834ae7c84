"""Game analysis in the background (issue 40, web/analysis_jobs/): the job queue survives a
server killed in the middle of an analysis (its job is taken by another server once the lease has
run out, and the dead server's lease no longer lets it write), and two servers racing on one
database never analyse the same game and seat twice. SQLite always; PostgreSQL when
PAXH_TEST_DATABASE_URL is set (the `database_url` fixture)."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import sqlalchemy as sa

from pax_hispanica.web.analysis_jobs.schema import analysis_jobs
from pax_hispanica.web.analysis_jobs.worker import Analyses
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.play.service import Service

from .helpers import run_in_own_loop

ROOT = Path(__file__).resolve().parents[2]
TWO = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]

# a server in a child process: it drains the queue with an "analysis" that takes `pause` seconds
# and prints the jobs it settled, one JSON line each (the analysis itself is the analysis
# package's, tested in tests/analysis; here the queue is under test)
CHILD = r"""
import asyncio, json, sys, time
from pax_hispanica.web.analysis_jobs.worker import Analyses
from pax_hispanica.web.play.service import Service
url, me, pause, lease, once = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "1"

def run(record, seat, budget):
    time.sleep(pause)
    return {"seat": seat, "by": me}, pause

async def main():
    svc = Service(url, bot_delay=0)
    a = Analyses(svc, workers=1, budget=0, lease=lease, poll=0.05, run=run, processes=False, me=me)
    while True:
        job = await a.store.claim(a.me, a.lease)
        if job is None:
            if once:
                await asyncio.sleep(0.05)
                continue
            break
        print(json.dumps({"claimed": [job.game_id, job.seat]}), flush=True)
        live = await svc.records.load(job.game_id)
        fut = asyncio.get_running_loop().run_in_executor(None, run, live.record, job.seat, 0)
        result, secs = await a._with_lease(job, asyncio.ensure_future(fut))
        ok = await a.store.done(job, a.me, result, 0, secs)
        print(json.dumps({"done": [job.game_id, job.seat], "ok": ok}), flush=True)
    await svc.storage.close()

asyncio.run(main())
"""




def child(url: str, me: str, pause: float, lease: float, once: bool = False) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen([sys.executable, "-c", CHILD, url, me, str(pause), str(lease), "1" if once else "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


async def make_games(url: str, n: int) -> list[str]:
    svc = Service(url, bot_delay=0)
    try:
        return [(await svc.create_game(2, TWO)).id for _ in range(n)]
    finally:
        await svc.storage.close()


def rows(url: str) -> list[dict]:
    eng = sa.create_engine(db.sync_url(url), poolclass=sa.pool.NullPool)
    try:
        with eng.connect() as c:
            return [dict(r) for r in c.execute(sa.select(analysis_jobs).order_by(analysis_jobs.c.game_id,
                                                                                 analysis_jobs.c.seat)).mappings()]
    finally:
        eng.dispose()


def test_a_job_whose_server_was_killed_is_taken_by_another_once_its_lease_has_run_out(database_url):
    db.migrate(database_url)
    gid = run_in_own_loop(make_games(database_url, 1))[0]

    async def queue() -> None:
        svc = Service(database_url, bot_delay=0)
        await Analyses(svc, workers=0).store.enqueue(gid, [1])
        await svc.storage.close()
    run_in_own_loop(queue())

    lease = 1.5
    dead = child(database_url, "dead", pause=60, lease=lease, once=True)   # claims, then analyses "for a minute"
    try:
        line = dead.stdout.readline()
        assert json.loads(line) == {"claimed": [gid, 1]}, line + dead.stderr.read()
        time.sleep(lease)     # alive: it renews its lease (every third of it)
        [row] = rows(database_url)
        assert (row["status"], row["claimed_by"], row["attempts"]) == ("running", "dead", 1)
        assert row["lease_until"] > time.time()
    finally:
        dead.kill()           # SIGKILL: no clean stop, the job stays "running" under its lease
        dead.wait()
    killed_at = time.time()

    calls: list[tuple[int, str]] = []

    def run(record: dict, seat: int, budget: int) -> tuple[dict, float]:
        assert len(record["actions"]) == 0 and record["config"]["players"] == 2
        calls.append((seat, "other"))
        return {"seat": seat}, 0.0

    async def other() -> tuple[bool, bool, float]:
        svc = Service(database_url, bot_delay=0)
        a = Analyses(svc, workers=1, budget=0, lease=lease, run=run, processes=False, me="other")
        try:
            early = await a.run_one()     # the lease still runs: not taken
            while time.time() < killed_at + lease + 0.1:
                await asyncio.sleep(0.1)
            took = await a.run_one()
            # the dead server's late answer changes nothing: the job is no longer its own
            from pax_hispanica.web.analysis_jobs.store import Job
            late = await a.store.done(Job(gid, 1, 1), "dead", {"seat": 1, "stale": True}, 0, 1.0)
            return early, took, late
        finally:
            await svc.storage.close()

    early, took, late = run_in_own_loop(other())
    assert (early, took, late) == (False, True, False)
    assert calls == [(1, "other")]
    [row] = rows(database_url)
    assert (row["status"], row["claimed_by"], row["attempts"]) == ("done", "other", 2)
    assert json.loads(row["result"]) == {"seat": 1}


def test_two_servers_racing_on_one_database_never_analyse_a_game_twice(database_url):
    db.migrate(database_url)
    games = run_in_own_loop(make_games(database_url, 8))

    async def queue() -> None:
        svc = Service(database_url, bot_delay=0)
        store = Analyses(svc, workers=0).store
        for gid in games:
            await store.enqueue(gid, [0, 1])
            assert await store.enqueue(gid, [0, 1]) == 0     # queued once, however often the end is seen
        await svc.storage.close()
    run_in_own_loop(queue())

    servers = [child(database_url, name, pause=0.03, lease=30) for name in ("one", "two")]
    done: dict[str, list[tuple[str, int]]] = {}
    for name, p in zip(("one", "two"), servers):
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        lines = [json.loads(x) for x in out.splitlines()]
        assert all(x["ok"] for x in lines if "done" in x)
        done[name] = [tuple(x["done"]) for x in lines if "done" in x]
    everything = {(g, s) for g in games for s in (0, 1)}
    both = done["one"] + done["two"]
    assert len(both) == len(set(both)) == len(everything)      # each job analysed once ...
    assert set(both) == everything                              # ... and every one of them
    assert done["one"] and done["two"]                          # the two servers shared the work
    assert all(r["status"] == "done" and r["attempts"] == 1 for r in rows(database_url))


def test_the_worker_process_ends_once_no_job_has_run_for_a_while(tmp_path):
    """Issue 37, M1: a server with nothing left to analyse holds no worker process (it kept ~80 MB
    after its last analysis); the next job starts a new one."""
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    db.migrate(url)
    gid = run_in_own_loop(make_games(url, 1))[0]

    async def main():
        svc = Service(url, bot_delay=0)
        a = Analyses(svc, workers=1, budget=0, poll=0.05, processes=True, me="one")
        a.POOL_IDLE_SECONDS = 0.5
        slot = asyncio.create_task(a.slot_forever(0))
        try:
            seen: list = []
            for round_ in range(2):          # a job, the worker ends; another job, a new worker
                await a.store.enqueue(gid, [round_])
                a.wake.set()
                deadline = time.monotonic() + 120
                while a.pool is None and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                assert a.pool is not None, "the job started no worker process"
                seen.append(a.pool)
                while a.pool is not None and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                assert a.pool is None, "the worker process was kept while idle"
                assert not a.current
            assert seen[0] is not seen[1]
            return rows(url)
        finally:
            slot.cancel()
            await asyncio.gather(slot, return_exceptions=True)
            await a.close()
            await svc.storage.close()

    jobs = run_in_own_loop(main())
    assert [j["status"] for j in jobs] != ["queued", "queued"]
