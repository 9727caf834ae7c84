"""The web game's analysis queue and Hint, measured on a real server (issues 40, 38).

    .venv/bin/python benchmarks/web_analysis.py --games 2 --hints 8

Starts `paxh serve` (tests/web/conftest.Server) on a fresh SQLite file with the default settings
(PAXH_ANALYSIS_WORKERS 1, PAXH_ANALYSIS_BUDGET 200, PAXH_HINT_BUDGET 150), then:

- plays `--games` 2-player games of heuristic bots to the end and waits for their analyses:
  per job the CPU seconds of the analysis (recorded by the worker, time.process_time in the
  worker process) and the wall time from the game's end until every seat's analysis is done;
  the worker process's nice value (ps);
- times `--hints` Hints (POST /api/hint) in an unrated game of two people, one at each of its
  first positions (the seat to move plays the hinted move, so each hint is a new position), and
  the move answered meanwhile (POST /api/act right after a hint was asked: its latency).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))
from conftest import Server  # noqa: E402

BOTS = {"players": 2, "seats": [{"kind": "bot", "bot_kind": "heuristic"}] * 2}
PEOPLE = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def to_move(srv: Server, tokens: list[str]) -> tuple[str, dict]:
    views = [srv.get(f"/api/view/{t}") for t in tokens]
    i = next(i for i, v in enumerate(views) if v["legal"])
    return tokens[i], views[i]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--hints", type=int, default=8)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="paxh-web-analysis-"))
    url = f"sqlite:///{tmp / 'b.sqlite3'}"
    srv = Server(url, bot_delay=0, env={"PAXH_ANALYSIS_POLL_SECONDS": "0.5"}).start()
    eng = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        walls, nices = [], set()
        for _ in range(args.games):
            g = srv.post("/api/games", BOTS)
            while not srv.get(f"/api/view/{g['spectator']}")["over"]:
                time.sleep(0.2)
            over = time.time()
            while True:
                with eng.connect() as c:
                    st = c.execute(sa.text("SELECT status FROM analysis_jobs WHERE game_id = :g"),
                                   {"g": g["game"]}).scalars().all()
                if st and all(s in ("done", "failed") for s in st):
                    break
                time.sleep(0.2)
            walls.append(time.time() - over)
            # the analysis worker process, alive between jobs (started at nice 10 by its initializer)
            out = subprocess.run(["ps", "-o", "ni=,args=", "--ppid", str(srv.proc.pid)], capture_output=True,
                                 text=True).stdout
            nices |= {line.split()[0] for line in out.splitlines() if "spawn_main" in line}
        with eng.connect() as c:
            jobs = c.execute(sa.text("SELECT status, seconds, budget FROM analysis_jobs")).all()
        secs = [j.seconds for j in jobs if j.status == "done"]
        print(json.dumps({"analyses": len(jobs), "done": len(secs), "budget": jobs[0].budget if jobs else None,
                          "cpu_s_per_seat_median": round(statistics.median(secs), 2),
                          "cpu_s_per_seat_max": round(max(secs), 2),
                          "wall_s_game_end_to_all_seats": [round(w, 1) for w in walls],
                          "worker_nice": sorted(nices)}))
        g = srv.post("/api/games", PEOPLE)
        tokens = [s["token"] for s in g["seats"]]
        hint_s, act_s = [], []
        for _ in range(args.hints):
            token, view = to_move(srv, tokens)
            done: dict = {}

            def ask(token: str = token, done: dict = done) -> None:
                t0 = time.perf_counter()
                done["hint"] = srv.post(f"/api/hint/{token}", {})
                hint_s.append(time.perf_counter() - t0)
            th = threading.Thread(target=ask)
            th.start()
            time.sleep(0.02)
            other = next(t for t in tokens if t != token)      # the event loop answers meanwhile
            t0 = time.perf_counter()
            srv.get(f"/api/view/{other}")
            act_s.append(time.perf_counter() - t0)
            th.join()
            srv.post(f"/api/act/{token}", {"version": view["version"], "action": done["hint"]["action"]})
        print(json.dumps({"hints": len(hint_s), "hint_s_median": round(statistics.median(hint_s), 3),
                          "hint_s_max": round(max(hint_s), 3),
                          "other_request_while_hinting_s_median": round(statistics.median(act_s), 3),
                          "other_request_while_hinting_s_max": round(max(act_s), 3)}))
    finally:
        eng.dispose()
        srv.stop()


if __name__ == "__main__":
    main()
