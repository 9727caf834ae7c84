"""Issue 15's targets from `paxh simulate --json` summaries, one table row per player count and run.

    python benchmarks/issue15_table.py LABEL=PREFIX [LABEL=PREFIX ...]

reads PREFIX_p2.json .. PREFIX_p5.json (a missing file is skipped) and prints a Markdown table:
the largest |nation - chance| (worst nation), the Spanish win rate, the largest |seat - chance|,
the largest legality share of wins (and whether every legality won a game), the share of games
ended early (by the Prestige goal, CYC-2), the winner's median score, lead changes per game,
cards played per player and the cards played in fewer than 5% of games (docs/bots.md,
"reference-5 candidate (issue 15)").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

COLUMNS = ("max |nation − chance| (worst)", "Spanish", "max |seat − chance|", "largest legality share of wins",
           "ended early", "winner's median", "lead changes", "cards / player", "cards in < 5% of games")


def row(d: dict, n: int) -> list[str]:
    chance = 1 / n
    wr, e = d["win_rate"], d["engagement"]
    nation = wr["nation"]
    worst = max(nation.items(), key=lambda kv: abs(kv[1]["rate"] - chance))
    seat = max(abs(v["rate"] - chance) for v in wr["seat"].values())
    legal = wr["legality"]
    total = sum(v["wins"] for v in legal.values()) or 1
    big = max(legal.items(), key=lambda kv: kv[1]["wins"])
    unused = [k for k, v in legal.items() if v["wins"] == 0]
    rare = e.get("cards_rarely_played") or []
    sp = nation.get("spanish", {"rate": 0.0})
    return [f"{abs(worst[1]['rate'] - chance):.3f} ({worst[0]} {worst[1]['rate']:.0%})", f"{sp['rate']:.0%}",
            f"{seat:.3f}", f"{big[0]} {big[1]['wins'] / total:.0%}" + (f" (no wins: {', '.join(unused)})" if unused else ""),
            f"{e['ended_by_prestige']['share']:.1%}", f"{d['scores']['winner']['median']:g}",
            f"{e['lead_changes']['mean']:.2f}", f"{e['cards_per_player']['mean']:.2f}",
            f"{len(rare)}" + (f" ({', '.join(rare)})" if rare else "")]


def main(args: list[str]) -> None:
    runs = [a.split("=", 1) for a in args]
    print("| players (chance) | run | " + " | ".join(COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    for n in (2, 3, 4, 5):
        for label, prefix in runs:
            path = Path(f"{prefix}_p{n}.json")
            if not path.exists():
                continue
            d = json.loads(path.read_text())
            print(f"| {n} ({1 / n:.0%}) | {label} ({d['completed']} games) | " + " | ".join(row(d, n)) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
