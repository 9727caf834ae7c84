"""Where a person's action waits inside the server (issue 37, P1): loaded into the server of
benchmarks/load.py through PYTHONPATH, only when PAXH_ACT_PROBE names an output file:

    .venv/bin/python benchmarks/load.py ... --server-env PYTHONPATH=benchmarks/act_probe \\
        --server-env PAXH_ACT_PROBE=out/probe/run     # out/probe/run.<pid>.json, one per server

It wraps, for actions by people (not bots): Service.act (the whole), the engine's verdict
(Service._judge), the store (Storage.store_action, the database's round trip and the wait to
resume after it), the push to this server's listeners (Service.changed), and measures the
event loop's lag (a task that asks to wake every 10 ms and records how late it woke). The
rest of an action's time in act is its wait for the game's lock and the hooks. Writes its
percentiles every 5 s and at exit (only a process where people acted writes, to the
name given plus its pid).
"""
from __future__ import annotations

import asyncio
import atexit
import contextvars
import json
import os
import threading
import time

_OUT = os.environ.get("PAXH_ACT_PROBE")


def _install() -> None:
    from pax_hispanica.web.db import store
    from pax_hispanica.web.play import service

    samples: dict[str, list[float]] = {k: [] for k in ("act", "judge", "store", "push", "rest", "loop_lag")}
    current: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("parts", default=None)
    in_store = contextvars.ContextVar("in_store", default=False)
    started = [False]
    kind: dict[str, bool] = {}

    async def lag() -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            samples["loop_lag"].append((time.perf_counter() - t - 0.01) * 1000)

    orig_act = service.Service.act

    async def act(self, rights, action, version):  # type: ignore[no-untyped-def]
        if not started[0]:
            started[0] = True
            asyncio.get_running_loop().create_task(lag())
        if self.seats.controller(rights) == "bot":
            return await orig_act(self, rights, action, version)
        parts = {"judge": 0.0, "store": 0.0, "push": 0.0}
        current.set(parts)
        t = time.perf_counter()
        try:
            return await orig_act(self, rights, action, version)
        finally:
            total = (time.perf_counter() - t) * 1000
            samples["act"].append(total)
            for k in ("judge", "store", "push"):
                samples[k].append(parts[k])
            if "checkout" in parts:         # PostgreSQL's store went through store._connect
                parts["statement"] = parts["store"] - parts["checkout"] - parts["checkin"]
                for k in ("checkout", "statement", "checkin"):
                    samples.setdefault(k, []).append(parts[k])
            samples["rest"].append(total - parts["judge"] - parts["store"] - parts["push"])

    orig_judge = service.Service._judge

    def judge(live, action):  # type: ignore[no-untyped-def]
        parts = current.get()
        t = time.perf_counter()
        try:
            return orig_judge(live, action)
        finally:
            if parts is not None:
                parts["judge"] += (time.perf_counter() - t) * 1000

    orig_store = store.Storage.store_action

    async def store_action(self, *a, **k):  # type: ignore[no-untyped-def]
        parts = current.get()
        kind["pg"] = bool(self.pg)
        in_store.set(True)
        t = time.perf_counter()
        try:
            return await orig_store(self, *a, **k)
        finally:
            in_store.set(False)
            if parts is not None:
                parts["store"] += (time.perf_counter() - t) * 1000

    orig_changed = service.Service.changed

    async def changed(self, live):  # type: ignore[no-untyped-def]
        parts = current.get()
        t = time.perf_counter()
        try:
            return await orig_changed(self, live)
        finally:
            if parts is not None:
                parts["push"] += (time.perf_counter() - t) * 1000

    import sqlalchemy as sa
    from pax_hispanica.web.db import schema as db

    if os.environ.get("PAXH_ACT_PROBE_NO_NOTIFY"):    # an experiment: no NOTIFY with the action
        store._STORE_PG = sa.text(store._STORE_PG.text.replace(
            "SELECT pg_notify(:chan, :payload) FROM a", "SELECT length(:chan) + length(:payload) FROM a"))

    if os.environ.get("PAXH_ACT_PROBE_OWN_AUTO"):     # an experiment: autocommit on a pool of its own
        from sqlalchemy.ext.asyncio import create_async_engine
        orig_init = store.Storage.__init__

        def init(self, database_url):  # type: ignore[no-untyped-def]
            orig_init(self, database_url)
            if self.pg:
                self.auto = create_async_engine(db.async_url(database_url), isolation_level="AUTOCOMMIT",
                                                pool_reset_on_return=None, pool_size=20, max_overflow=10)

        store.Storage.__init__ = init

    # the store's parts on PostgreSQL: taking the pool's connection, the statement (store less
    # the two), returning the connection, timed around the store's own store._connect
    from contextlib import asynccontextmanager

    orig_connect = store._connect

    @asynccontextmanager
    async def connect(engine):  # type: ignore[no-untyped-def]
        parts = current.get() if in_store.get() else None
        t0 = time.perf_counter()
        async with orig_connect(engine) as conn:
            t1 = time.perf_counter()
            yield conn
            t2 = time.perf_counter()
        if parts is not None:
            parts["checkout"] = parts.get("checkout", 0.0) + (t1 - t0) * 1000
            parts["checkin"] = parts.get("checkin", 0.0) + (time.perf_counter() - t2) * 1000

    store._connect = connect
    service.Service.act = act
    service.Service._judge = staticmethod(judge)
    store.Storage.store_action = store_action
    service.Service.changed = changed

    def q(xs: list[float], p: float) -> float | None:
        if not xs:
            return None
        s = sorted(xs)
        return round(s[min(len(s) - 1, int(p * len(s)))], 3)

    def dump() -> None:
        if not samples["act"]:      # a worker process, or no person acted: nothing to say
            return
        out = {k: {"n": len(v), "p50": q(v, 0.5), "p90": q(v, 0.9), "p99": q(v, 0.99),
                   "mean": round(sum(v) / len(v), 3) if v else None} for k, v in samples.items()}
        out["pg"] = kind.get("pg")
        with open(f"{_OUT}.{os.getpid()}.json", "w") as f:
            json.dump(out, f, indent=1)

    def every() -> None:
        while True:
            time.sleep(5)
            dump()

    threading.Thread(target=every, daemon=True).start()
    atexit.register(dump)


if _OUT:
    try:
        _install()
    except Exception as e:  # a probe must never keep the server from starting
        print("act_probe: not installed:", e)
