"""Pool several `paxh simulate --json` summaries of one player count (for example the same
table over several master seeds) and print issue 15's balance figures over all their games:

    python benchmarks/pooled_nations.py LABEL=GLOB [LABEL=GLOB ...]

For each label: the games pooled, every nation's wins / games with its 95% Wilson interval,
the largest |nation - chance|, the largest |seat - chance|, the largest legality share of
wins, the share ended early by the Prestige goal, the winner's median (median of the runs'
medians), lead changes per game, and the cards played in fewer than 5% of the games, each with
the share of games where someone won it at auction and of those the share where it was played
(summaries made since the engagement statistics keep `games_won`; docs/bots.md, "The SMUGGLER's
bribe by player count", "reference-7 against every target").
"""

from __future__ import annotations

import glob
import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pooled(paths: list[str]) -> dict:
    wins, games, seats, legality, cards = Counter(), Counter(), Counter(), Counter(), Counter()
    won, played_won = Counter(), Counter()
    total = early = 0
    lead = 0.0
    medians, players = [], set()
    for path in paths:
        d = json.loads(Path(path).read_text())
        players.update(d["players"])
        total += d["games"]
        for nation, v in d["win_rate"]["nation"].items():
            wins[nation] += v["wins"]
            games[nation] += v["games"]
        for seat, w in d["wins_by_seat"].items():
            seats[seat] += w
        for name, v in d["win_rate"]["legality"].items():
            legality[name] += v["wins"]
        e = d["engagement"]
        early += e["ended_by_prestige"]["count"]
        lead += e["lead_changes"]["mean"] * d["games"]
        for card, v in e["cards"].items():
            cards[card] += v["games_with"]["count"]
            if "games_won" in v:
                won[card] += v["games_won"]["count"]
                played_won[card] += v["played_when_won"]["count"]
        medians.append(d["scores"]["winner"]["median"])
    if len(players) != 1:
        raise SystemExit(f"pool one player count at a time, not {sorted(players)}")
    return {"players": players.pop(), "games": total, "wins": wins, "nation_games": games, "seats": seats,
            "legality": legality, "early": early, "medians": medians, "cards": cards,
            "won": won, "played_won": played_won, "lead": lead / total if total else 0.0}


def report(label: str, p: dict) -> str:
    chance, n = 1 / p["players"], p["games"]
    rates = {k: p["wins"][k] / p["nation_games"][k] for k in p["nation_games"]}
    worst = max(rates, key=lambda k: abs(rates[k] - chance))
    lines = [f"{label}: {p['players']} players, {n} games; largest |nation - chance| "
             f"{abs(rates[worst] - chance):.3f} ({worst} {rates[worst]:.1%})"]
    for k in sorted(rates):
        lo, hi = wilson(p["wins"][k], p["nation_games"][k])
        lines.append(f"  {k:9s} {p['wins'][k]:5d}/{p['nation_games'][k]:<5d} = {rates[k]:.1%}  ({lo:.1%}-{hi:.1%})")
    seat = max(abs(w / n - chance) for w in p["seats"].values())
    top = max(p["legality"], key=p["legality"].get)
    rare = sorted(c for c, k in p["cards"].items() if k / n < 0.05)
    said = [f"{c} {p['cards'][c] / n:.1%}" + (f" (won in {p['won'][c] / n:.1%}, played in "
                                               f"{p['played_won'][c]}/{p['won'][c]} of those)" if c in p["won"] else "")
            for c in rare]
    lines.append(f"  largest |seat - chance| {seat:.3f}; largest legality share {top} "
                 f"{p['legality'][top] / n:.0%}; ended early {p['early'] / n:.1%}; winner's median "
                 f"{statistics.median(p['medians']):g}; lead changes {p['lead']:.2f}; "
                 f"cards in < 5% of games: {'; '.join(said) or 'none'}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    if not argv or any("=" not in a for a in argv):
        raise SystemExit(__doc__)
    for arg in argv:
        label, pattern = arg.split("=", 1)
        paths = sorted(glob.glob(pattern))
        if not paths:
            raise SystemExit(f"{label}: no file matches {pattern}")
        print(report(label, pooled(paths)))


if __name__ == "__main__":
    main(sys.argv[1:])
