"""ISMCTS against three heuristic bots at a fixed iteration budget, resumable (issue 13).

    .venv/bin/python benchmarks/ismcts_strength.py --out out/strength.jsonl --games 200 \
        --bots ismcts:iterations=100,heuristic,heuristic,heuristic --seed 13 --workers 2
    .venv/bin/python benchmarks/ismcts_strength.py --out out/strength.jsonl --report

Plays the games of `paxh simulate --players 4 --games G --bots LIST --seed S` (the same
game seeds, seats rotating one per game: sim.make_specs), in index order, appending each
finished game to the JSONL file as it ends; a second run skips the games already there, so a
long match survives an interruption and two checkouts run side by side cover the same games
at any moment. `--report` prints the bot's wins with a Wilson 95% interval, its mean rank
and the heuristic seats' win rate, over the games in the file (or over the first N, `--first`,
to compare two files on the same games); `--report --paired OTHER.jsonl` also counts, over
the games both files hold, those the bot won in both, in this file only, in the other only,
and in neither (the same games and seats, so a difference is the bot's). Run it with each checkout's `src` first on
PYTHONPATH to measure that checkout's bot.
"""
from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pax_hispanica import sim


def _done(path: Path) -> dict[int, dict]:
    out: dict[int, dict] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                out[r["index"]] = r
    return out


def play(a: argparse.Namespace) -> int:
    path = Path(a.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = _done(path)
    specs = [s for s in sim.make_specs(a.players, a.games, a.bots, a.seed) if s["index"] not in done]
    with path.open("a") as f, ProcessPoolExecutor(a.workers) as pool:
        for r in pool.map(sim.play_game, specs, chunksize=1):      # results in index order
            r.pop("traceback", None)
            f.write(json.dumps(r) + "\n")
            f.flush()
    return 0


def report(path: Path, first: int | None, label: str) -> dict:
    rows = sorted(_done(path).values(), key=lambda r: r["index"])
    if first is not None:
        rows = [r for r in rows if r["index"] < first]
    games = [r for r in rows if not r.get("error")]
    wins = ranks = heur_wins = heur_seats = 0
    for r in games:
        seat = next(s for s, b in enumerate(r["bots"]) if b.startswith(label))
        wins += r["winner"] == seat
        ranks += r["ranking"].index(seat) + 1
        others = [s for s in range(r["players"]) if s != seat]
        heur_wins += sum(r["winner"] == s for s in others)
        heur_seats += len(others)
    n = len(games)
    lo, hi = sim.wilson(wins, n) if n else (None, None)
    return {"file": str(path), "games": n, "errors": len(rows) - n, "indices": [rows[0]["index"], rows[-1]["index"]] if rows else None,
            "bot": label, "wins": wins, "win_rate": round(wins / n, 4) if n else None,
            "ci95": [round(lo, 4), round(hi, 4)] if n else None, "mean_rank": round(ranks / n, 3) if n else None,
            "heuristic_seat_win_rate": round(heur_wins / heur_seats, 4) if heur_seats else None,
            "seconds_per_game": round(sum(r["seconds"] for r in games) / n, 2) if n else None}


def paired(path: Path, other: Path, first: int | None, label: str) -> dict:
    a, b = _done(path), _done(other)
    both = sorted(i for i in a.keys() & b.keys() if (first is None or i < first)
                  and not a[i].get("error") and not b[i].get("error"))

    def won(r: dict) -> bool:
        return r["winner"] == next(s for s, x in enumerate(r["bots"]) if x.startswith(label))
    cells = {"both": 0, "this_only": 0, "other_only": 0, "neither": 0}
    for i in both:
        x, y = won(a[i]), won(b[i])
        cells["both" if x and y else "this_only" if x else "other_only" if y else "neither"] += 1
    return {"games": len(both), "other": str(other), **cells}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--bots", default="ismcts:iterations=100,heuristic,heuristic,heuristic")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--first", type=int, default=None)
    ap.add_argument("--label", default="ismcts")
    ap.add_argument("--paired", default=None, help="another JSONL file of the same games (with --report)")
    a = ap.parse_args(argv)
    if a.report:
        out = report(Path(a.out), a.first, a.label)
        if a.paired:
            out["paired"] = paired(Path(a.out), Path(a.paired), a.first, a.label)
        print(json.dumps(out))
        return 0
    return play(a)


if __name__ == "__main__":
    sys.exit(main())
