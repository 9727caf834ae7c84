"""Notification latency: from a move to the SMTP server receiving the "your move" email.

Starts a local SMTP server (aiosmtpd, in this process, on a free loopback port) and one
`paxh serve` process (SQLite in a temporary directory, or --database-url), creates --games
turn-based 2-player games with an email address per seat, and in each game plays the first
player's move that asks the other player for a sealed bid (an auction on the Market deck).
For each, the latency is the time from sending the move (POST /api/act) to the SMTP server
receiving the other player's email (the outbox row is written with the move's clock update,
the worker is woken at once and sends it through smtplib).

    .venv/bin/python benchmarks/notify_latency.py [--games 50] [--database-url URL] [--gap 0.2]

Then it measures the clock sweeper with --idle-games live clocked games nobody is connected to:
the cost of one sweep (one indexed query finding nothing due), p50 and p99.
"""
from __future__ import annotations

import argparse
import email
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from email import policy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Box:
    def __init__(self) -> None:
        self.got: dict[str, float] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.got[str(msg["To"])] = time.perf_counter()
        return "250 OK"


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.loads(r.read())


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--gap", type=float, default=0.2, help="seconds between moves (one move at a time)")
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--idle-games", type=int, default=1000)
    args = ap.parse_args()

    from aiosmtpd.controller import Controller
    box = Box()
    smtp_port = free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=smtp_port)
    ctl.start()
    tmp = tempfile.mkdtemp(prefix="paxh-notify-")
    url = args.database_url or f"sqlite:///{tmp}/paxh.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PAXH_RATE_CREATE": "0", "PAXH_RATE_ACT": "0", "PAXH_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}",
           "PAXH_PUBLIC_URL": base, "PAXH_NOTIFY_DELAY": "0"}
    code = f"from pax_hispanica.web.server import run; run('127.0.0.1', {port}, {url!r})"
    log = open(os.path.join(tmp, "server.log"), "w")  # noqa: SIM115 -- the server writes to it while it runs
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                get(base, "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        lat: list[float] = []
        for i in range(args.games):
            g = post(base, "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                          "table": {"pace": "turn", "move_seconds": 86400}})
            for s in g["seats"]:
                post(base, f"/api/notify/{s['token']}", {"email": f"g{i}s{s['seat']}@example.com"})
            v = get(base, f"/api/view/{g['seats'][0]['token']}")
            first = v["acting"][0]
            other = 1 - first
            token = g["seats"][first]["token"]
            v = get(base, f"/api/view/{token}")
            options = [o for d in v["legal"] if d["kind"] == "choice" for o in d["options"]]
            action = next(o for o in options if o["type"] == "initiate" and not o.get("buried"))
            addr = f"g{i}s{other}@example.com"
            time.sleep(args.gap)
            t0 = time.perf_counter()
            post(base, f"/api/act/{token}", {"version": v["version"], "action": action})
            while addr not in box.got:
                if time.perf_counter() - t0 > 30:
                    raise SystemExit(f"no email for {addr} in 30 s")
                time.sleep(0.001)
            lat.append((box.got[addr] - t0) * 1000)
        print(f"notification latency, move -> SMTP received, {len(lat)} moves ({'PostgreSQL' if args.database_url else 'SQLite'}):")
        print(f"  p50 {statistics.median(lat):.1f} ms   p99 {pct(lat, 0.99):.1f} ms   max {max(lat):.1f} ms")
    finally:
        proc.terminate()
        proc.wait(10)
        ctl.stop()
    if args.idle_games:
        sweep_cost(url, args.idle_games)


def sweep_cost(url: str, n: int) -> None:
    """n live clocked games with nobody connected: how long one sweep takes (in-process)."""
    import asyncio

    from pax_hispanica.web.play.service import Service
    from pax_hispanica.web.play.turn_based import Play

    async def run() -> list[float]:
        svc = Service(url, bot_delay=0)
        play = Play(svc)
        svc.hooks.append(play)
        for _ in range(n):
            await svc.create_game(2, [{"kind": "human"}, {"kind": "human"}],
                                  table={"pace": "live", "base_seconds": 3600})
        svc.cache.live.clear()     # nobody is connected: nothing in memory
        times = []
        for _ in range(200):
            t0 = time.perf_counter()
            assert await play.clocks.sweep_once() == 0
            times.append((time.perf_counter() - t0) * 1000)
        await svc.storage.close()
        return times

    from pax_hispanica.web.db import schema as db
    db.migrate(url)
    times = asyncio.run(run())
    print(f"clock sweep with {n} more clocked games running and nobody connected: "
          f"p50 {statistics.median(times):.2f} ms, p99 {pct(times, 0.99):.2f} ms per sweep (one per second per server); "
          "no task or timer per game")


if __name__ == "__main__":
    main()
