"""What a game idle in the web server's memory costs (issue 37, M1).

    nice -n 19 .venv/bin/python benchmarks/game_memory.py --games 20

In one process: a Service on a fresh SQLite file (no HTTP), one warm-up game, then --games
4-player games of heuristic bots played to the end (bot_delay 0, bots in the server's thread).
Then, per game:

- traced: Python's allocations (tracemalloc) the games hold, divided by their number, right after
  they finished (bots and events still in memory) and after LiveCache.sweep compacted them (the
  sweep's COMPACT_SECONDS passed: only record, state and seats kept, LiveGame.compact);
- rss: the process's resident set growth over the warm-up figure, divided by the games, at the
  same two points (after the sweep, which also trims: trim_memory);
- the parts of one game (deep sizes of its record, state and events, shared objects counted).

Prints JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc


def rss() -> int:
    with open(f"/proc/{os.getpid()}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def deep(o, seen=None) -> int:
    seen = set() if seen is None else seen
    if id(o) in seen:
        return 0
    seen.add(id(o))
    n = sys.getsizeof(o)
    if isinstance(o, dict):
        n += sum(deep(k, seen) + deep(v, seen) for k, v in o.items())
    elif isinstance(o, (list, tuple, set, frozenset)):
        n += sum(deep(x, seen) for x in o)
    return n


async def main(games: int, players: int, trace: bool) -> dict:
    from pax_hispanica.web.db import schema as db
    from pax_hispanica.web.play.cache import trim_memory
    from pax_hispanica.web.play.service import Service
    url = f"sqlite:///{tempfile.mkdtemp()}/memory.sqlite3"
    db.migrate(url)
    svc = Service(url, bot_delay=0, bot_processes=0)
    await svc.start()
    seats = [{"kind": "bot", "bot_kind": "heuristic"}] * players
    warm = await svc.create_game(players, seats)
    while not warm.over:
        await asyncio.sleep(0.05)
    svc.cache.forget(warm.id)
    trim_memory()
    if trace:
        tracemalloc.start()
    t0, r0 = (tracemalloc.get_traced_memory()[0] if trace else 0), rss()
    started = time.time()
    live = [await svc.create_game(players, seats) for _ in range(games)]
    while not all(g.over for g in live):
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.2)
    gc.collect()
    t1, r1 = (tracemalloc.get_traced_memory()[0] if trace else 0), rss()
    one = live[0]
    parts = {"record": deep(one.record), "state": deep(one.state), "events": deep(one.events)}
    svc.cache.sweep(now=time.monotonic() + svc.cache.COMPACT_SECONDS + 1)   # compacts every game, trims
    t2, r2 = (tracemalloc.get_traced_memory()[0] if trace else 0), rss()
    out = {"games": games, "players": players, "actions_mean": round(sum(g.version for g in live) / games),
           "in_memory_after_sweep": len(svc.live),
           "per_game_mb": {
               "traced_played": round((t1 - t0) / games / 1e6, 3) if trace else None,
               "traced_compacted": round((t2 - t0) / games / 1e6, 3) if trace else None,
               "rss_played": round((r1 - r0) / games / 1e6, 3),
               "rss_compacted": round((r2 - r0) / games / 1e6, 3)},
           "one_game_mb": {k: round(v / 1e6, 3) for k, v in parts.items()},
           "rss_mb": {"warm": round(r0 / 1e6, 1), "played": round(r1 / 1e6, 1), "compacted": round(r2 / 1e6, 1)},
           "seconds": round(time.time() - started, 1)}
    await svc.close()
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--no-trace", action="store_true", help="RSS only (tracemalloc slows the games and costs memory)")
    a = ap.parse_args()
    print(json.dumps(asyncio.run(main(a.games, a.players, not a.no_trace)), indent=1))
