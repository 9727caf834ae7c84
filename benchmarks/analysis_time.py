"""Game analysis time per game per core (issue 40): `paxh analyse` on corpus games, CPU time.

    nice -n 10 .venv/bin/python benchmarks/analysis_time.py --players 4 --games 4 --budget 200

Analyses the first `--games` corpus games of `--players` players played by heuristic or ISMCTS
bots (tests/corpus/bots_{n}p.jsonl), every seat of each (`--seats all`) or seat 0, and prints
the CPU time (time.process_time: one core, whatever else the machine runs) per analysis with
its parts: the bot's choices, the rest (replay, views, the value model). `--out FILE` writes the
rows as JSON lines (under out/, which git ignores)."""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pax_hispanica.analysis import analyse

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--budget", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seats", choices=("0", "all"), default="0")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    entries = [json.loads(line) for line in (ROOT / "tests" / "corpus" / f"bots_{args.players}p.jsonl").read_text().splitlines()]
    entries = [e for e in entries if "random" not in e["bots"] and not e["record"]["config"].get("params")][:args.games]
    rows = []
    for e in entries:
        seats = range(args.players) if args.seats == "all" else (0,)
        for seat in seats:
            t0 = time.process_time()
            a = analyse(e["record"], seat=seat, budget=args.budget, seed=args.seed)
            cpu = time.process_time() - t0
            row = {"game": e["id"], "seat": seat, "actions": len(e["record"]["actions"]), "decisions": len(a.decisions),
                   "budget": args.budget, "cpu_seconds": round(cpu, 3), "marks": a.counts(),
                   "costs": sorted(round(d.cost, 4) for d in a.decisions if d.cost > 0)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    cpu = [r["cpu_seconds"] for r in rows]
    print(f"{len(rows)} analyses of {args.players}-player games at budget {args.budget}: CPU per analysis "
          f"mean {statistics.mean(cpu):.2f} s, median {statistics.median(cpu):.2f} s, max {max(cpu):.2f} s; "
          f"{statistics.mean(r['decisions'] for r in rows):.0f} decisions reviewed on average")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
