"""`paxh simulate` with four random bots against catanatron's random 4-player games, side
by side in one interleaved run (issue 13's target: ≥ 1.5 × catanatron's actions/s).

catanatron is not a dependency of this project: install it in a separate venv, e.g.

    python3 -m venv /tmp/catvenv
    /work/main/.venv/bin/pip download catanatron -d /tmp/cat       # or from an index
    /tmp/catvenv/bin/pip install --no-index --find-links /tmp/cat catanatron
    .venv/bin/python benchmarks/peer_catanatron.py --peer-python /tmp/catvenv/bin/python --rounds 5

Each round runs one worker process per side, the order alternating between rounds; each
worker warms up, then plays its games and reports decisions (paxh: every decision of
`sim.run(4, games, "random", workers=1)`, the loop of `paxh simulate`; catanatron: every
action of `Game([RandomPlayer x 4]).play()`, i.e. len(game.state.actions)) per second of
process CPU time. The figures are the medians over rounds, so a slow spell of the shared
machine hits both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLOCK = time.process_time


def paxh_worker(games: int) -> dict:
    from pax_hispanica import sim
    sim.run(4, 1, "random", seed=1, workers=1)                # warm up: ruleset load, imports
    t0 = CLOCK()
    results = sim.run(4, games, "random", seed=7, workers=1)
    secs = CLOCK() - t0
    dec = sum(r["decisions"] for r in results)
    return {"decisions": dec, "seconds": secs, "per_s": dec / secs, "games": games,
            "errors": sum(1 for r in results if r.get("error"))}


def catanatron_worker(games: int) -> dict:
    import random

    from catanatron import Color, Game, RandomPlayer
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]

    def one(seed: int) -> int:
        random.seed(seed)
        game = Game([RandomPlayer(c) for c in colors], seed=seed)
        game.play()
        return len(game.state.actions)

    one(1)                                                      # warm up
    t0 = CLOCK()
    dec = sum(one(100 + g) for g in range(games))
    secs = CLOCK() - t0
    return {"decisions": dec, "seconds": secs, "per_s": dec / secs, "games": games}


def _run(python: str, side: str, games: int, src: Path) -> dict:
    env = dict(os.environ)
    if side == "paxh":
        env["PYTHONPATH"] = str(src)
    else:
        env.pop("PYTHONPATH", None)
    cmd = [python, str(Path(__file__).resolve()), "--worker", side, "--games", str(games)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer-python", default="/tmp/catvenv/bin/python", help="a python with catanatron installed")
    ap.add_argument("--src", type=Path, default=HERE.parent / "src", help="the pax_hispanica sources measured")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=20, help="paxh games per worker")
    ap.add_argument("--peer-games", type=int, default=20, help="catanatron games per worker")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", choices=("paxh", "catanatron"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        print(json.dumps(paxh_worker(a.games) if a.worker == "paxh" else catanatron_worker(a.games)))
        return 0
    runs: dict[str, list[dict]] = {"paxh": [], "catanatron": []}
    for r in range(a.rounds):
        for side in (("paxh", "catanatron") if r % 2 == 0 else ("catanatron", "paxh")):
            if side == "paxh":
                runs[side].append(_run(sys.executable, side, a.games, a.src))
            else:
                runs[side].append(_run(a.peer_python, side, a.peer_games, a.src))
            print(f"round {r + 1}/{a.rounds} {side}: {runs[side][-1]['per_s']:,.0f}/s", file=sys.stderr, flush=True)
    med = {side: statistics.median(x["per_s"] for x in rs) for side, rs in runs.items()}
    res = {"rounds": a.rounds, "medians": med, "ratio": med["paxh"] / med["catanatron"], "runs": runs,
           "python": sys.version.split()[0]}
    if a.json:
        print(json.dumps(res, indent=1))
        return 0
    print(f"paxh simulate, 4 random bots: {med['paxh']:,.0f} decisions/s (median of {a.rounds})")
    print(f"catanatron, 4 random players: {med['catanatron']:,.0f} actions/s (median of {a.rounds})")
    print(f"ratio: {res['ratio']:.2f} (target ≥ 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
