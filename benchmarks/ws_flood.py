"""WebSocket flood benchmark (issue 37, N3): another player's action p99, with and without one
flooding client, on one server process on loopback.

Players: --games games of 2 seats, every seat played by a scripted JSON client (benchmarks/load.py's
play_seat: act when asked, think 0..2x --think ms), measuring each action's round trip (act sent to
its ack, the action checked and stored). Phase 1: --seconds of play alone. Phase 2: fresh games, the
same play, and one flooding client on another game's seat link in the page's HTML format, sending
`refresh` (a whole board rendered) as fast as the socket takes it, reconnecting a second after it is
closed; it connects from 127.0.0.2 (the players from 127.0.0.1) and runs in a process of its own at
nice 19, since an attacker's CPU is not the server's. Prints both p50/p99, the p99's movement (target: at most 20%), and what the flooder got.

    .venv/bin/python benchmarks/ws_flood.py                        # the server's limits (PAXH_WS_RATE/BURST)
    .venv/bin/python benchmarks/ws_flood.py --ws-rate 1e9 --ws-burst 1e9   # no limit: the old behaviour
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load import free_port, pct, play_seat, post, start_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def flooder(url: str, stop: asyncio.Event, stats: dict) -> None:
    while not stop.is_set():
        try:
            # from 127.0.0.2: another address than the players' (an attacker is not them)
            async with connect(url, max_size=None, local_addr=("127.0.0.2", 0)) as ws:
                stats["connections"] += 1

                async def drain() -> None:
                    async for raw in ws:
                        m = json.loads(raw)
                        if m.get("type") == "error":
                            stats[m["code"]] = stats.get(m["code"], 0) + 1
                        else:
                            stats["answered"] += 1
                reader = asyncio.create_task(drain())
                try:
                    while not stop.is_set():
                        await ws.send('{"type": "refresh"}')
                        stats["sent"] += 1
                        if stats["sent"] % 50 == 0:
                            await asyncio.sleep(0)   # let the reader run on a fast loop
                except ConnectionClosed as e:
                    stats["closed"].append(e.rcvd.code if e.rcvd else None)
                finally:
                    reader.cancel()
        except (ConnectionClosed, OSError):
            pass
        # reconnect a second later: a flood of handshakes is another attack, for the proxy's
        # connection limits (nginx limit_conn/limit_req), not the per-connection budget measured here
        await asyncio.sleep(1.0)


async def phase(port: int, base: str, args: argparse.Namespace, flood: bool) -> dict:
    games = [post(base, "/api/games", {"players": 2, "seats": [{"kind": "human"}] * 2}) for _ in range(args.games)]
    rtts: list[float] = []
    counts: dict = {"actions": 0, "over": 0, "errors": {}}
    stop = asyncio.Event()
    stats: dict = {"sent": 0, "answered": 0, "connections": 0, "closed": []}
    child = None
    if flood:   # in its own process at nice 19: the attacker's CPU is not the server's in real life
        target = post(base, "/api/games", {"players": 2, "seats": [{"kind": "human"}] * 2})
        out_path = tempfile.mktemp(prefix="paxh-flooder-", suffix=".json")
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--flooder",
                                  f"ws://127.0.0.1:{port}/ws/{target['seats'][0]['token']}?lang=en",
                                  "--seconds", str(args.seconds + 1), "--out", out_path],
                                 preexec_fn=lambda: os.nice(19))
        await asyncio.sleep(1.0)
    deadline = time.perf_counter() + args.seconds
    await asyncio.gather(*[
        play_seat(f"ws://127.0.0.1:{port}/ws/{s['token']}?fmt=json&view=0", random.Random(gi * 10 + s["seat"]),
                  rtts, counts, deadline, args.think / 1000)
        for gi, g in enumerate(games) for s in g["seats"]])
    stop.set()
    if child is not None:
        try:
            child.wait(args.seconds + 30)   # the flooder stops on its own clock
        except subprocess.TimeoutExpired:
            child.kill()
        try:
            with open(out_path) as f:
                stats = json.load(f)
        except (OSError, ValueError):
            stats = {"note": "the flooder wrote no figures"}
    out = {"actions": counts["actions"], "errors": counts["errors"],
           "action_p50_ms": round(pct(rtts, 50), 1), "action_p99_ms": round(pct(rtts, 99), 1)}
    if flood:
        out["flooder"] = stats
    return out


async def flood_for(url: str, seconds: float, out_path: str) -> None:
    stop = asyncio.Event()
    stats: dict = {"sent": 0, "answered": 0, "connections": 0, "closed": []}
    flood = asyncio.create_task(flooder(url, stop, stats))
    await asyncio.sleep(seconds)
    stop.set()
    with open(out_path, "w") as f:
        json.dump({**stats, "closed": len(stats["closed"]), "close_codes": sorted(set(map(str, stats["closed"])))}, f)
    flood.cancel()                     # as asyncio.run would at the end
    os._exit(0)   # no closing handshake to wait for: the flooder just goes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    ap.add_argument("--think", type=float, default=50.0, help="players' mean think time (ms)")
    ap.add_argument("--ws-rate", help="the server's PAXH_WS_RATE (default: its own, 10)")
    ap.add_argument("--ws-burst", help="the server's PAXH_WS_BURST (default: its own, 30)")
    ap.add_argument("--flooder", help=argparse.SUPPRESS)   # the child: flood this URL
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.flooder:
        asyncio.run(flood_for(args.flooder, args.seconds, args.out))
        return
    for k, v in (("PAXH_WS_RATE", args.ws_rate), ("PAXH_WS_BURST", args.ws_burst)):
        if v is not None:
            os.environ[k] = v
    tmp = tempfile.mkdtemp(prefix="paxh-flood-")
    port = free_port()
    proc = start_server(port, f"sqlite:///{tmp}/flood.sqlite3", os.path.join(tmp, "server.log"))
    base = f"http://127.0.0.1:{port}"
    try:
        quiet = asyncio.run(phase(port, base, args, flood=False))
        flooded = asyncio.run(phase(port, base, args, flood=True))
    finally:
        proc.terminate()
        proc.wait(10)
    move = (flooded["action_p99_ms"] - quiet["action_p99_ms"]) / quiet["action_p99_ms"] * 100
    print(json.dumps({"games": args.games, "seconds": args.seconds, "think_ms": args.think,
                      "ws_rate": os.environ.get("PAXH_WS_RATE", "default"),
                      "ws_burst": os.environ.get("PAXH_WS_BURST", "default"),
                      "without_flood": quiet, "with_flood": flooded, "p99_movement_percent": round(move, 1),
                      "target_met": move <= 20.0}, indent=1))


if __name__ == "__main__":
    main()
