"""Paired strength of two bot configurations against the same three opponents (a script).

    .venv/bin/python benchmarks/strength_ab.py \
        --a ismcts:iterations=50 --b ismcts:iterations=50:eval=learned \
        --games 200 --seed 1 --out out/ab.jsonl

Game i is played twice, once with A and once with B in the same seat (seat i mod 4, so the
seats rotate) with the same seed and the same opponents (`--opponents`, heuristic by
default): the pairs share their deals, so the difference between A and B is measured with
less noise than two independent runs. Budgets are iterations, not seconds, so the result
does not depend on the machine's load. Each finished game is appended to `--out` as one
JSON line, and a run that stops resumes from the file (`--resume`): a long run can be
read while it goes. The summary gives each side's wins with a Wilson 95% interval and the
pairs' win/loss table (A won and B lost, the reverse, both, neither), B's share of the pairs
only one side won with its Wilson interval, and the exact two-sided sign test of that split.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from pax_hispanica.sim.runner import make_specs, play_game
from pax_hispanica.sim.stats import wilson


def spec(bot: str, opponents: str, players: int, index: int, seed: int) -> dict:
    seat = index % players
    bots = [opponents] * players
    bots[seat] = bot
    s = make_specs(players, index + 1, ",".join(bots), seed, rotate=False)[index]
    return s


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test of the discordant pairs (one side won, the other did not):
    the probability, were A and B equally strong (each discordant pair a fair coin), of a split
    at least as uneven as wins:losses."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = math.fsum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def summary(rows: list[dict], a: str, b: str) -> dict:
    pairs = {}
    for r in rows:
        pairs.setdefault(r["index"], {})[r["side"]] = r["won"]
    done = [p for p in pairs.values() if "a" in p and "b" in p]
    wa, wb = sum(p["a"] for p in done), sum(p["b"] for p in done)
    n = len(done)
    only_a = sum(1 for p in done if p["a"] and not p["b"])
    only_b = sum(1 for p in done if p["b"] and not p["a"])
    return {"a": a, "b": b, "pairs": n,
            "a_wins": wa, "a_rate": round(wa / n, 4) if n else None, "a_ci95": wilson(wa, n),
            "b_wins": wb, "b_rate": round(wb / n, 4) if n else None, "b_ci95": wilson(wb, n),
            "only_a": only_a, "only_b": only_b,
            "both": sum(1 for p in done if p["a"] and p["b"]),
            # B's share of the pairs only one side won, and the paired sign test of that split
            "b_share_of_split_pairs": round(only_b / (only_a + only_b), 4) if only_a + only_b else None,
            "b_split_ci95": wilson(only_b, only_a + only_b),
            "sign_test_p": round(sign_test(only_a, only_b), 4),
            "errors": sum(1 for r in rows if r.get("error"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="bot configuration A, e.g. ismcts:iterations=50")
    ap.add_argument("--b", required=True, help="bot configuration B")
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200, help="pairs of games")
    ap.add_argument("--start", type=int, default=0, help="play the pairs from this index on (split a run over "
                                                          "processes, each its own --out; concatenate the files "
                                                          "and --resume to read the whole)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True, help="JSON lines, one per finished game")
    ap.add_argument("--resume", action="store_true", help="keep the games already in --out")
    ap.add_argument("--only", choices=["a", "b"], help="play one side only (its games do not depend on the other's: "
                                                       "A's games can be played first, or shared between comparisons)")
    args = ap.parse_args(argv)
    rows: list[dict] = []
    if args.resume and args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    elif args.out.exists():
        args.out.unlink()
    have = {(r["index"], r["side"]) for r in rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with args.out.open("a") as fh:
        for i in range(args.start, args.games):
            for side, bot in (("a", args.a), ("b", args.b)):
                if (i, side) in have or (args.only and side != args.only):
                    continue
                s = spec(bot, args.opponents, args.players, i, args.seed)
                r = play_game(s)
                seat = i % args.players
                row = {"index": i, "side": side, "bot": bot, "seat": seat, "seed": s["seed"],
                       "won": r["winner"] == seat, "rank": (r["ranking"] or []).index(seat) if r["ranking"] else None,
                       "error": r["error"], "seconds": round(r["seconds"], 2)}
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                rows.append(row)
            if (i + 1) % 10 == 0:
                print(f"[{time.perf_counter() - t0:7.0f}s] {i + 1} pairs: {json.dumps(summary(rows, args.a, args.b))}",
                      file=sys.stderr)
    print(json.dumps(summary(rows, args.a, args.b), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
